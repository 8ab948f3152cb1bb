"""USER_FRUSTRATION on the false alarm of blind60 … blind62b (opened this round), tested in a
domain of its own here: a question that asks how tasks are shared ("who brings what?") is
no accusing "who" question, so a glad user's capitals and "!!" stay excitement. Recall: a
"who" question about responsibility, and growing anger, are still read."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._conversation import answer_user_frustration
from semloop.judge.local._tone import _accusing_question

from .conftest import chat


def test_a_question_of_who_does_what_accuses_no_one(embed: Embed) -> None:
    assert not _accusing_question("so for the potluck, who brings what?")
    assert _accusing_question("So who is responsible for this mess?")
    glad = chat("WE GOT THE HALL!!! The choir is in for the spring concert!!",
                "Wonderful news, congratulations to the choir!",
                "THANK YOU!! ok now the dull bit haha, how do we split the setup? who does what?",
                "The hall team sets out the chairs; your choir brings its own risers and music stands.",
                "BRILLIANT. our secretary will sort it. you've been SO helpful!!",
                "Happy to help. Enjoy the concert!")
    assert answer_user_frustration(glad, embed).value < 0.5
    angry = chat("My refund still hasn't arrived.",
                 "I'm sorry, it can take up to 10 days.",
                 "It's been THREE WEEKS!! Who is actually responsible for this??",
                 "I understand. I've escalated it to billing.",
                 "This is ridiculous. Fix it today or I'm cancelling everything.",
                 "I'm sorry for the delay.")
    assert answer_user_frustration(angry, embed).value >= 0.5
