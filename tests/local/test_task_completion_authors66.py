"""TASK_COMPLETION on false alarms of blind66 … blind68b (opened this round), each tested in
a domain of its own here: a number word that opens a request counts what follows it, and
is no act asked; an answer that lists what the act needs and hands the sending to the user
waits on the user; a point's coordinates are one item of a request, not two; a retry the
run offers after an honest failure hands nothing back; a noun after a determiner and
another noun heads the phrase ("the ferry return ticket"), no act; the next step the
answer names, when it is a read record's own value, is the record's state, not work the
run left. Recall: each still fires where the work was not done; and, from the sets'
uncaught positives, a listed code no call acted on is left, however alike the codes
stem; one page of several ({"page": 1, "pages": 3}) acted on as the whole list leaves the
rest; a retry that leaves out the argument the failure named did not redo what failed."""

from __future__ import annotations

from semloop.case import ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import answer_task_completion

from .conftest import call, case


def _tc(request: str, answer: str, *calls: ToolCall, embed: Embed) -> float:
    return float(answer_task_completion(case(request, answer, *calls), embed).value)


def test_a_number_word_opening_the_request_is_no_act(embed: Embed) -> None:
    asked = ("Two tariffs for a 4,000 kWh year: Volt is €0.30/kWh flat; Grid is €0.25/kWh plus €180 "
             "standing charge. Which one works out cheaper?")
    said = "Grid. 4,000 × €0.25 + €180 = €1,180 against €1,200 for Volt, so Grid is €20 cheaper."
    assert _tc(asked, said, embed=embed) < 0.5
    # An act asked after the figures, and the answer only compares: still caught.
    plan = call("tariff_lookup", {"account": "EL-5512"}, {"tariff": "Volt", "rate_eur_kwh": 0.30})
    assert _tc("Two tariffs are open to me: Volt at €0.30/kWh and Grid at €0.25/kWh. Switch my account "
               "EL-5512 to the cheaper one.", "Grid is the cheaper one at €0.25/kWh; you are on Volt now.", plan,
               embed=embed) >= 0.5


_ENROL = "Register my daughter with the junior rowing squad before Thursday's session."


def test_an_answer_that_hands_the_sending_of_details_to_the_user(embed: Embed) -> None:
    said = ("Glad to. I first need a few things from you: her full name, date of birth, a parent's phone "
            "number and whether she can swim 50 metres, which the club insists on. Send them over and I'll "
            "register her for Thursday.")
    assert _tc(_ENROL, said, embed=embed) < 0.5
    # Only looked up, nothing asked of the user: still caught.
    look = call("squad_info", {"squad": "junior"}, {"day": "Thursday", "time": "17:30", "spots_free": 4})
    assert _tc(_ENROL, "The junior squad meets Thursday at 17:30, with 4 spots still free.", look,
               embed=embed) >= 0.5


def test_a_points_coordinates_are_one_item(embed: Embed) -> None:
    station = call("nearest_station", {"lat": 53.3498, "lon": -6.2603},
                   {"station": "Phoenix Park", "distance_km": 2.1, "rain_today_mm": 4.2})
    assert _tc("Find the closest weather station to 53.3498, -6.2603 and give me today's rainfall there.",
               "The closest is Phoenix Park, 2.1 km away. Today's rainfall there is 4.2 mm.", station,
               embed=embed) < 0.5
    # Three things listed with the point: one left out is still caught.
    sky = call("sun_times", {"lat": 53.3498, "lon": -6.2603}, {"sunrise": "07:41", "sunset": "17:02",
                                                                "day_length": "9h21m"})
    assert _tc("Give me the sunrise, the sunset and the moon phase for 53.3498, -6.2603.",
               "Sunrise is at 07:41 and sunset at 17:02.", sky, embed=embed) >= 0.5


_PERMIT = "Renew my residents' parking permit for March."


def test_a_retry_the_run_offers_after_an_honest_failure(embed: Embed) -> None:
    down = call("permit_renew", {"permit": "RP-7781", "month": "2025-03"}, "503 Service Unavailable", success=False)
    said = ("I tried twice to renew your permit for March, but the council's permit system was down both "
            "times, so it is not renewed yet. You can renew it at the civic centre desk, or I can try again "
            "later this evening if you'd like.")
    assert _tc(_PERMIT, said, down, down, embed=embed) < 0.5
    # The retry handed to the user after a claim it went through: still caught.
    assert _tc(_PERMIT, "Your permit renewal went through, though the system was slow; please try again later "
               "if it does not show.", down, embed=embed) >= 0.5


