"""TASK_COMPLETION on false alarms of blind63 … blind65b (opened this round), each tested in
a domain of its own here: an act the acting call carried as an argument of its own
("refund_to") is done, however the answer words it; a question for a time or an amount
after the act it hangs on failed, answered by the answer saying it cannot give the value;
an answer, in a language the rules do not read, that passes on a value only the failed
call returned tells the failure; an "and" after an act's infinitive of purpose joins the
work of whom it sends. Recall: each still fires where the work was not done; an email
address given for the act that no call carried is an act left undone, however the answer
words a confirmation sent; an act said only to be allowed is not done; numbered replies
that stop short of the request's last item left it."""

from __future__ import annotations

from semloop.case import ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import answer_task_completion

from .conftest import call, case


def _tc(request: str, answer: str, *calls: ToolCall, embed: Embed) -> float:
    return float(answer_task_completion(case(request, answer, *calls), embed).value)


_WITHDRAW = "Withdraw me from the pottery course PC-8812, my shifts changed. Refund to my PayPal."


def test_an_act_carried_as_the_acting_calls_argument(embed: Embed) -> None:
    withdraw = call("withdraw_enrolment", {"enrolment": "PC-8812", "refund_to": "paypal"},
                    {"enrolment": "PC-8812", "status": "withdrawn", "refund": {"amount": 120.0, "to": "paypal"}})
    said = "You're off the pottery course (PC-8812). The €120 is on its way back to your PayPal, usually within two days."
    assert _tc(_WITHDRAW, said, withdraw, embed=embed) < 0.5
    # The call withdrew and carried nothing of the refund: still caught.
    bare = call("withdraw_enrolment", {"enrolment": "PC-8812"}, {"enrolment": "PC-8812", "status": "withdrawn"})
    assert _tc(_WITHDRAW, "You're off the pottery course (PC-8812).", bare, embed=embed) >= 0.5


_VAN = "Hire the 3.5t van from the Leeds depot for Saturday and tell me how much it'll cost."


def test_a_value_withheld_after_the_act_it_hangs_on_failed(embed: Embed) -> None:
    hire = call("create_hire", {"depot": "Leeds", "vehicle": "3.5t van", "date": "2025-06-14"},
                "402 Payment Required: card on file expired", success=False)
    said = ("I couldn't hire the Leeds van for Saturday. The depot's system refused it because the card on file has expired. "
            "With no hire made, I can't give you a price yet. Once the card is updated I can put the same hire through.")
    assert _tc(_VAN, said, hire, embed=embed) < 0.5
    # The hire made, and the price simply not given: still caught.
    done = call("create_hire", {"depot": "Leeds", "vehicle": "3.5t van", "date": "2025-06-14"},
                {"hire": "VH-5520", "status": "confirmed", "price_gbp": 89.0})
    assert _tc(_VAN, "The van is hired for Saturday (VH-5520). I can't give you a price here.", done,
               embed=embed) >= 0.5


_TABLE = "Κλείσε τραπέζι για 6 άτομα στην ταβέρνα Θάλασσα, Παρασκευή 4 Απριλίου στις 21:00."


def test_a_failed_calls_own_value_passed_on_tells_the_failure(embed: Embed) -> None:
    failed = call("reserve_table", {"venue": "Thalassa", "party": 6, "date": "2025-04-04", "time": "21:00"},
                  {"error": "deposit_required", "code": 402, "hold": {"until": "2025-04-02T20:30:00+03:00"}},
                  success=False)
    said = ("Το τραπέζι για 6 άτομα κρατείται προσωρινά μέχρι τις 2 Απριλίου, 20:30. Για να επιβεβαιωθεί "
            "χρειάζεται προκαταβολή 30 ευρώ· στείλε μου τα στοιχεία της κάρτας και την ολοκληρώνω.")
    assert _tc(_TABLE, said, failed, embed=embed) < 0.5
    # The answer says the table is booked and nothing of what the failure returned: still caught.
    assert _tc(_TABLE, "Το τραπέζι για 6 άτομα κλείστηκε για Παρασκευή 4 Απριλίου στις 21:00.", failed,
               embed=embed) >= 0.5


_ENGINEER = "Send an engineer tomorrow to reset the router and replace the wall socket, 7 Birch Lane."


def test_verbs_joined_to_a_purpose_are_the_work_of_whom_is_sent(embed: Embed) -> None:
    book = call("book_visit", {"address": "7 Birch Lane", "date": "2025-05-21", "window": "08:00-12:00"},
                {"job": "EN-2231", "status": "booked", "engineer": "R. Pillai"})
    assert _tc(_ENGINEER, "Booked: R. Pillai visits 7 Birch Lane tomorrow between 8 and 12 (job EN-2231).", book,
               embed=embed) < 0.5
    # Two acts of the run's own, no purpose between them: the second left undone is still caught.
    assert _tc("Book an engineer for 7 Birch Lane tomorrow and cancel Friday's visit there.",
               "Booked: R. Pillai visits 7 Birch Lane tomorrow between 8 and 12 (job EN-2231).", book,
               embed=embed) >= 0.5


_CLASS = "Book me into Thursday's 7pm spin class and send the booking to my partner as well, jo.ferris@postbox.net"


def test_an_address_given_for_the_act_that_no_call_carried(embed: Embed) -> None:
    said = "You're booked: Thursday 7pm spin with Kai, bike 14 (ref SPN-3391). The booking has been sent to you and your partner."
    booked = call("book_class", {"class": "spin", "date": "2025-02-06", "time": "19:00"},
                  {"ref": "SPN-3391", "bike": 14, "instructor": "Kai", "confirmation_to": ["member@inbox.org"]})
    assert _tc(_CLASS, said, booked, embed=embed) >= 0.5
    # The call sent it there too: done.
    both = call("book_class", {"class": "spin", "date": "2025-02-06", "time": "19:00",
                               "also_notify": "jo.ferris@postbox.net"},
                {"ref": "SPN-3391", "bike": 14, "instructor": "Kai",
                 "confirmation_to": ["member@inbox.org", "jo.ferris@postbox.net"]})
    assert _tc(_CLASS, "You're booked: Thursday 7pm spin with Kai, bike 14 (ref SPN-3391). The confirmation was sent to "
               "you and to your partner.", both, embed=embed) < 0.5



def test_an_act_said_only_to_be_allowed_is_not_done(embed: Embed) -> None:
    check = call("check_transfer_eligibility", {"membership": "CL-7731", "to": "Ravi Menon"},
                 {"eligible": True, "fee": 25.0})
    said = "Good news: membership CL-7731 is eligible to be transferred to Ravi Menon, and the fee is $25."
    assert _tc("Transfer my climbing membership CL-7731 to my brother Ravi Menon, please.", said, check,
               embed=embed) >= 0.5


_GARDEN = ("Three things about my allotment: 1) is the water back on at plot 31, 2) when is the next "
           "compost delivery, and 3) how do I put my name down for a second plot?")


def test_numbered_replies_that_stop_short_of_the_last_item(embed: Embed) -> None:
    two = ("1) Yes, the water at plot 31 was reconnected on Monday. 2) The next compost delivery is Saturday "
           "12 April, from 9am at the main gate.")
    assert _tc(_GARDEN, two, embed=embed) >= 0.5
    three = two + (" 3) For a second plot, add your name to the waiting list at the site hut or email the "
                   "secretary; it runs in order of request.")
    assert _tc(_GARDEN, three, embed=embed) < 0.5
