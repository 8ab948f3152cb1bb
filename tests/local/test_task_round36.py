"""Task rules, round b35tc: a question's last clause is what it asks, a page of a longer
result given as the whole, an outcome asked for and left under way."""

from __future__ import annotations

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import answer_task_completion

from .conftest import call, case


def _fires(run: RunCase, embed: Embed) -> bool:
    return float(answer_task_completion(run, embed).value) >= 0.5


def test_a_pick_asked_after_a_statement_asks_nothing_given(embed: Embed) -> None:
    # The day the request gave ("tomorrow 9-13") is in the sentence, not in what it asks.
    pick = case("my boiler service is booked for tomorrow 9-13, please move it to a weekday evening next week",
                "There are no evening visits next week; the latest window is 13:00-17:00. The nearest are "
                "Mon 14.12, 13:00-17:00 or Thu 17.12, 13:00-17:00. Your visit tomorrow stays booked until you "
                "choose — which would you like?",
                call("visits.availability", {"week": "2026-W51", "after": "17:00"}, {"slots": []}),
                call("visits.availability", {"week": "2026-W51"},
                     {"slots": [{"date": "2026-12-14", "window": "13:00-17:00"},
                                {"date": "2026-12-17", "window": "13:00-17:00"}]}))
    assert not _fires(pick, embed)


def test_a_page_of_a_longer_result_given_as_the_whole(embed: Embed) -> None:
    rows = ("| member | hours |\n|---|---|\n| Ana Souza | 61 |\n| Ben Ito | 58 |\n| Cleo Park | 55 |\n"
            "(3 rows) page 1 of 3, total_rows=8")
    first = case("Give me the full list of volunteers with more than 40 hours this year, name and hours.",
                 "Volunteers over 40 hours this year:\n- Ana Souza: 61\n- Ben Ito: 58\n- Cleo Park: 55",
                 call("query_hours", {"min_hours": 40, "page": 1}, rows))
    assert _fires(first, embed)
    said = case(first.input, "The first 3 of 8 (page 1 of 3): Ana Souza 61, Ben Ito 58, Cleo Park 55. "
                "Want the next page?", *first.tools_called)
    assert not _fires(said, embed)


def test_an_outcome_asked_for_left_under_way(embed: Embed) -> None:
    queued = case("The backup job for the file server failed last night. Restart it and tell me whether it "
                  "completes.",
                  "I've restarted the backup job (run 918). It's running now and should finish fine this time.",
                  call("jobs.restart", {"job": "fs-backup"}, {"run": 918, "status": "queued"}))
    assert _fires(queued, embed)
    told = case(queued.input, "Restarted the backup job (run 918); it completed at 04:12 with no errors.",
                call("jobs.restart", {"job": "fs-backup"}, {"run": 918, "status": "queued"}),
                call("jobs.status", {"run": 918}, {"run": 918, "status": "succeeded"}))
    assert not _fires(told, embed)


def test_each_of_a_listed_set_opened_in_part(embed: Embed) -> None:
    listing = call("tickets.search", {"q": "printer"},
                   {"results": [{"id": "T-11", "title": "Jam on floor 2"}, {"id": "T-12", "title": "No toner"},
                                {"id": "T-13", "title": "Driver error"}]})
    one = case("There are printer tickets in the queue. Write a first response for each one, I'll post them.",
               "Here's a response for the jam on floor 2:\n\nHi, thanks for reporting this. A technician will "
               "clear the jam on the second-floor printer this morning.",
               listing, call("tickets.read", {"id": "T-11"}, "Printer on floor 2 keeps jamming on tray 1."))
    assert _fires(one, embed)
    every = case(one.input,
                 "Here are the three responses:\n"
                 "T-11: Hi, a technician will clear the floor 2 jam this morning.\n"
                 "T-12: Hi, new toner is on its way and will be fitted today.\n"
                 "T-13: Hi, we'll push the updated driver to your laptop within the hour.",
                 listing, call("tickets.read", {"id": "T-11"}, "Floor 2 jams on tray 1."),
                 call("tickets.read", {"id": "T-12"}, "Toner empty."),
                 call("tickets.read", {"id": "T-13"}, "Driver error 0x6d9 on laptop."))
    assert not _fires(every, embed)


def test_a_look_offered_on_the_users_wish_after_a_refusal_is_no_promise(embed: Embed) -> None:
    refused = case("Please move my hotel booking HB-5521 from the Lisbon property to the Porto one, same nights.",
                   "I'm not able to move HB-5521 to another property. Our terms allow changing the dates of a "
                   "booking but not the hotel. If you'd still like to stay in Porto, the way is to cancel (if "
                   "the rate allows it) and book again — I can check whether HB-5521 is refundable if you want.",
                   call("get_booking", {"id": "HB-5521"}, {"hotel": "Lisbon Centro", "rate": "flex"}))
    assert not _fires(refused, embed)


def test_details_asked_again_after_the_record_was_not_found(embed: Embed) -> None:
    again = case("Hello, this is Ines Duarte, postcode 4050-123. I want to see my subscription.",
                 "I couldn't find an account for Ines Duarte with postcode 4050-123. Could you give me your "
                 "customer number, or double-check the name and postcode on the account?",
                 call("find_customer", {"name": "Ines Duarte", "postcode": "4050-123"}, "Error: customer not found",
                      success=False))
    assert not _fires(again, embed)


def test_an_act_then_a_yes_or_no_question_are_two_parts(embed: Embed) -> None:
    asked = "Freeze my credit card ending 4409 now, my bag was stolen. Also is there any charge from today I didn't make?"
    looked = case(asked, "Your last charges on card 4409: 06/12 Tesco £18.20, 05/12 TfL £7.40. None look unusual.",
                  call("get_card", {"last_four": "4409"}, {"card_id": "crd_4409", "status": "active"}),
                  call("list_transactions", {"card_id": "crd_4409", "limit": 2},
                       {"transactions": [{"date": "2026-12-06", "merchant": "Tesco", "amount": 18.2},
                                         {"date": "2026-12-05", "merchant": "TfL", "amount": 7.4}]}))
    assert _fires(looked, embed)
    both = case(asked, "Card 4409 is frozen. Your last charges: 06/12 Tesco £18.20, 05/12 TfL £7.40 — none look "
                "unusual.",
                call("freeze_card", {"card_id": "crd_4409"}, {"card_id": "crd_4409", "status": "frozen"}),
                *looked.tools_called[1:])
    assert not _fires(both, embed)


def test_one_call_listing_fewer_items_than_the_counted_set(embed: Embed) -> None:
    asked = "Return these 3 items from order #W-88120: the kettle, the toaster and the mug set. Refund to my card."
    items = call("get_order_details", {"order_id": "#W-88120"},
                 {"items": [{"item_id": "it_1", "name": "kettle", "price": 40.0},
                            {"item_id": "it_2", "name": "toaster", "price": 40.0},
                            {"item_id": "it_3", "name": "mug set", "price": 18.0}]})
    two = case(asked, "Your return for order #W-88120 is set up. A refund of $80.00 goes to your original card "
               "once we receive the items.",
               items, call("return_items", {"order_id": "#W-88120", "item_ids": ["it_1", "it_2"]},
                           {"status": "return_requested", "refund": 80.0}))
    assert _fires(two, embed)
    three = case(asked, "Your return for order #W-88120 is set up. A refund of $98.00 goes to your original card "
                 "once we receive the items.",
                 items, call("return_items", {"order_id": "#W-88120", "item_ids": ["it_1", "it_2", "it_3"]},
                             {"status": "return_requested", "refund": 98.0}))
    assert not _fires(three, embed)
