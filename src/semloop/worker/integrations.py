"""The integrations worker: pulls external evaluation results (Langfuse scores, LangSmith
feedback, Braintrust log scores) and writes each as a signal on the run of its trace id.

Every poll (60 s by default) reads each configured integration from its cursor, page by
page, and stores each score through the same path as a pushed one
(``Store.add_external``: idempotent on ``(provider, external_id)``), so a page read twice,
a pull cut off halfway or two workers pulling at once write each score once. The cursor
moves only after a whole pull succeeded. A pull that fails (the host unreachable, an
error status, an answer it cannot read) starts or extends the integration's outage; one
that has lasted ``down_after_s`` (30 minutes) writes one shadow EXTERNAL_INTEGRATION_DOWN
signal, and the next good pull ends it. A score whose trace id matches no run of the org
is skipped (its trace has not been ingested). A pull reads every page down to its cursor
(a first pull: everything the provider keeps), up to ``max_pages``; a host that pages
further is taken as failing.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence

import httpx

from ..integrations import ExternalScore, Integration, external_signal, provider_for
from ..store import Store
from ._polling import PollingWorker

__all__ = ["IntegrationsWorker"]

log = logging.getLogger("semloop.worker.integrations")


class IntegrationsWorker(PollingWorker):
    name = "integrations"

    def __init__(
        self,
        store: Store,
        integrations: Sequence[Integration],
        *,
        poll_interval: float = 60.0,
        down_after_s: float = 1800.0,
        max_pages: int = 10_000,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(poll_interval=poll_interval)
        self.store = store
        self.integrations = list(integrations)
        self.down_after_s = down_after_s
        self.max_pages = max_pages
        self.clock = clock
        self._client = httpx.Client(follow_redirects=False)
        #: Scores whose trace id matched no run, since start.
        self.unmatched = 0

    def __str__(self) -> str:
        return f"{self.name} ({len(self.integrations)} configured, every {self.poll_interval:g} s)"

    def process_batch(self) -> int:
        """Pull every integration once; returns how many new findings were written."""
        return sum(self.pull(integration) for integration in self.integrations)

    def pull(self, integration: Integration) -> int:
        """Read one integration from its cursor to its newest score; new findings."""
        status = self.store.integration_status(integration.org_id, integration.key)
        cursor = status.cursor if status is not None else None
        provider = provider_for(integration)
        newest, token, added = cursor, None, 0
        try:
            for _ in range(self.max_pages):
                request = provider.request(cursor, token)
                response = self._client.get(integration.base_url + request.path,
                                            params=dict(request.params),
                                            headers=dict(request.headers),
                                            timeout=integration.timeout_s)
                if response.status_code != 200:
                    raise httpx.HTTPStatusError(
                        f"HTTP {response.status_code} from {integration.provider}",
                        request=response.request, response=response)
                page = provider.read(response.json(), cursor, token)
                added += self._write(integration, page.scores)
                newest = provider.newer(newest, page.newest)
                token = page.next
                if token is None:
                    break
            else:  # a host that never stops paging: keep the cursor, try again later
                raise ValueError(f"more than {self.max_pages} pages in one pull")
        except (httpx.HTTPError, ValueError, TypeError) as exc:
            error = f"{type(exc).__name__}: {exc}"
            if self.store.integration_failed(integration.org_id, integration.key,
                                             integration.provider, error,
                                             down_after_s=self.down_after_s, now=self.clock()):
                log.warning("integrations: %s of org %s down for %g s or more: %s",
                            integration.key, integration.org_id, self.down_after_s, error)
                self.stats.signals += 1
            else:
                log.info("integrations: %s of org %s failed: %s", integration.key,
                         integration.org_id, error)
            return added
        self.store.integration_pulled(integration.org_id, integration.key,
                                      integration.provider, newest, now=self.clock())
        return added

    def _write(self, integration: Integration, scores: Sequence[ExternalScore]) -> int:
        added = 0
        for score in scores:
            run = self.store.run_of_trace(integration.org_id, score.trace_id)
            if run is None:
                self.unmatched += 1
                continue
            signal = external_signal(score, run.run_id, run.agent_id, run.agent_version)
            _, new = self.store.add_external(integration.org_id, integration.provider,
                                             score.external_id, signal)
            if new:
                added += 1
                self.stats.signals += 1
        return added
