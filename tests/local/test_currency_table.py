"""The currency tables are read from one table (``_claims._CURRENCIES``): an amount gets one
unit whether written with its currency's sign, its code or its record key, and a currency
added as one row reaches every table the rules read."""

from __future__ import annotations

import pytest

from semloop.judge.local._claims import (
    _CURRENCIES,
    _CURRENCY_NAMES,
    _MARK_CODES,
    _code_units,
    _currency_names,
    _mark_codes,
    _mark_units,
    keyed_units,
    quantities,
)


def _unit(text: str) -> str:
    (q,) = quantities(f"The approved amount is {text} in total.")
    return q.unit


@pytest.mark.parametrize(("code", "signs"), [(c, s) for c, s, *_ in _CURRENCIES if s])
def test_a_sign_and_its_code_give_one_unit(code: str, signs: str) -> None:
    unit = _unit(f"{code} 182,000")
    assert unit
    assert {_unit(f"{sign}182,000") for sign in signs.split()} == {unit}
    assert _unit(f"182,000 {code}") == unit
    assert keyed_units(f"approved {code.lower()}: 182000") == [(182000.0, unit)]


def test_the_peso_sign_its_code_and_its_key_are_one_amount() -> None:
    assert _unit("₱182,000") == _unit("PHP 182,000") == keyed_units("approved php: 182000")[0][1]


def test_a_word_of_one_unit_reads_as_it_and_dollar_stays_any_dollar_or_peso() -> None:
    assert _unit("182,000 dollars") == _unit("$182,000") == _unit("USD 182,000")
    assert _unit("450 NIS") == _unit("₪450")
    assert {"USD", "CAD", "SGD", "MXN"} <= _MARK_CODES["$"]
    assert "KWD" not in _MARK_CODES["$"]  # a dinar is no dollar
    assert _MARK_CODES["¥"] == {"JPY", "CNY"}


def test_a_full_width_or_small_sign_is_the_sign() -> None:
    assert _unit("＄182,000") == _unit("﹩182,000") == _unit("$182,000")
    assert _unit("￡182,000") == _unit("GBP 182,000")
    assert _MARK_CODES["＄"] == _MARK_CODES["﹩"] == _MARK_CODES["$"]
    assert _MARK_CODES["￥"] == _MARK_CODES["¥"]


def test_a_scaled_amount_under_any_code_or_sign_is_read() -> None:
    assert [(q.value, q.unit) for q in quantities("raised SEK 5m")] == [(5e6, _unit("SEK 5"))]
    assert [(q.value, q.unit) for q in quantities("raised ₱5m")] == [(5e6, _unit("₱5"))]


def test_a_word_two_units_share_reads_as_none() -> None:
    rows = (("AAA", "¤a", "", "crown", ""), ("BBB", "¤b", "", "crown", ""))
    assert "crown" not in _mark_units(rows)


def test_a_new_row_reaches_every_derived_table() -> None:
    row = ("XTS", "⁂ T⁂", "$", "xts testcoin testcoins", "testland")
    rows = (*_CURRENCIES, row)
    assert _code_units(rows)["xts"] == "⁂"
    assert {m: _mark_units(rows)[m] for m in ("⁂", "t⁂", "xts", "testcoin", "testcoins")} == dict.fromkeys(
        ("⁂", "t⁂", "xts", "testcoin", "testcoins"), "⁂")
    codes = _mark_codes(rows)
    assert codes["⁂"] == codes["T⁂"] == {"XTS"}
    assert "XTS" in codes["$"]
    assert _currency_names(rows)["XTS"] == {"testcoin", "testcoins", "testland"}


def test_the_names_are_the_rows_words() -> None:
    assert _CURRENCY_NAMES["CHF"] == {"swiss", "franc", "francs"}
    assert _CURRENCY_NAMES["USD"] == {"us", "american", "dollar", "dollars"}
