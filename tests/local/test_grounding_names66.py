"""HALLUCINATION on false alarms of blind66 … blind68b (opened this round) that are not
figures, each tested in a domain of its own here. Offers: "free" after what it qualifies
("three bays free right now") offers what came before it; a word that says how sure a list
is ("… and strong gusts likely") is no item of it; the user's own thing ("you can use your
tablet") is no service's offer; "even if" ends the items as "if" does. Records: a part that
states a list's rows, each by its keys, is a list even where one row's name is another
language's or word; a reading of a time series is bound by the time the claim gives it; a
call's arguments (the user's member number) are the request, no rival record. Causes: who a
record's count stands for ("two other people") is no word a context lacks. Negation: a
one-letter name ("Q is not patrolled") is a word a clause shares. Recall: each check still
catches the wrong thing beside it."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed

from .conftest import call, found


def test_free_after_what_it_qualifies(embed: Embed) -> None:
    depot = {"depot": "Harbour Lane", "available": [{"bay": "B-2", "size": "3x6 m", "daily_eur": 14},
                                                    {"bay": "D-9", "size": "3x9 m", "daily_eur": 22}]}
    q = "any parking bays at harbour lane? cost?"
    said = "Yes — Harbour Lane has two bays free right now: B-2 (3x6 m) at €14 a day and D-9 (3x9 m) at €22 a day."
    assert found(embed, q, said, tool=depot).get("offered", 0) == 0
    washed = said.replace(" right now:", " right now, with a free car wash:")
    assert found(embed, q, washed, tool=depot).get("offered", 0) >= 1


def test_how_sure_a_list_is_names_no_item(embed: Embed) -> None:
    outlook = {"event": "gale", "arrival_local": "15:00", "confidence": "high",
               "hazards": ["heavy rain", "strong gusts"]}
    q = "When does the gale reach the harbour?"
    said = "The gale reaches the harbour around 3 pm (15:00 local), high confidence, with heavy rain and strong gusts likely."
    assert found(embed, q, said, tool=outlook).get("offered", 0) == 0
    hail = said.replace("heavy rain and", "heavy rain, hail and")
    assert found(embed, q, hail, tool=outlook).get("offered", 0) >= 1


def test_the_users_own_thing_is_no_offer(embed: Embed) -> None:
    rules = ("Reading Room Rules\n2.1 Personal devices may be used for note-taking in silent mode.\n"
             "2.2 Laptops must be used at the powered desks only.")
    q = "Can I take notes on my tablet in the reading room?"
    said = "Yes, you can use your tablet for notes, as long as it's on silent."
    assert found(embed, q, said, rules).get("offered", 0) == 0
    lent = "Yes, and you can also borrow a tablet from the front desk for notes."
    assert found(embed, q, lent, rules).get("offered", 0) >= 1


def test_even_if_ends_the_items(embed: Embed) -> None:
    rules = ("Riverside District — Parking passes\nFree passes are available to: (a) residents of the "
             "district; (b) people employed in the district. Proof: photo ID plus a payslip.")
    q = "I work in Riverside but live out of town. Is the pass free for me?"
    said = "Yes — people employed in the district get a free pass even if they live elsewhere."
    assert found(embed, q, said, rules).get("offered", 0) == 0
    shuttle = said.replace("a free pass", "a free pass and a free shuttle")
    assert found(embed, q, shuttle, rules).get("offered", 0) >= 1


def test_a_list_of_rows_one_named_in_other_words(embed: Embed) -> None:
    report = {"sample": "RW-2024-311", "tests": [
        {"name": "Lead", "value": 0, "unit": "ppb", "limit": 0},
        {"name": "Nitrate", "value": 12, "unit": "mg/L", "limit": 50},
        {"name": "Zinc", "value": 2.1, "unit": "mg/L", "limit": 5}]}
    q = "Is the rainwater tank safe? Sample RW-2024-311."
    said = "All within limits: lead not detected, nitrate 12 mg/L (limit 50), Zn 2.1 mg/L (limit 5)."
    assert found(embed, q, said, tool=report).get("bound", 0) == 0
    jabs = {"appointments": [{"vaccine": "flu", "date": "2024-10-03", "clinic": "Riverside"},
                             {"vaccine": "shingles", "date": "2024-10-09", "clinic": "Hilltop"}]}
    crossed = "Your shingles jab is on 3 October at Riverside."
    assert found(embed, "When is my shingles jab?", crossed, tool=jabs).get("bound", 0) >= 1


def test_a_reading_bound_by_its_time(embed: Embed) -> None:
    rules = "Reef tank SOP-7: pH must stay between 7.9 and 8.3. If pH < 7.9 at dawn (05:00-06:00), dose buffer."
    log = {"tank": "R2", "unit": "pH", "readings": [{"t": "02:00", "v": 8.1}, {"t": "05:00", "v": 7.8},
                                                    {"t": "06:00", "v": 7.85}, {"t": "09:00", "v": 8.2}]}
    q = "Tank R2 pH at dawn — do we need to dose?"
    said = "It came back up to 8.2 by 09:00."
    assert found(embed, q, said, rules, tool=log).get("bound", 0) == 0


def test_the_requests_own_number_is_no_rival(embed: Embed) -> None:
    booked = call("room_booking", {"room": "Ash Room", "date": "2024-06-07", "start": "10:00",
                                   "end": "12:00", "member": "55821937"},
                  {"status": "confirmed", "confirmation": "MR-4471", "room": "Ash Room",
                   "date": "2024-06-07", "start": "10:00", "end": "12:00", "capacity": 6,
                   "equipment": ["projector", "flipchart"], "notes": None})
    q = "book ash room fri 7 jun 10-12, member 55821937"
    said = "It seats 6 and has a projector and a flipchart."
    assert found(embed, q, said, calls=(booked,)).get("bound", 0) == 0


def test_who_a_records_count_stands_for(embed: Embed) -> None:
    blocked = call("extend_loan", {"item_id": "40021"},
                   {"error": "EXTENSION_BLOCKED", "reason": "item has 3 reservations", "item_id": "40021"},
                   success=False)
    q = "extend my loan of the drill please"
    said = "I couldn't extend the drill because three other people have reservations on it, so it's still due Friday."
    assert found(embed, q, said, calls=(blocked,)).get("cause", 0) == 0
    damaged = "I couldn't extend the drill because the battery pack was reported faulty, so it's still due Friday."
    assert found(embed, q, damaged, calls=(blocked,)).get("cause", 0) >= 1


def test_a_one_letter_name_is_a_shared_word(embed: Embed) -> None:
    rules = ("Patrol rules\n1. Sectors Q and X are not patrolled; if two yards with the same guard are "
             "separated by Q or X, they are patrolled once.\n2. Every other sector is patrolled hourly.")
    q = "Is zone Q on the patrol route?"
    said = "Q is not patrolled, and because the north yard is separated from the east yard only by Q, it isn't patrolled again."
    assert found(embed, q, said, rules).get("negation", 0) == 0
    nightly = "Patrol rules\n1. Zones Q and X are patrolled nightly by the same guard."
    assert found(embed, q, "Q is not patrolled, so zone 3 is left to the guard of zone 5.", nightly).get(
        "negation", 0) >= 1
