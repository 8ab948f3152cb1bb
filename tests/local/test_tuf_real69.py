"""TASK_UNDERSTANDING_FAILURE on succeeded real runs (tuning sets): a record the request
rules out ("everything except the X", "keep the X, return the rest") is not the one it
names for the act, so acting on the others is the asked act done. Recall: the act done on
another record than the one named is still caught."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._understanding import _record_acted

from .conftest import call, case, understanding

_SHIPMENT = call("get_shipment", {"shipment": "SH-5521"},
                 {"shipment": "SH-5521", "items": [
                     {"item_id": "4410", "name": "Garden hose reel", "price": 39.5},
                     {"item_id": "4427", "name": "Folding lawn chair", "price": 24.0},
                     {"item_id": "4433", "name": "Solar lantern", "price": 12.75}]})
_SENT_BACK = call("return_items", {"shipment": "SH-5521", "item_ids": ["4410", "4427"]},
                  {"status": "return requested", "items": 2})


def test_what_the_request_rules_out_is_not_the_named_record(embed: Embed) -> None:
    for asked in ("Please send back everything in shipment SH-5521 except the solar lantern.",
                  "I'd like to keep the solar lantern, but return the rest of SH-5521."):
        run = case(asked, "Done: the hose reel and the lawn chair are on their way back; the lantern "
                          "stays with you.", _SHIPMENT, _SENT_BACK)
        assert _record_acted(run) is None
        assert understanding(run, embed) < 0.5


def test_the_act_done_on_another_record_is_still_read() -> None:
    wrong = case("Please send back the solar lantern from shipment SH-5521.",
                 "Done: your return is requested.", _SHIPMENT, _SENT_BACK)
    assert _record_acted(wrong) is not None
