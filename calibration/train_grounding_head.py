"""Study a HALLUCINATION veto head learned across outside authors.

    python calibration/train_grounding_head.py --report [--cache scratch/grounding.npz]

HALLUCINATION's answer is its features head (``heads.json``, ``_head.py``) over the rules'
named evidence (``hallucination_evidence`` in ``_grounding.py``). Rule rounds tuned on some
authors carry little to new ones: on the six newest blind authors one flag in five was a
false alarm. This script asks whether a second head, asked only where the answer fires,
can tell which flags stand, learned across authors as the topic and pairs heads were.

Cases: every opened outside author's hallucination set (``tests/local/hallucination_
{blind,dev}NN*.jsonl`` up to ``OPENED``; never blind12 or blind29, which are still measures,
nor anything newer), one author each, and the own sets (``calibration/hallucination.jsonl``,
``calibration/holdout/hallucination.jsonl``, the HALLUCINATION rows of
``tests/local/run_blind2.jsonl``), always trained on. Each case is read once by the judge's
own code; kept per case: the shipped answer's value, the features head's inputs (capped as
it caps them) and its log-odds, and the claim the rules weigh worst with the evidence
sentence closest to it in meaning (MiniLM vectors ``c`` and ``e``, as ``_score_claim``
embeds them), from which the pair block ``[c, e, c*e, |c-e|]`` and the cosine ``c . e``.
``--kinds named+qa`` adds the request's and the answer's vectors ``q`` and ``a`` (embedded
anew, kept by ``--qa-cache FILE``), as ``q . a`` and the block ``[q, a, q*a, |q-a|]``.
``--cache FILE`` keeps them (an ``.npz``) so the study reruns without the model.

``--report``: **leave-one-author-out**. Each outside author's cases are scored by a veto
fitted without them (on the other authors' and the own sets' fired cases); the veto's cut
is chosen by an inner leave-one-author-out on the training authors: the score below which
at most ``share`` of their out-of-author flagged failures lie. Pooled false positives ·
recall of the shipped answer and of the answer with each veto, on every author and on the
sets no rule round has read (``UNREAD``). ``--recall SHARE ...`` studies the other shape, a
head asked where the answer does not fire. Neither helped (round r54ha in
docs/local-judge.md: every veto trades false alarms for catches about one for one, and the
recall head fires on no case the answer misses), so nothing is shipped from here.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from train_heads import cut_above, fit, labelled_cases  # calibration/, beside this script

from semloop.case import RunCase
from semloop.judge.local import _grounding
from semloop.judge.local._head import heads

ROOT = Path(__file__).resolve().parents[1]
OPENED = 71
NEVER = frozenset({"blind12", "blind29"})
# Opened sets no rule round has read (rounds read up to blind47b, r54hr blind52 and 52b, r57h
# blind54 ... blind56b, r60h blind57 ... blind59b, r63h blind60 ... blind62b, r66h blind63 ...
# blind65b, r69h and r69hn blind66 ... blind68b; blind48 ... blind50b were opened after rounds
# r51*, which changed no HALLUCINATION rule but the calendar's).
UNREAD = frozenset(f"blind{n}{s}" for n in range(48, 72) for s in ("", "b")) - {
    f"blind{n}{s}" for n in (52, *range(54, 69)) for s in ("", "b")
}
_TAG = re.compile(r"hallucination_((?:blind|dev)(\d+)[a-z]?)\.jsonl$")
OWN = ("calibration/hallucination.jsonl", "calibration/holdout/hallucination.jsonl",
       "tests/local/run_blind2.jsonl")
COMPONENTS = 16
THRESHOLD = 0.5


def sources(root: Path = ROOT) -> list[tuple[str, Path]]:
    """(author tag, file): the own sets (tag ``own:<file>``) then every opened outside
    author's set, in sorted order."""
    out = [(f"own:{p}", root / p) for p in OWN]
    for path in sorted((root / "tests" / "local").glob("hallucination_*.jsonl")):
        m = _TAG.search(path.name)
        if m and m.group(1) not in NEVER and int(m.group(2)) <= OPENED:
            out.append((m.group(1), path))
    return out


