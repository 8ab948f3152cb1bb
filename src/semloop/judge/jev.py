"""TypeSafe System One (the Jev models) over the standard library's HTTP.

One ``POST {base_url}{path}`` with ``{model, state, questions}`` answers every question
about a state at once; answers come back as calibrated probabilities.

An evaluator's question (a ``noul`` with a ``kind``) goes on the wire as a plain System One
noul (the ``kind`` is ours, not the protocol's), with the kind's rubric as instructions
when the evaluator gave none, beside a ``choice`` question asking where in the case the
failure shows. Its answer's reasoning names that place.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .._exceptions import ConfigError, JudgeAnswerError
from ._evaluator import (
    RUBRICS,
    evaluator_questions,
    sentences,
    tool_line,
)
from ._http import (
    HttpClient,
    RetryPolicy,
    Send,
    check_key,
    check_url,
    finite_number,
    post_question,
)
from ._kinds import ALL_KINDS, CONVERSATION_KINDS
from ._types import Answer, JudgeResponse, Question, State

__all__ = [
    "DEFAULT_BASE_URL",
    "DEFAULT_MODEL",
    "DEFAULT_PATH",
    "USD_PER_INPUT_MTOK",
    "JevBackend",
    "estimate_cost_usd",
    "parse_answers",
]

DEFAULT_BASE_URL = "https://api.typesafe.ai"
DEFAULT_PATH = "/v1/systemone"
DEFAULT_MODEL = "jev-latest"
#: TypeSafe's list price: input tokens are billed, output tokens are free.
USD_PER_INPUT_MTOK = 0.042

_SERVICE = "System One host"


def estimate_cost_usd(input_tokens: int) -> float:
    """What ``input_tokens`` billable tokens cost at TypeSafe's list price."""
    return input_tokens * USD_PER_INPUT_MTOK / 1_000_000


