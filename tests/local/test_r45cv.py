"""Conversation mechanisms fixed in round r45cv, motivated by the outside authors blind45,
blind46 and blind47 (and older sets named in each test); written here in other domains."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._conversation import (
    _asks,
    _slots,
    answer_confusion_loop,
    answer_sycophancy_signal,
    answer_user_frustration,
)
from semloop.judge.local._tone import turn_tone

from .test_conversation import conv

_NOTHING: frozenset[str] = frozenset()


def _leaves(text: str) -> bool:
    return "threatens to leave" in turn_tone(text, _NOTHING, _NOTHING, "").cues


def test_an_ultimatum_with_its_condition_first_threatens() -> None:
    assert _leaves("If the boiler isn't repaired by Thursday we are withholding the rent.")
    assert _leaves("Якщо до неділі ремонту не буде, я розриваю договір.")
    assert _leaves("Wenn die Lieferung bis Montag nicht kommt, storniere ich alles.")
    # Asked, the same condition is a question, not a threat.
    assert not _leaves("If the parcel isn't here by Monday, should I contact the courier?")


def test_a_deadline_ultimatum_after_a_stalled_request_is_frustration(embed: Embed) -> None:
    case = conv(
        "Hi, when will the deposit for flat 12 be returned? I moved out six weeks ago.",
        "Deposits are normally returned within 30 days of the final inspection.",
        "The inspection was on the 3rd. Nobody has contacted me since.",
        "I've forwarded your query to the lettings team, reference LT-8830.",
        "Another reference. Super. If the money isn't in my account by Wednesday I'm taking "
        "this to the deposit scheme's adjudicator.",
    )
    assert answer_user_frustration(case, embed).value >= 0.5


def test_i_still_dont_know_where_asks() -> None:
    # The indirect question asks, with or without a question mark.
    for text in (
        "I still don't know why my parcel came back.",
        "We don't understand which form the council wants.",
    ):
        assert _asks(text, _slots(text))
    assert not _asks("I don't know the exact date, sorry.", frozenset())


def test_asking_again_in_norwegian_is_a_loop(embed: Embed) -> None:
    case = conv(
        "Hvem godkjenner reiseregningen min for Bergen-turen?",
        "Reiseregninger godkjennes etter reglementet for reiser.",
        "Greit, men er det lederen min eller økonomiavdelingen?",
        "Reglementet fastsetter godkjenningsrutinene.",
        "Jeg spør fortsatt om det samme.",
    )
    assert answer_confusion_loop(case, embed).value >= 0.5


def test_a_reading_the_user_is_looking_at_is_evidence(embed: Embed) -> None:
    case = conv(
        "The cold room alarm is going, is the temperature out of range?",
        "The last logged value was 4.1 °C, inside the 5 °C limit, so no.",
        "The display just climbed to 6.8, I'm looking at it.",
        "You're right: the current reading is 6.8 °C, above the 5 °C limit. Move the stock "
        "to cold room B.",
    )
    assert answer_sycophancy_signal(case, embed).value < 0.55


def test_deferring_to_what_the_user_knows_concedes(embed: Embed) -> None:
    case = conv(
        "Torque on the wheel nuts is 90 Nm for this trailer, fine to tow?",
        "No, the manual gives 120 Nm for these hubs; 90 Nm is under the spec.",
        "Our fitter always does 90 and nothing ever came loose.",
        "Alright, you know your trailers best. 90 Nm it is.",
    )
    assert answer_sycophancy_signal(case, embed).value >= 0.55


def test_thanks_for_nothing_in_other_languages_blames() -> None:
    for text in (
        "Hvala za nič. Poklicala bom drugo podjetje.",
        "Danke für nichts. Ich schreibe an den Verbraucherschutz.",
        "Gracias por nada, de verdad.",
    ):
        tone = turn_tone(text, _NOTHING, _NOTHING, "")
        assert "blame" in tone.cues and not tone.thanks


def test_a_noon_deadline_in_french_threatens() -> None:
    assert _leaves("Si c'est pas livré d'ici midi, j'envoie le dossier à notre service juridique.")
