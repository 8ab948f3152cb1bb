"""Task rules, round b39tc: a booking that schedules, a light verb run by a call named by its
object, a call named by a bare noun that reports no act, an act's participle told ahead of a
promise, a comparison that says nothing of more pages, a draft handed back undone, a record
named by code that nothing read, an act said not done in the request's own words, and a
promise whose only figures are quoted code; each with the look-alike that must not fire."""

from __future__ import annotations

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import answer_task_completion

from .conftest import call, case


def _fires(run: RunCase, embed: Embed) -> bool:
    return float(answer_task_completion(run, embed).value) >= 0.5


def test_a_booking_schedules_the_visit_asked(embed: Embed) -> None:
    asked = "Schedule the boiler service for flat 12B and charge the £85 call-out to the landlord's account."
    booked = call("engineer.visit_book", {"flat": "12B", "job": "boiler_service"}, {"slot": "2026-12-09 08:00-12:00"})
    refused = call("billing.charge", {"account": "LL-3301", "amount": 85}, {"error": "ACCOUNT_SUSPENDED"}, False)
    told = ("The boiler service for flat 12B is booked for Wednesday 9 Dec, 08:00–12:00. The £85 call-out charge "
            "failed: the landlord's account is suspended, so it will need to be paid another way.")
    assert not _fires(case(asked, told, booked, refused), embed)
    # Nothing booked: the same answer with only the failed charge still fires.
    assert _fires(case(asked, "The £85 call-out charge failed: the landlord's account is suspended.", refused), embed)


def test_a_light_verb_done_by_a_call_named_by_its_object(embed: Embed) -> None:
    asked = "Run a credit check for applicant LN-7702 and tell me the score."
    failed = call("bureau.credit_check", {"applicant": "LN-7702"}, {"error": {"code": "BUR-504"}}, False)
    checked = call("bureau.credit_check", {"applicant": "LN-7702"}, {"score": 712, "band": "good"})
    told = "Credit check for LN-7702: the first attempt timed out and the retry came back with a score of 712 (good)."
    assert not _fires(case(asked, told, failed, checked), embed)
    assert _fires(case(asked, "The credit bureau timed out, so I'll run the check again later.", failed), embed)


def test_a_call_named_by_a_bare_noun_reports_no_act(embed: Embed) -> None:
    asked = "Please refund the £60 double charge on membership GYM-40211 today."
    looked = call("records.membership", {"membership": "GYM-40211"}, {"double_charge": {"amount": 60}})
    promised = "Understood, I'll have the billing team refund the £60 double charge on GYM-40211 and confirm by email."
    assert _fires(case(asked, promised, looked), embed)
    refunded = call("billing.refund", {"membership": "GYM-40211", "amount": 60}, {"status": "REFUNDED"})
    assert not _fires(case(asked, "The £60 double charge on GYM-40211 is refunded.", looked, refunded), embed)


def test_a_participle_told_ahead_of_a_promise_reports_the_act(embed: Embed) -> None:
    asked = "Put a note on ticket HD-5521 that the customer prefers a call back on Monday."
    added = call("add_note", {"ticket": "HD-5521", "text": "prefers call back Monday"}, {"note_id": "N-88"})
    told = "Note added to HD-5521, and we'll call the customer back on Monday."
    assert not _fires(case(asked, told, added), embed)
    looked = call("get_ticket", {"ticket": "HD-5521"}, {"status": "open"})
    assert _fires(case(asked, "HD-5521 is open, and we'll add the note for you.", looked), embed)


def test_more_than_a_figure_says_nothing_of_more_pages(embed: Embed) -> None:
    asked = "List every invoice overdue by more than 60 days for the Leeds branch."
    page = call("invoice_search", {"branch": "LEEDS", "overdue_days": 60, "page": 1},
                {"page": 1, "of": 2, "results": [{"id": "INV-881", "days": 92}, {"id": "INV-903", "days": 71}]})
    listed = "Invoices overdue by more than 60 days for Leeds:\n- INV-881 (92 days)\n- INV-903 (71 days)"
    assert _fires(case(asked, listed, page), embed)
    said = listed + "\nThat is page 1 of 2; the rest are on the next page."
    assert not _fires(case(asked, said, page), embed)


