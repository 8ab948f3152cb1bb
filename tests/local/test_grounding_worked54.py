"""HALLUCINATION on false alarms of authors no rule round had read (blind48 … blind53b) and
of earlier ones with the same cause, each tested in a domain of its own here: a size in
bytes stated in KiB or MiB (blind39b, blind52b); a duration worked out to the second from
clock readings or a timer (blind46b, blind52b), and "four and a half minutes" read as one
number (blind52b; blind9, blind14 and blind40 write it too). Recall: a size, a duration
and a half the evidence does not give are still caught."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._claims import converted, quantities
from semloop.judge.local._records import _column_totals, _records

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
