"""Task rules, round b43tu: an answer opening on what heads a sibling document; a value the
answer says it cannot give yet; a label said as the time now; the sentence that goes on
with the one drawn on; the request's own figure restated; a thing the request rules out;
a unit restating the retrieved documents; "by the way" in other languages; the user's own
aside."""

from __future__ import annotations

from dataclasses import replace

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._drift import answer_off_topic_drift

from .conftest import call, case, understanding

_CARDS = (("Card services: Card replacement — a lost or stolen card is cancelled at once and a new one "
          "is posted within 5 working days; an emergency card can be sent to a branch in 24 hours."),
          "Card services: Contactless limits...")



def _drift(run: RunCase, embed: Embed) -> float:
    return float(answer_off_topic_drift(run, embed).value)


def test_an_answer_opening_on_a_sibling_documents_heading_misunderstands(embed: Embed) -> None:
    # Asked how to replace a lost card, the answer takes up the sibling document (contactless
    # limits), though that one came back cut short.
    lost = replace(case(
        "I left my debit card in a taxi last night. How do I get a replacement?",
        "Contactless payments are capped at £100 per tap, and after five taps in a row you'll be asked for "
        "your PIN. You can lower the cap in the app under Card settings.",
    ), context=_CARDS)
    assert understanding(lost, embed) >= 0.5


def test_an_answer_on_the_asked_document_naming_its_sibling_later_is_no_swap(embed: Embed) -> None:
    lost = replace(case(
        "I left my debit card in a taxi last night. How do I get a replacement?",
        "I've cancelled the card; a replacement is posted within 5 working days, or we can send an "
        "emergency card to a branch in 24 hours. Contactless limits stay as they were.",
    ), context=_CARDS)
    assert understanding(lost, embed) < 0.5


def test_an_answer_that_says_it_cannot_give_the_value_yet_takes_the_question_up(embed: Embed) -> None:
    refund = case(
        "How long does the refund for my cancelled order take?",
        "I've opened refund request RF-2281 for the cancelled order. I can't give you a firm timeframe yet, "
        "as it depends on when the courier confirms the return.",
        call("refunds.create", {"order": "77120"}, {"ref": "RF-2281", "status": "pending"}),
    )
    assert understanding(refund, embed) < 0.5


def test_a_label_said_as_the_time_now_is_no_thing_asked(embed: Embed) -> None:
    # "it's week 6" says when the user asks; the answer's weeks are the deadlines.
    module = case(
        "how do i swap my statistics module? it's week 6",
        "Module swaps close at the end of week 3, so you can't swap now — but you can still withdraw from "
        "the statistics module until week 9 and take another one next term. Ask your adviser to approve it.",
    )
    assert understanding(module, embed) < 0.5


def test_the_sentence_that_goes_on_with_the_one_drawn_on_is_the_same_passage(embed: Embed) -> None:
    # The cap is the sentence drawn on; the next sentence, pointing back at it ("Where it
    # does"), names the departmental grant: the answer read the passage that names it.
    grant = replace(case(
        "Can I keep my departmental travel grant if I also get the Erasmus mobility grant?",
        "Yes, you can hold both: together they may not exceed €900 a month. Your grant (€250) and the "
        "Erasmus grant (€450) come to €700, under the cap, so nothing is reduced.",
        call("grants.student", {"id": "S-3310"}, {"current": [{"name": "Departmental travel grant", "eur": 250}]}),
        call("grants.lookup", {"name": "Erasmus mobility grant"}, {"eur": 450}),
    ), context=(("Grants policy §7 Combining: Students may hold more than one grant provided together they do "
                "not exceed €900 a month. Where they do, the departmental travel grant is reduced."),))
    assert understanding(grant, embed) < 0.5


def test_an_answer_that_restates_the_requests_own_figure_kept_its_thing(embed: Embed) -> None:
    # "a 20% rise" is the fee asked about; the index that caps it is no stand-in for it.
    gym = replace(case(
        "My gym wants to raise my Membership Fee 20% from June. Can they?",
        "It depends on your terms. Clause 7.2 allows one increase per year, capped at RPI + 3%. Last year's "
        "RPI figure is 3.2%, so the maximum would be 6.2% — a 20% rise would breach the clause.",
        call("rpi_lookup", {"year": 2024}, {"rpi_pct": 3.2}),
    ), context=(("Membership terms 7.2: The Membership Fee may be reviewed once in any 12-month period; any "
                "increase shall not exceed the annual RPI published in January plus three percentage points."),))
    assert understanding(gym, embed) < 0.5


def test_an_answer_that_does_what_the_request_rules_out_misunderstands(embed: Embed) -> None:
    toll = case(
        "I want to contest this toll fine, not pay it. The barrier camera misread my plate. Ref TF-80112.",
        "You can pay TF-80112 online or at any post office. Paying within 14 days halves it to £40.",
        call("tolls.get_fine", {"ref": "TF-80112"}, {"amount": 80, "discounted": 40, "dispute_until": "2024-08-01"}),
    )
    assert understanding(toll, embed) >= 0.5


def test_a_unit_restating_the_retrieved_documents_is_no_cast_of_new_names(embed: Embed) -> None:
    # A Spanish request, an English answer: the documents' words vouch for the names around them.
    visa = replace(case(
        "¿Qué documentos necesito para renovar mi tarjeta de residencia de estudiante?",
        "For the renewal the university gives you the certificado de matrícula and the certificado de "
        "aprovechamiento, both downloadable from the Secretaría Virtual. Extranjería also asks for "
        "private health insurance without copay and proof of funds.",
        steps=("Retrieved renewal checklist",),
    ), context=(("International Office: renewal needs passport, certificado de matrícula, certificado de "
                "aprovechamiento académico, private health insurance without copay and proof of funds."),))
    assert _drift(visa, embed) < 0.5


def test_by_the_way_in_the_requests_own_language_turns_aside(embed: Embed) -> None:
    parcel = replace(case(
        "¿Dónde está mi paquete 55102? Lleva cinco días sin moverse.",
        "Tu paquete 55102 está en el centro de Zaragoza desde el lunes. Por cierto, ¿viste el partido de "
        "anoche? El Real Madrid remontó en los últimos diez minutos con dos goles de cabeza. La afición dice "
        "que es el mejor equipo de la década y que este año ganarán la liga sin problemas.",
        call("parcels.track", {"id": "55102"}, {"hub": "Zaragoza", "since": "2024-05-06"}),
    ), steps=("Rastrear paquete",))
    assert _drift(parcel, embed) >= 0.5


def test_the_users_own_aside_waved_off_is_no_drift(embed: Embed) -> None:
    # The request is the heating; the ramen question is the user's own aside, waved off.
    heating = case(
        "Heating's off again. Also unrelated but do you know a good ramen place lol",
        "Ha — not my area, sorry! On the heating: the boiler log shows 9 lockouts in 24h, which points to "
        "low pressure rather than the thermostat. I've booked an engineer for Friday AM (ref ENG-7712).",
        call("boiler.diag", {"site": "HT-2210"}, "lockouts_24h=9 pressure_bar=0.4"),
        call("eng.book", {"site": "HT-2210"}, {"ref": "ENG-7712", "slot": "Fri AM"}),
        steps=("Diag", "Booked engineer"),
    )
    assert _drift(heating, embed) < 0.5
