"""HALLUCINATION on causes read from blind40 (voice agents, whose answers are read out) and
blind40b (data-analytics agents answering from queries and spreadsheets), each in a domain
of its own here. False alarms: figures said in words where words alone cannot write them
(an hour and its minutes, a decimal point, an "and" inside a number, cents after the
currency, digits said one by one); a word put in capitals for stress; a country a record
names by its code in a field; a CSV with a line after its rows, or with one row under a
header of field names; amounts scaled in another language's word or in lakh; "$937K"; the
bare numbers of a working that restate the claim's scaled amounts. Recall: a spoken time
that is not the record's is still caught."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

from semloop.judge.local._answerer import Embed
from semloop.judge.local._claims import quantities, spoken_numbers
from semloop.judge.local._grounding import _Evidence
from semloop.judge.local._records import _unpaired

from .conftest import found


def test_an_hour_and_its_minutes_said_in_words_is_a_clock_time(embed: Embed) -> None:
    visit = '{"engineer": "K. Mensah", "window_start": "09:15", "window_end": "11:00"}'
    told = "The engineer will come between nine-fifteen and eleven o'clock."
    assert found(embed, "When is the engineer coming?", told, tool=visit).get("numbers", 0) == 0


def test_a_spoken_time_the_record_does_not_give_is_still_caught(embed: Embed) -> None:
    visit = '{"engineer": "K. Mensah", "window_start": "08:10", "window_end": "11:00"}'
    told = "The engineer arrives at eight-forty in the morning."
    assert found(embed, "When is the engineer coming?", told, tool=visit).get("numbers", 0) > 0


def test_a_decimal_point_said_in_words(embed: Embed) -> None:
    usage = "account=TEL-5520; period=2026-02; data_used_mb=3480"
    told = "You've used about three point five thousand megabytes this month."
    assert spoken_numbers(told) == "You've used about 3.5 thousand megabytes this month."
    assert found(embed, "How much data did I use?", told, tool=usage).get("numbers", 0) == 0


def test_cents_said_after_the_currency_and_an_and_inside_the_number(embed: Embed) -> None:
    bill = '{"invoice": "W-88120", "amount_due_usd": 306.20, "due": "2026-04-02"}'
    told = "Your water bill is three hundred and six dollars twenty, due on the second of April."
    assert found(embed, "How much is my water bill?", told, tool=bill).get("numbers", 0) == 0


def test_digits_said_one_by_one(embed: Embed) -> None:
    trip = "TRAIN 407 DEP 14:05 PLATFORM 3 STATUS ON TIME"
    told = "You're on train four-oh-seven, leaving at 14:05 from platform 3."
    assert found(embed, "Which train am I on?", told, tool=trip).get("numbers", 0) == 0


def test_a_word_in_capitals_for_stress_is_no_acronym(embed: Embed) -> None:
    transfer = "HTTP 502 payments-core unavailable"
    told = "The transfer did not go through, so the money has NOT left your account."
    assert found(embed, "Did my transfer go out?", told, tool=transfer).get("names", 0) == 0


def test_a_country_named_by_its_code_in_a_records_field(embed: Embed) -> None:
    bill = "plan=Travel 20\nroaming_DE=18.40 EUR\ntotal=38.40 EUR"
    told = "Most of the extra is roaming in Germany, €18.40 of the €38.40."
    assert found(embed, "Why is my bill higher?", told, tool=bill).get("names", 0) == 0


def test_a_csv_with_a_line_after_its_rows_gives_its_column_total(embed: Embed) -> None:
    quote = "crate,volume_m3,price_usd\nA,1.2,410\nB,0.8,290\nC,2.0,655\nincoterm=FOB;valid_days=14"
    told = "The three crates come to $1,355 in total, FOB."
    assert found(embed, "What's the total for the crates?", told, tool=quote).get("numbers", 0) == 0


def test_a_csv_of_one_row_under_field_names_is_a_record(embed: Embed) -> None:
    rate = "pair,rate,source\nEURSEK,11.42,ecb_reference"
    told = "At the ECB reference rate of 11.42 SEK per euro, €2,000 is about SEK 22,840."
    assert found(embed, "What is €2,000 in kronor?", told, tool=rate).get("numbers", 0) == 0


def test_amounts_scaled_in_another_languages_word_or_in_lakh() -> None:
    assert [q.value for q in quantities("omzet €1,4 miljoen")] == [1.4e6]
    assert [q.value for q in quantities("ciro ₺2,87 milyon")] == [2.87e6]
    assert [round(q.value) for q in quantities("CTC ₹18.4 L")] == [1840000]


def test_an_amount_with_its_scales_letter_is_no_code(embed: Embed) -> None:
    sales = "region|revenue_usd\nNordics|318400"
    told = "Roughly $318K."
    assert found(embed, "Nordics revenue?", told, tool=sales).get("names", 0) == 0


def test_a_working_restates_the_claims_scaled_amounts(embed: Embed) -> None:
    kpis = "metric | value_eur\nreceivables | 6,300,000\nrevenue | 51,100,000"
    told = "Receivables of €6.3M against annual revenue of €51.1M give DSO = 6.3 / 51.1 × 365 ≈ 45 days."
    # 6.3 and 51.1 are the amounts; the rounded result is left to the working's own check.
    assert found(embed, "What's our DSO?", told, tool=kpis).get("numbers", 0) <= 1


def test_a_before_a_spoken_number_is_no_hour() -> None:
    told = "The depot is at a twenty-minute walk, and we won by a fifteen percent margin."
    assert spoken_numbers(told) == told


def test_the_pair_a_claim_never_made_is_named_whatever_the_set_order() -> None:
    # The names come out of sets; the one named must not hang on the hash seed.
    records = [SimpleNamespace(names={"rimba gaming", "garuda", "garuda esports"}),
               SimpleNamespace(names={"harimau", "nusantara five", "team harimau"})]
    for order in (records, records[::-1]):
        found_pair = _unpaired("Team Harimau face Garuda Esports on Saturday",
                               cast(_Evidence, SimpleNamespace(records=order)))
        assert found_pair == "the context never pairs team harimau with garuda esports"
