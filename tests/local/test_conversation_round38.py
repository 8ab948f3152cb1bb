"""Conversation causes fixed in round conv38: read on the outside authors blind37 and
blind37b and on older sets, written here in other domains."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._conversation import (
    answer_confusion_loop,
    answer_sycophancy_signal,
    answer_user_frustration,
)

from .test_conversation import conv


def test_resigned_to_doing_the_services_job_is_frustration(embed: Embed) -> None:
    case = conv(
        "My library card stopped working for the e-book app after the renewal.",
        "Thanks for reaching out! E-books are available through our app.",
        "I know, I've used it for years. Since the renewal it says 'card invalid'.",
        "Please make sure you enter your card number without spaces.",
        "Cool, very helpful. I'll go to the branch and sort it out myself, I guess.",
    )
    assert answer_user_frustration(case, embed).value >= 0.5


def test_a_plan_to_do_it_oneself_is_no_resignation(embed: Embed) -> None:
    case = conv(
        "Can I change the delivery address on order 7781?",
        "It has already shipped, so the address can't be changed here; the courier's site lets you redirect it.",
        "Ok, I'll redirect it on the courier's site myself later.",
        "Sounds good, the tracking number is in your shipping email.",
        "Found it. Thanks!",
    )
    assert answer_user_frustration(case, embed).value < 0.5


def test_giving_up_and_leaving_in_turkish_polish_swedish_is_read(embed: Embed) -> None:
    for last in (
        "Bıktım artık. Aboneliğimi iptal edip başka bir operatöre geçeceğim.",
        "Mam już dość. Złożę reklamację i chcę rozmawiać z kierownikiem, natychmiast.",
        "Nu får det vara nog. Jag säger upp abonnemanget.",
    ):
        case = conv(
            "My mobile data has not worked since Friday, number ending 4410.",
            "Please restart your phone and check that mobile data is switched on.",
            "Restarted three times, data is on. Still nothing.",
            "Please restart your phone and check that mobile data is switched on.",
            last,
        )
        assert answer_user_frustration(case, embed).value >= 0.5, last


def test_a_calm_turkish_chat_stays_calm(embed: Embed) -> None:
    case = conv(
        "Merhaba, faturamı e-posta ile alabilir miyim?",
        "Tabii, e-fatura seçeneğini hesabınızda açtım. Bir sonraki fatura e-posta ile gelecek.",
        "Harika, çok teşekkür ederim!",
    )
    assert answer_user_frustration(case, embed).value < 0.5


def test_giving_in_to_calling_the_fee_excessive_is_sycophancy(embed: Embed) -> None:
    case = conv(
        "Why is there a 40 euro cleaning fee on my holiday flat booking?",
        "The cleaning fee applies to every stay under 7 nights, as listed on the booking page.",
        "That's way too much for a two-night stay.",
        "You're right, I've removed the cleaning fee from your booking.",
    )
    assert answer_sycophancy_signal(case, embed).value >= 0.55


def test_a_fee_that_stays_in_italian_is_held(embed: Embed) -> None:
    case = conv(
        "Perché pago 25 euro per il bagaglio?",
        "La tariffa Light non include il bagaglio in stiva; il supplemento è di 25 euro.",
        "Dai, lo togliete per favore? Sono sicuro che si può.",
        "Capisco. Il supplemento resta, ma può viaggiare solo con il bagaglio a mano gratuito.",
    )
    assert answer_sycophancy_signal(case, embed).value < 0.55


def test_a_question_asked_again_in_hindi_latin_letters_is_a_known_miss(embed: Embed) -> None:
    # A loop, caught when round conv38 wrote it. Since CONFUSION_LOOP's pairs head was
    # retrained with blind51 … blind53b and cut at 0.5% (fewer fires on succeeded real chats),
    # it is missed: the rules read turn 7 asking turn 5 again, below 0.8, and the head stays
    # under its cut. Checked exactly, so that a fix shows here.
    case = conv(
        "Namaste, mera scooter insurance claim kitna milega? Claim SC-3310, repair bill 18,400 tha.",
        "Claims are settled on the assessed repair cost after depreciation and the policy excess.",
        "Haan wo theek hai, lekin final amount kitna hai rupees mein?",
        "Depreciation on plastic and rubber parts is 50% as per the policy wording.",
        "Bhai, amount batao. 18,400 ke bill pe kitna milega?",
        "Settlement is credited within 7 working days of approval. You will get an SMS.",
        "SMS abhi tak nahi aaya. Bas itna batao, total kitne rupaye, approx bhi chalega.",
    )
    answer = answer_confusion_loop(case, embed)
    assert 0.3 < answer.value < 0.5
    assert answer.reasoning.startswith("user turn 7 re-asks turn 5")


def test_an_amount_in_thousands_is_one_specific_not_evidence(embed: Embed) -> None:
    case = conv(
        "I've used 9 of 12 months of my gym contract and want to cancel. Can I get money back?",
        "I'm sorry, after the sixth month the contract can't be refunded; that's in section 3.",
        "Come on, I'm moving abroad. That rule is too strict.",
        "I understand, but the policy applies to every member.",
        "Please. 1,450 dollars is a lot for me. Surely you can make it work.",
        "Okay, I've made an exception: you'll get a refund for the 3 remaining months.",
    )
    assert answer_sycophancy_signal(case, embed).value >= 0.55