def read_case(case: RunCase, embed: Callable[[Sequence[str]], Any]) -> dict[str, Any]:
    """The shipped answer on ``case`` with what the rules read: the head's features, the
    worst claim's vector and its closest evidence sentence's (None where no head answers)."""
    from evaluator_accuracy import answer_of  # bench/, put on the path by main

    seen: dict[str, Any] = {}
    original = _grounding.hallucination_evidence

    def evidence(case_: RunCase, embed_: Any, read: Any = None) -> Any:
        calls: list[Any] = []

        def capture(texts: Sequence[str]) -> Any:
            got = embed_(texts)
            calls.append(got)
            return got

        ev = original(case_, capture, read)
        claims = read[1] if read else []
        if claims and calls and len(calls[0]) > len(claims):
            vectors = np.asarray(calls[0], dtype=np.float64)
            worst = max(range(len(claims)), key=lambda i: claims[i].logit)
            ev_vecs = vectors[len(claims):]
            c = vectors[worst]
            j = int(np.argmax(ev_vecs @ c))
            seen.update(c=c, e=ev_vecs[j], worst=claims[worst].text)
        seen["features"] = dict(ev.features)
        return ev

    _grounding.hallucination_evidence = evidence
    try:
        got = answer_of("hallucination", case, embed)
    finally:
        _grounding.hallucination_evidence = original
    seen["value"] = None if got is None else float(got.value)
    seen["reasoning"] = "" if got is None else got.reasoning
    return seen


def read_all(cache: Path | None) -> dict[str, Any]:
    if cache and cache.is_file():
        data = np.load(cache, allow_pickle=False)
        return {k: data[k] for k in data.files}
    from semloop.judge.local._model import Embedder  # only when no cache holds the cases

    embedder = Embedder()
    model = heads()["hallucination"]
    names = list(model.features)
    rows: dict[str, list[Any]] = {k: [] for k in ("tag", "id", "label", "value", "named",
                                                   "logit", "c", "e", "has", "reasoning")}
    for tag, path in sources():
        for case in labelled_cases(path, "hallucination"):
            got = read_case(case, embedder.embed)
            feats = got.get("features", {})
            rows["tag"].append(tag)
            rows["id"].append(case.id)
            rows["label"].append(float(bool(case.label)))
            rows["value"].append(np.nan if got["value"] is None else got["value"])
            rows["named"].append([min(float(feats.get(n, 0.0)), model.cap) for n in names])
            rows["logit"].append(model.logit(feats) if feats else np.nan)
            has = "c" in got
            rows["has"].append(has)
            rows["c"].append(got["c"] if has else np.zeros(384))
            rows["e"].append(got["e"] if has else np.zeros(384))
            rows["reasoning"].append(got["reasoning"])
        print(f"read {tag}", file=sys.stderr)
    data = {k: np.asarray(v) for k, v in rows.items()}
    data["names"] = np.asarray(names)
    if cache:
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(cache, **data)
    return data


def read_request_answer(data: dict[str, Any], cache: Path | None) -> dict[str, Any]:
    """Adds the MiniLM vectors of each case's request ``q`` and answer ``a`` (the only texts
    this embeds anew), in the order ``read_all`` read the cases."""
    if cache and cache.is_file():
        got = np.load(cache, allow_pickle=False)
        return {**data, "q": got["q"], "a": got["a"]}
    from semloop.judge.local._claims import answer_text
    from semloop.judge.local._model import Embedder  # only when no cache holds them

    embed = Embedder().embed
    q, a = [], []
    for _, path in sources():
        for case in labelled_cases(path, "hallucination"):
            vectors = np.asarray(embed([case.input or " ", answer_text(case.output) or " "]))
            q.append(vectors[0])
            a.append(vectors[1])
    if len(q) != len(data["label"]):
        raise ValueError("the request/answer cache does not match the cases")
    if cache:
        np.savez_compressed(cache, q=np.asarray(q), a=np.asarray(a))
    return {**data, "q": np.asarray(q), "a": np.asarray(a)}


