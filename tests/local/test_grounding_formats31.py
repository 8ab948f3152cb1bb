"""HALLUCINATION over tool outputs in the forms outside authors write besides JSON (XML, a SQL
client's table, CSV with a unit column, markdown rows in the answer) and answers that work
values out (a date counted back or in working days, a holding at its price, a total before
its parts). Each with a careful look-alike that must not fire, or a slip that must."""

from __future__ import annotations

from semloop.case import ToolCall
from semloop.judge.local._answerer import Embed

from .conftest import found


def _text(name: str, output: str) -> ToolCall:
    return ToolCall(name, {}, output, True)


def test_xml_elements_are_read_as_their_json_records(embed: Embed) -> None:
    xml = _text("list_orders", "<orders><order id=\"TR-11\"><status>DELIVERED</status><completed>2026-12-02</completed>"
                               "</order><order id=\"TR-12\"><status>IN_REVIEW</status><due>2026-12-09</due></order></orders>")
    json_ = _text("list_orders", '{"order": [{"id": "TR-11", "status": "DELIVERED", "completed": "2026-12-02"}, '
                                 '{"id": "TR-12", "status": "IN_REVIEW", "due": "2026-12-09"}]}')
    for answer in ("Order TR-12 is delivered; it was completed on 2 December.", "Order TR-12 is due on 9 December."):
        assert found(embed, "status?", answer, calls=(xml,)) == found(embed, "status?", answer, calls=(json_,))
    assert found(embed, "status?", "Order TR-12 is delivered; it was completed on 2 December.",
                 calls=(xml,))["negation"] == 1


def test_a_sql_client_table_of_one_row_is_a_record(embed: Embed) -> None:
    sums = _text("sql_query", "seats | revenue\n------+---------\n   14 | 2380.50\n(1 row)")
    got = found(embed, "how did the show do?", "The show took £2,380.50 from your 14 ticket holders.", calls=(sums,))
    assert got.get("bound", 0) == 0 and got.get("numbers", 0) == 0


def test_a_date_counted_back_or_in_working_days(embed: Embed) -> None:
    lease = _text("get_lease", '{"lease": "LS-4", "ends": "2027-06-30", "notice_days": 60}')
    assert found(embed, "notice?", "Notice is due 60 days before the end, so by 1 May 2027.",
                 calls=(lease,)).get("numbers", 0) == 0
    assert found(embed, "notice?", "Notice is due 60 days before the end, so by 11 May 2027.",
                 calls=(lease,))["numbers"] >= 1
    order = _text("get_order", '{"placed": "2026-12-04", "lead_time": "3 working days"}')
    assert found(embed, "when?", "It ships 3 working days after you ordered, so on 9 December.",
                 calls=(order,)).get("numbers", 0) == 0


def test_a_table_cell_s_none_negates_no_other_cell(embed: Embed) -> None:
    audit = _text("get_audit", '{"checks": [{"name": "Fire doors", "result": "pass", "action": "none"}, '
                               '{"name": "Alarm panel", "result": "fail", "action": "replace battery"}]}')
    got = found(embed, "summary?", "| Fire doors | pass | none |\n| Alarm panel | fail | replace battery |",
                calls=(audit,))
    assert got.get("negation", 0) == 0


def test_a_payment_due_to_a_payee_gives_no_cause(embed: Embed) -> None:
    tax = _text("get_deadlines", '{"vat_due": "2027-01-07", "vat_amount": 912.4}')
    assert found(embed, "vat?", "Your VAT of £912.40 is due to the tax office by 7 January.",
                 calls=(tax,)).get("cause", 0) == 0


def test_a_field_read_off_its_neighbour_in_one_record(embed: Embed) -> None:
    rooms = _text("sql_query", "room | seated | standing\n-----+--------+---------\nLoft | 60 | 90\nCellar | 40 | 70")
    assert found(embed, "how many?", "The Loft seats up to 90 for dinner.", calls=(rooms,))["numbers"] >= 1
    assert found(embed, "how many?", "The Loft seats up to 60 for dinner.", calls=(rooms,)).get("numbers", 0) == 0


