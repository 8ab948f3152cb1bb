"""How fast each importer converts its fixture, in events per second (half a second each).

    .venv/bin/python bench/import_formats.py

Informational: there is no speed target for imports; OTLP/HTTP ingest uses the same
converter, so its figure bounds ``POST /v1/traces`` on one core.
"""

from __future__ import annotations

import time
from pathlib import Path

from semloop.ingest.formats import FORMATS, detect_format

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "formats" / "fixtures"


def main() -> None:
    print(f"{'fixture':28s} {'format':14s} {'events/s':>10s} {'MB/s':>6s}")
    for path in sorted(FIXTURES.iterdir()):
        data = path.read_bytes()
        convert = FORMATS[detect_format(path)]
        rounds = events = 0
        start = time.perf_counter()
        while time.perf_counter() - start < 0.5:
            result = convert(data, source=path.name, clock=1.0)
            events += sum(len(run.events) for run in result.runs)
            rounds += 1
        took = time.perf_counter() - start
        print(f"{path.name:28s} {result.format:14s} {events / took:10.0f} "
              f"{len(data) * rounds / took / 1e6:6.1f}")


if __name__ == "__main__":
    main()
