"""HALLUCINATION on the causes that recur across outside authors' sets (blind26..33b,
dev28..31, gen32..34), each in a domain of its own here: a deed reported done whose call
failed, whatever the verb; a title's full stop ("Dr.") that ends no sentence; a list's
"Surname, Initial" named by its surname; two records' values each given to the other; an
amount of a record in one currency said under another's mark."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._claims import split_claims

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
