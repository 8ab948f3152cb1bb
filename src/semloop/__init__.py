"""semloop: self-hosted failure detection for AI agents.

The core library (trace model, lexical port, judged loop detector, judge backends) and
the SDK (:class:`Client`) import with the standard library alone.
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
    UnsupportedQuestionError,
)
from .evaluate import SemanticLoopDetection
from .judge import Answer, Backend, JevBackend, JudgeResponse, LLMJudgeBackend, MockBackend
from .lexical import LexicalLoopDetection, LoopResult, lexical_loop_score
from .sdk import Client, Policy, PolicyViolation, RunContext
from .trace import Span, Trace

__version__ = "0.2.0.dev0"

__all__ = [
    "Answer",
    "Backend",
    "Client",
    "ConfigError",
    "EventFormatError",
    "InputError",
    "JevBackend",
    "JudgeAnswerError",
    "JudgeAuthError",
    "JudgeConnectionError",
    "JudgeError",
    "JudgeResponse",
    "JudgeStatusError",
    "LLMJudgeBackend",
    "LexicalLoopDetection",
    "LoopResult",
    "MissingExtraError",
    "MockBackend",
    "Policy",
    "PolicyViolation",
    "RunContext",
    "SemanticLoopDetection",
    "SemloopError",
    "Span",
    "StoreError",
    "Trace",
    "TraceFormatError",
    "UnsupportedQuestionError",
    "__version__",
    "lexical_loop_score",
]
