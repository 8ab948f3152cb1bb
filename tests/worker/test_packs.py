"""The detector worker applies each organization's enabled packs to its runs only."""

from __future__ import annotations

from semloop.sdk import Client, StoreEmitter
from semloop.store import Store
from semloop.worker import DetectorWorker


def _oversized(store: Store, org: str) -> str:
    client = Client(emitter=StoreEmitter(store, org), flush_interval=0.01)
    with client.run("writer", model="gpt-4o", tools=["save_note"]) as run:
        run.tool_called("save_note", {"text": "x" * 12_000})  # used as a scratchpad
        run.tool_responded("save_note", success=True, output="saved")
        run.final_answer()
        run_id = run.run_id
    assert client.flush(10)
    client.shutdown()
    return run_id


def _shadow_of(store: Store, org: str, run_id: str, name: str) -> bool:
    found = [s for s in store.signals_for_run(org, run_id) if s.failure_type == name]
    assert len(found) == 1, found
    return found[0].shadow


def test_an_enabled_pack_changes_its_orgs_runs_and_no_one_elses(store: Store) -> None:
    packed, plain = store.create_org("packed"), store.create_org("plain")
    store.enable_pack(packed, "preview")
    runs = {org: _oversized(store, org) for org in (packed, plain)}
    assert DetectorWorker(store).drain() == 2
    # OVERSIZED_TOOL_ARGUMENTS runs in shadow by default; the preview pack makes it live.
    assert _shadow_of(store, plain, runs[plain], "OVERSIZED_TOOL_ARGUMENTS") is True
    assert _shadow_of(store, packed, runs[packed], "OVERSIZED_TOOL_ARGUMENTS") is False


def test_a_disabled_pack_no_longer_applies(store: Store) -> None:
    org = store.create_org("acme")
    store.enable_pack(org, "preview")
    assert [p.pack_name for p in store.packs(org)] == ["preview"]
    assert store.disable_pack(org, "preview") is True
    assert store.disable_pack(org, "preview") is False
    run_id = _oversized(store, org)
    assert DetectorWorker(store).drain() == 1
    assert _shadow_of(store, org, run_id, "OVERSIZED_TOOL_ARGUMENTS") is True
