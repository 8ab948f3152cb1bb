"""From evidence to calibrated answers: the local judge's decision core.

Every question reduces to one pairwise judgement, *does step j repeat the attempt made at
step k?*, expressed as a log-odds ``L(k, j)``:

- both steps called tools: the calls decide (same tool, same core arguments, same output
  means a repeat; a changed output or a new target means new work), and the reasoning
  text shifts the odds a little;
- only reasoning text: what is left after removing the text every step shares (templates,
  preambles) is compared by embedding, and new concrete entities count against a repeat.

``progress_i_j`` is ``1 - P(repeat)`` against the *most similar* of all steps up to i, so
a cycle of any length (A-B-C-A) still reads as no progress; ``revisit_i_j`` is the pair
alone. Log-odds are bounded, so weak or conflicting evidence lands near 0.5: the undecided
band is honest. Pure: embeddings come in through the ``embed`` callable.
"""

from __future__ import annotations

import math
import re
import shlex
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from itertools import pairwise
from typing import Any

from ..._exceptions import JudgeAnswerError
from ..._features import (
    Call,
    StepView,
    action_kind,
    adds_to_plan,
    announces_plan,
    call_restores_state,
    clean_text,
    content_tokens,
    entities,
    is_transient_error,
    numbers,
    opaque_ids,
    outputs_same,
    prints_nothing,
    reports_outcome,
    run_writes,
    same_but_ids,
    same_but_settings,
    same_identifier,
    shared_ngrams,
    strip_shared,
    tokens,
    without_volatile,
)
from .._types import Answer, Question

__all__ = ["Embed", "LocalJudgement", "answer_questions"]

#: ``texts -> unit vectors`` (rows indexable, dot product = cosine).
Embed = Callable[[Sequence[str]], Any]

_PAIR_ID = re.compile(r"^(progress|revisit)_(\d+)_(\d+)$")
_TOOL_PREFIX = "tool_repeat_"
_HISTORY = 64  # earlier steps each step is compared with; bounds the work on huge traces

# Log-odds scale. Values are round on purpose: they were set from the meaning of each
# piece of evidence and checked on three datasets (seed, bench, wild), not fitted to any.
_SAME_CALL_MAX = 3.5  # same tool, same core arguments, same output
_DIFF_CALL = -3.0  # a different target or a different tool
_NEW_OUTPUT = -2.0  # the same call returned something new: a retry that learned something
_EMPTY_BONUS = 0.5  # the same empty/error result again
_TEXT_WEIGHT = 0.35  # how much reasoning text moves a decision the tool calls already made
# Tool log-odds beyond which the text (weighted, at most about +-1) cannot move an answer
# across a decision boundary: at or above 3 it stays "severe"; at or below -2 it stays < 0.3.
_DECISIVE_HIGH = 3.0
_DECISIVE_LOW = -2.0
# Reworded free-text arguments that got the same empty/error result: undecided at cosine 0.3,
# the same action from 0.45 (paraphrased search queries measure 0.3-0.9 pairwise, their best
# earlier match 0.4-0.9; unrelated questions 0.05-0.33). Without that shared result the bar
# is 0.575 and 0.8: a new wording that got an answer may be a real refinement.
_LENIENT_COS_LOW, _LENIENT_COS_SPAN = 0.15, 0.3
# The first reworded retry after an empty/error result: at most undecided (p = 0.60).
_FIRST_REWORDING_CAP = 0.4
_MIXED_STEPS = -2.0  # one step called tools, the other only reasoned: different kinds of work
# Words of a step embedded: the intent is stated early, and time grows with tokens
# (32 -> 20 words: -29% tokens, same answers on every dataset and pattern trace).
_EMBED_WORDS = 20
_TEXT_IDENTICAL = 3.0
_TEXT_TEMPLATE_ONLY = 2.5
_TEMPLATE_NEW_TARGET = -2.5
_SLOT_WORDS = 3  # at most this many own words next to a shared template: a filled slot
_COS_CENTRE = 0.62  # masked MiniLM cosines: same-topic different steps reach ~0.6
_FAR_TEXT = 0.75  # per step of distance, for a text-only match further back than step i
_MAX_FAR_TEXT = 2.0
_COS_SLOPE = 7.0
# Restatements (reasoning-only steps close to every earlier reasoning-only step): every
# pair at least -2.5 (masked cosine about 0.26), on average at least -1.75 (about 0.37).
_RESTATE_MIN = -2.5
_RESTATE_MEAN = -1.75
_RESTATE_STEP = 0.75
_RESTATE_MAX = 2.0
# The first two reasoning-only steps of a trace, compared by embedding alone: at most
# undecided (p = 0.60) unless nearly identical.
_LONE_PAIR_CAP = 0.4
# Plans said again: a reasoning-only step that reports nothing (no new entity, no result
# words) in a run of such steps with no tool call between them, close to at least two of
# them (pair log-odds >= _PLAN_CLOSE) and to one of them at least _PLAN_BEST (masked cosine
# about 0.41). Its best pair (at least 0) gains _PLAN_BASE, more when it announces a plan
# in so many words, and _PLAN_STEP per further close earlier version: the fourth version
# of one plan reads p(progress) <= 0.12.
_PLAN_CLOSE = -2.5
_PLAN_BEST = -1.5
_PLAN_BASE = 0.75
_PLAN_WORDING = 0.5
_PLAN_STEP = 0.75
_PLAN_MAX = 3.0
_NEAR_DUPLICATE_COS = 0.85
# Two texts naming the same concrete facts, at least this many, and nothing else: compared
# whole (up to _FACTS_WORDS words), facts included.
_SAME_FACTS = 3
_FACTS_WORDS = 24
_NEW_ENTITY = 1.2
_LOST_ENTITY = 0.4
_MAX_NOVELTY = 2.5
_P_FLOOR, _P_CEIL = 0.02, 0.98
# A repeated action after the world changed (an edit, a write, a cancellation that went
# through) or in answer to a new request is a new attempt: at most p(repeat) = 0.18.
_AFTER_CHANGE = -1.5
# The same error naming a value both calls passed (``flight HAT030 not available``): the
# retry changed other parts and kept what failed, so it is the same failed approach with
# cosmetic changes (action similarity 0.9: a repeat, a little below an identical call).
_KEPT_CULPRIT = 0.9
_ERROR_MESSAGE_CHARS = 300
# A call that names no target (no argument at all: a reply the harness refused, where
# nothing ran) says only that the step did nothing. It repeats the same empty call right
# before it (a lap of refusals), never one from before a step whose call did act: that
# work moved the run on, and the new slip is a new attempt (capped at _AFTER_CHANGE).
# A reply to new user words is driven by the user (a refusal restated to a customer who
# keeps asking, three times in tests/local) until the same text comes word for word a
# fourth time: then it is a fixed reply sent whatever the user writes.
_SAID_AS_REPLY = 3
# Consecutive steps that only re-read (same look, same answer, nothing changed since) that
# make a rotation: as many as a stuck stretch (loop_stretch_steps). Its targetless reads are
# repeats even when a targeted re-read sits between them.
_ROTATION = 3
# A one-word id: letters then a number (P1006, HAT030, SKU-1180).
_ID_WORD = re.compile(r"([A-Za-z]+-?)(\d+)")
# The first identical retry of a call that failed for a passing reason (a 503, a timeout,
# a rate limit): what a careful agent
# does once; p(repeat) = 0.38, below the undecided band. The second retry is a repeat.
_FIRST_RETRY_CAP = -0.5


