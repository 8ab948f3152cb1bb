"""semloop: self-hosted failure detection for AI agents.

The core library (trace model, lexical port, judged loop detector, judge backends)
imports with the standard library alone.
"""

from ._exceptions import (
    ConfigError,
    EventFormatError,
    InputError,
    JudgeAnswerError,
    JudgeAuthError,
    JudgeConnectionError,
    JudgeError,
    JudgeStatusError,
    MissingExtraError,
    SemloopError,
    StoreError,
    TraceFormatError,
)
from .judge import Answer, Backend, JudgeResponse
from .trace import Span, Trace

__version__ = "0.2.0.dev0"

__all__ = [
    "Answer",
    "Backend",
    "ConfigError",
    "EventFormatError",
    "InputError",
    "JudgeAnswerError",
    "JudgeAuthError",
    "JudgeConnectionError",
    "JudgeError",
    "JudgeResponse",
    "JudgeStatusError",
    "MissingExtraError",
    "SemloopError",
    "Span",
    "StoreError",
    "Trace",
    "TraceFormatError",
    "__version__",
]