def test_a_draft_handed_back_is_not_the_act(embed: Embed) -> None:
    asked = "File the quarterly VAT return for Q3 now, the deadline is tonight."
    draft = call("vat_return_create", {"period": "2026-Q3"}, {"return_id": "VR-5530", "status": "DRAFT"})
    assert _fires(case(asked, "I've drafted the Q3 VAT return VR-5530 with all figures; it's ready whenever you are.",
                       draft), embed)
    asked_draft = "Draft the quarterly VAT return for Q3 so I can check it."
    assert not _fires(case(asked_draft, "I've drafted the Q3 VAT return VR-5530 with all figures; it's ready for "
                           "your check.", draft), embed)


def test_a_record_named_by_code_and_never_read(embed: Embed) -> None:
    asked = "Please look up where my warranty claim WC-30188 stands."
    general = "Warranty claims are reviewed within five to ten working days, and an email goes out once decided."
    assert _fires(case(asked, general), embed)
    read = call("get_claim", {"id": "WC-30188"}, {"status": "approved", "decided": "2026-12-02"})
    assert not _fires(case(asked, "Warranty claim WC-30188: status approved, decided on 2 December.", read), embed)


def test_an_act_said_not_done_in_the_request_words_owns_the_failure(embed: Embed) -> None:
    asked = "pin numpy to 1.24.9 in requirements.txt for the legacy job"
    listed = call("bash", {"cmd": "pip index versions numpy"}, "numpy (2.1.3)\nAvailable versions: 1.24.4, 1.24.3")
    failed = call("bash", {"cmd": "pip download numpy==1.24.9"}, "ERROR: No matching distribution found", False)
    told = ("I didn't change the pin: numpy 1.24.9 doesn't exist on PyPI; the 1.24 line ends at 1.24.4. "
            "Tell me if 1.24.4 works for the legacy job.")
    assert not _fires(case(asked, told, listed, failed), embed)
    assert _fires(case(asked, "Pinned numpy for the legacy job.", listed, failed), embed)


def test_a_promise_whose_figures_are_quoted_code(embed: Embed) -> None:
    asked = "Our build workflow still runs node 16, please switch build.yml to node 20 and push to a branch."
    read = call("bash", {"cmd": "cat .github/workflows/build.yml"}, "      - uses: actions/setup-node@v3\n"
                "        with:\n          node-version: 16")
    promised = "Sure! I'll set `node-version: 20` in build.yml, then push it to a `ci/node20` branch for you."
    assert _fires(case(asked, promised, read), embed)
    edited = call("edit_file", {"path": ".github/workflows/build.yml", "old": "node-version: 16",
                                "new": "node-version: 20"}, "edited")
    pushed = call("bash", {"cmd": "git push origin ci/node20"}, "* [new branch] ci/node20 -> ci/node20")
    assert not _fires(case(asked, "Set `node-version: 20` in build.yml and pushed it to `ci/node20`.", read, edited,
                           pushed), embed)


def test_a_listed_item_no_call_of_the_act_names(embed: Embed) -> None:
    asked = "set the replica count to 3 for billing, search and auth in the staging values file and commit"
    edits = [call("edit_file", {"path": "staging/values.yaml", "old_str": f"{svc}:\n  replicas: 1",
                                "new_str": f"{svc}:\n  replicas: 3"}, "edited") for svc in ("billing", "search")]
    commit = call("bash", {"cmd": "git commit -am 'staging: 3 replicas'"}, "[main 9a1c2e] staging: 3 replicas")
    assert _fires(case(asked, "Done: staging now runs 3 replicas and the change is committed.", *edits, commit), embed)
    third = call("edit_file", {"path": "staging/values.yaml", "old_str": "auth:\n  replicas: 1",
                               "new_str": "auth:\n  replicas: 3"}, "edited")
    assert not _fires(case(asked, "Done: staging now runs 3 replicas and the change is committed.", *edits, third,
                           commit), embed)