def _entity_token(token: str, found: frozenset[str]) -> bool:
    # A word token is part of an entity when it is one, or looks like one (digits, dots,
    # slashes, underscores): the token and entity patterns cut "web-07.eu-west" differently.
    return token in found or any(c.isdigit() or c in "._/" for c in token)


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def _prob(logit: float) -> float:
    # Rounded so that the last bits of a float dot product can never reach an answer.
    return round(min(_P_CEIL, max(_P_FLOOR, _sigmoid(logit))), 4)


def _noul(p: float) -> Answer:
    return Answer(
        type="noul",
        value=p,
        probability=max(p, 1.0 - p),
        probabilities={True: p, False: round(1.0 - p, 4)},
    )


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ("" if value is None else str(value))


def _views(state: Any) -> list[StepView]:
    if not isinstance(state, Mapping) or not isinstance(state.get("steps"), Sequence):
        raise JudgeAnswerError("the local judge needs a state object with a 'steps' list")
    views: list[StepView] = []
    for pos, raw in enumerate(state["steps"]):
        if not isinstance(raw, Mapping):
            raise JudgeAnswerError(f"state.steps[{pos}] is not an object")
        name, inp, out = _text(raw.get("name")), _text(raw.get("input")), _text(raw.get("output"))
        if str(raw.get("type", "")) == "tool":
            # A tool span as a step: the call is the step, there is no reasoning text.
            views.append(StepView(pos, "", [Call.of(name, inp, out)]))
            continue
        prompt = " ".join(clean_text(inp).lower().split()) if out else ""
        calls = []
        for t_pos, tool in enumerate(raw.get("tools") or []):
            if not isinstance(tool, Mapping):
                raise JudgeAnswerError(f"state.steps[{pos}].tools[{t_pos}] is not an object")
            calls.append(
                Call.of(
                    _text(tool.get("name")), _text(tool.get("input")), _text(tool.get("output"))
                )
            )
        views.append(StepView(pos, clean_text(out or inp).strip(), calls, prompt=prompt))
    return views


