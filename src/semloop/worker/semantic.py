"""The semantic worker: evaluators over finished runs and conversations, post hoc.

Strictly after the fact: it takes a completed or errored run only once the detector
worker has processed it (so "every structurally flagged run is evaluated" holds), never
in the SDK's path. Per run: the sampling decision is recorded (evaluated or not); a
sampled run spends its quota unit once, in the transaction that records the decision
(``Store.record_samples``, one for the batch); each evaluator is a task of its own, so one failing never fails
another or the batch; a run's outcomes are written together (``Store.finish_run``). A failed or undecided judge call
is retried up to ``max_attempts`` times with exponential backoff (the run's lease is held
until then), then recorded as failed with its error; it never loops and never spends
quota again. Findings get severity from their confidence, false-positive feedback, a
second opinion when configured, and a recurring issue, then go to ``failure_signals``
with source ``semantic``, where the alerts worker routes them (below the floor: stored,
never alerted). AGENT_LOOP, the judged loop detector, is one of its evaluators.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..case import ConversationCase
from ..evaluate import (
    CONVERSATION_RUNS,
    EVALUATORS,
    EvalResult,
    EvaluatorsConfig,
    EvaluatorSettings,
    LoopEvaluator,
    QuestionEvaluator,
    conversation_case,
    needs_second_opinion,
    run_case,
    trace_case,
)
from ..evaluate.findings import (
    Similarity,
    TokenSimilarity,
    apply_feedback,
    downgrade,
    match_group,
    representation,
)
from ..evaluate.sampling import (
    AgentSemantics,
    Sample,
    SamplingConfig,
    sample_conversation,
    sample_run,
)
from ..events import Run, Signal, severity_for
from ..judge import Backend
from ..store import OrgSemantics, SemanticState, Store, TaskOutcome, month_of
from ._polling import Claim, PollingWorker

__all__ = ["SemanticWorker"]

log = logging.getLogger("semloop.worker.semantic")

_FINISHED = frozenset({"done", "failed", "skipped"})
_RUN_LEVELS = ("run", "trace")
AnyEvaluator = QuestionEvaluator | LoopEvaluator


@dataclass
class _Judging:
    """One run's (or conversation's) evaluators, planned and handed to the judge: the
    outcomes of those not judged, then each judged one's case, attempt and verdict."""

    outcomes: list[TaskOutcome] = field(default_factory=list)
    planned: list[tuple[AnyEvaluator, Any, int, Future[EvalResult]]] = field(
        default_factory=list)


