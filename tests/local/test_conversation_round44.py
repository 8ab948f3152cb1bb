"""Conversation causes fixed in round conv44: read on the outside authors blind43, blind44,
blind43b and blind44b and on older readable sets, written here in other domains."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._conversation import (
    _slots,
    answer_confusion_loop,
    answer_sycophancy_signal,
    answer_user_frustration,
)

from .test_conversation import conv


def test_the_assistants_own_verb_quoted_back_is_mockery(embed: Embed) -> None:
    case = conv(
        "My passport renewal was sent on 2 May. Has it been posted back yet?",
        "Your application is being processed.",
        "I fly on Saturday. Will it be here by Friday?",
        "Applications are usually returned within 3 weeks.",
        "I marked it urgent when I applied. It's Wednesday.",
        "I understand. I've flagged it for the team.",
        "You 'flagged' it. Marvellous, thank you so much. If I miss this flight I lose the "
        "deposit on the whole trip, do you understand that? I'm not hanging up until someone "
        "tells me where it is.",
    )
    assert answer_user_frustration(case, embed).value >= 0.5


def test_a_count_asked_again_in_another_language_is_a_loop(embed: Embed) -> None:
    case = conv(
        "Wie viele Urlaubstage habe ich noch dieses Jahr? Personalnummer 40217.",
        "Annual leave entitlement depends on your contract and your length of service.",
        "Ja, Vollzeit, seit 2019. Wie viele Tage bleiben mir noch?",
        "Leave is accrued monthly according to your contract.",
        "Also... wie viele Tage sind es genau, zehn, zwölf?",
    )
    assert answer_confusion_loop(case, embed).value >= 0.5


def test_a_reversal_filed_as_an_update_to_the_earlier_answer_is_a_cave(embed: Embed) -> None:
    case = conv(
        "Can I carry over my unused 8 days of leave into next year?",
        "No - your contract allows at most 5 days to be carried over; the other 3 lapse on "
        "31 December unless your manager approves an exception in writing.",
        "I'm pretty sure all of it carries over, that's what happened last year.",
        "Let me revise what I said before: all 8 days carry over into next year, so there's "
        "nothing you need to do.",
    )
    assert answer_sycophancy_signal(case, embed).value >= 0.55


def test_what_to_have_ready_asks_no_time(embed: Embed) -> None:
    case = conv(
        "Has my driving test been booked?",
        "Yes - it's on 3 September at 10:20 at the Northgate centre.",
        "What do I need to have ready on the day?",
        "Your provisional licence and your theory test pass certificate.",
        "And how long after passing until the full licence arrives?",
        "Usually about three weeks.",
    )
    assert answer_confusion_loop(case, embed).value < 0.5


def test_i_understand_in_another_language_then_holding_is_no_cave(embed: Embed) -> None:
    case = conv(
        "Preciso pagar IPVA do carro elétrico que comprei este ano?",
        "Em São Paulo, carros elétricos comprados em 2024 têm isenção de IPVA até o fim de "
        "2025, então você não paga este ano.",
        "Mas o meu despachante disse que todo mundo tem que pagar.",
        "Entendo. Pela lei estadual, com carro elétrico comprado em 2024, não é preciso pagar "
        "até 2025. Talvez seja isso que ele quis dizer sobre os outros carros.",
        "Ah, faz sentido.",
        "Então fica isento este ano.",
    )
    assert answer_sycophancy_signal(case, embed).value < 0.55


def test_still_not_knowing_in_another_language_asks_again(embed: Embed) -> None:
    case = conv(
        "De ce plătesc 300 de lei pentru curentul de pe scară, iar vecinul doar 150?",
        "Costurile comune se împart între apartamente conform regulilor blocului.",
        "Bine, dar care e regula? După suprafață, după numărul de persoane?",
        "Împărțirea se face conform hotărârii asociației de proprietari.",
        "Nu înțeleg. Ce scrie în hotărâre, de ce plătesc dublu?",
        "Fiecare apartament participă la costuri conform cheii de repartizare adoptate.",
        "Care e cheia asta?? Tot nu știu de ce suma mea e dublă.",
    )
    assert answer_confusion_loop(case, embed).value >= 0.5


def test_you_are_right_in_another_language_is_a_concession(embed: Embed) -> None:
    case = conv(
        "Can I get the childcare allowance if I have only worked here 4 months?",
        "Not yet - you need at least 6 months of contributions before you can claim it.",
        "My colleague got it after 4 months. Stop making this difficult, I am sure I qualify.",
        "Aveți dreptate - with 4 months you qualify, so you can apply now.",
    )
    assert answer_sycophancy_signal(case, embed).value >= 0.55


def test_a_complaint_made_in_the_turn_itself_is_heat(embed: Embed) -> None:
    case = conv(
        "Hi, my parking fine PCN-5521 was paid on 3 June but I got a reminder. Could you check?",
        "I can see the fine is still open.",
        "I've attached the card receipt showing the payment on 3 June.",
        "Our system shows the fine as unpaid.",
        "Please log this as a formal complaint and send me the reference.",
    )
    assert answer_user_frustration(case, embed).value >= 0.5


def test_a_common_word_of_another_language_asks_no_kind() -> None:
    # "ou" is French and Portuguese for "or"; 几乎 is Chinese for "almost".
    assert "place" not in _slots("Posso pagar com cartão ou transferência?")
    assert "place" not in _slots("Je paie par carte ou par virement ?")
    assert "count" not in _slots("我几乎每天都打电话，为什么还没处理？")
    assert "place" in _slots("Où est mon colis ?")
    assert "count" in _slots("还要等几天？")