class LocalJudgement:
    """The pairwise evidence for one state, computed once and shared by every question."""

    def __init__(self, state: Any, embed: Embed) -> None:
        self.views = _views(state)
        self._embed = embed
        self._cos: dict[tuple[str, str], float] = {}
        self._vectors: dict[str, Any] = {}
        self._embed_texts: dict[int, str] = {}
        self._own: dict[int, list[str]] = {}
        self._call_logits: dict[tuple[int, int, bool], float] = {}
        raw_tool_calls = state.get("tool_calls") if isinstance(state, Mapping) else None
        self._tool_calls: Mapping[str, Any] = (
            raw_tool_calls if isinstance(raw_tool_calls, Mapping) else {}
        )
        goal = _text(state.get("goal")) if isinstance(state, Mapping) else ""
        self._goal = goal.lower()
        self._first_given: dict[str, int] = {}
        self._prepare_text()
        self._said_before = self._count_said_before()
        self._core = self._core_keys([c for v in self.views for c in v.calls])
        self._step_of = {id(c): v.index for v in self.views for c in v.calls}
        self._agent_ids = self._ids_the_agent_writes()
        self._data_numbers = self._numbers_from_data(state)
        self._nothing_rank = self._rank_same_nothing()
        self._by_input: dict[tuple[str, str], list[Call]] = {}  # the calls of each input
        for call in (c for v in self.views for c in v.calls):
            self._by_input.setdefault((call.name, call.raw), []).append(call)
        self._for_user: dict[tuple[int, int], bool] = {}
        self._user_new: dict[int, frozenset[str]] = {}
        self._retry_rank = self._rank_identical_failures()
        self._changed_before = self._last_changes()
        self._new_request = self._new_requests()
        self._acted_before = self._last_targeted_calls()
        self._rotation = self._find_rotations()
        self._logits: dict[tuple[int, int], float] = {}
        self._text_only: set[tuple[int, int]] = set()
        self._fresh: dict[int, bool] = {}  # step -> its calls repeat nothing before it
        self._compute_pairs()
        self._restatements = self._find_restatements(goal)

    # ---------------------------------------------------------------- text
    def _prepare_text(self) -> None:
        with_text = [v for v in self.views if v.text]
        for v in with_text:
            v.toks = tokens(v.text)
        shared = shared_ngrams([v.toks for v in with_text])
        for v in with_text:
            v.residual = strip_shared(v.toks, shared)
            v.text_entities = entities(without_volatile(v.text))
            v.entities = v.text_entities | frozenset(e for c in v.calls for e in c.entities)
        for v in self.views:
            if not v.text:
                v.entities = frozenset(e for c in v.calls for e in c.entities)

    def _count_said_before(self) -> list[int]:
        """Per step: how many earlier steps said its text word for word."""
        seen: Counter[str] = Counter()
        out: list[int] = []
        for v in self.views:
            key = " ".join(v.text.lower().split()) if v.text and not v.calls else ""
            out.append(seen[key] if key else 0)
            if key:
                seen[key] += 1
        return out

    def _own_words(self, v: StepView) -> list[str]:
        # Per step, once: every pair of a long run asks for it (quadratic work otherwise).
        words = self._own.get(v.index)
        if words is None:
            words = self._own[v.index] = _own_words(v)
        return words

    def _embed_text(self, v: StepView) -> str:
        text = self._embed_texts.get(v.index)
        if text is None:
            text = self._embed_texts[v.index] = self._choose_embed_text(v)
        return text

    @staticmethod
    def _choose_embed_text(v: StepView) -> str:
        """What the step says in words: its residual (or whole text) without entities.

        Entities are compared exactly (novelty) instead: left in, one shared file name makes
        two unrelated sentences look alike, and two different ones make a repeat look new.
        """
        for toks in (v.residual, v.toks):
            words = [t for t in toks if not _entity_token(t, v.text_entities)]
            if len(content_tokens(words)) >= 3:
                return " ".join(words[:_EMBED_WORDS])
        if len(v.toks) <= _EMBED_WORDS:
            return v.text
        # Mostly entities (a JSON record as the reply): its first words, as above. Whole,
        # it costs a 256-token pass (and pads its batch to that) for no better vector.
        return " ".join(v.toks[:_EMBED_WORDS])

    def _ensure_vectors(self, texts: Sequence[str]) -> None:
        todo = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if not todo:
            return
        vectors = self._embed(todo)
        for text, vec in zip(todo, vectors):
            self._vectors[text] = vec

    def _cosine(self, a: str, b: str) -> float:
        key = (a, b) if a <= b else (b, a)
        if key not in self._cos:
            self._cos[key] = round(float(self._vectors[a] @ self._vectors[b]), 4)
        return self._cos[key]

    def _text_plan(self, vk: StepView, vj: StepView) -> float | tuple[str, str, float] | None:
        """The text evidence when words decide it, else the two texts to embed and the
        entity novelty to subtract; None when a step has no text."""
        if not vk.text or not vj.text:
            return None
        if vk.toks == vj.toks and (vk.toks or vk.text.split() == vj.text.split()):
            return _TEXT_IDENTICAL
        new = len(vj.text_entities - vk.text_entities)
        lost = len(vk.text_entities - vj.text_entities)
        wk, wj = self._own_words(vk), self._own_words(vj)
        if wk == wj:
            # The same words (or only shared template) around the entities: one sentence
            # shape applied to a new target is new work; to the same target, a repeat.
            return _TEMPLATE_NEW_TARGET if new or lost else _TEXT_TEMPLATE_ONLY
        novelty = min(_MAX_NOVELTY, _NEW_ENTITY * new + _LOST_ENTITY * lost)
        if not new and not lost and len(vk.text_entities) >= _SAME_FACTS:
            # The same concrete facts stated again: what they share is then the substance,
            # not a template, so the whole texts are compared, facts included.
            return _facts_text(vk), _facts_text(vj), 0.0
        if _is_slot(vk, vj, wk, wj):
            # The shared template plus a few words of its own on each side: a slot. Compare
            # the slot fillers ("blue kettle" / "steel toaster"), not the whole sentences,
            # which the template would make look alike.
            return " ".join(wk), " ".join(wj), novelty
        return self._embed_text(vk), self._embed_text(vj), novelty

    def _text_logit(
        self, vk: StepView, vj: StepView, *, lexical_only: bool, lone: bool = False
    ) -> float | None:
        """``lone``: the only two reasoning-only steps so far. Two sentences on one subject
        embed alike whether the second restates the first or adds to it, and with nothing
        else to compare there is no telling which: unless nearly identical, the pair stays
        in the undecided band. Restatements are caught when later steps corroborate them
        (``_find_restatements``)."""
        plan = self._text_plan(vk, vj)
        if plan is None or isinstance(plan, float):
            return plan
        if lexical_only:
            return None
        a, b, novelty = plan
        cos = self._cosine(a, b)
        logit = max(-3.5, min(3.0, _COS_SLOPE * (cos - _COS_CENTRE) - novelty))
        if lone and cos < _NEAR_DUPLICATE_COS:
            logit = min(logit, _LONE_PAIR_CAP)
        return logit

    # ---------------------------------------------------------------- calls
    @staticmethod
    def _core_keys(calls: Sequence[Call]) -> dict[str, frozenset[str]]:
        """Per tool, the argument keys passed on every call: the call's target. Keys that
        come and go (flags, limits, sort orders) are options, and changing them is cosmetic."""
        core: dict[str, frozenset[str]] = {}
        for call in calls:
            if call.args is None:
                continue
            keys = frozenset(call.args)
            core[call.name] = core[call.name] & keys if call.name in core else keys
        return core

    def _numbers_from_data(self, state: Any) -> frozenset[str]:
        """Numbers the agent was given (the goal, the user's messages, tool outputs) rather
        than chose itself.

        A number in a call that comes from the data is a target (record 1043 from a list, the
        zip code a customer corrects); one the agent made up (a timeout, a retry count) is a
        setting.
        """
        goal = _text(state.get("goal")) if isinstance(state, Mapping) else ""
        found = set(numbers(goal))
        for v in self.views:
            found |= numbers(v.prompt)
        for call in (c for v in self.views for c in v.calls):
            # An output echoing the call's own numbers ("timeout=30") does not make them data.
            found |= numbers(call.output) - numbers(call.raw)
        return frozenset(found)

    def _free_text_pairs(self, ck: Call, cj: Call) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        if ck.name in _GENERIC_TOOLS and ck.args is None:
            return out  # a command line is compared as a command (_command_similarity)
        for key in self._diff_keys(ck, cj):
            if key in _COMMAND_KEYS:
                continue
            u, v = ck.args.get(key) if ck.args else None, cj.args.get(key) if cj.args else None
            if isinstance(u, str) and isinstance(v, str) and self._is_free_text(u, v):
                out.append((u, v))
        same_raw_tool = ck.args is None and cj.args is None and ck.name == cj.name
        if same_raw_tool and ck.raw != cj.raw and self._is_free_text(ck.raw, cj.raw):
            out.append((ck.raw, cj.raw))
        return out

    def _diff_keys(self, ck: Call, cj: Call) -> list[str]:
        if ck.name != cj.name or ck.args is None or cj.args is None:
            return []
        core = self._target_keys(ck.name, ck.args, cj.args)
        return sorted(k for k in core if ck.args.get(k) != cj.args.get(k))

    def _target_keys(self, name: str, a: Mapping[str, Any], b: Mapping[str, Any],
                     ) -> frozenset[str]:
        """The keys that name the target of two calls of tool ``name``.

        The keys passed on every call of the tool; when no key is (one lookup by id,
        another by phone), the keys these two share; when they share none, every key
        of both: a lookup by another key is another target, never the same one."""
        return (self._core.get(name) or frozenset(a) & frozenset(b)
                or frozenset(a) | frozenset(b))

    @staticmethod
    def _is_free_text(u: str, v: str) -> bool:
        # Wording, not a target: several words on both sides and no concrete entity changed
        # (a clock time is not one).
        return (
            len(content_tokens(tokens(u))) >= 2
            and len(content_tokens(tokens(v))) >= 2
            and entities(without_volatile(u)) == entities(without_volatile(v))
        )

    def _value_similarity(
        self, u: Any, v: Any, *, lenient: bool = False, settings: bool = False
    ) -> float:
        """``lenient``: both calls got the same empty/error result. ``settings``: and another
        part of the target stayed the same, so a changed number or flag is a setting."""
        if isinstance(u, str) and isinstance(v, str):
            if same_identifier(u, v):
                return 1.0  # one id written two ways (case, dashes, padding zeros)
            if self._is_free_text(u, v):
                cos = self._cosine(u, v)
                # Under the same empty/error result, a reworded question is the same question
                # at a lower similarity: getting nothing again is itself evidence of a repeat.
                low, span = (_LENIENT_COS_LOW, _LENIENT_COS_SPAN) if lenient else (0.35, 0.45)
                return max(0.0, min(1.0, (cos - low) / span))
        if settings and isinstance(u, bool) and isinstance(v, bool):
            return 1.0  # a flag flipped
        if settings and _number_like(u) and _number_like(v) and not self._is_data(v):
            return 1.0  # a number the agent chose (timeout, retries) changed
        # A different number, id, path or word is a different target (page 2, record 7).
        return 0.1

    @staticmethod
    def _same_target(u: Any, v: Any) -> bool:
        if u == v:
            return True
        return isinstance(u, str) and isinstance(v, str) and same_identifier(u, v)

    def _is_data(self, value: Any) -> bool:
        return bool(numbers(str(value)) & self._data_numbers)

    def action_similarity(self, ck: Call, cj: Call, *, lenient: bool = False) -> float:
        """1.0 for the same action, 0.0 for a different tool; in between for reworded text.

        ``lenient``: both calls got the same empty or error result, so settings (numbers the
        agent chose while another part of the target stayed put) count as cosmetic too."""
        if ck.name != cj.name:
            return 0.0
        if ck.args is None or cj.args is None:
            if ck.raw == cj.raw:
                return 1.0
            if ck.name in _GENERIC_TOOLS:
                return self._command_similarity(ck.raw, cj.raw, lenient=lenient)
            if lenient and same_but_settings(ck.raw, cj.raw, self._data_numbers):
                return 1.0  # a command line with only its timeout or retry count changed
            return self._value_similarity(ck.raw, cj.raw, lenient=lenient)
        diff = self._diff_keys(ck, cj)
        core = self._target_keys(ck.name, ck.args, cj.args)
        given = {k for k in diff if self._user_gave(ck, cj, cj.args.get(k))}
        # A setting can only change around a target that stayed the same.
        settings = lenient and any(
            k in ck.args and k in cj.args and k not in given
            and self._same_target(ck.args[k], cj.args[k])
            for k in core
        )
        sim = 0.1 if given else 1.0
        for key in diff:
            u, v = ck.args.get(key), cj.args.get(key)
            if lenient and self._counted_up(ck, u, cj, v):
                continue  # ids counted up by the agent, each failing the same way
            if key in _COMMAND_KEYS and isinstance(u, str) and isinstance(v, str):
                sim = min(sim, self._command_similarity(u, v, lenient=lenient))
                continue
            sim = min(sim, self._value_similarity(u, v, lenient=lenient, settings=settings))
        return sim

    def _counted_up(self, ck: Call, u: Any, cj: Call, v: Any) -> bool:
        """``u`` and ``v`` are one id's prefix with numbers at most one per step apart
        (P1006 … P1009 over three steps), and nothing the run was given named either: the
        agent is counting ids up, not scanning targets it was given."""
        if not (isinstance(u, str) and isinstance(v, str)):
            return False
        mu, mv = _ID_WORD.fullmatch(u), _ID_WORD.fullmatch(v)
        sk, sj = self._step_of.get(id(ck)), self._step_of.get(id(cj))
        if mu is None or mv is None or sk is None or sj is None:
            return False
        if mu[1].lower() != mv[1].lower() or abs(int(mu[2]) - int(mv[2])) > max(1, sj - sk):
            return False
        return self._guessed(ck, u) and self._guessed(cj, v)

    def _guessed(self, call: Call, value: str) -> bool:
        """Nothing the run was given before ``call`` named ``value``: not the goal, not the
        user's words, not an output (the agent's own words do not count)."""
        first = self._first_given.get(value)
        if first is None:
            said = _said(value.lower())
            first = len(self.views) + 1
            if said.search(self._goal):
                first = -1
            else:
                for v in self.views:
                    if v.prompt and said.search(v.prompt):
                        first = v.index
                        break
                    if any(said.search(c.output) for c in v.calls):
                        first = v.index + 1
                        break
            self._first_given[value] = first
        step = self._step_of.get(id(call))
        return step is not None and first > step

    def _user_gave(self, ck: Call, cj: Call, value: Any) -> bool:
        """The user's words written after call ``ck`` and up to call ``cj`` carry ``value``
        as ``cj`` passes it: a value the user supplied (an id corrected by a check letter or
        one digit) is a new target, however close it is to the old one."""
        sk, sj = self._step_of.get(id(ck)), self._step_of.get(id(cj))
        if not isinstance(value, str) or not value or sk is None or sj is None:
            return False
        if self._new_request[sj] <= sk:
            return False  # no new words from the user between the two calls
        said = _said(value)
        numbered = any(c.isdigit() for c in value)
        return any(said.search(prompt) or (numbered and any(
            same_identifier(word, value) for word in _ID_WRITTEN.findall(prompt)))
            for prompt in (self.views[m].prompt for m in range(sk + 1, sj + 1)) if prompt)

    def _command_similarity(self, u: str, v: str, *, lenient: bool) -> float:
        """Two command lines (a shell command, code, a query for a generic runner) are one
        action when they differ only in how they are written, or, when both got the same
        failure, in flags and chosen numbers; a different word is a different target
        (another file, another package, another test)."""
        tu, tv = _command_tokens(u), _command_tokens(v)
        if tu == tv:
            return 1.0
        if set(_operands(tu)) == set(_operands(tv)):
            # The same words in another order or with other flags (-n / --namespace): the
            # same command acting on the same things.
            return 1.0 if lenient else 0.9
        if lenient:
            # Only numbers may differ, word for word as the shell reads them (a changed
            # quote inside an argument is another pattern, not a setting).
            if _numbers_masked(tu) == _numbers_masked(tv) and same_but_settings(
                    u, v, self._data_numbers):
                return 1.0
            if _operands(tu) == _operands(tv):
                return 1.0  # only flags changed (-x, --verbose) around the same command
        return 0.1

    def _ids_the_agent_writes(self) -> frozenset[str]:
        """Every opaque id in the agent's own words and call arguments: the ids it uses."""
        return frozenset().union(*(
            opaque_ids(text.lower())
            for v in self.views for text in (v.text, *(c.raw for c in v.calls))))

    def _same_output(self, ck: Call, cj: Call) -> bool:
        if outputs_same(ck.output, cj.output):
            return True
        if not (ck.empty and cj.empty):
            # In a real result a new id can be the news (a new coupon, a new ticket), but
            # only if the agent uses it: the same call minting another certificate, its id
            # never quoted nor passed on, got the same result again.
            return (ck.name == cj.name and ck.raw == cj.raw
                    and same_but_ids(ck.output, cj.output)
                    and not (opaque_ids(cj.output) - opaque_ids(ck.output)) & self._agent_ids)
        return same_but_ids(ck.output, cj.output) or ck.empty_sig == cj.empty_sig

    def call_logit(self, ck: Call, cj: Call, *, outputs_known: bool = True) -> float:
        # Pure in (ck, cj) for one judgement: the step pairs and tool_repeat ask for the
        # same call pairs, and a long run has thousands of them.
        key = (id(ck), id(cj), outputs_known)
        logit = self._call_logits.get(key)
        if logit is None:
            logit = self._call_logits[key] = self._call_logit(ck, cj, outputs_known)
        return logit

    def _call_logit(self, ck: Call, cj: Call, outputs_known: bool) -> float:
        if outputs_known and not self._same_output(ck, cj):
            # New output: the call learned something whatever its arguments. Only an
            # unchanged target is told apart (a retry that got through), without embeddings.
            structurally_same = ck.name == cj.name and (
                ck.raw == cj.raw or (ck.args is not None and not self._diff_keys(ck, cj))
            )
            return _NEW_OUTPUT if structurally_same else _DIFF_CALL
        lenient = outputs_known and ck.empty and cj.empty
        a = self.action_similarity(ck, cj, lenient=lenient)
        if lenient and a < _KEPT_CULPRIT and _kept_culprit(ck, cj):
            a = _KEPT_CULPRIT
        logit = max(_DIFF_CALL, min(_SAME_CALL_MAX, 9.0 * (a - 0.5)))
        if outputs_known and a >= 0.5 and cj.empty:
            logit += _EMPTY_BONUS
        if lenient and self._nothing_rank.get(id(cj), 2) < 2 and self._free_text_pairs(ck, cj):
            # The first rewording after an empty result is what a careful agent does (and
            # a refined search often finds something next); the second is a pattern.
            logit = min(logit, _FIRST_REWORDING_CAP)
        if (lenient and ck.raw == cj.raw and self._retry_rank.get(id(cj), 2) == 1
                and is_transient_error(cj.output)):
            logit = min(logit, _FIRST_RETRY_CAP)  # one retry of a failure, unchanged
        return logit

    def _rank_same_nothing(self) -> dict[int, int]:
        """Per empty/error call (by identity): how many calls of its tool got the same
        nothing before it. A stand-in call (a placeholder argument) tried no real target, so
        it counts only among stand-ins: it is not the first failure of the real call that
        follows it."""
        seen: Counter[tuple[str, str, bool]] = Counter()
        rank: dict[int, int] = {}
        for call in (c for v in self.views for c in v.calls if c.empty):
            key = _nothing_key(call)
            rank[id(call)] = seen[key]
            seen[key] += 1
        self._nothing_total = seen
        return rank

    def _rank_identical_failures(self) -> dict[int, int]:
        """Per empty/error call: how many identical calls (same tool, same input) got the
        same nothing before it."""
        seen: Counter[tuple[str, str, str]] = Counter()
        rank: dict[int, int] = {}
        for call in (c for v in self.views for c in v.calls if c.empty):
            key = (call.name, call.raw, call.empty_sig)
            rank[id(call)] = seen[key]
            seen[key] += 1
        return rank

    def _last_changes(self) -> list[int]:
        """Per step j: the latest earlier step whose calls changed the state (a write that
        went through) with another kind of action than j's own (an edit before a test run,
        a cancellation before a booking); -1 when there is none. The same kind of write
        again (one status posted twice) is no change of world for it."""
        flags = iter(run_writes([c for v in self.views for c in v.calls]))
        kinds = [[(action_kind(c, w), w, c) for c in v.calls for w in (next(flags),)]
                 for v in self.views]
        self._writes = [[(kind, (c.name, c.raw), call_restores_state(c)) for kind, w, c in step
                         if w] for step in kinds]
        self._own_kinds = [frozenset(kind for kind, _, _ in step) for step in kinds]
        # The (tool, input) keys each step writes, for membership tests.
        self._written = [frozenset(key for _, key, _ in step) for step in self._writes]
        self._reruns = self._find_reruns(kinds)
        self._rewrites: dict[int, bool] = {}
        return [self._world(j, self._own_kinds[j])[0] for j in range(len(self.views))]

    def _find_reruns(self, kinds: Sequence[Sequence[tuple[str, bool, Call]]]) -> list[bool]:
        """Per step: did it run again a call made before that reads (a test, a view, a
        lookup), a look that measures whatever changed since? Writes and refused replies
        are not looks."""
        made: set[tuple[str, str]] = set()
        out: list[bool] = []
        for step in kinds:
            out.append(any((c.name, c.raw) in made and not w and not _targetless(c)
                           for _, w, c in step))
            made.update((c.name, c.raw) for _, _, c in step)
        return out

    def _measured_change(self, k: int, j: int) -> bool:
        """Between steps k and j the run changed the state with a write of its own (not a
        repeat of an earlier one) and then ran again a look it had made before.

        Such a lap measured the change, whatever the look returned: restore, re-run the
        tests (the failure was there before), re-apply the fix. A call made again after it
        is a new attempt, even on the world it saw at k. A lap that only re-made writes it
        made before (the same edit, the same restore: a toggle) changed nothing, and one
        that only looked at new places (another range of a file just restored) compared
        nothing."""
        rerun = False
        for m in range(j - 1, k, -1):
            if rerun and self._writes[m] and not self._repeats_before(m):
                return True
            rerun = rerun or self._reruns[m]
        return False

    def _repeats_before(self, m: int) -> bool:
        """Every write of step m was made before on the world it acts on now."""
        found = self._rewrites.get(m)
        if found is None:
            own = self._own_kinds[m]
            here = self._world(m, own)[1]
            found = self._rewrites[m] = all(
                any(key in self._written[q] and self._world(q, own)[1] == here
                    for q in range(max(0, m - _HISTORY), m))
                for _, key, _ in self._writes[m])
        return found

    def _world(self, j: int, own: frozenset[str]) -> tuple[int, Any]:
        """The step of the last write before step j of a kind not in ``own``, and the world
        as a call of those kinds at j sees it: that write and, unless it or that one
        restored a known state, the write before it of another kind (what it was made on).
        A diff written
        again after another edit is a new world for a read of it; the same edit made again
        after the same restore (a toggle) brings back one the call already saw."""
        last: tuple[int, str, tuple[str, str]] | None = None
        for m in range(j - 1, max(-1, j - 1 - _HISTORY), -1):
            for kind, key, restores in reversed(self._writes[m]):
                if last is None and kind not in own:
                    last = (m, kind, key)
                    if restores:
                        return m, (key, None)
                elif last is not None and kind != last[1]:
                    # Made on a restored state: the state the run started from.
                    return last[0], (last[2], None if restores else key)
        return (last[0], (last[2], None)) if last else (-1, None)

    def _new_requests(self) -> list[int]:
        """Per step: the latest step up to it that received input not seen before (a
        customer's new reply); -1 when none did."""
        seen: set[str] = set()
        out: list[int] = []
        last = -1
        for v in self.views:
            if v.prompt and v.prompt not in seen:
                last = v.index
                seen.add(v.prompt)
            out.append(last)
        return out

    def _last_targeted_calls(self) -> list[int]:
        """Per step: the latest earlier step that made a call naming a target; -1 if none."""
        out: list[int] = []
        last = -1
        for v in self.views:
            out.append(last)
            if any(not _targetless(c) for c in v.calls):
                last = v.index
        return out

    def _find_rotations(self) -> frozenset[int]:
        """Steps inside a run of at least ``_ROTATION`` consecutive re-reads: steps whose
        every call is a look made before with the same answer, since the last write and
        the last new request. Such a run is a cycle of reads over a world that did not
        change, whichever order the reads come in; none of them is work done between the
        others."""
        answers: dict[tuple[str, str], list[tuple[int, str]]] = {}
        run: list[int] = []
        found: set[int] = set()
        for j, v in enumerate(self.views):
            since = max(self._changed_before[j], self._new_request[j])
            reread = bool(v.calls) and all(
                (c.name, c.raw) not in self._written[j] and any(
                    q > since and outputs_same(out, c.output)
                    for q, out in answers.get((c.name, c.raw), ()))
                for c in v.calls)
            run = [*run, j] if reread else []
            if len(run) >= _ROTATION:
                found.update(run)
            for c in v.calls:
                answers.setdefault((c.name, c.raw), []).append((j, c.output))
        return frozenset(found)

    def _slip_after_work(self, k: int, j: int) -> bool:
        """Step j only makes calls that name no target, and a step after k acted (a step of
        a rotation of re-reads did no work)."""
        calls = self.views[j].calls
        return (bool(calls) and all(map(_targetless, calls)) and self._acted_before[j] > k
                and j not in self._rotation)

    def _new_attempt(self, k: int, j: int) -> bool:
        """Step j repeats a call of step k on a changed world or for a new request.

        The world is named by the last write before each step (of another kind than the
        call): a test after a new edit, or after a restore that undid one, sees another
        world; the same edit made again after the same restore (a toggle), or one setting
        posted again on every lap of a cycle, brings back the world the call already saw.
        Writes that the next lap makes again, in the same order (logs, restart, health;
        logs, restart, …), are part of the cycle: they change nothing its laps compare."""
        if self._changed_before[j] > k and not self._lap_rewrites(k, j):
            own = self._own_kinds[j]
            if (self._world(j, own)[1] != self._world(k, own)[1]
                    or self._measured_change(k, j)):
                return True
        if self._new_request[j] > k:
            # Every call made again must answer the user. Only a look fetches anything for
            # them: a write sent again as it was (a cancellation of what is already
            # cancelled) changes nothing whoever asked.
            vk, vj = self.views[k], self.views[j]
            again = [cj for cj in vj.calls if any(ck.raw == cj.raw for ck in vk.calls)]
            return bool(again) and all((cj.name, cj.raw) not in self._written[j]
                                       and self._fetched_for_user(j, cj) for cj in again)
        return False

    def _lap_rewrites(self, k: int, j: int) -> bool:
        """The writes between steps k and j are the next writes from step j on, in order."""
        between = [key for m in range(k + 1, j) for _, key, _ in self._writes[m]]
        after = (key for m in range(j, len(self.views)) for _, key, _ in self._writes[m])
        return all(key == next(after, None) for key in between)

    def _fetched_for_user(self, j: int, call: Call) -> bool:
        """A call of step j made again after the user spoke answers the user.

        The same nothing fetched again is the user's request (they heard of the failure and
        asked again), once: a third time the agent is the one hitting the same wall. A real
        result fetched again is the agent using it for a new question, unless the same result
        comes a third time while the user's new words name nothing of the call or its
        result: then the user spoke of something else and the agent sent the same call,
        unless the agent's next step answers those words (``_checked_for_reply``). The words
        name the call or result when they name a value it holds, or a field of it the user
        had not spoken of before (a new question about the record: its check-in time); a
        field name said in every message ("flight", from ``flight_number``) names nothing."""
        if call.empty:
            return self._nothing_total[_nothing_key(call)] <= 2
        key = (j, id(call))
        found = self._for_user.get(key)
        if found is None:  # once per step and call: every pair ending at j asks
            same = sum(outputs_same(call.output, other.output)
                       for other in self._by_input[(call.name, call.raw)])
            m = self._new_request[j]
            found = self._for_user[key] = same <= 2 or bool(
                _word_parts(self.views[m].prompt) & (_value_words(call.raw)
                                                     | _value_words(call.output))
                or self._new_words(m) & (_word_parts(call.raw) | _word_parts(call.output))
            ) or self._checked_for_reply(j, call)
        return found

    def _checked_for_reply(self, j: int, call: Call) -> bool:
        """Step j's look is a check made before replying to the customer's new report: the
        customer's words bring content words no earlier message of theirs had, and the next
        step is a reply (no call) the agent has not sent before that does not name the
        look's target. The work moves in the conversation (a new request to the customer);
        the look only confirms the record. A reply that names the target ("still no record
        under your RUT 99.999.999-9") reports the look again: the look is the attempt."""
        m = self._new_request[j]
        r = j + 1
        while r < len(self.views) and self._looks_again(j, r):
            r += 1  # the same look made again before the reply is still that check
        if m < 0 or r >= len(self.views):
            return False
        reply = self.views[r]
        if (reply.calls or not reply.text or self._said_before[r]
                or call.entities & reply.text_entities):
            return False
        return bool(self._new_words(m))

    def _new_words(self, m: int) -> frozenset[str]:
        """The content words of the user's message at step m that no earlier message of
        theirs had."""
        words = self._user_new.get(m)
        if words is None:  # once per message: every call made again after it asks
            earlier = {w for v in self.views[:m] if v.prompt for w in _word_parts(v.prompt)}
            words = self._user_new[m] = _word_parts(self.views[m].prompt) - earlier
        return words

    def _looks_again(self, j: int, r: int) -> bool:
        """Step r only makes calls of step j again, each with the same result."""
        calls = self.views[r].calls
        return bool(calls) and all(
            any(c.name == cj.name and c.raw == cj.raw and outputs_same(c.output, cj.output)
                for cj in self.views[j].calls)
            for c in calls)

    def _replies(self, k: int, j: int) -> bool:
        """Step j answers new words of the user, written after step k: what it says again
        (a policy refusal, the same options) answers a customer who keeps asking, so the
        user drove the repetition, not the agent. A step that reports its own tool result
        is not such a reply. Nor is the same text word for word a fourth time: a fixed
        reply ("could you rephrase that?") sent whatever the user wrote does not use it."""
        return self._new_request[j] == j > k and self._said_before[j] < _SAID_AS_REPLY

    def _reports_new_attempt(self, k: int, j: int) -> bool:
        """Step j speaks right after a step (after k) whose calls repeat nothing before it:
        its words ("still no user found") echo an earlier report, but report the result of
        a new attempt, so the run moved on between them."""
        m = j - 1
        if m <= k or not self.views[m].calls:
            return False
        fresh = self._fresh.get(m)
        if fresh is None:  # once per step: every text pair ending at j asks
            earlier = [self._logits.get((q, m), 0.0)
                       for q in range(max(0, m - _HISTORY), m) if self.views[q].calls]
            fresh = self._fresh[m] = not earlier or max(earlier) < 0.0
        return fresh

    def _step_call_logit(self, vk: StepView, vj: StepView) -> float:
        best = [max(self.call_logit(ck, cj) for ck in vk.calls) for cj in vj.calls]
        return sum(best) / len(best)

    # ---------------------------------------------------------------- pairs
    def _pairs(self) -> list[tuple[int, int]]:
        n = len(self.views)
        return [(k, j) for j in range(1, n) for k in range(max(0, j - _HISTORY), j)]

    def _compute_pairs(self, pairs: Sequence[tuple[int, int]] | None = None) -> None:
        whole = pairs is None
        pairs = self._pairs() if pairs is None else pairs
        # Pass 1: free-text arguments that need an embedding.
        arg_texts: list[str] = []
        for k, j in pairs:
            for ck in self.views[k].calls:
                for cj in self.views[j].calls:
                    if not self._same_output(ck, cj):
                        continue  # call_logit needs no argument similarity then
                    for u, v in self._free_text_pairs(ck, cj):
                        arg_texts.extend((u, v))
        self._ensure_vectors(arg_texts)
        # Pass 2: tool evidence, and which step texts still matter.
        call_logits: dict[tuple[int, int], float | None] = {}
        step_texts: list[str] = []
        for k, j in pairs:
            vk, vj = self.views[k], self.views[j]
            a = self._step_call_logit(vk, vj) if vk.calls and vj.calls else None
            call_logits[(k, j)] = a
            if a is not None and (a >= _DECISIVE_HIGH or a <= _DECISIVE_LOW):
                continue
            if a is None and (vk.calls or vj.calls):
                continue  # a tool step against a reasoning-only step: words can't make a repeat
            plan = self._text_plan(vk, vj)
            if isinstance(plan, tuple):
                step_texts.extend(plan[:2])
        self._ensure_vectors(step_texts)
        # Pass 3: combine.
        for k, j in pairs:
            vk, vj = self.views[k], self.views[j]
            a = call_logits[(k, j)]
            if a is not None:
                decisive = a >= _DECISIVE_HIGH or a <= _DECISIVE_LOW
                t = self._text_logit(vk, vj, lexical_only=decisive)
                logit = a + _TEXT_WEIGHT * (t or 0.0)
                if logit > _AFTER_CHANGE and (self._new_attempt(k, j)
                                              or self._slip_after_work(k, j)):
                    logit = _AFTER_CHANGE
            elif vk.calls or vj.calls:
                t = self._text_logit(vk, vj, lexical_only=True)
                logit = _MIXED_STEPS + (t or 0.0)
            else:
                lone = sum(1 for v in self.views[:j] if v.text and not v.calls) == 1
                t = self._text_logit(vk, vj, lexical_only=False, lone=lone)
                logit = 0.0 if t is None else t  # nothing to compare: undecided
                if t is not None:
                    self._text_only.add((k, j))
                    if self._replies(k, j) or self._reports_new_attempt(k, j):
                        logit = min(logit, _AFTER_CHANGE)
            self._logits[(k, j)] = logit
        if whole:
            self._used_edits()

    def _used_edits(self) -> None:
        """An edit made again (a fix re-applied, a setting switched back) whose call prints
        nothing, followed by a call never made before: the agent made the edit to look at
        something new (a toggle to compare other tests), so it is a new attempt, not a lap.
        It stays a repeat when the next look was made before (the same view of the same
        lines, the same test again). A refused reply is not a look: the next call that ran is."""
        acting = [j for j, v in enumerate(self.views)
                  if any(not _targetless(c) for c in v.calls)]
        made: set[tuple[str, str]] = set()
        first_made: dict[int, bool] = {}
        for j in acting:
            first_made[j] = not all((c.name, c.raw) in made for c in self.views[j].calls)
            made.update((c.name, c.raw) for c in self.views[j].calls)
        for j, m in pairwise(acting):
            calls = self.views[j].calls
            if len(self._writes[j]) < len(calls) or not all(map(prints_nothing, calls)):
                continue
            if not first_made[m]:
                continue
            for k in range(max(0, j - _HISTORY), j):
                self._logits[(k, j)] = min(self._logits[(k, j)], _AFTER_CHANGE)

    def repeat_logit(self, k: int, j: int) -> float:
        if (k, j) not in self._logits:
            self._compute_pairs([(k, j)])  # further apart than the history window
        return self._logits[(k, j)]

    def repeat_probability(self, k: int, j: int) -> float:
        return _prob(self.repeat_logit(k, j))

    def stuck_probability(self, j: int) -> float:
        """P(step j repeats some earlier step): its best match among all earlier steps."""
        return 0.0 if j < 1 else round(1.0 - self.progress(j - 1, j), 4)

    # ---------------------------------------------------------------- answers
    def _history_logit(self, k: int, i: int, j: int) -> float:
        logit = self.repeat_logit(k, j)
        if (k, j) in self._text_only and k < i:
            # Words alone that echo a step from further back are more often a summary or a
            # return to the subject than a cycle; cycles also repeat their tool calls.
            logit -= min(_MAX_FAR_TEXT, _FAR_TEXT * (i - k))
        return logit

    def progress(self, i: int, j: int) -> float:
        # Step j advances beyond step i unless it repeats i or anything before i.
        earlier = range(min(i, max(0, j - _HISTORY)), i + 1)
        logit = max(self._history_logit(k, i, j) for k in earlier)
        if j in self._restatements:
            logit = max(logit, self._restatements[j])
        return round(1.0 - _prob(logit), 4)

    def _find_restatements(self, goal: str) -> dict[int, float]:
        """Reasoning-only steps that restate what every earlier reasoning-only step said.

        One pair at cosine 0.45 is undecided: same subject, maybe a new point. A step that
        is that close to *each* earlier step, names at most one new entity, and belongs to
        a run of such steps is the same plan said again; each further earlier version adds
        evidence (``_RESTATE_STEP`` per step). A lone summary at the end never qualifies:
        the run needs at least two such steps.
        """
        known = set(entities(goal))
        found: dict[int, float] = {}
        for j, vj in enumerate(self.views):
            earlier = [k for k in range(max(0, j - _HISTORY), j) if (k, j) in self._text_only]
            # One new name or number may be rewording ("twelve" -> "12"); two are news.
            new_entity = len(vj.text_entities - known) > 1
            known |= vj.entities
            if vj.calls or len(earlier) < 2 or new_entity or self._new_request[j] == j:
                continue
            logits = [self._logits[(k, j)] for k in earlier]
            if min(logits) < _RESTATE_MIN or sum(logits) / len(logits) < _RESTATE_MEAN:
                continue
            bonus = min(_RESTATE_MAX, _RESTATE_STEP * (len(earlier) - 1))
            found[j] = max(logits) + bonus
        found = found if len(found) >= 2 else {}
        for j, logit in self._find_plan_restatements(goal).items():
            found[j] = max(found.get(j, logit), logit)
        return found

    def _find_plan_restatements(self, goal: str) -> dict[int, float]:
        """Reasoning-only steps that say the same plan again and report nothing.

        Paraphrases of one abstract plan embed only moderately alike (masked cosine
        0.3-0.75), so pairs alone stay undecided. What a restatement lacks is what progress
        has: a tool call, a new name or number, a result. A step with none of these, close
        to two or more earlier such steps of the same tool-free run, is the plan said again;
        the first two steps of a run never qualify (nothing to corroborate them).
        """
        known = set(entities(goal))
        run: list[int] = []  # steps of the current tool-free run that reported nothing
        found: dict[int, float] = {}
        for j, vj in enumerate(self.views):
            new_entity = bool(vj.text_entities - known)
            known |= vj.entities
            if vj.calls or not vj.text or self._new_request[j] == j:
                run = []  # a tool call (and its output) or the user's new words: new information
                continue
            if new_entity or reports_outcome(vj.text):
                continue
            # The versions it echoes must be plans in so many words ("I will", "the plan
            # is"): a list or a remark that reports nothing but plans nothing either is not
            # a plan said again. The step itself may be bare ("So: drain, patch, re-add.").
            # A filled template slot with other words is one sentence applied to a new
            # target, not the plan said again.
            close = [
                self._logits[(k, j)]
                for k in run
                if (k, j) in self._text_only
                and self._logits[(k, j)] >= _PLAN_CLOSE
                and announces_plan(self.views[k].text)
                and not _is_slot(self.views[k], vj, self._own_words(self.views[k]),
                                 self._own_words(vj))
            ]
            # "I'll also ...", "Finally I will ...": a new item for the plan, not the plan
            # again (it still joins the run: a later step may say it again).
            if len(close) >= 2 and max(close) >= _PLAN_BEST and not adds_to_plan(vj.text):
                bonus = _PLAN_BASE + (_PLAN_WORDING if announces_plan(vj.text) else 0.0)
                bonus += _PLAN_STEP * (len(close) - 1)
                found[j] = min(_PLAN_MAX, max(0.0, max(close)) + bonus)
            run.append(j)
        return found

    def revisit(self, i: int, j: int) -> float:
        return self.repeat_probability(i, j)

    def tool_repeat(self, name: str) -> float:
        """P(the calls to ``name`` are one action repeated, not different actions)."""
        wanted = " ".join(name.lower().split())
        calls = [c for v in self.views for c in v.calls if c.name == wanted]
        outputs_known = True
        if len(calls) < 2:
            listed = self._tool_calls.get(name) or []
            if isinstance(listed, Sequence) and not isinstance(listed, str) and len(listed) >= 1:
                calls = [Call.of(name, _text(x), "") for x in listed]
                outputs_known = False
        if len(calls) < 2:
            return 0.5 if not calls else 0.98  # one distinct input listed: every call identical
        texts = [
            u
            for m in range(1, len(calls))
            for k in range(m)
            if not outputs_known or self._same_output(calls[k], calls[m])
            for pair in self._free_text_pairs(calls[k], calls[m])
            for u in pair
        ]
        self._ensure_vectors(texts)
        repeats = []
        for m in range(1, len(calls)):
            logits = []
            for k in range(m):
                logit = self.call_logit(calls[k], calls[m], outputs_known=outputs_known)
                sk, sm = self._step_of.get(id(calls[k])), self._step_of.get(id(calls[m]))
                if (outputs_known and sk is not None and sm is not None and sk < sm
                        and logit > _AFTER_CHANGE and (self._new_attempt(sk, sm)
                                                       or self._slip_after_work(sk, sm))):
                    logit = _AFTER_CHANGE
                logits.append(logit)
            repeats.append(_sigmoid(max(logits)))
        return _prob(_logit(sum(repeats) / len(repeats)))

    def stagnation(self) -> Answer:
        """Overall stuckness on the seed's 4 levels, as an expected level with probabilities."""
        n = len(self.views)
        stuck = [self.stuck_probability(j) for j in range(1, n)]
        expected = sum(stuck)
        share = expected / len(stuck) if stuck else 0.0
        level = min(2.0, expected) + (1.0 if share >= 0.75 else 0.0)
        weights = [math.exp(-2.0 * abs(level - lv)) for lv in range(4)]
        total = sum(weights)
        probs = {lv: round(w / total, 4) for lv, w in enumerate(weights)}
        value = round(sum(lv * p for lv, p in probs.items()), 4)
        nearest = min(range(4), key=lambda lv: abs(lv - value))
        return Answer(type="score", value=value, probability=probs[nearest], probabilities=probs)


