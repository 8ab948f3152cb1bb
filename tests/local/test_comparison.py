"""HALLUCINATION's checks on short answers to questions over passages (_comparison.py):
each fires on the wrong answer and not on the right one, in words of its own."""

from __future__ import annotations

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._grounding import hallucination_evidence


def _features(embed: Embed, question: str, answer: str, *passages: str) -> dict[str, float]:
    case = RunCase(id="qa", input=question, output=answer, context=passages, tools_called=())
    return hallucination_evidence(case, embed).features


def test_a_yes_no_comparison_is_read_from_the_passages_figures(embed: Embed) -> None:
    lakes = ("Lake Victoria has a surface area of 59,947 square kilometres.",
             "Lake Tanganyika has a surface area of 32,900 square kilometres.")
    question = "Is Lake Tanganyika larger than Lake Victoria?"
    assert _features(embed, question, "Yes.", *lakes)["negation"] == 1.0
    assert _features(embed, question, "No.", *lakes)["negation"] == 0.0
    schools = ("Harvard University was founded in 1636.", "Yale University was founded in 1701.")
    assert _features(embed, "Was Yale founded before Harvard?", "Yes", *schools)["negation"] == 1.0
    assert _features(embed, "Was Yale founded before Harvard?", "No", *schools)["negation"] == 0.0


def test_a_value_of_another_entity_than_the_questions_hop(embed: Embed) -> None:
    passages = ("The cup final will be played at Kingsmead Arena.",
                "Venues. Kingsmead Arena: capacity 28,500. Harbour Park: capacity 41,000.")
    question = "What is the capacity of the venue where the final is played?"
    assert _features(embed, question, "41,000", *passages)["bound"] == 1.0
    assert _features(embed, question, "28,500", *passages)["bound"] == 0.0


def test_a_value_the_passage_ties_to_another_relation(embed: Embed) -> None:
    passages = ("Blade Runner is a 1982 film directed by Ridley Scott, starring Harrison Ford.",
                ("Sir Ridley Scott is an English film director. Born in South Shields, he "
                 "studied at the Royal College of Art in London."))
    question = "The director of Blade Runner was born in which town?"
    assert _features(embed, question, "London", *passages)["bound"] == 1.0
    assert _features(embed, question, "South Shields", *passages)["bound"] == 0.0
    # Said in another verb of the relation, the value is tied to it.
    firm = "Northwind is a software company. It was established in Leeds; its owner was founded in Bristol."
    assert _features(embed, "Northwind was founded in which city?", "Leeds", firm)["bound"] == 0.0


def test_a_count_of_something_else(embed: Embed) -> None:
    jupiter = "Jupiter has 95 known moons, including the four large Galilean moons."
    question = "How many known moons does Jupiter have?"
    assert _features(embed, question, "four", jupiter)["bound"] == 1.0
    assert _features(embed, question, "95", jupiter)["bound"] == 0.0
    # "won eleven" answers "how many did it win", whatever "fourteen Academy Awards" counts.
    titanic = "Titanic was nominated for fourteen Academy Awards and won eleven."
    assert _features(embed, "How many Academy Awards did Titanic win?", "11", titanic)["bound"] == 0.0


def test_a_yes_or_no_the_passages_verb_decides(embed: Embed) -> None:
    bmw = "BMW is a German car maker. It was founded in Munich, Germany, in 1916."
    assert _features(embed, "Was BMW founded in 1920?", "Yes", bmw)["negation"] == 1.0
    assert _features(embed, "Was BMW founded in 1916?", "No", bmw)["negation"] == 1.0
    assert _features(embed, "Was BMW founded in 1916?", "Yes", bmw)["negation"] == 0.0
    assert _features(embed, "Was BMW founded in Germany?", "Yes", bmw)["negation"] == 0.0


def test_both_with_another_name_of_the_kind(embed: Embed) -> None:
    rivers = ("The Danube rises in the Black Forest and flows into the Black Sea.",
              "The Volga flows through central Russia and into the Caspian Sea.")
    question = "Do the Danube and the Volga both flow into the Black Sea?"
    assert _features(embed, question, "Yes", *rivers)["negation"] == 1.0
    assert _features(embed, question, "No", *rivers)["negation"] == 0.0


def test_the_other_end_of_a_series(embed: Embed) -> None:
    novels = "The series has seven novels, the first published in 1997 and the final one in 2007."
    question = "When was the last novel of the series published?"
    assert _features(embed, question, "1997", novels)["bound"] == 1.0
    assert _features(embed, question, "2007", novels)["bound"] == 0.0
