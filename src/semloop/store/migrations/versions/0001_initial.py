"""Initial schema: organizations, API keys, events, processed runs, run claims, signals.

Revision ID: 0001
Revises:
Create Date: 2026-11-30

Self-contained: the types are defined here, not imported from ``_models``, so this revision
keeps meaning what it meant when later revisions change the models.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

JsonDoc = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "organizations",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_organizations"),
        sa.UniqueConstraint("name", name="uq_organizations_name"),
    )
    op.create_table(
        "api_keys",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("org_id", sa.String(32), nullable=False),
        sa.Column("key_id", sa.String(32), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("revoked_at", sa.Double(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_api_keys"),
        sa.ForeignKeyConstraint(
            ["org_id"], ["organizations.id"], ondelete="CASCADE",
            name="fk_api_keys_org_id_organizations",
        ),
        sa.UniqueConstraint("key_id", name="uq_api_keys_key_id"),
    )
    op.create_index("ix_api_keys_org_id", "api_keys", ["org_id"])
    op.create_table(
        "events",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("org_id", sa.String(32), nullable=False),
        sa.Column("event_id", sa.String(64), nullable=False),
        sa.Column("event_type", sa.String(64), nullable=False),
        sa.Column("run_id", sa.String(128), nullable=False),
        sa.Column("agent_id", sa.String(200), nullable=False),
        sa.Column("agent_version", sa.String(64), nullable=False),
        sa.Column("step_index", sa.Integer(), nullable=False),
        sa.Column("timestamp", sa.Double(), nullable=False),
        sa.Column("payload", JsonDoc, nullable=False),
        sa.Column("parent_run_id", sa.String(128), nullable=True),
        sa.Column("trace_id", sa.String(128), nullable=True),
        sa.Column("conversation_id", sa.String(200), nullable=True),
        sa.Column("received_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_events"),
        sa.ForeignKeyConstraint(
            ["org_id"], ["organizations.id"], ondelete="CASCADE",
            name="fk_events_org_id_organizations",
        ),
        sa.UniqueConstraint("org_id", "event_id", name="uq_events_org_id_event_id"),
    )
    op.create_index("ix_events_org_id_run_id", "events", ["org_id", "run_id"])
    op.create_index("ix_events_event_type_received_at", "events", ["event_type", "received_at"])
    op.create_index(
        "ix_events_org_id_agent_id_agent_version", "events",
        ["org_id", "agent_id", "agent_version"],
    )
    op.create_table(
        "processed_runs",
        sa.Column("worker", sa.String(64), nullable=False),
        sa.Column("org_id", sa.String(32), nullable=False),
        sa.Column("run_id", sa.String(128), nullable=False),
        sa.Column("trigger", sa.String(16), nullable=False),
        sa.Column("processed_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("worker", "org_id", "run_id", name="pk_processed_runs"),
    )
    op.create_table(
        "run_claims",
        sa.Column("worker", sa.String(64), nullable=False),
        sa.Column("org_id", sa.String(32), nullable=False),
        sa.Column("run_id", sa.String(128), nullable=False),
        sa.Column("claimed_until", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("worker", "org_id", "run_id", name="pk_run_claims"),
    )
    op.create_table(
        "failure_signals",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("org_id", sa.String(32), nullable=False),
        sa.Column("run_id", sa.String(128), nullable=False),
        sa.Column("failure_type", sa.String(64), nullable=False),
        sa.Column("source", sa.String(32), nullable=False),
        sa.Column("severity", sa.String(16), nullable=False),
        sa.Column("confidence", sa.Double(), nullable=False),
        sa.Column("evidence", JsonDoc, nullable=False),
        sa.Column("step_index", sa.Integer(), nullable=False),
        sa.Column("agent_id", sa.String(200), nullable=False),
        sa.Column("agent_version", sa.String(64), nullable=False),
        sa.Column("shadow", sa.Boolean(), nullable=False),
        sa.Column("alerted", sa.Boolean(), nullable=False),
        sa.Column("co_signal_count", sa.Integer(), nullable=False),
        sa.Column("detected_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_failure_signals"),
        sa.ForeignKeyConstraint(
            ["org_id"], ["organizations.id"], ondelete="CASCADE",
            name="fk_failure_signals_org_id_organizations",
        ),
        sa.UniqueConstraint(
            "org_id", "run_id", "failure_type", "source",
            name="uq_failure_signals_org_id_run_id_failure_type_source",
        ),
    )


def downgrade() -> None:
    op.drop_table("failure_signals")
    op.drop_table("run_claims")
    op.drop_table("processed_runs")
    op.drop_index("ix_events_org_id_agent_id_agent_version", table_name="events")
    op.drop_index("ix_events_event_type_received_at", table_name="events")
    op.drop_index("ix_events_org_id_run_id", table_name="events")
    op.drop_table("events")
    op.drop_index("ix_api_keys_org_id", table_name="api_keys")
    op.drop_table("api_keys")
    op.drop_table("organizations")
