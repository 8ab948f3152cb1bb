"""OFF_TOPIC_DRIFT in a language the embedder does not read (round r69dr, blind66 … blind68b
opened): a tail of the answer, two sentences or more and a fair share of it, that names no
word or number of the request, of the run's calls or of the answer's own opening talks of
another subject, announced or not. Advice that goes on with the answer's own words, and an
answer sharing nothing with the run at all, are not read as one."""

from __future__ import annotations

from semloop._features import surface_words
from semloop.judge.local._answerer import Embed
from semloop.judge.local._drift import answer_off_topic_drift

from .conftest import call, case

_METER = call("get_meter_reading", {"meter": "ELK-20931"},
              {"meter": "ELK-20931", "kwh": 4182, "read_at": "2025-03-14", "tariff": "G11"})


def test_words_are_read_whole_in_any_script() -> None:
    # A Devanagari word keeps its vowel signs; numbers in another script's digits are numbers.
    assert surface_words("मीटर रीडिंग ४१८२ किलोवाट") == {"मीटर", "रीडिं", "4182", "किलोव"}


def test_a_tail_naming_nothing_of_the_run_drifts(embed: Embed) -> None:
    drifted = case(
        "Jaki był ostatni odczyt mojego licznika ELK-20931?",
        "Ostatni odczyt licznika ELK-20931 z 14 marca to 4182 kWh, taryfa G11. "
        "Wiosna w Krakowie jest przepiękna, zwłaszcza gdy kwitną magnolie na Plantach. "
        "Polecam też spacer wzdłuż Wisły i obiad w jednej z restauracji na Kazimierzu, "
        "gdzie serwują świetne pierogi z kaszą i bryndzą oraz domowy kompot z wiśni.",
        _METER)
    assert answer_off_topic_drift(drifted, embed).value >= 0.5


def test_advice_going_on_with_the_answers_words_stays(embed: Embed) -> None:
    advice = case(
        "Jaki był ostatni odczyt mojego licznika ELK-20931?",
        "Ostatni odczyt licznika ELK-20931 z 14 marca to 4182 kWh, taryfa G11. "
        "Jeśli odczyt licznika wydaje się za wysoki, proszę porównać go ze zdjęciem licznika "
        "zrobionym w domu. Różnicę w odczycie można zgłosić przez formularz reklamacyjny, "
        "a technik sprawdzi licznik w ciągu dziesięciu dni roboczych.",
        _METER)
    assert answer_off_topic_drift(advice, embed).value < 0.5
