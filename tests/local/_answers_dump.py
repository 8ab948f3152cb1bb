"""Prints every answer of the local judge on a dataset, exactly (float.hex), as one JSON line.

Run as a subprocess by test_determinism.py: two processes must print the same bytes.
"""

from __future__ import annotations

import json
import sys

from semloop.judge.local import LocalBackend
from semloop.semantic import SemanticLoopDetection
from semloop.trace import Trace


def main(path: str) -> None:
    backend = LocalBackend()
    detector = SemanticLoopDetection(backend)
    out = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            result = detector.measure(Trace.from_dict(row))
            out[row["trace_id"]] = {
                "score": float(result.score).hex(),
                "answers": {
                    qid: [
                        float(a.value).hex(),
                        sorted((str(k), float(p).hex()) for k, p in a.probabilities.items()),
                    ]
                    for qid, a in sorted(result.answers.items())
                },
            }
    sys.stdout.write(json.dumps(out, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
