"""Any OpenAI-compatible chat model as a judge, asked for one JSON object of answers.

A chat model writes text, not probabilities, so its reply is parsed tolerantly (code
fences, prose around the object, yes/no words, answers as a list) but never guessed: a
missing answer, an unknown label or a level out of range is an error.

The loop detector's questions go in one call with :data:`SYSTEM_PROMPT`. An evaluator's
question (a ``noul`` with a ``kind``) goes in a call of its own, with that kind's prompt
(:data:`EVALUATOR_PROMPTS`), and the reply is one verdict object read by
:func:`parse_verdict`.
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .._exceptions import ConfigError, JudgeAnswerError, JudgeStatusError
from ._evaluator import (
    RUBRICS,
    Rubric,
    evaluator_questions,
    merge_responses,
    render_state,
)
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
from ._kinds import ALL_KINDS
from ._types import Answer, JudgeResponse, Question, State

__all__ = [
    "DEFAULT_BASE_URL",
    "EVALUATOR_PROMPTS",
    "SYSTEM_PROMPT",
    "Completion",
    "LLMJudgeBackend",
    "estimate_tokens",
    "parse_reply",
    "parse_verdict",
]

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


def _evaluator_prompt(rubric: Rubric) -> str:
    if rubric.conversation:
        subject = "a conversation between a user and an AI assistant"
        labels = "numbered [turn 1], [turn 2], ..."
    else:
        subject = "one run of an AI agent"
        labels = ("labelled [C1] for context documents, [T1] for tool calls, [S1] for the "
                  "agent's steps and (1) for the sentences of the final answer")
    not_failure = "\n".join(f"- {item}" for item in rubric.not_failure)
    return f"""\
You review {subject} for exactly one kind of failure, and decide whether it happened.

The failure, {rubric.title.lower()}: {rubric.failure}

These do NOT count as {rubric.title.lower()}:
{not_failure}

The user message holds the material, {labels}. Name those labels in your evidence. Decide \
from the material alone; when it does not show the failure, the answer is false.

