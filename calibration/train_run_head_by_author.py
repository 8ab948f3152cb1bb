"""Study (and train) a run-level head learned across outside authors.

    python calibration/train_run_head_by_author.py --evaluator task_understanding_failure \
        --report [--cache scratch/tuf.npz]
    python calibration/train_run_head_by_author.py --evaluator task_completion \
        --report [--cache scratch/tc.npz]

The rules of TASK_UNDERSTANDING_FAILURE (``_understanding.py``) and TASK_COMPLETION
(``_completion.py``), each weighed by its features head in ``heads.json``, are tuned case by
case and carry badly to a new author. This script measures, **leave-one-author-out**, heads
that read the answer's meaning against the request's instead: a logistic regression over
sentence embeddings, as OFF_TOPIC_DRIFT's topic head does (``calibration/train_topic_head.py``).
Round r54tu wrote it for TASK_UNDERSTANDING_FAILURE (as ``train_understanding_head.py``);
round r54tc made it take the evaluator (``--evaluator``, ``SPECS``).

Data: every opened outside author's set of the evaluator (``calibration/holdout/
<evaluator>_{blind,dev}NN*.jsonl`` up to ``OPENED``; never ``blind29`` or a newer set, which
are still blind), one author each, held out in turn; the project's own sets (``calibration/
<evaluator>.jsonl``, its holdout twin, the evaluator's rows of ``tests/local/run_blind2.jsonl``)
are always trained on. Each case is read by the judge's own code: the rules' named evidence
(``task_understanding_evidence``, ``task_completion_evidence``, as the evaluator's answer
reads the case) and the vectors the rules already embed (``_Run``: the request, then the
answer's sentences).

Candidates (``CANDIDATES``):

- ``pair``: ``[q, a, q*a, |q-a|]`` for the request's vector ``q`` and the normalised mean
  ``a`` of the answer's sentences' vectors;
- ``pair+named``: the same and the rules' named evidence (the features head's features);
- ``pair+near+named``: also the sentence nearest the request ``s``: ``[q*s, |q-s|]`` and the
  highest, mean and lowest cosine of a sentence to the request;
- ``ans``: the answer's normalised mean vector ``a`` alone (its style: a promise, a generic
  reply), reduced as the pair block is;
- ``cover`` (TASK_COMPLETION): each part of the request (``_parts``, as the rules split it)
  against the answer's sentences, the highest cosine of each; their lowest and mean, the
  share of parts under 0.5, and how many parts (log);
- ``tools``: the calls' outcome, how many calls (log), the share that failed, whether the
  last one failed.

Embedding blocks are reduced to ``COMPONENTS`` principal components fitted on the own sets
alone (no outside author's case, no label), as the conversation trainer does; then scaled
and fitted by ``train_heads.fit`` (Newton, L2). The cut is chosen by an **inner
leave-one-author-out**: every other author's cases are scored by heads fitted without them,
and the cut leaves ``MAX_FP`` of those out-of-author negatives above it (round r51cl).

The report gives false positives · recall per set and pooled, and on the sets no TUF rule
round read (``UNREAD``), for the head alone, the shipped answer (rules' head at 0.5), the
shipped answer or the head, and the rules at 0.8 or the head.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from train_heads import cut_above, fit, labelled_cases  # calibration/, beside this script

from semloop.case import RunCase
from semloop.judge.local._head import heads
from semloop.judge.local._model import Embedder

ROOT = Path(__file__).resolve().parents[1]
OPENED = 71  # blind69 ... blind71b are opened; blind72 and newer are still blind
NEVER = frozenset({"blind29"})
COMPONENTS = 16
PENALTIES = (100.0, 30.0, 10.0)
MAX_FP = 0.01
RULES_STRICT = 0.8
DIM = 384
# How many leading columns of each block are an embedding (reduced by principal
# components); the rest are scalars, taken as they are.
EMBEDDED = {"pair": 4 * DIM, "near": 2 * DIM, "ans": DIM, "named": 0, "cover": 0, "tools": 0}


@dataclass(frozen=True)
class Spec:
    """One evaluator's study: its sets, and from which number on no rule round read them."""

    kind: str
    unread_from: int
    candidates: tuple[str, ...]

    @property
    def own(self) -> tuple[str, ...]:
        return (f"calibration/{self.kind}.jsonl", f"calibration/holdout/{self.kind}.jsonl",
                "tests/local/run_blind2.jsonl")


