"""Alerts: a decision per signal, the alerts sent, their deliveries (an outbox), and an index
of each agent's finished runs by end time.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30

Signals stored before this revision are marked ``preexisting``: the alerts worker starts
with what is detected from now on instead of paging about a database's whole past.
Self-contained like 0001: the types are restated here.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

JsonDoc = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


TERMINAL_WHERE = "event_type IN ('run.completed', 'run.errored')"


def upgrade() -> None:
    op.create_index(
        "ix_events_terminal_org_id_agent_id_timestamp", "events",
        ["org_id", "agent_id", "timestamp"],
        postgresql_where=sa.text(TERMINAL_WHERE), sqlite_where=sa.text(TERMINAL_WHERE),
    )
    with op.batch_alter_table("failure_signals") as batch:
        batch.add_column(sa.Column("alert_decision", sa.String(16), nullable=True))
        batch.create_index("ix_failure_signals_alert_decision", ["alert_decision"])
    op.execute("UPDATE failure_signals SET alert_decision = 'preexisting'")
    op.create_table(
        "alerts",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("org_id", sa.String(32), nullable=False),
        sa.Column("signal_id", BigId, nullable=False),
        sa.Column("agent_id", sa.String(200), nullable=False),
        sa.Column("failure_type", sa.String(64), nullable=False),
        sa.Column("run_id", sa.String(128), nullable=False),
        sa.Column("run_ended_at", sa.Double(), nullable=False),
        sa.Column("policy", sa.String(32), nullable=False),
        sa.Column("severity", sa.String(16), nullable=False),
        sa.Column("confidence", sa.Double(), nullable=False),
        sa.Column("counts", JsonDoc, nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_alerts"),
        sa.ForeignKeyConstraint(
            ["org_id"], ["organizations.id"], ondelete="CASCADE",
            name="fk_alerts_org_id_organizations",
        ),
        sa.ForeignKeyConstraint(
            ["signal_id"], ["failure_signals.id"], ondelete="CASCADE",
            name="fk_alerts_signal_id_failure_signals",
        ),
        sa.UniqueConstraint("signal_id", name="uq_alerts_signal_id"),
    )
    op.create_index(
        "ix_alerts_org_id_agent_id_failure_type_created_at", "alerts",
        ["org_id", "agent_id", "failure_type", "created_at"],
    )
    op.create_table(
        "alert_deliveries",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("alert_id", BigId, nullable=False),
        sa.Column("destination", sa.String(100), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("attempt_log", JsonDoc, nullable=False),
        sa.Column("last_error", sa.String(500), nullable=True),
        sa.Column("payload", JsonDoc, nullable=False),
        sa.Column("claimed_until", sa.Double(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("finished_at", sa.Double(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_alert_deliveries"),
        sa.ForeignKeyConstraint(
            ["alert_id"], ["alerts.id"], ondelete="CASCADE",
            name="fk_alert_deliveries_alert_id_alerts",
        ),
        sa.UniqueConstraint("alert_id", "destination",
                            name="uq_alert_deliveries_alert_id_destination"),
    )
    op.create_index(
        "ix_alert_deliveries_status_claimed_until", "alert_deliveries",
        ["status", "claimed_until"],
    )


def downgrade() -> None:
    op.drop_index("ix_alert_deliveries_status_claimed_until", table_name="alert_deliveries")
    op.drop_table("alert_deliveries")
    op.drop_index("ix_alerts_org_id_agent_id_failure_type_created_at", table_name="alerts")
    op.drop_table("alerts")
    with op.batch_alter_table("failure_signals") as batch:
        batch.drop_index("ix_failure_signals_alert_decision")
        batch.drop_column("alert_decision")
    op.drop_index("ix_events_terminal_org_id_agent_id_timestamp", table_name="events")