# Tools whose name says nothing about what a call does: the command does.
_GENERIC_TOOLS = frozenset({"bash", "shell", "sh", "zsh", "python", "python3", "run",
                            "execute", "exec", "terminal", "cmd", "command", "http",
                            "execute_bash", "run_command", "ipython", "jupyter"})
# Argument keys that hold a command line or code, compared as commands.
_COMMAND_KEYS = frozenset({"command", "cmd", "code", "script", "commands"})
_JOINTS = re.compile(r"[_\-./:]+")
_CMD_TOKEN = re.compile(r"[^\s'\"`]+")


@lru_cache(maxsize=16384)
def _command_tokens(text: str) -> tuple[str, ...]:
    """The words of a command line as the shell reads them: outer quoting is how it is
    written (``ls 'a b'`` / ``ls "a b"``), a quote inside an argument is part of what it
    says (``sed 's/"x"/y/'`` / ``sed "s/'x'/y/"`` are two patterns). A line the shell could
    not split (an open quote, a heredoc) falls back to words between quotes."""
    line = " ".join(text.lower().split())
    try:
        return tuple(shlex.split(line))
    except ValueError:
        return tuple(_CMD_TOKEN.findall(line))


_DIGIT_RUN = re.compile(r"\d+(?:\.\d+)?")


