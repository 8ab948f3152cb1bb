"""HALLUCINATION on false alarms of blind69 … blind71b (opened this round) that are not
figures, each tested in a domain of its own here. Names: in an answer whose language the
rules do not read, a capitalised word no English vocabulary holds is a word of that language
(a code in digits or capitals still a name), and an English number word (Dutch "ten
laatste") is its own word; a letter glued before a figure
the record states ("P450") is the amount under its currency's mark; a code inside a longer
code, at a seam between its letters and digits ("TX400" of "7TX400B12"), is the code's part.
Negation: "No" before a number abbreviates "number"; "avoid A, B and C" states none of
them; a rule given on a case the claim says does not hold ("if none on record") is not denied;
"no X can start until Y" bounds X as "X may not begin until Y" does; a rule that hands a
thing "only to" its cases is not denied by the lack of one. States: a clause put as a case
that would hold ("6 would match if …") states no record's value; a state before a plural
("Approved claims are paid …") names a kind of record, not the record's state. Scope: a
universal the claim narrows itself ("anything with …") drops no limit. Recall: each check
still catches the wrong thing beside it."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed

from .conftest import call, found


def test_capitalised_words_of_an_unread_language(embed: Embed) -> None:
    hours = "Riverside Library opening hours: Monday–Friday 08:00–18:00; Saturday 10:00–14:00; Sunday closed."
    q = "Maktaba inafunguliwa lini wiki hii?"
    said = ("Habari! Maktaba inafunguliwa Jumatatu hadi Ijumaa kuanzia saa 08:00 hadi 18:00. "
            "Jumamosi tunafungua saa 10:00 hadi 14:00, na Jumapili tumefunga kabisa.")
    assert found(embed, q, said, hours).get("names", 0) == 0
    coded = said.replace("kabisa.", "kabisa. Nambari ya kadi yako ni LIB-88412.")
    assert found(embed, q, coded, hours).get("names", 0) >= 1


def test_an_english_number_word_in_an_unread_language(embed: Embed) -> None:
    gym = call("get_membership", {"member": "GY-5521"},
               {"member": "GY-5521", "plan": "annual", "late_fee": None, "late_fee_note": "set at the review",
                "renewal": "2024-09-01"})
    q = "Hoeveel betaal ik voor late betaling van lidmaatschap GY-5521?"
    said = ("Lidmaatschap GY-5521 wordt verlengd op 1 september 2024. Het bedrag voor late betaling staat nog "
            "niet in het systeem, het wordt ten laatste bij het nazicht bepaald.")
    assert found(embed, q, said, calls=(gym,)).get("numbers", 0) == 0
    slipped = said.replace("1 september", "11 september")
    assert found(embed, q, slipped, calls=(gym,)).get("numbers", 0) >= 1


def test_a_mark_glued_before_a_stated_figure(embed: Embed) -> None:
    hire = {"booking": "BK-3310", "item": "canoe", "deposit_bwp": 450, "hours": 3}
    q = "How much is the deposit on the canoe?"
    assert found(embed, q, "The canoe deposit is P450, refunded on return.", tool=hire).get("names", 0) == 0
    assert found(embed, q, "The canoe deposit is P540, refunded on return.", tool=hire).get("names", 0) >= 1


def test_a_code_inside_a_longer_code(embed: Embed) -> None:
    part = "Work order WO-5512\nPart: 7TX400B12 (pump housing)\nQty: 2"
    q = "Which pump housing is on WO-5512?"
    said = "WO-5512 calls for two 7TX400B12 pump housings, which are TX400 units."
    assert found(embed, q, said, part).get("names", 0) == 0
    other = said.replace("TX400 units", "TX500 units")
    assert found(embed, q, other, part).get("names", 0) >= 1


def test_no_before_a_number_abbreviates_it(embed: Embed) -> None:
    bylaw = ("Noise rules: This estate follows Ordinance No 44/2019 and Bylaw No 7/2021 on quiet hours. "
             "Quiet hours run 22:00 to 07:00.")
    q = "Which rules set the quiet hours here?"
    said = "They come from Ordinance 44/2019 and Bylaw 7/2021: quiet hours run 22:00 to 07:00."
    assert found(embed, q, said, bylaw).get("negation", 0) == 0
    dogs = "Beach rules: No dogs are allowed on the main beach between May and September."
    assert found(embed, "Can I bring my dog?", "Dogs are allowed on the main beach between May and September.",
                 dogs).get("negation", 0) >= 1


def test_avoid_states_none_of_its_list(embed: Embed) -> None:
    care = ("Tattoo aftercare\nFirst 2 weeks: avoid swimming, saunas and direct sunlight — the ink "
            "needs to settle.\nWash gently twice a day.")
    q = "can I go swimming after my new tattoo?"
    said = ("No swimming for the first 2 weeks, and the same goes for saunas — the ink needs to settle, "
            "so don't sit in direct sunlight either.")
    assert found(embed, q, said, care).get("negation", 0) == 0


def test_a_rule_on_a_case_the_claim_says_does_not_hold(embed: Embed) -> None:
    fees = "Passport office fees 2024\nRenewal: $75\nNew photo if none on record within 5 years: $12"
    q = "how much to renew my passport?"
    said = "Renewal is $75. We have a photo from 2022 on record, so you can renew with no new photo."
    assert found(embed, q, said, fees).get("negation", 0) == 0
    missing = "You renew for $75 with no new photo within 5 years, as none is on record."
    assert found(embed, q, missing, fees).get("negation", 0) >= 1


def test_no_work_until_a_bound(embed: Embed) -> None:
    permit = ("Permit 88-C conditions: Excavation work may not begin until the utility survey is filed. "
              "Hours: 07:00 to 17:00.")
    q = "Anything the crew must know before digging?"
    said = "One condition to flag: no excavation work can start until the utility survey has been filed."
    assert found(embed, q, said, permit).get("negation", 0) == 0


def test_only_to_its_cases(embed: Embed) -> None:
    rule = ("Key handover rule K-2: Keys may be handed over only to the tenant, the landlord, or a person "
            "holding written permission on record.")
    tenancy = call("check_permissions", {"flat": "4B"}, {"permitted_people": [], "tenant_present": False})
    q = "I'm the tenant's brother, can I collect the keys for flat 4B?"
    said = ("Keys only go to the tenant, the landlord, or someone with written permission, and there's no "
            "permission on record for you.")
    assert found(embed, q, said, rule, calls=(tenancy,)).get("negation", 0) == 0


def test_a_case_that_would_hold(embed: Embed) -> None:
    search = {"search_id": "VS-301", "matches": 0, "widened": {"radius_50km": 6}}
    q = "Any wedding venues for 200 guests within 20 km?"
    said = "None within 20 km. 6 venues would match if you widened the radius to 50 km."
    assert found(embed, q, said, tool=search).get("negation", 0) == 0
    open_ = {"search_id": "VS-302", "pool_open": False}
    assert found(embed, "Is the pool open?", "Yes, the pool is open.", tool=open_).get("negation", 0) >= 1


def test_a_state_before_a_plural_names_a_kind(embed: Embed) -> None:
    policy = "Warranty policy 3.1 — Approved warranty claims are paid to the original card within 14 days."
    claim = call("get_claim", {"claim_id": "WC-4410"}, {"claim_id": "WC-4410", "status": "under_review",
                                                        "amount": None})
    q = "Has my warranty claim WC-4410 been paid?"
    said = "Your warranty claim WC-4410 is still under review, so nothing has been paid yet."
    assert found(embed, q, said, policy, calls=(claim,)).get("negation", 0) == 0
    rejected = call("get_claim", {"claim_id": "WC-4410"}, {"claim_id": "WC-4410", "status": "rejected"})
    assert found(embed, q, said, calls=(rejected,)).get("negation", 0) >= 1


def test_a_universal_the_claim_narrows(embed: Embed) -> None:
    trail = ("Ridge Trail rules. Not allowed: motorbikes, horses (unless on the bridle loop), bikes with "
             "tyres under 2 inches, and dogs off the lead.")
    q = "can I ride my road bike on the ridge trail?"
    said = "Keep dogs on the lead, and skip anything with tyres under 2 inches."
    assert found(embed, q, said, trail).get("scope", 0) == 0
    wide = "Any bike is allowed on the ridge trail."
    assert found(embed, q, wide, trail).get("scope", 0) >= 1