class SemanticWorker(PollingWorker):
    name = "semantic"

    def __init__(
        self,
        store: Store,
        judge: Backend,
        *,
        evaluators: EvaluatorsConfig | None = None,
        sampling: SamplingConfig | None = None,
        second_judge: Backend | None = None,
        similarity: Similarity | None = None,
        cost_ceilings: Mapping[str, float] | None = None,
        poll_interval: float = 5.0,
        batch_size: int = 50,
        max_attempts: int = 3,
        backoff_s: float = 10.0,
        after: str | None = "detector",
        judge_threads: int | None = None,
        judge_ahead: int | None = None,
    ) -> None:
        super().__init__(poll_interval=poll_interval)
        self.store = store
        self.judge = judge
        self.config = evaluators or EvaluatorsConfig()
        self.sampling = sampling or SamplingConfig()
        self.second_judge = second_judge
        self.similarity = similarity or TokenSimilarity()
        self.cost_ceilings = dict(cost_ceilings or {})
        self.batch_size = batch_size
        self.max_attempts = max_attempts
        self.backoff_s = backoff_s
        # None: no detector worker runs here (benchmarks, tests of this worker alone).
        self.after = after
        # A run's evaluators are judged side by side, and the next ``judge_ahead - 1``
        # runs' while this thread records one: the embedded judge's model releases the GIL
        # and embeds what concurrent calls ask for in shared passes, an LLM judge waits on
        # the network. Everything after the verdicts stays in this thread, in run order.
        # The embedded judge is free, so judging ahead risks nothing but a killed worker's
        # redone work; a paid judge judges one run at a time, two calls at once.
        local = judge.name == "local"
        self.judge_threads = max(1, judge_threads or (8 if local else 2))
        self.judge_ahead = max(1, judge_ahead or (4 if local else 1))
        self._judging: ThreadPoolExecutor | None = None  # made on first use, ended by stop()

    def __str__(self) -> str:
        return f"{self.name} (judge {self.judge.name}, every {self.poll_interval:g} s)"

    def stop(self, timeout: float = 60.0) -> None:
        super().stop(timeout)
        # The judge's threads end with the poll thread; a later poll makes new ones.
        if self._judging is not None:
            self._judging.shutdown(wait=False, cancel_futures=True)
            self._judging = None

    def _pool(self) -> ThreadPoolExecutor:
        if self._judging is None:
            self._judging = ThreadPoolExecutor(self.judge_threads,
                                               thread_name_prefix="semantic-judge")
        return self._judging

    def process_batch(self) -> int:
        batch = self.take(lambda lease_s: self.store.runs_to_process(
            self.name, limit=self.batch_size, stall_timeout_s=float("inf"), lease_s=lease_s,
            after=self.after))
        if not batch:
            return 0
        # One read for the batch's states, one transaction for its sampling decisions and
        # charges (before any judge call, so budgets are checked first); then each run's
        # judge calls and one transaction for its outcomes.
        try:
            contexts = self.store.semantic_states([(org_id, run) for org_id, run, _ in batch])
            cleared = self._decide(batch, contexts)
        except Exception:
            log.exception("semantic: a batch of %d runs failed; will retry", len(batch))
            for claim in batch:
                self.retry_later(claim)
            return 0
        runs = list(zip(batch, contexts, cleared))
        # A cost ceiling is checked against the spend the runs before have written.
        window = 1 if self.cost_ceilings else self.judge_ahead
        started: dict[int, _Judging | Exception] = {}
        handled = 0
        for index, (claim, context, _) in enumerate(runs):
            for ahead in range(index, min(index + window, len(runs))):
                if ahead not in started:
                    started[ahead] = self._start_run(*runs[ahead])
            judging = started.pop(index)
            try:
                if isinstance(judging, Exception):
                    raise judging
                finished = self.process_run(claim, context, judging)
            except Exception:
                log.exception("semantic: run %s failed; will retry", claim[1].run_id)
                self.retry_later(claim)
                continue
            if finished:
                self.stats.runs += 1
                handled += 1
        return handled

    def _decide(self, batch: Sequence[Claim], contexts: Sequence[SemanticState]) -> list[bool]:
        """Whether each run of the batch is to be evaluated: new decisions recorded and
        sampled runs charged, in one transaction."""
        cleared: list[bool | None] = []
        decisions: list[tuple[str, Run, Sample | None, bool]] = []
        for (org_id, run, _), context in zip(batch, contexts):
            sample = context.sample
            counted = self._counted(context.org, self._evaluators(context.agent, _RUN_LEVELS))
            if sample is None:
                decided = sample_run(run, self.sampling, context.agent,
                                     structural=context.structural)
                decisions.append((org_id, run, decided, counted))
                cleared.append(None)
            elif sample.sampled and not sample.charged:
                decisions.append((org_id, run, None, counted))
                cleared.append(None)
            else:
                cleared.append(sample.sampled)
        answers = iter(self.store.record_samples(decisions) if decisions else [])
        return [next(answers) if c is None else c for c in cleared]

    # -- one run ---------------------------------------------------------------------

    def _start_run(self, claim: Claim, context: SemanticState,
                   evaluate: bool) -> _Judging | Exception:
        """The run's evaluators handed to the judge (none when it is not evaluated), or
        the error that stopped it (the run is then retried)."""
        org_id, run, _ = claim
        if not evaluate:
            return _Judging()
        try:
            return self._start(org_id, run, self._evaluators(context.agent, _RUN_LEVELS),
                               context, None)
        except Exception as exc:  # noqa: BLE001 - the run's own failure, raised in its turn
            return exc

    def process_run(self, claim: Claim, context: SemanticState, judging: _Judging) -> bool:
        """Finish one claimed, decided run whose evaluators ``judging`` holds; False when
        an evaluator is to be retried.

        The run's writes after its judge calls are one transaction (its tasks, findings,
        issues, log rows and the run processed): a worker killed before it commits leaves
        nothing of the run but its charged decision, and the run comes back whole.
        """
        org_id, run, trigger = claim
        outcomes: list[TaskOutcome] = []
        retry = self._finish_tasks(org_id, run, judging, context, None, outcomes)
        try:
            retry |= self._conversation(org_id, run, context, outcomes)
        except Exception:  # its own failure must not lose the run-level findings
            log.exception("semantic: conversation of run %s failed; will retry", run.run_id)
            retry = True
        retry_at = None
        if retry:
            attempts = max((a for _, a in context.tasks.values()), default=0) + 1
            retry_at = time.time() + self.backoff_s * 2 ** (attempts - 1)
        self.stats.signals += self.store.finish_run(self.name, org_id, run.run_id, trigger,
                                                    outcomes, retry_at=retry_at)
        return not retry

    def _evaluators(self, agent: AgentSemantics, levels: Sequence[str]) -> list[AnyEvaluator]:
        wanted = {name.upper() for name in agent.evaluators}
        return [e for name, e in EVALUATORS.items()
                if e.level in levels and self.config.for_evaluator(name).enabled
                and (not wanted or name in wanted)]

    def _counted(self, org: OrgSemantics, chosen: Sequence[AnyEvaluator]) -> bool:
        """Whether these evaluations spend quota: the embedded judge is $0 and counts only
        when the org says so."""
        return bool(chosen) and (org.count_local_evaluations or self.judge.name != "local")

    def _start(self, org_id: str, run: Run, evaluators: Sequence[AnyEvaluator],
               context: SemanticState,
               conversation: tuple[ConversationCase, list[str]] | None) -> _Judging:
        """Hand each evaluator that is to run now to the judge's threads."""
        judging = _Judging()
        cases: dict[str, Any] = {}  # the run read once per level, for all its evaluators
        for evaluator in evaluators:
            plan = self._plan(org_id, run, evaluator, context, conversation, judging.outcomes,
                              cases)
            if plan is not None:
                case, settings, attempt = plan
                verdict = self._pool().submit(evaluator, case, self.judge, settings)
                judging.planned.append((evaluator, case, attempt, verdict))
        return judging

    def _finish_tasks(self, org_id: str, run: Run, judging: _Judging, context: SemanticState,
                      conversation: tuple[ConversationCase, list[str]] | None,
                      outcomes: list[TaskOutcome]) -> bool:
        """Add every outcome of ``judging`` to ``outcomes``, once its verdicts are in;
        True when an evaluator is to be retried."""
        outcomes.extend(judging.outcomes)
        start = time.perf_counter()
        results = [verdict.result() for *_, verdict in judging.planned]
        self.stats.judging_s += time.perf_counter() - start
        retry = False
        for (evaluator, case, attempt, _), result in zip(judging.planned, results):
            retry |= self._record(org_id, run, evaluator, case, result, attempt, context,
                                  conversation, outcomes)
        return retry

    def _plan(self, org_id: str, run: Run, evaluator: AnyEvaluator, context: SemanticState,
              conversation: tuple[ConversationCase, list[str]] | None,
              outcomes: list[TaskOutcome],
              cases: dict[str, Any]) -> tuple[Any, EvaluatorSettings, int] | None:
        """The case, settings and attempt number to judge ``evaluator`` with, or None when
        it is not to run now (finished before, nothing to judge, or over its ceiling: then
        its outcome is added to ``outcomes``)."""
        state, attempts = context.tasks.get(evaluator.name, ("new", 0))
        if state in _FINISHED:
            return None
        case: Any
        if conversation is not None:
            case = conversation[0]
        else:
            if evaluator.level not in cases:
                cases[evaluator.level] = (trace_case(run) if evaluator.level == "trace"
                                          else run_case(run))
            case = cases[evaluator.level]
        if case is None:
            outcomes.append(TaskOutcome(evaluator.name, "skipped", 0,
                                        "no user input or no LLM output to judge"))
            return None
        ceiling = self.cost_ceilings.get(evaluator.name)
        if ceiling is not None and self.store.evaluator_spend(
                org_id, evaluator.name, month_of(time.time())) >= ceiling:
            outcomes.append(TaskOutcome(evaluator.name, "skipped", 0,
                                        f"cost ceiling ${ceiling:g} this month reached"))
            return None
        return case, self.config.for_evaluator(evaluator.name), attempts + 1

    def _record(self, org_id: str, run: Run, evaluator: AnyEvaluator, case: Any,
                result: EvalResult, attempt: int, context: SemanticState,
                conversation: tuple[ConversationCase, list[str]] | None,
                outcomes: list[TaskOutcome]) -> bool:
        """Add one verdict's outcome to ``outcomes``; True when it is to be retried."""
        considered = None if conversation is None else conversation[1]
        calls = [_entry(run, result, attempt, run.conversation_id if considered else None)]
        if result.error is not None or result.confidence is None:
            # No verdict is not a healthy verdict: retried, then recorded as failed.
            final = attempt >= self.max_attempts
            outcomes.append(TaskOutcome(evaluator.name, "failed" if final else "pending",
                                        attempt, result.error or result.reasoning, calls=calls))
            if final:
                log.warning("semantic: %s on run %s failed %d times: %s", evaluator.name,
                            run.run_id, attempt, result.error or result.reasoning)
            return not final
        outcomes.append(self._finish(org_id, run, evaluator, case, result, context.org,
                                     attempt, considered, calls))
        return False

    def _finish(self, org_id: str, run: Run, evaluator: AnyEvaluator, case: Any,
                result: EvalResult, org: OrgSemantics, attempt: int,
                considered: list[str] | None, calls: list[dict[str, Any]]) -> TaskOutcome:
        """Turn a verdict into a finding: feedback, severity, second opinion, issue; the
        judge ``calls`` are logged with it."""
        conversation_id = run.conversation_id if considered is not None else None
        assert result.confidence is not None
        if not result.fired:
            return TaskOutcome(evaluator.name, "done", attempt, calls=calls)
        evidence: dict[str, Any] = {"reasoning": result.reasoning}
        text = representation(result.reasoning)
        vector = self.similarity.vectors([text])[0]
        groups = self.store.groups_for(org_id, run.agent_id, evaluator.name)
        group = match_group(text, vector, groups, self.similarity)
        feedback = apply_feedback(result.confidence, group.false_positives if group else 0,
                                  enabled=org.feedback_enabled, auto_suppress=org.auto_suppress)
        if feedback.confidence is None:
            return TaskOutcome(evaluator.name, "done", attempt, feedback.reason, calls=calls)
        confidence = feedback.confidence
        settings = self.config.for_evaluator(evaluator.name)
        severity = severity_for(confidence)
        second: dict[str, Any] | None = None
        adjusted = dataclasses.replace(result, confidence=confidence)
        if self.second_judge is not None and needs_second_opinion(adjusted, settings):
            again = evaluator(case, self.second_judge, settings)
            calls.append(_entry(run, again, attempt, conversation_id, second_opinion=True))
            agreed = again.fired
            if not agreed:
                severity = downgrade(severity)
            second = {"judge": again.judge, "model": again.model, "agreed": agreed,
                      "confidence": again.confidence, "reasoning": again.reasoning,
                      "error": again.error}
        evidence.update({
            "judge": result.judge, "model": result.model, "threshold": result.threshold,
            "confidence_floor": settings.confidence_floor,
            "alertable": confidence >= settings.confidence_floor,
            "judge_confidence": result.confidence, "input_tokens": result.input_tokens,
            "output_tokens": result.output_tokens, "cost_usd": result.cost_usd,
        })
        if second is not None:
            evidence["second_opinion"] = second
        if feedback.reason:
            evidence["feedback"] = feedback.reason
        if conversation_id is not None:
            evidence["conversation_id"] = conversation_id
            evidence["run_ids_considered"] = considered
        # A conversation finding belongs to the conversation's newest run: a re-evaluation
        # after new runs is a new finding, a repeat of the same one is not.
        target = considered[-1] if considered else run.run_id
        signal = Signal(failure_type=evaluator.name, run_id=target, severity=severity,
                        confidence=confidence, evidence=evidence, source="semantic",
                        agent_id=run.agent_id, agent_version=run.agent_version,
                        co_signal_count=0)
        return TaskOutcome(evaluator.name, "done", attempt, signal=signal,
                           group=group.id if group is not None else (text, vector), calls=calls)

    # -- conversations ---------------------------------------------------------------

    def _conversation(self, org_id: str, run: Run, context: SemanticState,
                      outcomes: list[TaskOutcome]) -> bool:
        """Evaluate the run's conversation when it is sampled and has new runs; True when a
        conversation evaluator is to be retried."""
        if not run.conversation_id:
            return False
        chosen = self._evaluators(context.agent, ("conversation",))
        begun = [e for e in chosen if e.name in context.tasks]
        runs = self.store.conversation_runs(org_id, run.agent_id, run.conversation_id)
        if not begun:
            decided = sample_conversation(run.conversation_id, len(runs), self.sampling)
            # Another worker (or an earlier run's pass) evaluated it at this many runs.
            if not self.store.record_conversation(
                    org_id, run.conversation_id, run.agent_id, decided,
                    len(runs) if decided.sampled and chosen else None):
                return False
            if not self.store.charge_conversation(
                    org_id, run, counted=self._counted(context.org, chosen)):
                return False
        case = conversation_case(runs, id=run.conversation_id)
        if case is None:
            return False
        conversation = (case, [r.run_id for r in runs[-CONVERSATION_RUNS:]])
        judging = self._start(org_id, run, chosen, context, conversation)
        return self._finish_tasks(org_id, run, judging, context, conversation, outcomes)


def _entry(run: Run, result: EvalResult, attempt: int, conversation_id: str | None, *,
           second_opinion: bool = False) -> dict[str, Any]:
    """One judge call as an evaluation-log row."""
    return {
        "run_id": run.run_id, "conversation_id": conversation_id, "agent_id": run.agent_id,
        "evaluator": result.evaluator, "judge": result.judge, "model": result.model,
        "input_tokens": result.input_tokens, "output_tokens": result.output_tokens,
        "estimated": result.tokens_estimated, "cost_usd": result.cost_usd,
        "latency_ms": result.latency_ms, "fired": result.fired,
        "confidence": result.confidence, "undecided": result.undecided,
        "error": (result.error or "")[:500] or None, "attempt": attempt,
        "second_opinion": second_opinion,
    }
