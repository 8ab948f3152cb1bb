"""Indexes for the runs listing's filters: a run's terminal event by run, and signals by
failure type.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04

Filtering runs by status probes each run's terminal event; the partial index holds one
row per finished run, so the probe reads one entry instead of every event of the run.
Filtering by failure type first finds the runs with such a signal
(``org_id, failure_type, agent_id, run_id``), so a filter that matches few or no runs
stops there instead of walking the agent's history. Self-contained: the predicate is
restated here.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

TERMINAL_WHERE = "event_type IN ('run.completed', 'run.errored')"


def upgrade() -> None:
    op.create_index(
        "ix_events_terminal_org_id_run_id", "events", ["org_id", "run_id"],
        postgresql_where=sa.text(TERMINAL_WHERE), sqlite_where=sa.text(TERMINAL_WHERE),
    )
    op.create_index(
        "ix_failure_signals_org_id_failure_type_agent_id_run_id", "failure_signals",
        ["org_id", "failure_type", "agent_id", "run_id"],
    )


def downgrade() -> None:
    op.drop_index("ix_failure_signals_org_id_failure_type_agent_id_run_id",
                  table_name="failure_signals")
    op.drop_index("ix_events_terminal_org_id_run_id", table_name="events")
