"""The HALLUCINATION veto study (calibration/train_grounding_head.py): it reads no set still
blind, it reads the claim the rules weigh worst beside its closest evidence sentence, and its
cut keeps the share of flagged failures it says it keeps."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from semloop.case import RunCase, ToolCall
from semloop.judge.local._model import Embedder

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def study() -> ModuleType:
    sys.path.insert(0, str(ROOT / "calibration"))
    sys.path.insert(0, str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location(
        "train_grounding_head", ROOT / "calibration" / "train_grounding_head.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_sources_hold_no_set_still_blind(study: ModuleType) -> None:
    tags = [tag for tag, _ in study.sources()]
    assert "blind71b" in tags and "dev31b" in tags
    assert [t for t in tags if t.startswith("own:")] == [f"own:{p}" for p in study.OWN]
    for tag in tags:
        assert tag not in {"blind12", "blind29"}
        m = re.fullmatch(r"(?:blind|dev)(\d+)[a-z]?", tag)
        assert tag.startswith("own:") or (m and int(m.group(1)) <= 71), tag


def test_veto_cut_keeps_the_share_of_failures(study: ModuleType) -> None:
    scores = np.array([0.1, 0.4, 0.2, 0.9, 0.3, np.nan, -3.0])
    labels = np.array([1, 1, 1, 1, 1, 1, 0])
    assert study.veto_cut(scores, labels, 0.0) < 0.1  # every failure's flag stands
    cut = study.veto_cut(scores, labels, 0.4)  # two of five failures may be vetoed
    assert 0.2 < cut <= 0.3


def test_the_worst_claim_is_read_beside_its_closest_sentence(study: ModuleType) -> None:
    case = RunCase(
        id="ferry", input="When does the last ferry to Skye leave, and what does it cost?",
        output="The last ferry leaves at 21:40 and a foot passenger pays £14.",
        context=("Timetable: the final sailing to Skye departs at 21:40 from Mallaig.",
                 "The harbour café opens at seven in the morning."),
        tools_called=(ToolCall("fares", {"route": "Mallaig-Armadale"},
                               "foot passenger single: £3.40", True),),
    )
    embed = Embedder(threads=1).embed
    got = study.read_case(case, embed)
    assert got["value"] >= 0.5  # £14 is no fare the context gives
    assert "£14" in got["worst"]
    c, e = got["c"], got["e"]
    others = embed(["The harbour café opens at seven in the morning."])
    assert float(c @ e) > float(c @ np.asarray(others[0]))


def test_embedding_blocks_are_projected_by_the_own_sets_alone(study: ModuleType) -> None:
    rng = np.random.default_rng(7)
    n, dim = 40, 384
    tags = np.array(["own:calibration/hallucination.jsonl"] * 24 + ["blind40"] * 16)

    def unit(k: int) -> np.ndarray:
        v = rng.normal(size=(k, dim))
        return v / np.linalg.norm(v, axis=1, keepdims=True)

    data = {"tag": tags, "named": rng.random((n, 16)), "logit": rng.normal(size=n),
            "c": unit(n), "e": unit(n), "q": unit(n), "a": unit(n),
            "has": np.ones(n, dtype=bool), "label": np.zeros(n)}
    basis = study.pair_basis(data)
    pair = study.blocks(data, "named+pair", basis)
    qa = study.blocks(data, "named+qa", None)
    assert pair.shape == qa.shape == (n, 17 + 1 + study.COMPONENTS)
    # An outside author's vectors move no case's projection: the components are the own sets'.
    moved = {**data, "c": np.vstack([data["c"][:24], unit(16)]),
             "q": np.vstack([data["q"][:24], unit(16)])}
    assert np.allclose(study.blocks(moved, "named+pair", study.pair_basis(moved))[:24], pair[:24])
    assert np.allclose(study.blocks(moved, "named+qa", None)[:24], qa[:24])