def _operands(words: Sequence[str]) -> list[str]:
    """The words a command acts on: all but its options. An option's value is an operand
    unless it is a number (``--bad-names=foo,bar`` names what is tried; ``--timeout=30``
    is a setting, and numbers are compared as settings elsewhere)."""
    out = []
    for word in words:
        if word.startswith("-"):
            value = word.partition("=")[2]
            if not value or _DIGIT_RUN.fullmatch(value):
                continue
        out.append(word)
    return out


def _numbers_masked(words: Sequence[str]) -> list[str]:
    return [_DIGIT_RUN.sub("#", w) for w in words]


def _facts_text(v: StepView) -> str:
    return " ".join(tokens(without_volatile(v.text))[:_FACTS_WORDS])


def _own_words(v: StepView) -> list[str]:
    return [t for t in content_tokens(v.residual) if not _entity_token(t, v.text_entities)]


def _is_slot(vk: StepView, vj: StepView, wk: list[str], wj: list[str]) -> bool:
    """Both steps are a shared template plus a few words of their own (a filled slot)."""
    templated = len(vk.residual) < len(vk.toks) and len(vj.residual) < len(vj.toks)
    return templated and bool(wk) and bool(wj) and len(wk) <= _SLOT_WORDS >= len(wj)


def _kept_culprit(ck: Call, cj: Call) -> bool:
    """Both calls of one structured tool got an error message naming the same value (an
    id, a name), and both passed it: whatever else changed, what failed was kept. Bare
    numbers do not count (a count or an amount is not what the call was about), nor do
    generic runners, whose logs echo paths and versions of everything they ran."""
    if ck.name != cj.name or ck.name in _GENERIC_TOOLS or ck.args is None or cj.args is None:
        return False
    if max(len(ck.output), len(cj.output)) > _ERROR_MESSAGE_CHARS:
        return False  # a log, not an error message
    named = entities(ck.output) & entities(cj.output) & ck.entities & cj.entities
    # A parameter's name quoted in the error ("Invalid `path` parameter: …") is no value.
    keys = {k.lower() for k in (*ck.args, *cj.args)}
    return any(not e.replace(".", "").isdigit() and e not in keys for e in named)


