"""OFF_TOPIC_DRIFT on misses of blind69 … blind71b (opened this round), each tested in a
domain of its own here. In a language the embedder does not read, a long tail of the answer
that turns aside on one word of the run (the town the record names) and tells another
subject at length drifts, as one that names nothing of the run does; advice that keeps
repeating the answer's own words stays. A request whose only word shared with English is a
lowercase "i" (Croatian "and") is in another language."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._drift import _not_english, answer_off_topic_drift

from .conftest import call, case

_PUPPY = "Jó napot! Mikor kell beoltatni a kölyökkutyánkat veszettség ellen? Bodri most lett tizenkét hetes."
_SCHEDULE = call("get_vaccine_schedule", {"species": "dog", "patient": "Bodri"},
                 {"patient": "Bodri", "rabies_first_dose_weeks": 12, "booster_months": 12,
                  "clinic": "Kertvárosi Állatorvosi Rendelő, Szeged"})
_DUE = ("Bodri már most beoltható veszettség ellen: az első oltás 12 hetes kortól adható, "
        "az emlékeztetőt 12 hónap múlva kell megismételni. ")


def test_a_long_tail_turning_aside_on_one_word_of_the_run_drifts(embed: Embed) -> None:
    festival = case(_PUPPY, _DUE + (
        "Ha már Szegeden laktok, érdemes tudni, hogy a halászlé fesztivál minden szeptemberben "
        "a folyóparton zajlik. A bográcsokban pontyot, harcsát és csukát főznek, sok pirospaprikával, "
        "és a zsűri a legsűrűbb levet díjazza. Este koncertek vannak a Dóm téren, a tűzijátékot "
        "pedig a hídról lehet a legjobban látni, utána pedig a belvárosi cukrászdákban "
        "érdemes megkóstolni a híres szaloncukros tortát."), _SCHEDULE)
    assert answer_off_topic_drift(festival, embed).value >= 0.5


def test_advice_repeating_the_answers_words_stays(embed: Embed) -> None:
    aftercare = case(_PUPPY, _DUE + (
        "A veszettség elleni oltás után Bodri egy-két napig lehet bágyadt, ez normális, hagyjátok pihenni. "
        "Ha az oltás helye megduzzad, vagy Bodri hányni kezd, azonnal hívjátok a rendelőt. "
        "Hozzátok az oltási könyvét is: abba írjuk be a veszettség elleni oltás dátumát és a "
        "következő emlékeztető idejét, hogy Bodri ne maradjon le róla."), _SCHEDULE)
    assert answer_off_topic_drift(aftercare, embed).value < 0.5


def test_a_lowercase_i_is_no_english_word() -> None:
    assert _not_english("Bok! Koliko košta zamjena ekrana i baterije za Nokiju X30?")
    assert not _not_english("do I need a new battery for this phone")


def test_a_tail_after_a_request_with_a_lowercase_i_drifts(embed: Embed) -> None:
    quote = call("repair_quote", {"model": "Nokia X30", "parts": ["screen", "battery"], "city": "Split"},
                 {"screen_eur": 89, "battery_eur": 45, "days": 2, "shop": "Servis Riva, Split"})
    palace = case(
        "Bok! Koliko košta zamjena ekrana i baterije za Nokiju X30? Servis mi treba u Splitu.",
        "Bok! Zamjena ekrana za Nokiju X30 košta 89 €, a baterije 45 €; popravak traje 2 dana u servisu "
        "Riva. Kad ste već u Splitu, svakako posjetite Dioklecijanovu palaču, koju je car dao sagraditi "
        "krajem trećeg stoljeća kao ljetnikovac. Danas u njezinim zidinama žive ljudi, rade kafići i male "
        "trgovine, a navečer na Peristilu često nastupaju klape. Za ručak preporučujem pašticadu ili "
        "brudet u nekoj konobi u Varošu, a poslije kupanje na plaži Bačvice, gdje domaći igraju picigin.",
        quote)
    assert answer_off_topic_drift(palace, embed).value >= 0.5
