"""Pulling external evaluation results: Langfuse scores, LangSmith feedback and Braintrust
log scores, each read through the provider's public API and turned into a signal on the
run of the same trace id.

Pure: what to ask each provider, how to read its answer, and the configuration file. The
I/O is :class:`semloop.worker.IntegrationsWorker`'s. See ``docs/semantic-worker.md``.
"""

from ._config import PROVIDERS, Integration, integrations_from_dict, load_integrations
from ._providers import ExternalScore, Page, Provider, Request, external_signal, provider_for

__all__ = [
    "PROVIDERS",
    "ExternalScore",
    "Integration",
    "Page",
    "Provider",
    "Request",
    "external_signal",
    "integrations_from_dict",
    "load_integrations",
    "provider_for",
]
