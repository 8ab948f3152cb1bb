"""Hand-written traces for the four loop shapes the judge used to miss, and their healthy
look-alikes, in domains and wordings of this file's own (none taken from any dataset).

Loops: a search asked the same question in new words with the same empty result; a failing
call retried with only a setting changed or the id re-formatted; an agent restating its
plan without calling anything; two laps of an A->B->C tool cycle with identical outputs.
Healthy: pagination, a status poll that moves, batch work over different inputs, a refined
search that finally finds something, one transient error then success, write-then-read-back,
shared boilerplate over different substance, reasoning that moves on.

Each builder returns ``(trace, expected)`` where ``expected`` says whether stagnation must
be flagged and, when it is a loop with tool calls, whether the verdict must flag it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from semloop.trace import Span, Trace

Tool = tuple[str, Any, Any]


@dataclass(frozen=True)
class Expected:
    stagnation: bool  # the stagnation sub-score must be < 1.0 (True) or exactly 1.0 (False)
    verdict: bool | None  # flags_loop(0.5); None when the default weights cannot flip it
    tool_repeat: bool | None = None  # the tool-repetition sub-score < 1.0; None: not asserted


def llm(out: str, *tools: Tool) -> Span:
    children = [Span(type="tool", name=n, input=a, output=o) for n, a, o in tools]
    return Span(type="llm", name="reason", input="", output=out, children=children)


def tool(name: str, args: Any, out: Any) -> Span:
    return Span(type="tool", name=name, input=args, output=out)


def trace(goal: str, spans: list[Span]) -> Trace:
    return Trace(goal=goal, root=Span(type="agent", name="agent", input=goal, children=spans))


LOOP = Expected(stagnation=True, verdict=True, tool_repeat=True)
TEXT_LOOP = Expected(stagnation=True, verdict=None)
HEALTHY = Expected(stagnation=False, verdict=False)

# ------------------------------------------------------------------ 1. reworded empty searches


def reworded_empty_hr() -> tuple[Trace, Expected]:
    steps = [
        ("Searching the handbook for the parental leave rules.", "parental leave policy", "0 hits"),
        (
            "Nothing. Trying other words for the same rule.",
            "maternity and paternity leave",
            "0 hits",
        ),
        (
            "Still empty; maybe it is filed under time off.",
            "time off after having a baby",
            "0 hits",
        ),
        ("Rephrasing once more.", "leave entitlement for new parents", "0 hits"),
        ("One more attempt with different terms.", "how many weeks of baby leave", "0 hits"),
    ]
    return trace(
        "Tell the employee how much parental leave they get",
        [llm(t, ("handbook_search", {"q": q}, out)) for t, q, out in steps],
    ), LOOP


def reworded_empty_legal() -> tuple[Trace, Expected]:
    queries = [
        "clauses limiting liability for late delivery",
        "limitation of liability delay in delivery",
        "supplier not liable when shipment is late",
        "cap on damages for delayed goods",
    ]
    texts = [
        "I'll look for a liability clause about late delivery in the contract archive.",
        "The archive returned nothing, so I am wording the query differently.",
        "No match again; another phrasing might hit the clause.",
        "Let me try the search once more with other vocabulary.",
    ]
    return trace(
        "Find whether the supply contract caps damages for late delivery",
        [
            llm(t, ("contract_search", {"text": q, "top_k": 5}, {"matches": [], "total": 0}))
            for t, q in zip(texts, queries)
        ],
    ), LOOP


def reworded_empty_tools_only() -> tuple[Trace, Expected]:
    queries = [
        "wifi keeps disconnecting on the thermostat",
        "thermostat drops wireless connection",
        "smart thermostat loses network",
        "thermostat offline intermittently wifi",
        "device disconnects from router repeatedly",
    ]
    return trace(
        "Help a customer whose thermostat loses its connection",
        [tool("kb_lookup", q, "No results found.") for q in queries],
    ), LOOP


# ------------------------------------------------------------------ 2. setting-only retries


def timeout_retries() -> tuple[Trace, Expected]:
    timeouts = [10, 20, 40, 60, 90]
    return trace(
        "Download the monthly carrier invoice",
        [
            llm(
                f"Fetching the invoice from the carrier portal with a {t} second timeout.",
                (
                    "carrier_invoice",
                    {"account": "ACME-LOGI-44", "month": "2026-10", "timeout_s": t},
                    "ERROR 504 gateway timeout",
                ),
            )
            for t in timeouts
        ],
    ), LOOP


def reformatted_id_retries() -> tuple[Trace, Expected]:
    ids = ["PT-00872", "pt00872", "PT 00872", "00872", "PT-872"]
    texts = [
        "Pulling the lab results for patient PT-00872.",
        "Lookup failed; retrying with the id in lower case without the dash.",
        "Still failing, trying the id with a space.",
        "Maybe the system wants only the number.",
        "Trying the id without leading zeros.",
    ]
    return trace(
        "Summarise the latest lab results for the patient",
        [
            llm(t, ("lab_results", {"patient_id": i}, "error: patient record not found"))
            for t, i in zip(texts, ids)
        ],
    ), LOOP


def retry_flag_tools_only() -> tuple[Trace, Expected]:
    calls = [
        {"report": "quarterly-churn", "retries": 1, "verbose": False},
        {"report": "quarterly-churn", "retries": 3, "verbose": False},
        {"report": "quarterly-churn", "retries": 3, "verbose": True},
        {"report": "Quarterly-Churn", "retries": 5, "verbose": True},
        {"report": "quarterly_churn", "retries": 5, "verbose": False},
    ]
    out = '{"error": "report service unavailable", "code": 503}'
    return trace("Export the churn report", [tool("export_report", c, out) for c in calls]), LOOP


# ------------------------------------------------------------------ 3. plan restated, no tools


def restated_plan_trip() -> tuple[Trace, Expected]:
    texts = [
        (
            "To organise the offsite I should pick a venue near the station, then book rooms for "
            "twelve people, and finally arrange catering for both days."
        ),
        (
            "The plan is to find a venue close to the train station, reserve accommodation for the "
            "twelve attendees, and sort out food for the two days."
        ),
        (
            "First a venue within walking distance of the station, next hotel rooms for the whole "
            "group of twelve, after that catering covering both days."
        ),
        (
            "So: choose a place near the station, get rooms for twelve, then organise meals for "
            "the two-day event."
        ),
        (
            "My approach will be to secure a venue by the station, book lodging for all twelve "
            "people and line up catering for each day."
        ),
    ]
    return trace("Organise a two-day team offsite", [llm(t) for t in texts]), TEXT_LOOP


def restated_plan_migration() -> tuple[Trace, Expected]:
    texts = [
        (
            "I need to migrate the customer table: back it up first, then add the new column, "
            "backfill it, and switch the application over once the data is consistent."
        ),
        (
            "The way forward is to take a backup of the customer table, introduce the new column, "
            "fill in existing rows and only then move the application to it."
        ),
        (
            "Thinking about it again, the safe order is backup, add the column, populate the old "
            "records, and cut the app over after verifying the data."
        ),
        (
            "Right, so the steps are: make a backup, create the column, backfill the existing "
            "customers, then point the application at the new column."
        ),
        (
            "To restate the approach: back up the table, add the column, backfill, verify and "
            "switch the app."
        ),
        (
            "In short, backup, new column, backfill the rows, and move the application over when "
            "consistent."
        ),
    ]
    return trace("Add a loyalty tier column to the customer table", [llm(t) for t in texts]), (
        TEXT_LOOP
    )


def restated_plan_support() -> tuple[Trace, Expected]:
    texts = [
        (
            "I will apologise to the customer for the broken blender, offer a replacement unit "
            "and explain how to return the damaged one."
        ),
        (
            "My reply should say sorry for the faulty blender, propose sending a new one and give "
            "instructions for sending back the broken unit."
        ),
        (
            "The response needs an apology about the defective blender, an offer of a replacement "
            "and the steps to return the old appliance."
        ),
        (
            "I am going to apologise, offer to replace the blender and describe the return process "
            "for the damaged unit."
        ),
    ]
    return trace("Answer a complaint about a broken blender", [llm(t) for t in texts]), TEXT_LOOP


# ------------------------------------------------------------------ 4. A->B->C cycles


def abc_cycle_nested() -> tuple[Trace, Expected]:
    lap = [
        (
            "Reading the sensor log for the cold room.",
            "read_sensor_log",
            {"room": "cold-2"},
            "temp 7.9C, door open events: 14",
        ),
        (
            "Checking the compressor state.",
            "compressor_status",
            {"unit": "C-17"},
            "running, duty 98%",
        ),
        (
            "Resetting the door alarm threshold.",
            "set_alarm",
            {"room": "cold-2", "max_open_s": 60},
            "ok",
        ),
    ]
    spans = [llm(t, (n, a, o)) for _ in range(2) for t, n, a, o in lap]
    spans.append(llm(lap[0][0], lap[0][1:]))
    return trace("Bring the cold room back under 5C", spans), LOOP


def abc_cycle_tools_only() -> tuple[Trace, Expected]:
    lap = [
        tool("list_open_tickets", {"queue": "billing"}, '[{"id": 5512, "age_h": 30}]'),
        tool("get_ticket", {"id": 5512}, '{"id": 5512, "status": "waiting on customer"}'),
        tool("ping_customer", {"ticket": 5512}, '{"sent": true}'),
    ]
    spans = lap + [tool(s.name, s.input, s.output) for s in lap]
    spans.append(tool(lap[0].name, lap[0].input, lap[0].output))
    return trace("Clear the billing queue backlog", spans), LOOP


# ------------------------------------------------------------------ healthy look-alikes


def pagination_cursor() -> tuple[Trace, Expected]:
    pages = [
        ("", '{"items": ["inv-101", "inv-102", "inv-103"], "next": "c2"}'),
        ("c2", '{"items": ["inv-104", "inv-105", "inv-106"], "next": "c3"}'),
        ("c3", '{"items": ["inv-107", "inv-108", "inv-109"], "next": "c4"}'),
        ("c4", '{"items": ["inv-110"], "next": null}'),
    ]
    return trace(
        "Collect every unpaid invoice",
        [
            llm(
                "Fetching the next page of unpaid invoices.",
                ("list_invoices", {"status": "unpaid", "cursor": c}, out),
            )
            for c, out in pages
        ]
        + [llm("All 10 unpaid invoices collected; writing them to the sheet.")],
    ), HEALTHY


def polling_job() -> tuple[Trace, Expected]:
    states = ["queued", "running 25%", "running 60%", "running 90%", "finished, 4 files"]
    return trace(
        "Wait for the video transcode and publish it",
        [
            llm(
                "Checking on the transcode job.",
                ("job_status", {"job": "tx-7781"}, f'{{"state": "{s}"}}'),
            )
            for s in states
        ]
        + [llm("Transcode done; publishing.", ("publish", {"job": "tx-7781"}, "published"))],
    ), HEALTHY


def batch_not_found() -> tuple[Trace, Expected]:
    skus = ["SKU-1180", "SKU-2291", "SKU-3307", "SKU-4410", "SKU-5523"]
    return trace(
        "Check which of the five discontinued products are still listed",
        [
            llm(
                f"Checking whether {s} is still in the catalogue.",
                ("catalogue_lookup", {"sku": s}, "not found"),
            )
            for s in skus
        ]
        + [llm("None of the five is listed any more; reporting that they are all delisted.")],
    ), HEALTHY


def batch_same_ok() -> tuple[Trace, Expected]:
    rooms = ["Oak", "Birch", "Cedar", "Maple", "Willow"]
    return trace(
        "Book the five meeting rooms for the training day",
        [
            llm(
                f"Reserving the {r} room for Thursday.",
                ("reserve_room", {"room": r, "date": "2026-12-03"}, '{"status": "confirmed"}'),
            )
            for r in rooms
        ],
    ), HEALTHY


def refined_search_finds() -> tuple[Trace, Expected]:
    return trace(
        "Find the warranty terms for the customer's espresso machine",
        [
            llm(
                "Searching the product docs for warranty terms.",
                ("doc_search", {"q": "warranty"}, "0 results"),
            ),
            llm(
                "Too broad for the index; narrowing to the model the customer named.",
                ("doc_search", {"q": "Barista Pro 870 warranty period"}, "0 results"),
            ),
            llm(
                "Trying the model number alone, which the manuals are filed under.",
                ("doc_search", {"q": "BP870 manual"}, '[{"doc": "BP870-manual.pdf", "page": 41}]'),
            ),
            llm("Page 41 says two years parts and labour; answering the customer."),
        ],
    ), HEALTHY


def transient_then_success() -> tuple[Trace, Expected]:
    return trace(
        "Send the shift schedule to the team",
        [
            llm(
                "Loading next week's shift schedule.",
                ("get_schedule", {"week": 49, "timeout_s": 10}, "ERROR 503 service unavailable"),
            ),
            llm(
                "The schedule service hiccuped; trying once more with a longer timeout.",
                ("get_schedule", {"week": 49, "timeout_s": 30}, '{"shifts": 42, "gaps": 1}'),
            ),
            llm(
                "One gap on Saturday; emailing the schedule and flagging the gap.",
                ("send_email", {"to": "team@store.example", "subject": "Week 49"}, "sent"),
            ),
        ],
    ), HEALTHY


def write_then_read_back() -> tuple[Trace, Expected]:
    return trace(
        "Save the meeting notes and confirm they were stored",
        [
            llm(
                "Saving the notes to the shared drive.",
                ("write_doc", {"path": "notes/2026-11-30.md", "body": "Decisions: A, B"}, "ok"),
            ),
            llm(
                "Reading the file back to confirm it was stored correctly.",
                ("read_doc", {"path": "notes/2026-11-30.md"}, "Decisions: A, B"),
            ),
            llm(
                "Stored and verified; sharing the link.",
                ("share_doc", {"path": "notes/2026-11-30.md"}, "https://drive.example/n/77"),
            ),
        ],
    ), HEALTHY


def boilerplate_substance() -> tuple[Trace, Expected]:
    pre = "As the onboarding assistant, following company policy and keeping the tone friendly, "
    bodies = [
        "the new hire first needs a laptop, which IT ships within three days.",
        "next comes payroll setup, where the bank details form must be signed.",
        "then the security training, a forty-minute video with a short quiz.",
        "finally a buddy is assigned from the same team for the first month.",
    ]
    return trace(
        "Write the onboarding checklist for a new hire",
        [llm(pre + b) for b in bodies] + [llm("Checklist sent to the hiring manager.")],
    ), HEALTHY


def reasoning_moves_on_recipe() -> tuple[Trace, Expected]:
    texts = [
        (
            "The guest count is eight and two of them are vegetarian, so the menu needs a main "
            "dish that works without meat."
        ),
        (
            "A mushroom risotto covers the vegetarians and scales easily; it needs arborio rice, "
            "stock, parmesan and about a kilo of mushrooms."
        ),
        (
            "For dessert something that can be made the day before is better, so a lemon tart "
            "frees the oven on the evening itself."
        ),
        (
            "Shopping list: arborio rice, vegetable stock, parmesan, mushrooms, lemons, butter, "
            "flour, eggs and cream."
        ),
        "Timing: tart baked Friday, risotto started forty minutes before serving on Saturday.",
    ]
    return trace("Plan a dinner for eight guests", [llm(t) for t in texts]), HEALTHY


def reasoning_moves_on_incident() -> tuple[Trace, Expected]:
    texts = [
        (
            "The alert says checkout latency doubled at 14:05; I should first see whether every "
            "region is affected or just one."
        ),
        (
            "Only the EU region shows the spike, which points away from the shared database and "
            "towards something regional."
        ),
        (
            "The EU load balancer was reconfigured at 14:02 according to the change calendar, "
            "three minutes before the alert."
        ),
        (
            "That change lowered the connection pool size, which would queue requests exactly "
            "under peak load."
        ),
        "Recommendation: restore the previous pool size and add an alert on queue depth.",
    ]
    return trace("Explain the checkout latency alert", [llm(t) for t in texts]), HEALTHY


def reasoning_same_topic_progress() -> tuple[Trace, Expected]:
    # One subject throughout (a lease), each step adds a new finding: the hard healthy case
    # for "restated plan" detection.
    texts = [
        "Reading the lease to see whether the tenant may sublet the flat.",
        "Clause 9 forbids subletting without written consent from the landlord.",
        "Consent cannot be unreasonably withheld under clause 9.3, so a refusal needs a reason.",
        "The tenant's email from March asked for consent and got no reply within 30 days.",
        "Silence for 30 days counts as consent under clause 9.4, so the sublet is allowed.",
    ]
    return trace("Can the tenant sublet the flat?", [llm(t) for t in texts]), HEALTHY


def restated_plan_short() -> tuple[Trace, Expected]:
    texts = [
        "Next I should compare the three laptop offers on price and battery life.",
        "Let me weigh the laptops against each other, looking at cost and how long the battery lasts.",
        "I think the right move is to line up the candidate notebooks by what they cost and their battery.",
        "What I need now is a side-by-side of the machines: price versus endurance.",
        "Going to rank the computers on affordability and runtime on a charge.",
    ]
    return trace("Recommend a laptop for a student", [llm(t) for t in texts]), TEXT_LOOP


def restated_plan_verbose() -> tuple[Trace, Expected]:
    texts = [
        (
            "Before answering the landlord I want to be sure about the deposit rules. The key point "
            "is whether deductions for normal wear are allowed, so I will rely on the tenancy law."
        ),
        (
            "Thinking this through: the landlord's message is about keeping part of the deposit. "
            "What matters is if ordinary wear and tear can be charged, and the law decides that."
        ),
        (
            "Let me reconsider. The question is whether the landlord may withhold money for usual "
            "wear; the statute on tenancies is what answers it, so I'll base the reply on that."
        ),
        (
            "OK, stepping back: the deposit dispute hinges on charges for everyday wear, and the "
            "legal rules on renting are the reference I should use for my reply."
        ),
    ]
    return trace("Reply to the landlord about the deposit", [llm(t) for t in texts]), TEXT_LOOP


def raw_command_timeouts() -> tuple[Trace, Expected]:
    commands = [
        "curl --max-time 5 https://status.vendor.example/api/v1/feeds/rates",
        "curl --max-time 15 https://status.vendor.example/api/v1/feeds/rates",
        "curl --max-time 30 --retry 2 https://status.vendor.example/api/v1/feeds/rates",
        "curl --max-time 60 --retry 4 https://status.vendor.example/api/v1/feeds/rates",
    ]
    out = "curl: (28) Connection timed out"  # the same error whatever the timeout
    return trace(
        "Refresh the exchange-rate feed",
        [llm("Pulling the rates feed.", ("shell", c, out)) for c in commands],
    ), LOOP


def different_questions_escalated() -> tuple[Trace, Expected]:
    questions = [
        ("Looking up how to pair the headphones.", "pair headphones bluetooth", "[]"),
        (
            "Nothing on pairing; checking the battery question the customer also asked.",
            "battery life of the charging case",
            "[]",
        ),
        (
            "No article on that either; looking for the return window they mentioned.",
            "return window for opened items",
            "[]",
        ),
    ]
    spans = [llm(t, ("help_search", {"query": q}, o)) for t, q, o in questions]
    spans.append(
        llm(
            "The help centre has none of the three; handing the chat to a human agent.",
            ("escalate", {"queue": "audio"}, '{"ticket": "HD-5521"}'),
        )
    )
    return trace("Answer three questions about new headphones", spans), HEALTHY


def batch_ids_from_goal() -> tuple[Trace, Expected]:
    ids = [40211, 40212, 40219, 40230]
    return trace(
        "Confirm that orders 40211, 40212, 40219 and 40230 were cancelled",
        [
            llm(
                f"Checking order {o}.",
                ("order_lookup", {"order": o, "timeout_s": 20}, "order not found"),
            )
            for o in ids
        ]
        + [llm("All four are gone from the system, so they were cancelled and purged.")],
    ), HEALTHY


def raw_retry_once_then_success() -> tuple[Trace, Expected]:
    return trace(
        "Check the nightly backup finished",
        [
            llm(
                "Listing last night's backups.",
                ("shell", "backupctl list --since 24h --timeout 10", "error: timed out"),
            ),
            llm(
                "Timed out; once more with a longer timeout.",
                (
                    "shell",
                    "backupctl list --since 24h --timeout 60",
                    "db-nightly 2026-11-30 02:10 OK 41GB",
                ),
            ),
            llm("The nightly backup finished at 02:10 with 41GB; all good."),
        ],
    ), HEALTHY


def reasoning_ends_in_summary() -> tuple[Trace, Expected]:
    texts = [
        (
            "The venue should be near the station so nobody needs a car; the old brewery hall "
            "is five minutes away and takes forty people."
        ),
        (
            "For rooms, the hotel across the square holds a block of twelve at a group rate "
            "until Friday."
        ),
        "Catering can come from the brewery's own kitchen, which does a vegetarian option.",
        "So the plan covers the venue, the rooms and the food, all within walking distance.",
    ]
    return trace("Organise a two-day team offsite", [llm(t) for t in texts]), HEALTHY


def reasoning_three_steps_one_subject() -> tuple[Trace, Expected]:
    texts = [
        "The customer wants to know why the invoice total is higher than the quote.",
        "Comparing the two, the invoice adds a delivery charge the quote left out.",
        "I will explain the delivery charge and offer to waive it as a goodwill gesture.",
    ]
    return trace("Answer a billing question", [llm(t) for t in texts]), HEALTHY


def reworded_empty_echoing_query() -> tuple[Trace, Expected]:
    # The empty result echoes each query back, so no two outputs are equal as text.
    queries = [
        "vegan restaurants open late near the venue",
        "late night plant-based dining close to the venue",
        "vegan food after 10pm around the venue",
        "restaurants with vegan menus open late by the venue",
    ]
    return trace(
        "Find somewhere vegan to eat after the concert",
        [
            llm(
                "Searching for a late vegan place near the venue.",
                ("places_search", {"query": q}, {"query": q, "results": [], "count": 0}),
            )
            for q in queries
        ],
    ), LOOP


def error_echoes_reformatted_id() -> tuple[Trace, Expected]:
    ids = ["INV-2026-0413", "inv20260413", "2026-0413", "INV 2026 0413"]
    return trace(
        "Void the duplicate invoice",
        [
            llm(
                "Voiding the duplicate invoice.",
                ("void_invoice", {"invoice": i, "wait": w}, f"Error: invoice {i} does not exist"),
            )
            for i, w in zip(ids, ["5s", "10s", "30s", "60s"])
        ],
    ), LOOP


def error_echoes_setting() -> tuple[Trace, Expected]:
    # The error message repeats the setting that was tried, so no two outputs are equal.
    waits = [15, 30, 60, 120]
    return trace(
        "Get the parcel locker code for the customer",
        [
            llm(
                "Asking the locker network for the pickup code.",
                (
                    "locker_code",
                    {"parcel": "JD0148812345", "wait_s": w},
                    f"upstream error: locker network did not answer (wait_s={w})",
                ),
            )
            for w in waits
        ],
    ), LOOP


def refined_search_reworded_then_found() -> tuple[Trace, Expected]:
    # One rewording that also comes back empty, then a query that finds it: careful work.
    return trace(
        "Tell the customer how long their coffee machine is under warranty",
        [
            llm(
                "Searching the support articles for the warranty length.",
                ("article_search", {"q": "coffee machine warranty length"}, "0 results"),
            ),
            llm(
                "Nothing; the articles may say guarantee instead.",
                ("article_search", {"q": "how long is the espresso maker guarantee"}, "0 results"),
            ),
            llm(
                "Trying the model code from the order, which articles are filed under.",
                ("article_search", {"q": "BP870"}, '[{"title": "BP870: two-year guarantee"}]'),
            ),
            llm("Two years; replying to the customer."),
        ],
    ), HEALTHY


def restated_plan_templated() -> tuple[Trace, Expected]:
    # A fixed "Thought:" frame on every step, the plan underneath said seven ways.
    plans = [
        (
            "I should compare this quarter's support tickets with last quarter's to find the "
            "categories that grew."
        ),
        (
            "the right approach is to put the two quarters of tickets side by side and see "
            "which categories increased."
        ),
        "what I need is a comparison of ticket volume per category between the quarters.",
        "let me line up last quarter against this one, category by category, to spot growth.",
        "the plan stays the same: compare both quarters of tickets per category.",
        "I'll contrast the ticket categories across the two quarters to see what went up.",
        "comparing category counts quarter over quarter is how I'll find the growth.",
    ]
    return trace(
        "Find which support ticket categories grew this quarter",
        [llm(f"Thought: considering the request carefully, {p}") for p in plans],
    ), TEXT_LOOP


def templated_reasoning_moves_on() -> tuple[Trace, Expected]:
    findings = [
        "billing questions rose from 410 to 655 tickets, the largest jump.",
        "most of the new billing tickets mention the invoice redesign shipped in August.",
        "login problems fell by a third after the password reset fix.",
        "shipping delays are flat, so they are not part of the growth.",
        "the answer is billing, driven by confusion over the redesigned invoice.",
    ]
    return trace(
        "Find which support ticket categories grew this quarter",
        [llm(f"Thought: considering the request carefully, {f}") for f in findings],
    ), HEALTHY


def _inventory_report(time: str, lead: str, pallets: int, short: str) -> str:
    return (f"{lead} {time}: bay count holds at {pallets} pallets in aisle C; {short}. "
            "Waiting on the cycle-count sign-off from the night supervisor.")


def same_facts_reports() -> tuple[Trace, Expected]:
    # Only the clock and the phrasing move; the three facts never do.
    leads = ["Inventory status at", "Checkpoint,", "Recount update for", "As of", "Shift note,"]
    times = ["06:00", "06:30", "07:00", "07:30", "08:00"]
    return trace(
        "Close out the aisle C stock discrepancy before the morning shift",
        [llm(_inventory_report(t, lead, 318, "SKU HX-2201 still short by 12 units"))
         for t, lead in zip(times, leads, strict=True)],
    ), TEXT_LOOP


def same_facts_posted() -> tuple[Trace, Expected]:
    # The same report posted to the same channel; the post's text differs only in its time.
    times = ["06:00", "06:30", "07:00", "07:30", "08:00"]
    spans = []
    for t in times:
        text = _inventory_report(t, "Inventory status at", 318, "SKU HX-2201 still short by 12")
        spans.append(llm("Posting the scheduled update.",
                         ("chat.post", {"channel": "#warehouse-ops", "text": text},
                          f"delivered {t}")))
    return trace("Close out the aisle C stock discrepancy before the morning shift", spans), LOOP


def moving_facts_reports() -> tuple[Trace, Expected]:
    # Same frame, but the count moves every time: that is progress.
    times = ["06:00", "06:30", "07:00", "07:30", "08:00"]
    pallets = [318, 296, 271, 240, 212]
    shorts = ["SKU HX-2201 short by 12 units", "HX-2201 short by 7", "HX-2201 short by 3",
              "HX-2201 reconciled, HX-4410 short by 2", "all SKUs reconciled"]
    return trace(
        "Close out the aisle C stock discrepancy before the morning shift",
        [llm(_inventory_report(t, "Inventory status at", n, short))
         for t, n, short in zip(times, pallets, shorts, strict=True)],
    ), HEALTHY


LOOPS: list[Callable[[], tuple[Trace, Expected]]] = [
    reworded_empty_hr,
    reworded_empty_legal,
    reworded_empty_tools_only,
    timeout_retries,
    reformatted_id_retries,
    retry_flag_tools_only,
    restated_plan_trip,
    restated_plan_migration,
    restated_plan_support,
    restated_plan_short,
    restated_plan_verbose,
    restated_plan_templated,
    abc_cycle_nested,
    abc_cycle_tools_only,
    raw_command_timeouts,
    reworded_empty_echoing_query,
    error_echoes_reformatted_id,
    error_echoes_setting,
    same_facts_reports,
    same_facts_posted,
]

HEALTHY_LOOKALIKES: list[Callable[[], tuple[Trace, Expected]]] = [
    pagination_cursor,
    polling_job,
    batch_not_found,
    batch_same_ok,
    refined_search_finds,
    refined_search_reworded_then_found,
    transient_then_success,
    write_then_read_back,
    boilerplate_substance,
    reasoning_moves_on_recipe,
    reasoning_moves_on_incident,
    reasoning_same_topic_progress,
    different_questions_escalated,
    batch_ids_from_goal,
    raw_retry_once_then_success,
    reasoning_ends_in_summary,
    reasoning_three_steps_one_subject,
    templated_reasoning_moves_on,
    moving_facts_reports,
]
