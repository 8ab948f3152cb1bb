"""Write the bench dataset: 10 families x ``--per`` traces, seeded and byte-reproducible.

    python bench/make_dataset.py                   # writes bench/dataset.jsonl
    python bench/make_dataset.py --per 2 --seed 7 --out /tmp/small.jsonl

The families and their text live in :mod:`semloop.benchmark.families`, so ``semloop bench``
can rebuild the same rows in memory when no dataset file is at hand.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from semloop.benchmark.families import DEFAULT_PER, DEFAULT_SEED, FAMILIES, dump_rows, make_rows

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per", type=int, default=DEFAULT_PER, help="traces per family")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="random seed")
    parser.add_argument("--out", type=Path, default=HERE / "dataset.jsonl", help="output file")
    args = parser.parse_args(argv)
    rows = make_rows(per=args.per, seed=args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    # newline="" keeps "\n" on every platform: the file is compared byte for byte.
    with open(args.out, "w", encoding="utf-8", newline="") as fh:
        fh.write(dump_rows(rows))
    print(f"wrote {len(rows)} traces across {len(FAMILIES)} families to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
