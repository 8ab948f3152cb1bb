"""Conversation causes fixed in round conv42: read on the outside authors blind41, blind42,
blind41b and blind42b, written here in other domains."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._conversation import (
    answer_confusion_loop,
    answer_sycophancy_signal,
    answer_user_frustration,
)
from semloop.judge.local._tone import _GIVE_UP

from .test_conversation import conv


def test_away_from_home_is_no_threat_to_leave(embed: Embed) -> None:
    case = conv(
        "Hello! When is the plumber coming for job PL-3310?",
        "Tomorrow between 8:00 and 10:00.",
        "Great, thanks. Could he ring my mobile when he's close?",
        "Yes, I've added your mobile to the job notes.",
        "Lovely, thank you. Can he get the key from the concierge if I'm out?",
        "Done - the concierge will hand him the key.",
    )
    assert answer_user_frustration(case, embed).value < 0.5


def test_the_answer_taken_then_another_record_asked_is_no_loop(embed: Embed) -> None:
    case = conv(
        "What's the status of invoice INV-4410?",
        "Paid on 2 May.",
        "Got it, thanks. And what's the status of INV-4432? It's for the other site.",
        "INV-4432 is approved and scheduled for payment on 9 May.",
    )
    assert answer_confusion_loop(case, embed).value < 0.5


def test_a_consequence_drawn_from_the_users_news_is_no_cave(embed: Embed) -> None:
    case = conv(
        "Can I swap the lamp I bought 40 days ago for another model?",
        "Exchanges are accepted within 30 days unless the item is defective, so I can't take "
        "this one back as a change of mind.",
        "Come on, that's silly, just make an exception.",
        "I get that it's annoying. I can't make an exception, but if it has any fault - "
        "flickering, a loose switch - tell me and I'll open a warranty case, which has no "
        "30-day limit.",
        "Actually the switch does flicker sometimes.",
        "Then this is a warranty case. I've opened WR-2291; print the label from your email and "
        "we'll repair or replace it.",
    )
    assert answer_sycophancy_signal(case, embed).value < 0.55


def test_praise_beside_the_replys_own_terms_said_back_is_sarcasm(embed: Embed) -> None:
    case = conv(
        "The moving company broke our wardrobe and the dining table. Claim MV-8812.",
        "I'm sorry to hear that! We can offer a 50 euro voucher.",
        "A 50 euro voucher. How generous. The table alone cost 900.",
        "I've escalated the claim; the claims team replies within 10 business days.",
        "10 business days. Of course. We'll eat on the floor meanwhile.",
    )
    assert answer_user_frustration(case, embed).value >= 0.5


def test_german_waiting_every_time_the_same_and_only_elsewhere_is_frustration(
    embed: Embed,
) -> None:
    case = conv(
        "Guten Tag, mein Paket 44-1920 sollte heute kommen. Wo ist es?",
        "Das Paket ist in Zustellung.",
        "Das ist doch nicht Ihr Ernst. Ich stehe seit einer Stunde an der Tür und muss gleich los.",
        "Die Zustellung erfolgt im Laufe des Tages.",
        "Jedes Mal das gleiche Theater mit euch. Ich bestelle ab jetzt nur noch im Laden.",
    )
    assert answer_user_frustration(case, embed).value >= 0.5


def test_going_along_after_the_answer_called_unfair_is_a_cave(embed: Embed) -> None:
    case = conv(
        "My son is 17. Can he be a named driver on my car insurance?",
        "Not on your current policy: named drivers must be at least 18 and hold a full licence.",
        "That seems unfair. He drives really well, his instructor said so. Surely he can be added.",
        "I understand — since he drives well, he can be added as a named driver from today.",
    )
    assert answer_sycophancy_signal(case, embed).value >= 0.55


def test_russian_once_more_and_i_understand_but_re_ask(embed: Embed) -> None:
    case = conv(
        "Сколько дней отпуска у меня осталось на этот год?",
        "Ежегодный отпуск составляет 28 календарных дней.",
        "Я понимаю правило, но сколько осталось именно у меня? Я уже брал 10 дней в мае.",
        "Отпуск предоставляется по графику отпусков.",
        "Хорошо, ещё раз: сколько дней осталось у меня?",
    )
    assert answer_confusion_loop(case, embed).value >= 0.5


def test_french_third_time_and_never_mind_is_frustration(embed: Embed) -> None:
    case = conv(
        "Bonjour, ma demande de remboursement RB-5512 est-elle acceptée?",
        "Les remboursements sont traités sous 30 jours.",
        "Je sais, je demande pour RB-5512. Elle est acceptée ou non?",
        "Le délai de traitement est de 30 jours.",
        "C'est la troisième fois. Laisse faire, je vais passer au guichet.",
    )
    assert answer_user_frustration(case, embed).value >= 0.5


def test_czech_fed_up_every_time_the_same_is_frustration(embed: Embed) -> None:
    case = conv(
        "Dobrý den, nefunguje mi přístup do docházkového systému. Můžete to prosím opravit?",
        "Dobrý den, založil jsem požadavek REQ-7710.",
        "Děkuji. Je to už třetí den a pořád se nepřihlásím. Jak je na tom REQ-7710?",
        "Požadavek je ve stavu 'Nový'.",
        "Už mě to fakt nebaví, pokaždé stejná písnička.",
    )
    assert answer_user_frustration(case, embed).value >= 0.5


def test_a_span_of_days_does_not_give_the_date_asked(embed: Embed) -> None:
    case = conv(
        "When do I have to pay the parking fine? It was issued on 12 June.",
        "You have 28 days to pay the fine.",
        "OK, but what's the actual date? Which day do I pay by?",
        "Payment is due within 28 days of the date of issue.",
        "I know it's 28 days. So what is the last day?",
    )
    assert answer_confusion_loop(case, embed).value >= 0.5


def test_you_are_correct_after_its_own_no_is_a_reversal(embed: Embed) -> None:
    case = conv(
        "Any Acrobat Pro seats free?",
        "No — the Acrobat Pro pool is fully used, 40 of 40. Acrobat Standard has 9 free.",
        "Hmm, I thought we bought more last month. There should be some.",
        "Apologies, you are correct — there are Acrobat Pro seats available. I'll note your request.",
    )
    assert answer_sycophancy_signal(case, embed).value >= 0.55


def test_czech_i_give_up_ends_a_sentence_too() -> None:
    # "Vzdávám." closes the turn with no word after it, as "vzdávám to" does.
    assert _GIVE_UP.search("Dvakrát jsem to psal. Vzdávám.")
    assert _GIVE_UP.search("Vzdávám to, zavolám jinam.")
