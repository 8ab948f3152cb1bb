"""deepeval's own metric as the oracle, plus hypothesis strategies for trace dicts."""

from __future__ import annotations

import json
import os
from typing import Any

from hypothesis import strategies as st

os.environ.setdefault("DEEPEVAL_TELEMETRY_OPT_OUT", "1")
os.environ.setdefault("DEEPEVAL_DISABLE_DOTENV", "1")

from deepeval.metrics import AgentLoopDetectionMetric
from deepeval.metrics.agent_loop_detection.agent_loop_detection import _STOP_WORDS
from deepeval.test_case import LLMTestCase

from semloop.lexical import LexicalLoopDetection, LoopResult

DEEPEVAL_STOP_WORDS = frozenset(_STOP_WORDS)


def deepeval_result(trace_dict: Any, **options: Any) -> tuple[float, bool | None, str, Any]:
    """(score, success, reason, score_breakdown) from deepeval's metric, run synchronously."""
    metric = AgentLoopDetectionMetric(async_mode=False, **options)
    case = LLMTestCase(input="goal", actual_output="answer")
    case._trace_dict = trace_dict
    metric.measure(case, _show_indicator=False)
    return metric.score, metric.success, metric.reason, metric.score_breakdown


def ours(trace_dict: Any, **options: Any) -> LoopResult:
    return LexicalLoopDetection(**options).measure(trace_dict)


def assert_same(trace_dict: Any, **options: Any) -> LoopResult:
    expected = deepeval_result(trace_dict, **options)
    got = ours(trace_dict, **options)
    score, success, reason, breakdown = expected
    assert abs(got.score - score) <= 1e-12, (got.score, score)
    assert got.success == success
    assert got.reason == reason
    assert got.score_breakdown == breakdown
    return got


# --- strategies -------------------------------------------------------------------------

# Words long enough to survive cleaning, stop words that are removed, short tokens, and
# punctuation variants that survive ("the," is not the stop word "the").
# fmt: off
CONTENT = [
    "search", "repository", "handler", "checkout", "guest", "orders", "failing", "query",
    "database", "timeout", "config", "retry", "inspect", "logs", "trace", "error", "stack",
    "module", "import", "patch", "request", "response", "session", "token", "cache",
    "tool.", "tool", "result,", "again", "found", "nothing", "matches", "files", "route",
]
# fmt: on
FILLER = ["the", "and", "will", "step", "next", "a", "is", "of", "to", "the,", "Now", "STEP"]
LONG_SAME = "x" * 64


@st.composite
def texts(draw: st.DrawFn, base: list[str], near: bool = False) -> Any:
    if near:
        # One small edit of a long text lands in the 0.85-0.95 "high overlap" band.
        words = list(base)
        words[draw(st.integers(0, len(words) - 1))] = draw(st.sampled_from(CONTENT))
        return " ".join(words)
    kind = draw(
        st.sampled_from(["same", "edit", "edit", "edit", "shuffle", "fresh", "short", "other"])
    )
    if kind == "same":
        words = list(base)
    elif kind == "edit":
        words = list(base)
        for _ in range(draw(st.sampled_from([1, 1, 2, 3, 5, 8]))):
            op = draw(st.sampled_from(["sub", "ins", "del"]))
            pos = draw(st.integers(0, max(len(words) - 1, 0)))
            if op == "sub" and words:
                words[pos] = draw(st.sampled_from(CONTENT))
            elif op == "ins":
                words.insert(pos, draw(st.sampled_from(CONTENT + FILLER)))
            elif words:
                del words[pos]
    elif kind == "shuffle":
        words = draw(st.permutations(base))
    elif kind == "fresh":
        words = draw(st.lists(st.sampled_from(CONTENT + FILLER), min_size=20, max_size=90))
    elif kind == "short":
        words = draw(st.lists(st.sampled_from(CONTENT + FILLER), max_size=25))
    else:
        return draw(st.sampled_from([None, 3, {"text": " ".join(base)}, [" ".join(base)], 2.5]))
    sep = draw(st.sampled_from([" ", "  ", "\n", " \t"]))
    return sep.join(words)


