"""HALLUCINATION's reading of printed tables and log values in coding and data runs (a psql
result, a DataFrame, a Series, describe(), a build's "23m37s"): which record and which
column a number belongs to. Pure checks on small hand-made texts (no model)."""

from __future__ import annotations

from semloop.judge.local._claims import aligned_records, quantities
from semloop.judge.local._figures import _counts_named_after, _sibling_units, _unstated_releases
from semloop.judge.local._grounding import _QUERY, _Evidence
from semloop.judge.local._records import _column_swap, _records, _row_swap
from semloop.judge.local._times import _log_durations

PSQL = """ region  | orders_q2 | orders_q3
---------+-----------+-----------
 APAC    |      4120 |      4736
 EMEA    |      6030 |      5791
 LATAM   |      1875 |      2250
(3 rows)"""

FRAME = """             mape   bias
model
lightgbm_v3  0.121  0.018
prophet_bl   0.148  0.041"""

SERIES = """course
Security Basics     91
Code of Conduct     78
Data Privacy 101    64
dtype: int64"""

DESCRIBE = """        latency_ms     retries
count  48213.000000  48213.000000
mean     183.412071      0.211887
50%      104.000000      0.000000
max     9871.000000      5.000000"""


def _ev(text: str) -> _Evidence:
    texts = [aligned_records(text)]
    ev = _Evidence(texts, "")
    ev.records = _records(texts)
    return ev


def test_printed_tables_are_read_as_records() -> None:
    assert "region: EMEA; orders q2: 6030; orders q3: 5791" in aligned_records(PSQL).splitlines()
    assert "model: prophet_bl; mape: 0.148; bias: 0.041" in aligned_records(FRAME).splitlines()
    assert "course: Data Privacy 101; value: 64" in aligned_records(SERIES).splitlines()
    # describe(): a record per column, its percentiles by name.
    assert aligned_records(DESCRIBE).splitlines()[0].startswith("column: latency ms; count: 48213")
    assert "median: 104.000000" in aligned_records(DESCRIBE)
    # A log's lines are no table: kept as they are.
    log = "collected 214 items\n\ntests/test_fx.py ....F.  [ 28%]\ntests/test_io.py ......  [ 52%]"
    assert aligned_records(log) == log


def test_a_number_said_of_another_column_of_its_row() -> None:
    ev = _ev(PSQL)
    assert "orders q2" in _column_swap("EMEA had 6,030 orders in Q3.", ev)
    assert _column_swap("EMEA had 5,791 orders in Q3, down from 6,030 in Q2.", ev) == ""


def test_a_number_said_of_another_row() -> None:
    ev = _ev(SERIES)
    assert "code of conduct" in _row_swap("Security Basics 91%, Data Privacy 101 78%, and Code of Conduct 64%.", ev)
    assert _row_swap("Security Basics 91%, Code of Conduct 78%, and Data Privacy 101 64%.", ev) == ""
    # describe()'s statistics cited together are no swap.
    ev = _ev(DESCRIBE)
    assert _row_swap("Retries are rare: at least three quarters were never retried, at most 5.", ev) == ""


def test_a_log_duration_is_read_in_its_parts_and_in_total() -> None:
    values = {(q.value, q.unit) for q in _log_durations("wall_time: 23m37s")}
    assert {(23.0, "m"), (37.0, "s"), (1417.0, "s")} <= values
    assert _log_durations("shm_size: 512m") == []


def test_a_count_of_the_items_named_after_it() -> None:
    claim = "Two packages depend on it, openai and respx, and it pulls in five: anyio, certifi, httpcore, idna and sniffio."
    assert all(_counts_named_after(q, claim) for q in quantities(claim))
    assert not _counts_named_after(quantities("Three tests failed, test_a and test_b.")[0],
                                   "Three tests failed, test_a and test_b.")


def test_a_query_the_agent_ran_states_no_polarity() -> None:
    assert _QUERY.search("query: SELECT COUNT(*) FROM module_progress WHERE completed_at IS NULL")
    assert not _QUERY.search("You can select a seat from the map once checked in.")


def test_a_release_no_text_states_whole() -> None:
    ev = _Evidence(["Controller firmware at 5.11.0.", "versions: 3.0.0\nversions: 3.2.1\nversions: 4.0.0-rc.2"], "")
    assert _unstated_releases("This was fixed in firmware 5.11.2.", ev) == ["5.11.2"]
    assert _unstated_releases("The newest stable version is 4.0.0.", ev) == ["4.0.0"]
    assert _unstated_releases("The 4.0.0 release candidates are outside ^3.0.0, which gets 3.2.1.", ev) == []


def test_a_unit_another_key_of_the_record_gives() -> None:
    assert _sibling_units("distance: 18.2; distance units: mi; duration s: 1330") == [(18.2, "mi")]
    assert _sibling_units("qty: 3; unit: each") == []


def test_a_row_called_by_a_word_of_its_identifier() -> None:
    text = ("scopes name: Physics.Step; scopes avg ms: 6.1\nscopes name: Render.ShadowDepth; scopes avg ms: 5.2\n"
            "scopes name: Anim.Update; scopes avg ms: 4.1\nscopes name: Render.Foliage; scopes avg ms: 2.9")
    ev = _Evidence([text], "")
    ev.records = _records([text])
    assert "anim.update" in _row_swap("The shadow pass costs 5.2 ms, ahead of physics at 4.1 ms.", ev)
    assert _row_swap("Physics costs 6.1 ms, ahead of the shadow pass at 5.2 ms.", ev) == ""
