"""Task rules, round r45tc: troubleshooting that names causes only in general and sends the
user on "if it persists" (in English and the other languages users write in), a state the
user is told to bring about read as no claim, a name the request opened a sentence with."""

from __future__ import annotations

import pytest

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import answer_task_completion

from .conftest import case


@pytest.mark.parametrize("wrong", [
    case("Conveyor CV-9 stopped with a 'belt slip' alarm on line 2 — what should I do?",
         "Belt slip alarms can have several causes. Please check the conveyor manual and follow the lockout "
         "procedure, and call maintenance if the fault persists. Make sure the belt is tensioned."),
    case("Le terminal de paiement TP-12 affiche « erreur 301 » depuis ce matin, que dois-je faire ?",
         "Cette erreur peut avoir plusieurs causes. Vérifiez les câbles et redémarrez le terminal. "
         "Si le problème persiste, contactez votre banque."),
    case("Mi router FX-300 pierde la conexión cada hora desde el lunes. ¿Qué hago?",
         "Los cortes de conexión pueden tener varias causas, como interferencias o cables dañados. "
         "Recomendamos reiniciar el equipo. Si el problema persiste, póngase en contacto con su proveedor."),
    # "Dockhand" opens the request, so it was read as no name of it.
    case("Dockhand keeps logging me out every few minutes. Can you check my account?",
         "Login issues can have many causes. Please try clearing your browser cache and checking that "
         "Dockhand is up to date. If the issue persists, contact the service desk."),
])
def test_troubleshooting_in_general_is_generic(embed: Embed, wrong: RunCase) -> None:
    assert float(answer_task_completion(wrong, embed).value) >= 0.5


@pytest.mark.parametrize("right", [
    case("Dishwasher DW-40 in the staff kitchen shows code E15 and won't drain, what now?",
         "E15 on the DW-40 means the drain pump's filter is blocked. Unscrew the round filter under the "
         "lower basket, rinse it and refit it, then run a 5-minute rinse. If the problem continues, the "
         "pump itself needs replacing."),
    case("Printer RX-7 on floor 3 keeps jamming on every job. Can you look at it?",
         "RX-7's log shows 14 jams since Monday, all at the fuser. That points to worn fuser rollers; "
         "I've opened ticket HW-5512 for a replacement. If the issue persists after the swap, reply here."),
])
def test_a_diagnosis_with_a_fallback_is_not_generic(embed: Embed, right: RunCase) -> None:
    assert float(answer_task_completion(right, embed).value) < 0.5


@pytest.mark.parametrize(("right", "wrong"), [
    # Begun, and what is left is the user's to give; begun, and the rest the agent's own.
    (case("Check whether the lease on unit 4B allows subletting and, if it does, start the sublet application.",
          "It does: clause 14 allows subletting with written consent. I've started the sublet application "
          "(draft SA-208) with the tenant details filled in; it awaits your signature before the landlord sees it."),
     case("Check whether the lease on unit 4B allows subletting and, if it does, start the sublet application.",
          "It does: clause 14 allows subletting with written consent. I've started the sublet application "
          "(draft SA-208); the tenant details and references are still to be added.")),
])
def test_begun_work_left_to_another_is_not_work_left(embed: Embed, right: RunCase, wrong: RunCase) -> None:
    assert float(answer_task_completion(right, embed).value) < 0.5
    assert float(answer_task_completion(wrong, embed).value) >= 0.5
