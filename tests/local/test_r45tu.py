"""Task rules, round r45tu: a field of the records read named by its words or its
initials, and another field's figures told; a breakdown asked with its object between
the verb and its dimension; a length of time asked, in any of the common languages, and
one long sentence of other figures told."""

from __future__ import annotations

import pytest

from semloop.judge.local._answerer import Embed
from semloop.judge.local._understanding import (
    _field_swap,
    _other_action,
    _value_unmet,
)

from .conftest import call, case, understanding

_BOILERS = [{"unit": "B1", "fuel_cost_eur": 412.5, "run_hours": 96, "co2_kg": 1180},
            {"unit": "B2", "fuel_cost_eur": 388.0, "run_hours": 91, "co2_kg": 1105}]



def test_a_field_named_by_its_words_and_another_told_is_a_swap(embed: Embed) -> None:
    # Asked for the boilers' emissions ("co2_kg"), the answer gives the fuel cost.
    run = case("What were the CO2 emissions of each boiler last week?",
               "Boiler B1 cost €412.50 in fuel last week and boiler B2 €388.00; B2 was the cheaper one to keep going.",
               call("plant.boilers", {"week": "2026-W48"}, _BOILERS))
    assert _field_swap(run) == ("co2_kg", "fuel_cost_eur")
    assert understanding(run, embed) >= 0.5


def test_a_field_named_by_its_initials_and_another_told_is_a_swap() -> None:
    # "mtbf" spelled out as mean time between failures; the answer gives the repair times.
    run = case("What is the mean time between failures for pumps P1 and P2?",
               "Mean repair time: P1 took 3.5 hours per fix and P2 4.25 hours.",
               call("cmms.stats", {"assets": ["P1", "P2"]},
                    [{"asset": "P1", "mtbf": 410, "mttr": 3.5}, {"asset": "P2", "mtbf": 388, "mttr": 4.25}]))
    assert _field_swap(run) == ("mtbf", "mttr")


def test_the_named_field_told_with_spaced_thousands_is_no_swap() -> None:
    run = case("How many run hours and how much CO2 for B1?",
               "B1 ran 96 hours and emitted 1 180 kg of CO2, at a fuel cost of €412.50.",
               call("plant.boilers", {"week": "2026-W48"}, _BOILERS))
    assert _field_swap(run) is None


def test_a_breakdown_with_its_object_between_verb_and_dimension_is_read(embed: Embed) -> None:
    run = case("Please break down the October returns for the webshop by carrier, I want to see who damages most.",
               "October webshop returns by size: S 41, M 77, L 63, XL 29. Medium sizes come back most often.")
    assert understanding(run, embed) >= 0.5


def test_a_duration_asked_in_german_and_figures_of_another_kind_told_is_unmet() -> None:
    run = case("Wie lange muss das Fundament aushärten, bevor wir die Wand mauern?",
               "Für das Fundament verwenden wir Beton der Festigkeitsklasse C25/30 mit 320 kg Zement pro Kubikmeter "
               "und einer Bewehrung aus 12 mm Stahl, wie es der Statiker für die Garage vorgesehen hat.")
    assert _value_unmet(run) == "wie lange"


def test_a_duration_asked_in_german_and_told_in_german_is_met() -> None:
    run = case("Wie lange muss das Fundament aushärten, bevor wir die Wand mauern?",
               "Bei diesem Wetter sollte das Fundament mindestens 7 Tage aushärten, bevor Sie die erste Reihe "
               "Steine setzen; die volle Festigkeit erreicht der Beton erst nach etwa vier Wochen.")
    assert _value_unmet(run) is None


@pytest.mark.parametrize("told", ["nach 1 Jahr", "nach 45 Minuten", "dopo 30 minuti"])
def test_a_duration_told_in_the_singular_or_in_minutes_is_met(told: str) -> None:
    run = case("Wie lange muss das Fundament aushärten, bevor wir die Wand mauern?",
               f"Für das Fundament verwenden wir Beton der Festigkeitsklasse C25/30 mit 320 kg Zement pro "
               f"Kubikmeter, wie es der Statiker vorgesehen hat; belastbar ist er {told}.")
    assert _value_unmet(run) is None


def test_how_many_months_answered_with_other_figures_only_is_unmet() -> None:
    run = case("How many months until the new roof pays for itself?",
               "The new roof cost €18,400 and the insulation rating went from 0.35 to 0.18 W/m²K, "
               "which is a big improvement over the old tiles and well within the regulations.")
    assert _value_unmet(run) == "how many months"


def test_a_level_change_done_by_a_namespaced_change_call_is_the_act_asked() -> None:
    # The call's own name follows its service's: "accounts.update_tier" changes the tier.
    run = case("Please downgrade my storage tier to the 100 GB one from next month.",
               "All set: from 1 March you'll be on the 100 GB tier at €1.99 a month.",
               call("accounts.update_tier", {"user": "U-7781", "tier": "100GB"}, {"ok": True}))
    assert _other_action(run) is None


def test_a_cancel_done_by_a_namespaced_terminate_call_is_the_act_asked() -> None:
    run = case("Cancel my gym membership at the end of this month.",
               "Your membership ends on 31 January; no further payments will be taken.",
               call("members.terminate", {"member": "GY-220"}, {"status": "terminated"}))
    assert _other_action(run) is None
