"""Indexes for an agent's health: its versions, and each version's newest completed runs
(the baselines), one row per run instead of one per event.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04

The index on every event by ``(org_id, agent_id, agent_version)`` made both reads walk
the agent's whole history and sort it; partial indexes on started and on completed events
serve them in order (the versions from the index alone), so that index goes.
Self-contained: the predicates are restated here.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

STARTED_WHERE = "event_type = 'run.started'"
COMPLETED_WHERE = "event_type = 'run.completed'"


def upgrade() -> None:
    for name, columns, where in (
        ("ix_events_started_org_id_agent_id_agent_version_timestamp",
         ["org_id", "agent_id", "agent_version", "timestamp"], STARTED_WHERE),
        ("ix_events_completed_org_id_agent_id_agent_version_timestamp_id",
         ["org_id", "agent_id", "agent_version", "timestamp", "id"], COMPLETED_WHERE),
    ):
        op.create_index(name, "events", columns, postgresql_where=sa.text(where),
                        sqlite_where=sa.text(where))
    op.drop_index("ix_events_org_id_agent_id_agent_version", table_name="events")


def downgrade() -> None:
    op.create_index("ix_events_org_id_agent_id_agent_version", "events",
                    ["org_id", "agent_id", "agent_version"])
    op.drop_index("ix_events_completed_org_id_agent_id_agent_version_timestamp_id",
                  table_name="events")
    op.drop_index("ix_events_started_org_id_agent_id_agent_version_timestamp",
                  table_name="events")