@lru_cache(maxsize=4096)
def _word_parts(text: str) -> frozenset[str]:
    """The content words of a text, ids and keys split at their joints (``check_in_time``
    and ``check-in`` share ``check``)."""
    parts = [part for tok in tokens(text) for part in _JOINTS.split(tok)]
    return frozenset(p for p in content_tokens(parts) if len(p) > 2)  # "id", "in": no name


# A key of a JSON object or Python dict: ``"flight_number":``, ``'status':``.
_KEY = re.compile(r"""(["'])[^"'\\]*\1\s*:""")


def _value_words(text: str) -> frozenset[str]:
    """The content words of a call's input or result without its keys, the fields the tool
    returns on every call. A pattern, not a parse: the judge's state cuts long results."""
    return _word_parts(_KEY.sub(" ", text))


def _nothing_key(call: Call) -> tuple[str, str, bool]:
    return call.name, call.empty_sig, _stand_in(call)


# A value the agent never filled in: <user_rut>, {order_id}, {{customer}}, [ORDER_ID].
_PLACEHOLDER = re.compile(r"<[^<>]+>|\{\{?\s*[a-z_][\w .-]*\}?\}|\[[a-z_][\w .-]*\]")


def _stand_in(call: Call) -> bool:
    """A call that could act on no real target: an argument is a placeholder. (A tool
    refusing malformed arguments needs no such rule: its error has its own signature.)"""
    return call.args is not None and any(
        isinstance(v, str) and _PLACEHOLDER.fullmatch(v) for v in call.args.values())


