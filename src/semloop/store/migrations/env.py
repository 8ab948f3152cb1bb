"""Alembic environment: runs on the connection semloop hands it (see ``store/_migrate.py``)."""

from __future__ import annotations

from alembic import context

from semloop.store._dialect import create_migration_engine
from semloop.store._models import Base

config = context.config
target_metadata = Base.metadata


def _run(connection: object) -> None:
    context.configure(
        connection=connection,  # type: ignore[arg-type]
        target_metadata=target_metadata,
        # One transaction per revision: a failed revision leaves the earlier ones applied.
        transaction_per_migration=True,
        # SQLite cannot ALTER most things; batch mode rebuilds the table instead.
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


connection = config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:  # plain `alembic -x url=...` use, outside semloop
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url"
    )
    if not url:
        raise SystemExit("give the database URL: alembic -x url=sqlite:///semloop.db upgrade head")
    engine = create_migration_engine(url)
    with engine.connect() as conn:
        _run(conn)
    engine.dispose()
