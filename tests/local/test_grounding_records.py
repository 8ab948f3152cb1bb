"""HALLUCINATION over agents' tool outputs: each cause read in real runs' fires and in
outside-written cases, a negative of it and a nearby positive, by what the checks find (the
evidence the head weighs). Records and their keys (yes/no keys against negated claims,
states, roles, values of another record, superlatives), codes spelt out as names, size and
currency codes, complements and totals, listed steps and items, actions claimed without a
call."""

from __future__ import annotations

import json

from semloop.case import ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._claims import contradicts, key_terms
from semloop.judge.local._records import _stated

from .conftest import found


def evidence(embed: Embed, answer: str, calls: list[ToolCall], question: str = "help?") -> dict[str, float]:
    return found(embed, question, answer, calls=tuple(calls))


def call(name: str, args: dict[str, object], output: object) -> ToolCall:
    return ToolCall(name, args, json.dumps(output), True)


def test_a_category_noun_offered_is_named_by_the_word_before_it(embed: Embed) -> None:
    policy = call("get_policy", {"id": "HO-88213"}, {"policy_id": "HO-88213", "water_damage": "covered",
                                                     "deductible": 500, "parking": "free"})
    assert evidence(embed, "Policy HO-88213 provides water damage coverage.", [policy]).get("offered", 0) == 0
    assert evidence(embed, "Parking is free, so it's your free allowance.", [policy]).get("offered", 0) == 0
    # The thing the category noun is of must still be the context's.
    assert evidence(embed, "Policy HO-88213 provides flood coverage.", [policy])["offered"] == 1
    assert evidence(embed, "Policy HO-88213 includes free lounge access.", [policy])["offered"] == 1


def test_a_cause_after_an_offer_word_is_no_offered_item(embed: Embed) -> None:
    booking = call("update_bags", {"id": "HT7Y2K"}, {"reservation_id": "HT7Y2K", "cabin": "economy",
                                                    "membership": "gold", "total_baggages": 2})
    said = "Bags: 2 added (all free since you're a gold member in economy)."
    assert evidence(embed, said, [booking]).get("offered", 0) == 0
    assert evidence(embed, said, [booking]).get("cause", 0) == 0
    assert evidence(embed, "Bags: 2 added, and it includes priority boarding.", [booking])["offered"] == 1


def test_a_denial_in_the_claim_s_own_words_agrees_with_a_record_s_no(embed: Embed) -> None:
    res = call("get_reservation_details", {"reservation_id": "QK2M7T"},
               {"reservation_id": "QK2M7T", "cabin": "economy", "insurance": "no", "status": None})
    for agrees in ("The record shows that travel insurance is not included on reservation QK2M7T.",
                   "There is no way to add insurance to reservation QK2M7T after booking."):
        assert evidence(embed, agrees, [res]).get("negation", 0) == 0, agrees
    for flipped in ("The record shows that travel insurance is included on reservation QK2M7T.",
                    "No, reservation QK2M7T has travel insurance, so you're covered."):
        assert evidence(embed, flipped, [res])["negation"] == 1, flipped


def test_a_function_word_after_a_spaced_dash_opens_a_clause() -> None:
    assert "if" not in key_terms("Patient ID — If you can find an old letter, that helps.")
    assert "since" not in key_terms("Cancel the order - Since it is pending, you get a refund.")
    assert "they" not in key_terms("Transfer you to an agent – They may have more options.")
    # A name after a dash is still a name.
    assert {"boston", "arslan"} <= key_terms("Monday 14:00 — Boston clinic with Dr Arslan.")


def test_other_numbers_digits_do_not_bind_a_number_to_another_record(embed: Embed) -> None:
    user = call("get_user_details", {"user_id": "mara_7"}, {
        "user_id": "mara_7", "payment_methods": {"credit_card_1180": {
            "source": "credit_card", "brand": "visa", "last_four": "4821"}},
        "reservations": ["ZX81PQ", "LM22RT"]})
    legs = [call("get_reservation_details", {"reservation_id": r}, {
        "reservation_id": r, "cabin": "business", "total_baggages": 1, "flights_count": 4,
        "payment_history": [{"payment_id": "credit_card_1180", "amount": amount}]})
        for r, amount in (("ZX81PQ", 637), ("LM22RT", 750))]
    said = "Total charged to Visa ending in 4821: $1,387"
    assert evidence(embed, said, [user, *legs], "upgrade flights longer than 4 hours to business").get("bound", 0) == 0
    # A value the records give for another thing (a payment's amount as the card's
    # ending) is still bound to it.
    wrong = "Total charged to Visa ending in 637: $1,387"
    assert evidence(embed, wrong, [user, *legs], "upgrade flights longer than 4 hours to business")["bound"] == 1


