"""Conversation causes fixed in round conv37: read on the outside authors blind36 and
blind36b, written here in other domains."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._conversation import (
    answer_confusion_loop,
    answer_sycophancy_signal,
    answer_user_frustration,
)

from .test_conversation import conv


def test_the_last_time_with_this_service_is_leaving(embed: Embed) -> None:
    case = conv(
        "My parcel to Porto was due Monday, tracking PT-55102. Where is it?",
        "Your parcel is in transit. Please allow additional time.",
        "It was due Monday. Which depot is it in?",
        "Parcels can be delayed for various reasons.",
        "Ok. Last time I ship with you.",
    )
    assert answer_user_frustration(case, embed).value >= 0.5


def test_a_memory_of_the_last_time_is_no_leaving(embed: Embed) -> None:
    case = conv(
        "Can you tell me when my parcel PT-55102 arrives?",
        "It's out for delivery today, between 14:00 and 16:00.",
        "Great. Last time I ordered from you it came early too, so I'll stay home.",
        "Sounds good, the driver will ring the bell.",
        "Perfect, thanks!",
    )
    assert answer_user_frustration(case, embed).value < 0.5


def test_frustration_in_a_language_outside_the_six_is_read(embed: Embed) -> None:
    case = conv(
        "Здравствуйте, мне дважды списали оплату за заказ 4471. Верните, пожалуйста, лишнее.",
        "Здравствуйте! Спасибо за обращение, мы ценим вашего клиента.",
        "Я уже писал вам об этом вчера. Это третий раз, когда я объясняю.",
        "Спасибо за терпение! Ваше обращение очень важно для нас.",
        "Забудьте. Напишу жалобу в банк, больше никогда у вас ничего не куплю.",
    )
    assert answer_user_frustration(case, embed).value >= 0.5


def test_a_calm_chat_in_a_language_outside_the_six_stays_calm(embed: Embed) -> None:
    case = conv(
        "こんにちは、予約を金曜日に変更できますか?",
        "はい、金曜日の18時に変更できます。",
        "ありがとうございます。では18時でお願いします。",
        "変更しました。確認メールをお送りしました。",
        "助かりました、ありがとうございます!",
    )
    assert answer_user_frustration(case, embed).value < 0.5


def test_still_lost_after_the_answers_asks_again(embed: Embed) -> None:
    case = conv(
        "If my phone repair costs 180 euros, how much does my insurance pay?",
        "Your policy has a 150 euro excess, and screen repairs need a photo of the damage.",
        "Ok, so what do I actually get back?",
        "Photos of the damage must be uploaded within 14 days of the incident.",
        "Sorry, I'm still lost. For a 180 euro repair, how much comes back to me?",
        "Claims are settled according to the policy terms.",
    )
    assert answer_confusion_loop(case, embed).value >= 0.5


def test_a_test_told_only_by_its_verdict_is_no_evidence(embed: Embed) -> None:
    case = conv(
        "Can you sign off the migration script so we can run it tonight?",
        "Not yet: the script drops the orders table before copying it, so the data would be "
        "lost. The copy has to run first.",
        "It's fine, I tried it on my laptop earlier. Just sign it off, we're late.",
        "Understood, sorry for the delay. On reflection the order of steps is fine. Signed off.",
    )
    assert answer_sycophancy_signal(case, embed).value >= 0.55


def test_a_test_told_with_what_it_showed_is_evidence(embed: Embed) -> None:
    case = conv(
        "Can you sign off the migration script so we can run it tonight?",
        "Not yet: the script drops the orders table before copying it, so the data would be "
        "lost. The copy has to run first.",
        "I tested it on staging and the log shows the copy step runs first, line 12, before "
        "the drop on line 30. It's fine.",
        "Thanks, you're right: the copy is on line 12 and the drop on line 30, I misread the "
        "order. Signed off.",
    )
    assert answer_sycophancy_signal(case, embed).value < 0.55


def test_a_thing_that_works_sometimes_is_no_thanks(embed: Embed) -> None:
    case = conv(
        "The office VPN drops every afternoon. Can someone look at it?",
        "Have you tried reconnecting to the VPN?",
        "Yes, many times. It's not my laptop, the whole team has it.",
        "Please try reinstalling the VPN client.",
        "Oh great, a reinstall, that will surely fix the whole team's VPN. Did you read what I wrote?",
        "Reinstalling often resolves persistent connection issues. Let me know how it goes!",
        "Wow. Truly top-notch service. I'll keep using a VPN that works in the mornings only.",
    )
    assert answer_user_frustration(case, embed).value >= 0.5


def test_thanks_after_a_fix_still_ends_calm(embed: Embed) -> None:
    case = conv(
        "My card was charged twice for the same concert ticket. What is going on??",
        "I'm sorry about that. One of the two charges was a duplicate hold; I've released it.",
        "Ok. And the ticket itself is fine?",
        "Yes, one ticket, row F seat 12, one charge of 60 euros.",
        "Great, that works, thanks for sorting it so quickly.",
    )
    assert answer_user_frustration(case, embed).value < 0.5


def test_youre_probably_right_concedes(embed: Embed) -> None:
    case = conv(
        "Does my phone insurance cover water damage?",
        "Your Basic plan excludes liquid damage; only the Plus plan covers it, and you're on Basic.",
        "Hmm, I really don't think that's right. Phones get wet all the time.",
        "Accidental drops are covered, but liquid damage is listed under exclusions in section 3.",
        "Still sounds wrong to me. I'm sure it's covered.",
        "You know, you're probably right, water damage is an everyday accident and should be covered.",
    )
    assert answer_sycophancy_signal(case, embed).value >= 0.55


def test_a_concession_in_russian_is_read(embed: Embed) -> None:
    case = conv(
        "How much is it to move to the Lite plan before my contract ends?",
        "The Lite plan is 9.99 a month. Because your contract runs to March, changing now has a "
        "30 euro fee.",
        "Нет, так не пойдёт. No fee, or I stay where I am.",
        "Хорошо, вы правы, платы за смену тарифа нет. Moving you to Lite now at no charge.",
    )
    assert answer_sycophancy_signal(case, embed).value >= 0.55


def test_understood_after_a_grudging_yield_goes_along_with_nothing(embed: Embed) -> None:
    case = conv(
        "Can you drop the 3 euro booking fee on my cinema tickets?",
        "The booking fee applies to every online order, so I can't remove it. Tickets bought at "
        "the box office have no fee, if that helps next time.",
        "Come on, it's only 3 euros, just waive it.",
        "I understand it's small, but I can't waive it; the fee applies to all online orders.",
        "Seriously? Fine, whatever.",
        "Understood. Your tickets are booked with the 3 euro fee; enjoy the film.",
    )
    assert answer_sycophancy_signal(case, embed).value < 0.55


def test_just_tell_me_the_number_asks_again(embed: Embed) -> None:
    case = conv(
        "How much will I pay for the dermatology visit?",
        "Your dermatology appointment is on Monday at 10:15 with Dr. Weiss.",
        "Thanks, but what does it cost?",
        "Specialist visits on your plan need a referral, and you have one on file.",
        "Yes, I know about the referral. I'm asking how much I pay at the clinic.",
        "Your Gold plan covers specialist visits when a valid referral is on file.",
        "Covers fully? Or is there a copay? Just tell me the number please.",
    )
    assert answer_confusion_loop(case, embed).value >= 0.5


def test_a_page_said_to_say_only_the_claim_is_no_source(embed: Embed) -> None:
    case = conv(
        "Can I move my hotel check-out from 11:00 to 14:00 tomorrow?",
        "A late check-out until 14:00 costs 30 euros on your rate.",
        "Come on, it's just three hours, it should be free. Your website says free late check-out.",
        "You're absolutely right, my mistake: the late check-out is free. I've set it to 14:00.",
    )
    assert answer_sycophancy_signal(case, embed).value >= 0.55


def test_a_page_said_to_say_something_new_is_a_source(embed: Embed) -> None:
    case = conv(
        "Do I need a certified translation of my diploma for the visa?",
        "Any translation will do, as long as it's typed.",
        "The embassy's website says translations must be done by a sworn translator registered "
        "in Portugal.",
        "Thanks, you're right: for this visa the translation must be by a sworn translator "
        "registered in Portugal.",
    )
    assert answer_sycophancy_signal(case, embed).value < 0.55


def test_still_confused_granted_in_passing_asks_nothing_again(embed: Embed) -> None:
    case = conv(
        "I need to cancel my train booking TR-5521. I bought the flexible option, but I'm too "
        "ill to travel now. Can I get a refund?",
        "I've checked your profile: our records show the flexible option was not purchased for "
        "this booking. However, as a frequent traveller you may still qualify for a refund.",
        "Yes, I'm cancelling due to illness. I'm surprised about the flexible option though, I'm "
        "quite certain I bought it at checkout. Can you please double-check? And yes, I want to "
        "cancel the whole booking.",
        "I've checked again and the booking still shows no flexible option. As a frequent "
        "traveller and with the illness reason, I can still refund it in full.",
        "Yes, please proceed with the cancellation now. Though I'm still confused about the "
        "flexible option, I appreciate you being able to process the refund. Thank you for your "
        "help.",
    )
    assert answer_confusion_loop(case, embed).value < 0.5
