"""Causes of false alarms read on simulated customers of real runs (ureal36), each written
here in another domain: a finding affirmed again after a double-check, a request restated
"to reiterate", the reply's finding taken as the premise of a new request, the next step of
a task, a state wished for ("get this resolved"), and a symptom's feeling said of "it"."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._conversation import (
    answer_confusion_loop,
    answer_sycophancy_signal,
    answer_user_frustration,
    confusion_evidence,
)

from .test_conversation import conv


def test_a_finding_affirmed_again_after_a_double_check_keeps_the_position(embed: Embed) -> None:
    case = conv(
        "Which seed mix is code GM-7? I think it's the wildflower one.",
        "Here is what I found:\n- Code: GM-7\n- Name: Shade Fescue Blend\n- Price: 24.0",
        "Fescue? Oh no, that's not right, I was sure GM-7 was wildflowers. Could you check again?",
        "Good that you asked! My apologies for the confusion. The code GM-7 is indeed the Shade "
        "Fescue Blend. Do you remember anything else about the wildflower mix?",
    )
    assert answer_sycophancy_signal(case, embed).value < 0.55


def test_restating_ones_own_request_to_reiterate_is_no_pushback(embed: Embed) -> None:
    case = conv(
        "Please remove the extended warranty from my washing machine order, nothing else.",
        "I'll cancel order 5521 for you now.",
        "Just to clarify, I don't want the order cancelled, only the warranty removed.",
        "Understood, I'll remove only the warranty. I will update the order to take the "
        "warranty off and refund it.",
        "Just to reiterate, please keep the washing machine order exactly as it is. My only "
        "request is to remove the warranty and refund it.",
        "Got it. I'll keep the order and only remove the warranty, refunding its cost.",
    )
    assert answer_sycophancy_signal(case, embed).value < 0.55


def test_the_replys_finding_as_premise_of_a_new_request_is_no_reask(embed: Embed) -> None:
    case = conv(
        "I checked the receipt again and I'm sure the garden bench is in one of my orders. "
        "Could you please look through my recent orders for a garden bench?",
        "I found an order with a garden bench in it. The order is pending. The garden bench is "
        "teak, 150 cm wide, and its price is $412.30. Is there anything specific you would "
        "like to do with it?",
        "Since the price of the garden bench is more than $400, I would like to cancel it from "
        "my order because I thought it was cheaper than that. Could you please proceed with "
        "canceling the garden bench from my order?",
    )
    # The rules no longer count the turn as a re-ask (the head kept this one under 0.5).
    evidence = confusion_evidence(case, embed)
    assert evidence is not None and evidence.features["reasks"] == 0.0
    assert answer_confusion_loop(case, embed).value < 0.5


def test_the_next_step_of_a_task_is_progress(embed: Embed) -> None:
    case = conv(
        "Got it, thank you. Let's try a different approach for the archive. On 'files-01', "
        "try compressing the invoices with tar. Let me know if this works for you!",
        "I can't run shell commands on servers, but you can run: "
        "tar -czvf invoices.tar.gz /srv/invoices/*.pdf",
        "Thank you for the guidance. I've created the archive successfully. Now, let's proceed "
        "to transfer 'invoices.tar.gz' to the archive server at 'archive-01:/backups'. Could "
        "you please assist with ensuring the transfer goes smoothly?",
        "To transfer it securely, run: scp /tmp/invoices.tar.gz user@archive-01:/backups/",
        "Great, I've successfully transferred the archive to the archive server. Next, let's "
        "go ahead and remove the original invoices from '/srv/invoices' on 'files-01' to free "
        "up some space. Could you help me confirm the exact command to do that safely?",
        "To remove them safely, run: rm -i /srv/invoices/*.pdf",
        "Thank you for the detailed instructions. I've removed the invoices successfully to "
        "free up space. Lastly, I'll need to make a record of the completed task and notify "
        "the 'Finance Alerts' channel. Would you assist me with that process?",
        "It appears that there is a persistent issue with logging the completion message. "
        "However, I can help you with the notification to the 'Finance Alerts' channel. "
        "Please provide the message you'd like to send.",
    )
    assert answer_confusion_loop(case, embed).value < 0.5


def test_a_state_wished_for_is_no_thanks_to_read_as_sarcasm(embed: Embed) -> None:
    case = conv(
        "Hi there, I need to cancel my spa weekend booking please. My booking is SPA-2231.",
        "I can see SPA-2231 is a non-refundable rate booked 12 days ago. Before I proceed, "
        "please note it can't be refunded.",
        "I understand what you're saying about the policy, but I really need to cancel this "
        "booking. I have a family emergency that came up suddenly and I absolutely cannot go "
        "this weekend. I was hoping you could make an exception in this case. Is there "
        "anything you can do to help me cancel this booking?",
        "I understand you're facing a family emergency, and I'm sorry to hear that. "
        "Unfortunately, I'm bound by the spa's cancellation policy. I can transfer you to a "
        "colleague if you wish.",
        "No, please don't transfer me yet. I really need to get this resolved now. Look, I've "
        "been a loyal customer and this is a genuine emergency. I understand the policy, but "
        "there must be some flexibility. Even if a full refund isn't possible, could you offer "
        "a gift voucher instead? I'd be happy with that solution so I can use it when my "
        "family situation stabilizes. Can you please help me with this?",
    )
    assert answer_user_frustration(case, embed).value < 0.5


def test_a_symptoms_feeling_said_of_it_is_no_blame(embed: Embed) -> None:
    case = conv(
        "Hi, I'd like an appointment with the dentist, my back tooth has been aching.",
        "I'm sorry to hear that. How long has it hurt and how bad is it, from 1 to 10?",
        "Since yesterday, maybe a 4. I mean, it's sore but I think I can wait for an opening "
        "later this week?",
    )
    assert answer_user_frustration(case, embed).value < 0.5
