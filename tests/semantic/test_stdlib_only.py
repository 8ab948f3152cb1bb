"""The judged detector, the judge registry and the bench core are core library: they
import with the standard library alone (matplotlib is needed only for --plot)."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import json, sys
before = set(sys.modules)
import semloop.semantic, semloop.judge.registry, semloop.benchmark
from semloop.benchmark import default_dataset, make_system, run_system
rows, _ = default_dataset()
run_system(make_system("oracle"), rows[:12])
loaded = {name.split(".")[0] for name in set(sys.modules) - before}
print(json.dumps(sorted(loaded - set(sys.stdlib_module_names) - {"semloop"})))
"""


def test_semantic_and_bench_core_import_only_the_standard_library() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                         check=True)
    assert json.loads(out.stdout) == []


EVALUATE_PROBE = """
import json, sys
before = set(sys.modules)
import semloop.case, semloop.evaluate
from semloop.case import RunCase
from semloop.evaluate import HALLUCINATION, calibrate, parse_case_lines, EvaluatorsConfig
from semloop.judge import MockBackend
result = HALLUCINATION(RunCase(id="a", input="q", output="x"), MockBackend({"hallucination": 0.8}))
calibrate([result], {"a": True}, evaluator="HALLUCINATION", judge="mock", threshold=0.5)
parse_case_lines(['{"id": "b", "turns": [{"role": "user", "content": "hi"}]}'])
EvaluatorsConfig.from_dict({"HALLUCINATION": {"threshold": 0.7}})
loaded = {name.split(".")[0] for name in set(sys.modules) - before}
print(json.dumps(sorted(loaded - set(sys.stdlib_module_names) - {"semloop"})))
"""


def test_evaluators_and_cases_import_only_the_standard_library() -> None:
    out = subprocess.run([sys.executable, "-c", EVALUATE_PROBE], capture_output=True,
                         text=True, check=True)
    assert json.loads(out.stdout) == []
