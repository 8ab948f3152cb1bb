"""The semloop SDK: record agent runs as events, ship them in the background.

Standard library only. The surface mirrors Dunetrace's SDK, so its users feel at home::

    from semloop.sdk import Client

    client = Client()                       # HTTP to $SEMLOOP_ENDPOINT
    with client.run("support-bot", user_input=question, model="gpt-4o") as run:
        run.llm_called("gpt-4o", prompt_tokens=812)
        run.llm_responded(completion_tokens=64, latency_ms=900, output=text)
        run.tool_called("search", {"q": question})
        run.tool_responded("search", success=True, output=hits)
        run.final_answer()

See ``docs/sdk.md`` for the buffer, overflow and failure policy and the measured cost,
and ``docs/policies.md`` for runtime policies (``Client(policies=[Policy(...)])``).
"""

from ._budgets import DEFAULT_BUDGET_S, DetectorBudgets
from ._client import Client, RunContext
from ._emitters import (
    DEFAULT_ENDPOINT,
    DiscardEmitter,
    Emitter,
    FileEmitter,
    HttpEmitter,
    SendError,
    StoreEmitter,
)
from ._policies import (
    ACTIONS,
    MODEL_PRICES,
    OPERATORS,
    TRIGGERS,
    ApprovalRequest,
    Approver,
    Policy,
    PolicyViolation,
    load_policies,
)
from ._records import DEFAULT_SECRET_KEYS, REDACTED
from ._sender import ClientStats

__all__ = [
    "ACTIONS",
    "DEFAULT_BUDGET_S",
    "DEFAULT_ENDPOINT",
    "DEFAULT_SECRET_KEYS",
    "MODEL_PRICES",
    "OPERATORS",
    "REDACTED",
    "TRIGGERS",
    "ApprovalRequest",
    "Approver",
    "Client",
    "ClientStats",
    "DetectorBudgets",
    "DiscardEmitter",
    "Emitter",
    "FileEmitter",
    "HttpEmitter",
    "Policy",
    "PolicyViolation",
    "RunContext",
    "SendError",
    "StoreEmitter",
    "load_policies",
]