SPECS = {
    # Round r45tu read blind45 ... blind47b; r51rv changed no verdict.
    "task_understanding_failure": Spec("task_understanding_failure", 48,
                                       ("pair", "pair+named", "pair+near+named")),
    # Round r45tc read blind42b, blind44b, blind45, blind47; no TC rule round since.
    "task_completion": Spec("task_completion", 48,
                            ("ans", "pair", "cover", "named", "ans+named", "cover+named",
                             "pair+cover+named", "ans+cover+tools+named")),
}
KIND = "task_understanding_failure"  # the default evaluator (round r54tu's study)
OWN = SPECS[KIND].own


def sources(root: Path = ROOT, kind: str = KIND) -> list[tuple[str, Path]]:
    """(author tag, file) of every opened outside author's set of ``kind``, in sorted order."""
    tag = re.compile(kind + r"_((?:blind|dev)(\d+)[a-z]?)\.jsonl$")
    out = []
    for path in sorted((root / "calibration" / "holdout").glob(f"{kind}_*.jsonl")):
        m = tag.search(path.name)
        if m and m.group(1) not in NEVER and int(m.group(2)) <= OPENED:
            out.append((m.group(1), path))
    return out


def _evidence(kind: str, case: RunCase, embed: Embedder) -> tuple[RunCase, Any, float]:
    """The case as the evaluator's answer reads it, its named evidence (None for no answer)
    and the rules' log-odds."""
    head = heads()[kind]
    if kind == "task_completion":
        from semloop.judge.local._completion import (
            _EMPTY,
            _closed_reply,
            _unfilled,
            _unqualified,
            task_completion_evidence,
        )
        if not case.output.strip():
            return case, None, _EMPTY
        case = _unfilled(_unqualified(case))
        case = _closed_reply(case, embed.embed) or case
        ev = task_completion_evidence(case, embed.embed)
        return case, ev, head.logit(ev.features)
    from semloop.judge.local._understanding import task_understanding_evidence
    if not case.output.strip() or not case.input.strip():
        return case, None, -20.0
    ev = task_understanding_evidence(case, embed.embed)
    return case, ev, head.logit(ev.features)


def coverage(parts: np.ndarray, sentences: np.ndarray) -> np.ndarray:
    """Each request part's highest cosine to an answer sentence: their lowest, their mean,
    the share of parts under 0.5 and log(1 + how many parts)."""
    best = (parts @ sentences.T).max(axis=1)
    return np.array([best.min(), best.mean(), float((best < 0.5).mean()), np.log1p(len(best))])


def tool_outcome(case: RunCase) -> np.ndarray:
    """log(1 + calls), the share of calls that failed, whether the last call failed."""
    from semloop.judge.local._task import _failed
    calls = case.tools_called
    failed = [_failed(c) for c in calls]
    return np.array([np.log1p(len(calls)), sum(failed) / max(len(calls), 1),
                     float(bool(failed) and failed[-1])])