def test_none_of_a_thing_is_read_only_where_one_record_gives_the_key(embed: Embed) -> None:
    other = call("get_reservation_details", {"reservation_id": "PP01AA"},
                 {"reservation_id": "PP01AA", "cabin": "basic_economy", "total_baggages": 0})
    mine = call("update_reservation_baggages", {"reservation_id": "HT7Y2K", "total_baggages": 3},
                {"reservation_id": "HT7Y2K", "cabin": "economy", "total_baggages": 3})
    assert evidence(embed, "Total baggages: 3 (all free)", [other, mine]).get("negation", 0) == 0
    # One record alone: its nothing still denies the thing.
    assert evidence(embed, "Total baggages: 3 (all free)", [other])["negation"] == 1


def test_a_name_spelt_out_from_the_context_s_code_is_named(embed: Embed) -> None:
    route = json.dumps({"legs": [{"from": "LIS", "to": "BCN", "dep": "09:05"}]})
    assert found(embed, "where do I fly?", "You fly from Lisbon to Barcelona at 09:05.", tool=route)["names"] == 0
    assert found(embed, "where do I fly?", "You fly from Lisbon to Madrid at 09:05.", tool=route)["names"] == 1
    ctx = "The exam starts at 10:00 GMT on 3 March."
    assert found(embed, "when?", "It starts at 10 am Greenwich Mean Time on 3 March.", ctx)["names"] == 0
    assert found(embed, "when?", "It starts at 10 am Eastern Standard Time on 3 March.", ctx)["names"] > 0


def test_a_false_key_is_negated_before_its_predicate() -> None:
    assert _stated("vets accepting new clients: False") == "vets not accepting new clients"
    assert _stated("parking available: False") == "parking not available"
    assert _stated("lift working today: false") == "lift not working today"
    assert _stated("court open today: False") == "court not open today"


def test_no_thing_needed_denies_the_requirement() -> None:
    assert contradicts("No referral is needed for the clinic", "referral required clinic", 1)
    assert not contradicts("No referral is needed for the clinic", "referral not required clinic", 1)
    assert not contradicts("No referral is required", "referral not required", 1)


def test_a_negation_agreeing_with_a_false_key_of_its_record_is_no_contradiction(embed: Embed) -> None:
    rooms = json.dumps({"rooms": [{"name": "Maple Room", "bookable_today": False},
                                  {"name": "Cedar Room", "bookable_today": True}]})
    agree = found(embed, "can I book a room?",
                  "The Maple Room is not bookable today, but the Cedar Room is bookable.", tool=rooms)
    assert agree["negation"] == 0
    wrong = found(embed, "can I book a room?", "The Cedar Room is not bookable today.", tool=rooms)
    assert wrong["negation"] == 1


def test_the_rest_of_a_percentage_is_supported(embed: Embed) -> None:
    tool = json.dumps({"battery": {"charge_pct": 35}})
    assert found(embed, "battery?", "It is at 35%, so 65% of the charge is used.", tool=tool)["numbers"] == 0
    assert found(embed, "battery?", "It is at 35%, so 55% of the charge is used.", tool=tool)["numbers"] == 1


def test_a_total_its_listed_parts_do_not_add_up_to_is_bound(embed: Embed) -> None:
    tool = json.dumps({"lines": [{"item": "Tyres", "amount": 240.0}, {"item": "Tracking", "amount": 45.0}]})
    wrong = found(embed, "total?", "Your bill totals £295.00: tyres £240.00 and tracking £45.00.", tool=tool)
    assert wrong["bound"] == 1
    right = found(embed, "total?", "Your bill totals £285.00: tyres £240.00 and tracking £45.00.", tool=tool)
    assert right["bound"] == 0 and right["numbers"] == 0