Reply with exactly one JSON object and nothing else:
{{"failure": true or false, "confidence": <number from 0.5 to 1>, \
"reasoning": "<one or two sentences>", "evidence": "<label and short quote>"}}
- "failure": true only if this failure happened.
- "confidence": how sure you are of your verdict, 0.5 for a coin toss, 1 for certain.
- "evidence": {rubric.evidence}; "" if there is none."""


_REASK = ("That reply could not be read ({error}). Reply again with only the JSON object "
          '{{"failure": ..., "confidence": ..., "reasoning": ..., "evidence": ...}}, nothing '
          "else.")

#: The system prompt of each evaluator kind.
EVALUATOR_PROMPTS: Mapping[str, str] = {kind: _evaluator_prompt(r) for kind, r in RUBRICS.items()}

_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n?(.*?)```", re.DOTALL)
_YES = {"yes", "y", "true", "t"}
_NO = {"no", "n", "false", "f"}


@dataclass(frozen=True)
class Completion:
    """One chat call's reply: its text, tokens (``estimated`` when the host reported
    none), latency, the model the host says it ran and whether the reply was cut off at
    the token limit (``truncated``)."""

    content: str
    input_tokens: int
    output_tokens: int
    estimated: bool
    latency_ms: float
    model: str
    truncated: bool = False


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
    #: The question kinds this judge answers: the loop detector's and every evaluator's.
    kinds = ALL_KINDS

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
        reask: int = 1,
    ) -> None:
        if not isinstance(reask, int) or isinstance(reask, bool) or reask < 0:
            raise ConfigError(f"must be a whole number >= 0, got {reask!r}", key="reask")
        #: How many times an evaluator's unreadable verdict is asked for again.
        self.reask = reask
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
        for rate_name, rate in (("input_usd_per_mtok", input_usd_per_mtok),
                                ("output_usd_per_mtok", output_usd_per_mtok)):
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
        """Loop questions are answered together in one call; each evaluator question
        (one with a ``kind``) gets its own call with that evaluator's prompt."""
        if not questions:
            return JudgeResponse(answers={}, model=self.model)
        evaluator, loop = evaluator_questions(self, questions)
        responses = [self._ask_evaluator(state, qid, kind, questions[qid])
                     for qid, kind in evaluator.items()]
        if loop:
            responses.append(self._ask_loop(state, loop))
        return responses[0] if len(responses) == 1 else merge_responses(responses)

    def complete(self, messages: list[dict[str, str]], *, json_mode: bool = True) -> Completion:
        """One chat call: ``messages`` in, the reply's text and usage out. JSON mode is asked
        for when ``json_mode`` and the host has not refused it. Tokens the host does not
        report are estimated from the text (``Completion.estimated``)."""
        payload: dict[str, Any] = {"model": self.model, "temperature": self.temperature}
        if json_mode and self.json_mode:
            payload["response_format"] = {"type": "json_object"}
        payload["messages"] = messages
        data, latency_ms = self._chat(payload)
        content = _content(data)
        counts = _reported_usage(data.get("usage"))
        estimated = counts is None
        if counts is None:
            counts = (sum(estimate_tokens(m.get("content", "")) for m in messages),
                      estimate_tokens(content))
        model = data.get("model")
        return Completion(
            content=content, input_tokens=counts[0], output_tokens=counts[1],
            estimated=estimated, latency_ms=latency_ms,
            model=model if isinstance(model, str) and model else self.model,
            truncated=_finish_reason(data) == "length",
        )

    def cost_usd(self, input_tokens: int, output_tokens: int) -> float:
        return (input_tokens * self.input_usd_per_mtok
                + output_tokens * self.output_usd_per_mtok) / 1_000_000

    def _ask_evaluator(self, state: State, qid: str, kind: str,
                       question: Question) -> JudgeResponse:
        messages = [
            {"role": "system", "content": EVALUATOR_PROMPTS[kind]},
            {"role": "user", "content": _evaluator_user_message(state, question)},
        ]
        calls: list[Completion] = []
        while True:
            done = self.complete(messages)
            calls.append(done)
            try:
                answer = parse_verdict(done.content, kind=kind, truncated=done.truncated)
                break
            except JudgeAnswerError as err:
                if len(calls) > self.reask:
                    raise JudgeAnswerError(f"{err} (asked {len(calls)} time(s))") from err
                # Shown its own reply and what was wrong with it, a model nearly always
                # writes the object next time: cheaper than an undecided case.
                messages = [*messages, {"role": "assistant", "content": done.content},
                            {"role": "user", "content": _REASK.format(error=err)}]
        return merge_responses([self._response(c, {}) for c in calls[:-1]]
                               + [self._response(calls[-1], {qid: answer})])

    def _ask_loop(self, state: State, questions: Mapping[str, Question]) -> JudgeResponse:
        user = json.dumps({"state": state, "questions": dict(questions)}, ensure_ascii=False,
                          default=jsonable)
        done = self.complete([
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": user},
        ])
        return self._response(done, parse_reply(done.content, questions))

    def _response(self, done: Completion, answers: Mapping[str, Answer]) -> JudgeResponse:
        return JudgeResponse(
            answers=answers,
            input_tokens=done.input_tokens,
            output_tokens=done.output_tokens,
            cost_usd=self.cost_usd(done.input_tokens, done.output_tokens),
            latency_ms=done.latency_ms,
            model=done.model,
            tokens_estimated=done.estimated,
        )

    def _chat(self, payload: dict[str, Any]) -> tuple[Mapping[str, Any], float]:
        """POST ``payload``; a host refusing JSON mode gets it again without."""
        started = time.monotonic()
        try:
            data = self._post(payload)
        except JudgeStatusError as err:
            if "response_format" not in payload or not _rejects_json_mode(err):
                raise
            self._drop_json_mode(err)
            del payload["response_format"]
            data = self._post(payload)
        return data, (time.monotonic() - started) * 1000.0

    def _post(self, payload: Mapping[str, Any]) -> Mapping[str, Any]:
        data, _ = post_question(
            self.url, payload, self._api_key,
            timeout=self.timeout, policy=self.retry, service=_SERVICE, send=self._send,
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
            "%s rejected response_format json_object (HTTP %s: %s); asking without it "
            "from now on", self.url, err.status, _short(err.body, 200),
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


def _reported_usage(usage: Any) -> tuple[int, int] | None:
    """``(prompt, completion)`` tokens as the host reported them; ``None`` when it reported
    none or nothing usable (then the caller estimates: a bad count must not cost an
    answer that was read fine)."""
    if not isinstance(usage, Mapping):
        return None
    counts = []
    for key in ("prompt_tokens", "completion_tokens"):
        number = finite_number(usage.get(key))
        if number is None or number < 0:
            return None
        counts.append(int(number))
    return counts[0], counts[1]


def estimate_tokens(text: str) -> int:
    """A token count for ``text`` when the host gives none: about 4 characters a token,
    OpenAI's rule of thumb for English."""
    return (len(text) + 3) // 4


def _finish_reason(data: Mapping[str, Any]) -> Any:
    choices = data.get("choices")
    first = choices[0] if isinstance(choices, list) and choices else None
    return first.get("finish_reason") if isinstance(first, Mapping) else None


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
    raise JudgeAnswerError(
        f"The judge's reply holds no JSON object: {_short(content)!r}"
    )


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
        return Answer(type="noul", value=p, probability=max(p, 1.0 - p),
                      probabilities={True: p, False: 1.0 - p})
    if kind == "choice":
        label = _label(qid, value, question.get("criteria"))
        return Answer(type="choice", value=label, probability=1.0, probabilities={label: 1.0})
    if kind == "score":
        level = _level(qid, value, question.get("criteria"))
        return Answer(type="score", value=float(level), probability=1.0,
                      probabilities={level: 1.0})
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
            raise JudgeAnswerError(f"answer {qid!r} should be a level number, got {value!r}") from None
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


# ---------------------------------------------------------------- evaluator verdicts


def _evaluator_user_message(state: State, question: Question) -> str:
    """The case as numbered text, then whatever the evaluator's own question adds."""
    text = render_state(state)
    extra = [str(question[k]) if isinstance(question[k], str) else
             json.dumps(question[k], ensure_ascii=False, default=jsonable)
             for k in ("instructions", "criteria") if question.get(k)]
    if extra:
        # An evaluator's text names the state's fields (state.turns, state.context...):
        # say which labels above they are, counted from 0 there and from 1 here.
        text += ("\n\nTHE EVALUATOR ADDS (its \"state\" is the material above: "
                 "state.context[0] is [C1], state.tools_called[0] is [T1], state.steps[0] "
                 "is [S1], state.turns[0] is [turn 1]):\n" + "\n".join(extra))
    return text


_TRUE_WORDS = {"true", "yes", "y", "1", "fail", "failed", "failure", "fired"}
_FALSE_WORDS = {"false", "no", "n", "0", "pass", "passed", "none", "ok", "no failure",
                "not failed"}
# What a reply cut off at the token limit still shows: the fields written before the cut.
_SALVAGE_FAILURE = re.compile(r'"failure"\s*:\s*(true|false|"[^"]{0,20}")', re.IGNORECASE)
_SALVAGE_CONFIDENCE = re.compile(r'"confidence"\s*:\s*("?[0-9.]+%?"?)[,}\s]', re.IGNORECASE)
_SALVAGE_REASONING = re.compile(r'"reasoning"\s*:\s*"((?:[^"\\]|\\.)*)', re.IGNORECASE)


def parse_verdict(content: str, *, kind: str | None = None, truncated: bool = False) -> Answer:
    """An evaluator's reply ``{"failure", "confidence", "reasoning", "evidence"}`` as a
    noul :class:`Answer` whose value is P(the failure happened).

    - ``confidence`` c is how sure the judge is of its verdict: P = c for a failure, 1 - c
      otherwise. A percent (``"85%"``, or a whole number up to 100) is divided by 100; a
      c below 0.5 contradicts the verdict and reads as 0.5, a toss-up. With no
      confidence, P is 1 or 0 (what the judge said, unhedged).
    - The verdict may also be written under ``"failed"`` or the kind's own name
      (``{"hallucination": true}``).
    - A reply cut off at the token limit keeps the fields written before the cut, and
      says so in the reasoning.
    - No readable ``failure`` (no JSON, a refusal, a verdict like ``"maybe"``), or a
      confidence that is no probability, raises :class:`JudgeAnswerError`: the evaluator
      records the case as undecided, never as healthy.
    """
    obj, salvaged = _verdict_object(content, ("failure", "failed", *([kind] if kind else [])))
    failure = _failure(obj.get("failure"))
    confidence = _verdict_confidence(obj.get("confidence"))
    sure = 1.0 if confidence is None else max(confidence, 0.5)
    p = sure if failure else 1.0 - sure
    reasoning = _prose(obj.get("reasoning"))
    evidence = _prose(obj.get("evidence"))
    if evidence:
        reasoning = f"{reasoning} Evidence: {evidence}".strip()
    if salvaged or truncated:
        reasoning = f"{reasoning} [the judge's reply was cut off]".strip()
    return Answer(type="noul", value=p, probability=max(p, 1.0 - p),
                  probabilities={True: p, False: 1.0 - p}, confidence=confidence,
                  reasoning=reasoning)


def _verdict_object(content: str, names: tuple[str, ...]) -> tuple[Mapping[str, Any], bool]:
    """The verdict's fields (keys lower-cased, the verdict under ``"failure"`` whichever
    of ``names`` it came as), and whether they were salvaged from a reply that holds no
    complete object."""
    try:
        found = _find_object(content)
    except JudgeAnswerError:
        found = None
    verdict = _with_failure(found, names)
    if verdict is not None:
        return verdict, False
    match = _SALVAGE_FAILURE.search(content)
    if match is None:
        raise JudgeAnswerError(f"The judge gave no verdict: {_short(content)!r}")
    salvaged: dict[str, Any] = {"failure": json.loads(match.group(1))}
    confidence = _SALVAGE_CONFIDENCE.search(content)
    if confidence is not None:
        salvaged["confidence"] = confidence.group(1).strip('"')
    reasoning = _SALVAGE_REASONING.search(content)
    if reasoning is not None:
        salvaged["reasoning"] = reasoning.group(1).replace('\\"', '"')
    return salvaged, True


def _with_failure(obj: Any, names: tuple[str, ...], depth: int = 0) -> Mapping[str, Any] | None:
    # The verdict itself, or one level down when a model wrapped it ({"verdict": {...}},
    # {"answers": {"q": {...}}}).
    if not isinstance(obj, Mapping):
        return None
    lowered = {str(k).strip().lower(): v for k, v in obj.items()}
    name = next((n for n in names if n in lowered and not isinstance(lowered[n], Mapping)),
                None)
    if name is not None:
        return {**lowered, "failure": lowered[name]}
    if depth < 2:
        for value in lowered.values():
            inner = _with_failure(value, names, depth + 1)
            if inner is not None:
                return inner
    return None


def _failure(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().strip(".!").lower()
        if word in _TRUE_WORDS:
            return True
        if word in _FALSE_WORDS:
            return False
    raise JudgeAnswerError(
        f"The judge's verdict 'failure' should be true or false, got {_short(repr(value))}"
    )


def _verdict_confidence(value: Any) -> float | None:
    if value is None:
        return None
    percent = False
    if isinstance(value, str):
        text = value.strip()
        percent = text.endswith("%")
        try:
            value = float(text.rstrip("%").strip())
        except ValueError:
            raise JudgeAnswerError(
                f"The judge's 'confidence' should be a number, got {_short(repr(value))}"
            ) from None
    number = finite_number(value)
    if number is None:
        raise JudgeAnswerError(
            f"The judge's 'confidence' should be a number, got {_short(repr(value))}"
        )
    # 85 means 85 %: models write percents without the sign. 1.5 is no percent anyone
    # writes, so it stays out of range.
    if percent or (1.0 < number <= 100.0 and number == int(number)):
        number /= 100.0
    if not 0.0 <= number <= 1.0:
        raise JudgeAnswerError(f"The judge's 'confidence' {number!r} is outside [0, 1]")
    return number


def _prose(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return " ".join(value.split())
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(" ".join(v.split()) for v in value)
    return json.dumps(value, ensure_ascii=False, default=str)