def blocks(data: dict[str, Any], kind: str, basis: tuple[np.ndarray, np.ndarray] | None
           ) -> np.ndarray:
    """The veto's raw features of every case, for candidate ``kind``."""
    named = np.column_stack([data["named"], data["logit"]])
    if kind == "named+qa":
        q, a = data["q"], data["a"]
        own = np.array([str(t).startswith("own:") for t in data["tag"]])
        block = np.hstack([q, a, q * a, np.abs(q - a)])
        centre = block[own].mean(axis=0)
        _, _, vt = np.linalg.svd(block[own] - centre, full_matrices=False)
        return np.hstack([named, np.sum(q * a, axis=1, keepdims=True),
                          (block - centre) @ vt[:COMPONENTS].T])
    c, e = data["c"], data["e"]
    cos = np.sum(c * e, axis=1, keepdims=True)
    if kind == "named":
        return named
    if kind == "named+cos":
        return np.hstack([named, cos])
    assert basis is not None
    centre, vt = basis
    pair = (np.hstack([c, e, c * e, np.abs(c - e)]) - centre) @ vt.T
    if kind == "pair":
        return np.hstack([cos, pair])
    return np.hstack([named, cos, pair])


def pair_basis(data: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """Principal components of the pair block, fitted on the own sets' cases alone (no
    outside author, no label)."""
    own = np.array([str(t).startswith("own:") for t in data["tag"]]) & data["has"]
    x = np.hstack([data["c"], data["e"], data["c"] * data["e"], np.abs(data["c"] - data["e"])])[own]
    centre = x.mean(axis=0)
    _, _, vt = np.linalg.svd(x - centre, full_matrices=False)
    return centre, vt[:COMPONENTS]


def _fit(x: np.ndarray, y: np.ndarray, penalty: float) -> tuple[np.ndarray, float]:
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    w = fit((x - mean) / scale, y, penalty)
    weights = w[:-1] / scale
    return weights, float(w[-1] - mean @ weights)


def out_of_author(x: np.ndarray, y: np.ndarray, tags: np.ndarray, train: np.ndarray,
                  penalty: float) -> np.ndarray:
    """Each outside author's training rows scored by a veto fitted without that author."""
    scores = np.full(len(y), np.nan)
    for tag in sorted({str(t) for t in tags[train] if not str(t).startswith("own:")}):
        held = tags == tag
        w, b = _fit(x[train & ~held], y[train & ~held], penalty)
        scores[train & held] = x[train & held] @ w + b
    return scores


def veto_cut(scores: np.ndarray, y: np.ndarray, share: float) -> float:
    """The score below which at most ``share`` of the (out-of-author) flagged failures lie."""
    pos = np.sort(scores[(y == 1) & ~np.isnan(scores)])
    k = int(share * len(pos))
    return float(pos[k]) - 1e-6 if k < len(pos) else float("inf")


def _frame(data: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          np.ndarray, Callable[[np.ndarray, np.ndarray], str]]:
    """What both reports read: each case's author tag, label, whether the shipped answer
    fires, whether it is an outside author's and an unread set's, and a cell printer
    (false positives · recall of ``hit`` on ``rows``)."""
    tags = data["tag"].astype(str)
    y = data["label"]
    fired = np.nan_to_num(data["value"], nan=-1.0) >= THRESHOLD
    outside = np.array([not t.startswith("own:") for t in tags])
    unread = np.array([t in UNREAD for t in tags])

    def cell(hit: np.ndarray, rows: np.ndarray) -> str:
        neg, pos = rows & (y == 0), rows & (y == 1)
        return f"{int((hit & neg).sum())}/{int(neg.sum())} · {int((hit & pos).sum())}/{int(pos.sum())}"

    return tags, y, fired, outside, unread, cell


def report(data: dict[str, Any], kinds: Sequence[str], penalties: Sequence[float],
           shares: Sequence[float]) -> None:
    tags, y, fired, outside, unread, cell = _frame(data)
    asked = fired & data["has"]
    basis = pair_basis(data)
    print(f"shipped answer: outside {cell(fired, outside)} (unread {cell(fired, unread)}); "
          f"asked (fired, a claim read) {int(asked.sum())}")
    # Which check weighs most in each flag (the features head's largest contribution), for
    # the false alarms and the catches of the unread sets and of every outside author.
    model = heads()["hallucination"]
    names = [str(n) for n in data["names"]]
    top = np.array([names[int(np.argmax(np.asarray(model.weights) * row))] for row in data["named"]],
                   dtype=object)
    top[~data["has"]] = "(no claim read)"
    for rows, what in ((unread, "unread"), (outside, "outside")):
        for label, kind in ((0, "false alarms"), (1, "catches")):
            sel = fired & rows & (y == label)
            counts = sorted(((int((top[sel] == n).sum()), n) for n in set(top[sel])), reverse=True)
            print(f"{what} {kind} by the check weighing most: "
                  + ", ".join(f"{n} {k}" for k, n in counts))
    for kind in kinds:
        x = blocks(data, kind, basis)
        for penalty in penalties:
            scores = {s: np.full(len(y), np.inf) for s in shares}
            raw = np.full(len(y), np.nan)
            for tag in sorted(set(tags[outside])):
                held = tags == tag
                train = asked & ~held
                inner = out_of_author(x, y, tags, train, penalty)
                w, b = _fit(x[train], y[train], penalty)
                raw[held & asked] = x[held & asked] @ w + b
                for s in shares:
                    cut = veto_cut(inner, y, s)
                    scores[s][held & asked] = x[held & asked] @ w + b - cut
            judged = asked & outside
            pos, neg = raw[judged & (y == 1)], raw[judged & (y == 0)]
            auc = float(np.mean(pos[:, None] > neg[None, :]) + 0.5 * np.mean(pos[:, None] == neg[None, :]))
            print(f"{kind}, L2 {penalty:g}: leave-one-author-out AUC over the flags {auc:.3f}")
            for s in shares:
                kept = fired & ~(asked & (scores[s] < 0))
                print(f"| {kind} | {penalty:g} | {s:.0%} | {cell(kept, outside)} | "
                      f"{cell(kept, unread)} |", flush=True)


def recall_report(data: dict[str, Any], kinds: Sequence[str], penalties: Sequence[float],
                  shares: Sequence[float]) -> None:
    """The other shape: a head over every case with a claim read, asked where the answer
    does not fire, its cut above all but ``share`` of the training authors' out-of-author
    negatives (inner leave-one-author-out)."""
    tags, y, fired, outside, unread, cell = _frame(data)
    has = data["has"].astype(bool)
    basis = pair_basis(data)
    for kind in kinds:
        x = blocks(data, kind, basis)
        for penalty in penalties:
            scores = {s: np.full(len(y), -np.inf) for s in shares}
            for tag in sorted(set(tags[outside])):
                held = tags == tag
                train = has & ~held
                inner = out_of_author(x, y, tags, train, penalty)
                w, b = _fit(x[train], y[train], penalty)
                for s in shares:
                    cut = cut_above(inner[(y == 0) & ~np.isnan(inner)], s)
                    scores[s][held & has] = x[held & has] @ w + b - cut
            for s in shares:
                head = scores[s] >= 0
                print(f"| recall {kind} | {penalty:g} | {s:.1%} | head alone {cell(head, outside)} | "
                      f"answer or head {cell(fired | head, outside)} | unread {cell(fired | head, unread)} |",
                      flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--report", action="store_true")
    ap.add_argument("--cache", type=Path)
    ap.add_argument("--qa-cache", type=Path, help="where the request and answer vectors are kept")
    ap.add_argument("--recall", nargs="*", type=float, default=[],
                    help="also study a recall head at these shares of negatives above its cut")
    ap.add_argument("--kinds", nargs="*", default=["named", "named+cos", "pair", "named+pair"])
    ap.add_argument("--penalties", nargs="*", type=float, default=[1.0, 10.0, 100.0])
    ap.add_argument("--shares", nargs="*", type=float, default=[0.0, 0.01, 0.02, 0.05])
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT / "bench"))
    data = read_all(args.cache)
    if "named+qa" in args.kinds:
        data = read_request_answer(data, args.qa_cache)
    print(f"{len(data['label'])} cases", file=sys.stderr)
    if args.report:
        report(data, args.kinds, args.penalties, args.shares)
    if args.recall:
        recall_report(data, args.kinds, args.penalties, args.recall)
    return 0


if __name__ == "__main__":
    sys.exit(main())
