"""Every error semloop raises on purpose derives from :class:`SemloopError`.

The tree::

    SemloopError
    ├── MissingExtraError        an optional extra is not installed (also ImportError)
    ├── InputError               bad input, reported precisely (also ValueError)
    │   ├── TraceFormatError     a malformed trace: source, line, field
    │   ├── EventFormatError     a malformed event: index, field
    │   └── ConfigError          a bad configuration key or value: source, key
    ├── JudgeError               a judge backend failed to answer
    │   ├── JudgeConnectionError the host could not be reached, or timed out, after retries
    │   ├── JudgeStatusError     the host answered with an HTTP error status
    │   │   └── JudgeAuthError   401 or 403: the key is missing, wrong or not allowed
    │   ├── JudgeAnswerError     the host answered, but not with usable answers
    │   └── UnsupportedQuestionError  the judge does not answer that kind of question
    └── StoreError               the event store failed

Workers catch :class:`JudgeError` and :class:`InputError` per run, record the run as
errored or undecided, and go on; nothing here is allowed to crash a worker.
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "EventFormatError",
    "InputError",
    "JudgeAnswerError",
    "JudgeAuthError",
    "JudgeConnectionError",
    "JudgeError",
    "JudgeStatusError",
    "MissingExtraError",
    "SemloopError",
    "StoreError",
    "TraceFormatError",
    "UnsupportedQuestionError",
]


class SemloopError(Exception):
    """Root of every error semloop raises on purpose."""


class MissingExtraError(SemloopError, ImportError):
    """A feature needs an optional extra that is not installed."""

    def __init__(self, feature: str, extra: str, missing: str) -> None:
        self.feature = feature
        self.extra = extra
        self.missing = missing
        super().__init__(
            f"{feature} needs the package {missing!r}, which is not installed; "
            f"install it with: pip install 'semloop[{extra}]'"
        )


class InputError(SemloopError, ValueError):
    """Input that semloop cannot use; the message says where and why."""


def _where(source: str | None, line: int | None, field: str | None) -> str:
    parts = []
    if source:
        parts.append(source if line is None else f"{source}:{line}")
    elif line is not None:
        parts.append(f"line {line}")
    if field:
        parts.append(f"field {field!r}")
    return ", ".join(parts)


class TraceFormatError(InputError):
    """A trace that cannot be read. ``source``, ``line`` and ``field`` say where."""

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.field = field
        where = _where(source, line, field)
        super().__init__(f"{where}: {message}" if where else message)

    def located(self, *, source: str | None = None, line: int | None = None) -> TraceFormatError:
        """The same error, placed in a file and line."""
        return TraceFormatError(
            self.message,
            source=source if source is not None else self.source,
            line=line if line is not None else self.line,
            field=self.field,
        )


class EventFormatError(InputError):
    """An event that cannot be stored. ``index`` is its position in its batch."""

    def __init__(self, message: str, *, index: int | None = None, field: str | None = None) -> None:
        self.message = message
        self.index = index
        self.field = field
        where = []
        if index is not None:
            where.append(f"event {index}")
        if field:
            where.append(f"field {field!r}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


class ConfigError(InputError):
    """A configuration value that is unknown, of the wrong type or out of range."""

    def __init__(self, message: str, *, key: str | None = None, source: str | None = None) -> None:
        self.message = message
        self.key = key
        self.source = source
        where = _where(source, None, None)
        if key:
            where = f"{where}: {key}" if where else key
        super().__init__(f"{where}: {message}" if where else message)


class JudgeError(SemloopError):
    """A judge backend could not produce answers."""


class JudgeConnectionError(JudgeError):
    """The judge's host could not be reached, or did not answer in time, after retries."""


class JudgeStatusError(JudgeError):
    """The judge's host answered with an HTTP error status."""

    def __init__(self, message: str, *, status: int, body: str = "") -> None:
        self.status = status
        self.body = body
        super().__init__(message)


class JudgeAuthError(JudgeStatusError):
    """401 or 403: the API key is missing, wrong, or not allowed to use the model."""


class JudgeAnswerError(JudgeError):
    """The judge answered, but the answer is malformed or incomplete."""


class UnsupportedQuestionError(JudgeError):
    """A judge was asked a kind of question it does not declare (``Backend.kinds``).

    ``judge`` is the backend's name, ``kind`` the question's kind, ``kinds`` what the
    judge does answer and ``question`` the id of the first such question.
    """

    def __init__(
        self, *, judge: str, kind: str, kinds: frozenset[str], question: str = ""
    ) -> None:
        self.judge = judge
        self.kind = kind
        self.kinds = kinds
        self.question = question
        asked = f" (question {question!r})" if question else ""
        answers = ", ".join(sorted(kinds)) or "nothing"
        super().__init__(
            f"judge {judge!r} does not answer {kind!r} questions{asked}; it answers: {answers}"
        )


class StoreError(SemloopError):
    """The event store failed."""
