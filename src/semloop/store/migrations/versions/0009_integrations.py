"""The integrations worker's state: one row per configured provider of an org, with its
pull cursor and its outage (since when it fails, and whether the one down signal of that
outage was written).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04

Self-contained like 0001: the types are restated here.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "integration_state",
        sa.Column("org_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("provider", sa.String(32), nullable=False),
        sa.Column("cursor", sa.String(200), nullable=True),
        sa.Column("last_success_at", sa.Double(), nullable=True),
        sa.Column("failing_since", sa.Double(), nullable=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.String(500), nullable=True),
        sa.Column("down_signalled", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("org_id", "name", name="pk_integration_state"),
        sa.ForeignKeyConstraint(["org_id"], ["organizations.id"], ondelete="CASCADE",
                                name="fk_integration_state_org_id_organizations"),
    )


def downgrade() -> None:
    op.drop_table("integration_state")