ALL_INPUTS = st.sampled_from(
    [
        {"q": 1},
        {"q": "1"},
        {"q": 1.0},
        {"q": True},
        {"q": "True"},
        {"q": None},
        {"q": "x", "page": 2},
        {"page": 2, "q": "x"},
        {"q": {"nested": [1, 2]}},
        {"q": {1, 2}},
        {1: "a", "b": 2},
        {},
        '{"q": 1}',
        '{"q": "1"}',
        '{"page": 2, "q": "x"}',
        "{bad json",
        "[1, 2]",
        '"q"',
        "1",
        "",
        "NaN",
        [1, 2],
        ["q", 1],
        7,
        7.0,
        None,
        LONG_SAME + "a",
        LONG_SAME + "b",
        {"q": LONG_SAME + "a"},
        {"q": LONG_SAME + "b"},
    ]
)
# Mostly a few inputs that collide (1 vs "1", JSON string vs dict, key order), so
# repetition reaches both 0.5 and 0.0; sometimes anything from the full pool.
TOOL_INPUTS = st.one_of(
    st.sampled_from(
        [{"q": 1}, {"q": "1"}, '{"q": 1}', {"page": 2, "q": "x"}, '{"q":"x","page":2}']
    ),
    ALL_INPUTS,
)
NAMES = st.one_of(
    st.just("search"), st.sampled_from(["search", "read", "plan", "agent", "a:b", 1, "1", None])
)
TYPES = st.sampled_from(["tool", "tool", "llm", "llm", "agent", "base", "retriever", None, "TOOL"])


@st.composite
def trace_dicts(draw: st.DrawFn) -> dict[str, Any]:
    """A nested deepeval ``_trace_dict`` rich in collisions, cycles and near-duplicates."""
    # Text drawn through a seeded Random: hypothesis' own lists shrink towards one repeated
    # word, which makes every pair trivially identical.
    rnd = draw(st.randoms(use_true_random=False))
    base = rnd.choices(CONTENT + CONTENT + FILLER, k=draw(st.integers(26, 90)))

    @st.composite
    def node(draw: st.DrawFn, children: st.SearchStrategy[list[Any]] | None) -> dict[str, Any]:
        span: dict[str, Any] = {}
        span_type = draw(TYPES)
        if span_type is not None or draw(st.booleans()):
            span["type"] = span_type
        if draw(st.integers(0, 9)) > 0:
            span["name"] = draw(NAMES)
        if draw(st.integers(0, 9)) > 0:
            span["input"] = draw(TOOL_INPUTS)
        if span_type == "llm" or draw(st.booleans()):
            span["output"] = draw(texts(base))
        if children is not None:
            span["children"] = draw(children)
        elif draw(st.booleans()):
            span["children"] = []
        return span

    if draw(st.integers(0, 3)) > 0:
        # The shape agents actually produce: an agent whose children alternate LLM steps
        # and tool calls, some steps nesting further calls.
        def step(draw_type: str) -> st.SearchStrategy[dict[str, Any]]:
            return node(None).map(lambda span: {**span, "type": draw_type})

        leaf = st.one_of(step("llm"), step("llm"), step("tool"), node(None))
        # A step repeated k times: the same tool call again and again, or the same thought.
        repeated = st.one_of(
            st.tuples(step("tool"), st.integers(2, 7)).map(lambda pair: [pair[0]] * pair[1]),
            st.lists(
                st.builds(
                    lambda text: {"type": "llm", "name": "reason", "output": text},
                    texts(base, near=True),
                ),
                min_size=2,
                max_size=4,
            ),
        )
        single = st.one_of(leaf, leaf, node(st.lists(leaf, max_size=3))).map(lambda x: [x])
        runs = st.lists(st.one_of(single, single, repeated), min_size=1, max_size=8)
        tree = draw(node(runs.map(lambda groups: [span for group in groups for span in group])))
    else:
        tree = draw(
            st.recursive(
                node(None),
                lambda inner: node(st.lists(st.one_of(inner, st.just({})), max_size=5)),
                max_leaves=30,
            )
        )
    if draw(st.booleans()):
        # Force a cycle of identical spans nested under themselves.
        copy = json.loads(
            json.dumps({k: v for k, v in tree.items() if k != "children"}, default=str)
        )
        tree = (
            {**copy, "children": [tree]}
            if draw(st.booleans())
            else {**tree, "children": [*tree.get("children", []), {**copy, "children": [copy]}]}
        )
    return tree


OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "threshold": st.sampled_from([0.5, None, 0.0, 0.6, 0.7, 1, 0.45]),
        "repetition_threshold": st.integers(1, 5),
        "similarity_threshold": st.sampled_from([0.85, 0.5, 0.75, 0.9, 0.95, 0.96, 0.3, 0.0]),
        "check_tool_repetition": st.booleans(),
        "check_reasoning_stagnation": st.booleans(),
        "check_call_graph_cycles": st.booleans(),
        "strict_mode": st.booleans(),
    },
)


# --- adversarial outputs for the stagnation path ------------------------------------------

