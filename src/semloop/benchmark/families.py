"""The bench dataset: ten families of synthetic agent traces, six instances each.

Each family isolates one thing the lexical stagnation check gets wrong (or, for the
regression families, one thing it already gets right). The text is template-built and
seeded, so the same ``(per, seed)`` always gives byte-identical JSONL.

Shapes, per family (``L`` = an LLM step, ``T`` = a tool call, all direct children of one
``agent`` span):

* ``paraphrased_loop`` — 4 × (L, T): one intent ("search the code for X") reworded every
  time, then the same grep. Bigram Jaccard and SequenceMatcher both stay well below 0.85.
* ``terse_loop`` — 4 × (L, T): retries under 20 meaningful words, which the lexical check
  skips rather than compares.
* ``alternating_loop`` — 3 rounds of (L_A, read, L_B, test): an A-B-A-B cycle; consecutive
  steps differ, so a consecutive-only comparison never sees it.
* ``cosmetic_args_loop`` — 6 × (L, grep): the same search with one cosmetic argument change
  per call, which resets the exact-match repetition counter.
* ``verbatim_loop`` — 4 × (L, T), one sentence repeated word for word (regression check).
* ``identical_tool_loop`` — 6 × (L, T), same sentence, same tool, same arguments
  (regression check).
* ``progress`` — a healthy fix: 6 L with 4 tools between them.
* ``template_progress`` — 5 × (L, read): five different files described in one sentence
  shape; the lexical check reads repetition, the work is real.
* ``boilerplate_progress`` — 4 L sharing a long fixed preamble over short, different tails.
* ``retry_then_recover`` — L T L T L L: one command run twice, then a change of approach.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["DEFAULT_PER", "DEFAULT_SEED", "FAMILIES", "Family", "dump_rows", "make_rows"]

DEFAULT_SEED = 20261130
DEFAULT_PER = 6


@dataclass(frozen=True)
class Task:
    goal: str
    subject: str
    artifacts: tuple[str, str, str, str, str]
    target: str


TASKS: tuple[Task, ...] = (
    Task(
        "Work out why password reset emails arrive twice and stop the duplicates",
        "the password reset mailer",
        ("reset_mailer.py", "email_queue.py", "token_store.py", "outbox_worker.py", "smtp_adapter.py"),
        "the double enqueue in the outbox worker",
    ),
    Task(
        "Bring the thumbnail service cold start under two seconds",
        "the thumbnail service startup code",
        ("thumbnail_app.py", "model_loader.py", "cache_warmup.py", "config_reader.py", "health_probe.py"),
        "the eager model download at import time",
    ),
    Task(
        "Add per-key rate limiting to the public search API",
        "the search request pipeline",
        ("search_routes.py", "limiter.py", "redis_client.py", "quota_table.py", "openapi.yaml"),
        "the missing per-key counter",
    ),
    Task(
        "Find out why invoice PDF totals are sometimes one cent off",
        "the invoice rounding logic",
        ("pdf_renderer.py", "money.py", "tax_lines.py", "invoice_model.py", "test_rounding.py"),
        "the float rounding in the tax lines",
    ),
    Task(
        "Move the scheduler from cron strings to typed job definitions without dropping runs",
        "the scheduler configuration loader",
        ("scheduler.py", "cron_parser.py", "job_registry.py", "migrations.py", "runbook.md"),
        "the timezone offset in the cron parser",
    ),
)

# Ten ways of saying "I am going to search the code for {subject}". Each has well over 20
# meaningful words and shares few bigrams with the others: the paraphrased and cosmetic
# families pair them up, and every consecutive pair must stay under the 0.85 similarity
# line (tests/benchmark/test_dataset.py checks all 45 pairs stay below 0.5).
PARAPHRASES: tuple[str, ...] = (
    ("My plan is to run a project-wide text search for {subject}, because seeing the actual "
    "source lines will tell me far more than any guess I could make from function names or "
    "folder layout alone."),
    ("Before touching anything I want to locate {subject} inside the repository; grepping "
    "every directory should reveal where it lives, who calls it, and which modules quietly "
    "depend on its current behaviour."),
    ("First move: hunt down {subject}. A broad search across all source folders ought to "
    "surface its definition plus every caller, giving me solid ground instead of vague "
    "assumptions about how requests flow through."),
    ("Locating {subject} comes before everything else here. Sweeping the whole tree with a "
    "search lets me read real code paths, so later conclusions rest on evidence rather "
    "than on hunches about the design."),
    ("I should scan the codebase looking for {subject}, since knowing exactly which file owns "
    "that logic narrows down where the defect could possibly hide and keeps me from "
    "wandering through unrelated packages."),
    ("Searching all repository files for {subject} seems like the sensible opening; once its "
    "home module turns up, reading it carefully will replace speculation with concrete "
    "knowledge of real control flow."),
    ("To get oriented, a full-text lookup for {subject} across every package is what comes "
    "first, because pinpointing its implementation gives each subsequent hypothesis "
    "something tangible to test against."),
    ("Rather than theorising, let me grep through every source folder until {subject} shows "
    "up; finding where it is defined anchors the investigation in code that actually runs "
    "in production today."),
    ("Job number one is finding {subject}. Combing through each directory with a search query "
    "should expose the responsible functions, after which reading them closely becomes "
    "possible and guessing becomes unnecessary."),
    ("Where does {subject} actually live? Running a search over the entire checkout answers "
    "that quickly, and reading its real implementation beats building mental models about "
    "code nobody here has opened yet."),
)

ALTERNATING_A: tuple[str, ...] = (
    ("Opening {artifact} to study how incoming payloads get validated before anything is "
    "written, since the error log points somewhere inside this module and I need the exact "
    "offending statement."),
    ("Back into {artifact} to trace that validation branch from top to bottom, because the "
    "stack trace still ends in this file and the precise failing expression remains unclear "
    "to me."),
)
ALTERNATING_B: tuple[str, ...] = (
    ("Quickest confirmation is the integration suite, so I am launching those tests now to "
    "check whether the failure shows up with the same fixtures continuous integration "
    "relies on."),
    ("Kicking off the integration suite again and watching for that failure, because a live "
    "reproduction teaches me more than staring at source code without running anything."),
)

PROGRESS_STEPS: tuple[str, ...] = (
    ("Searching the project for {subject} so I know which module really owns this behaviour "
    "before forming any theory about the fault."),
    ("Found it in {artifact}. Reading the function now: it pulls settings from a shared object "
    "that an earlier hook is expected to fill in on every call."),
    ("That shared object can be empty on the failing path, which explains the symptom and "
    "points straight at {target} as the thing to change."),
    ("Writing a regression test that exercises the failing path directly, so the fix is pinned "
    "by something executable instead of by my reading of the code."),
    ("The new test fails as predicted, confirming the diagnosis. Applying the change in "
    "{artifact} and rerunning the suite to make sure nothing else relied on the old "
    "behaviour."),
    ("Everything is green, forty-one tests passing. Summarising the root cause and the fix in "
    "the commit message so nobody has to rediscover {target} later."),
)

TEMPLATE_PROGRESS = (
    "Now going through {artifact} looking for the legacy client call, reviewing its imports "
    "and every helper it defines one at a time, then writing down whether anything inside "
    "this particular module must be migrated before I continue with the remaining modules "
    "on my checklist."
)

BOILERPLATE = (
    "Based on the information provided so far, and after carefully reconsidering all of the "
    "evidence gathered across every previous stage of this investigation, comparing each "
    "competing explanation against the others before settling on any single conclusion, and "
    "keeping the original objective clearly in view the entire time, the next concrete action "
    "I intend to take at this point, having weighed all of those considerations, is the "
    "following one: "
)
BOILERPLATE_BODIES: tuple[str, ...] = (
    "open {artifact} directly.",
    "the hook fires one call too late.",
    "guard that branch explicitly.",
    "tests pass, forty one cases.",
)

TERSE_LOOP: tuple[str, ...] = (
    "Searching once more.",
    "One more lookup.",
    "Trying that search again.",
    "Let me look again.",
)

RETRY_THEN_RECOVER: tuple[str, ...] = (
    ("Running the integration suite to reproduce the reported failure and read the traceback "
    "myself instead of relying on the summary in the bug report."),
    ("That attempt stopped at a missing environment variable rather than at the bug, so the "
    "same command again with REDIS_URL exported should get past setup."),
    ("Setup succeeds now, and the real failure surfaces in {artifact}: a different error from "
    "the one reported, which changes where I should be looking."),
    ("Reading {artifact} around the failing assertion to see which helper supplies that value, "
    "because the mismatch suggests {target} is responsible."),
)

COSMETIC_GREP_ARGS: tuple[dict[str, Any], ...] = (
    {"path": "."},
    {"path": "./"},
    {"path": ".", "ignore_case": True},
    {"path": ".", "limit": 100},
    {"path": ".", "limit": 101},
    {"path": ".", "context_lines": 0},
)


def _llm(text: str) -> dict[str, Any]:
    # LLM steps carry no input, like the seed's dataset: the judge sees the output only.
    return {"type": "llm", "name": "reason", "output": text, "children": []}


def _tool(name: str, args: dict[str, Any], output: str) -> dict[str, Any]:
    return {"type": "tool", "name": name, "input": args, "output": output, "children": []}


Steps = list[dict[str, Any]]


def _paraphrased(rng: random.Random, task: Task) -> Steps:
    steps: Steps = []
    for text in rng.sample(PARAPHRASES, 4):
        steps.append(_llm(text.format(subject=task.subject)))
        steps.append(_tool("grep", {"pattern": task.subject, "path": "."}, "0 results"))
    return steps


def _terse(rng: random.Random, task: Task) -> Steps:
    steps: Steps = []
    for text in rng.sample(TERSE_LOOP, 4):
        steps.append(_llm(text))
        steps.append(_tool("grep", {"pattern": task.target, "path": "."}, "0 results"))
    return steps


def _alternating(rng: random.Random, task: Task) -> Steps:
    artifact = rng.choice(task.artifacts)
    steps: Steps = []
    for r in range(3):
        steps.append(_llm(ALTERNATING_A[r % 2].format(artifact=artifact)))
        steps.append(_tool("read_file", {"path": artifact}, "212 lines"))
        steps.append(_llm(ALTERNATING_B[r % 2]))
        steps.append(_tool("run_tests", {"suite": "integration"}, "2 failed"))
    return steps


def _cosmetic(rng: random.Random, task: Task) -> Steps:
    steps: Steps = []
    for text, extra in zip(rng.sample(PARAPHRASES, 6), COSMETIC_GREP_ARGS):
        steps.append(_llm(text.format(subject=task.subject)))
        steps.append(_tool("grep", {"pattern": task.target, **extra}, "0 results"))
    return steps


def _verbatim(rng: random.Random, task: Task) -> Steps:
    text = rng.choice(PARAPHRASES).format(subject=task.subject)
    steps: Steps = []
    for _ in range(4):
        steps.append(_llm(text))
        steps.append(_tool("grep", {"pattern": task.subject, "path": "."}, "0 results"))
    return steps


def _identical_tool(rng: random.Random, task: Task) -> Steps:
    text = rng.choice(PARAPHRASES).format(subject=task.subject)
    steps: Steps = []
    for _ in range(6):
        steps.append(_llm(text))
        steps.append(_tool("run_tests", {"suite": "unit", "k": "timeout"}, "2 failed"))
    return steps


def _progress(rng: random.Random, task: Task) -> Steps:
    artifact = rng.choice(task.artifacts)
    tools_after = {
        0: _tool("grep", {"pattern": task.subject, "path": "."}, f"{artifact}:57"),
        1: _tool("read_file", {"path": artifact}, "212 lines"),
        3: _tool("write_file", {"path": f"test_{artifact}"}, "written"),
        4: _tool("run_tests", {"suite": "unit"}, "41 passed"),
    }
    steps: Steps = []
    for i, text in enumerate(PROGRESS_STEPS):
        steps.append(_llm(text.format(subject=task.subject, artifact=artifact, target=task.target)))
        if i in tools_after:
            steps.append(tools_after[i])
    return steps


def _template(rng: random.Random, task: Task) -> Steps:
    steps: Steps = []
    for artifact in task.artifacts:
        steps.append(_llm(TEMPLATE_PROGRESS.format(artifact=artifact)))
        steps.append(_tool("read_file", {"path": artifact}, "ok"))
    return steps


def _boilerplate(rng: random.Random, task: Task) -> Steps:
    artifact = rng.choice(task.artifacts)
    return [_llm(BOILERPLATE + body.format(artifact=artifact)) for body in BOILERPLATE_BODIES]


def _retry(rng: random.Random, task: Task) -> Steps:
    artifact = rng.choice(task.artifacts)
    steps: Steps = [
        _llm(text.format(artifact=artifact, target=task.target)) for text in RETRY_THEN_RECOVER
    ]
    steps.insert(1, _tool("run_tests", {"suite": "integration"}, "error: REDIS_URL unset"))
    steps.insert(3, _tool("run_tests", {"suite": "integration"}, "2 failed"))
    return steps


@dataclass(frozen=True)
class Family:
    """One family: what it isolates, its two labels and how to build an instance."""

    name: str
    isolates: str
    loop: bool
    stagnation: bool
    build: Callable[[random.Random, Task], Steps]


FAMILIES: tuple[Family, ...] = (
    Family(
        "paraphrased_loop",
        "one intent reworded at every step: word-bigram overlap and SequenceMatcher stay low",
        True, True, _paraphrased,
    ),
    Family(
        "terse_loop",
        "retries shorter than 20 meaningful words, which the lexical check never compares",
        True, True, _terse,
    ),
    Family(
        "alternating_loop",
        "an A-B-A-B cycle: neighbouring steps differ, so comparing neighbours finds nothing",
        True, True, _alternating,
    ),
    Family(
        "cosmetic_args_loop",
        "one search repeated with a cosmetic argument change that resets the exact-match count",
        True, True, _cosmetic,
    ),
    Family(
        "verbatim_loop",
        "the same reasoning word for word: the lexical check already catches it",
        True, True, _verbatim,
    ),
    Family(
        "identical_tool_loop",
        "one tool with identical arguments six times: the lexical check already catches it",
        True, True, _identical_tool,
    ),
    Family(
        "progress",
        "a healthy run that must not be flagged",
        False, False, _progress,
    ),
    Family(
        "template_progress",
        "five different files described in one sentence shape: looks repetitive, is real work",
        False, False, _template,
    ),
    Family(
        "boilerplate_progress",
        "a fixed preamble on every step over short tails that each move the work forward",
        False, False, _boilerplate,
    ),
    Family(
        "retry_then_recover",
        "one command tried twice, then a new approach: an ordinary retry, not a loop",
        False, False, _retry,
    ),
)


def make_rows(per: int = DEFAULT_PER, seed: int = DEFAULT_SEED) -> list[dict[str, Any]]:
    """Every family's instances as bench rows, in family order then instance order.

    One shared ``random.Random(seed)`` is consumed in that order, so rows depend only on
    ``(per, seed)``.
    """
    if per < 1:
        raise ValueError(f"per must be at least 1, not {per}")
    rng = random.Random(seed)
    rows = []
    for family in FAMILIES:
        for instance in range(per):
            task = TASKS[instance % len(TASKS)]
            rows.append(
                {
                    "trace_id": f"{family.name}-{instance:02d}",
                    "family": family.name,
                    "isolates": family.isolates,
                    "loop": family.loop,
                    "stagnation": family.stagnation,
                    "goal": task.goal,
                    "root": {
                        "type": "agent",
                        "name": "engineer",
                        "input": task.goal,
                        "output": "",
                        "children": family.build(rng, task),
                    },
                }
            )
    return rows


def dump_rows(rows: Sequence[dict[str, Any]]) -> str:
    """JSONL text: one row per line, non-ASCII kept as is, a newline after each."""
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
