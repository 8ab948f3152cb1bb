"""HALLUCINATION on causes that recur across outside authors' sets (blind26..34, dev28..31,
gen32..35), each in a domain of its own here: a count of the listed records in one state
(a result, a status, a yes or no) that as many records of the list do not match."""

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
