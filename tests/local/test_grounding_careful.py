"""HALLUCINATION on careful answers a rule misread (a clock time said without am/pm, an
identifier's last digits, a date counted on or searched empty, a rest counted, a request,
a cause's given figure), each with its wrong twin, which must still be found."""

from __future__ import annotations

from semloop.case import ToolCall
from semloop.judge.local._answerer import Embed

from .conftest import found


def test_a_clock_time_without_am_or_pm_is_the_contexts_afternoon_time(embed: Embed) -> None:
    clinic = {"clinic": "Harbour Physio", "appointment": "Thu 3:20pm", "room": "B"}
    assert found(embed, "what time?", "Your session is at 3:20 in room B.", tool=clinic)["numbers"] == 0
    assert found(embed, "what time?", "Your session is at 3:50 in room B.", tool=clinic)["numbers"] == 1


def test_an_identifiers_last_digits_are_the_identifiers(embed: Embed) -> None:
    cards = [{"card_id": "CRD-00735521", "status": "frozen"}, {"card_id": "CRD-00619004", "status": "active"}]
    assert found(embed, "which card is frozen?", "Your card ending in 5521 is frozen.", tool=cards)["numbers"] == 0
    assert found(embed, "which card is frozen?", "Your card (…5521) is frozen.", tool=cards)["numbers"] == 0
    assert found(embed, "which card is frozen?", "Your card ending in 5527 is frozen.", tool=cards)["numbers"] == 1


def test_a_date_counted_from_the_contexts_by_a_term_the_answer_states(embed: Embed) -> None:
    lease = {"bike": "cargo e-bike", "lease_start": "2025-03-10", "lease_months": 18}
    ok = "Your 18-month lease began on 10 March 2025, so it runs out in September 2026."
    assert found(embed, "when is my bike lease over?", ok, tool=lease)["numbers"] == 0
    wrong = "Your 18-month lease began on 10 March 2025, so it runs out in March 2026."
    assert found(embed, "when is my bike lease over?", wrong, tool=lease)["numbers"] == 1
    course = {"course": "pottery", "first_class": "2026-02-04", "weeks": 5}
    ok = "Five weeks on from 4 February, the last class would be 11 March 2026."
    wrong = "Five weeks on from 4 February, the last class would be 18 March 2026."
    assert found(embed, "when does it end?", ok, tool=course)["numbers"] == 0
    assert found(embed, "when does it end?", wrong, tool=course)["numbers"] == 1


def test_a_claim_counting_both_sides_of_a_whole_denies_neither(embed: Embed) -> None:
    plots = {"site_id": "EF-12", "scheme": "Allotments", "plots_total": 50, "plots_rented_active": 42}
    ok = "84% of your plots are in use: 42 of 50 plots are rented to active members, leaving 8 unrented."
    assert found(embed, "how many plots are in use?", ok, tool=plots)["negation"] == 0
    # A denial with no count of the rest still contradicts the record.
    wrong = "All 50 plots are unrented by active members."
    assert found(embed, "how many plots are in use?", wrong, tool=plots)["negation"] == 1


def test_what_the_answer_asks_the_user_for_is_no_claim(embed: Embed) -> None:
    failed = tuple(ToolCall(name="find_payee", args={"name": name}, output='{"error": "payee not found"}',
                            success=False) for name in ("Greyhill Dairy", "Greyhill Dairy Ltd"))
    ask = ("I couldn't add the payee: both lookups returned 'payee not found' for Greyhill Dairy. It may "
           "be listed under a different name; if you can send me their IBAN or SWIFT code I'll try again.")
    assert found(embed, "pay greyhill dairy", ask, calls=failed)["names"] == 0
    # Said as a fact, the same names are the answer's own.
    told = "I couldn't add the payee. It is listed under their IBAN and SWIFT code instead."
    assert found(embed, "pay greyhill dairy", told, calls=failed)["names"] >= 1


def test_a_causes_figure_is_the_number_checks_not_a_word_it_lacks(embed: Embed) -> None:
    count = {"sku": "FLR-25", "on_hand_kg": 87.5, "adjust_reason": "stock count", "shortfall_kg": 12.5}
    ok = "Flour stock dropped to 87.5 kg because the nightly stock count found a 12.5 kg shortfall."
    assert found(embed, "why is flour stock down?", ok, tool=count)["cause"] == 0
    wrong = "Flour stock dropped to 87.5 kg because the supplier shorted the delivery by 12.5 kg."
    assert found(embed, "why is flour stock down?", wrong, tool=count)["cause"] == 1


def test_a_date_the_search_spanned_and_found_nothing_on_is_supported(embed: Embed) -> None:
    search = ToolCall(name="list_appointments", args={"patient": "P-3391", "from": "2026-03-02", "to": "2026-03-08"},
                      output='{"appointments": [{"id": "AP-77", "date": "2026-03-03"}], "count": 1}', success=True)
    ok = "There's nothing booked on Thursday 5 March; your only appointment that week is on Tuesday."
    assert found(embed, "am I seeing anyone thursday?", ok, calls=(search,))["numbers"] == 0
    # A day the search never spanned is no day it found empty.
    wrong = "There's nothing booked on Thursday 12 March; your only appointment that week is on Tuesday."
    assert found(embed, "am I seeing anyone thursday?", wrong, calls=(search,))["numbers"] == 1
    # Nor is a day of the span the claim books something on.
    said = "You're booked on Thursday 5 March as well as on Tuesday."
    assert found(embed, "am I seeing anyone thursday?", said, calls=(search,))["numbers"] == 1
