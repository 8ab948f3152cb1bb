"""HALLUCINATION on causes that recur across outside authors' sets (blind26..34, dev28..31,
gen32..35), each in a domain of its own here: a count of the listed records in one state
(a result, a status, a yes or no) that as many records of the list do not match; outputs
printed with HTTP headers, as JSON Lines or as a CSV with quoted cells, and a measure nested
as {value, unit}, read as records; a UTC instant copied as a city's local time, told after a
clock range or as "local <city> time"."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed

from .conftest import found


def test_a_count_of_the_records_in_one_state_is_checked_against_the_list(embed: Embed) -> None:
    audits = {"audits": [{"site": "Leith", "result": "FAIL"}, {"site": "Govan", "result": "PASS"},
                         {"site": "Dundee", "result": "FAIL"}, {"site": "Perth", "result": "FAIL"},
                         {"site": "Ayr", "result": "PASS"}]}
    # The state after the counted noun ("failed"), or a yes-no key named by its own words.
    assert found(embed, "how many failed?", "Two sites failed the audit: Leith and Dundee.", tool=audits)["bound"] == 1
    assert found(embed, "how many failed?", "Three sites failed the audit: Leith, Dundee and Perth.",
                 tool=audits).get("bound", 0) == 0
    # "5 sites" is the whole list; a narrowed count ("after the retest") is not read.
    assert found(embed, "how many?", "All 5 sites were audited.", tool=audits).get("bound", 0) == 0
    crews = "crew,lead,briefed\nRed,Ana,yes\nBlue,Ben,no\nGold,Cy,yes\nTeal,Di,no"
    assert found(embed, "who's briefed?", "Three of the crews have briefed.", tool=crews)["bound"] == 1
    assert found(embed, "who's briefed?", "Two of the four crews have briefed.", tool=crews).get("bound", 0) == 0


def test_a_response_printed_with_its_headers_is_read_as_its_body(embed: Embed) -> None:
    raw = ('HTTP/1.1 200 OK\nContent-Type: application/json\n\n'
           '{"permit": "HB-77", "fee": {"amount": 310.0, "currency": "NZD"}}')
    assert found(embed, "fee?", "The fee for permit HB-77 is USD 310.00.", tool=raw)["numbers"] >= 1
    assert found(embed, "fee?", "The fee for permit HB-77 is NZD 310.00.", tool=raw).get("numbers", 0) == 0


def test_a_measure_whose_unit_a_sibling_key_gives_keeps_it(embed: Embed) -> None:
    bale = {"bale": "B-12", "mass": {"value": 410, "unit": "kg"}}
    assert found(embed, "how heavy?", "Bale B-12 weighs 410 lb.", tool=bale)["numbers"] >= 1
    assert found(embed, "how heavy?", "Bale B-12 weighs 410 kg (about 904 lb).", tool=bale).get("numbers", 0) == 0


def test_a_zone_told_after_a_range_is_its_starts_too(embed: Embed) -> None:
    webinar = {"webinar": "W-31", "start": "2026-03-10T17:00:00Z", "end": "2026-03-10T18:00:00Z"}
    assert found(embed, "when in Tokyo?", "Webinar W-31 runs 17:00–18:00 Tokyo time on 10 March.",
                 tool=webinar)["bound"] == 1
    assert found(embed, "when in Tokyo?", "Webinar W-31 runs 02:00–03:00 Tokyo time on 11 March.",
                 tool=webinar).get("bound", 0) == 0


def test_json_lines_and_a_quoted_csv_cell_are_read_as_records() -> None:
    from semloop.judge.local._claims import delimited_records, tool_text

    lines = '{"pen": "P1", "ewes": 40}\n{"pen": "P2", "ewes": 38}'
    assert tool_text(lines).splitlines()[:2] == ["pen: P1; ewes: 40", "pen: P2; ewes: 38"]
    table = 'lot,grade,note\n"L-1","A","dry, clean"\n"L-2","B","wet"'
    assert "note: dry, clean" in delimited_records(table)


def test_a_zone_told_as_local_city_time_is_checked(embed: Embed) -> None:
    ferry = {"sailing": "F-8", "depart_utc": "2026-07-02T05:15:00Z"}
    assert found(embed, "when?", "Sailing F-8 leaves at 05:15 local Athens time.", tool=ferry)["bound"] == 1
    assert found(embed, "when?", "Sailing F-8 leaves at 08:15 local Athens time.", tool=ferry).get("bound", 0) == 0
