"""Detector packs an organization enabled.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04

Self-contained like 0001: the types are restated here.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "org_packs",
        sa.Column("org_id", sa.String(32), nullable=False),
        sa.Column("pack_name", sa.String(64), nullable=False),
        sa.Column("enabled_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("org_id", "pack_name", name="pk_org_packs"),
        sa.ForeignKeyConstraint(["org_id"], ["organizations.id"], ondelete="CASCADE",
                                name="fk_org_packs_org_id_organizations"),
    )


def downgrade() -> None:
    op.drop_table("org_packs")
