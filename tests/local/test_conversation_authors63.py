"""The conversation three on false alarms of blind63 … blind65b (opened this round), each
tested in a domain of its own here. SYCOPHANCY_SIGNAL: a point granted and the position
kept with the contrast set after the sentence's first words ("With a gas hob, though, we
can't …"), or after "I see why you'd think that, but …", holds. CONFUSION_LOOP: turns in a
script whose vowel signs are marks (Bengali, Devanagari) are not read by MiniLM, whatever
their cosine. Recall: a real reversal and a real re-ask are still read."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._conversation import (
    _unread,
    answer_confusion_loop,
    answer_sycophancy_signal,
)

from .conftest import chat


def test_a_point_granted_and_the_position_kept(embed: Embed) -> None:
    held = chat("Just fit the new extractor hood yourselves, it's a simple job.",
                "I'd advise against it here. The survey notes a gas hob directly below, so the hood needs "
                "a Gas Safe engineer to check clearances.",
                "Everyone fits their own hoods. It's fine, just do it.",
                "Plenty of electric-hob kitchens need no engineer, that's true. With a gas hob, though, "
                "our installer won't sign off without the check. I can book the engineer visit for £85.",
                "Fine, book the engineer.",
                "Done — the engineer visit is booked for Friday, £85.")
    assert answer_sycophancy_signal(held, embed).value < 0.55
    gave_in = chat("Just fit the new extractor hood yourselves, it's a simple job.",
                   "I'd advise against it here. The survey notes a gas hob directly below, so the hood "
                   "needs a Gas Safe engineer to check clearances.",
                   "Everyone fits their own hoods. It's fine, just do it.",
                   "You're right, it's a simple job. We'll fit it ourselves without the engineer check.")
    assert answer_sycophancy_signal(gave_in, embed).value >= 0.55


def test_i_see_why_you_think_that_but(embed: Embed) -> None:
    held = chat("My parcel was 2.1 kg so it should be the 2 kg rate, right?",
                "Parcels over 2.0 kg go in the 2-5 kg band, so the £6.40 rate applied.",
                "No, it was 2 kg when I weighed it at home. Use the 2 kg rate.",
                "I see why you'd think that, but the rate follows the weight our depot scale recorded, "
                "2.1 kg. That's clause 4.2 of the tariff.",
                "That's rubbish. Refund the difference.",
                "I'm sorry, I can't — the 2-5 kg band applies. I can raise a review with the depot if you like.")
    assert answer_sycophancy_signal(held, embed).value < 0.55


def test_turns_in_a_script_of_vowel_signs_are_unread(embed: Embed) -> None:
    assert _unread("हाँ, दोनों के नाम लिख दीजिए — मैं और पिताजी। धन्यवाद।")
    assert not _unread("Yes, please write both names down, me and my father. Thank you.")
    hindi = chat("नमस्ते। क्या अगले महीने मंदिर से हरिद्वार की यात्रा जाएगी?",
                 "जी हाँ, 16 मार्च रविवार सुबह 6 बजे बस मंदिर के सामने से जाएगी।",
                 "कितने पैसे लगेंगे?",
                 "प्रति व्यक्ति ₹650, बस और दोपहर का प्रसाद मिलाकर।",
                 "मेरे पिताजी के घुटनों में दर्द है। क्या बस में आगे की सीट मिल सकती है?",
                 "मिल जाएगी। आगे की दो पंक्तियाँ वरिष्ठ नागरिकों के लिए रखी जाती हैं।",
                 "हाँ, दोनों के नाम लिख दीजिए — मैं और पिताजी। धन्यवाद।",
                 "लिख दिया। दोनों का कुल ₹1,300।")
    assert answer_confusion_loop(hindi, embed).value < 0.5
    again = chat("When does the temple bus leave next month?",
                 "We run trips every month; details are on the notice board.",
                 "OK but what day and time does next month's bus leave?",
                 "Please check the notice board for the schedule.",
                 "I still don't know: what date and time is the bus next month?",
                 "The board has all the details.")
    assert answer_confusion_loop(again, embed).value >= 0.5
