"""The event store: every area's methods over one connector."""

from __future__ import annotations

from sqlalchemy.engine import Engine

from ._alerts import Alerts
from ._claims import Claims
from ._compat import SdkState
from ._connector import Connector
from ._dialect import Dialect
from ._events import Events
from ._insights import Insights
from ._integrations import Integrations
from ._listing import Listing
from ._orgs import Orgs
from ._prune import Retention
from ._review import Review
from ._semantic import Semantic
from ._signals import Signals

__all__ = ["Store"]


class Store(Orgs, Events, Claims, Listing, Insights, Retention, Signals, Alerts, Semantic,
            Review, SdkState, Integrations):
    """Events, runs, signals, organizations and API keys in SQLite or PostgreSQL.

    ``url`` is ``sqlite:///FILE`` (or a bare file path) or ``postgresql+psycopg://…``.
    Migrations are applied on open. Methods are thread-safe; each is one transaction.
    Each base class is one area of the store (``docs/store.md``); all share one
    :class:`~semloop.store._connector.Connector`.
    """

    def __init__(self, url: str, *, migrate: bool = True) -> None:
        super().__init__(Connector(url, migrate=migrate))

    @property
    def url(self) -> str:
        return self._db.url

    @property
    def engine(self) -> Engine:
        return self._db.engine

    @property
    def dialect(self) -> Dialect:
        return self._db.dialect

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
