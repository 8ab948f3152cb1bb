"""Any OpenAI-compatible chat model as a judge, asked for one JSON object of answers.

A chat model writes text, not probabilities, so its reply is parsed tolerantly (code
fences, prose around the object, yes/no words, answers as a list) but never guessed: a
missing answer, an unknown label or a level out of range is an error.
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
import time
from collections.abc import Mapping
from typing import Any

from .._exceptions import ConfigError, JudgeAnswerError, JudgeStatusError
from ._http import (
    HttpClient,
    RetryPolicy,
    Send,
    check_key,
    check_url,
    finite_number,
    jsonable,
    post_question,
)
from ._types import Answer, JudgeResponse, Question, State

__all__ = ["DEFAULT_BASE_URL", "SYSTEM_PROMPT", "LLMJudgeBackend", "parse_reply"]

DEFAULT_BASE_URL = "https://api.openai.com/v1"
_SERVICE = "chat completions host"

log = logging.getLogger("semloop.judge.llm")

SYSTEM_PROMPT = """\
You are a careful judge of AI agent executions. The user message is one JSON object with \
two keys: "state", the content every question is about (for example an agent's goal, its \
steps and its tool calls), and "questions", an object mapping question ids to questions.

Every question has a "type", optional "instructions" and "criteria":
- "noul": a yes/no question. "criteria" may describe when the answer is true and when it \
is false. Answer with a number from 0 to 1: your probability that the answer is yes (true). \
Use values near 0.5 only when you genuinely cannot tell.
- "choice": "criteria" maps option labels to descriptions. Answer with exactly one label, \
spelled exactly as given.
- "score": "criteria" is a list of levels; a level's position in the list, starting at 0, \
is its score. Answer with the integer score of the level that fits best.

Answer every question, judging each one on its own. Reply with exactly one JSON object and \
nothing else, of the form {"answers": {"<question id>": <answer>, ...}}, using the question \
ids exactly as given. No commentary, no markdown code fences."""

_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n?(.*?)```", re.DOTALL)
_YES = {"yes", "y", "true", "t"}
_NO = {"no", "n", "false", "f"}


class LLMJudgeBackend(HttpClient):
    """A judge on ``POST {base_url}/chat/completions`` of any OpenAI-compatible host.

    ``api_key`` defaults to the environment variable named by ``api_key_env``;
    ``base_url`` to ``$OPENAI_BASE_URL`` then OpenAI's. A key is required for OpenAI's own
    host; elsewhere (a local server) a missing key sends no ``Authorization``. Cost is
    ``input_usd_per_mtok`` and ``output_usd_per_mtok`` per million tokens.

    Requests ask for JSON mode (``response_format``). A host that rejects it with a 400 or
    422 naming ``response_format`` (older vLLM, llama.cpp server, some proxies) gets the
    request again without it, and this backend stops sending it (``json_mode`` turns
    ``False``; logged once): the prompt asks for JSON anyway.
    """

    name = "llm"

    def __init__(
        self,
        api_key: str | None = None,
        *,
        model: str = "gpt-4o-mini",
        base_url: str | None = None,
        timeout: float = 120.0,
        temperature: float = 0.0,
        input_usd_per_mtok: float = 0.0,
        output_usd_per_mtok: float = 0.0,
        api_key_env: str = "OPENAI_API_KEY",
        max_retries: int = 2,
        retry: RetryPolicy | None = None,
        keep_alive: bool = True,
        send: Send | None = None,
    ) -> None:
        self.base_url = (
            base_url or os.environ.get("OPENAI_BASE_URL", "").strip() or DEFAULT_BASE_URL
        ).rstrip("/")
        check_url(self.url, "base_url")
        self.model = model
        self.api_key_env = api_key_env
        key = api_key if api_key is not None else os.environ.get(api_key_env)
        self._api_key = check_key(key, api_key_env)
        if self._api_key is None and self.base_url == DEFAULT_BASE_URL:
            raise ConfigError(f"no API key: pass api_key= or set {api_key_env}", key=api_key_env)
        if not timeout > 0:
            raise ConfigError(f"must be > 0, got {timeout!r}", key="timeout")
        for rate_name, rate in (
            ("input_usd_per_mtok", input_usd_per_mtok),
            ("output_usd_per_mtok", output_usd_per_mtok),
        ):
            if finite_number(rate) is None or rate < 0:
                raise ConfigError(f"must be a finite rate >= 0, got {rate!r}", key=rate_name)
        self.timeout = float(timeout)
        self.temperature = temperature
        self.input_usd_per_mtok = input_usd_per_mtok
        self.output_usd_per_mtok = output_usd_per_mtok
        self.retry = retry if retry is not None else RetryPolicy(max_retries=max_retries)
        #: Whether requests carry ``response_format``; turned off once the host rejects it.
        self.json_mode = True
        self._json_mode_lock = threading.Lock()
        self._connect(send, keep_alive=keep_alive)

    @property
    def url(self) -> str:
        return f"{self.base_url}/chat/completions"

    def __repr__(self) -> str:  # never shows the key
        return f"LLMJudgeBackend(model={self.model!r}, url={self.url!r})"

    def ask(self, state: State, questions: Mapping[str, Question]) -> JudgeResponse:
        if not questions:
            return JudgeResponse(answers={}, model=self.model)
        user = json.dumps(
            {"state": state, "questions": dict(questions)}, ensure_ascii=False, default=jsonable
        )
        payload: dict[str, Any] = {"model": self.model, "temperature": self.temperature}
        if self.json_mode:
            payload["response_format"] = {"type": "json_object"}
        payload["messages"] = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": user},
        ]
        started = time.monotonic()
        try:
            data = self._post(payload)
        except JudgeStatusError as err:
            if "response_format" not in payload or not _rejects_json_mode(err):
                raise
            self._drop_json_mode(err)
            del payload["response_format"]
            data = self._post(payload)
        latency_ms = (time.monotonic() - started) * 1000.0
        content = _content(data)
        input_tokens, output_tokens = _usage(data.get("usage"))
        model = data.get("model")
        return JudgeResponse(
            answers=parse_reply(content, questions),
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            cost_usd=(
                input_tokens * self.input_usd_per_mtok + output_tokens * self.output_usd_per_mtok
            )
            / 1_000_000,
            latency_ms=latency_ms,
            model=model if isinstance(model, str) and model else self.model,
        )

    def _post(self, payload: Mapping[str, Any]) -> Mapping[str, Any]:
        data, _ = post_question(
            self.url,
            payload,
            self._api_key,
            timeout=self.timeout,
            policy=self.retry,
            service=_SERVICE,
            send=self._send,
            auth_hint=f"Check the key passed as api_key= or set in {self.api_key_env}.",
        )
        return data

    def _drop_json_mode(self, err: JudgeStatusError) -> None:
        # Threads sharing the backend may all hit the rejection at once: log it once.
        with self._json_mode_lock:
            if not self.json_mode:
                return
            self.json_mode = False
        log.warning(
            "%s rejected response_format json_object (HTTP %s: %s); asking without it from now on",
            self.url,
            err.status,
            _short(err.body, 200),
        )


def _rejects_json_mode(err: JudgeStatusError) -> bool:
    """Whether an error status is the host refusing JSON mode, rather than anything else
    wrong with the request (which must stay an error)."""
    return err.status in (400, 422) and "response_format" in err.body.lower()


def _content(data: Mapping[str, Any]) -> str:
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], Mapping):
        raise JudgeAnswerError(f"The {_SERVICE} reply has no choices")
    first = choices[0]
    message = first.get("message")
    content = message.get("content") if isinstance(message, Mapping) else None
    if not isinstance(content, str) or not content.strip():
        refusal = message.get("refusal") if isinstance(message, Mapping) else None
        why = f" (refusal: {refusal})" if refusal else ""
        if first.get("finish_reason") == "length":
            why += " (the reply was cut off at the token limit)"
        raise JudgeAnswerError(f"The {_SERVICE} reply has no message content{why}")
    return content


def _usage(usage: Any) -> tuple[int, int]:
    if not isinstance(usage, Mapping):
        return 0, 0
    counts = []
    for key in ("prompt_tokens", "completion_tokens"):
        value = usage.get(key) or 0
        number = finite_number(value)
        if number is None or number < 0:
            raise JudgeAnswerError(f"usage.{key} must be a token count, got {value!r}")
        counts.append(int(number))
    return counts[0], counts[1]


def parse_reply(content: str, questions: Mapping[str, Question]) -> dict[str, Answer]:
    """The judge's text as one :class:`Answer` per asked question id."""
    obj = _find_object(content)
    answers = _answers_by_id(obj, questions)
    parsed = {}
    for qid, question in questions.items():
        if qid not in answers:
            raise JudgeAnswerError(f"The judge omitted an answer for {qid!r}")
        parsed[qid] = _parse_one(qid, answers[qid], question)
    return parsed


def _find_object(content: str) -> Any:
    """The first JSON object in ``content``: inside a code fence if there is one, else the
    first ``{`` that starts a complete object (prose before and after is ignored)."""
    fenced = _FENCE.search(content)
    texts = [fenced.group(1), content] if fenced else [content]
    decoder = json.JSONDecoder()
    for text in texts:
        start = text.find("{")
        while start != -1:
            try:
                obj, _ = decoder.raw_decode(text, start)
            except (ValueError, RecursionError):
                start = text.find("{", start + 1)
                continue
            return obj
    raise JudgeAnswerError(f"The judge's reply holds no JSON object: {_short(content)!r}")


def _short(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "…"


def _answers_by_id(obj: Any, questions: Mapping[str, Question]) -> Mapping[str, Any]:
    if not isinstance(obj, Mapping):
        raise JudgeAnswerError("The judge's reply is not a JSON object")
    only = next(iter(questions)) if len(questions) == 1 else None
    if "answers" in obj:
        answers = obj["answers"]
    elif "answer" in obj and only is not None:
        return {only: obj["answer"]}
    elif any(qid in obj for qid in questions):
        answers = obj  # the ids at the top level, without the "answers" wrapper
    else:
        raise JudgeAnswerError(f"The judge's reply has no 'answers': {_short(json.dumps(obj))}")
    if isinstance(answers, list):
        answers = _from_list(answers, only)
    if isinstance(answers, Mapping):
        if only is not None and only not in answers and len(answers) == 1:
            # One question, answered under some other key ("answer", "q1", ...).
            return {only: next(iter(answers.values()))}
        return answers
    if only is not None:
        return {only: answers}  # one question, answered bare: {"answers": 0.8}
    raise JudgeAnswerError(f"The judge's 'answers' is not an object: {_short(repr(answers))}")


def _from_list(items: list[Any], only: str | None) -> Mapping[str, Any] | Any:
    by_id: dict[str, Any] = {}
    for item in items:
        if isinstance(item, Mapping) and "id" in item:
            value = next((item[k] for k in ("answer", "value") if k in item), item)
            by_id[str(item["id"])] = value
    if by_id or only is None:
        return by_id
    return items[0] if len(items) == 1 else items


def _unwrap(raw: Any, kind: str) -> Any:
    # {"noul": 0.8}, {"type": "noul", "noul": 0.8}, {"answer": 0.8}, {"value": 0.8}, ...
    if isinstance(raw, Mapping):
        for key in (kind, "answer", "value", "probability", "label", "level"):
            if key in raw:
                return raw[key]
    return raw


def _parse_one(qid: str, raw: Any, question: Question) -> Answer:
    kind = question.get("type", "noul")
    value = _unwrap(raw, kind)
    if kind == "noul":
        p = _noul(qid, value)
        return Answer(
            type="noul",
            value=p,
            probability=max(p, 1.0 - p),
            probabilities={True: p, False: 1.0 - p},
        )
    if kind == "choice":
        label = _label(qid, value, question.get("criteria"))
        return Answer(type="choice", value=label, probability=1.0, probabilities={label: 1.0})
    if kind == "score":
        level = _level(qid, value, question.get("criteria"))
        return Answer(type="score", value=float(level), probability=1.0, probabilities={level: 1.0})
    raise JudgeAnswerError(f"question {qid!r} has type {kind!r}, which this judge cannot answer")


def _noul(qid: str, value: Any) -> float:
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, str):
        word = value.strip().lower().rstrip(".")
        if word in _YES:
            return 1.0
        if word in _NO:
            return 0.0
        try:
            value = float(word)
        except ValueError:
            raise JudgeAnswerError(
                f"answer {qid!r} should be a probability or yes/no, got {value!r}"
            ) from None
    p = finite_number(value)
    if p is None:
        raise JudgeAnswerError(
            f"answer {qid!r} should be a probability or yes/no, got {_short(repr(value))}"
        )
    if not 0.0 <= p <= 1.0:
        raise JudgeAnswerError(f"answer {qid!r}: probability {p!r} is outside [0, 1]")
    return p


def _label(qid: str, value: Any, criteria: Any) -> str:
    labels = [str(k) for k in criteria] if isinstance(criteria, Mapping) else []
    if not isinstance(value, str):
        raise JudgeAnswerError(
            f"answer {qid!r} should be one of {labels}, got {_short(repr(value))}"
        )
    if not labels or value in labels:
        return value
    # Tolerate case and surrounding space, but only when that names exactly one label.
    folded = [label for label in labels if label.strip().casefold() == value.strip().casefold()]
    if len(folded) == 1:
        return folded[0]
    raise JudgeAnswerError(
        f"answer {qid!r}: {_short(repr(value))} is not one of the labels {labels}"
    )


def _level(qid: str, value: Any, criteria: Any) -> int:
    n = len(criteria) if isinstance(criteria, list) else None
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            raise JudgeAnswerError(
                f"answer {qid!r} should be a level number, got {value!r}"
            ) from None
    number = finite_number(value)
    if number is None:
        raise JudgeAnswerError(
            f"answer {qid!r} should be a level number, got {_short(repr(value))}"
        )
    if int(number) != number:
        raise JudgeAnswerError(f"answer {qid!r}: level {number!r} is not a whole number")
    level = int(number)
    if level < 0 or (n is not None and level >= n):
        top = f"0..{n - 1}" if n is not None else ">= 0"
        raise JudgeAnswerError(f"answer {qid!r}: level {level} is outside {top}")
    return level