def test_sent_where_the_context_s_state_is_before_sending_is_a_contradiction(embed: Embed) -> None:
    tool = json.dumps({"parcel": {"status": "awaiting_collection", "courier": "Evri"}})
    assert found(embed, "where's my parcel?", "Your parcel has been dispatched with Evri.", tool=tool)["negation"] == 1
    assert found(embed, "where's my parcel?", "Your parcel hasn't been dispatched yet; Evri will collect it.",
                 tool=tool)["negation"] == 0


def _called(embed: Embed, answer: str, *names: str) -> dict[str, float]:
    calls = tuple(ToolCall(name=n, args={}, output=json.dumps({"session": "Yoga 18:00", "spaces": 0}),
                           success=True) for n in names)
    return found(embed, "can I join the 18:00 yoga?", answer, calls=calls)


def test_an_action_claimed_where_every_call_only_read_is_invented(embed: Embed) -> None:
    claim = "The 18:00 yoga session has no spaces left, so I've added you to the waiting list."
    assert _called(embed, claim, "get_session")["offered"] == 1
    assert _called(embed, claim, "get_session", "join_waitlist")["offered"] == 0


def test_a_numbered_step_the_context_never_lists_is_invented(embed: Embed) -> None:
    tool = json.dumps({"steps": ["Download the enrolment form", "Attach a recent photo",
                                 "Pay the 30 EUR fee at the desk"]})
    extra = ("To enrol: 1) download the enrolment form, 2) attach a recent photo, 3) pay the fee "
             "at the desk, and 4) book a medical assessment with the club doctor.")
    assert found(embed, "how do I enrol?", extra, tool=tool)["offered"] == 1
    same = "To enrol: 1) download the enrolment form, 2) attach a recent photo, and 3) pay the fee at the desk."
    assert found(embed, "how do I enrol?", same, tool=tool)["offered"] == 0


def test_the_latest_of_a_record_another_record_postdates_is_bound(embed: Embed) -> None:
    tool = json.dumps({"visits": [{"engineer": "J. Ruiz", "date": "2026-10-02"},
                                  {"engineer": "K. Obi", "date": "2026-11-19"}]})
    assert found(embed, "last visit?", "The latest visit was by J. Ruiz on 2 October.", tool=tool)["bound"] == 1
    assert found(embed, "last visit?", "The latest visit was by K. Obi on 19 November.", tool=tool)["bound"] == 0
    assert found(embed, "first visit?", "The earliest visit was by J. Ruiz on 2 October.", tool=tool)["bound"] == 0


def test_a_person_named_in_another_person_s_role_is_bound(embed: Embed) -> None:
    tool = json.dumps({"claim": "CL-88", "submitted_by": {"name": "Ola Berg"}, "assessor": {"name": "Dev Patel"}})
    assert found(embed, "who is on it?", "Your claim CL-88 is with assessor Ola Berg.", tool=tool)["bound"] == 1
    assert found(embed, "who is on it?", "Your claim CL-88 is with assessor Dev Patel.", tool=tool)["bound"] == 0


def test_a_list_record_s_value_given_to_its_sibling_is_a_swap_under_a_heading(embed: Embed) -> None:
    tool = json.dumps({"route": "R-12", "description": "Harbour loop",
                       "stops": [{"stop_name": "Quay Street", "minutes_away": 4},
                                 {"stop_name": "Mill Lane", "minutes_away": 11}]})
    swapped = found(embed, "when's the bus?", "The R-12 reaches Quay Street in 11 minutes.", tool=tool)
    assert swapped["bound"] == 1
    both = found(embed, "when's the bus?",
                 "The R-12 reaches Quay Street in 11 minutes, and Mill Lane in 4 minutes.", tool=tool)
    assert both["bound"] == 1
    right = found(embed, "when's the bus?",
                  "The R-12 reaches Quay Street in 4 minutes, and Mill Lane in 11 minutes.", tool=tool)
    assert right["bound"] == 0


def test_no_thing_denies_a_true_requirement_whatever_the_predicate(embed: Embed) -> None:
    hire = {"room": "Studio B", "deposit_required": True, "deposit_gbp": 60}
    assert found(embed, "deposit?", "Studio B has no deposit to pay.", tool=hire)["negation"] == 1
    assert found(embed, "deposit?", "Studio B needs a deposit of £60.", tool=hire)["negation"] == 0
    free = {"room": "Studio C", "deposit_required": False}
    assert found(embed, "deposit?", "There's no deposit for Studio C.", tool=free)["negation"] == 0
    assert found(embed, "deposit?", "You will need to pay a deposit for Studio C.", tool=free)["negation"] == 1


