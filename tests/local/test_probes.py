"""Hand-written traces in shapes neither dataset uses: tool spans nested under LLM spans,
prompts on every LLM span, raw shell strings as tool inputs, JSON outputs."""

from __future__ import annotations

from typing import Any

import pytest

from semloop.judge.local import LocalBackend
from semloop.semantic import SemanticLoopDetection
from semloop.trace import Span, Trace


def llm(out: str, *tools: tuple[str, Any, Any]) -> Span:
    children = [Span(type="tool", name=n, input=a, output=o) for n, a, o in tools]
    return Span(
        type="llm", name="chat", input="You are a helpful agent.", output=out, children=children
    )


def trace(goal: str, spans: list[Span]) -> Trace:
    return Trace(goal=goal, root=Span(type="agent", name="agent", input=goal, children=spans))


def refund_after_asking() -> Trace:
    return trace(
        "Refund a customer",
        [
            llm(
                "Looking up the customer's orders by the email on the ticket.",
                ("search_orders", {"email": "jane@home.com"}, []),
            ),
            llm(
                "No orders under that address. Asking which email they used at checkout.",
                ("ask_user", {"question": "Which email did you use?"}, "try j.doe@work.com"),
            ),
            llm(
                "Searching again with the work address the customer gave.",
                ("search_orders", {"email": "j.doe@work.com"}, [{"id": "A-991", "total": 54}]),
            ),
            llm(
                "Found order A-991. Issuing the refund of 54.",
                ("refund", {"order": "A-991", "amount": 54}, {"ok": True}),
            ),
        ],
    )


def seat_lookups() -> Trace:
    calls = [
        ("Checking seat availability on LH123 for two passengers.", {"flight": "LH123", "pax": 2}),
        ("Let me look at LH123 availability again.", {"flight": "LH123", "pax": 2, "cabin": "y"}),
        ("Re-checking whether LH123 has two free seats.", {"flight": "lh123", "pax": 2}),
        ("Querying LH123 seats once more, economy.", {"flight": "LH123", "pax": 2, "cabin": "y"}),
        ("Another availability check on LH123.", {"flight": "LH123", "pax": 2, "waitlist": False}),
        ("One more seat lookup for LH123.", {"flight": "LH123", "pax": 2}),
    ]
    return trace(
        "Book two seats",
        [llm(text, ("get_seats", args, {"available": 0})) for text, args in calls],
    )


def metric_breakdowns() -> Trace:
    dims = [
        ("region", {"EU": 0.031, "US": 0.029}),
        ("device", {"mobile": 0.018, "desktop": 0.041}),
        ("channel", {"ads": 0.02, "seo": 0.035}),
        ("browser", {"safari": 0.012, "chrome": 0.033}),
    ]
    return trace(
        "Explain the conversion drop",
        [
            llm(
                f"Breaking down last week's conversion by {dim} to see where the drop sits.",
                ("query_metrics", {"metric": "conversion", "group_by": dim}, out),
            )
            for dim, out in dims
        ],
    )


def shell_rewordings() -> Trace:
    commands = [
        "kubectl get pods -n prod",
        "kubectl get pods --namespace prod",
        "kubectl get pods -n prod -o wide",
        "kubectl -n prod get pods",
        "kubectl get pods -n prod",
        "kubectl get po -n prod",
    ]
    out = "NAME READY STATUS RESTARTS\napi-7d9 0/1 CrashLoopBackOff 14"
    return trace(
        "Find why pods restart",
        [Span(type="tool", name="shell", input=c, output=out) for c in commands],
    )


def fix_tests_iteratively() -> Trace:
    return trace(
        "Fix the failing tests",
        [
            llm(
                "Running the test suite to see the failure.",
                ("run_tests", {"path": "tests/"}, "3 failed, 40 passed"),
            ),
            llm(
                "Fixing the date parsing in utils.py that two failures point at.",
                ("edit_file", {"path": "utils.py"}, "ok"),
            ),
            llm(
                "Running the tests again.", ("run_tests", {"path": "tests/"}, "1 failed, 42 passed")
            ),
            llm(
                "The last failure is a timezone assumption in test_report.py; correcting it.",
                ("edit_file", {"path": "test_report.py"}, "ok"),
            ),
            llm("Running the tests again.", ("run_tests", {"path": "tests/"}, "43 passed")),
        ],
    )


@pytest.mark.parametrize(
    ("make", "loops"),
    [
        (refund_after_asking, False),
        (seat_lookups, True),
        (metric_breakdowns, False),
        (shell_rewordings, True),
        (fix_tests_iteratively, False),
    ],
)
def test_probe_verdicts(backend: LocalBackend, make: Any, loops: bool) -> None:
    result = SemanticLoopDetection(backend).measure(make())
    assert result.flags_loop(0.5) is loops
    assert (result.score_breakdown["reasoning_stagnation"] < 1.0) is loops
    assert not result.undecided
