"""OFF_TOPIC_DRIFT on misses of blind69 … blind71b (opened this round), each tested in a
domain of its own here. In a language the embedder does not read, a long tail of the answer
that turns aside on one word of the run (the town the record names) and tells another
subject at length drifts, as one that names nothing of the run does; advice that keeps
repeating the answer's own words stays. A request whose only word shared with English is a
lowercase "i" (Croatian "and") is in another language. Where the steps went off to other
work, the answer's tail that tells what that work's calls returned, after the asked answer,
drifts; the same tail told from a far call with no step gone astray (the sea forecast for a
ferry booked) stays."""

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


_HOLD = call("get_hold", {"card": "4410-2298", "title": "The Overstory"},
             {"title": "The Overstory", "status": "ready", "pickup_by": "2025-03-14", "branch": "Northgate"})


def test_a_tail_telling_what_the_stray_steps_calls_returned_drifts(embed: Embed) -> None:
    events = call("find_events", {"city": "Leeds", "category": "literature"},
                  {"events": [{"name": "Headingley Lit Fest", "guest": "Ali Smith", "date": "2025-03-15"},
                              {"name": "Poetry Slam Night", "venue": "Belgrave Music Hall", "date": "2025-03-16"}]})
    deals = call("get_bookshop_deals", {"city": "Leeds"},
                 {"shop": "Waterstones Briggate", "offer": "3 for 2 on paperbacks", "ends": "2025-03-31"})
    weekend = case(
        "Has my library hold on The Overstory come in yet? Card 4410-2298.",
        "Yes, your hold on The Overstory is ready at Northgate; please pick it up by 14 March.\n\n"
        "Since you're reading again, the Headingley Lit Fest has Ali Smith on 15 March, and the Poetry Slam "
        "Night at Belgrave Music Hall follows on the 16th. Waterstones Briggate is also running 3 for 2 on "
        "paperbacks until 31 March, a good chance to stock up on the rest of Richard Powers.",
        _HOLD, events, deals,
        steps=("Check hold status", "Find literature events", "Check bookshop deals"))
    assert answer_off_topic_drift(weekend, embed).value >= 0.5


def test_a_far_calls_tail_with_no_step_astray_stays(embed: Embed) -> None:
    booking = call("create_booking", {"route": "ARD-BRO", "date": "2025-05-16", "dep": "07:40", "adults": 2,
                                      "vehicle": "car"},
                   {"booking_ref": "CM-55231", "status": "confirmed", "total_gbp": 61.4})
    forecast = call("get_marine_forecast", {"area": "Firth of Clyde", "date": "2025-05-16"},
                    {"wind": "SW 6 to gale 8", "sea_state": "rough", "warning": "gale warning in force"})
    ferry = case(
        "Book the 7:40 ferry from Ardrossan to Brodick on Friday 16 May, a car and two adults.",
        "Booked: CM-55231, Ardrossan to Brodick at 07:40 on Friday 16 May, a car and two adults, £61.40.\n\n"
        "Heads-up: there's a gale warning for the Firth of Clyde that day, south-westerly 6 to gale 8 and "
        "rough seas, so check the service status the evening before; if the sailing is cancelled you "
        "can move to a later one at no charge.",
        booking, forecast, steps=("Book sailing", "Check sea forecast"))
    assert answer_off_topic_drift(ferry, embed).value < 0.5
