"""bench/real_run_evaluators.py: the evaluator sets stay out of the loop corpus's table and each
can be measured alone; the second blind set names runs no other set names, in formats the
bench reads."""

from __future__ import annotations

import json
import runpy
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNS = ROOT / "bench" / "real_runs"


@pytest.fixture(scope="module")
def bench() -> dict[str, Any]:
    return runpy.run_path(str(ROOT / "bench" / "real_run_evaluators.py"))  # not run as __main__


def _ids(path: Path) -> list[str]:
    return [json.loads(line)["id"] for line in path.read_text().splitlines() if line.strip()]


def test_every_evaluator_set_stays_out_of_the_default_table(bench: dict[str, Any]) -> None:
    blind = {RUNS / "evaluator_blind2.jsonl", RUNS / "evaluator_blind3.jsonl"}
    assert blind <= set(bench["EVALUATOR_SETS"])
    sets = (*bench["EVALUATOR_SETS"], *bench["CODING_SETS"])
    default = {lab["id"] for lab in bench["chosen_labels"](bench["LABELS"], [])}
    for path in sets:
        assert default.isdisjoint(_ids(path)), path.name
    # the loop corpus keeps every run no set names
    named = {i for path in sets for i in _ids(path)}
    assert default == set(_ids(bench["LABELS"])) - named


def test_a_set_given_as_labels_is_measured_whole(bench: dict[str, Any]) -> None:
    blind2 = RUNS / "evaluator_blind2.jsonl"
    chosen = bench["chosen_labels"](blind2, [])
    assert [lab["id"] for lab in chosen] == _ids(blind2)
    only = bench["chosen_labels"](blind2, ["bogoliubon/tau2-bench"])
    assert only and {lab["source"] for lab in only} == {"bogoliubon/tau2-bench"}


def test_a_file_of_one_run_of_a_set_measures_that_run(bench: dict[str, Any], tmp_path: Path) -> None:
    # Only the loop corpus leaves the sets' runs out; a file naming one of them is measured.
    one = tmp_path / "one.jsonl"
    one.write_text((RUNS / "evaluator_tune.jsonl").read_text().splitlines()[0] + "\n")
    assert [lab["id"] for lab in bench["chosen_labels"](one, [])] == _ids(one)


def test_the_second_blind_set_repeats_no_run_of_another_set() -> None:
    rows = [json.loads(line) for line in (RUNS / "evaluator_blind2.jsonl").read_text().splitlines()]
    assert 100 <= len(rows) <= 300
    assert all(set(r) == {"id", "source", "commit", "path", "index", "format", "split"} for r in rows)
    assert {r["split"] for r in rows} == {"evaluator-blind2"}
    assert {r["format"] for r in rows} <= {"tau-bench", "tau2-task-results"}
    assert all(len(r["commit"]) == 40 and isinstance(r["index"], int) for r in rows)
    assert len({r["id"] for r in rows}) == len(rows)
    runs = {(r["source"], r["path"], r["index"]) for r in rows}
    assert len(runs) == len(rows)
    for other in ("labels.jsonl", "evaluator_tune.jsonl", "evaluator_blind.jsonl"):
        named = [json.loads(line) for line in (RUNS / other).read_text().splitlines() if line.strip()]
        assert {e["id"] for e in named}.isdisjoint(r["id"] for r in rows), other
        assert {(e["source"], e["path"], e["index"]) for e in named}.isdisjoint(runs), other
        # no round before this set used a file of it; loop round 15 labels other runs of its
        # files, the runs of tuning set 3 (bench/make_tune3.py keeps this set's runs out)
        earlier = [e for e in named if e.get("split") not in ("tune15", "heldout15")]
        assert {(e["source"], e["path"]) for e in earlier}.isdisjoint(
            (r["source"], r["path"]) for r in rows), other


def test_forks_that_keep_their_upstreams_name_are_told_apart(bench: dict[str, Any]) -> None:
    part = bench["part"]
    assert part({"source": "sierra-research/tau2-bench", "format": "tau-bench"}) == "tau2-bench"
    assert part({"source": "oscaralvaro/tau2-bench", "format": "tau-bench"}) == "tau2-bench (fork)"
    assert part({"source": "bogoliubon/tau2-bench", "format": "tau2-task-results"}) == (
        "tau2-bench (bogoliubon)")
    assert part({"source": "avaljotsingh/tau-bench", "format": "tau-bench"}) == "tau-bench (avaljotsingh)"
    assert part({"source": "jmoreno-labelbox/apollo-tau-bench", "format": "tau-bench"}) == (
        "apollo-tau-bench")
    assert part({"source": "sierra-research/tau2-bench", "format": "tau2-judge-viewer"}) == (
        "tau2-bench (judge viewer)")


def test_the_coding_sets_split_one_submission_in_two() -> None:
    halves = [[json.loads(line) for line in (RUNS / f"coding_{half}.jsonl").read_text().splitlines()]
              for half in ("tune", "blind")]
    assert [len(rows) for rows in halves] == [75, 75]
    assert {r["split"] for r in halves[0]} == {"coding-tune"} and {r["split"] for r in halves[1]} == {"coding-blind"}
    assert all(set(r) == {"id", "source", "commit", "path", "index", "format", "split"}
               for rows in halves for r in rows)
    assert not {r["id"] for r in halves[0]} & {r["id"] for r in halves[1]}
    # one submission folder, whose SWE-bench report gives each run its outcome
    assert {r["path"].rsplit("/", 2)[0] for rows in halves for r in rows} == {
        "swebench_results/20251118_gemini-3-pro-74pct/trajs"}
