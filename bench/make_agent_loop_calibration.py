"""Write calibration/agent_loop.jsonl: AGENT_LOOP's labelled cases, from the loop datasets.

Every row of bench/dataset.jsonl (60) and bench/wild.jsonl (84) becomes a trace case
``{"id", "label", "family", "source", "goal", "root"}`` that ``semloop evaluate
--evaluator agent_loop`` and ``semloop calibrate agent_loop`` read; ``label`` is the row's
``loop``. Both sets were visible while the embedded judge's loop rules were tuned, so a
report on this file measures fit, not generalisation. The held-out sets are
bench/holdout.jsonl and bench/holdout2.jsonl, written by engineers who never saw the
judge; ``--from`` converts them the same way, to calibration/agent_loop_holdout.jsonl
(not into calibration/holdout/, which holds the other evaluators' blind sets):

    python bench/make_agent_loop_calibration.py
    python bench/make_agent_loop_calibration.py --from bench/holdout.jsonl \
        bench/holdout2.jsonl --out calibration/agent_loop_holdout.jsonl
    semloop calibrate agent_loop --dataset calibration/agent_loop_holdout.jsonl \
        --out-dir docs/calibration/holdout

Deterministic: rows in file order, keys in a fixed order.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TUNED = ("bench/dataset.jsonl", "bench/wild.jsonl")


def cases(sources: tuple[str, ...]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for source in sources:
        with open(ROOT / source, encoding="utf-8") as fh:
            for line in fh:
                if not line.strip():
                    continue
                row = json.loads(line)
                out.append({"id": row["trace_id"], "label": bool(row["loop"]),
                            "family": row["family"], "source": source, "goal": row["goal"],
                            "root": row["root"]})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--from", dest="sources", nargs="+", default=list(TUNED),
                        help="bench datasets to convert, relative to the checkout")
    parser.add_argument("--out", type=Path, default=ROOT / "calibration" / "agent_loop.jsonl",
                        help="where to write the cases")
    args = parser.parse_args()
    out: Path = args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = cases(tuple(args.sources))
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                   encoding="utf-8")
    positives = sum(bool(r["label"]) for r in rows)
    print(f"wrote {out}: {len(rows)} cases, {positives} loops")


if __name__ == "__main__":
    main()
