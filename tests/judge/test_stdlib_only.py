"""The judge backends are core library: they must import with the standard library alone."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import json, sys
before = set(sys.modules)
import semloop.judge.jev, semloop.judge.llm, semloop.judge.mock, semloop.judge._http
loaded = {name.split(".")[0] for name in set(sys.modules) - before}
print(json.dumps(sorted(loaded - set(sys.stdlib_module_names) - {"semloop"})))
"""


def test_backends_import_only_the_standard_library() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                         check=True)
    assert json.loads(out.stdout) == []