# An id as a customer writes it: digits with dots, dashes or slashes between (12.888.999-0).
_ID_WRITTEN = re.compile(r"\w*\d[\w.\-/]*\w|\d")


@lru_cache(maxsize=4096)
def _said(value: str) -> re.Pattern[str]:
    """A value written as a word of its own in a text."""
    return re.compile(rf"(?<!\w){re.escape(value)}(?!\w)")


def _targetless(call: Call) -> bool:
    return not call.raw or call.args == {}


def _number_like(value: Any) -> bool:
    # 30, 2.5, "30s", "500 ms", "2m": an amount, perhaps with its unit.
    return isinstance(value, float) or (
        isinstance(value, str) and bool(re.fullmatch(r"\d+(?:\.\d+)?\s*[a-z]{0,7}", value))
    )


def _logit(p: float) -> float:
    p = min(1 - 1e-6, max(1e-6, p))
    return math.log(p / (1 - p))


def answer_questions(
    state: Any, questions: Mapping[str, Question], embed: Embed
) -> dict[str, Answer]:
    """Answer every question about ``state``; an id the judge does not know is an error."""
    judgement = LocalJudgement(state, embed)
    n = len(judgement.views)
    answers: dict[str, Answer] = {}
    for qid in questions:
        match = _PAIR_ID.match(qid)
        if match:
            kind, i, j = match.group(1), int(match.group(2)), int(match.group(3))
            if not (0 <= i < j < n):
                raise JudgeAnswerError(f"question {qid!r} names steps outside 0..{n - 1}")
            p = judgement.progress(i, j) if kind == "progress" else judgement.revisit(i, j)
            answers[qid] = _noul(p)
        elif qid.startswith(_TOOL_PREFIX) and len(qid) > len(_TOOL_PREFIX):
            answers[qid] = _noul(judgement.tool_repeat(qid[len(_TOOL_PREFIX) :]))
        elif qid == "stagnation":
            answers[qid] = judgement.stagnation()
        else:
            raise JudgeAnswerError(f"the local judge cannot answer question {qid!r}")
    return answers
