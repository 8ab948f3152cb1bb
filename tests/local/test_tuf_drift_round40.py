"""Task rules, round b39tu: a record's sibling field or a sibling call's figures answered for
the part the request names; a bare yes to a whether-question backed by what a call returned,
the request's subject named by its initials, and a markdown question's competitor prices,
which are no drift."""

from __future__ import annotations

from dataclasses import replace

from semloop.judge.local._answerer import Embed
from semloop.judge.local._drift import answer_off_topic_drift
from semloop.judge.local._understanding import answer_task_understanding_failure

from .conftest import call, case, drift_rules


def test_a_sibling_field_of_the_record_told_for_the_named_one(embed: Embed) -> None:
    # The record holds the storage fee asked by its key's words; the answer gives the
    # handling fee beside it and never the storage one, nor the word "storage".
    fees = case(
        "What's the monthly storage fee on container TGHU-88120 at the Antwerp yard?",
        "For TGHU-88120 the handling fee is €145, charged once when the container leaves the yard.",
        call("yard.container", {"id": "TGHU-88120"},
             '{"storage_fee_eur": 380, "handling_fee_eur": 145, "yard": "Antwerp North"}'),
    )
    assert float(answer_task_understanding_failure(fees, embed).value) >= 0.5


def test_the_named_field_given_is_no_sibling(embed: Embed) -> None:
    fees = case(
        "What's the monthly storage fee on container TGHU-88120 at the Antwerp yard?",
        "Storage for TGHU-88120 is €380 a month; the one-off handling fee of €145 is charged when it leaves.",
        call("yard.container", {"id": "TGHU-88120"},
             '{"storage_fee_eur": 380, "handling_fee_eur": 145, "yard": "Antwerp North"}'),
    )
    assert float(answer_task_understanding_failure(fees, embed).value) < 0.5


def test_a_bare_yes_backed_by_the_lookup_answers_the_question(embed: Embed) -> None:
    vendor = case(
        "Is the supplier on our sanctions screening list for the Q3 audit?",
        "Yes. Orlan Trading FZE matched the OFAC SDN entry added on 12 March, with the same Dubai address. "
        "I'd hold the two open purchase orders until compliance clears it.",
        call("screening.check", {"vendor": "V-2231"},
             '{"name": "Orlan Trading FZE", "match": "OFAC SDN", "added": "12 March", "address": "Dubai"}'),
    )
    assert float(answer_off_topic_drift(vendor, embed).value) < 0.5


def test_the_requests_subject_named_by_its_initials_is_on_it(embed: Embed) -> None:
    # "FCR" is "first-contact resolution": the embedder reads the two as strangers.
    fcr = replace(case(
        "Why was first-contact resolution so poor on Monday?",
        "Monday FCR dropped to 58% (normal ~74%). Main cause: the billing outage between 09:00 and 12:30 — agents "
        "could not issue credits, forcing callbacks on queues B2, C1 and D4. Those three queues account for 61% of "
        "repeat calls.",
        call("records.fcr", {"date": "2027-03-01"}, '{"fcr":0.58,"repeat_calls_by_queue":{"B2":310,"C1":250,"D4":140}}'),
        call("researcher.incidents", {"date": "2027-03-01"}, "billing outage 09:00-12:30, credits unavailable to agents"),
    ), steps=("supervisor -> records: FCR", "supervisor -> researcher: incidents"))
    assert float(answer_off_topic_drift(fcr, embed).value) < 0.5


def test_competitor_prices_for_a_markdown_question_sell_nothing(embed: Embed) -> None:
    markdown = replace(case(
        "Should we mark down the AW27 rain jackets this weekend?",
        "Yes, 20% looks justified: sell-through is 36% after 6 weeks vs 52% plan, and two competitors in the same "
        "malls already show similar rain jackets at 25–30% off (€99–€109 vs our €139). A 20% cut puts us at €111, "
        "close to them while protecting margin.",
        call("records.merch_report", {"style": "AW27-RJ"}, '{"weeks":6,"sell_through":0.36,"plan":0.52,"price_eur":139}'),
        call("researcher.competitor_prices", {"category": "rain jacket"}, "Brand X €99 (-30%), Brand Y €109 (-25%)"),
    ), steps=("supervisor -> records: sell-through", "supervisor -> researcher: competitor prices"))
    assert drift_rules(markdown, embed) < 0.5


def test_a_sibling_resource_answered_for_the_asked_one(embed: Embed) -> None:
    # Memory asked, the top CPU users given and memory never named.
    top = case(
        "which deployments in the `billing` namespace use the most memory? nodes are under pressure",
        "Top CPU users in `billing`:\n1. `invoice-worker` — 1520m\n2. `ledger-api` — 880m\n\ninvoice-worker is close "
        "to its limit, so start there.",
    )
    assert float(answer_task_understanding_failure(top, embed).value) >= 0.5