def read(embed: Embedder, kind: str = KIND) -> dict[str, np.ndarray]:
    """Every case's blocks, named evidence, label, group and the rules' log-odds."""
    from semloop.judge.local._claims import head as words_head
    from semloop.judge.local._task import _EMBED_WORDS, _parts, _Run

    head = heads()[kind]
    names = list(head.features)
    blocks: dict[str, list[Any]] = {b: [] for b in EMBEDDED}
    labels, groups, rules, ids = [], [], [], []
    files = [(f"own:{p}", ROOT / p) for p in SPECS[kind].own] + sources(kind=kind)
    for tag, path in files:
        for original in labelled_cases(path, kind):
            case, ev, logit = _evidence(kind, original, embed)
            ev_row = [0.0] * len(names) if ev is None else \
                [min(ev.features.get(n, 0.0), head.cap) for n in names]
            run = _Run.of(case, embed.embed)
            if run.sentences and case.input.strip():
                run.ensure()
                v = np.asarray(run.vectors, dtype=np.float64)
                q, s = v[0], v[1:]
                a = s.mean(axis=0)
                a /= max(float(np.linalg.norm(a)), 1e-12)
                cos = s @ q
                best = s[int(np.argmax(cos))]
                blocks["pair"].append(np.concatenate([q, a, q * a, np.abs(q - a)]))
                blocks["near"].append(np.concatenate([q * best, np.abs(q - best),
                                                      [cos.max(), cos.mean(), cos.min()]]))
                blocks["ans"].append(a)
                parts = _parts(case.input) or [case.input]
                pv = np.asarray(embed.embed([words_head(t, _EMBED_WORDS) for t in parts]), dtype=np.float64)
                blocks["cover"].append(coverage(pv, s))
            else:
                blocks["pair"].append(np.full(4 * DIM, np.nan))
                blocks["near"].append(np.full(2 * DIM + 3, np.nan))
                blocks["ans"].append(np.full(DIM, np.nan))
                blocks["cover"].append(np.full(4, np.nan))
            blocks["tools"].append(tool_outcome(case))
            blocks["named"].append(ev_row)
            labels.append(float(bool(original.label)))
            groups.append(tag)
            rules.append(logit)
            ids.append(original.id)
    out = {b: np.array(rows, dtype=np.float64) for b, rows in blocks.items()}
    out.update({"y": np.array(labels), "groups": np.array(groups), "rules": np.array(rules),
                "ids": np.array(ids), "names": np.array(names)})
    return out


class Reader:
    """The projection of one candidate: which blocks, PCA fitted on the own sets alone."""

    def __init__(self, data: dict[str, np.ndarray], blocks: tuple[str, ...],
                 components: int = COMPONENTS) -> None:
        own = np.char.startswith(data["groups"].astype(str), "own:")
        parts = []
        for b in blocks:
            x = data[b]
            width = EMBEDDED[b]
            if not width:
                parts.append(x)
                continue
            emb, scal = x[:, :width], x[:, width:]
            fit_rows = own & ~np.isnan(emb).any(axis=1)
            centre = emb[fit_rows].mean(axis=0)
            _, _, vt = np.linalg.svd(emb[fit_rows] - centre, full_matrices=False)
            parts.append((emb - centre) @ vt[:components].T)
            if scal.shape[1]:
                parts.append(scal)
        self.x = np.hstack(parts)
        self.read = ~np.isnan(self.x).any(axis=1)