class JevBackend(HttpClient):
    """A judge on the TypeSafe System One API, or any host serving the same protocol.

    ``api_key`` defaults to ``$TYPESAFE_API_KEY``, ``model`` to ``$TYPESAFE_DEFAULT_MODEL``
    then ``jev-latest``, ``base_url`` to ``$TYPESAFE_BASE_URL`` then TypeSafe's. ``path=""``
    posts to ``base_url`` itself (proxies serving the protocol at their own URL). A key is
    required for TypeSafe's own host; elsewhere a missing key sends no ``Authorization``.
    """

    name = "jev"
    #: The question kinds this judge answers: the loop detector's and every evaluator's.
    kinds = ALL_KINDS

    def __init__(
        self,
        api_key: str | None = None,
        *,
        model: str | None = None,
        base_url: str | None = None,
        path: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 2,
        retry: RetryPolicy | None = None,
        keep_alive: bool = True,
        send: Send | None = None,
        locate: bool = True,
    ) -> None:
        #: Whether an evaluator question also asks where the failure shows (a ``choice``
        #: over the case's sentences, steps or turns, in the same call).
        self.locate = locate
        self.base_url = (base_url or _env("TYPESAFE_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        self.path = DEFAULT_PATH if path is None else path
        if self.path and not self.path.startswith("/"):
            self.path = "/" + self.path
        check_url(self.url, "base_url")
        self.model = model or _env("TYPESAFE_DEFAULT_MODEL") or DEFAULT_MODEL
        key = api_key if api_key is not None else _env("TYPESAFE_API_KEY")
        self._api_key = check_key(key, "TYPESAFE_API_KEY")
        if self._api_key is None and self.base_url == DEFAULT_BASE_URL:
            raise ConfigError(
                "no API key: pass api_key= or set TYPESAFE_API_KEY", key="TYPESAFE_API_KEY"
            )
        if not timeout > 0:
            raise ConfigError(f"must be > 0, got {timeout!r}", key="timeout")
        self.timeout = float(timeout)
        self.retry = retry if retry is not None else RetryPolicy(max_retries=max_retries)
        self._connect(send, keep_alive=keep_alive)

    @property
    def url(self) -> str:
        return f"{self.base_url}{self.path}"

    def __repr__(self) -> str:  # never shows the key
        return f"JevBackend(model={self.model!r}, url={self.url!r})"

    def ask(self, state: State, questions: Mapping[str, Question]) -> JudgeResponse:
        if not questions:
            return JudgeResponse(answers={}, model=self.model)
        evaluator, _ = evaluator_questions(self, questions)
        # "kind" is semloop's routing, not a protocol field: it never goes on the wire.
        wire = {qid: {k: v for k, v in q.items() if k != "kind"} for qid, q in questions.items()}
        where: dict[str, dict[str, Any]] = {}
        for qid, kind in evaluator.items():
            wire[qid] = _system_one_noul(kind, questions[qid])
            place = _where_question(kind, state) if self.locate else None
            if place is not None and f"{qid}_where" not in questions:
                where[f"{qid}_where"] = place
        payload = {"model": self.model, "state": state, "questions": {**wire, **where}}
        data, latency_ms = post_question(
            self.url, payload, self._api_key,
            timeout=self.timeout, policy=self.retry, service=_SERVICE, send=self._send,
            auth_hint="Check the key passed as api_key= or set in TYPESAFE_API_KEY.",
        )
        input_tokens, output_tokens = _usage(data.get("usage"))
        model = data.get("model")
        answers = parse_answers(data.get("answers"), wire)
        for qid, kind in evaluator.items():
            answers[qid] = _with_reasoning(kind, answers[qid], data.get("answers"),
                                           f"{qid}_where", where.get(f"{qid}_where"))
        return JudgeResponse(
            answers=answers,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            cost_usd=estimate_cost_usd(input_tokens),
            latency_ms=latency_ms,
            model=model if isinstance(model, str) and model else self.model,
        )


def _system_one_noul(kind: str, question: Question) -> dict[str, Any]:
    """An evaluator's question as the protocol's noul: ``instructions`` (the kind's rubric
    when the evaluator gave none) and ``criteria`` only in the ``{"true", "false"}`` form
    System One accepts; other criteria are read into the instructions."""
    instructions = question.get("instructions") or RUBRICS[kind].text()
    if not isinstance(instructions, str):
        instructions = json.dumps(instructions, ensure_ascii=False)
    noul: dict[str, Any] = {"type": "noul", "instructions": instructions}
    criteria = question.get("criteria")
    if isinstance(criteria, Mapping) and criteria and set(criteria) <= {"true", "false"}:
        noul["criteria"] = dict(criteria)
    elif isinstance(criteria, str) and criteria:
        noul["criteria"] = {"true": criteria}
    elif criteria:
        noul["instructions"] += "\nCriteria: " + json.dumps(criteria, ensure_ascii=False)
    return noul


#: Most places a "where" question offers; a conversation keeps its latest turns.
_MAX_PLACES = 32


def _where_question(kind: str, state: State) -> dict[str, Any] | None:
    """A ``choice`` over the places in the case where this failure could show, or
    ``None`` when there are fewer than two to choose from."""
    places = _places(kind, state)
    if len(places) < 2:
        return None
    rubric = RUBRICS[kind]
    return {
        "type": "choice",
        "instructions": f"If this shows {rubric.title.lower()} ({rubric.failure}), which "
                        f"place shows it most clearly? Look for {rubric.evidence}.",
        "criteria": places,
    }


def _places(kind: str, state: State) -> dict[str, str]:
    if not isinstance(state, Mapping):
        return {}
    if kind in CONVERSATION_KINDS:
        role = "assistant" if kind == "sycophancy_signal" else "user"
        turns = [(i, t) for i, t in enumerate(_list(state.get("turns")), start=1)
                 if isinstance(t, Mapping) and t.get("role") == role]
        return {f"turn {i}": _snippet(t.get("content")) for i, t in turns[-_MAX_PLACES:]}
    places = {f"sentence {i}": _snippet(s)
              for i, s in enumerate(sentences(str(state.get("output") or "")), start=1)}
    if kind != "hallucination":  # the other run failures show in what the agent did
        places = {**{f"step {i}": _snippet(s)
                     for i, s in enumerate(_list(state.get("steps")), start=1)},
                  **{f"tool call {i}": _snippet(tool_line(i, t))
                     for i, t in enumerate(_list(state.get("tools_called")), start=1)},
                  **places}
    return dict(list(places.items())[:_MAX_PLACES])


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else []


def _snippet(value: Any, limit: int = 160) -> str:
    text = " ".join(str(value or "").split())
    return text if len(text) <= limit else text[:limit] + "…"


def _with_reasoning(kind: str, answer: Answer, raw_answers: Any, where_id: str,
                    where: dict[str, Any] | None) -> Answer:
    """The noul's answer with reasoning naming P(failure) and, when the "where" question
    was asked and answered usably, the place that shows it."""
    p = float(answer.value)
    reasoning = f"Jev: P({kind}) = {p:.2f}."
    if where is not None and isinstance(raw_answers, Mapping) and where_id in raw_answers:
        try:  # a bad "where" answer must not cost the verdict: it is only a pointer
            place = parse_answers(raw_answers, {where_id: where})[where_id]
        except JudgeAnswerError:
            place = None
        if place is not None:
            lead = "clearest at" if p >= 0.5 else "closest place"
            reasoning += (f" {lead.capitalize()}: {place.value} ({place.probability:.0%}), "
                          f"\"{where['criteria'][place.value]}\"")
    return replace(answer, reasoning=reasoning)


def _env(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


def _usage(usage: Any) -> tuple[int, int]:
    if usage is None:
        return 0, 0
    if not isinstance(usage, Mapping):
        raise JudgeAnswerError(f"'usage' must be an object, got {type(usage).__name__}")
    return _tokens(usage, "input_tokens"), _tokens(usage, "output_tokens")


def _tokens(usage: Mapping[str, Any], key: str) -> int:
    value = usage.get(key, 0)
    if value is None:
        return 0
    number = finite_number(value)
    if number is None or number < 0 or int(number) != number:
        raise JudgeAnswerError(f"usage.{key} must be a token count, got {value!r}")
    return int(number)


def parse_answers(answers: Any, questions: Mapping[str, Question]) -> dict[str, Answer]:
    """The System One ``answers`` object as :class:`Answer` objects, one per asked id.

    Answers nobody asked for are ignored; a missing or malformed one raises
    :class:`JudgeAnswerError` naming its id.
    """
    if not isinstance(answers, Mapping):
        raise JudgeAnswerError(
            f"The {_SERVICE} reply has no 'answers' object "
            f"(got {type(answers).__name__ if answers is not None else 'nothing'})"
        )
    parsed = {}
    for qid, question in questions.items():
        if qid not in answers:
            raise JudgeAnswerError(f"The {_SERVICE} gave no answer for question {qid!r}")
        parsed[qid] = _parse_one(qid, answers[qid], question)
    return parsed


def _parse_one(qid: str, raw: Any, question: Question) -> Answer:
    if not isinstance(raw, Mapping):
        raise JudgeAnswerError(f"answer {qid!r} is not an object: {_short(raw)}")
    kind = raw.get("type", question.get("type"))
    asked = question.get("type")
    if asked is not None and kind != asked:
        raise JudgeAnswerError(
            f"answer {qid!r} has type {_short(kind)} but a {asked!r} was asked"
        )
    if kind == "noul":
        p = _probability(qid, "noul", raw.get("noul"))
        return Answer(type="noul", value=p, probability=max(p, 1.0 - p),
                      probabilities={True: p, False: 1.0 - p})
    if kind == "choice":
        return _choice(qid, raw, question)
    if kind == "score":
        return _score(qid, raw, question)
    raise JudgeAnswerError(f"answer {qid!r} has unknown type {_short(kind)}")


def _number(qid: str, field: str, value: Any) -> float:
    number = finite_number(value)
    if number is None:
        raise JudgeAnswerError(
            f"answer {qid!r}: {field} must be a finite number, got {_short(value)}"
        )
    return number


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def _probability(qid: str, field: str, value: Any) -> float:
    p = _number(qid, field, value)
    if not 0.0 <= p <= 1.0:
        raise JudgeAnswerError(f"answer {qid!r}: {field} must be in [0, 1], got {p!r}")
    return p


def _confidence(qid: str, raw: Mapping[str, Any]) -> float | None:
    value = raw.get("confidence")
    return None if value is None else _probability(qid, "confidence", value)


def _choice(qid: str, raw: Mapping[str, Any], question: Question) -> Answer:
    label = raw.get("choice")
    if not isinstance(label, str):
        raise JudgeAnswerError(f"answer {qid!r}: choice must be a label, got {_short(label)}")
    criteria = question.get("criteria")
    if isinstance(criteria, Mapping) and criteria and label not in criteria:
        raise JudgeAnswerError(
            f"answer {qid!r}: {label!r} is not one of the labels {list(criteria)}"
        )
    probs_raw = raw.get("probabilities") or {}
    if not isinstance(probs_raw, Mapping):
        raise JudgeAnswerError(f"answer {qid!r}: probabilities must be an object")
    probs = {str(k): _probability(qid, f"probabilities[{k!r}]", v) for k, v in probs_raw.items()}
    confidence = _confidence(qid, raw)
    return Answer(type="choice", value=label, probability=probs.get(label, 1.0),
                  probabilities=probs, confidence=confidence)


def _score(qid: str, raw: Mapping[str, Any], question: Question) -> Answer:
    score = _number(qid, "score", raw.get("score"))
    criteria = question.get("criteria")
    top = len(criteria) - 1 if isinstance(criteria, list) and criteria else None
    if score < 0 or (top is not None and score > top):
        raise JudgeAnswerError(
            f"answer {qid!r}: score {score!r} is outside the levels 0..{top}"
        )
    probs_raw = raw.get("probabilities") or {}
    if not isinstance(probs_raw, Mapping):
        raise JudgeAnswerError(f"answer {qid!r}: probabilities must be an object")
    probs: dict[int, float] = {}
    for k, v in probs_raw.items():
        try:
            level = int(k)
        except (TypeError, ValueError):
            raise JudgeAnswerError(
                f"answer {qid!r}: probability key {k!r} is not a level number"
            ) from None
        probs[level] = _probability(qid, f"probabilities[{k!r}]", v)
    nearest = math.floor(score + 0.5)
    return Answer(type="score", value=score, probability=probs.get(nearest, 1.0),
                  probabilities=probs, confidence=_confidence(qid, raw))