def test_the_platform_said_to_work_is_no_answer_for_the_failing_one(embed: Embed) -> None:
    # "Android builds fine" rules Android out; the fix given is Android's.
    build = case(
        "Our Flutter app fails to archive for iOS with `Module 'firebase_core' not found`; Android builds fine. "
        "How do I fix the iOS archive?",
        "Bump the Android Gradle plugin: in `android/settings.gradle` set `com.android.application` to 8.3.0, then "
        "run `flutter clean` and build again.",
    )
    assert float(answer_task_understanding_failure(build, embed).value) >= 0.5


def test_the_question_after_a_dropped_one_is_the_request(embed: Embed) -> None:
    orientation = case(
        "Why does my Unity export for iOS crash at launch? ...actually never mind, found it (missing signing "
        "team). Different question: how do I lock the game to portrait on iOS?",
        "Glad the signing team was it. For portrait: Project Settings → Player → Resolution → Default Orientation = "
        "`Portrait`. That writes `UISupportedInterfaceOrientations` into the exported Info.plist, so re-export "
        "afterwards.",
    )
    assert float(answer_off_topic_drift(orientation, embed).value) < 0.5


def test_the_asked_fix_reported_done_is_the_work(embed: Embed) -> None:
    # "Fixed." for "Fix …": the answer reports the asked work, in the terms of the file it
    # grepped and edited, however far those are from the request's words.
    fixed = replace(case(
        "Fix the hydration mismatch warning on the checkout page.",
        "Fixed. `ShippingEta` rendered `new Date().toLocaleTimeString()` for the 'arrives by' label, which differs "
        "between server (UTC) and browser (Europe/Helsinki). I now format the time from the `etaIso` prop with a "
        "fixed `timeZone: 'Europe/Helsinki'`, so server and client output match; the warning is gone in dev.\n\n"
        "Unrelated, noticed in passing: `next.config.js` still has the deprecated `images.domains` key — no action "
        "needed today.",
        call("bash", {"cmd": "grep -n 'toLocale' src/components/ShippingEta.tsx"},
             "31:  <span>saapuu {new Date(etaIso).toLocaleTimeString()}</span>"),
        call("edit_file", {"path": "src/components/ShippingEta.tsx", "old_str": "{new Date(etaIso).toLocaleTimeString()}",
                           "new_str": "{new Date(etaIso).toLocaleTimeString('fi-FI', { timeZone: 'Europe/Helsinki' })}"},
             "The file src/components/ShippingEta.tsx has been edited."),
        call("bash", {"cmd": "npm run dev & sleep 8; curl -s localhost:3000/checkout >/dev/null; "
                             "grep -c 'Hydration failed' .next/dev.log"}, "0"),
    ), steps=("Find locale-dependent rendering", "Pin timezone", "Verify no warning"))
    assert float(answer_off_topic_drift(fixed, embed).value) < 0.5


def test_a_diagnosis_step_whose_finding_the_answer_names_as_the_cause(embed: Embed) -> None:
    tls = replace(case(
        "Our service gets `SSL: CERTIFICATE_VERIFY_FAILED` calling api.partner-pay.cz since this morning. Our code "
        "hasn't changed.",
        "The partner's cert is fine — the problem is DNS. `api.partner-pay.cz` now resolves to 10.20.1.9 from our "
        "VPC, but to 193.85.4.20 from outside; 10.20.1.9 serves a cert for `*.legacy-lb.net`. Our VPC resolver has a "
        "stale private-zone override (`api` record in zone `partner-pay.cz.internal`, added in 2023). Deleting that "
        "record (or updating it) fixes the verification error.",
        call("bash", {"cmd": "openssl s_client -connect api.partner-pay.cz:443 </dev/null | openssl x509 -noout -subject"},
             "subject=CN = *.legacy-lb.net"),
        call("bash", {"cmd": "dig +short api.partner-pay.cz; dig +short api.partner-pay.cz @1.1.1.1"}, "10.20.1.9\n193.85.4.20"),
        call("bash", {"cmd": "aws route53 list-resource-record-sets --hosted-zone-id Z0PRIV77"},
             '[{"Name":"api.partner-pay.cz.","Type":"A","ResourceRecords":[{"Value":"10.20.1.9"}]}]'),
    ), steps=("Check served cert", "Compare DNS from VPC vs public", "Inspect private hosted zone"))
    assert float(answer_off_topic_drift(tls, embed).value) < 0.5