def train(x: np.ndarray, y: np.ndarray, penalty: float) -> tuple[np.ndarray, float]:
    """Weights on the reduced features and a bias, no cut."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-12
    w = fit((x - mean) / scale, y, penalty)
    weights = w[:-1] / scale
    return weights, float(w[-1] - mean @ weights)


def held_out_scores(x: np.ndarray, y: np.ndarray, groups: np.ndarray, read_: np.ndarray,
                    train_rows: np.ndarray, penalty: float) -> np.ndarray:
    """Each author's (within ``train_rows``) scores by a head fitted without them; own rows
    are always trained on and get NaN."""
    out = np.full(len(y), np.nan)
    for tag in sorted(set(groups[train_rows & read_].tolist())):
        if tag.startswith("own:"):
            continue
        held = groups == tag
        rows = train_rows & read_ & ~held
        w, b = train(x[rows], y[rows], penalty)
        pick = held & read_ & train_rows
        out[pick] = x[pick] @ w + b
    return out


def outer(x: np.ndarray, y: np.ndarray, groups: np.ndarray, read_: np.ndarray,
          penalty: float, shares: tuple[float, ...]) -> list[np.ndarray]:
    """Leave-one-author-out fires at each share, the cut by an inner leave-one-author-out."""
    fired = [np.zeros(len(y), dtype=bool) for _ in shares]
    authors = sorted({g for g in groups.tolist() if not g.startswith("own:")})
    for tag in authors:
        held = groups == tag
        train_rows = ~held
        inner = held_out_scores(x, y, groups, read_, train_rows, penalty)
        neg = inner[(y == 0) & ~np.isnan(inner)]
        rows = train_rows & read_
        w, b = train(x[rows], y[rows], penalty)
        pick = held & read_
        for out, share in zip(fired, shares):
            out[pick] = (x[pick] @ w + b - cut_above(neg, share)) >= 0
    return fired


def _cell(hit: np.ndarray, rows: np.ndarray, y: np.ndarray) -> str:
    neg, pos = rows & (y == 0), rows & (y == 1)
    return f"{int((hit & neg).sum())}/{int(neg.sum())} · {int((hit & pos).sum())}/{int(pos.sum())}"


def _number(tag: str) -> int:
    return int(re.sub(r"\D", "", tag))


def report(data: dict[str, np.ndarray], candidates: list[tuple[str, ...]], penalties: tuple[float, ...],
           shares: tuple[float, ...], per_set: bool, components: int = COMPONENTS,
           unread_from: int = SPECS[KIND].unread_from) -> None:
    y, groups, rules = data["y"], data["groups"], data["rules"]
    authors = np.array([not g.startswith("own:") for g in groups.tolist()])
    unread = np.array([a and g.startswith("blind") and _number(g) >= unread_from
                       for a, g in zip(authors, groups.tolist())])
    shipped = rules >= 0
    strict = rules >= np.log(RULES_STRICT / (1 - RULES_STRICT))
    print(f"{int(authors.sum())} author cases ({int(y[authors].sum())} positive) from "
          f"{len(set(groups[authors].tolist()))} authors; unread sets: {int(unread.sum())} cases",
          flush=True)
    print(f"shipped (rules at 0.5): {_cell(shipped, authors, y)} ({_cell(shipped, unread, y)})")
    print(f"rules at 0.8: {_cell(strict, authors, y)} ({_cell(strict, unread, y)})")
    print("| candidate | L2 | share | head alone | shipped or head | rules 0.8 or head |")
    print("|---|---|---|---|---|---|")
    for blocks in candidates:
        reader = Reader(data, blocks, components)
        for penalty in penalties:
            for share, head in zip(shares, outer(reader.x, y, groups, reader.read, penalty, shares)):
                cols = [head, shipped | head, strict | head]
                print(f"| {'+'.join(blocks)} | {penalty:g} | {share:g} | " + " | ".join(
                    f"{_cell(c, authors, y)} ({_cell(c, unread, y)})" for c in cols) + " |",
                    flush=True)
                if per_set:
                    for tag in sorted(set(groups[authors].tolist()), key=lambda t: (_number(t), t)):
                        rows = groups == tag
                        print(f"    {tag}: shipped {_cell(shipped, rows, y)}; head {_cell(head, rows, y)};"
                              f" shipped|head {_cell(shipped | head, rows, y)}")
                    for i in np.flatnonzero(authors & head & ~shipped):
                        print(f"    new fire: {data['ids'][i]} label={int(y[i])}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--evaluator", choices=sorted(SPECS), default=KIND)
    ap.add_argument("--report", action="store_true", help="measure leave-one-author-out")
    ap.add_argument("--cache", type=Path, help="features read once to this .npz, then reused")
    ap.add_argument("--candidate", action="append", help="blocks joined by +, e.g. pair+named")
    ap.add_argument("--penalty", type=float, action="append")
    ap.add_argument("--share", type=float, action="append")
    ap.add_argument("--per-set", action="store_true")
    ap.add_argument("--components", type=int, default=COMPONENTS,
                    help=f"principal components of each embedding block ({COMPONENTS})")
    args = ap.parse_args()
    spec = SPECS[args.evaluator]
    if args.cache and args.cache.exists():
        data = dict(np.load(args.cache, allow_pickle=False))
    else:
        data = read(Embedder(), spec.kind)
        if args.cache:
            args.cache.parent.mkdir(parents=True, exist_ok=True)
            np.savez(args.cache, **data)
    candidates = [tuple(c.split("+")) for c in (args.candidate or spec.candidates)]
    if args.report:
        report(data, candidates, tuple(args.penalty or PENALTIES), tuple(args.share or (MAX_FP,)),
               args.per_set, args.components, spec.unread_from)
    return 0


if __name__ == "__main__":
    sys.exit(main())
