"""HALLUCINATION on causes read from blind45 and gen30b (and fmt27): power at every scale a
plant reports it (MW, GW beside kW), so "2.41 MW" restates 2412 kW; and a supported amount
restated at once in a directly linked unit as a number no conversion gives ("110 kW, which
is about 82 hp"), which a chance sum of the record must not excuse."""

from __future__ import annotations

from semloop.case import RunCase, ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._grounding import answer_hallucination

from .conftest import found


def _answer(embed: Embed, question: str, answer: str, output: str) -> float:
    case = RunCase(id="check", input=question, output=answer, context=(),
                   tools_called=(ToolCall(name="plant.read", args={"unit": "K-2"}, output=output,
                                          success=True),))
    return answer_hallucination(case, embed).value


def test_megawatts_restate_the_records_kilowatts(embed: Embed) -> None:
    tags = "K-2.Output = 3150 kW\nK-2.State = RUN"
    assert _answer(embed, "What is K-2 producing?", "K-2 is running and producing 3.15 MW.", tags) < 0.5
    assert _answer(embed, "What is K-2 producing?", "K-2 is running at 3.15 MW, that is 3,150 kW.", tags) < 0.5


def test_a_restated_amount_no_conversion_gives_is_wrong(embed: Embed) -> None:
    spec = {"model": "Arden 4", "rated_power_kw": 75, "serial_no": 58120}
    right = "The Arden 4 is rated at 75 kW, which is about 101 hp."
    assert found(embed, "How strong is the motor?", right, tool=spec).get("numbers", 0) == 0
    # 56 hp is 75 kW converted the wrong way round, and lies near a chance sum of the record.
    wrong = right.replace("101 hp", "56 hp")
    assert found(embed, "How strong is the motor?", wrong, tool=spec)["numbers"] >= 1