def test_a_rest_of_a_whole_is_100_minus_the_share(embed: Embed) -> None:
    loan = {"id": "K-7", "paid_pct": 35, "amount": 9000}
    assert found(embed, "left?", "You've paid 35%, so 75% is still outstanding.", tool=loan)["numbers"] == 1
    assert found(embed, "left?", "You've paid 35%, so 65% is still outstanding.", tool=loan)["numbers"] == 0


def test_an_item_added_to_the_context_s_list_is_invented(embed: Embed) -> None:
    guide = {"steps": ["Open the printer lid", "Lift out the old cartridge", "Click in the new cartridge"]}
    added = "Open the printer lid, then lift out the old cartridge, then register the serial online, then click in the new cartridge."
    same = "Open the printer lid, then lift out the old cartridge, then click in the new cartridge."
    assert found(embed, "how do I change it?", added, tool=guide)["offered"] >= 1
    assert found(embed, "how do I change it?", same, tool=guide)["offered"] == 0
    docs = {"documents": ["Birth certificate of the child", "Proof of address dated this year"]}
    bring = "Bring the birth certificate of the child, proof of address dated this year, and a signed letter from your landlord."
    assert found(embed, "what to bring?", bring, tool=docs)["offered"] >= 1
    # Bullets: an item between two lines of the context's list.
    bullets = ("You need:\n- Birth certificate of the child\n- A signed letter from your landlord\n"
               "- Proof of address dated this year")
    assert found(embed, "what to bring?", bullets, tool=docs)["offered"] >= 1


def test_prose_that_names_listed_items_lists_nothing(embed: Embed) -> None:
    # A coding run's note: its clauses split on "and" and name two of the context's listed
    # items, but it is no list of the context's, and its next sentence adds no item to one.
    usages = {"usages": ["mostly tests of the axes", "the definition itself"]}
    note = ("The usages seem to be mostly tests of the axes and the definition itself. "
            "This just attaches it to the Axes class.")
    assert found(embed, "where is it used?", note, tool=usages).get("offered", 0) == 0


def test_a_size_s_code_is_named_by_its_word(embed: Embed) -> None:
    coat = {"sku": "CT-2", "variants": [{"size": "S", "price": 80.0}, {"size": "M", "price": 90.0},
                                        {"size": "L", "price": 95.0}]}
    assert found(embed, "price?", "The medium coat is £95.", tool=coat)["bound"] == 1
    assert found(embed, "price?", "The medium coat is £90.", tool=coat)["bound"] == 0


def test_a_currency_s_name_is_named_by_its_code(embed: Embed) -> None:
    quote = {"amount": 430.0, "currency": "DKK"}
    assert found(embed, "how much?", "It comes to 430 Danish kroner.", tool=quote)["names"] == 0


def test_a_claim_that_names_the_join_walks_it(embed: Embed) -> None:
    ctx = "The survey was carried out by the Lund Centre.\nCentres. Lund Centre, Malmo. Arden Unit, Leeds."
    assert found(embed, "Where is the centre that ran the survey?",
                 "The survey was run by the Lund Centre, which is in Malmo.", ctx)["bound"] == 0


def test_after_a_year_is_from_the_next_new_year(embed: Embed) -> None:
    ctx = "Tenants who signed before 1 January 2024 pay £20. Tenants who signed on or after 1 January 2024 pay £25."
    assert found(embed, "which fee?", "As you signed after 2023, you pay £25.", ctx)["numbers"] == 0
    assert found(embed, "which fee?", "As you signed after 2021, you pay £25.", ctx)["numbers"] == 1


def test_a_time_word_is_no_offered_item(embed: Embed) -> None:
    rec = {"patient": "P-1", "helpline": "available 24/7"}
    assert found(embed, "help?", "The helpline is available 24/7 and can provide advice tonight.", tool=rec)["offered"] == 0


def test_another_qualifier_is_another_kind(embed: Embed) -> None:
    order = {"order": "B-9", "status": "packed", "express_delivery": False}
    assert found(embed, "how?", "Order B-9 is packed and goes by standard delivery.", tool=order)["negation"] == 0
    assert found(embed, "how?", "Order B-9 is packed and goes by express delivery.", tool=order)["negation"] == 1


