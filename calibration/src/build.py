"""Turn the hand-written case literals under calibration/src/ into JSONL.

Each batch file (src/<evaluator>_<n>.py, src/holdout/<evaluator>_<n>.py)
defines CASES, a list of c(label, family, domain, *turns) entries written by
hand; turns alternate user/assistant starting with the user.  This script only
assigns ids and writes the JSONL; it generates no text.

    python calibration/src/build.py
"""
import importlib.util
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent
EVALUATORS = ("user_frustration", "confusion_loop", "sycophancy_signal")
START = {"": 1, "holdout": 501}  # holdout ids never collide with calibration ids


def c(label, family, domain, *turns):
    roles = ("user", "assistant")
    return {
        "label": label,
        "turns": [{"role": roles[i % 2], "content": t} for i, t in enumerate(turns)],
        "family": family,
        "domain": domain,
    }


def load(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    mod.c = c
    src = path.read_text()
    exec(compile(src, str(path), "exec"), mod.__dict__)
    return mod.CASES


def main():
    for sub in ("", "holdout"):
        srcdir = HERE / sub if sub else HERE
        outdir = OUT / sub if sub else OUT
        for ev in EVALUATORS:
            files = sorted(srcdir.glob(f"{ev}_*.py"), key=lambda p: int(p.stem.rsplit("_", 1)[1]))
            if not files:
                continue
            cases = [case for f in files for case in load(f)]
            n = START[sub]
            with open(outdir / f"{ev}.jsonl", "w") as fh:
                for case in cases:
                    row = {"id": f"{ev}-{n:03d}", **case}
                    fh.write(json.dumps(row, ensure_ascii=False) + "\n")
                    n += 1
            print(f"{outdir.name}/{ev}.jsonl: {len(cases)} cases")


if __name__ == "__main__":
    main()