# Letters beyond ASCII, including ones whose lower case is longer ("İ" -> "i̇"), context
# dependent ("Σ" at a word's end), or already lower ("ß"), a combining accent, CJK and emoji.
UNICODE_LETTERS = "abcdeéèüßİΣσçñøåжщ中文字😀\u0301"
# Whitespace str.split() breaks on besides " ": a no-break space, an ideographic space and
# an ASCII group separator; ":" is not whitespace and stays inside a word.
SEPARATORS = [" ", " ", " ", "  ", "\n", "\t", "\xa0", "\u3000", "\x1d"]
STOP_WORDS_UPPER = ["THE", "The", "About", "WITH", "information", "Provided"]


def random_vocabulary(rnd: Any, kind: str, size: int | None = None) -> list[str]:
    """Words for one trace: uniform letters, English-like letters, a Zipf-like few tokens,
    unicode, or tokens free of stop words but with short ones."""
    size = size or rnd.choice([3, 12, 60, 300, 3000])
    if kind == "unicode":
        letters = UNICODE_LETTERS
    elif kind == "english":
        letters = "eeeeeeeeeeeettttttttaaaaaaaooooooiiiiiinnnnnnsssssrrrrrhhhhlllddcuumfgypwbvkjxqz"
    else:
        letters = "abcdefghijklmnopqrstuvwxyz"
    words = ["".join(rnd.choices(letters, k=rnd.randint(1, 10))) for _ in range(size)]
    if kind == "zipf":
        # A handful of tokens make up most of the text, so in a long output the characters
        # they use are popular (autojunk) and the rest seed matches.
        words = words[:4] * 40 + words
    if kind == "short":
        words += ["ok", "x", "id", "7", "go"]
    return words


@st.composite
def stagnation_traces(draw: st.DrawFn) -> dict[str, Any]:
    """An agent whose children are LLM steps with outputs built to break the fast paths.

    Outputs of 0 to 600 words (so both sides of autojunk's 200 characters), drawn from one
    random vocabulary per trace, then repeated, edited, extended or replaced; stop words
    appear only far into some outputs, and some outputs are empty, blank or not text.
    """
    # A plain Random seeded by Hypothesis: a Hypothesis-backed one makes every character of
    # a 3,000-word vocabulary a separate engine draw, most of this test's time. The kinds and
    # counts below are still Hypothesis' draws; the seed (and so every output) is fixed
    # under the suite's derandomized profile.
    rnd = draw(st.randoms(use_true_random=True))
    vocabulary = random_vocabulary(
        rnd, draw(st.sampled_from(["uniform", "english", "zipf", "unicode", "short"]))
    )
    outputs: list[Any] = []
    previous: list[str] = []
    for _ in range(draw(st.integers(2, 8))):
        kind = draw(
            st.sampled_from(
                ["fresh", "fresh", "same", "edit", "near", "extend", "back", "late_stop", "odd"]
            )
        )
        if kind == "same" and previous:
            words = list(previous)
        elif kind == "edit" and previous:
            words = list(previous)
            for _ in range(rnd.randint(1, 3)):
                words[rnd.randrange(len(words))] = rnd.choice(vocabulary)
        elif kind == "near" and previous:
            # Two words changed in an output under autojunk's 200 characters: difflib's
            # ratio then often lands in the 0.85-0.95 "high overlap" band.
            words = previous[:30]
            for _ in range(2):
                words[rnd.randrange(len(words))] = rnd.choice(vocabulary)
        elif kind == "extend" and previous:
            words = previous + rnd.choices(vocabulary, k=rnd.randint(1, 5))
        elif kind == "back" and len(outputs) >= 2 and isinstance(outputs[-2], str):
            outputs.append(outputs[-2])  # the output before last, verbatim
            continue
        elif kind == "odd":
            outputs.append(rnd.choice(["", "   ", "\n\t", None, 42, ["text"]]))
            continue
        else:
            words = rnd.choices(vocabulary, k=rnd.choice([5, 19, 20, 21, 40, 120, 400, 600]))
        if kind == "late_stop" and len(words) > 17:
            # Past the first 16 words: a quick look at the opening words misses it.
            words[rnd.randint(16, len(words) - 1)] = rnd.choice(STOP_WORDS_UPPER)
        previous = words
        sep = rnd.choice(SEPARATORS)
        outputs.append(sep.join(words))
    return {
        "type": "agent",
        "name": "agent",
        "input": "goal",
        "children": [
            {"type": "llm", "name": "reason", "input": {"step": i}, "output": text}
            for i, text in enumerate(outputs)
        ],
    }
