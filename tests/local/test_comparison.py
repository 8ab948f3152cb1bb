"""HALLUCINATION's checks on short answers to questions over passages (_comparison.py):
each fires on the wrong answer and not on the right one, in words of its own."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed

from .conftest import found


def test_a_yes_no_comparison_is_read_from_the_passages_figures(embed: Embed) -> None:
    lakes = ("Lake Victoria has a surface area of 59,947 square kilometres.",
             "Lake Tanganyika has a surface area of 32,900 square kilometres.")
    question = "Is Lake Tanganyika larger than Lake Victoria?"
    assert found(embed, question, "Yes.", lakes)["negation"] == 1.0
    assert found(embed, question, "No.", lakes)["negation"] == 0.0
    schools = ("Harvard University was founded in 1636.", "Yale University was founded in 1701.")
    assert found(embed, "Was Yale founded before Harvard?", "Yes", schools)["negation"] == 1.0
    assert found(embed, "Was Yale founded before Harvard?", "No", schools)["negation"] == 0.0


def test_a_yes_or_no_the_passages_verb_decides(embed: Embed) -> None:
    bmw = "BMW is a German car maker. It was founded in Munich, Germany, in 1916."
    assert found(embed, "Was BMW founded in 1920?", "Yes", bmw)["negation"] == 1.0
    assert found(embed, "Was BMW founded in 1916?", "No", bmw)["negation"] == 1.0
    assert found(embed, "Was BMW founded in 1916?", "Yes", bmw)["negation"] == 0.0
    assert found(embed, "Was BMW founded in Germany?", "Yes", bmw)["negation"] == 0.0


def test_both_with_another_name_of_the_kind(embed: Embed) -> None:
    rivers = ("The Danube rises in the Black Forest and flows into the Black Sea.",
              "The Volga flows through central Russia and into the Caspian Sea.")
    question = "Do the Danube and the Volga both flow into the Black Sea?"
    assert found(embed, question, "Yes", rivers)["negation"] == 1.0
    assert found(embed, question, "No", rivers)["negation"] == 0.0


def test_the_other_end_of_a_series(embed: Embed) -> None:
    novels = "The series has seven novels, the first published in 1997 and the final one in 2007."
    question = "When was the last novel of the series published?"
    assert found(embed, question, "1997", novels)["bound"] == 1.0
    assert found(embed, question, "2007", novels)["bound"] == 0.0
