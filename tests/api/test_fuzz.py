"""Fuzz the served app against its own ``/openapi.json`` with schemathesis, then fuzz
``POST /v1/ingest`` bodies inside a valid envelope with hypothesis.

Bad input must get a declared 4xx with a body the schema describes, never a 5xx, and never
cost the valid events beside it. SQLite only (the other api tests cover PostgreSQL); every
run is derandomized and bounded so the module stays well under a minute on a busy machine.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from semloop.api import create_app
from semloop.api.testing import serve
from semloop.settings import Settings
from semloop.store import Store

from .conftest import Server

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]

#: Derandomized: the same examples every run, so a finding reproduces and CI never flakes.
#: No example database either, for the same reason.
FUZZ = settings(max_examples=25, derandomize=True, database=None, deadline=None,
                suppress_health_check=list(HealthCheck))
BODIES = settings(max_examples=40, derandomize=True, database=None, deadline=None,
                  suppress_health_check=list(HealthCheck))


@dataclass
class App:
    url: str
    store: Store
    org_id: str
    key: str


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    """One served app for the module: fuzzing is about answers, not about a fresh database."""
    url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'semloop.db'}"
    with Store(url) as store:
        org_id = store.create_org("acme")
        key = store.create_api_key(org_id)
        with serve(create_app(store, Settings(database_url=url))) as base:
            yield App(base, store, org_id, key)


@pytest.fixture(scope="module")
def operations(app: App) -> list[schemathesis.APIOperation]:
    """The served schema's operations, loaded once: the app and its schema do not change
    between the four fuzz runs, and loading and resolving the schema is seconds each."""
    schema = schemathesis.openapi.from_url(f"{app.url}/openapi.json")
    found = [result.ok() for result in schema.get_all_operations()]
    # The fuzz must cover every operation the app serves, not a list that drifts from it.
    served = httpx.get(f"{app.url}/openapi.json").json()["paths"]
    assert {f"{op.method.upper()} {op.path}" for op in found} == {
        f"{method.upper()} {path}" for path, methods in served.items() for method in methods}
    return found


def _has_inputs(operation: schemathesis.APIOperation) -> bool:
    raw = operation.definition.raw
    return bool(raw.get("parameters") or raw.get("requestBody"))


def _fuzz(operation: schemathesis.APIOperation, mode: GenerationMode, base_url: str,
          headers: dict[str, str]) -> None:
    session = requests.Session()

    @FUZZ
    @given(case=operation.as_strategy(generation_mode=mode))
    def check(case: schemathesis.Case) -> None:
        case.call_and_validate(base_url=base_url, session=session, headers=headers,
                               checks=CHECKS, timeout=10)

    try:
        check()
    finally:
        session.close()


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
                         ids=["positive", "negative"])
@pytest.mark.parametrize("with_key", [True, False], ids=["key", "no-key"])
def test_every_operation_answers_as_its_schema_says(app: App,
                                                    operations: list[schemathesis.APIOperation],
                                                    mode: GenerationMode, with_key: bool) -> None:
    headers = {"Authorization": f"Bearer {app.key}"} if with_key else {}
    failures: list[str] = []
    assert len(operations) >= 4  # health, ingest, traces, runs
    for operation in operations:
        if mode is GenerationMode.NEGATIVE and not _has_inputs(operation):
            continue  # nothing in the request to make invalid (GET /health)
        try:
            _fuzz(operation, mode, app.url, headers)
        # Collect them all: one finding must not hide the next. (schemathesis reports its
        # findings as a FailureGroup, a BaseExceptionGroup.)
        except (Exception, FailureGroup) as exc:  # noqa: BLE001
            failures.append(f"{operation.method.upper()} {operation.path}:\n{exc}")
    assert not failures, "schemathesis found:\n\n" + "\n\n".join(failures)


# --- POST /v1/ingest bodies: random JSON shapes inside a valid envelope ---------------------

T0 = time.time()
EVENT_TYPES = ["run.started", "llm.called", "llm.responded", "tool.called", "run.completed"]
FIELDS = ["event_type", "run_id", "agent_id", "agent_version", "step_index", "timestamp",
          "payload", "parent_run_id", "trace_id", "conversation_id", "event_id"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                max_size=4),
    max_leaves=12,
)


@st.composite
def good_events(draw: st.DrawFn) -> dict[str, Any]:
    step = draw(st.integers(min_value=0, max_value=1000))
    return {"event_type": draw(st.sampled_from(EVENT_TYPES)),
            "run_id": draw(st.sampled_from(["fz-1", "fz-2", "fz-3"])),
            "agent_id": "fuzz-agent", "agent_version": "v1", "step_index": step,
            "timestamp": T0 + step, "payload": draw(st.dictionaries(st.text(max_size=8),
                                                                    json_values, max_size=3)),
            "event_id": draw(st.uuids()).hex}


@st.composite
def bad_events(draw: st.DrawFn) -> tuple[Any, str | None]:
    """An invalid event and the field the server should blame (``None``: not an object)."""
    kind = draw(st.sampled_from(["not-an-object", "wrong-type", "unknown-type", "missing"]))
    if kind == "not-an-object":
        return draw(st.none() | st.integers() | st.text(max_size=10)
                    | st.lists(json_values, max_size=3)), None
    event = draw(good_events())
    if kind == "unknown-type":
        event["event_type"] = "fuzz." + draw(st.text(min_size=1, max_size=10))
        return event, "event_type"
    if kind == "missing":
        field = draw(st.sampled_from(["event_type", "run_id", "agent_id", "timestamp"]))
        del event[field]
        return event, field
    field, value = draw(st.sampled_from([
        ("event_type", 7), ("run_id", 12), ("run_id", None), ("agent_id", ["a"]),
        ("step_index", "two"), ("step_index", -1), ("step_index", 1.5),
        ("timestamp", "yesterday"), ("timestamp", None), ("payload", "text"),
        ("payload", [1, 2]), ("parent_run_id", 5), ("trace_id", {"a": 1}),
        ("conversation_id", 3.5), ("event_id", 9), ("run_id", "x" * 1000),
    ]))
    event[field] = value
    return event, field


def _ingest(app: App, body: bytes) -> httpx.Response:
    return httpx.post(f"{app.url}/v1/ingest", content=body, timeout=10,
                      headers={"Authorization": f"Bearer {app.key}",
                               "Content-Type": "application/json"})


def _stored_ids(app: App) -> set[str]:
    ids: set[str] = set()
    for run_id in ("fz-1", "fz-2", "fz-3"):
        run = app.store.get_run(app.org_id, run_id)
        ids.update(e.event_id for e in (run.events if run else []))
    return ids


@BODIES
@given(data=st.data())
def test_valid_events_beside_invalid_ones_are_stored(app: App, data: st.DataObject) -> None:
    good = data.draw(st.lists(good_events(), max_size=5, unique_by=lambda e: e["event_id"]))
    bad = data.draw(st.lists(bad_events(), max_size=5))
    # Interleave them at random positions, remembering which index holds what.
    slots: list[tuple[Any, str | None, bool]] = (
        [(e, None, True) for e in good] + [(e, f, False) for e, f in bad])
    order = data.draw(st.permutations(range(len(slots))))
    batch = [slots[i] for i in order]
    reply = _ingest(app, json.dumps({"agent_id": "fuzz-agent",
                                     "events": [e for e, _, _ in batch]}).encode())

    assert reply.status_code == (422 if bad and not good else 202), reply.text
    body = reply.json()
    assert body["accepted"] == len(good)
    assert body["stored"] + body["duplicates"] == len(good)
    expected = [(i, field) for i, (_, field, ok) in enumerate(batch) if not ok]
    assert [(r["index"], r["field"]) for r in body["rejected"]] == expected
    assert all(isinstance(r["reason"], str) and r["reason"] for r in body["rejected"])
    assert {e["event_id"] for e in good} <= _stored_ids(app)


@BODIES
@given(envelope=st.one_of(
    json_values,
    st.dictionaries(st.sampled_from(["events", "api_key", "agent_id", "x"]), json_values,
                    max_size=4),
    st.fixed_dictionaries({"events": st.lists(json_values, max_size=4)}),
))
def test_any_json_envelope_gets_a_clear_answer(app: App, envelope: Any) -> None:
    reply = _ingest(app, json.dumps(envelope).encode())
    assert reply.status_code in (202, 400, 413, 422), reply.text
    assert reply.headers["content-type"] == "application/json"
    body = reply.json()
    if reply.status_code == 400:
        assert isinstance(body["detail"], str) and body["detail"]
    else:
        assert body["accepted"] + len(body["rejected"]) == len(envelope["events"])


@BODIES
@given(raw=st.binary(max_size=200))
def test_any_bytes_get_a_clear_answer(app: App, raw: bytes) -> None:
    reply = _ingest(app, raw)
    assert reply.status_code in (202, 400, 413, 422), reply.text
    assert reply.json()  # a JSON body either way: a result or {"detail": ...}


# --- What the fuzzing found: each nasty event is rejected by field, its neighbour kept -----

def _good(run_id: str) -> dict[str, Any]:
    return {"event_type": "tool.called", "run_id": run_id, "agent_id": "a", "timestamp": T0,
            "event_id": f"{run_id}-good"}


NASTY = [  # (event fragment as raw JSON text, field to blame)
    ('"run_id": "\\ud800"', "run_id"),  # an unpaired surrogate: no UTF-8 encoding exists
    ('"run_id": "r", "conversation_id": "a\\uDFFFb"', "conversation_id"),
    ('"run_id": "r", "payload": {"q": "\\udbff"}', "payload"),
    ('"run_id": "r", "payload": {"\\ud800": 1}', "payload"),
    ('"run_id": "r", "payload": {"x": [1, NaN]}', "payload"),  # JSONB cannot hold NaN
    ('"run_id": "r", "payload": {"x": -Infinity}', "payload"),
    ('"run_id": "r", "payload": {"n": ' + "9" * 5000 + "}", "payload"),  # past int parsing
    ('"run_id": "r", "step_index": ' + "1" * 5000, "step_index"),
]


@pytest.mark.parametrize(("fragment", "field"), NASTY, ids=[f for _, f in NASTY])
def test_an_event_no_database_can_hold_is_rejected_by_field(server: Server, fragment: str,
                                                            field: str) -> None:
    nasty = '{"event_type": "tool.called", "agent_id": "a", "timestamp": 1, ' + fragment + "}"
    good = json.dumps(_good("kept"))
    body = f'{{"events": [{good}, {nasty}, {good.replace("kept-good", "kept-2")}]}}'
    with server.client() as http:
        reply = http.post("/v1/ingest", content=body.encode(),
                          headers={"Content-Type": "application/json"})
    assert reply.status_code == 202, reply.text
    result = reply.json()
    assert result["stored"] == 2
    assert [(r["index"], r["field"]) for r in result["rejected"]] == [(1, field)]
    assert server.store.count_events(server.org_id) == 2


@pytest.mark.parametrize("depth_in", ["body", "payload"])
def test_json_nested_past_the_parser_is_a_400(read_only_server: Server, depth_in: str) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    body = (f'{{"events": {deep}}}' if depth_in == "body" else
            '{"events": [{"event_type": "tool.called", "run_id": "r", "agent_id": "a", '
            f'"timestamp": 1, "payload": {{"x": {deep}}}}}]}}')
    with read_only_server.client() as http:
        reply = http.post("/v1/ingest", content=body.encode(),
                          headers={"Content-Type": "application/json"})
    assert reply.status_code == 400, reply.text
    assert "nested" in reply.json()["detail"]


def test_otlp_spans_no_database_can_hold_come_back_as_partial_success(server: Server) -> None:
    fixture = Path(__file__).resolve().parents[1] / "formats" / "fixtures" / "otlp_genai.json"
    doc = fixture.read_text()
    assert '"get_weather"' in doc
    doc = doc.replace('"get_weather"', '"get_\\ud800weather"')  # an unpaired surrogate
    with server.client() as http:
        reply = http.post("/v1/traces", content=doc.encode(),
                          headers={"Content-Type": "application/json"})
    assert reply.status_code == 200, reply.text
    partial = reply.json()["partialSuccess"]
    assert partial["rejectedSpans"] > 0 and "surrogate" in partial["errorMessage"]
    assert server.store.count_events(server.org_id) > 0  # the spans beside them are stored
