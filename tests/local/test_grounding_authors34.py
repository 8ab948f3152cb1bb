"""HALLUCINATION on the causes that recur across outside authors' sets (blind26..33b,
dev28..31, gen32..34), each in a domain of its own here: a deed reported done whose call
failed, whatever the verb; a title's full stop ("Dr.") that ends no sentence; a list's
"Surname, Initial" named by its surname; two records' values each given to the other; an
amount of a record in one currency said under another's mark."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._claims import is_hedged, split_claims

from .conftest import call, found


def test_a_deed_reported_done_whose_call_failed_is_unsupported(embed: Embed) -> None:
    looked = call("get_pet", {"pet": "Biscuit"}, {"pet": "Biscuit", "kennel_size": "M"})
    failed = call("reserve_kennel", {"pet": "Biscuit", "night": "2026-12-11"}, {"error": "no M kennels left"})
    assert found(embed, "board Biscuit friday", "All sorted: Biscuit's kennel is reserved for Friday night.",
                 calls=(looked, failed))["offered"] == 1
    # Said undone, or done by a later call that worked, it claims nothing unsupported.
    assert found(embed, "board Biscuit friday", "I couldn't reserve a kennel for Friday: none of the "
                 "medium kennels are left.", calls=(looked, failed)).get("offered", 0) == 0
    redone = call("reserve_kennel", {"pet": "Biscuit", "night": "2026-12-11", "size": "L"}, {"ok": True})
    assert found(embed, "board Biscuit friday", "Biscuit's kennel is reserved for Friday night.",
                 calls=(looked, failed, redone)).get("offered", 0) == 0


def test_a_title_ends_no_sentence() -> None:
    assert split_claims("Dr. Osei signed it off. Mrs. Lee countersigned.") == [
        "Dr. Osei signed it off.", "Mrs. Lee countersigned."]


def test_two_records_values_each_given_to_the_other(embed: Embed) -> None:
    ratings = "tutor | rating\n--- | ---\nMarsh, P | 8.1\nOkoye, T | 7.6"
    swapped = found(embed, "whose class rated higher?", "Okoye's class rated higher — 8.1 against Marsh's 7.6.",
                    tool=ratings)
    assert swapped["bound"] == 1
    right = found(embed, "whose class rated higher?", "Marsh's class rated higher — 8.1 against Okoye's 7.6.",
                  tool=ratings)
    assert right.get("bound", 0) == 0


def test_an_amount_under_another_currencys_mark_is_unsupported(embed: Embed) -> None:
    cabin = {"cabin": "Fjellstua 3", "currency": "NOK", "deposit": 4500, "nights": 3}
    assert found(embed, "deposit?", "The deposit for Fjellstua 3 is €4,500.", tool=cabin)["numbers"] >= 1
    assert found(embed, "deposit?", "The deposit for Fjellstua 3 is 4,500 NOK.", tool=cabin).get("numbers", 0) == 0


def test_a_source_marker_states_no_number(embed: Embed) -> None:
    sources = ("[1] Survey of Loch Arkaig: 14 ospreys fledged in 2025.", "[2] Ranger log: nest 3 failed in June.")
    # "[2]" is no operand: 14 x 2 would "support" an invented 28.
    assert found(embed, "how did the ospreys do?", "14 ospreys fledged in 2025 [1], though nest 3 failed [2].",
                 sources).get("numbers", 0) == 0
    assert found(embed, "how did the ospreys do?", "28 ospreys fledged in 2025 [1][2].", sources)["numbers"] == 1


def test_an_am_pm_after_a_range_joined_by_and_is_its_start_too(embed: Embed) -> None:
    visit = {"visit": "V-90", "window": "09:00-11:00"}
    assert found(embed, "when?", "The fitter comes between 9 and 11am.", tool=visit).get("numbers", 0) == 0
    assert found(embed, "when?", "The fitter comes between 8 and 11am.", tool=visit)["numbers"] >= 1


def test_a_value_given_to_a_key_the_record_leaves_unset(embed: Embed) -> None:
    hive = {"hive": "H-12", "inspection_due": "2026-12-10", "honey_harvest_date": None}
    assert found(embed, "hive H-12?", "Hive H-12 is due an inspection on 10 December and the honey harvest "
                 "date is 2 January.", tool=hive)["bound"] == 1
    # The same unsupported date for a key the record does set is the number checks' alone.
    assert found(embed, "hive H-12?", "Hive H-12 is due an inspection on 12 December.", tool=hive).get("bound", 0) == 0


def test_a_name_with_one_word_replaced_is_another_person(embed: Embed) -> None:
    crew = {"flight": "LX 318", "captain": "Ines Varga", "first_officer": "Tom Eklund"}
    assert found(embed, "who is flying?", "Captain Ines Moreau is in command of LX 318.", tool=crew)["bound"] == 1
    assert found(embed, "who is flying?", "Captain Varga is in command of LX 318, with Tom Eklund.",
                 tool=crew).get("bound", 0) == 0


def test_a_letter_with_a_stroke_is_its_plain_letter_in_an_ascii_record(embed: Embed) -> None:
    parcel = {"parcel": "P-1", "scan": {"depot": "Walbrzych (PL)", "at": "2026-03-07T14:00"}}
    assert found(embed, "where?", "Parcel P-1 was last scanned at the Wałbrzych depot on 7 March at 14:00.",
                 tool=parcel).get("names", 0) == 0
    hotel = {"booking": "B-9", "hotel": "Hotel Nordlys", "town": "Tromso"}
    assert found(embed, "where?", "Booking B-9 is at Hotel Nordlys in Tromsø.", tool=hotel).get("names", 0) == 0


def test_a_dot_between_thousands_groups_them(embed: Embed) -> None:
    refund = {"return_id": "R-7", "refund_net": 1280.0, "currency": "DKK"}
    assert found(embed, "how much?", "You'll get kr 1.280 back.", tool=refund).get("numbers", 0) == 0
    assert found(embed, "how much?", "You'll get kr 1.380 back.", tool=refund)["numbers"] >= 1


def test_an_appointment_called_a_consult_is_no_advice() -> None:
    assert not is_hedged("Your consult on 9 December is with Dr. Alana Whitfield.")
    assert is_hedged("Please consult your GP before changing the dose.")
