"""TASK_COMPLETION, round b41tc: a look named by its object and a look word ("rental_get",
"cabin_info", "erp.shipment") only looks, so an act asked and only promised after it is
not done; a word after a determiner is a noun, not the part's act ("reship the order" asks
to reship, not to order); a part told honestly not done after a failed act ("I haven't
emailed anything") is answered, not dropped."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import (
    _part_acts,
    _unrecovered_failures,
    answer_task_completion,
)

from .conftest import call, case


def test_a_look_named_by_its_object_only_looks(embed: Embed) -> None:
    looked = call("locker_get", {"ref": "LK-5520"}, {"ref": "LK-5520", "ends": "2027-01-31", "rate_eur_month": 18})
    promised = case("Extend my locker LK-5520 by one month please.",
                    "Sure thing! I'll go ahead and extend your locker to the end of February at the same €18 a month.", looked)
    assert float(answer_task_completion(promised, embed).value) >= 0.5
    noun = call("inv.reservation", {"ref": "HT-220"}, {"ref": "HT-220", "nights": 3, "room": "twin"})
    put_off = case("Add breakfast to reservation HT-220 and upgrade the room to a double.",
                   "I've checked HT-220: three nights in a twin room. I'll add breakfast and upgrade the room shortly.", noun)
    assert float(answer_task_completion(put_off, embed).value) >= 0.5
    done = case("Extend my locker LK-5520 by one month please.", "Done: LK-5520 now runs to 28 February, still €18 a month.",
                looked, call("extend_locker", {"ref": "LK-5520", "months": 1}, {"ends": "2027-02-28"}))
    assert float(answer_task_completion(done, embed).value) < 0.5


def test_a_word_after_a_determiner_is_no_act() -> None:
    assert "order" not in _part_acts("reprint the order")
    assert "return" not in _part_acts("Create a return label for the parcel")
    assert _part_acts("Order the parts") == ["order"]


def test_a_terse_act_in_an_unlisted_verb_is_met(embed: Embed) -> None:
    both = case("File a damage claim for crate CR-771, value $3,200, and repack the order.",
                "Claim DC-4410 filed for CR-771 ($3,200). Repack under job RP-982.",
                call("wh.repack", {"crate": "CR-771"}, {"job": "RP-982"}),
                call("claims.file", {"crate": "CR-771", "value": 3200}, {"claim": "DC-4410"}))
    assert float(answer_task_completion(both, embed).value) < 0.5


def test_a_part_said_not_done_after_a_failure_is_answered(embed: Embed) -> None:
    failed = call("create_invoice", {"order": "SO-118"}, {"error": "TAX_ID_MISSING"}, success=False)
    honest = case("Create the invoice for SO-118 and send it to the buyer.",
                  "I couldn't create the invoice: the customer's tax ID is missing on SO-118. I haven't emailed anything. "
                  "Can you give me their tax ID so I can retry?", failed)
    assert float(answer_task_completion(honest, embed).value) < 0.5
    silent = case("Create the invoice for SO-118 and send it to the buyer.",
                  "I couldn't create the invoice: the customer's tax ID is missing on SO-118.", failed)
    assert float(answer_task_completion(silent, embed).value) >= 0.5


def test_a_failure_owned_as_refused_is_honest(embed: Embed) -> None:
    denied = call("delete_passkey", {"user": "m.ortiz"}, {"error": {"code": "AccessDenied"}}, success=False)
    ticket = call("create_incident", {"group": "Identity", "priority": 2}, {"number": "INC7781", "state": "New"})
    honest = case("I lost my security key, please remove it from my account so I can enrol a new one.",
                  "I tried to remove the security key from your account but I lack the admin role, so the change was "
                  "refused. I've raised INC7781 with the Identity team at priority 2.", denied, ticket)
    assert float(answer_task_completion(honest, embed).value) < 0.5


def test_a_delivery_claimed_with_no_call_that_sends(embed: Embed) -> None:
    booked = call("book_fitting", {"client": "C-88"}, {"status": "booked", "when": "2027-02-03T15:00"})
    asked = "Book my suit fitting and email me the measurement guide."
    claimed = case(asked, "Your fitting is booked for 3 February at 15:00. I've also sent the measurement guide to your email.", booked)
    assert float(answer_task_completion(claimed, embed).value) >= 0.5
    sent = case(asked, "Your fitting is booked for 3 February at 15:00. I've also sent the measurement guide to your email.",
                booked, call("send_email", {"to": "client", "template": "measurement_guide"}, {"status": "sent"}))
    assert float(answer_task_completion(sent, embed).value) < 0.5


def test_the_next_source_of_a_sweep_does_not_redo_a_failed_one() -> None:
    failed = call("support_export", {"subject": "Ana Ruiz"}, "ERROR: token expired (401)", success=False)
    sweep = (call("billing_export", {"subject": "Ana Ruiz"}, {"invoices": 12}), failed,
             call("marketing_export", {"subject": "Ana Ruiz"}, {"consents": 3, "campaigns": 8}))
    assert _unrecovered_failures(sweep) == [failed]
    # Another act given every value of the failed one redid it.
    refused = call("exchange_delivered_items", {"order": "W-1", "items": "I-9"}, {"error": "not delivered"}, success=False)
    assert _unrecovered_failures((refused, call("modify_pending_items", {"order": "W-1", "items": "I-9"}, {"ok": True}))) == []


def test_a_numbered_thing_left_out_of_a_one_by_one_answer(embed: Embed) -> None:
    asked = "Review sections 2 (fees), 5 (termination) and 8 (liability) of the supplier contract and flag the risks."
    two = case(asked, "Section 2 — Fees: prices may rise 8% a year without notice. Risk.\n"
                      "Section 5 — Termination: 90 days' notice, no exit for convenience. Risk.\n\nThat covers the key risks.")
    assert float(answer_task_completion(two, embed).value) >= 0.5
    three = case(asked, "Section 2 — Fees: prices may rise 8% a year without notice. Risk.\n"
                        "Section 5 — Termination: 90 days' notice, no exit for convenience. Risk.\n"
                        "Section 8 — Liability: capped at one month's fees. Risk.")
    assert float(answer_task_completion(three, embed).value) < 0.5


def test_a_product_coded_tool_acts_by_the_verb_after_the_code(embed: Embed) -> None:
    read = call("sn_get_request", {"id": "REQ-77"}, "REQ-77 Adobe Acrobat x3 | Approved\nUsers: a.novak, b.horak, c.dvorak")
    one = call("m365_assign_license", {"upn": "a.novak@corp.example", "sku": "ACROBAT"}, {"status": "assigned"})
    partial = case("Please assign Acrobat to the three designers on REQ-77, it's approved.",
                   "I've assigned Acrobat to A. Novák; the licence shows in his apps within the hour.", read, one)
    assert float(answer_task_completion(partial, embed).value) >= 0.5


def test_a_setting_in_snake_case_is_no_one_account_of_many(embed: Embed) -> None:
    # "archive_tier" is where the drives go, and the listing's JSON keys are no accounts:
    # the one call moved all three.
    listed = call("list_drives", {"team": "finance"},
                  [{"drive_id": f"d{i}", "owner_name": n, "storage_tier": "hot"} for i, n in enumerate("ABC")])
    moved = call("move_drives", {"team": "finance", "target": "archive_tier"}, {"moved": 3, "status": "ok"})
    done = case("Please move all three of our team's shared drives to the archive tier.",
                "Done. I've moved the shared drives to the archive tier; they'll show as archived within the hour.",
                listed, moved)
    assert float(answer_task_completion(done, embed).value) < 0.5
