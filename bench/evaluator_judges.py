"""What one evaluation costs on each non-embedded judge, apart from the model's own time:
calls, prompt and reply tokens, list-price cost, and the client's time per evaluation.

Every judge asks a server on 127.0.0.1 (tests/judge/servers.py): the LLM judge and the
DeepEval mode a chat server replaying scripted verdicts in the shapes each expects, Jev
our System One server. So latency here is semloop's (and deepeval's) own work per
evaluation — prompt building, HTTP, parsing, deepeval's templates and metric objects —
not a model's; tokens are the servers' count (characters / 4) of what was really sent.

Run: .venv/bin/python bench/evaluator_judges.py [--evaluations 30]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.judge.servers

from tests.judge.servers import ScriptedChatServer, SystemOneServer

from semloop.case import ConversationCase, RunCase, ToolCall, Turn
from semloop.judge._evaluator import EVALUATOR_KINDS, RUBRICS
from semloop.judge._types import Backend, JudgeResponse
from semloop.judge.deepeval import DeepEvalBackend
from semloop.judge.jev import JevBackend
from semloop.judge.llm import LLMJudgeBackend

#: gpt-4o-mini's list price per million tokens, input / output.
LLM_USD_PER_MTOK = (0.15, 0.60)

RUN = RunCase(
    id="r", input="Can I get a refund on my annual plan, and how long does it take?",
    output=("Yes. Annual plans are refundable within 30 days of purchase. Refunds reach "
            "your card in 5 to 10 business days. I have opened the request for you."),
    context=("Refund policy: annual plans are refundable within 30 days of purchase.",
             "Card refunds take 5-10 business days to appear."),
    tools_called=(ToolCall("open_refund", {"plan": "annual"}, "request R-1182 opened", True),),
    steps=("Checking the refund policy for annual plans.",),
).to_state()
CONVERSATION = ConversationCase(id="c", turns=tuple(
    Turn("user" if i % 2 == 0 else "assistant", text) for i, text in enumerate([
        "How do I export my invoices?", "Go to Billing > Invoices and press Export.",
        "I don't see an Export button there.", "It is at the top right of the table.",
        "Still nothing. Is there another way to get them?",
        "You can also ask support to email them; I have sent the request.",
    ])
)).to_state()


def llm_replies(kind: str) -> list[str]:
    """What a model says for one evaluation, in order, in the shape each judge reads."""
    verdict = json.dumps({"failure": False, "confidence": 0.9,
                          "reasoning": "Nothing in the case shows it.", "evidence": ""})
    return [verdict]


def deepeval_replies(kind: str) -> list[str]:
    if kind == "hallucination":
        contexts = len(RUN["context"]) + len(RUN["tools_called"])
        return [json.dumps({"verdicts": [{"verdict": "yes", "reason": "agrees"}] * contexts})]
    if kind == "task_completion":
        return [json.dumps({"task": "refund the annual plan", "outcome": "request opened"}),
                json.dumps({"verdict": 0.9, "reason": "The refund was requested."})]
    return [json.dumps({"score": 9, "reason": "It does not happen in the case."})]


def evaluate(judge: Backend, kind: str) -> JudgeResponse:
    state = CONVERSATION if RUBRICS[kind].conversation else RUN
    return judge.ask(state, {kind: {"type": "noul", "kind": kind}})


def measure(ask: Callable[[], JudgeResponse], evaluations: int) -> tuple[float, JudgeResponse]:
    ask()  # warm-up: imports, the first connection
    times = []
    response = None
    for _ in range(evaluations):
        started = time.perf_counter()
        response = ask()
        times.append((time.perf_counter() - started) * 1000)
    assert response is not None
    return statistics.median(times), response


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evaluations", type=int, default=30)
    args = parser.parse_args()
    rows: list[tuple[str, str, int, JudgeResponse, float, float]] = []
    with ScriptedChatServer() as chat, SystemOneServer() as system_one:
        llm = LLMJudgeBackend("test-key", base_url=chat.base_url,
                              input_usd_per_mtok=LLM_USD_PER_MTOK[0],
                              output_usd_per_mtok=LLM_USD_PER_MTOK[1])
        deepeval = DeepEvalBackend(client=llm)
        jev = JevBackend("test-key", base_url=system_one.url)
        for kind in sorted(EVALUATOR_KINDS):
            for name, judge, replies in (("llm", llm, llm_replies),
                                         ("deepeval", deepeval, deepeval_replies),
                                         ("jev", jev, None)):
                def ask(judge: Backend = judge, replies: Any = replies,
                        kind: str = kind) -> JudgeResponse:
                    if replies is not None:
                        chat.say(*replies(kind))
                    return evaluate(judge, kind)

                before = len(chat.requests) + len(system_one.requests)
                median_ms, response = measure(ask, args.evaluations)
                calls = (len(chat.requests) + len(system_one.requests) - before) // (
                    args.evaluations + 1)
                rows.append((kind, name, calls, response, response.cost_usd, median_ms))
    print(f"{args.evaluations} evaluations per row; LLM priced at gpt-4o-mini's "
          f"${LLM_USD_PER_MTOK[0]}/${LLM_USD_PER_MTOK[1]} per Mtok, Jev at $0.042 (input)")
    print(f"{'evaluator':27} {'judge':9} {'calls':>5} {'in tok':>7} {'out tok':>7} "
          f"{'USD / 1k evals':>14} {'client ms':>9}")
    for kind, name, calls, response, cost, median_ms in rows:
        print(f"{kind:27} {name:9} {calls:5d} {response.input_tokens:7d} "
              f"{response.output_tokens:7d} {cost * 1000:14.4f} {median_ms:9.2f}")


if __name__ == "__main__":
    main()
