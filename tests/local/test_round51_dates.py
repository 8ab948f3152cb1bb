"""HALLUCINATION reads dates, weekdays and digits written in the user's language (round
r51h, from blind48 … blind50b and earlier sets): a month or weekday in another language is
read as a date compared with the context's, never as a name the context never names; a
weekday in the plural is no name either; every script's decimal digits are numbers."""

from __future__ import annotations

from semloop.case import RunCase, ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._calendar import ascii_digits, month_of, weekday_of
from semloop.judge.local._claims import dates, key_terms, quantities
from semloop.judge.local._grounding import answer_hallucination
from semloop.judge.local._times import _wrong_weekday


def _answer(embed: Embed, question: str, answer: str, output: str) -> float:
    case = RunCase(id="check", input=question, output=answer, context=(),
                   tools_called=(ToolCall(name="records.lookup", args={"ref": "QX-3107"}, output=output,
                                          success=True),))
    return answer_hallucination(case, embed).value


def _readings(text: str) -> set[tuple[int | None, int | None, int | None]]:
    return {r for _, readings in dates(text) for r in readings}


def test_months_in_many_languages_are_read_as_dates() -> None:
    assert _readings("Bayaran perlu dijelaskan sebelum 9 Ogos 2026.") == {(2026, 8, 9)}  # Malay
    assert _readings("Alaabtu waxay imaan doontaa 4-ta Luulyo.") == {(None, 7, 4)}  # Somali
    assert _readings("La cita es el jueves 5 de febrero de 2026.") == {(2026, 2, 5)}  # Spanish
    assert _readings("Wizyta odbędzie się 12 marca 2026.") == {(2026, 3, 12)}  # Polish genitive
    assert _readings("Лекция состоится 14 ноября 2025 года.") == {(2025, 11, 14)}  # Russian
    assert _readings("Η πληρωμή λήγει στις 2 Οκτωβρίου 2025.") == {(2025, 10, 2)}  # Greek
    assert _readings("Lasku erääntyy 20. marraskuuta.") == {(None, 11, 20)}  # Finnish
    assert _readings("A vizsga időpontja 2026. május 7.") == {(2026, 5, 7)}  # Hungarian
    assert _readings("Cuộc hẹn vào ngày 8 tháng 6 năm 2026.") == {(2026, 6, 8)}  # Vietnamese
    assert _readings("Tá an scrúdú ar an 19 Meán Fómhair.") == {(None, 9, 19)}  # Irish, two words
    assert _readings("Ang bayad ay sa 30 Hunyo 2026.") == {(2026, 6, 30)}  # Tagalog
    # A word two languages give to two months reads as either.
    assert month_of("listopad") == {10, 11}


def test_english_words_that_abbreviate_a_month_elsewhere_stay_words() -> None:
    assert dates("Please set 4 reminders; 3 out of 5 guests replied.") == []


def test_a_month_in_the_users_language_is_no_name() -> None:
    assert "ogos" not in key_terms("Yuran perlu dijelaskan sebelum 9 Ogos 2026 di kaunter.")
    assert "luulyo" not in key_terms("Alaabtu waxay imaan doontaa 4-ta Luulyo, ayuu yiri.")
    # Away from any number, a word that is a month or weekday elsewhere is a name.
    assert {"domingo", "mayo"} <= key_terms("Please ask Domingo at the Mayo desk about it.")


def test_weekdays_in_the_plural_and_in_other_languages_are_no_names() -> None:
    assert not {"mondays", "wednesdays"} & key_terms("The pool opens Mondays and Wednesdays at 7:00.")
    assert "selasa" not in key_terms("Kelas pertama diadakan pada Selasa 14 Julai.")
    assert weekday_of("Fridays") == {4}
    assert weekday_of("vrijdag") == {4}


def test_a_weekday_in_another_language_is_checked_against_its_date() -> None:
    # 3 June 2027 is a Thursday.
    claim = "La entrega es el jueves 3 de junio de 2027."
    text, readings = dates(claim)[0]
    assert not _wrong_weekday(claim, text, readings, [])
    wrong = "La entrega es el lunes 3 de junio de 2027."
    text, readings = dates(wrong)[0]
    assert _wrong_weekday(wrong, text, readings, [])


def test_every_scripts_digits_are_numbers() -> None:
    assert ascii_digits("৪৫০ টাকা, ९८ रुपये, ٢٥ درهم, ۱۴, ๓") == "450 টাকা, 98 रुपये, 25 درهم, 14, 3"
    assert [q.value for q in quantities("মোট ৪৫০ টাকা")] == [450.0]
    assert _readings("অর্ডার ১২/১১/২০২৬ তারিখে") == {(2026, 11, 12), (2026, 12, 11)}


def test_a_date_in_the_users_language_is_compared_with_the_contexts(embed: Embed) -> None:
    record = '{"ref": "QX-3107", "instalment_due": "2026-08-09", "amount_myr": 240}'
    right = "Ansuran seterusnya sebanyak RM 240 perlu dibayar sebelum 9 Ogos 2026."
    assert _answer(embed, "Bila ansuran seterusnya?", right, record) < 0.5
    wrong = right.replace("9 Ogos", "19 Ogos")
    assert _answer(embed, "Bila ansuran seterusnya?", wrong, record) > 0.5


def test_a_somali_date_is_supported_or_contradicted(embed: Embed) -> None:
    record = '{"order": "QX-3107", "delivery_date": "2026-07-04", "status": "OUT_FOR_DELIVERY"}'
    right = "Dalabkaaga QX-3107 waxaa la keenayaa 4-ta Luulyo."
    assert _answer(embed, "Goorma ayuu imanayaa dalabkaygu?", right, record) < 0.5
    wrong = "Dalabkaaga QX-3107 waxaa la keenayaa 14-ka Luulyo."
    assert _answer(embed, "Goorma ayuu imanayaa dalabkaygu?", wrong, record) > 0.5


def test_native_digits_are_the_contexts_numbers(embed: Embed) -> None:
    record = '{"order": "QX-3107", "items": 12, "total_bdt": 450}'
    right = "আপনার অর্ডার QX-3107 এ ১২টি পণ্য আছে, মোট ৪৫০ টাকা।"
    assert _answer(embed, "আমার অর্ডারে কী আছে?", right, record) < 0.5
    wrong = right.replace("৪৫০", "৫৪০")
    assert _answer(embed, "আমার অর্ডারে কী আছে?", wrong, record) > 0.5


def test_a_foreign_answers_date_whose_month_slipped_is_wrong(embed: Embed) -> None:
    record = '{"ref": "QX-3107", "permit_valid_until": "2026-04-30"}'
    right = "Permisul dumneavoastră este valabil până la 30 aprilie 2026, conform dosarului."
    assert _answer(embed, "Până când e valabil permisul?", right, record) < 0.5
    wrong = right.replace("30 aprilie", "30 iunie")
    assert _answer(embed, "Până când e valabil permisul?", wrong, record) > 0.5
