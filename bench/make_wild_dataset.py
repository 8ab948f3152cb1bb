"""Write bench/wild.jsonl: loop-detection traces from outside the bench's world.

A second, independent dataset for judging whether a loop detector generalises: other
domains (support, travel, analytics, operations), other tools, other wording, JSON tool
outputs, traces whose steps are tool spans only. Half the families are healthy runs that
*look* like loops (pagination, one sentence template over a batch, status polling whose
answer changes, a transient error retried once); half are loops that do not look like
loops (reworded queries with the same empty result, A-B-C cycles, long near-duplicate
status reports, cosmetic option changes). Same row schema as the bench dataset.

    python bench/make_wild_dataset.py [--per 6] [--seed 20261130] [--out bench/wild.jsonl]

Seeded and byte-reproducible: one ``random.Random(seed)``, consumed family by family.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

Row = dict[str, Any]
Step = dict[str, Any]


def llm(text: str, name: str = "think", prompt: str | None = None) -> Step:
    step: Step = {"type": "llm", "name": name, "output": text, "children": []}
    if prompt is not None:
        step["input"] = prompt
    return step


def tool(name: str, args: dict[str, Any], output: Any) -> Step:
    return {"type": "tool", "name": name, "input": args, "output": output, "children": []}


# ----------------------------------------------------------------------------- healthy


def paginated_export(rng: random.Random) -> tuple[str, list[Step]]:
    report = rng.choice(["weekly_active_users", "churn_cohorts", "refund_ledger", "ad_spend_daily"])
    pages = rng.randint(4, 5)
    goal = f"Export the full {report.replace('_', ' ')} report to CSV for the finance review"
    sentence = (
        "Requesting the next page of the report from the warehouse API and appending it to "
        "the local buffer, since the endpoint caps every response at five hundred rows."
    )
    steps: list[Step] = []
    first_id = rng.randint(10_000, 90_000)
    for page in range(1, pages + 1):
        rows = 500 if page < pages else rng.randint(40, 480)
        cursor = f"c{rng.randint(100000, 999999)}" if page < pages else None
        steps.append(llm(sentence))
        steps.append(
            tool(
                "fetch_rows",
                {"report": report, "page": page, "page_size": 500},
                {"rows": rows, "first_id": first_id, "next_cursor": cursor},
            )
        )
        first_id += rows
    total = 500 * (pages - 1) + rows
    steps.append(llm(f"All {total} rows are in. Writing them to {report}.csv for the review."))
    steps.append(tool("write_csv", {"path": f"exports/{report}.csv"}, f"wrote {total} rows"))
    return goal, steps


def batch_template(rng: random.Random) -> tuple[str, list[Step]]:
    fleet = rng.choice(["web", "api", "worker", "cache"])
    hosts = [f"{fleet}-{n:02d}.eu-west" for n in rng.sample(range(1, 40), 5)]
    goal = f"Roll the kernel security patch across the {fleet} fleet without downtime"
    steps: list[Step] = []
    for host in hosts:
        steps.append(
            llm(
                f"Draining {host} from the load balancer, applying the kernel patch and putting "
                "it back into rotation once its health checks pass, then moving on to the "
                "next machine in the maintenance list."
            )
        )
        steps.append(
            tool("patch_host", {"host": host, "reboot": True}, "ok: patched, health green")
        )
    steps.append(llm(f"All five {fleet} hosts are patched and serving; closing the change ticket."))
    return goal, steps


def polling_changes(rng: random.Random) -> tuple[str, list[Step]]:
    job = f"exp-{rng.randint(1000, 9999)}"
    goal = "Get yesterday's events extract into the data lake before the 9am dashboards refresh"
    waits = [
        "The extract is still running, so I will check on the job again.",
        "Still in progress; checking the job status once more.",
        "Not finished yet. Polling the job again shortly.",
        "The job has not completed; looking at its status again.",
    ]
    rng.shuffle(waits)
    marks = sorted(rng.sample(range(10, 95), 3))
    steps: list[Step] = [
        llm(f"Started the extract as job {job}; now I wait for it to finish."),
        tool("start_extract", {"table": "events", "day": "yesterday"}, {"job_id": job}),
    ]
    for k, pct in enumerate(marks):
        steps.append(llm(waits[k]))
        steps.append(tool("get_job", {"job_id": job}, {"state": "running", "progress": pct}))
    rows = rng.randint(100_000, 900_000)
    steps.append(llm(waits[3]))
    steps.append(tool("get_job", {"job_id": job}, {"state": "succeeded", "rows": rows}))
    steps.append(
        llm(f"Done: {rows} rows landed. Registering the partition so the dashboards see it.")
    )
    steps.append(tool("register_partition", {"table": "events", "job_id": job}, "registered"))
    return goal, steps


def transient_retry(rng: random.Random) -> tuple[str, list[Step]]:
    origin, dest = rng.sample(["LIS", "BER", "MAD", "CPH", "DUB", "VIE", "WAW"], 2)
    date = f"2027-0{rng.randint(1, 9)}-{rng.randint(10, 28)}"
    flight = f"{rng.choice(['TP', 'LH', 'IB', 'SK', 'EI'])}{rng.randint(100, 1999)}"
    goal = f"Book the cheapest morning flight from {origin} to {dest} on {date}"
    search = {"origin": origin, "destination": dest, "date": date}
    steps = [
        llm(f"Searching flights {origin} to {dest} for {date}, then I'll filter to mornings."),
        tool("search_flights", search, "error: upstream fare service timeout (503)"),
        llm(
            "The fare service timed out, which is usually transient; trying the same search again."
        ),
        tool(
            "search_flights",
            search,
            {"flights": [{"code": flight, "departs": "07:40", "eur": rng.randint(60, 190)}]},
        ),
        llm(f"{flight} at 07:40 is the cheapest morning option. Booking it for the traveller."),
        tool(
            "book_flight",
            {"flight": flight, "date": date},
            {"pnr": f"Q{rng.randint(10000, 99999)}"},
        ),
        llm("Booked. Sending the itinerary and the booking reference to the traveller."),
        tool("send_email", {"template": "itinerary"}, "queued"),
    ]
    return goal, steps


def support_resolution(rng: random.Random) -> tuple[str, list[Step]]:
    name = rng.choice(["Ana Souza", "Jonas Berg", "Priya Nair", "Tom Okafor", "Lena Vogel"])
    email = name.lower().replace(" ", ".") + "@example.org"
    cust = f"C-{rng.randint(10000, 99999)}"
    order = f"SO-{rng.randint(100000, 999999)}"
    amount = rng.randint(19, 240)
    goal = f"Resolve ticket from {name}: charged twice for one order"
    steps = [
        llm(f"First I need the customer record for {email}.", prompt="ticket #" + cust[2:]),
        tool("lookup_customer", {"email": email}, {"customer_id": cust, "plan": "plus"}),
        llm(f"Customer is {cust}. Listing their recent orders to find the double charge."),
        tool("list_orders", {"customer_id": cust, "days": 30}, [{"order": order, "charges": 2}]),
        llm(f"Order {order} has two captures of {amount} EUR. Refunding the duplicate one."),
        tool("issue_refund", {"order": order, "amount_eur": amount}, {"refund": "R-" + order[3:]}),
        llm("Refund created. Replying to the customer with the reference and the timeline."),
        tool("reply_ticket", {"customer_id": cust, "macro": "refund_issued"}, "sent"),
    ]
    return goal, steps


def planning_text_only(rng: random.Random) -> tuple[str, list[Step]]:
    cities = rng.sample(["Porto", "Lyon", "Bologna", "Ghent", "Kraków", "Ljubljana", "Seville"], 4)
    budget = rng.choice([1400, 1800, 2200])
    goal = f"Plan a four-stop rail trip with a budget of {budget} euros"
    pre = (
        f"Keeping the {budget} euro budget and the traveller's dislike of early departures in "
        "mind, and sticking to trains only, "
    )
    steps = [
        llm(pre + f"the trip should open in {cities[0]}, which has cheap rooms midweek."),
        llm(pre + f"from {cities[0]} the best onward leg is an afternoon train to {cities[1]}."),
        llm(
            pre + f"{cities[2]} fits as the third stop because the connection is under four hours."
        ),
        llm(
            pre + f"ending in {cities[3]} leaves a direct night train home, so I'll book that last."
        ),
        llm(
            f"Summary: {' → '.join(cities)}, about {budget - rng.randint(80, 300)} euros in total."
        ),
    ]
    return goal, steps


def analysis_text_only(rng: random.Random) -> tuple[str, list[Step]]:
    week = rng.randint(30, 50)
    region = rng.choice(["DACH", "Nordics", "Iberia", "Benelux"])
    drop = rng.randint(3, 9)
    goal = f"Explain the revenue drop in week {week} for the {region} region"
    steps = [
        llm(
            f"Revenue in {region} fell {drop}% in week {week}; first I want to know whether "
            "traffic or conversion moved, because they point to very different causes."
        ),
        llm(
            "Traffic was flat week over week, so the drop sits in conversion rather than in "
            "acquisition; the checkout funnel is where to look next."
        ),
        llm(
            "Within the funnel, payment-page abandonment rose sharply while cart additions held, "
            "which suggests a problem at the payment step itself."
        ),
        llm(
            "The abandonment spike lines up with the day a new card-verification step went live, "
            "so that release is the most likely cause of the lost orders."
        ),
        llm(
            f"Recommendation: roll back the verification change for {region} and re-measure "
            "conversion over the following week before deciding on a permanent fix."
        ),
    ]
    return goal, steps


# ----------------------------------------------------------------------------- loops


def reworded_empty_search(rng: random.Random) -> tuple[str, list[Step]]:
    topic = rng.choice(
        [
            (
                "a refund for a parcel that arrived damaged",
                [
                    "refund damaged parcel",
                    "damaged package refund policy",
                    "how to get money back for a broken delivery",
                    "parcel arrived broken refund",
                    "compensation for items damaged in shipping",
                    "refund rules for damaged deliveries",
                ],
            ),
            (
                "changing the billing address on an annual plan",
                [
                    "change billing address annual plan",
                    "update invoice address yearly subscription",
                    "how do I edit the billing address",
                    "billing address change for annual subscription",
                    "modify address on invoices",
                    "update the address used for billing",
                ],
            ),
            (
                "cancelling a subscription during the trial",
                [
                    "cancel subscription during trial",
                    "how to cancel in the trial period",
                    "trial cancellation steps",
                    "end my free trial early",
                    "stop subscription before trial ends",
                    "cancel plan while still on trial",
                ],
            ),
        ]
    )
    subject, queries = topic
    goal = f"Answer a customer who asks about {subject}"
    thoughts = [
        f"I'll look in the help center for an article about {subject}.",
        "Let me try the knowledge base again with different keywords.",
        "Maybe the article uses other terms; searching once more.",
        "Rephrasing the search to catch articles worded differently.",
        "One more search of the help center with another phrasing.",
        "Trying yet another wording in the knowledge base search.",
    ]
    rng.shuffle(queries)
    steps: list[Step] = []
    for k in range(6):
        steps.append(llm(thoughts[k]))
        steps.append(tool("search_kb", {"query": queries[k]}, {"articles": [], "total": 0}))
    return goal, steps


def abc_cycle(rng: random.Random) -> tuple[str, list[Step]]:
    svc = rng.choice(["checkout-api", "ledger-sync", "search-indexer", "notifier"])
    goal = f"Bring {svc} back to healthy after the 02:00 alert"
    look = [
        f"Checking the recent log lines of {svc} to see why it is unhealthy.",
        f"Reading {svc}'s latest logs again for the cause.",
        f"Looking at what {svc} logged most recently.",
    ]
    fix = [
        f"Restarting {svc} should clear whatever state it is stuck in.",
        f"A restart of {svc} ought to reset it.",
        f"Bouncing {svc} to get it out of the bad state.",
    ]
    verify = [
        f"Now verifying whether {svc} reports healthy.",
        f"Checking {svc}'s health endpoint after the restart.",
        f"Confirming the health status of {svc}.",
    ]
    steps: list[Step] = []
    for r in range(3):
        steps.append(llm(look[r]))
        steps.append(
            tool("tail_logs", {"service": svc, "lines": 200}, "OOMKilled: memory limit 512Mi")
        )
        steps.append(llm(fix[r]))
        steps.append(tool("restart_service", {"service": svc}, "restarted"))
        steps.append(llm(verify[r]))
        steps.append(tool("health_check", {"service": svc}, {"status": "degraded", "ready": False}))
    return goal, steps


def cosmetic_hotel_search(rng: random.Random) -> tuple[str, list[Step]]:
    city = rng.choice(["Lisbon", "Vienna", "Copenhagen", "Edinburgh", "Valencia"])
    day = rng.randint(3, 24)
    base = {"city": city, "checkin": f"2027-05-{day:02d}", "checkout": f"2027-05-{day + 3:02d}"}
    variants = [
        {},
        {"currency": "EUR"},
        {"sort": "price"},
        {"sort": "price", "page_size": 20},
        {"sort": "price", "page_size": 25},
        {"include_sold_out": False},
    ]
    thoughts = [
        f"Finding a hotel in {city} for the conference nights.",
        f"Searching {city} hotels for those dates again, this time in euros.",
        "Sorting by price might surface something the first search missed.",
        "Asking for more results per page in case availability is buried.",
        "Widening the page size a little and retrying the hotel search.",
        "Excluding sold-out properties explicitly and searching again.",
    ]
    steps: list[Step] = []
    for k in range(6):
        steps.append(llm(thoughts[k]))
        steps.append(
            tool(
                "search_hotels", {**base, **variants[k]}, {"results": [], "note": "no availability"}
            )
        )
    return f"Find a hotel in {city} for three conference nights in May", steps


def near_duplicate_status(rng: random.Random) -> tuple[str, list[Step]]:
    svc = rng.choice(["payments-gateway", "profile-service", "pricing-engine", "fraud-scorer"])
    ns = rng.choice(["prod", "prod-eu", "live"])
    ready, want = 2, 3
    reports = [
        (
            f"Status update on the {svc} rollout: {ready} of {want} pods are ready and the readiness "
            "probe on the remaining pod keeps failing, so I will keep watching the rollout for now "
            "before taking any action that could disrupt traffic."
        ),
        (
            f"The {svc} deployment is still at {ready}/{want} ready replicas. One pod continues to "
            "fail its readiness check; I'm going to keep monitoring rather than intervene while the "
            "rest of the fleet serves requests."
        ),
        (
            f"Rollout of {svc} unchanged: {ready} ready out of {want}, with the last pod failing "
            "readiness. Continuing to observe the deployment before doing anything that might "
            "affect live traffic."
        ),
        (
            f"Checked {svc} again. Readiness is still failing on one pod and only {ready} of the "
            f"{want} replicas are up. I'll continue to watch the rollout and hold off on any change "
            "for the moment."
        ),
        (
            f"Still waiting on the {svc} rollout; {ready} pods ready of {want}, one failing its "
            "readiness probe. Monitoring continues, no action taken yet so as not to disturb "
            "production traffic."
        ),
        (
            f"No change for {svc}: {ready}/{want} replicas ready and one pod stuck failing "
            "readiness. Keeping an eye on the rollout and deferring any intervention."
        ),
    ]
    rng.shuffle(reports)
    goal = f"Ship {svc} v2.{rng.randint(10, 40)} to {ns} safely"
    steps: list[Step] = []
    for k in range(6):
        steps.append(llm(reports[k], name="report"))
        steps.append(
            tool(
                "rollout_status",
                {"deployment": svc, "namespace": ns},
                f"{ready}/{want} ready; 1 pod CrashLoopBackOff",
            )
        )
    return goal, steps


def query_retry_tools_only(rng: random.Random) -> tuple[str, list[Step]]:
    day = f"2026-11-{rng.randint(10, 28)}"
    table = rng.choice(["events_daily", "sessions_rollup", "orders_fact"])
    goal = f"Count yesterday's rows in {table} for the data quality report"
    sqls = [
        f"SELECT count(*) FROM {table} WHERE day = '{day}'",
        f"select count(*) from {table} where day = '{day}'",
        f"SELECT COUNT(*) FROM {table} WHERE day='{day}'",
        f"SELECT count(*) AS n FROM {table} WHERE day = '{day}'",
        f"SELECT count(1) FROM {table} WHERE day = '{day}'",
        f"  SELECT count(*)\n  FROM {table}\n  WHERE day = '{day}'",
    ]
    rng.shuffle(sqls)
    error = f'error: relation "{table}" does not exist'
    steps = [tool("run_query", {"sql": sql, "warehouse": "analytics"}, error) for sql in sqls]
    return goal, steps


def alternating_clarify(rng: random.Random) -> tuple[str, list[Step]]:
    email = rng.choice(["mia.k@example.com", "d.osei@example.net", "r.haas@example.org"])
    goal = "Find the order a customer says never arrived"
    ask = [
        "I need the order number to look this up, so I'll ask the customer for it.",
        "Asking the customer once more to share their order number.",
        "Requesting the order number from the customer again.",
    ]
    search = [
        f"While I wait, searching orders by the customer's email {email}.",
        f"Looking the orders up by {email} in the meantime.",
        f"Trying the order search with {email} again.",
    ]
    steps: list[Step] = []
    for r in range(3):
        steps.append(llm(ask[r]))
        steps.append(
            tool(
                "send_message",
                {"to": email, "template": "ask_order_number"},
                "customer replied: I already gave you everything you need",
            )
        )
        steps.append(llm(search[r]))
        steps.append(tool("find_orders", {"email": email}, []))
    return goal, steps


def empty_with_request_id(rng: random.Random) -> tuple[str, list[Step]]:
    carrier = rng.choice(["DHL", "PostNL", "GLS", "Bring"])
    tracking = f"{rng.randint(10**9, 10**10 - 1)}"
    goal = f"Tell the customer where their {carrier} parcel {tracking} is"
    thoughts = [
        f"Looking up the tracking events for {carrier} parcel {tracking}.",
        "No events yet; checking the tracking feed again.",
        "Querying the carrier tracking once more in case events arrived.",
        "Checking the parcel's tracking history another time.",
        "Trying the tracking lookup again.",
        "Another look at the tracking events for the parcel.",
    ]
    steps: list[Step] = []
    for k in range(6):
        request_id = "".join(rng.choice("0123456789abcdef") for _ in range(16))
        steps.append(llm(thoughts[k]))
        steps.append(
            tool(
                "track_parcel",
                {"carrier": carrier, "tracking_number": tracking},
                {"events": [], "request_id": request_id},
            )
        )
    return goal, steps


FAMILIES: list[tuple[str, str, bool, Callable[[random.Random], tuple[str, list[Step]]]]] = [
    (
        "paginated_export",
        "pages of one report under one sentence: outputs move on",
        False,
        paginated_export,
    ),
    (
        "batch_template",
        "one sentence template over a batch of hosts, same ok result",
        False,
        batch_template,
    ),
    (
        "polling_changes",
        "status polling in near-identical words whose answer changes",
        False,
        polling_changes,
    ),
    (
        "transient_retry",
        "a transient error retried once with the same call, then progress",
        False,
        transient_retry,
    ),
    ("support_resolution", "an ordinary multi-tool support resolution", False, support_resolution),
    (
        "planning_text_only",
        "reasoning only, a shared preamble over different decisions",
        False,
        planning_text_only,
    ),
    (
        "analysis_text_only",
        "reasoning only, each step builds on the last in similar analytic prose",
        False,
        analysis_text_only,
    ),
    (
        "reworded_empty_search",
        "reworded queries to one tool, the same empty result each time",
        True,
        reworded_empty_search,
    ),
    (
        "abc_cycle",
        "a three-step cycle (logs, restart, health) repeated three times",
        True,
        abc_cycle,
    ),
    (
        "cosmetic_hotel_search",
        "option tweaks on the same search, the same empty result",
        True,
        cosmetic_hotel_search,
    ),
    (
        "near_duplicate_status",
        "long reworded status reports over an unchanged status",
        True,
        near_duplicate_status,
    ),
    (
        "query_retry_tools_only",
        "tool spans only: one failing query reformatted six times",
        True,
        query_retry_tools_only,
    ),
    (
        "alternating_clarify",
        "asking for the same thing and searching the same way, in turn",
        True,
        alternating_clarify,
    ),
    (
        "empty_with_request_id",
        "the same empty lookup six times; only a request id in the output changes",
        True,
        empty_with_request_id,
    ),
]


def build(per: int, seed: int) -> list[Row]:
    rng = random.Random(seed)
    rows: list[Row] = []
    for family, isolates, is_loop, make in FAMILIES:
        for n in range(per):
            goal, steps = make(rng)
            rows.append(
                {
                    "trace_id": f"{family}-{n:02d}",
                    "family": family,
                    "isolates": isolates,
                    "loop": is_loop,
                    "stagnation": is_loop,
                    "goal": goal,
                    "root": {
                        "type": "agent",
                        "name": "assistant",
                        "input": goal,
                        "output": "",
                        "children": steps,
                    },
                }
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per", type=int, default=6, help="instances per family")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--out", default=str(Path(__file__).with_name("wild.jsonl")))
    args = parser.parse_args()
    rows = build(args.per, args.seed)
    with open(args.out, "w", encoding="utf-8", newline="\n") as fh:
        fh.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    print(f"wrote {len(rows)} traces across {len(FAMILIES)} families to {args.out}")


if __name__ == "__main__":
    main()