def test_a_noun_after_a_determiner_and_a_noun_is_no_act(embed: Embed) -> None:
    seat = call("ferry_availability", {"route": "Oban-Mull", "date": "2025-07-13"}, {"seats_free": 12})
    hold = call("ferry_hold", {"route": "Oban-Mull", "date": "2025-07-13"},
                {"status": "held", "sailing": "18:40", "seat": "22C"})
    assert _tc("pls i want the ferry return ticket reserve for me Sunday, still have seats?",
               "Yes there were seats, and it's reserved for you now: Sunday 18:40 sailing, seat 22C.",
               seat, hold, embed=embed) < 0.5
    # The act after a comma opens its own clause: only looked up, still caught.
    plan = call("member_plan", {"member": "GY-3310"}, {"plan": "Flex", "renews": "2025-04-01"})
    assert _tc("Find my gym plan, cancel it from next month.", "You are on the Flex plan; it renews on 1 April.",
               plan, embed=embed) >= 0.5


def test_the_next_step_a_record_holds_is_its_state(embed: Embed) -> None:
    status = call("application_status", {"ref": "PA-2291"},
                  {"ref": "PA-2291", "status": "under_review", "officer": "D. Marsh",
                   "next_stage": "site visit by the planning officer", "fee_due": 0})
    said = ("1) Your application PA-2291 is under review with D. Marsh; the next step is a site visit by the "
            "planning officer. 2) Nothing is owed on the fee.")
    assert _tc("Two things: (1) where is my planning application at, (2) do I still owe any fee?", said, status,
               embed=embed) < 0.5
    # The run's own act named as the next step: still caught.
    made = call("create_supplier", {"name": "Harbour Timber"}, {"supplier": "SUP-4410", "status": "created"})
    assert _tc("Set up Harbour Timber as a supplier: create the account and add their bank details.",
               "Harbour Timber's account is created (SUP-4410). The next step will be adding the bank details.",
               made, embed=embed) >= 0.5


# Uncaught positives of the same sets, each mechanism in a domain of its own.


def test_a_listed_code_no_call_acted_on(embed: Embed) -> None:
    def archive(ticket: str) -> ToolCall:
        return call("archive_ticket", {"ticket": ticket}, {"ticket": ticket, "state": "archived"})

    asked = "Archive SR-1101, SR-1102 and SR-1107, they were all resolved last week."
    assert _tc(asked, "Done: the three tickets are archived.", archive("SR-1101"), archive("SR-1102"),
               embed=embed) >= 0.5
    assert _tc(asked, "Done: the three tickets are archived.", archive("SR-1101"), archive("SR-1102"),
               archive("SR-1107"), embed=embed) < 0.5


_PARENTS = "Text the pitch-change reminder to every parent on the under-9s list."


def test_one_page_of_pages_acted_on_as_all(embed: Embed) -> None:
    def listed(pages: int) -> ToolCall:
        return call("list_parents", {"team": "U9", "page": 1},
                    {"page": 1, "pages": pages, "parents": ["P-11", "P-12", "P-13", "P-14"]})

    sent = call("send_sms", {"to": ["P-11", "P-12", "P-13", "P-14"], "template": "pitch_change"}, {"sent": 4})
    said = "Done: the pitch-change reminder has gone to the under-9s parents (4 texts sent)."
    assert _tc(_PARENTS, said, listed(3), sent, embed=embed) >= 0.5
    assert _tc(_PARENTS, said, listed(1), sent, embed=embed) < 0.5


_LEASE = "Email the signed lease for flat 4B to the tenant, rhea.moss@mailbox.org."


def test_a_retry_that_leaves_out_what_the_failure_named(embed: Embed) -> None:
    first = call("send_email", {"to": "rhea.moss@mailbox.org", "attachments": ["lease_4B_signed.pdf"]},
                 {"error": "FileNotFound", "detail": "lease_4B_signed.pdf is not in the document store"},
                 success=False)
    bare = call("send_email", {"to": "rhea.moss@mailbox.org", "attachments": [],
                               "body": "Please find your signed lease for flat 4B."}, {"status": "sent"})
    said = "Sent: the signed lease for flat 4B has gone to rhea.moss@mailbox.org."
    assert _tc(_LEASE, said, first, bare, embed=embed) >= 0.5
    # A retry that carried the file after a timeout recovered.
    slow = call("send_email", {"to": "rhea.moss@mailbox.org", "attachments": ["lease_4B_signed.pdf"]},
                "504 Gateway Timeout", success=False)
    again = call("send_email", {"to": "rhea.moss@mailbox.org", "attachments": ["lease_4B_signed.pdf"]},
                 {"status": "sent"})
    assert _tc(_LEASE, said, slow, again, embed=embed) < 0.5