def test_a_dry_run_given_as_the_work_done(embed: Embed) -> None:
    asked = "Apply the pending database migrations to the staging database."
    dry = call("bash", {"cmd": "alembic upgrade head --sql --dry-run"}, "-- Running upgrade 41a -> 42b\nALTER TABLE orders ADD")
    assert _fires(case(asked, "Staging is migrated: 41a → 42b, the orders table now has its new column.", dry), embed)
    # Asked for the trial, the trial is the work.
    preview = "Show me what the pending migrations would do on staging; don't apply them yet."
    assert not _fires(case(preview, "Staging is ready for 41a → 42b: one ALTER on the orders table adds a column.",
                           dry), embed)


def test_the_noun_login_is_no_step_for_the_user(embed: Embed) -> None:
    asked = "Cancel my sister's gym membership, I have her login."
    refused = ("I can't cancel it for you: a membership can only be cancelled by its holder, even if you have her "
               "login. She can reply to her welcome email to start it.")
    assert not _fires(case(asked, refused), embed)
    steps = "To cancel, log in to the member portal, open Membership and click Cancel. Then confirm by email."
    assert _fires(case(asked, steps), embed)


def test_a_goodbye_answered_with_a_courtesy(embed: Embed) -> None:
    held = call("place_hold", {"card": "3301-2290", "item": "Tomorrow, and Tomorrow"}, {"status": "on_hold"})
    assert not _fires(case("Thanks, that's all — bye!", "You're welcome! Enjoy the book and have a lovely evening.",
                           held), embed)
    assert _fires(case("Thanks, and please renew my other loan too.", "You're welcome! Have a lovely evening.", held),
                  embed)


def test_a_thing_added_as_an_item_of_the_acting_call(embed: Embed) -> None:
    asked = "Book a car service for Friday morning and add the wiper blade swap to the same appointment."
    booked = call("book_service", {"day": "Friday", "window": "morning", "jobs": ["car_service", "wiper_blades"]},
                  {"booking": "SV-2281", "status": "confirmed"})
    told = "Booked for Friday 9:00 (SV-2281): the car service plus new wiper blades in the same appointment."
    assert not _fires(case(asked, told, booked), embed)
    only = call("book_service", {"day": "Friday", "window": "morning", "jobs": ["car_service"]},
                {"booking": "SV-2281", "status": "confirmed"})
    assert _fires(case(asked, "Booked for Friday 9:00 (SV-2281): the car service.", only), embed)


def test_a_preview_asked_and_given(embed: Embed) -> None:
    trial = call("bulk_archive", {"folder": "2019", "dry_run": True},
                 {"mode": "dry_run", "would_archive": 214, "applied": False})
    asked = "Show me how many 2019 files would be archived if we ran the cleanup — don't apply it yet."
    assert not _fires(case(asked, "214 files from 2019 would be archived. Nothing has been changed yet.", trial), embed)
    assert _fires(case("Archive all the 2019 files.", "Done — the 214 files from 2019 are archived.", trial), embed)


def test_a_question_for_the_most_answered_by_the_item(embed: Embed) -> None:
    # Rests on one case (blind25's flights); the part's words ("trains", "departure") are
    # not in the answer, which names the item and the superlative.
    asked = "Which of my trains next week has the earliest departure, and does it include a seat reservation?"
    read = call("list_tickets", {"user": "current"}, {"tickets": [{"train": "ICE571", "dep": "2026-05-12T07:05", "seat": 1},
                                                                  {"train": "IC2013", "dep": "2026-05-14T18:40", "seat": 0}]})
    told = "ICE571 on Tuesday 12 May at 07:05 is the earliest, and yes, it includes one seat reservation."
    assert not _fires(case(asked, told, read), embed)
