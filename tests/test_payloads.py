"""The one payload table (semloop._payloads): the SDK and every importer write only what it
declares, with the kinds it declares, and docs/events.md documents exactly it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from semloop._payloads import CUT_FIELDS, PAYLOADS, conforms, make
from semloop.events import Event
from semloop.ingest.formats import load
from semloop.sdk import Client

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "formats" / "fixtures"


class _Keep:
    def __init__(self) -> None:
        self.events: list[Event] = []

    def send(self, events: list[Event]) -> None:
        self.events.extend(events)

    def close(self) -> None:
        pass


def _problems(events: list[Event]) -> list[str]:
    return [f"{e.event_type}: {p}" for e in events for p in conforms(e.event_type, e.payload)]


def test_the_sdk_writes_only_declared_fields() -> None:
    emitter = _Keep()
    client = Client(emitter=emitter, max_field_chars=10)
    with client.run("agent", user_input="a goal longer than ten", system_prompt="sys",
                    model="m", tools=["search"]) as run:
        run.llm_called("m", prompt_tokens=3, prompt="p")
        run.llm_responded(completion_tokens=2, output="out", cost_usd=0.1, reasoning_tokens=1,
                          prompt_tokens=3)
        run.tool_called("search", {"q": "x"})
        run.tool_responded("search", success=False, error="boom", output="o")
        run.retrieval_called("docs", "query")
        run.retrieval_responded("docs", result_count=2, top_score=0.5, content="c")
        run.external_signal("handoff", source="router", to="b")
    client.shutdown(5)
    assert {e.event_type for e in emitter.events} >= {
        "run.started", "llm.responded", "tool.responded", "retrieval.responded",
        "external.signal", "run.completed"}
    assert _problems(emitter.events) == []


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.iterdir()
                                        if not p.name.startswith(".")))
def test_every_importer_writes_only_declared_fields(name: str) -> None:
    runs = load(FIXTURES / name)
    assert _problems([e for run in runs for e in run.events]) == []


def test_docs_events_md_documents_the_table() -> None:
    doc = (ROOT / "docs" / "events.md").read_text()
    for event_type, fields in PAYLOADS.items():
        section = re.search(rf"^### `{re.escape(event_type)}`\n(.*?)(?=^###|\Z)", doc,
                            re.DOTALL | re.MULTILINE)
        assert section, event_type
        rows = dict(re.findall(r"^\| `(\w+)` \| ([a-z ]+) \|", section.group(1), re.MULTILINE))
        assert rows == {f.name: f.kind for f in fields}, event_type


def test_the_sdk_memory_events_are_declared_too() -> None:
    emitter = _Keep()
    client = Client(emitter=emitter, max_field_chars=4)
    with client.run("agent") as run:
        run.memory_written("plan", "a value longer than four", source="user")
        run.memory_read("plan")
        run.memory_cleared("plan")
    client.shutdown(5)
    memory = [e for e in emitter.events if e.event_type.startswith("memory.")]
    assert [dict(e.payload) for e in memory] == [
        {"key": "plan", "value": "a va", "value_truncated": True,
         "value_original_length": 24, "source": "user"},
        {"key": "plan"}, {"key": "plan"}]
    assert _problems(memory) == []


def test_make_writes_only_declared_fields_and_their_defaults() -> None:
    assert make("tool.called", tool_name=None, args=None) == {"tool_name": "tool", "args": "{}"}
    assert make("llm.responded", output="", error=None) == {"output": ""}
    with pytest.raises(KeyError, match="tool_nmae"):
        make("tool.called", tool_nmae="search")
    # Every default has its field's kind; every text the SDK cuts is a string.
    for event_type, fields in PAYLOADS.items():
        for f in fields:
            if f.default is not None:
                wrong = [p for p in conforms(event_type, {f.name: f.default})
                         if "missing" not in p]
                assert wrong == [], (event_type, f.name)
            assert not f.cut or f.kind == "string", (event_type, f.name)
    assert "value" in CUT_FIELDS and "tool_name" not in CUT_FIELDS
