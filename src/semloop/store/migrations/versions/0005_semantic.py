"""The semantic worker: sampling decisions, evaluator tasks, the evaluation log, usage
counters, agent and org semantic settings, recurring issues, feedback, conversations and
results pushed by external evaluation providers.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

Claims reuse ``run_claims``/``processed_runs`` under the worker name ``semantic``.
Self-contained like the others: the types are restated here. Generated from the models,
then checked by tests/store/test_migrations.py.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

JsonDoc = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "agent_semantic_config",
        sa.Column("org_id", sa.String(length=32), nullable=False),
        sa.Column("agent_id", sa.String(length=200), nullable=False),
        sa.Column("sample_rate", sa.Double(), nullable=True),
        sa.Column("budget_monthly", sa.Integer(), nullable=True),
        sa.Column("evaluators", JsonDoc, nullable=False),
        sa.Column("semantic_critical", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_agent_semantic_config_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("org_id", "agent_id", name=op.f("pk_agent_semantic_config")),
    )
    op.create_table(
        "semantic_conversations",
        sa.Column("org_id", sa.String(length=32), nullable=False),
        sa.Column("conversation_id", sa.String(length=200), nullable=False),
        sa.Column("agent_id", sa.String(length=200), nullable=False),
        sa.Column("sampled", sa.Boolean(), nullable=False),
        sa.Column("reason", sa.String(length=32), nullable=False),
        sa.Column("runs_evaluated", sa.Integer(), nullable=False),
        sa.Column("last_evaluated_at", sa.Double(), nullable=True),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_semantic_conversations_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "org_id", "conversation_id", name=op.f("pk_semantic_conversations")
        ),
    )
    op.create_table(
        "semantic_evaluations",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("org_id", sa.String(length=32), nullable=False),
        sa.Column("run_id", sa.String(length=128), nullable=False),
        sa.Column("conversation_id", sa.String(length=200), nullable=True),
        sa.Column("agent_id", sa.String(length=200), nullable=False),
        sa.Column("evaluator", sa.String(length=64), nullable=False),
        sa.Column("judge", sa.String(length=64), nullable=False),
        sa.Column("model", sa.String(length=200), nullable=False),
        sa.Column("input_tokens", sa.Integer(), nullable=False),
        sa.Column("output_tokens", sa.Integer(), nullable=False),
        sa.Column("estimated", sa.Boolean(), nullable=False),
        sa.Column("cost_usd", sa.Double(), nullable=False),
        sa.Column("latency_ms", sa.Double(), nullable=False),
        sa.Column("fired", sa.Boolean(), nullable=False),
        sa.Column("confidence", sa.Double(), nullable=True),
        sa.Column("undecided", sa.Boolean(), nullable=False),
        sa.Column("error", sa.String(length=500), nullable=True),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("second_opinion", sa.Boolean(), nullable=False),
        sa.Column("evaluated_at", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_semantic_evaluations_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_semantic_evaluations")),
    )
    op.create_index(
        op.f("ix_semantic_evaluations_org_id_evaluated_at"),
        "semantic_evaluations",
        ["org_id", "evaluated_at"],
        unique=False,
    )
    op.create_table(
        "semantic_groups",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("org_id", sa.String(length=32), nullable=False),
        sa.Column("agent_id", sa.String(length=200), nullable=False),
        sa.Column("evaluator", sa.String(length=64), nullable=False),
        sa.Column("representation", sa.String(length=2000), nullable=False),
        sa.Column("vector", JsonDoc, nullable=True),
        sa.Column("first_seen", sa.Double(), nullable=False),
        sa.Column("last_seen", sa.Double(), nullable=False),
        sa.Column("run_count", sa.Integer(), nullable=False),
        sa.Column("false_positives", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_semantic_groups_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_semantic_groups")),
    )
    op.create_index(
        op.f("ix_semantic_groups_org_id_agent_id_evaluator"),
        "semantic_groups",
        ["org_id", "agent_id", "evaluator"],
        unique=False,
    )
    op.create_table(
        "semantic_samples",
        sa.Column("org_id", sa.String(length=32), nullable=False),
        sa.Column("run_id", sa.String(length=128), nullable=False),
        sa.Column("agent_id", sa.String(length=200), nullable=False),
        sa.Column("sampled", sa.Boolean(), nullable=False),
        sa.Column("reason", sa.String(length=32), nullable=False),
        sa.Column("rate", sa.Double(), nullable=False),
        sa.Column("bucket", sa.Double(), nullable=False),
        sa.Column("charged", sa.Boolean(), nullable=False),
        sa.Column("decided_at", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_semantic_samples_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("org_id", "run_id", name=op.f("pk_semantic_samples")),
    )
    op.create_table(
        "semantic_settings",
        sa.Column("org_id", sa.String(length=32), nullable=False),
        sa.Column("evaluation_quota", sa.Integer(), nullable=False),
        sa.Column("allow_overage", sa.Boolean(), nullable=False),
        sa.Column("conversation_quota", sa.Integer(), nullable=False),
        sa.Column("allow_conversation_overage", sa.Boolean(), nullable=False),
        sa.Column("count_local_evaluations", sa.Boolean(), nullable=False),
        sa.Column("feedback_enabled", sa.Boolean(), nullable=False),
        sa.Column("auto_suppress", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_semantic_settings_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("org_id", name=op.f("pk_semantic_settings")),
    )
    op.create_table(
        "semantic_tasks",
        sa.Column("org_id", sa.String(length=32), nullable=False),
        sa.Column("run_id", sa.String(length=128), nullable=False),
        sa.Column("evaluator", sa.String(length=64), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.String(length=500), nullable=True),
        sa.Column("signal_id", BigId, nullable=True),
        sa.Column("updated_at", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_semantic_tasks_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("org_id", "run_id", "evaluator", name=op.f("pk_semantic_tasks")),
    )
    op.create_table(
        "semantic_usage",
        sa.Column("org_id", sa.String(length=32), nullable=False),
        sa.Column("scope", sa.String(length=16), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("month", sa.String(length=7), nullable=False),
        sa.Column("used", sa.Integer(), nullable=False),
        sa.Column("exceeded", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_semantic_usage_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("org_id", "scope", "key", "month", name=op.f("pk_semantic_usage")),
    )
    op.create_table(
        "semantic_feedback",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("org_id", sa.String(length=32), nullable=False),
        sa.Column("signal_id", BigId, nullable=False),
        sa.Column("verdict", sa.String(length=16), nullable=False),
        sa.Column("note", sa.String(length=2000), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_semantic_feedback_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["signal_id"],
            ["failure_signals.id"],
            name=op.f("fk_semantic_feedback_signal_id_failure_signals"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_semantic_feedback")),
    )
    op.create_index(
        op.f("ix_semantic_feedback_signal_id"), "semantic_feedback", ["signal_id"], unique=False
    )
    op.create_table(
        "semantic_group_members",
        sa.Column("group_id", BigId, nullable=False),
        sa.Column("signal_id", BigId, nullable=False),
        sa.Column("run_id", sa.String(length=128), nullable=False),
        sa.Column("added_at", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["semantic_groups.id"],
            name=op.f("fk_semantic_group_members_group_id_semantic_groups"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["signal_id"],
            ["failure_signals.id"],
            name=op.f("fk_semantic_group_members_signal_id_failure_signals"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("group_id", "signal_id", name=op.f("pk_semantic_group_members")),
        sa.UniqueConstraint("signal_id", name=op.f("uq_semantic_group_members_signal_id")),
    )


    op.create_table(
        "external_evaluations",
        sa.Column("org_id", sa.String(length=32), nullable=False),
        sa.Column("provider", sa.String(length=32), nullable=False),
        sa.Column("external_id", sa.String(length=200), nullable=False),
        sa.Column("run_id", sa.String(length=128), nullable=False),
        sa.Column("signal_id", BigId, nullable=True),
        sa.Column("received_at", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_external_evaluations_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "org_id", "provider", "external_id", name=op.f("pk_external_evaluations")
        ),
    )


def downgrade() -> None:
    op.drop_table("external_evaluations")
    op.drop_table("semantic_group_members")
    op.drop_index(op.f("ix_semantic_feedback_signal_id"), table_name="semantic_feedback")
    op.drop_table("semantic_feedback")
    op.drop_table("semantic_usage")
    op.drop_table("semantic_tasks")
    op.drop_table("semantic_settings")
    op.drop_table("semantic_samples")
    op.drop_index(
        op.f("ix_semantic_groups_org_id_agent_id_evaluator"), table_name="semantic_groups"
    )
    op.drop_table("semantic_groups")
    op.drop_index(
        op.f("ix_semantic_evaluations_org_id_evaluated_at"), table_name="semantic_evaluations"
    )
    op.drop_table("semantic_evaluations")
    op.drop_table("semantic_conversations")
    op.drop_table("agent_semantic_config")
