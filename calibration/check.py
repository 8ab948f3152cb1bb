"""Check the hand-written calibration and held-out sets.

Usage: python calibration/check.py [FILE ...]
(holdout/<name>_blindNN.jsonl files are later blind sets: at least 16 cases, no domain
or near-duplicate input shared with the calibration or held-out set.)
With no arguments it checks the run-level sets (NAMES) in calibration/ and
calibration/holdout/; check_conversations.py checks the conversation sets.

Checks: every line parses; the schema (id, label, input, output, context,
tools_called, optional steps, family, domain); the id prefix matches the file;
label agrees with the family prefix; no duplicate ids (held-out ids start at
501 so they never clash with calibration ids); at least 8 domains;
minimum counts; and near-duplicate inputs (within a file, and between a
held-out file and its calibration file). Prints counts per family and domain.
Exit status 1 on any error.
"""
import difflib
import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAMES = ["hallucination", "task_completion", "task_understanding_failure", "off_topic_drift"]
MIN_CASES = {"calibration": 120, "holdout": 60, "blind": 16}
KINDS = ("positive", "negative", "hard_negative")
NEAR_DUP = 0.85


def norm(text):
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def check_case(row, name, where, errors):
    def err(msg):
        errors.append(f"{where}: {msg}")

    required = {"id": str, "label": bool, "input": str, "output": str, "context": list,
                "tools_called": list, "family": str, "domain": str}
    for key, typ in required.items():
        if key not in row:
            err(f"missing field {key!r}")
        elif not isinstance(row[key], typ):
            err(f"field {key!r} should be {typ.__name__}")
    extra = set(row) - set(required) - {"steps"}
    if extra:
        err(f"unknown fields {sorted(extra)}")
    if errors and errors[-1].startswith(where):
        return
    if not re.fullmatch(rf"{name}-\d{{3}}", row["id"]):
        err(f"id {row['id']!r} should look like {name}-NNN")
    if not row["input"].strip() or not row["output"].strip():
        err("empty input or output")
    if not all(isinstance(c, str) and c.strip() for c in row["context"]):
        err("context must be a list of non-empty strings")
    for i, tc in enumerate(row["tools_called"]):
        if not isinstance(tc, dict) or set(tc) != {"name", "args", "output", "success"}:
            err(f"tools_called[{i}] must have exactly name, args, output, success")
            continue
        if not isinstance(tc["name"], str) or not isinstance(tc["args"], dict) \
                or not isinstance(tc["output"], str) or not isinstance(tc["success"], bool):
            err(f"tools_called[{i}] has a field of the wrong type")
    if "steps" in row and not (isinstance(row["steps"], list) and all(isinstance(s, str) for s in row["steps"])):
        err("steps must be a list of strings")
    kind, _, sub = row["family"].partition(":")
    if kind not in KINDS or not sub:
        err(f"family {row['family']!r} should be positive|negative|hard_negative:<subtype>")
    elif (kind == "positive") != row["label"]:
        err(f"label {row['label']} disagrees with family {row['family']!r}")


def load(path, errors):
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append((n, json.loads(line)))
        except json.JSONDecodeError as e:
            errors.append(f"{path.name}:{n}: does not parse: {e}")
    return rows


def near_dups(a_rows, b_rows, same):
    found = []
    for i, (na, a) in enumerate(a_rows):
        ta = norm(a["input"])
        for j, (nb, b) in enumerate(b_rows):
            if same and j <= i:
                continue
            tb = norm(b["input"])
            # The quick ratios bound ratio() from above: a pair under either is no match.
            m = difflib.SequenceMatcher(None, ta, tb)
            if (m.real_quick_ratio() >= NEAR_DUP and m.quick_ratio() >= NEAR_DUP
                    and m.ratio() >= NEAR_DUP):
                found.append((a["id"], b["id"]))
    return found


def check_file(path):
    errors = []
    # holdout/<name>_blindNN.jsonl: a later blind set, checked against both earlier sets.
    name, _, blind = path.stem.partition("_blind")
    split = "blind" if blind else "holdout" if path.parent.name == "holdout" else "calibration"
    if name not in NAMES:
        errors.append(f"{path}: unknown evaluator file name")
    rows = load(path, errors)
    ids = Counter()
    for n, row in rows:
        if not isinstance(row, dict):
            errors.append(f"{path.name}:{n}: not an object")
            continue
        check_case(row, name, f"{split}/{path.name}:{n}", errors)
        ids[row.get("id")] += 1
    for i, k in ids.items():
        if k > 1:
            errors.append(f"{path.name}: duplicate id {i}")
    rows = [(n, r) for n, r in rows if isinstance(r, dict) and "input" in r]
    kinds = Counter(r["family"].split(":")[0] for _, r in rows)
    domains = Counter(r["domain"] for _, r in rows)
    if len(rows) < MIN_CASES[split]:
        errors.append(f"{path.name}: {len(rows)} cases, need at least {MIN_CASES[split]}")
    if len(domains) < 8:
        errors.append(f"{path.name}: {len(domains)} domains, need at least 8")
    for a, b in near_dups(rows, rows, True):
        errors.append(f"{path.name}: near-duplicate inputs {a} / {b}")
    earlier = {"calibration": [], "holdout": [("calibration", HERE / f"{name}.jsonl")],
               "blind": [("calibration", HERE / f"{name}.jsonl"),
                         ("held-out", HERE / "holdout" / f"{name}.jsonl")]}[split]
    for what, other in earlier:
        if other.exists():
            cal_rows = [(n, r) for n, r in load(other, []) if isinstance(r, dict) and "input" in r]
            for a, b in near_dups(rows, cal_rows, False):
                errors.append(f"{path.name}: {a} near-duplicates {what} {b}")
            clash = set(ids) & {r.get("id") for _, r in cal_rows}
            if clash:
                errors.append(f"{path.name}: ids also used in the {what} set: {sorted(clash)[:5]}")
            shared = set(domains) & {r["domain"] for _, r in cal_rows}
            if shared:
                errors.append(f"{path.name}: shares domains with the {what} set: {sorted(shared)}")
    print(f"{split}/{path.name}: {len(rows)} cases | "
          + " ".join(f"{k}={kinds.get(k, 0)}" for k in KINDS)
          + f" | {len(domains)} domains: " + ", ".join(f"{d}={c}" for d, c in sorted(domains.items())))
    return errors


def main(argv):
    paths = [Path(p) for p in argv] or [
        folder / f"{name}.jsonl" for folder in (HERE, HERE / "holdout") for name in NAMES]
    errors = []
    for p in paths:
        errors += check_file(p)
    for e in errors:
        print("ERROR", e)
    print("ok" if not errors else f"{len(errors)} error(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
