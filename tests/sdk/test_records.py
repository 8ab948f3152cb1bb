"""Whatever an agent passes, the sender thread makes a strict-JSON event of it."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from semloop.events import Event
from semloop.sdk._records import (
    DEFAULT_SECRET_KEYS,
    REDACTED,
    RunInfo,
    build_event,
    json_safe,
    secret_matcher,
)

IS_SECRET = secret_matcher(DEFAULT_SECRET_KEYS)


class Odd:
    def __repr__(self) -> str:
        return "Odd()"


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(), st.binary(max_size=8),
    st.just(Odd()), st.just(float("nan")), st.complex_numbers(allow_nan=True),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(st.one_of(st.text(max_size=12), st.integers()), inner, max_size=4),
    ),
    max_leaves=20,
)
INFO = RunInfo("r" * 32, "agent", "abcd1234", None, None, None)
RAW = {
    "run.started": lambda v: (v, v, v, [v]),
    "llm.called": lambda v: (v, v, v),
    "llm.responded": lambda v: (v, v, v, v, v, None, v, v),
    "tool.called": lambda v: ("t", v),
    "tool.responded": lambda v: (v, True, None, v, v, v),
    "retrieval.called": lambda v: (v, v),
    "retrieval.responded": lambda v: (v, v, v, v, v),
    "external.signal": lambda v: (v, v, {"k": v}),
}


@settings(max_examples=150, deadline=None)
@given(value=values, event_type=st.sampled_from(sorted(RAW)))
def test_any_value_in_any_field_gives_a_strict_json_event(value: Any, event_type: str) -> None:
    event = build_event((event_type, INFO, 1, 1.0, RAW[event_type](value)), IS_SECRET, None)
    text = json.dumps(event.to_dict(), allow_nan=False)
    assert Event.from_dict(json.loads(text)).event_type == event_type


@settings(max_examples=150, deadline=None)
@given(value=values)
def test_json_safe_output_round_trips_and_keeps_what_json_already_encodes(value: Any) -> None:
    safe = json_safe(value, IS_SECRET)
    assert json.loads(json.dumps(safe, allow_nan=False)) == safe
    if isinstance(value, (int, str)) or value is None:
        assert safe == value
    if isinstance(value, float) and math.isfinite(value):
        assert safe == value


def test_cycles_are_cut_not_recursed_forever() -> None:
    loop: dict[str, Any] = {"name": "a"}
    loop["self"] = loop
    safe = json_safe(loop, IS_SECRET)
    json.dumps(safe, allow_nan=False)
    depth, node = 0, safe
    while isinstance(node, dict):
        node, depth = node["self"], depth + 1
    assert node == "<too deep>" and depth == 32


def test_secret_keys_match_by_suffix_of_the_normalised_name() -> None:
    for key in ("password", "DB_PASSWORD", "x-api-key", "OPENAI_API_KEY", "refreshToken",
                "Set-Cookie", "client_secret", "Authorization", "private_key"):
        assert IS_SECRET(key), key
        assert json_safe({key: "v"}, IS_SECRET) == {key: REDACTED}
    for key in ("max_tokens", "prompt_tokens", "author", "query", "secretary_name", 7):
        assert not IS_SECRET(key), key
