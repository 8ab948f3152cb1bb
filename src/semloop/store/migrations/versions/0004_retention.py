"""Indexes for retention: an org's events by arrival time, processed runs by run.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30

``Store.prune`` walks an org's events oldest arrival first from where its last batch
stopped, so each batch reads only the index entries it deletes or keeps, never the whole
table. ``processed_runs`` is keyed by worker first; the second index lets a prune find a
run's rows without scanning every worker's.
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_events_org_id_received_at_id", "events",
                    ["org_id", "received_at", "id"])
    op.create_index("ix_processed_runs_org_id_run_id", "processed_runs", ["org_id", "run_id"])


def downgrade() -> None:
    op.drop_index("ix_processed_runs_org_id_run_id", table_name="processed_runs")
    op.drop_index("ix_events_org_id_received_at_id", table_name="events")
