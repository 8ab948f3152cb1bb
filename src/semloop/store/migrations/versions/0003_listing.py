"""Indexes for the read API's listings: runs by start time, signals by detection time.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30

Both run indexes are partial (``run.started`` events only, one per run), so ingest pays for
them on one event in a run. API keys need no change: ``key_id`` and ``revoked_at`` were in
0001, so every key issued before this revision keeps working and can be listed and revoked.
Self-contained like 0001: the predicate is restated here.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

STARTED_WHERE = "event_type = 'run.started'"


def upgrade() -> None:
    op.create_index(
        "ix_events_started_org_id_timestamp_id", "events", ["org_id", "timestamp", "id"],
        postgresql_where=sa.text(STARTED_WHERE), sqlite_where=sa.text(STARTED_WHERE),
    )
    op.create_index(
        "ix_events_started_org_id_agent_id_timestamp_id", "events",
        ["org_id", "agent_id", "timestamp", "id"],
        postgresql_where=sa.text(STARTED_WHERE), sqlite_where=sa.text(STARTED_WHERE),
    )
    op.create_index(
        "ix_failure_signals_org_id_detected_at_id", "failure_signals",
        ["org_id", "detected_at", "id"],
    )


def downgrade() -> None:
    op.drop_index("ix_failure_signals_org_id_detected_at_id", table_name="failure_signals")
    op.drop_index("ix_events_started_org_id_agent_id_timestamp_id", table_name="events")
    op.drop_index("ix_events_started_org_id_timestamp_id", table_name="events")