def test_a_count_of_the_records_some_words_pick_out_is_checked_against_them(embed: Embed) -> None:
    rooms = call("list_rooms", {"site": "north"}, [
        {"room": "Elm", "kind": "meeting", "seats": 8}, {"room": "Oak", "kind": "studio", "seats": 6},
        {"room": "Ash", "kind": "meeting", "seats": 12}, {"room": "Yew", "kind": "studio", "seats": 5}])
    assert evidence(embed, "The north site has 4 meeting rooms: Elm, Oak, Ash and Yew.", [rooms])["bound"] == 1
    assert evidence(embed, "The north site has 2 meeting rooms: Elm and Ash.", [rooms]).get("bound", 0) == 0
    # A subset the records' words cannot tell, and a count a record states itself.
    for subset in ("There is one meeting room with 10+ seats, and 2 studio rooms before noon.",
                   "Book the first 1 of the 2 studio rooms: there are 3 more meeting rooms later."):
        assert evidence(embed, subset, [rooms]).get("bound", 0) == 0, subset
    stock = call("get_stock", {}, [{"item": "blue mug", "qty": 3}, {"item": "red mug", "qty": 1}])
    assert evidence(embed, "You have 3 blue mugs in stock.", [stock]).get("bound", 0) == 0


def test_a_lookup_reported_as_finding_none_of_what_it_returned(embed: Embed) -> None:
    found_one = call("check_recalls", {"vin": "JT2BF"}, {"vin": "JT2BF", "campaign": "22V-101",
                                                          "component": "airbag inflator"})
    none = call("check_recalls", {"vin": "JT2BF"}, {"vin": "JT2BF", "recalls": []})
    said = "No open recalls were found for your car."
    assert evidence(embed, said, [found_one])["negation"] == 1
    assert evidence(embed, said, [none]).get("negation", 0) == 0
    # A value that says none, and a narrower thing than the lookup's, are not read.
    nil = call("check_recalls", {"vin": "JT2BF"}, {"vin": "JT2BF", "campaign": "none"})
    assert evidence(embed, said, [nil]).get("negation", 0) == 0
    narrower = "The check found no recalls with a remedy available yet."
    assert evidence(embed, narrower, [found_one]).get("negation", 0) == 0
    allergens = call("get_allergens", {"sku": "B-12"}, {"sku": "B-12", "allergens": ["milk", "soy"]})
    assert evidence(embed, "There are no allergens listed for B-12.", [allergens])["negation"] == 1


def test_a_count_of_a_whole_list_is_its_length(embed: Embed) -> None:
    tickets = call("list_tickets", {"queue": "billing", "state": "open"}, {"tickets": [
        {"id": "T-81", "subject": "Refund"}, {"id": "T-86", "subject": "VAT"}, {"id": "T-90", "subject": "Login"}]})
    said = "The billing queue has 2 open tickets: T-81 and T-86."
    assert evidence(embed, said, [tickets])["bound"] == 1
    assert evidence(embed, said.replace("2 open", "3 open"), [tickets]).get("bound", 0) == 0
    # A word no text says may pick out a subset the records cannot tell.
    assert evidence(embed, "The billing queue has 2 urgent tickets.", [tickets]).get("bound", 0) == 0


def test_a_nested_object_s_value_given_to_its_sibling(embed: Embed) -> None:
    shifts = call("get_rota", {"store": "S-4"}, {"opening_shift": {"lead": "Ana Ruiz", "start": "06:00"},
                                                "closing_shift": {"lead": "Ben Okoro", "start": "14:00"}})
    assert evidence(embed, "The closing shift is led by Ana Ruiz.", [shifts])["bound"] == 1
    for right in ("The closing shift is led by Ben Okoro.",
                  "Ana Ruiz leads the opening shift and hands over to the closing shift."):
        assert evidence(embed, right, [shifts]).get("bound", 0) == 0, right


def test_a_query_s_rows_without_column_names_are_records(embed: Embed) -> None:
    rows = call("run_sql", {"query": "SELECT day, COUNT(*) FROM visits GROUP BY day"},
                {"rows": [["Mon", 120], ["Tue", 95], ["Wed", 143]], "row_count": 3})
    said = "There were 358 visits in all, Wednesday the busiest (143)."
    assert evidence(embed, said, [rows]).get("numbers", 0) == 0
    assert evidence(embed, said.replace("358", "368"), [rows])["numbers"] == 1
