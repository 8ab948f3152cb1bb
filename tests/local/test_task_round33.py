"""Task rules, round b32t: a part's act done by a call and told tersely, two acts joined in
one sentence of several, a value given after a question, an act tried and refused with its
reason, a clause that says which thing, a relative asked about beside a product's name, a
text written to a third person, a record's detail restated, a person the request names."""

from __future__ import annotations

import pytest

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import answer_task_completion
from semloop.judge.local._drift import answer_off_topic_drift
from semloop.judge.local._understanding import answer_task_understanding_failure

from .conftest import call, case

_SLOTS = call("find_slots", {"service": "dog_groom", "from": "2027-04-10"},
              {"slots": [{"start": "2027-04-14T10:15", "groomer": "Ines"}]})


@pytest.mark.parametrize("careful", [
    # Each act done by a call and told in a word or a time.
    case("cancel the dog groom on 4/4 and book the next free one after 10 April pls",
         "Cancelled 4 April. New groom: 14 April, 10:15, with Ines.",
         call("cancel_booking", {"id": "G-301"}, {"id": "G-301", "status": "cancelled"}), _SLOTS,
         call("book_groom", {"service": "dog_groom", "start": "2027-04-14T10:15"}, {"id": "G-377", "status": "ok"})),
    # "commission 12 %" after the question gives a value, it asks no act.
    case("how much did the craft stall take at the June fair after fees? commission 12 %",
         "Takings were £640; less the 12 % commission that leaves £563.20.",
         call("read_sales", {"event": "June fair"}, "stall,takings_gbp\ncraft,640")),
    # The act tried, refused by the system, and the reason told before the way left.
    case("please end my climbing wall membership, no more renewals",
         "I can't end it from here because your membership runs through your employer's wellness scheme. "
         "Ask your HR team to remove it from the scheme before 1 May and the renewal stops.",
         call("get_membership", {"member": "C-88"}, {"plan": "annual", "via": "employer", "renews": "2027-05-01"}),
         call("cancel_membership", {"member": "C-88"}, {"success": False, "error": "EMPLOYER_MANAGED"}, False)),
])
def test_careful_answers_stay_clear_of_task_completion(embed: Embed, careful: RunCase) -> None:
    assert float(answer_task_completion(careful, embed).value) < 0.5


def test_two_acts_joined_in_one_sentence_are_two_parts(embed: Embed) -> None:
    dropped = case("Mr Lowe's boat Merlin is back on her mooring. Renew her mooring licence, and email the "
                   "certificate to the harbour office.",
                   "Merlin's mooring licence is renewed until March 2028 (licence ML-5521).",
                   call("renew_licence", {"boat": "Merlin"}, {"licence": "ML-5521", "valid_to": "2028-03-31"}))
    assert float(answer_task_completion(dropped, embed).value) >= 0.5


@pytest.mark.parametrize("careful", [
    # "the kayak I hire for Monday" says which thing; the act asked is the move.
    case("Sorry my English. The kayak I hire for Monday, I want change to Tuesday, same time. Possible?",
         "Yes! I moved your kayak hire from Monday 10:00 to Tuesday 10:00, no extra charge.",
         call("exchange_hire", {"ref": "KY-220", "to": "2027-06-08T10:00"}, {"status": "exchanged", "fee": 0})),
    # A note written to the third person speaks to them as "you".
    case("Write a short note to the caretaker asking if his team can clear the gutters by Friday.",
         "Dear Mr Price,\n\nCould your team clear the gutters on the east block by Friday? "
         "The downpipes are overflowing onto the path.\n\nThanks,\nFlat 4",
         call("get_contacts", {"role": "caretaker"}, {"name": "Owen Price", "role": "caretaker"})),
])
def test_careful_answers_stay_clear_of_understanding(embed: Embed, careful: RunCase) -> None:
    assert float(answer_task_understanding_failure(careful, embed).value) < 0.5


def test_a_relative_asked_about_beside_a_products_name(embed: Embed) -> None:
    # The class's name in the answer is no name of the person asked about.
    swapped = case("I'm asking for my mum, she is 80 and uses a stick. Could she join the AQUA-FLEX class?",
                   "Yes, you can join: AQUA-FLEX is open to adults of any age, and your membership covers it. "
                   "You can book a place at the front desk.",
                   call("get_user_profile", {}, {"user_id": "U-77", "age": 41}))
    assert float(answer_task_understanding_failure(swapped, embed).value) >= 0.5


@pytest.mark.parametrize("careful", [
    # A detail of the job's own record, then small talk after the task.
    case("Can you confirm the chimney sweep is coming Thursday?",
         "Confirmed: the sweep (job CS-41) is on Thursday 09:00-11:00. They'll need the loft hatch open and "
         "dust sheets by the hearth. Lovely crisp weather for it too!",
         call("get_job", {"job": "CS-41"}, {"type": "chimney_sweep", "date": "2027-02-11", "window": "09:00-11:00",
                                             "needs": "loft hatch open, dust sheets by hearth"})),
    # The person the request names, by title, is its own case.
    case("Cancel Friday's piano lesson for Mrs Okoro, she's unwell. Thanks",
         "Done: Friday's lesson for Mrs Okoro is cancelled and her teacher has been told. I hope she's better soon.",
         call("cancel_lesson", {"pupil": "Okoro", "day": "Friday"}, {"ok": True, "teacher_notified": "Sam Hart"})),
])
def test_careful_answers_stay_clear_of_drift(embed: Embed, careful: RunCase) -> None:
    assert float(answer_off_topic_drift(careful, embed).value) < 0.5
