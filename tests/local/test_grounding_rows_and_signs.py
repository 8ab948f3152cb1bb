"""HALLUCINATION's reading of query rows, signed changes, ages, lists and premises: the
pure checks, on small hand-made texts (no model)."""

from __future__ import annotations

import json

from semloop.judge.local._claims import (
    contradicts,
    key_terms,
    keyed_scales,
    negation_scope,
    quantities,
    tool_text,
)
from semloop.judge.local._contradictions import _premise
from semloop.judge.local._figures import _inexact, _turned, _worked_out
from semloop.judge.local._grounding import _Evidence
from semloop.judge.local._offers import _misfiled
from semloop.judge.local._records import _records
from semloop.judge.local._times import _age_from_year


def test_rows_without_column_names_are_one_record_each() -> None:
    text = tool_text(json.dumps({"rows": [["DAL-02", 1204], ["ATL-01", 987]], "row_count": 2}))
    assert "rows col a: DAL-02; rows col b: 1204" in text.splitlines()
    names = [r.names for r in _records([text])]
    assert frozenset({"dal-02"}) in names and frozenset({"atl-01"}) in names


def test_regardless_of_whether_holds_either_way() -> None:
    context = "All parents, regardless of whether they gave birth, are entitled to 12 weeks of leave."
    assert contradicts("As a non-birthing parent you get 12 weeks of leave", context, 1) == ""
    assert contradicts("The deposit is non-refundable, paid at check-in",
                       "A refundable deposit is paid at check-in.", 1)


def test_a_negated_word_the_question_uses_is_its_premise() -> None:
    assert _premise("birth", "How many days do I get as the non-birthing parent?")
    assert not _premise("birth", "How many days of parental leave do I get?")


def test_business_days_are_five_a_week() -> None:
    (q,) = quantities("within 10 business days")
    assert (q.value, q.unit) == (10.0, "workday")


def test_an_age_counts_from_a_year_the_context_gives() -> None:
    ev = _Evidence(["roof year: 2002; last claim: 2024-03-01"], "any red flags?")
    claim = "the roof is 24 years old (installed 2002)"
    stated = quantities(claim)
    assert _age_from_year(stated[0], claim, stated, ev)
    wrong = "the roof is 14 years old (installed 2002)"
    assert not _age_from_year(quantities(wrong)[0], wrong, quantities(wrong), ev)


def test_a_rise_where_the_data_change_is_negative() -> None:
    ev = _Evidence(["metric: conversion; change pct: -8.8"], "how did conversion do?")
    assert _turned("Conversion rose 8.8% month over month.", ev)
    assert not _turned("Conversion fell 8.8% month over month.", ev)


def test_an_exact_figure_beside_its_rounded_form() -> None:
    assert _inexact("About 1,300 are in stock, 1,312 precisely.", ["1,312"])
    assert not _inexact("About 1,300 are in stock, 1,297 precisely.", [])


def test_an_item_of_another_list() -> None:
    text = ("hoa includes: trash\nhoa includes: snow removal\nhoa includes: exterior maintenance\n"
            "utilities tenant paid: water\nutilities tenant paid: gas")
    ev = _Evidence([text], "does the HOA include water?")
    assert _misfiled("HOA dues cover water, trash and exterior maintenance.", ev)
    assert not _misfiled("HOA dues cover trash, snow removal and exterior maintenance.", ev)


def test_after_a_number_is_a_duration() -> None:
    assert not _worked_out("Your account locks after 5 failed attempts.", "")
    assert _worked_out("After the discount it is $40.", "")


def test_code_literals_are_no_names_and_deny_nothing() -> None:
    assert "false" not in key_terms("so the branch where flag is False is taken")
    assert negation_scope("Note: chunks=None (default) means it is lazy loaded") == (frozenset(), frozenset())


def test_a_key_may_name_the_scale_of_its_amount() -> None:
    assert keyed_scales("q3 bookings meur: 4.2; region: DACH") == [4.2e6]
    assert keyed_scales("sales millions: 3.1") == [3.1e6]
    assert keyed_scales("top k: 5; distance m: 40") == []
