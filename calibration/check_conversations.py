"""Check the conversation calibration and held-out sets.

    python calibration/check_conversations.py [--min-cal 120] [--min-holdout 60]

Checks: JSON per line, schema and types, roles (user first, alternating),
4-10 turns, non-empty content, id form <evaluator>-<nnn> and uniqueness,
no turn text (over 25 characters) shared by two cases of one file,
label agrees with the family prefix, >= 8 domains, label balance, and that no
turn text is shared between calibration and held-out sets.  Exit code 1 on any
error.  It runs no evaluator.
"""
import argparse
import collections
import json
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
EVALUATORS = ("user_frustration", "confusion_loop", "sycophancy_signal")
KEYS = {"id", "label", "turns", "family", "domain"}
FAMILY = re.compile(r"^(positive|negative|hard_negative):[a-z0-9_\-]+$")


def check_file(path, ev, minimum, errors):
    rows = []
    if not path.exists():
        errors.append(f"{path}: missing")
        return rows
    for ln, line in enumerate(path.read_text().splitlines(), 1):
        where = f"{path.relative_to(HERE.parent)}:{ln}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            errors.append(f"{where}: bad JSON ({e})")
            continue
        if set(row) != KEYS:
            errors.append(f"{where}: keys {sorted(row)} != {sorted(KEYS)}")
            continue
        if not re.fullmatch(rf"{ev}-\d{{3}}", str(row["id"])):
            errors.append(f"{where}: id {row['id']!r} not {ev}-<nnn>")
        if not isinstance(row["label"], bool):
            errors.append(f"{where}: label not bool")
        m = FAMILY.match(str(row["family"]))
        if not m:
            errors.append(f"{where}: family {row['family']!r}")
        elif (m.group(1) == "positive") != row["label"]:
            errors.append(f"{where}: label {row['label']} disagrees with family {row['family']}")
        if not isinstance(row["domain"], str) or not row["domain"]:
            errors.append(f"{where}: domain")
        turns = row["turns"]
        if not isinstance(turns, list) or not 4 <= len(turns) <= 10:
            errors.append(f"{where}: {len(turns) if isinstance(turns, list) else '?'} turns, want 4-10")
            continue
        for i, t in enumerate(turns):
            want = "user" if i % 2 == 0 else "assistant"
            if not isinstance(t, dict) or set(t) != {"role", "content"}:
                errors.append(f"{where}: turn {i} shape")
            elif t["role"] != want:
                errors.append(f"{where}: turn {i} role {t['role']!r}, want {want!r}")
            elif not isinstance(t["content"], str) or not t["content"].strip():
                errors.append(f"{where}: turn {i} empty")
        rows.append(row)
    ids = collections.Counter(r["id"] for r in rows)
    for i, n in ids.items():
        if n > 1:
            errors.append(f"{path.name}: id {i} repeated {n}x")
    if len(rows) < minimum:
        errors.append(f"{path.name}: {len(rows)} cases < {minimum}")
    seen = {}
    for r in rows:
        for t in {t["content"].strip().lower() for t in r["turns"] if isinstance(t.get("content"), str)}:
            if len(t) > 25 and t in seen and seen[t] != r["id"]:
                errors.append(f"{path.name}: {r['id']} repeats a turn of {seen[t]}: {t[:50]!r}")
            seen.setdefault(t, r["id"])
    domains = {r["domain"] for r in rows}
    if len(domains) < 8:
        errors.append(f"{path.name}: {len(domains)} domains < 8")
    return rows


def summary(name, rows):
    kinds = collections.Counter(r["family"].split(":")[0] for r in rows)
    dom = collections.Counter(r["domain"] for r in rows)
    print(f"{name}: {len(rows)} cases  positive={kinds['positive']} negative={kinds['negative']} "
          f"hard_negative={kinds['hard_negative']}  domains={len(dom)}")
    print("    " + ", ".join(f"{d}={n}" for d, n in sorted(dom.items())))
    pos = kinds["positive"] / max(1, len(rows))
    if not 0.3 <= pos <= 0.55:
        print(f"    warning: positive share {pos:.0%}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--min-cal", type=int, default=120)
    ap.add_argument("--min-holdout", type=int, default=60)
    ap.add_argument("--skip-missing", action="store_true", help="only check files that exist")
    a = ap.parse_args()
    errors = []
    for ev in EVALUATORS:
        texts = {}
        for sub, minimum in (("", a.min_cal), ("holdout", a.min_holdout)):
            path = HERE / sub / f"{ev}.jsonl" if sub else HERE / f"{ev}.jsonl"
            if a.skip_missing and not path.exists():
                continue
            rows = check_file(path, ev, minimum, errors)
            summary(f"{sub + '/' if sub else ''}{ev}", rows)
            texts[sub] = {t["content"].strip().lower() for r in rows for t in r["turns"]
                          if isinstance(t, dict) and isinstance(t.get("content"), str)}
        if "" in texts and "holdout" in texts:
            shared = texts[""] & texts["holdout"]
            shared = {s for s in shared if len(s) > 25}
            for s in sorted(shared)[:5]:
                errors.append(f"{ev}: turn shared by calibration and holdout: {s[:60]!r}")
    for e in errors:
        print("ERROR", e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
