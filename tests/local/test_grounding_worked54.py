"""HALLUCINATION on false alarms of authors no rule round had read (blind48 … blind53b) and
of earlier ones with the same cause, each tested in a domain of its own here: a size in
bytes stated in KiB or MiB (blind39b, blind52b); a duration worked out to the second from
clock readings or a timer (blind46b, blind52b), and "four and a half minutes" read as one
number (blind52b; blind9, blind14 and blind40 write it too); a row's price times its count
and the rows' total (blind46, blind51); pesos and reais under a bare "$" (blind46,
blind33); a column's mean said "per agent" (blind52, blind46). Recall: a size, a duration,
a row's amount and a mean the evidence does not give are still caught, and a rows' total
only stands where the claim says it totals."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._claims import converted, quantities, unit_slip
from semloop.judge.local._records import _column_totals, _records, _row_amounts

from .conftest import found

_BACKUPS = {"backups": [{"volume": "vol-a", "size_bytes": 7340032},
                        {"volume": "vol-b", "size_bytes": 2097152},
                        {"volume": "vol-c", "size_bytes": 1048576}]}


def test_a_count_of_bytes_converts_to_its_binary_multiples() -> None:
    (q,) = quantities("7340032 bytes")
    assert q.unit == "byte"
    assert 7.0 in list(converted(q))  # MiB
    (k,) = quantities("3.5 KiB")
    assert 3584.0 in list(converted(k))  # bytes


def test_a_column_whose_key_names_bytes_totals_in_mib() -> None:
    texts = [("volume: vol-a; size bytes: 7340032\nvolume: vol-b; size bytes: 2097152\n"
              "volume: vol-c; size bytes: 1048576")]
    assert 10.0 in _column_totals(_records(texts))


def test_sizes_in_mib_of_a_bytes_column_are_no_invented_numbers(embed: Embed) -> None:
    told = "The three snapshots take 10 MiB between them: vol-a 7 MiB, vol-b 2 MiB and vol-c 1 MiB."
    assert found(embed, "How big are the snapshots?", told, tool=_BACKUPS).get("numbers", 0) == 0


def test_a_size_in_mib_the_bytes_do_not_give_is_still_caught(embed: Embed) -> None:
    told = "The three snapshots take 10 MiB between them: vol-a 6.5 MiB, vol-b 2 MiB and vol-c 1 MiB."
    assert found(embed, "How big are the snapshots?", told, tool=_BACKUPS).get("numbers", 0) > 0


def test_and_a_half_is_one_number_to_the_half() -> None:
    (q,) = quantities("roughly two and a half hours")
    assert (q.value, q.unit, q.place) == (2.5, "h", 0.5)
    (h,) = quantities("a half hour")
    assert h.value == 0.5


_JOB = {"job": "nightly-export", "queued_at": "2025-03-09T02:14:50Z", "started_at": "2025-03-09T02:27:20Z",
        "finished_at": "2025-03-09T02:41:50Z"}


def test_a_wait_worked_out_to_the_second_is_no_invented_number(embed: Embed) -> None:
    told = "The export waited about twelve and a half minutes in the queue (02:27) and finished at 02:41."
    assert found(embed, "How long did the export wait?", told, tool=_JOB).get("numbers", 0) == 0


def test_a_wait_the_readings_do_not_give_is_still_caught(embed: Embed) -> None:
    told = "The export waited about fifteen and a half minutes in the queue (02:27) and finished at 02:41."
    assert found(embed, "How long did the export wait?", told, tool=_JOB).get("numbers", 0) > 0


def test_a_timer_read_to_the_second_is_its_minutes_and_seconds(embed: Embed) -> None:
    timer = "worker-3 | draining | 00:12:07.415"
    told = "Worker 3 is still draining; it has been at it for 12m7s so far."
    assert found(embed, "Is worker 3 done?", told, tool=timer).get("numbers", 0) == 0
    wrong = "Worker 3 is still draining; it has been at it for 12m40s so far."
    assert found(embed, "Is worker 3 done?", wrong, tool=timer).get("numbers", 0) > 0


# Rows that price a count: a line's amount and the order's total (blind46, blind52), an
# amount in pesos or reais under a bare "$" (blind46, blind33), a column's mean said "per".

_CREWS = "crew,shifts,rate_mxn\nNorte,42,1150\nSur,37,1150\nCentro,18,1200\n"


def test_a_rows_price_times_its_count_is_its_amount(embed: Embed) -> None:
    told = "March pay by crew: Norte $48,300, Sur $42,550 and Centro $21,600."
    assert found(embed, "What do we owe the crews?", told, tool=_CREWS).get("numbers", 0) == 0


def test_the_rows_amounts_total_where_the_claim_totals_them(embed: Embed) -> None:
    told = "The three crews come to $112,450 for March."
    assert found(embed, "What do we owe the crews?", told, tool=_CREWS).get("numbers", 0) == 0


def test_a_row_amount_the_rows_do_not_give_is_still_caught(embed: Embed) -> None:
    told = "March pay by crew: Norte $48,300, Sur $45,550 and Centro $21,600."
    assert found(embed, "What do we owe the crews?", told, tool=_CREWS).get("numbers", 0) > 0


def test_a_rows_total_needs_a_word_that_totals(embed: Embed) -> None:
    told = "Yes, the crews were fully paid — $112,450 went out on Friday."
    assert found(embed, "Were the crews paid?", told, tool=_CREWS).get("numbers", 0) > 0


def test_only_a_count_is_priced_not_another_measure() -> None:
    amounts, _ = _row_amounts(_records(["bike: trail; frame cm: 52; daily rate eur: 30; deposit eur: 200"]))
    assert 1560.0 not in amounts  # 52 cm is no count of days
    amounts, _ = _row_amounts(_records(["lot: 7; kg: 250; inr per kg: 64"]))
    assert 16000.0 in amounts  # the price is per kg


def test_a_bare_dollar_sign_is_the_sign_of_pesos_and_reais() -> None:
    assert not unit_slip("$", ["clp"])
    assert not unit_slip("$", ["brl"])
    assert unit_slip("$", ["eur"])


def test_a_columns_mean_said_per_head_is_worked_out(embed: Embed) -> None:
    tickets = {"agents": [{"name": "Ines", "closed": 70}, {"name": "Bram", "closed": 38},
                          {"name": "Oona", "closed": 48}]}
    told = "The three agents closed 156 tickets, so 52 per agent."
    assert found(embed, "How many tickets per agent?", told, tool=tickets).get("numbers", 0) == 0
    wrong = "The three agents closed 156 tickets, so 61 per agent."
    assert found(embed, "How many tickets per agent?", wrong, tool=tickets).get("numbers", 0) > 0
