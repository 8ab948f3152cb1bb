"""HALLUCINATION on false alarms of blind63 … blind65b (opened this round), each tested in a
domain of its own here. Figures worked out that the checks did not derive: seconds between
two instants the evidence reads to the second ("38 seconds later"); a clock time an
evidence's offset moves ("last entry 30 minutes before closing"); a height given in two
units ("4 ft 2 in", "1 метр 12 сантиметр") as one length; an evidence's rate applied to an
amount the claim states ("on your $3,000 of bikes … $75" at 2.5%); in an
answer the rules do not read, a number parted by spaces ("2 800") that the evidence gives
whole. Names: a name the claim spells out of the context's acronym ("root protection area" of
"RPA") is named. Lists: the first item
of a list carries the sentence's lead-in ("the inspector found two loose tiles …"). Negation:
a rule that leaves out a case ("closed on holidays, except Easter Monday")
is no denial of that case. Recall: each check still catches the wrong figure beside it."""

from __future__ import annotations

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._grounding import answer_hallucination

from .conftest import call, found

_PUMP = {"events": [{"ts": "2024-05-02T02:10:05Z", "type": "TRIP"},
                    {"ts": "2024-05-02T02:10:43Z", "type": "STANDBY_START"}]}


def test_seconds_between_two_instants(embed: Embed) -> None:
    q = "Did the pump trip overnight?"
    said = "Yes. The pump tripped at 02:10 and the standby pump started {} seconds later."
    assert found(embed, q, said.format(38), tool=_PUMP).get("numbers", 0) == 0
    assert found(embed, q, said.format(52), tool=_PUMP).get("numbers", 0) >= 1


def test_a_clock_time_an_evidence_offset_moves(embed: Embed) -> None:
    rules = "Opening hours: Mon-Fri 07:00-20:00. Last entry 30 minutes before closing."
    q = "When is last entry on Friday?"
    assert found(embed, q, "The pool is open until 8pm on Fridays; last entry is 7:30pm.", rules).get("numbers", 0) == 0
    assert found(embed, q, "The pool is open until 8pm on Fridays; last entry is 7:15pm.", rules).get("numbers", 0) >= 1


def test_a_height_in_two_units_is_one_length(embed: Embed) -> None:
    rules = "Viper: minimum height 48 in. Minnow: minimum height 36 in."
    q = "My son is 4 ft 2 in. Can he go on the Viper?"
    assert found(embed, q, "Yes: the Viper needs 48 inches and he is 50 inches tall.", rules).get("numbers", 0) == 0
    assert found(embed, q, "Yes: the Viper needs 48 inches and he is 52 inches tall.", rules).get("numbers", 0) >= 1
    table = "| Горка | Мин. рост |\n| Комета | 115 cm |\n| Чашки | 85 cm |"
    asked = "Дочери 1 метр 12 сантиметров. Можно ей на «Комету»?"
    assert found(embed, asked, "Нет: для «Кометы» нужно 115 см, у неё 112 см, не хватает 3 см.",
                 table).get("numbers", 0) == 0
    assert found(embed, asked, "Нет: для «Кометы» нужно 115 см, у неё 108 см, не хватает 7 см.",
                 table).get("numbers", 0) >= 1


def test_a_rate_applied_across_claim_and_evidence(embed: Embed) -> None:
    rules = "Bike cover: annual rate 2.5% of insured value. Minimum premium $40. Excess: 5% of insured value per claim."
    q = "I want to insure my two bikes, worth $3,000 together. What is the yearly premium?"
    assert found(embed, q, "On your $3,000 of bikes the premium is $75 a year.", rules).get("numbers", 0) == 0
    assert found(embed, q, "On your $3,000 of bikes the premium is $90 a year.", rules).get("numbers", 0) >= 1


def test_a_case_the_rule_leaves_out(embed: Embed) -> None:
    rule = ("Northgate Farmers' Market. Saturdays 08:00-13:00. The market hall is closed on Sundays, "
            "except the first Sunday of the month (2 June 2024: open 10:00-14:00).")
    q = "Is the market on this Sunday the 2nd?"
    said = "Yes — Sunday 2 June is the first Sunday of the month, so the market hall opens that day from 10am to 2pm."
    assert found(embed, q, said, rule).get("negation", 0) == 0
    # A Sunday the exception does not name is still denied.
    assert found(embed, q, "Yes, the market hall is open every Sunday of the month.", rule).get("negation", 0) >= 1


def test_a_list_after_its_lead_in(embed: Embed) -> None:
    record = {"survey": "SV-311", "date": "2024-06-03",
              "findings": ["2 loose tiles on rear roof", "downpipe cracked at side wall", "gutter blocked by ivy"]}
    q = "What did the survey find?"
    said = ("At the inspection on 3 June they found two loose tiles on the back roof, a cracked "
            "downpipe at the side wall and ivy blocking the gutter.")
    assert found(embed, q, said, tool=record).get("offered", 0) == 0
    added = said.replace(" and ivy blocking the gutter.", ", ivy blocking the gutter and a rotten fascia board over the porch.")
    assert found(embed, q, added, tool=record).get("offered", 0) >= 1


def test_a_name_spelt_out_of_its_acronym(embed: Embed) -> None:
    survey = ("Site assessment — 9 Mill Lane (surveyor: K. Obi, 2024-03-11)\n"
              "B2 Copper beech (Fagus sylvatica). Height 14 m; stem diameter 480 mm; category A2.\n"
              "Root protection area (RPA): radius 5.8 m (12 × stem diameter).\n"
              "H1 Privet hedge, height 2 m, category C1.")
    q = "What did the arborist say about the beech, and can the shed go 4 m from it?"
    said = "On the shed: the report sets {} of 5.8 m radius around B2 (12 × the stem diameter)."
    assert found(embed, q, said.format("a root protection area"), survey).get("bound", 0) == 0
    # The figure told of the tree alone is still the other name's.
    assert found(embed, q, said.format("a distance"), survey).get("bound", 0) >= 1


def test_a_spaced_number_in_an_answer_not_read(embed: Embed) -> None:
    record = call("quote_transport", {"route": "Kin-Mbandaka"},
                  {"fare_usd": 40, "taux_cdf_par_usd": 2750, "depart": "2024-09-03", "places": 12})
    said = ("Mbote! Tikɛti ya bato ya Mbandaka ezali 40 USD; na taux ya lelo ({} FC mpo na dolare "
            "moko) yango ekoki {} FC. Le départ ezali le 3 septembre, mpe esika ezali.")

    def value(rate: str, total: str) -> float:
        run = RunCase(id="probe", input="Motuya na franka congolais?", output=said.format(rate, total),
                      context=(), tools_called=(record,))
        return answer_hallucination(run, embed).value

    assert value("2 750", "110 000") < 0.5
    assert value("2 850", "114 000") >= 0.5  # a digit slipped from the record's rate
