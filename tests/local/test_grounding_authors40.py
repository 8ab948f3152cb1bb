"""HALLUCINATION on causes read from blind39 (a supervisor answering from its sub-agents'
reports), each in a domain of its own here. False alarms: an amount under the sign of a
currency that has one ("₽", "₱") where the record gives its code ("price_rub"); a result
the answer works out in an equation it writes ("a less b less c = r"); a record's compact
date ("20261128"); a clock time worked from the context's by durations the answer states
(an arrival plus a rest period); an identifier ("SB-8812") said in a handover's to-do,
which names its own record wherever it is said. Recall: a surname after an initial ("A.
Greco"), which is a name; a YAML-like output whose fields sit under their record's key, one
record's value said of another; an outcome ("passed") where a ticket's history, whose lines
open on their numbers ("#4419"), gives another ("CORRECTIONS REQUIRED")."""

from __future__ import annotations

from semloop.case import ToolCall
from semloop.judge.local._answerer import Embed

from .conftest import found


def test_a_sign_of_one_currency_is_its_code(embed: Embed) -> None:
    fare = {"booking": "TR-5521", "fare_rub": 48500, "seat_rub": 1200}
    told = "Your fare is ₽48,500 and the seat choice costs ₽1,200 more."
    assert found(embed, "What does the trip cost?", told, tool=fare).get("numbers", 0) == 0


def test_an_equation_the_answer_writes_gives_its_result(embed: Embed) -> None:
    payroll = "gross_eur: 4120\nincome_tax_eur: 906.40\nsocial_eur: 387.28"
    told = "Net pay: €4,120 less €906.40 tax less €387.28 social = €2,826.32."
    assert found(embed, "What is my net pay?", told, tool=payroll).get("numbers", 0) == 0


def test_a_records_compact_date_is_a_date(embed: Embed) -> None:
    batches = ("LOT      LINE  QTY   MFG-DATE  EXP-DATE\n"
               "B-40021  L2    1200  20260114  20270114\n"
               "B-40022  L3    0800  20260121  20270121")
    told = "Lot B-40022 was made on 21 January 2026 and expires on 21 January 2027."
    assert found(embed, "When does lot B-40022 expire?", told, tool=batches).get("numbers", 0) == 0


def test_a_clock_time_worked_from_the_contexts_by_the_answers_durations(embed: Embed) -> None:
    docked = '{"vessel": "MV Nordlys", "berthed_local": "21:50", "port": "Bergen"}'
    rule = "Crew rest: at least 8 h, counted from the end of the 45-minute mooring watch."
    told = ("Rest counts from the end of the 45-minute mooring watch, so it starts 22:35 and "
            "after 8 hours the crew may sail at 06:35 at the earliest.")
    assert found(embed, "When can the crew sail again?", told, context=rule, tool=docked).get("numbers", 0) == 0


def test_an_identifier_said_in_a_to_do_names_its_own_record(embed: Embed) -> None:
    ticket = ("priority: P3\nnodes: [DB-07, DB-09]\nactions:\n  - 09:10 failover DB-07\n  - 09:40 snapshot both nodes\n"
              "pending:\n  - restore RT-3310 (running)\n  - WAL lag review 08:00-10:00")
    told = "Morning shift: check RT-3310 result and finish the replication review."
    assert found(embed, "What's left for the next shift?", told, tool=ticket).get("bound", 0) == 0


def test_a_surname_after_an_initial_is_a_name(embed: Embed) -> None:
    reviewers = ("| reviewer | papers |\n|---|---|\n| K. Osei | 14 |\n| R. Lindqvist | 9 |")
    told = "Three reviewers handled the batch: K. Osei (14 papers), R. Lindqvist (9) and T. Moreau (6)."
    assert found(embed, "Who reviewed the batch?", told, tool=reviewers).get("names", 0) >= 1


def test_fields_under_their_records_key_are_one_record(embed: Embed) -> None:
    rota = ("match_day: 5\n  venue: Stadio Comunale, Lecco\n  kickoff: 15:00\n"
            "match_day: 6\n  venue: Campo Sportivo, Sondrio\n  kickoff: 14:30")
    told = "Match day 6: venue Stadio Comunale (Lecco), kickoff 14:30."
    assert found(embed, "Where and when is match day 6?", told, tool=rota).get("bound", 0) == 1


def test_an_outcome_the_tickets_history_gives_otherwise(embed: Embed) -> None:
    history = ("#2210  2026-05-04  ELECTRICAL INSP scheduled\n"
               "#2216  2026-05-06  ELECTRICAL INSP result: FAILED - panel not labelled; re-inspection required")
    told = "The electrical inspection passed on 6 May, so you can book the final."
    assert found(embed, "Did the electrical inspection pass?", told, tool=history).get("negation", 0) == 1


# From blind39b (coding and devops agents).

def test_a_value_of_another_record_than_the_one_named(embed: Embed) -> None:
    pods = ("NAME                      READY   STATUS             RESTARTS      AGE\n"
            "ingest-5d7f8c9b6-h2kzp    1/1     Running            0             5h\n"
            "ingest-5d7f8c9b6-q9wle    0/1     CrashLoopBackOff   23 (40s ago)  5h\n"
            "ingest-5d7f8c9b6-t4rvm    1/1     Running            1 (3h ago)    5h")
    described = "    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    1"
    told = "ingest-5d7f8c9b6-h2kzp is the one crashlooping — 23 restarts, last exit code 1."
    calls = (ToolCall(name="kubectl", args={}, output=pods, success=True),
             ToolCall(name="kubectl", args={}, output=described, success=True))
    assert found(embed, "Which ingest pod is crashlooping?", told, calls=calls).get("numbers", 0) >= 1


def test_milliseconds_the_context_gives_in_seconds(embed: Embed) -> None:
    latency = "metric: rpc_latency_seconds p99\nbefore 0.1312\nafter  0.2486"
    told = "p99 went from about 130 ms to about 250 ms."
    assert found(embed, "What happened to p99 latency?", told, tool=latency).get("numbers", 0) == 0


def test_since_an_event_is_a_time_not_a_cause(embed: Embed) -> None:
    query = ToolCall(name="bash", args={"cmd": "promql 'histogram_quantile(0.95, rpc_duration_seconds_bucket)' --at deploy-1h,now"},
                     output="deploy-1h  0.1794\nnow        0.3127", success=True)
    told = "p95 is about 310 ms on /search since the deploy (was ~180 ms before), so it's up roughly 130 ms."
    assert found(embed, "What's p95 on search now?", told, calls=(query,)).get("cause", 0) == 0


def test_a_releases_parts_are_no_numbers(embed: Embed) -> None:
    tree = "serde v1.0.215\n└── config-loader v0.7.3 (/src/crates/loader)"
    told = "serde 1.0.215 comes in through config-loader 0.7.3."
    assert found(embed, "Where does serde come from?", told, tool=tree).get("numbers", 0) == 0