def test_a_unit_column_gives_the_numbers_before_it_their_unit(embed: Embed) -> None:
    stock = _text("stock", "item;qty;unit\ncopper wire;2,5;t\nsteel rod;800;m")
    assert found(embed, "how much?", "You have 2,500 kg of copper wire.", calls=(stock,)).get("numbers", 0) == 0
    assert found(embed, "how much?", "You have 25,000 kg of copper wire.", calls=(stock,))["numbers"] >= 1


def test_a_language_given_by_its_code(embed: Embed) -> None:
    job = _text("get_job", '{"job": "TJ-7", "pair": "FR-IT", "words": 1200}')
    assert found(embed, "status?", "Your French to Italian job TJ-7 has 1,200 words.", calls=(job,)).get(
        "names", 0) == 0
    assert found(embed, "status?", "Your French to Polish job TJ-7 has 1,200 words.", calls=(job,))["names"] >= 1


def test_a_total_before_its_parts_and_a_holding_at_its_price(embed: Embed) -> None:
    wallet = _text("balances", '{"balances": [{"asset": "SOL", "free": "12.00"}, {"asset": "DOT", "free": "40.00"}]}')
    prices = _text("prices", '{"SOL": 150.0, "DOT": 5.5}')
    got = found(embed, "worth?", "About €2,020 in all: €1,800 in SOL and €220 in DOT.", calls=(wallet, prices))
    assert got.get("numbers", 0) == 0 and got.get("bound", 0) == 0
    assert found(embed, "worth?", "About €2,020 in all: €1,800 in SOL and €320 in DOT.",
                 calls=(wallet, prices))["numbers"] >= 1


def test_minutes_and_seconds_are_one_duration(embed: Embed) -> None:
    run = _text("ci.get", '{"job": "build-77", "wall_time": "41m12s"}')
    assert found(embed, "how long?", "The build took just over 41 minutes (41m 12s).", calls=(run,)).get(
        "numbers", 0) == 0
    assert found(embed, "how long?", "The build took 41m 21s.", calls=(run,))["numbers"] >= 1


def test_a_query_the_agent_sent_states_no_fact(embed: Embed) -> None:
    sent = ToolCall("sql.run", {"query": "SELECT COUNT(*) FROM enrolments WHERE paid_at IS NOT NULL AND "
                                         "refunded_at IS NULL"}, '{"rows": [[42]]}', True)
    assert found(embed, "how many?", "42 students have paid and have not been refunded.", calls=(sent,)).get(
        "negation", 0) == 0


def test_a_name_of_parts_written_as_one_word(embed: Embed) -> None:
    flat = _text("get_flat", '{"flat": "F-2", "included": ["heating", "wifi"]}')
    got = found(embed, "what's included?", "Flat F-2 includes heating and Wi-Fi.", calls=(flat,))
    assert got.get("names", 0) == 0 and got.get("offered", 0) == 0
    assert found(embed, "what's included?", "Flat F-2 includes heating and Wi-Fi and a gym pass.",
                 calls=(flat,))["offered"] >= 1


def test_a_fronted_cause_ends_where_the_main_clause_starts(embed: Embed) -> None:
    refund = _text("cancel", '{"booking": "BK-9", "status": "cancelled", "refund": {"amount_eur": 30, '
                             '"reason": "cancelled >24h before start"}}')
    assert found(embed, "cancel it", "Since you cancelled more than 24 hours before the start, the €30 "
                                     "will be refunded.", calls=(refund,)).get("cause", 0) == 0


def test_a_waitlisted_record_is_short_of_confirmed(embed: Embed) -> None:
    place = _text("get_place", '{"application": "AP-31", "club": "Rowing juniors", "status": "WAITLISTED", '
                               '"position": 3}')
    assert found(embed, "in?", "Your place at Rowing juniors (AP-31) is confirmed.", calls=(place,))["negation"] == 1
    assert found(embed, "in?", "AP-31 is on the waiting list at position 3; it isn't confirmed yet.",
                 calls=(place,)).get("negation", 0) == 0
