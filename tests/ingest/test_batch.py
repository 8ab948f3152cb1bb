"""ingest.batch validates without HTTP: what the routes store and what they report."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from semloop._exceptions import TraceFormatError
from semloop.ingest.batch import Unstorable, otlp_events, validate_batch

FIXTURES = Path(__file__).parents[1] / "formats" / "fixtures"
GOOD = {"event_type": "tool.called", "run_id": "r1", "agent_id": "a", "timestamp": 1.0}
LATEST = 4102444800.0  # 2100: no event here is from the future


def test_good_events_are_kept_and_each_bad_one_is_named() -> None:
    raw = [GOOD, {**GOOD, "run_id": ""}, {**GOOD, "agent_id": "x" * 201}, "not an object",
           {**GOOD, "event_id": "e2"}]
    valid, rejected = validate_batch(raw, suspect=False, latest=LATEST)
    assert [e.run_id for e in valid] == ["r1", "r1"]
    assert [(r.index, r.field) for r in rejected] == [(1, "run_id"), (2, "agent_id"), (3, None)]
    assert rejected[1].reason == "longer than 200 characters"
    assert rejected[1].to_dict() == {"index": 2, "field": "agent_id",
                                     "reason": "longer than 200 characters"}


@pytest.mark.parametrize("value", [math.nan, math.inf, Unstorable("1e999"), "\ud800", ["\udfff"]])
def test_a_suspect_batch_is_walked_for_what_no_database_stores(value: object) -> None:
    raw = [{**GOOD, "payload": {"x": value}}, GOOD]
    valid, rejected = validate_batch(raw, suspect=True, latest=LATEST)
    assert len(valid) == 1
    assert [(r.index, r.field) for r in rejected] == [(0, "payload")]
    # Unwalked, the same event passes: the store would refuse the whole batch.
    assert len(validate_batch(raw, suspect=False, latest=LATEST)[0]) == 2


def test_otlp_json_becomes_validated_events() -> None:
    body = (FIXTURES / "otlp_genai.json").read_bytes()
    valid, dropped = otlp_events(body, "application/json", latest=LATEST)
    assert dropped.count == 0 and len(valid) == 20
    assert {e.event_type for e in valid} >= {"run.started", "llm.called", "tool.called"}


def test_otlp_events_are_walked_so_one_bad_span_costs_only_its_events() -> None:
    # OTLP bodies never pass the JSON parse that flags suspect ones: always walked.
    doc = json.loads((FIXTURES / "otlp_genai.json").read_text())
    first = doc["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    for attribute in first["attributes"]:
        if attribute["key"] == "gen_ai.response.model":
            attribute["value"] = {"stringValue": "\ud800"}
    valid, dropped = otlp_events(json.dumps(doc).encode(), "application/json", latest=LATEST)
    assert len(valid) == 18  # the span's own two events go; the run's other 18 stay
    assert dropped.count == 1 and "payload" in dropped.message  # one span, named for OTLP


def test_a_body_that_is_not_otlp_raises() -> None:
    with pytest.raises(TraceFormatError):
        otlp_events(b"{}", "application/json", latest=LATEST)
