"""Our clients against independent peers of the System One protocol.

- ``jevcompat mock`` (PyPI ``jevcompat``, MIT): a spec-exact fake System One server, run
  here as a subprocess on 127.0.0.1. Clean, it must answer us; with a fault switched on it
  breaks one requirement, and we must notice.
- ``typesafe-sdk``: the official client. It must put the same request on the wire as
  JevBackend does, and read our test server's replies as we do.
- ``openai``, OpenAI's client: the same check for LLMJudgeBackend and the chat server.
- ``jevcompat test``: the conformance suite, run against our own System One test server.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from semloop._exceptions import JudgeAnswerError, JudgeAuthError, JudgeStatusError
from semloop.judge._http import RetryPolicy
from semloop.judge.jev import JevBackend, estimate_cost_usd

from .servers import SystemOneServer
from .test_jev import QUESTIONS, STATE

KEY = "peer-test-key"


class JevcompatMock:
    """``jevcompat mock`` in a subprocess; the port is the one it reports binding."""

    def __init__(self, *faults: str, key: str | None = KEY) -> None:
        argv = [sys.executable, "-u", "-m", "jevcompat.cli", "mock", "--host", "127.0.0.1",
                "--port", "0"]
        if key:
            argv += ["--key", key]
        for fault in faults:
            argv += ["--fault", fault]
        self.proc = subprocess.Popen(argv, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                     text=True)
        assert self.proc.stderr is not None
        line = self.proc.stderr.readline()  # "  jevcompat mock on http://127.0.0.1:PORT/v1/…"
        match = re.search(r"http://127\.0\.0\.1:\d+", line)
        if match is None:
            self.close()
            pytest.fail(f"jevcompat mock did not start: {line!r}")
        self.url = match.group(0)

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)
        if self.proc.stderr:
            self.proc.stderr.close()


@pytest.fixture(scope="module")
def jevcompat() -> Iterator[JevcompatMock]:
    mock = JevcompatMock()
    yield mock
    mock.close()


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def test_jevcompat_mock_answers_every_type(jevcompat: JevcompatMock) -> None:
    jev = JevBackend(KEY, base_url=jevcompat.url)
    response = jev.ask(STATE, QUESTIONS)
    noul, choice, score = (response.answers[k] for k in ("progress_0_1", "topic", "stagnation"))
    assert 0.0 <= noul.value <= 1.0 and noul.probability == max(noul.value, 1 - noul.value)
    assert choice.value in QUESTIONS["topic"]["criteria"]
    assert choice.probability == max(choice.probabilities.values())
    assert sum(choice.probabilities.values()) == pytest.approx(1.0)
    assert set(score.probabilities) == {0, 1, 2, 3}
    assert score.value == pytest.approx(sum(i * p for i, p in score.probabilities.items()))
    assert response.model == "jevcompat-mock-0.1"
    # jevcompat bills len(canonical JSON) // 4 for the state and for each question.
    expected = len(_canon(STATE)) // 4 + sum(len(_canon(q)) // 4 for q in QUESTIONS.values())
    assert response.input_tokens == expected
    assert response.output_tokens == 2 * len(QUESTIONS)
    assert response.cost_usd == pytest.approx(estimate_cost_usd(expected))


def test_jevcompat_answers_do_not_depend_on_ids_or_batching(jevcompat: JevcompatMock) -> None:
    jev = JevBackend(KEY, base_url=jevcompat.url)
    together = jev.ask(STATE, QUESTIONS).answers
    alone = jev.ask(STATE, {"renamed": QUESTIONS["progress_0_1"]}).answers["renamed"]
    assert alone.value == together["progress_0_1"].value


def test_jevcompat_auth_and_validation_errors(jevcompat: JevcompatMock) -> None:
    with pytest.raises(JudgeAuthError) as wrong:
        JevBackend("not-the-key", base_url=jevcompat.url).ask(STATE, QUESTIONS)
    assert wrong.value.status == 401 and "TYPESAFE_API_KEY" in str(wrong.value)
    with pytest.raises(JudgeAuthError) as missing:
        JevBackend(base_url=jevcompat.url).ask(STATE, QUESTIONS)
    assert missing.value.status == 403 and "Must supply an API key" in str(missing.value)
    bad = {"s": {"type": "score", "instructions": "x", "criteria": {"0": "a", "1": "b"}}}
    with pytest.raises(JudgeStatusError) as invalid:
        JevBackend(KEY, base_url=jevcompat.url).ask(STATE, bad)
    assert invalid.value.status == 422
    assert "body.questions.s.score.criteria: Input should be a valid list" in str(invalid.value)


def test_jevcompat_wrong_route_is_a_404_not_retried(jevcompat: JevcompatMock) -> None:
    jev = JevBackend(KEY, base_url=jevcompat.url, path="/v1/evaluate",
                     retry=RetryPolicy(backoff_s=0.01))
    with pytest.raises(JudgeStatusError, match="HTTP 404.*No route /v1/evaluate"):
        jev.ask(STATE, QUESTIONS)


@pytest.mark.parametrize(
    ("fault", "fragment"),
    [
        ("first-question-only", "no answer for question 'topic'"),
        ("noul-range", "'progress_0_1': noul must be in \\[0, 1\\]"),
        ("boolean-type", "'progress_0_1' has type 'boolean'"),
        ("xssi-200", "not JSON"),
    ],
)
def test_jevcompat_faults_are_caught(fault: str, fragment: str) -> None:
    mock = JevcompatMock(fault)
    try:
        with pytest.raises(JudgeAnswerError, match=fragment):
            JevBackend(KEY, base_url=mock.url).ask(STATE, QUESTIONS)
    finally:
        mock.close()


def test_official_sdk_puts_the_same_request_on_the_wire() -> None:
    from typesafe_sdk import RetryPolicy as SdkRetryPolicy
    from typesafe_sdk import TypeSafeClient

    with SystemOneServer(key="test-key") as server:
        with TypeSafeClient(api_key="test-key", base_url=server.url, compression=False,
                            retry=SdkRetryPolicy(max_retries=0)) as client:
            official = client.system_one(state=STATE, questions=QUESTIONS)
        ours = JevBackend("test-key", base_url=server.url).ask(STATE, QUESTIONS)
        sdk_request, our_request = server.requests

    assert our_request.json == sdk_request.json
    assert (our_request.method, our_request.path) == (sdk_request.method, sdk_request.path)
    for header in ("authorization", "content-type", "accept"):
        assert our_request.headers[header] == sdk_request.headers[header], header
    # Both clients read the same reply the same way.
    assert ours.answers["progress_0_1"].value == official.answers["progress_0_1"].noul
    assert ours.answers["topic"].value == official.answers["topic"].choice
    assert ours.answers["topic"].probabilities == official.answers["topic"].probabilities
    assert ours.answers["topic"].confidence == official.answers["topic"].confidence
    assert ours.answers["stagnation"].value == official.answers["stagnation"].score
    assert dict(ours.answers["stagnation"].probabilities) == dict(
        official.answers["stagnation"].probabilities)
    assert (ours.input_tokens, ours.output_tokens) == (official.usage.input_tokens,
                                                       official.usage.output_tokens)


def test_our_test_server_passes_the_jevcompat_conformance_suite() -> None:
    # The System One server the other tests use is a real implementation of the protocol:
    # jevcompat's 46-requirement suite (including the official SDK drop-in check) says so.
    with SystemOneServer(key="test-key") as server:
        run = subprocess.run(
            [sys.executable, "-m", "jevcompat.cli", "test", server.url, "--key", "test-key",
             "--timeout", "10"],
            check=False, capture_output=True, text=True, timeout=120,
        )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-1000:]
    assert "conformant to spec 0.1: MUST 32/32, SHOULD 14/14" in run.stdout


def test_official_openai_client_agrees_with_the_llm_backend() -> None:
    # The chat server is read by OpenAI's own client, and LLMJudgeBackend's request is the
    # one that client sends for the same call.
    import openai

    from semloop.judge.llm import SYSTEM_PROMPT, LLMJudgeBackend

    from .servers import ChatServer
    from .test_llm import QUESTIONS as CHAT_QUESTIONS
    from .test_llm import STATE as CHAT_STATE

    user = json.dumps({"state": CHAT_STATE, "questions": CHAT_QUESTIONS}, ensure_ascii=False)
    with ChatServer(key="test-key") as server:
        client = openai.OpenAI(api_key="test-key", base_url=server.base_url, max_retries=0)
        official = client.chat.completions.create(
            model="gpt-4o-mini", temperature=0.0, response_format={"type": "json_object"},
            messages=[{"role": "system", "content": SYSTEM_PROMPT},
                      {"role": "user", "content": user}],
        )
        client.close()
        ours = LLMJudgeBackend("test-key", base_url=server.base_url).ask(CHAT_STATE,
                                                                         CHAT_QUESTIONS)
        sdk_request, our_request = server.requests

    assert our_request.json == sdk_request.json
    assert our_request.path == sdk_request.path == "/v1/chat/completions"
    for header in ("authorization", "content-type", "accept"):
        assert our_request.headers[header] == sdk_request.headers[header], header
    assert official.usage is not None
    assert (ours.input_tokens, ours.output_tokens) == (official.usage.prompt_tokens,
                                                       official.usage.completion_tokens)
    assert json.loads(official.choices[0].message.content or "") == {
        "answers": {qid: (a.value if a.type != "score" else int(a.value))
                    for qid, a in ours.answers.items()}}
