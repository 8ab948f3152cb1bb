"""HALLUCINATION reads a tool output's code-free text once per output, however many of its
checks ask for it: the second reading is the first's answer."""

from __future__ import annotations

from semloop.judge.local._grounding import _code_free


def test_code_free_is_read_once_and_answers_the_same() -> None:
    log = "status: ok\nx = compute(y)\nThe refund was issued.\n"
    _code_free.cache_clear()
    first = _code_free(log)
    again = _code_free(log)
    assert first == again == "status: ok\nThe refund was issued."
    assert _code_free.cache_info().hits == 1
