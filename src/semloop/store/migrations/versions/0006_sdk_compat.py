"""What the Dunetrace SDK reads and writes besides events: remote policies, approvals
and deploy markers.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01

Self-contained like 0001: the types are restated here.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

JsonDoc = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _org_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["org_id"], ["organizations.id"], ondelete="CASCADE",
                                   name=f"fk_{table}_org_id_organizations")


def upgrade() -> None:
    op.create_table(
        "remote_policies",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("org_id", sa.String(32), nullable=False),
        sa.Column("agent_id", sa.String(200), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("condition", JsonDoc, nullable=False),
        sa.Column("action", JsonDoc, nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("priority", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("updated_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_remote_policies"),
        _org_fk("remote_policies"),
    )
    op.create_index("ix_remote_policies_org_id_agent_id", "remote_policies",
                    ["org_id", "agent_id"])
    op.create_table(
        "approvals",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("org_id", sa.String(32), nullable=False),
        sa.Column("run_id", sa.String(128), nullable=False),
        sa.Column("agent_id", sa.String(200), nullable=False),
        sa.Column("tool_name", sa.String(200), nullable=False),
        sa.Column("tool_args", sa.String(65536), nullable=True),
        sa.Column("timeout_seconds", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("expires_at", sa.Double(), nullable=False),
        sa.Column("decided_at", sa.Double(), nullable=True),
        sa.Column("decided_by", sa.String(200), nullable=True),
        sa.Column("decision_channel", sa.String(32), nullable=True),
        sa.Column("note", sa.String(2000), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_approvals"),
        _org_fk("approvals"),
    )
    op.create_index("ix_approvals_org_id_status_created_at", "approvals",
                    ["org_id", "status", "created_at"])
    op.create_table(
        "deploys",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("org_id", sa.String(32), nullable=False),
        sa.Column("agent_id", sa.String(200), nullable=False),
        sa.Column("version", sa.String(64), nullable=False),
        sa.Column("meta", JsonDoc, nullable=False),
        sa.Column("deployed_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_deploys"),
        _org_fk("deploys"),
    )
    op.create_index("ix_deploys_org_id_agent_id_deployed_at", "deploys",
                    ["org_id", "agent_id", "deployed_at"])


def downgrade() -> None:
    op.drop_index("ix_deploys_org_id_agent_id_deployed_at", table_name="deploys")
    op.drop_table("deploys")
    op.drop_index("ix_approvals_org_id_status_created_at", table_name="approvals")
    op.drop_table("approvals")
    op.drop_index("ix_remote_policies_org_id_agent_id", table_name="remote_policies")
    op.drop_table("remote_policies")
