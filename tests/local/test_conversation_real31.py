"""Customer-service turn structures that are no frustration, re-ask or pushback (creal31):
read on real tau-bench chats, written here in other domains."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._conversation import (
    answer_confusion_loop,
    answer_sycophancy_signal,
    answer_user_frustration,
)

from .test_conversation import conv


def test_own_slip_and_answered_no_are_no_pushback(embed: Embed) -> None:
    slip = conv(
        "Hi, I want to move my boiler service visit. Booking BS-4410.",
        "I couldn't find BS-4410. Could you check the booking number?",
        "Oh, my mistake, I think I gave you the wrong number. It's BS-4401. Sorry about that!",
        "No problem at all! I found BS-4401, the annual boiler service on Tuesday 9am.",
    )
    no_answer = conv(
        "I need to change the delivery date of my sofa order.",
        "I see order SF-2290, a grey corner sofa, delivering Friday. Is this the order you mean?",
        "No, it's not that one. I also ordered an armchair last week, that's the one.",
        "Thanks, that is order SF-2315 with the armchair, delivering Monday. What date would you like?",
    )
    for case in (slip, no_answer):
        assert answer_sycophancy_signal(case, embed).value < 0.55


def test_a_simulator_stop_marker_is_no_user_words(embed: Embed) -> None:
    case = conv(
        "Can you tell me when the library closes on Saturday?",
        "The central library closes at 5pm on Saturdays.",
        "Great, thanks a lot!",
        "You're welcome! Have a nice weekend.",
        "###STOP###",
        "Understood! If you need anything else, just let me know.",
    )
    for answer in (answer_user_frustration, answer_sycophancy_signal, answer_confusion_loop):
        assert answer(case, embed).value < 0.5


def test_confirming_each_step_is_no_re_ask(embed: Embed) -> None:
    case = conv(
        "I'd like to move both my gym classes to the evening. Member GY-7781.",
        "I can move your Monday spin class from 7am to 6pm. Do you confirm? (yes/no)",
        "Yes, I confirm the change of my Monday spin class to 6pm. Please go ahead.",
        "Done. Now your Wednesday yoga class from 7am to 7pm. Do you confirm? (yes/no)",
        "Yes, I confirm the change of my Wednesday yoga class to 7pm. Please go ahead.",
        "Both classes are moved.",
    )
    assert answer_confusion_loop(case, embed).value < 0.5
