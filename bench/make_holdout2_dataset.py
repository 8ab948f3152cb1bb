"""Write bench/holdout2.jsonl: a second blind held-out set for the loop judges.

96 traces, 12 families x 8, one trace per family in each of eight domains none of which the
first held-out set used. Six families are healthy runs that look like loops on the surface
(pagination, a batch under one sentence template, a job whose progress moves, one transient
failure retried once, a search refined to a hit, a write read back); six are loops that look
like work (a reworded search that keeps finding nothing, an A-B-C tool cycle, a status that
never moves, a permanent error retried with cosmetic changes, a reasoning-only stall, status
reports whose substance never changes). Written without reading the judges or the first
held-out set; see docs/holdout2.md.

Standard library only. One ``random.Random(seed)`` is consumed family by family, domain by
domain, so the same ``--seed`` and ``--per`` rewrite the same bytes::

    python bench/make_holdout2_dataset.py            # --seed 20261201 --per 8 --out bench/holdout2.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

DEFAULT_SEED = 20261201
DEFAULT_PER = 8
DEFAULT_OUT = Path(__file__).resolve().parent / "holdout2.jsonl"

Step = dict[str, Any]
Spec = dict[str, Any]

DOMAINS = (
    "literature", "devops", "procurement", "realestate",
    "tax", "tutoring", "travel", "marketing",
)
AGENTS = {
    "literature": ("lit_review_agent", "think"),
    "devops": ("incident_responder", "reason"),
    "procurement": ("procurement_agent", "plan"),
    "realestate": ("listing_assistant", "reason"),
    "tax": ("tax_prep_agent", "think"),
    "tutoring": ("tutor_agent", "reflect"),
    "travel": ("rebooking_agent", "reason"),
    "marketing": ("marketing_analyst", "think"),
}
STYLES = ("terse", "prose", "react")


# --- span helpers ---------------------------------------------------------------------------


def _llm(domain: str, text: str) -> Step:
    return {"type": "llm", "name": AGENTS[domain][1], "output": text, "children": []}


def _tool(name: str, args: dict[str, Any], output: Any) -> Step:
    text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
    return {"type": "tool", "name": name, "input": args, "output": text, "children": []}


def _say(style: str, short: str, long: str, tool: str | None = None,
         args: dict[str, Any] | None = None) -> str:
    """One reasoning step in the trace's style: a terse note, plain prose, or a ReAct frame."""
    if style == "terse":
        return short
    if style == "react" and tool is not None:
        return f"Thought: {long}\nAction: {tool}\nAction Input: {json.dumps(args or {}, ensure_ascii=False)}"
    if style == "react":
        return f"Thought: {long}"
    return long


def _token(rng: random.Random, n: int = 10) -> str:
    return "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789") for _ in range(n))


def _clock(rng: random.Random) -> tuple[int, int]:
    return rng.randint(7, 15), rng.choice((0, 5, 10, 15, 20, 30, 40, 45))


def _hhmm(start: tuple[int, int], plus_minutes: int) -> str:
    total = start[0] * 60 + start[1] + plus_minutes
    return f"{total // 60 % 24:02d}:{total % 60:02d}"


# --- 1. cursor / offset pagination (healthy) ------------------------------------------------

PAGINATION: dict[str, Spec] = {
    "literature": {
        "goal": "List every 2023-2025 paper that cites the 'Attention Is All You Need' paper and reports results on low-resource machine translation",
        "tool": "scholar.citations", "args": {"paper_id": "arXiv:1706.03762", "year_from": 2023, "topic": "low-resource MT"},
        "cursor": "cursor", "noun": "papers",
        "a": ["Adapter", "Pivot-based", "Byte-level", "Curriculum", "Back-translated", "Multilingual", "Sparse", "Distilled"],
        "b": ["Transformers for Quechua", "decoding for Amharic-English", "NMT for Yoruba", "attention for Khmer", "pretraining for Tigrinya", "fine-tuning for Lao", "models for Guarani"],
        "item": lambda a, b, rng: {"title": f"{a} {b}", "year": rng.choice((2023, 2024, 2025)), "venue": rng.choice(("ACL", "EMNLP", "WMT", "LoResMT", "TACL"))},
        "finish": "the table is ready for the screening step; WMT and LoResMT account for most of them"},
    "devops": {
        "goal": "Pull every 5xx log line from checkout-api between 02:10 and 02:40 UTC so the incident timeline is complete",
        "tool": "logs.search", "args": {"service": "checkout-api", "query": "status>=500", "from": "02:10Z", "to": "02:40Z"},
        "cursor": "page_token", "noun": "log lines",
        "a": ["502 upstream connect error", "503 no healthy upstream", "504 gateway timeout", "500 db pool exhausted", "502 reset before headers"],
        "b": ["pod checkout-api-7d9f-4kq", "pod checkout-api-7d9f-x2m", "pod checkout-api-7d9f-p8z", "pod checkout-api-7d9f-c1w"],
        "item": lambda a, b, rng: {"ts": f"02:{rng.randint(10, 39):02d}:{rng.randint(0, 59):02d}Z", "msg": a, "source": b},
        "finish": "the first 500 db pool exhausted line precedes the 502s by about four minutes, which goes on the timeline as the trigger"},
    "procurement": {
        "goal": "Export all open purchase orders over EUR 10,000 for the Q3 spend review",
        "tool": "erp.purchase_orders.list", "args": {"status": "open", "min_amount_eur": 10000, "limit": 4},
        "cursor": "offset", "noun": "purchase orders",
        "a": ["Nordlicht Metals", "Kestrel Packaging", "Bayside Fasteners", "Ostara Chemicals", "Vireo Logistics", "Halden Electronics"],
        "b": ["steel coil", "corrugated cartons", "M8 bolts", "solvent drums", "freight contract", "PCB assemblies"],
        "item": lambda a, b, rng: {"po": f"PO-{rng.randint(40000, 49999)}", "supplier": a, "line": b, "amount_eur": rng.randint(10, 95) * 1000 + rng.randint(0, 999)},
        "finish": "the CSV is attached to the spend review ticket, sorted by amount"},
    "realestate": {
        "goal": "Gather all active 3-bedroom listings under $650k in the 78704 and 78745 zip codes for the buyer's shortlist",
        "tool": "mls.listings.search", "args": {"zips": ["78704", "78745"], "beds_min": 3, "price_max": 650000, "status": "active"},
        "cursor": "offset", "noun": "listings",
        "a": ["1204 Oltorf", "3307 Manchaca", "811 Fairlawn", "4520 Westgate", "2110 Bluebonnet", "609 Cumberland", "1802 Ben White"],
        "b": ["St", "Rd", "Ln", "Blvd", "Dr"],
        "item": lambda a, b, rng: {"address": f"{a} {b}", "price": rng.randint(480, 649) * 1000, "beds": 3, "dom": rng.randint(1, 60)},
        "finish": "I will sort them by days on market and send the top ten to the buyer"},
    "tax": {
        "goal": "Collect all 2025 business-card transactions tagged as possible home-office expenses for Schedule C",
        "tool": "ledger.transactions", "args": {"account": "amex-biz-1007", "year": 2025, "tag": "home_office?"},
        "cursor": "cursor", "noun": "transactions",
        "a": ["IKEA", "Staples", "Comcast Business", "Best Buy", "Home Depot", "Dell"],
        "b": ["desk", "printer toner", "internet service", "monitor", "shelving", "office chair", "router"],
        "item": lambda a, b, rng: {"date": f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}", "merchant": a, "memo": b, "amount": round(rng.uniform(18, 640), 2)},
        "finish": "these go to the client with a question on business-use percentage for the internet service"},
    "tutoring": {
        "goal": "Gather every late submission for the Algebra II unit 4 problem set so the tutor can send reminders",
        "tool": "lms.submissions.list", "args": {"course": "ALG2-P3", "assignment": "unit4-ps", "filter": "late"},
        "cursor": "page", "noun": "submissions",
        "a": ["Maya", "Jonah", "Priya", "Leo", "Amara", "Theo", "Sofia", "Ezra"],
        "b": ["R.", "K.", "M.", "T.", "S.", "L."],
        "item": lambda a, b, rng: {"student": f"{a} {b}", "hours_late": rng.randint(2, 70), "score": rng.choice((None, 62, 71, 80, 88))},
        "finish": "reminders are drafted, with the three over 48 hours flagged for a parent note"},
    "travel": {
        "goal": "List every passenger booked on the cancelled UA 1482 DEN-SFO so each can be offered a new itinerary",
        "tool": "pnr.affected_passengers", "args": {"flight": "UA1482", "date": "2026-12-03", "reason": "cancelled"},
        "cursor": "cursor", "noun": "passengers",
        "a": ["Okafor", "Lindqvist", "Tanaka", "Ramirez", "Dubois", "Novak", "Haddad", "Walsh"],
        "b": ["1 pax", "2 pax", "3 pax", "1 pax + infant"],
        "item": lambda a, b, rng: {"pnr": _token(rng, 6).upper(), "name": a, "party": b, "tier": rng.choice(("none", "silver", "gold", "1K"))},
        "finish": "1K and gold PNRs go to the front of the rebooking queue"},
    "marketing": {
        "goal": "Export campaign-level spend and conversions for all November paid-social campaigns",
        "tool": "ads.report.run", "args": {"platform": "meta", "date_range": "2026-11-01..2026-11-30", "level": "campaign"},
        "cursor": "offset", "noun": "campaign rows",
        "a": ["BF-Prospecting", "BF-Retarget", "Holiday-UGC", "Gift-Guide", "Lookalike-2pct", "CyberMon"],
        "b": ["US", "CA", "UK", "DE", "AU"],
        "item": lambda a, b, rng: {"campaign": f"{a}-{b}", "spend": rng.randint(400, 9000), "conversions": rng.randint(3, 240)},
        "finish": "the sheet is in the November folder; Retarget has the best cost per conversion in every region"},
}


def _pagination(rng: random.Random, domain: str, spec: Spec, style: str) -> list[Step]:
    pool = [(a, b) for a in spec["a"] for b in spec["b"]]
    rng.shuffle(pool)
    pages = rng.randint(3, 6)
    per_page = rng.randint(2, 4)
    steps: list[Step] = []
    cursor: Any = None
    total = 0
    for page in range(pages):
        args = dict(spec["args"])
        if "limit" in args:
            args["limit"] = per_page
        if cursor is not None:
            args[spec["cursor"]] = cursor
        if page == 0:
            short = f"Fetch first page of {spec['noun']}."
            long = f"I'll start at the first page of {spec['tool']} and keep following the {spec['cursor']} until it runs out."
        else:
            short = f"Next page, {spec['cursor']}={cursor}."
            long = f"Page {page} gave {per_page} more {spec['noun']}; requesting the next page with {spec['cursor']}={cursor}."
        steps.append(_llm(domain, _say(style, short, long, spec["tool"], args)))
        items = [spec["item"](a, b, rng) for a, b in pool[page * per_page:(page + 1) * per_page]]
        last = page == pages - 1
        if spec["cursor"] == "offset":
            cursor = None if last else (page + 1) * per_page
        elif spec["cursor"] == "page":
            cursor = None if last else page + 2
        else:
            cursor = None if last else _token(rng, 12)
        total += len(items)
        steps.append(_tool(spec["tool"], args, {"results": items, f"next_{spec['cursor']}": cursor}))
    steps.append(_llm(domain, _say(
        style, f"Done: {total} {spec['noun']} over {pages} pages.",
        f"No next {spec['cursor']} on page {pages}, so that is all of them: {total} {spec['noun']} across {pages} pages. {spec['finish'][0].upper()}{spec['finish'][1:]}.")))
    return steps


# --- 2. one tool over a batch, one sentence template (healthy) -----------------------------

BATCH: dict[str, Spec] = {
    "literature": {
        "goal": "Check the 12 shortlisted papers for retractions or expressions of concern before the review goes out",
        "tool": "crossref.works.get", "key": "doi", "template": "Checking {item} for retraction notices.",
        "items": ["10.1038/s41586-023-06291-2", "10.1126/science.adg7879", "10.1016/j.cell.2023.01.024", "10.1145/3580305.3599256", "10.18653/v1/2023.acl-long.91", "10.1093/nar/gkad347", "10.1371/journal.pone.0287331", "10.48550/arXiv.2305.10601", "10.1109/TPAMI.2023.3282631"],
        "out": ["{item}: published, no updates, 41 citations", "{item}: correction issued 2024-03 (figure 2 axis label), not retracted", "{item}: RETRACTED 2025-01-14, reason: data fabrication", "{item}: expression of concern 2024-11, under investigation", "{item}: published, no updates, 7 citations"]},
    "devops": {
        "goal": "Confirm every service touched by last night's config push has finished rolling out",
        "tool": "k8s.rollout_status", "key": "deployment", "template": "Checking rollout status of {item}.",
        "items": ["payments-api", "cart-svc", "search-indexer", "auth-gateway", "notif-worker", "pricing-svc", "inventory-sync"],
        "out": ["{item}: 6/6 replicas updated and available", "{item}: 3/4 updated, 1 pod CrashLoopBackOff (exit 137)", "{item}: rollout complete, revision 58", "{item}: paused at 50% by canary analysis", "{item}: 2/2 available, image tag cfg-2026-11-29"]},
    "procurement": {
        "goal": "Get current quotes for the nine SKUs on requisition REQ-2291 from our preferred supplier",
        "tool": "supplier.quote", "key": "sku", "template": "Requesting a quote for {item}.",
        "items": ["HX-4410 hydraulic fitting", "CB-220 cable tray", "GS-18 safety gloves", "VB-90 ball valve", "PT-3 pressure transmitter", "FL-6 flange gasket", "MB-12 mounting bracket", "RL-40 relay module", "SN-7 sensor housing"],
        "out": ["{item}: EUR 14.20/unit, lead time 5 days", "{item}: EUR 212.00/unit, lead time 3 weeks", "{item}: out of stock, next batch 2027-01-08", "{item}: EUR 3.05/unit, MOQ 500", "{item}: EUR 88.40/unit, lead time 9 days"]},
    "realestate": {
        "goal": "Get automated valuations for the eight comparable sales before pricing 2214 Juniper Ave",
        "tool": "avm.estimate", "key": "address", "template": "Running a valuation on {item}.",
        "items": ["2201 Juniper Ave", "2230 Juniper Ave", "118 Larch St", "140 Larch St", "2019 Cedar Ct", "77 Alder Way", "2302 Juniper Ave", "95 Alder Way"],
        "out": ["{item}: $612,000 (confidence high, sold 2026-08 for $605,000)", "{item}: $575,500 (confidence medium, 1 fewer bath)", "{item}: $698,000 (confidence high, renovated kitchen)", "{item}: $540,000 (confidence low, sparse data)", "{item}: $633,250 (confidence high, corner lot)"]},
    "tax": {
        "goal": "TIN-match every contractor who will receive a 1099-NEC this year",
        "tool": "irs.tin_match", "key": "payee", "template": "Running TIN match for {item}.",
        "items": ["Brightline Design LLC", "R. Castillo", "Summit Bookkeeping", "J. Mwangi", "Parallax Media Inc", "T. Oyelaran", "Greenway Landscaping"],
        "out": ["{item}: code 0, TIN and name match", "{item}: code 3, TIN not issued", "{item}: code 0, match", "{item}: code 2, TIN and name do not match IRS records", "{item}: code 0, match (EIN)"]},
    "tutoring": {
        "goal": "Score the seven persuasive essays from Thursday's writing group against the rubric",
        "tool": "rubric.score", "key": "essay_id", "template": "Scoring {item} against the persuasive-writing rubric.",
        "items": ["essay-amara", "essay-ben", "essay-chloe", "essay-dev", "essay-elif", "essay-farid", "essay-gia"],
        "out": ["{item}: 14/20; thesis clear, counterargument missing", "{item}: 17/20; strong evidence, weak conclusion", "{item}: 9/20; no thesis statement, off-prompt in paragraph 3", "{item}: 19/20; exemplary", "{item}: 12/20; evidence is anecdotal only"]},
    "travel": {
        "goal": "Requote the fares for the six travellers in the Lisbon offsite group after the date change",
        "tool": "fare.requote", "key": "traveller", "template": "Requoting the new fare for {item}.",
        "items": ["A. Brandt (LHR-LIS)", "C. Yilmaz (FRA-LIS)", "D. Osei (AMS-LIS)", "M. Rossi (MXP-LIS)", "S. Park (CDG-LIS)", "L. Moreau (BRU-LIS)"],
        "out": ["{item}: +EUR 42 fare difference, same cabin", "{item}: no change, fare class still available", "{item}: +EUR 188, original fare class sold out", "{item}: -EUR 15 credit", "{item}: +EUR 67, change fee waived"]},
    "marketing": {
        "goal": "Pull last week's CTR and spend for each of the eight search campaigns for the Monday report",
        "tool": "ads.campaign_metrics", "key": "campaign", "template": "Getting last week's metrics for {item}.",
        "items": ["brand-exact", "brand-broad", "competitor-terms", "generic-crm", "generic-helpdesk", "retarget-search", "dsa-catalog", "pmax-main"],
        "out": ["{item}: CTR 8.9%, spend $1,240, 61 conversions", "{item}: CTR 2.1%, spend $3,905, 18 conversions", "{item}: CTR 0.7%, spend $2,210, 4 conversions", "{item}: CTR 4.4%, spend $880, 23 conversions", "{item}: CTR 3.2%, spend $5,115, 40 conversions"]},
}


def _batch(rng: random.Random, domain: str, spec: Spec, style: str) -> list[Step]:
    items = rng.sample(spec["items"], rng.randint(4, min(8, len(spec["items"]))))
    outs = list(spec["out"])
    steps: list[Step] = []
    results: list[str] = []
    for item in items:
        line = spec["template"].format(item=item)
        args = {spec["key"]: item}
        steps.append(_llm(domain, _say(style, line, line, spec["tool"], args)))
        out = rng.choice(outs).format(item=item)
        results.append(out)
        steps.append(_tool(spec["tool"], args, out))
    if style == "terse":
        summary = f"All {len(items)} done. " + " | ".join(results)
    else:
        summary = (f"That covers all {len(items)}. Summary:\n- " + "\n- ".join(results)
                   + "\nThe outliers above are what I will raise; everything else is fine as is.")
    steps.append(_llm(domain, summary))
    return steps


# --- 3. polling a long job whose progress moves (healthy) ----------------------------------

JOBS: dict[str, Spec] = {
    "literature": {
        "goal": "OCR and extract the methods sections of the 240 scanned conference PDFs, then count which report a baseline",
        "start": ("pdf.batch_ocr.start", {"collection": "icml-1998-2004-scans", "sections": ["methods"]}),
        "status": "pdf.batch_ocr.status", "result": "pdf.batch_ocr.results", "unit": "PDFs", "total": 240, "ab": ("with_baseline", "without_baseline", "split"),
        "use": "Of the extracted methods sections, {a} report a baseline and {b} do not; the no-baseline list goes into the appendix."},
    "devops": {
        "goal": "Build and deploy the hotfix for the checkout timeout to staging, then confirm the smoke tests",
        "start": ("ci.pipeline.trigger", {"repo": "shop/checkout", "ref": "hotfix/timeout-pool", "target": "staging"}),
        "status": "ci.pipeline.status", "result": "ci.pipeline.test_report", "unit": "jobs", "total": 18, "ab": ("passed", "skipped", "split"),
        "use": "Smoke tests: {a} passed, {b} skipped, 0 failed on staging. Posting in #inc-4471 that the hotfix is ready for prod approval."},
    "procurement": {
        "goal": "Send the packaging RFQ to the eleven approved vendors and compare the quotes once they are in",
        "start": ("rfq.broadcast", {"rfq": "RFQ-PKG-118", "vendors": "approved_packaging", "due": "2026-12-02T17:00Z"}),
        "status": "rfq.status", "result": "rfq.responses", "unit": "vendor responses", "total": 11, "ab": ("quoted", "declined", "split"),
        "use": "{a} vendors quoted, {b} declined. Kestrel is lowest at EUR 0.41/carton; recommending it to the category manager."},
    "realestate": {
        "goal": "Virtually stage the 14 listing photos for 4520 Westgate Blvd and attach them to the listing",
        "start": ("staging.render_job.create", {"listing": "MLS-9921340", "photos": 14, "style": "mid-century"}),
        "status": "staging.render_job.get", "result": "staging.render_job.download", "unit": "photos", "total": 14, "ab": ("rendered_ok", "needs_touch_up", "split"),
        "use": "{a} rendered photos attached to MLS-9921340; {b} flagged for manual touch-up (window glare)."},
    "tax": {
        "goal": "E-file the Henderson 2025 Form 1040 and record the IRS acknowledgement",
        "start": ("efile.submit", {"return_id": "HEND-2025-1040", "jurisdiction": "federal"}),
        "status": "efile.status", "result": "efile.acknowledgement", "unit": "validation checks", "total": 36, "ab": ("passed", "notes", "split"),
        "use": "Accepted. Submission ID recorded in the client file with {a} checks passed and {b} informational notes; refund ETA added to the client letter."},
    "tutoring": {
        "goal": "Auto-grade the 96 unit-5 quiz submissions and send each student their feedback",
        "start": ("quiz.autograde.start", {"quiz": "chem-u5-stoich", "submissions": "all"}),
        "status": "quiz.autograde.status", "result": "quiz.autograde.summary", "unit": "submissions", "total": 96, "ab": ("median_pct", "below_60", "pct_count"),
        "use": "Median score {a}%. {b} students below 60% get the stoichiometry review video with their feedback; feedback emails queued."},
    "travel": {
        "goal": "Rebook all 143 passengers from the cancelled LH 902 onto the next available flights",
        "start": ("reaccom.batch.start", {"flight": "LH902", "date": "2026-12-04", "policy": "same_day_first"}),
        "status": "reaccom.batch.status", "result": "reaccom.batch.results", "unit": "passengers", "total": 143, "ab": ("same_day", "next_day", "split"),
        "use": "{a} passengers rebooked same day, {b} need next-morning flights with hotel vouchers; vouchers issued and notifications sent."},
    "marketing": {
        "goal": "Run the multi-touch attribution query for Q4 and update the channel budget split",
        "start": ("warehouse.query.start", {"sql_ref": "attribution/q4_mta.sql", "dataset": "mkt_prod"}),
        "status": "warehouse.job.get", "result": "warehouse.results.fetch", "unit": "stages", "total": 9, "ab": ("paid_social_pct", "email_pct", "pct_pct"),
        "use": "Paid social drives {a}% of attributed revenue and email {b}%; shifting 10% of display budget to paid social in the December plan."},
}


def _job_poll(rng: random.Random, domain: str, spec: Spec, style: str) -> list[Step]:
    start_tool, start_args = spec["start"]
    job = f"job-{_token(rng, 8).lower()}"
    total = spec["total"]
    polls = rng.randint(3, 7)
    marks = sorted(rng.sample(range(1, total), min(polls - 1, total - 1)))
    steps = [
        _llm(domain, _say(style, "Start the job.", f"This runs asynchronously, so I'll kick it off with {start_tool} and then watch its progress.", start_tool, start_args)),
        _tool(start_tool, start_args, {"job_id": job, "state": "queued"}),
    ]
    t0 = _clock(rng)
    minute = 0
    done_list = marks + [total]
    for i, done in enumerate(done_list):
        minute += rng.randint(2, 6)
        state = "succeeded" if done == total else ("queued" if i == 0 and rng.random() < 0.3 else "running")
        if i == 0:
            short, long = "Check status.", f"Checking on {job}."
        else:
            prev = done_list[i - 1]
            short = f"{prev}/{total} last time; check again."
            long = f"Last check showed {prev} of {total} {spec['unit']} done, so it is moving. Checking {job} again."
        args = {"job_id": job}
        steps.append(_llm(domain, _say(style, short, long, spec["status"], args)))
        steps.append(_tool(spec["status"], args, {
            "job_id": job, "state": state, "completed": done, "total": total,
            "checked_at": f"2026-12-01T{_hhmm(t0, minute)}:00Z"}))
    key_a, key_b, kind = spec["ab"]
    if kind == "split":
        b = rng.randint(1, max(1, total // 4))
        a = total - b
    elif kind == "pct_count":
        a, b = rng.randint(58, 84), rng.randint(4, total // 5)
    else:
        a, b = rng.randint(22, 41), rng.randint(9, 20)
    steps.append(_llm(domain, _say(style, "Finished; fetch results.", f"{job} reports succeeded with {total}/{total}. Fetching the output.", spec["result"], {"job_id": job})))
    steps.append(_tool(spec["result"], {"job_id": job}, {"job_id": job, "state": "succeeded", key_a: a, key_b: b}))
    steps.append(_llm(domain, spec["use"].format(a=a, b=b)))
    return steps


# --- 4. one transient failure, retried once, then the work continues (healthy) -------------

TRANSIENT: dict[str, Spec] = {
    "literature": {
        "goal": "Build the citation graph for the 30 seed papers on sparse attention and find the most-cited bridge paper",
        "steps": [("semantic_scholar.batch", {"ids": "seed_set_sparse_attention", "fields": ["references", "citations"]}, "30 papers, 1,912 edges", "Fetch references and citations for the seed set."),
               ("graph.build", {"edges": "s2_batch_0", "directed": True}, "graph: 1,288 nodes, 1,912 edges", "Build the directed graph."),
               ("graph.betweenness", {"graph": "g1", "top": 5}, "top bridge: 'Longformer' (0.118), then 'BigBird' (0.094)", "Rank bridge papers by betweenness."),
               ("notes.append", {"doc": "review-outline", "section": "Bridges", "text": "Longformer and BigBird connect the two clusters"}, "appended", "Record it in the outline.")]},
    "devops": {
        "goal": "Find which deploy introduced the p99 latency jump on search-api and roll it back",
        "steps": [("metrics.query", {"expr": "histogram_quantile(0.99, search_api_latency)", "range": "6h"}, "p99 jumped from 180ms to 920ms at 03:12Z", "Find when p99 jumped."),
               ("deploys.list", {"service": "search-api", "since": "02:00Z"}, "03:09Z v2.41.0 (ranker cache change), 01:40Z v2.40.3", "See which deploy landed just before."),
               ("deploys.rollback", {"service": "search-api", "to": "v2.40.3"}, "rollback started, 6 pods cycling", "Roll back to v2.40.3."),
               ("metrics.query", {"expr": "histogram_quantile(0.99, search_api_latency)", "range": "15m"}, "p99 back to 175ms since 03:31Z", "Confirm latency recovered.")]},
    "procurement": {
        "goal": "Check the three-way match for invoice INV-88213 and release payment if it matches",
        "steps": [("ap.invoice.get", {"invoice": "INV-88213"}, "Vireo Logistics, EUR 18,430.00, PO-44120", "Load the invoice."),
               ("erp.po.get", {"po": "PO-44120"}, "PO-44120: EUR 18,430.00, 12 pallets", "Load the PO."),
               ("wms.receipts.get", {"po": "PO-44120"}, "GRN-5512: 12 pallets received 2026-11-27", "Load the goods receipt."),
               ("ap.payment.release", {"invoice": "INV-88213", "run": "2026-12-02"}, "scheduled in payment run 2026-12-02", "All three match; release it.")]},
    "realestate": {
        "goal": "Publish the new listing for 811 Fairlawn Ln with photos and syndicate it to the portals",
        "steps": [("listing.create", {"address": "811 Fairlawn Ln", "price": 599000, "beds": 3, "baths": 2}, "draft MLS-9930177 created", "Create the draft."),
               ("listing.photos.attach", {"listing": "MLS-9930177", "set": "fairlawn-final"}, "22 photos attached", "Attach the photo set."),
               ("listing.publish", {"listing": "MLS-9930177"}, "status active", "Publish it."),
               ("syndication.push", {"listing": "MLS-9930177", "portals": ["zillow", "realtor", "redfin"]}, "queued to 3 portals", "Push to the portals.")]},
    "tax": {
        "goal": "Import the client's brokerage 1099-B and reconcile the wash-sale adjustments",
        "steps": [("docs.fetch", {"client": "okafor-2025", "form": "1099-B"}, "1099-B from Fidelity, 46 lots", "Fetch the 1099-B."),
               ("tax.import_1099b", {"doc": "fid-1099b-2025", "client": "okafor-2025"}, "46 lots imported, 3 with wash-sale code W", "Import the lots."),
               ("tax.wash_sale.reconcile", {"client": "okafor-2025"}, "disallowed loss $1,284.50 matches broker", "Reconcile wash sales."),
               ("tax.form8949.generate", {"client": "okafor-2025"}, "Form 8949 part I and II generated", "Generate Form 8949.")]},
    "tutoring": {
        "goal": "Build next week's personalised practice set for Leo from his last three quiz results",
        "steps": [("lms.quiz_results", {"student": "leo-t", "last": 3}, "fractions 55%, ratios 80%, percents 62%", "Pull his last three quizzes."),
               ("skills.map", {"topics": ["fractions", "percents"]}, "fractions -> common denominators; percents -> percent of a number", "Map weak topics to skills."),
               ("practice.generate", {"skills": ["common denominators", "percent of a number"], "count": 12}, "12 items generated, set ps-leo-w49", "Generate the practice set."),
               ("lms.assign", {"student": "leo-t", "set": "ps-leo-w49", "due": "2026-12-08"}, "assigned", "Assign it.")]},
    "travel": {
        "goal": "Rebook Ms Haddad, whose CDG-BOS connection was missed, on the next flight with a seat and notify her",
        "steps": [("pnr.get", {"pnr": "Q7HX2M"}, "Haddad/Nour, missed AF334 CDG-BOS, gold", "Load the PNR."),
               ("availability.search", {"from": "CDG", "to": "BOS", "date": "2026-12-02"}, "DL405 14:25 (J1 Y4), AF338 17:10 (Y0)", "Find the next flight."),
               ("pnr.rebook", {"pnr": "Q7HX2M", "flight": "DL405", "cabin": "Y"}, "rebooked DL405 seat 22C, e-ticket reissued", "Rebook onto DL405."),
               ("notify.sms", {"pnr": "Q7HX2M", "template": "rebooked"}, "sent", "Tell her.")]},
    "marketing": {
        "goal": "Find why email signups dropped last week and report the cause",
        "steps": [("analytics.funnel", {"funnel": "newsletter_signup", "range": "last_14d"}, "form views flat, submit rate 4.1% -> 1.2% from Nov 24", "Look at the signup funnel."),
               ("cms.changes", {"page": "/newsletter", "since": "2026-11-20"}, "Nov 24: form moved below the fold, captcha added", "Check page changes around Nov 24."),
               ("analytics.segment", {"funnel": "newsletter_signup", "by": "device"}, "mobile submit rate 0.6%, desktop 3.9%", "Split by device."),
               ("report.post", {"channel": "#growth", "title": "Signup drop cause"}, "posted", "Post the finding.")]},
}

TRANSIENT_ERRORS = (
    "HTTP 503 Service Unavailable: upstream temporarily overloaded, retry after 2s",
    "HTTP 429 Too Many Requests: rate limit 100/min exceeded, Retry-After: 3",
    "error: request timed out after 30s (no response from upstream)",
    "HTTP 502 Bad Gateway: connection reset by peer",
)


def _transient(rng: random.Random, domain: str, spec: Spec, style: str) -> list[Step]:
    plan = list(spec["steps"])
    fail_at = rng.randrange(len(plan) - 1)
    error = rng.choice(TRANSIENT_ERRORS)
    steps: list[Step] = []
    for i, (tool, args, out, note) in enumerate(plan):
        steps.append(_llm(domain, _say(style, note, note, tool, args)))
        if i == fail_at:
            steps.append(_tool(tool, args, error))
            retry = ("Transient error; retry once." if style == "terse" else
                     f"That was a transient failure ({error.split(':')[0]}), not a problem with the request. Retrying the same call once.")
            steps.append(_llm(domain, _say(style, retry, retry, tool, args)))
        steps.append(_tool(tool, args, out))
    final = plan[-1][2]
    steps.append(_llm(domain, f"Done. Last step returned: {final}." if style == "terse" else
                      f"Everything went through after the single retry; the last step returned '{final}', which completes the task."))
    return steps


# --- 5. progressive query refinement that ends in a hit (healthy) --------------------------

REFINE: dict[str, Spec] = {
    "literature": {
        "goal": "Find the original paper that introduced the term 'grokking' in neural network training",
        "tool": "scholar.search",
        "queries": [({"q": "grokking"}, "2,140 results; top: 'Grokking the System Design Interview' (book), 'Grok 1.5' (model card)"),
                 ({"q": "grokking neural network generalization", "year_max": 2022}, "96 results; top hits are 2022 follow-ups citing 'Power et al.'"),
                 ({"q": "grokking generalization beyond overfitting small algorithmic datasets", "author": "Power"}, "1 result: Power, Burda, Edwards, Babuschkin, Misra (2022) 'Grokking: Generalization Beyond Overfitting on Small Algorithmic Datasets', arXiv:2201.02177")],
        "use": ("scholar.paper", {"id": "arXiv:2201.02177"}, "first posted 2022-01-06; ICLR 2021 MATH-AI workshop version"),
        "done": "The term comes from Power et al., first at the ICLR 2021 MATH-AI workshop, arXiv 2201.02177 in 2022."},
    "devops": {
        "goal": "Find the runbook for draining a Kafka broker before the maintenance window",
        "tool": "wiki.search",
        "queries": [({"q": "kafka"}, "312 pages"),
                 ({"q": "kafka broker maintenance", "space": "SRE"}, "14 pages; none titled as a runbook"),
                 ({"q": "drain partition leadership broker", "space": "SRE", "label": "runbook"}, "1 page: 'RB-112 Kafka broker drain and restart' (updated 2026-10-02)")],
        "use": ("wiki.page.get", {"id": "RB-112"}, "steps: 1) kafka-leader-election --preferred off broker 3 ... 6) verify URP=0"),
        "done": "RB-112 is the runbook; linking it in the maintenance ticket with the URP=0 check as the exit criterion."},
    "procurement": {
        "goal": "Find an alternative supplier for the discontinued VB-90 ball valve that is already on the approved vendor list",
        "tool": "catalog.search",
        "queries": [({"q": "ball valve"}, "1,904 items from 63 suppliers"),
                 ({"q": "ball valve DN25 stainless", "approved_only": True}, "0 items (DN25 is not a catalog attribute; sizes are in inches)"),
                 ({"q": "ball valve 1 inch 316 stainless PN40", "approved_only": True}, "2 items: Halden HV-125 (EUR 79.90, 6 days), Ostara BV-1S (EUR 91.00, 2 days)")],
        "use": ("catalog.item.spec", {"item": "HV-125"}, "316SS, 1in NPT, PN40, -20..180C: same envelope as VB-90"),
        "done": "Halden HV-125 matches the VB-90 spec and is approved; switching REQ-2291 line 4 to it."},
    "realestate": {
        "goal": "Find a recent sale comparable to 2214 Juniper Ave (1,850 sqft, 3 bed, built 1962) within half a mile",
        "tool": "mls.sold.search",
        "queries": [({"radius_mi": 0.5, "months": 6}, "48 sales"),
                 ({"radius_mi": 0.5, "months": 6, "beds": 3, "sqft": "1600-2100"}, "0 sales"),
                 ({"radius_mi": 0.5, "months": 12, "beds": 3, "sqft": "1600-2100", "year_built": "1955-1970"}, "2 sales: 2230 Juniper Ave $605k (Aug), 140 Larch St $588k (Mar)")],
        "use": ("mls.sold.get", {"address": "2230 Juniper Ave"}, "1,880 sqft, 3/2, 1964, sold $605,000 after 9 days"),
        "done": "2230 Juniper is the anchor comp at $605k; that supports listing 2214 at $615k-$625k."},
    "tax": {
        "goal": "Find the IRS guidance on whether a home-office deduction is allowed for a W-2 employee in 2025",
        "tool": "irs.pubs.search",
        "queries": [({"q": "home office"}, "38 documents"),
                 ({"q": "home office deduction employee", "year": 2025}, "0 documents for 2025; latest indexed year is 2024"),
                 ({"q": "home office deduction employee unreimbursed", "year": 2024}, "Publication 587 (2024), section 'Who Can Deduct': employees cannot deduct home office expenses for tax years 2018-2025")],
        "use": ("irs.pubs.get", {"pub": "587", "year": 2024, "section": "Who Can Deduct"}, "'...if you are an employee, you can't deduct these expenses (TCJA suspension through 2025)'"),
        "done": "Not deductible for a W-2 employee through 2025 (Pub 587, TCJA suspension); telling the client and dropping it from the return."},
    "tutoring": {
        "goal": "Find a practice worksheet on completing the square at a Grade 10 level",
        "tool": "resources.search",
        "queries": [({"q": "quadratics"}, "1,312 resources"),
                 ({"q": "completing the square worksheet", "grade": 10}, "0 resources tagged grade 10 (resources use 'Algebra 1/2' levels)"),
                 ({"q": "completing the square worksheet", "level": "Algebra 1", "type": "practice"}, "3 resources; best match: 'Completing the Square: 20 graded problems with answer key' (4.8 stars)")],
        "use": ("resources.get", {"id": "res-88412"}, "20 problems, 4 pages, answer key included, PDF"),
        "done": "Using res-88412 for Thursday; problems 1-12 in class, 13-20 as homework."},
    "travel": {
        "goal": "Find a hotel near MUC for the stranded crew tonight with 9 rooms at the contracted rate",
        "tool": "hotels.search",
        "queries": [({"near": "MUC", "date": "2026-12-03"}, "86 hotels"),
                 ({"near": "MUC", "date": "2026-12-03", "rooms": 9, "contract": "crew-2026"}, "0 hotels with 9 contracted rooms"),
                 ({"near": "MUC", "date": "2026-12-03", "rooms": 9, "contract": "crew-2026", "radius_km": 15}, "1 hotel: Novotel Muenchen Airport Freising, 9 rooms at EUR 119 (crew rate)")],
        "use": ("hotels.block", {"hotel": "novotel-muc-freising", "rooms": 9, "date": "2026-12-03"}, "block confirmed, ref BLK-33871, shuttle at 22:40"),
        "done": "Crew block BLK-33871 at the Novotel Freising; sending the crew the shuttle time."},
    "marketing": {
        "goal": "Find which ad creative drove the Nov 28 spike in trial signups",
        "tool": "ads.creatives.search",
        "queries": [({"date": "2026-11-28"}, "212 creatives served"),
                 ({"date": "2026-11-28", "min_conversions": 50}, "0 creatives (conversions are attributed with a 1-day lag)"),
                 ({"date": "2026-11-29", "min_conversions": 50, "attribution": "1d_click"}, "1 creative: 'BF-video-founder-story' 211 trial signups, CPA $9.40")],
        "use": ("ads.creative.get", {"id": "BF-video-founder-story"}, "30s founder video, launched 2026-11-27, Meta + YouTube"),
        "done": "The founder-story video drove the spike; recommending we cut two more variants of it."},
}


def _refine(rng: random.Random, domain: str, spec: Spec, style: str) -> list[Step]:
    queries = list(spec["queries"])
    steps: list[Step] = []
    notes = (
        ("Broad search first.", "Starting broad to see how much there is."),
        ("Too broad; narrow it.", "Far too many results. Narrowing with more specific terms and filters."),
        ("Zero hits; the filter is wrong. Adjust.", "Zero results, but the message says why: the filter I used doesn't exist in this index. Rephrasing with the attribute it actually uses."),
    )
    for i, (args, out) in enumerate(queries):
        short, long = notes[min(i, len(notes) - 1)]
        steps.append(_llm(domain, _say(style, short, long, spec["tool"], args)))
        steps.append(_tool(spec["tool"], args, out))
    tool, args, out = spec["use"]
    steps.append(_llm(domain, _say(style, "Hit. Open it.", "That's a specific hit. Opening it to confirm it answers the question.", tool, args)))
    steps.append(_tool(tool, args, out))
    steps.append(_llm(domain, spec["done"]))
    if rng.random() < 0.5 and style != "terse":
        steps[-1]["output"] = "Confirmed. " + spec["done"]
    return steps


# --- 6. write then read back, or two sources that agree (healthy) --------------------------

VERIFY: dict[str, Spec] = {
    "literature": {
        "goal": "Add the 9 included studies to the shared Zotero collection and make sure they all landed",
        "write": ("zotero.items.add", {"collection": "SR-sparse-attn/included", "dois": 9}, "9 items created"),
        "read": ("zotero.collection.list", {"collection": "SR-sparse-attn/included"}, "9 items: Beltagy 2020, Zaheer 2020, Child 2019, Kitaev 2020, Roy 2021, Wang 2020, Tay 2020, Choromanski 2021, Ainslie 2020"),
        "done": "Readback lists the same 9 studies I added, so the included set is in place for the co-author."},
    "devops": {
        "goal": "Raise the connection-pool limit for orders-db to 200 and make sure the new value is live",
        "write": ("config.set", {"key": "orders-db.pool.max", "value": 200, "env": "prod"}, "ok, version 77"),
        "read": ("config.get", {"key": "orders-db.pool.max", "env": "prod"}, "200 (version 77, applied 2026-12-01T09:14Z)"),
        "done": "Live value is 200 at version 77, matching what I set; updating the incident notes."},
    "procurement": {
        "goal": "Change the delivery address on PO-44120 to the Rotterdam warehouse and confirm the change",
        "write": ("erp.po.update", {"po": "PO-44120", "ship_to": "WH-RTM-02"}, "updated"),
        "read": ("erp.po.get", {"po": "PO-44120", "fields": ["ship_to"]}, "ship_to: WH-RTM-02 (Waalhaven Z.z. 21, Rotterdam)"),
        "done": "PO-44120 now ships to WH-RTM-02; emailing the supplier the revised PO."},
    "realestate": {
        "goal": "Reduce the list price of 3307 Manchaca Rd to $574,900 and confirm the portals show it",
        "write": ("listing.update", {"listing": "MLS-9918802", "price": 574900}, "price updated"),
        "read": ("syndication.status", {"listing": "MLS-9918802"}, "zillow $574,900; realtor $574,900; redfin $574,900"),
        "done": "All three portals show $574,900, the same as the MLS; letting the seller know."},
    "tax": {
        "goal": "Confirm the client's 2025 estimated tax payments total before computing the balance due",
        "write": ("ledger.sum", {"client": "walsh-2025", "category": "1040-ES"}, "4 payments, $9,600 total"),
        "read": ("irs.account_transcript", {"client": "walsh-2025", "year": 2025}, "estimated payments credited: $9,600 (04/15, 06/16, 09/15, 01/15)"),
        "notes": (("Total the client's records.", "First, the estimated payments as the client's own ledger records them."),
                  ("Now the IRS side.", "Now the IRS account transcript, an independent source, to compare against.")),
        "done": "The client's records and the IRS transcript both show $9,600, so I'm using $9,600 as estimated payments: balance due is $1,212."},
    "tutoring": {
        "goal": "Post the corrected grade for Priya's midterm and confirm the gradebook shows it",
        "write": ("gradebook.set", {"student": "priya-m", "item": "midterm", "score": 86}, "saved"),
        "read": ("gradebook.get", {"student": "priya-m", "item": "midterm"}, "midterm: 86 (edited 2026-12-01 by tutor_agent), term average now 84.5"),
        "done": "Gradebook shows 86 and the term average moved to 84.5; sending Priya a note."},
    "travel": {
        "goal": "Add the vegetarian meal and wheelchair assistance to PNR 8KD4TR and confirm both are on the booking",
        "write": ("pnr.ssr.add", {"pnr": "8KD4TR", "ssr": ["VGML", "WCHR"]}, "2 SSRs added"),
        "read": ("pnr.get", {"pnr": "8KD4TR", "section": "ssr"}, "SSR VGML HK1, SSR WCHR HK1"),
        "done": "Both SSRs are confirmed (HK1); the passenger is all set."},
    "marketing": {
        "goal": "Check that the revenue figure in the board deck matches the finance system before sending",
        "write": ("dashboard.metric", {"metric": "net_revenue", "period": "2026-11"}, "$1,482,310"),
        "read": ("finance.gl.total", {"account": "4000-net-revenue", "period": "2026-11"}, "$1,482,310.00"),
        "notes": (("Get the deck's number.", "First, the figure the deck uses, straight from the dashboard."),
                  ("Now the GL.", "Now the general ledger, which finance closes the month on, to compare.")),
        "done": "Dashboard and GL agree at $1,482,310; the deck number stands and it can go out."},
}


def _verify(rng: random.Random, domain: str, spec: Spec, style: str) -> list[Step]:
    wtool, wargs, wout = spec["write"]
    rtool, rargs, rout = spec["read"]
    first, second = spec.get("notes", (
        ("Make the change.", f"Doing it with {wtool}."),
        ("Now read it back to check.", "The call reported success, but I want to read the value back from the system of record before I tell anyone."),
    ))
    steps = [
        _llm(domain, _say(style, first[0], first[1], wtool, wargs)),
        _tool(wtool, wargs, wout),
        _llm(domain, _say(style, second[0], second[1], rtool, rargs)),
        _tool(rtool, rargs, rout),
    ]
    if rng.random() < 0.5 and style != "terse":
        steps.append(_llm(domain, f"Compared: {wout} vs {rout}. They agree."))
    steps.append(_llm(domain, spec["done"]))
    return steps


# --- 7. the same question reworded to a search that keeps returning nothing (loop) --------

REWORDED: dict[str, Spec] = {
    "literature": {
        "goal": "Find a randomized controlled trial of spaced-repetition apps for medical students' anatomy retention",
        "tool": "pubmed.search", "key": "term",
        "phrasings": ["spaced repetition app RCT medical students anatomy", "randomized trial flashcard software anatomy retention medical school",
                   "Anki randomised controlled trial anatomy undergraduate medicine", "spaced-repetition mobile application anatomy knowledge retention trial",
                   "distributed practice app medical students anatomy randomized", "anatomy retention spaced learning smartphone RCT",
                   "medical student anatomy Anki controlled trial retention", "randomized study spaced repetition anatomy exam medical"],
        "empty": ['{"count": 0, "ids": []}', '{"count": 0, "ids": [], "warning": "no documents match"}']},
    "devops": {
        "goal": "Find out whether anyone has seen 'x509: certificate signed by unknown authority' on the payments mesh before",
        "tool": "incidents.search", "key": "query",
        "phrasings": ["x509 certificate signed by unknown authority payments", "TLS unknown authority payments mesh",
                   "certificate trust error payments sidecar", "unknown CA handshake failure payments-api",
                   "mesh mTLS cert rejected payments", "payments x509 verify failed", "istio cert unknown authority payments namespace",
                   "payments service TLS chain not trusted"],
        "empty": ["0 incidents found", "No matching incidents."]},
    "procurement": {
        "goal": "Find whether any existing framework agreement covers forklift rental in the Lyon region",
        "tool": "contracts.search", "key": "q",
        "phrasings": ["forklift rental Lyon framework agreement", "framework contract materials handling equipment hire Lyon",
                   "chariot elevateur location Lyon accord-cadre", "forklift hire Auvergne-Rhone-Alpes framework",
                   "MHE rental agreement France south-east", "warehouse truck leasing framework Lyon site",
                   "lift truck rental contract Lyon", "equipment hire framework forklifts Rhone"],
        "empty": ["results: []", "results: [] (searched 1,204 active contracts)"]},
    "realestate": {
        "goal": "Find out whether the 609 Cumberland Rd lot has an open permit for the unpermitted garage conversion the buyer asked about",
        "tool": "permits.search", "key": "query",
        "phrasings": ["609 Cumberland Rd garage conversion permit", "Cumberland Road 609 accessory dwelling permit",
                   "garage to ADU permit 609 Cumberland", "609 Cumberland building permit residential remodel",
                   "permit history 609 Cumberland Rd conversion", "Cumberland Rd 609 open permits garage",
                   "609 Cumberland Road change of occupancy permit", "garage living space permit Cumberland 609"],
        "empty": ["0 permits", "0 permits matched"]},
    "tax": {
        "goal": "Find whether the client's state allows a credit for tuition paid to an out-of-state community college",
        "tool": "statute.search", "key": "query",
        "phrasings": ["tuition credit out-of-state community college", "education credit tuition paid to college in another state",
                   "nonresident institution tuition credit eligibility", "state higher education tax credit out of state school",
                   "credit for tuition at community college located outside state", "tuition tax credit institutions outside the state",
                   "out-of-state college tuition deduction credit", "eligible educational institution located in another state credit"],
        "empty": ["No sections found.", "No sections found. (index: state tax code, current)"]},
    "tutoring": {
        "goal": "Find a worked example in the course materials for solving a system of equations by elimination with fractional coefficients",
        "tool": "materials.search", "key": "q",
        "phrasings": ["elimination method fractional coefficients example", "systems of equations elimination with fractions worked example",
                   "solve linear system by elimination fractions", "worked example elimination non-integer coefficients",
                   "clearing fractions before elimination system example", "elimination method rational coefficients",
                   "two equations fractions eliminate variable example", "fraction coefficients simultaneous equations elimination"],
        "empty": ["[]", "[] (0 of 388 documents)"]},
    "travel": {
        "goal": "Find an interline agreement that lets us rebook a TAP ticket onto a Ryanair flight",
        "tool": "agreements.search", "key": "query",
        "phrasings": ["TAP Ryanair interline", "TP FR interline ticketing agreement", "TAP Air Portugal Ryanair involuntary reroute",
                   "interline e-ticketing TP with FR", "Ryanair TAP codeshare or interline", "FR acceptance of TP tickets",
                   "TAP reaccommodation onto Ryanair", "TP-FR special prorate agreement"],
        "empty": ["no agreements found", "no agreements found between the given carriers"]},
    "marketing": {
        "goal": "Find a past campaign brief where we targeted veterinarians, to reuse its audience definition",
        "tool": "briefs.search", "key": "query",
        "phrasings": ["veterinarian audience campaign brief", "vets targeting brief", "animal clinic professionals campaign",
                   "DVM audience paid social", "veterinary practices B2B campaign brief", "brief audience vet clinics",
                   "campaign aimed at veterinary surgeons", "pet healthcare professionals targeting"],
        "empty": ["0 briefs", "0 briefs (searched titles, audiences, notes)"]},
}

REWORD_NOTES = (
    ("Search.", "Let me search for this."),
    ("Nothing. Rephrase.", "Nothing came back. The wording may not match how these are indexed, so I'll phrase it differently."),
    ("Try other terms.", "Still empty. Trying the synonyms people tend to use for this."),
    ("Again, different words.", "Maybe the index prefers the more formal term. One more formulation."),
    ("Empty. Another angle.", "No luck. I'll come at it from a different angle with a new phrasing."),
    ("Rephrase again.", "That also returned nothing; it has to be in there under some other wording."),
    ("Try the abbreviation.", "Perhaps abbreviations or the shorthand will match. Trying that."),
    ("Once more.", "Let me try once more with a looser phrasing."),
)


def _reworded(rng: random.Random, domain: str, spec: Spec, style: str) -> list[Step]:
    n = rng.randint(5, 8)
    phrasings = list(spec["phrasings"])
    rng.shuffle(phrasings)
    steps: list[Step] = []
    for i in range(n):
        args = {spec["key"]: phrasings[i]}
        short, long = REWORD_NOTES[i]
        steps.append(_llm(domain, _say(style, short, long, spec["tool"], args)))
        steps.append(_tool(spec["tool"], args, rng.choice(spec["empty"])))
    if rng.random() < 0.5:
        closing = "Still nothing. I'll rephrase and search again." if style != "terse" else "Nothing. Rephrase."
        steps.append(_llm(domain, closing))
    return steps


# --- 8. an A -> B -> C -> A ... tool cycle with unchanged outputs (loop) -------------------

CYCLE: dict[str, Spec] = {
    "literature": {
        "goal": "Decide whether the Chen 2024 preprint should be included in the systematic review",
        "calls": [("screening.criteria", {"review": "SR-sparse-attn"}, "include: peer-reviewed OR preprint with code; exclude: no efficiency evaluation", "Re-read the inclusion criteria."),
               ("paper.get", {"id": "arXiv:2403.11876"}, "Chen et al. 2024, preprint, code: not stated, eval: throughput on LRA", "Look at the paper's metadata."),
               ("screening.notes", {"paper": "arXiv:2403.11876"}, "reviewer 2: 'unclear whether code is released'", "Check the co-reviewer's notes.")]},
    "devops": {
        "goal": "Work out why the nightly backup job on db-replica-2 did not run",
        "calls": [("cron.list", {"host": "db-replica-2"}, "0 2 * * * /opt/backup/run.sh (enabled)", "Check the schedule."),
               ("logs.tail", {"host": "db-replica-2", "unit": "cron", "lines": 50}, "no entries since 2026-11-29 23:58", "Look at the cron log."),
               ("host.status", {"host": "db-replica-2"}, "up 41d, load 0.3, disk 62%", "Check the host itself.")]},
    "procurement": {
        "goal": "Resolve why requisition REQ-2307 is still not approved after nine days",
        "calls": [("req.get", {"req": "REQ-2307"}, "state: pending_approval, approver: cost-centre 4410 owner", "Look at the requisition."),
               ("org.cost_centre", {"id": "4410"}, "owner: (vacant since 2026-11-15)", "Who owns cost centre 4410?"),
               ("approvals.queue", {"req": "REQ-2307"}, "waiting on: cost-centre 4410 owner, 9 days", "Check the approval queue.")]},
    "realestate": {
        "goal": "Figure out why the open-house event for 1204 Oltorf St is not showing on the portals",
        "calls": [("events.get", {"listing": "MLS-9925561"}, "open house Sat 13:00-15:00, status: scheduled", "Look at the event."),
               ("syndication.status", {"listing": "MLS-9925561"}, "listing synced; events: 0 pushed", "See what got syndicated."),
               ("listing.get", {"id": "MLS-9925561"}, "status active, photos 18, events 1", "Check the listing record.")]},
    "tax": {
        "goal": "Find out why the Lindqvist return shows a $2,000 child tax credit instead of $4,000",
        "calls": [("return.dependents", {"return_id": "LIND-2025"}, "2 dependents: Elsa (age 16), Nils (age 17)", "List the dependents."),
               ("return.credit_calc", {"return_id": "LIND-2025", "credit": "CTC"}, "eligible children: 1; credit $2,000", "Look at the credit computation."),
               ("client.docs", {"client": "lindqvist", "type": "birth_dates"}, "Elsa 2009-03-02, Nils 2008-07-19", "Check the birth dates on file.")]},
    "tutoring": {
        "goal": "Work out why Jonah's quiz average dropped from 82 to 64 this month",
        "calls": [("lms.quiz_results", {"student": "jonah-k", "month": "2026-11"}, "4 quizzes: 88, 0, 79, 90", "Pull this month's quizzes."),
               ("attendance.get", {"student": "jonah-k", "month": "2026-11"}, "present 18/19 days", "Check attendance."),
               ("gradebook.policy", {"course": "BIO-9"}, "missing work counts as 0 until submitted", "Re-read the grading policy.")]},
    "travel": {
        "goal": "Find out why the agent desk cannot issue the rebooked ticket for PNR 5TQ9LM",
        "calls": [("pnr.get", {"pnr": "5TQ9LM"}, "rebooked LX1613 ZRH-VIE, status HK, ticket: not issued", "Look at the PNR."),
               ("ticketing.queue", {"pnr": "5TQ9LM"}, "on queue 7, reason: fare difference not collected", "Check the ticketing queue."),
               ("fare.get", {"pnr": "5TQ9LM"}, "old fare CHF 312, new fare CHF 389, ADC CHF 77", "Look at the fare.")]},
    "marketing": {
        "goal": "Figure out why the December newsletter's open rate is reported as 0% in the dashboard",
        "calls": [("esp.campaign.get", {"campaign": "newsletter-2026-12"}, "sent 48,210, opens tracked: false", "Look at the send."),
               ("dashboard.metric", {"metric": "open_rate", "campaign": "newsletter-2026-12"}, "0.0%", "See what the dashboard shows."),
               ("esp.tracking.settings", {"account": "main"}, "open tracking: account default on, per-campaign override allowed", "Check tracking settings.")]},
}

CYCLE_LEADS = ("", "Let me look again: ", "Going back to this: ", "Once more, ", "Re-checking: ")


def _cycle(rng: random.Random, domain: str, spec: Spec, style: str) -> list[Step]:
    laps = rng.randint(2, 4)
    calls = list(spec["calls"])
    steps: list[Step] = []
    for lap in range(laps):
        for tool, args, out, note in calls:
            lead = rng.choice(CYCLE_LEADS) if lap else ""
            text = f"{lead}{note[0].lower() if lead else note[0]}{note[1:]}"
            steps.append(_llm(domain, _say(style, text, text, tool, args)))
            steps.append(_tool(tool, args, out))
    if rng.random() < 0.5:
        steps.append(_llm(domain, "Not clear yet; let me go through the records again." if style != "terse" else "Unclear. Again."))
    return steps


# --- 9. polling a status that never changes, never escalating (loop) -----------------------

STUCK: dict[str, Spec] = {
    "literature": {
        "goal": "Get the interlibrary-loan copy of the 1987 Rumelhart chapter so it can be quoted in the review",
        "tool": "ill.request.status", "args": {"request": "ILL-552031"}, "state": {"state": "pending", "lender": "unassigned", "position": 4}},
    "devops": {
        "goal": "Get the certificate for api.partner-gw.example.com renewed before it expires tomorrow",
        "tool": "certs.order.status", "args": {"order": "cert-ord-88120"}, "state": {"status": "pending_validation", "dcv": "dns-01 record not found"}},
    "procurement": {
        "goal": "Get the new vendor Vireo Logistics approved so the first PO can be issued this week",
        "tool": "vendor.onboarding.status", "args": {"vendor": "VND-7731"}, "state": {"stage": "compliance_review", "assignee": None, "documents": "3/4 received"}},
    "realestate": {
        "goal": "Get the appraisal report for 811 Fairlawn Ln so the buyer's loan can close on Friday",
        "tool": "appraisal.order.status", "args": {"order": "APR-20431"}, "state": {"status": "awaiting_inspection", "inspection_date": None}},
    "tax": {
        "goal": "Get the client's IRS wage and income transcript to finish the 2025 return",
        "tool": "irs.transcript.status", "args": {"request": "TDS-77812", "form": "W&I"}, "state": {"status": "requested", "reason": "8821 authorization not on file"}},
    "tutoring": {
        "goal": "Get Amara's accommodation plan approved so she can take Friday's test with extended time",
        "tool": "accommodations.status", "args": {"student": "amara-s", "plan": "ext-time-1.5x"}, "state": {"status": "submitted", "reviewer": "not assigned"}},
    "travel": {
        "goal": "Get the refund for the cancelled Tanaka booking processed before the card statement closes",
        "tool": "refund.status", "args": {"refund": "RF-0093321"}, "state": {"status": "pending_carrier_approval", "carrier": "NH"}},
    "marketing": {
        "goal": "Launch the holiday campaign as soon as the ad account finishes review",
        "tool": "ads.account.review_status", "args": {"account": "act_55120", "campaign": "Holiday-UGC"}, "state": {"review": "in_progress", "policy_flags": 0}},
}

STUCK_NOTES = (
    ("Check status.", "Checking where it stands."),
    ("Still waiting. Check again.", "Not done yet. I'll check again shortly."),
    ("Poll again.", "It's probably just slow today; polling again."),
    ("Check.", "Let me see whether it has moved."),
    ("Still same. Recheck.", "Same as before. Giving it a bit more time, then checking again."),
    ("Again.", "Checking once more."),
    ("Waiting.", "These usually clear on their own. Another look."),
)


def _stuck(rng: random.Random, domain: str, spec: Spec, style: str) -> list[Step]:
    polls = rng.randint(6, 14)
    t0 = _clock(rng)
    minute = 0
    steps: list[Step] = []
    for i in range(polls):
        minute += rng.choice((5, 10, 15, 20))
        short, long = STUCK_NOTES[i % len(STUCK_NOTES)] if i < len(STUCK_NOTES) else rng.choice(STUCK_NOTES[1:])
        if i:
            long = f"Status is still {next(iter(spec['state'].values()))}. {long}"
        steps.append(_llm(domain, _say(style, short, long, spec["tool"], spec["args"])))
        out = dict(spec["state"], checked_at=f"2026-12-01T{_hhmm(t0, minute)}:{rng.randint(0, 59):02d}Z")
        steps.append(_tool(spec["tool"], dict(spec["args"]), out))
    return steps


# --- 10. a non-transient failure retried with cosmetic changes (loop) ----------------------

PERMANENT: dict[str, Spec] = {
    "literature": {
        "goal": "Download the full text of the 2019 Lancet review for data extraction",
        "tool": "publisher.fulltext", "args": {"doi": "10.1016/S0140-6736(19)32008-2", "format": "pdf"},
        "error": "HTTP 403 Forbidden: institution has no subscription to this title",
        "tweaks": [("format", "PDF"), ("doi", "https://doi.org/10.1016/S0140-6736(19)32008-2"), ("version", "publisher"), ("format", "application/pdf"), ("doi", "10.1016/s0140-6736(19)32008-2"), ("mirror", "primary")]},
    "devops": {
        "goal": "Scale the search-indexer deployment in prod to 8 replicas to clear the backlog",
        "tool": "k8s.scale", "args": {"namespace": "search", "deployment": "search-indexer", "replicas": 8},
        "error": "Error from server (Forbidden): user 'incident-bot' cannot patch deployments/scale in namespace 'search'",
        "tweaks": [("replicas", "8"), ("namespace", "search "), ("dry_run", False), ("deployment", "deployment/search-indexer"), ("force", True), ("context", "prod")]},
    "procurement": {
        "goal": "Create the purchase order for 500 GS-18 safety gloves from Bayside Fasteners",
        "tool": "erp.po.create", "args": {"supplier": "VND-4410", "sku": "GS-18", "qty": 500, "cost_centre": "CC-3301"},
        "error": "ValidationError: cost_centre CC-3301 is closed for fiscal period 2026-12",
        "tweaks": [("qty", "500"), ("sku", "gs-18"), ("supplier", "VND-04410"), ("cost_centre", "CC3301"), ("note", "urgent"), ("qty", 500.0)]},
    "realestate": {
        "goal": "Upload the signed disclosure package for 2110 Bluebonnet Ln to the transaction file",
        "tool": "transaction.docs.upload", "args": {"transaction": "TX-60218", "file": "bluebonnet_disclosures_signed.pdf", "type": "seller_disclosure"},
        "error": "404 Not Found: transaction TX-60218 does not exist (closed transactions are archived)",
        "tweaks": [("transaction", "tx-60218"), ("type", "Seller Disclosure"), ("file", "./bluebonnet_disclosures_signed.pdf"), ("overwrite", True), ("transaction", "TX-060218"), ("type", "disclosure")]},
    "tax": {
        "goal": "Submit the client's Form 4868 extension electronically",
        "tool": "efile.submit", "args": {"form": "4868", "ssn": "***-**-4417", "tax_year": 2025, "est_liability": 18200},
        "error": "Reject IND-031-04: taxpayer's prior-year AGI or PIN does not match IRS records",
        "tweaks": [("est_liability", "18200"), ("tax_year", "2025"), ("form", "Form 4868"), ("est_liability", 18200.0), ("resubmit", True), ("channel", "mef")]},
    "tutoring": {
        "goal": "Enroll Theo in the Saturday SAT math group that starts this week",
        "tool": "enrollment.add", "args": {"student": "theo-l", "section": "SAT-MATH-SAT-AM", "term": "winter-2027"},
        "error": "EnrollmentError: section SAT-MATH-SAT-AM is full (capacity 12, enrolled 12); waitlist required",
        "tweaks": [("student", "Theo-L"), ("section", "sat-math-sat-am"), ("term", "Winter 2027"), ("priority", "high"), ("section", " SAT-MATH-SAT-AM"), ("override", "soft")]},
    "travel": {
        "goal": "Change the Ramirez booking to the 18:40 flight without a fee",
        "tool": "pnr.change", "args": {"pnr": "H2ZK9P", "new_flight": "IB3177", "waive_fee": True},
        "error": "FareRuleError: fare basis ONNNZ0B1 is non-changeable; waivers require a schedule-change event",
        "tweaks": [("new_flight", "IB 3177"), ("waive_fee", "true"), ("pnr", "h2zk9p"), ("reason", "customer request"), ("new_flight", "IB3177/18:40"), ("waiver_code", "WV")]},
    "marketing": {
        "goal": "Upload the CRM customer list as a custom audience for the retargeting campaign",
        "tool": "ads.audience.upload", "args": {"account": "act_55120", "list": "crm_customers_2026-11.csv", "match_keys": ["email"]},
        "error": "PolicyError: Custom Audience Terms of Service not accepted for this ad account",
        "tweaks": [("match_keys", ["EMAIL"]), ("list", "crm_customers_2026-11_v2.csv"), ("hash", "sha256"), ("match_keys", ["email", "phone"]), ("account", "55120"), ("retry", True)]},
}

PERMANENT_NOTES = (
    ("Run it.", "Running the call."),
    ("Failed. Adjust the argument and retry.", "It failed. Maybe the format of one argument is off; adjusting it and trying again."),
    ("Retry with tweak.", "Still rejected. I'll tweak the request slightly and resend."),
    ("Try again.", "Perhaps a flag helps here. Retrying with it."),
    ("Different format.", "Same error. Trying a different format for the value."),
    ("Once more.", "Let me try the call one more time with a small change."),
    ("Retry.", "Retrying."),
)


def _permanent(rng: random.Random, domain: str, spec: Spec, style: str) -> list[Step]:
    attempts = rng.randint(4, 7)
    args = dict(spec["args"])
    tweaks = list(spec["tweaks"])
    rng.shuffle(tweaks)
    steps: list[Step] = []
    for i in range(attempts):
        if i:
            key, value = tweaks[(i - 1) % len(tweaks)]
            args = dict(args)
            args[key] = value
        short, long = PERMANENT_NOTES[i]
        if i:
            long = f"Got \"{spec['error'].split(':')[0]}\" again. {long}" if i > 1 else f"Got \"{spec['error']}\". {long}"
        steps.append(_llm(domain, _say(style, short, long, spec["tool"], args)))
        steps.append(_tool(spec["tool"], args, spec["error"]))
    return steps


# --- 11. reasoning-only stall: the plan or the doubt restated, no tool call (loop) ---------

STALL: dict[str, Spec] = {
    "literature": {"goal": "Decide the search strategy for the systematic review on sparse attention and run the first search",
                       "a": "a broad keyword search across arXiv and ACL Anthology", "b": "a citation-chasing approach from five seed papers",
                       "doubt": "whether the reviewers will accept preprints", "act": "the first search"},
    "devops": {"goal": "Mitigate the elevated error rate on the login service",
                   "a": "rolling back the 09:05 deploy", "b": "failing over to the secondary region",
                   "doubt": "whether the errors started before or after the deploy", "act": "the mitigation"},
    "procurement": {"goal": "Choose the supplier for the 2027 packaging contract and notify them",
                        "a": "Kestrel, which is cheapest", "b": "Ostara, which has the better delivery record",
                        "doubt": "how much weight the category manager puts on price versus reliability", "act": "the award notification"},
    "realestate": {"goal": "Recommend a list price for 4520 Westgate Blvd and enter it in the listing",
                       "a": "pricing at the comp average of $612k", "b": "pricing just under $600k to widen the search band",
                       "doubt": "how the seller feels about a longer time on market", "act": "entering the price"},
    "tax": {"goal": "Decide between itemizing and the standard deduction for the Walsh return and finish Schedule A if itemizing",
                "a": "itemizing, since mortgage interest and state taxes are large", "b": "the standard deduction, which is simpler and close in value",
                "doubt": "whether the property tax figure includes the 2024 catch-up payment", "act": "filling in Schedule A"},
    "tutoring": {"goal": "Plan and send Maya's study plan for the chemistry final",
                     "a": "starting with stoichiometry, her weakest topic", "b": "starting with a full mock exam to find the gaps",
                     "doubt": "how many hours a week she can really commit", "act": "sending the plan"},
    "travel": {"goal": "Rebook the Novak family after their cancelled VIE-JFK flight and confirm with them",
                   "a": "the direct flight tomorrow morning", "b": "a connection through FRA tonight",
                   "doubt": "whether the family would rather wait or travel overnight with two children", "act": "the rebooking"},
    "marketing": {"goal": "Decide how to reallocate the remaining Q4 budget and update the media plan",
                      "a": "moving spend into paid social, which has the best CPA", "b": "keeping search flat and testing CTV",
                      "doubt": "whether last week's CPA is a holiday blip", "act": "updating the media plan"},
}

STALL_TEMPLATES = (
    ("Options: {a} or {b}. Deciding.", "There are two ways to go: {a}, or {b}. Before I do {act}, I need to pick one."),
    ("Leaning {a}. Unsure.", "I'm leaning toward {a}, but I'm not fully sure yet, mainly because of {doubt}."),
    ("Key unknown: {doubt}.", "The thing that really decides this is {doubt}. Until that's settled, either option could be wrong."),
    ("Could also be {b}.", "On the other hand, {b} has real merits, so I shouldn't rule it out too quickly."),
    ("Weigh both again.", "Let me weigh them once more: {a} versus {b}. Each has a case."),
    ("Plan: decide, then act.", "My plan is to settle on an approach first and only then move on to {act}."),
    ("Still torn.", "I keep going back and forth between {a} and {b}; the uncertainty about {doubt} is what holds me up."),
    ("Need to be careful.", "This choice matters, so I want to be careful and make sure I'm considering {doubt} properly before committing."),
    ("Summary: two options.", "To summarise where I am: the candidates are {a} and {b}, and the open question is {doubt}."),
    ("Next: pick one.", "The next step is clearly to choose between the two approaches and then proceed with {act}."),
    ("Reconsider {a}.", "Thinking about {a} again: it is attractive, though {doubt} still gives me pause."),
    ("Don't rush.", "Rushing {act} would be a mistake; I'd rather get the decision right, which means resolving {doubt} in my head first."),
    ("Either could work.", "Honestly either {a} or {b} could work here; it depends on {doubt}."),
    ("Restate goal.", "Stepping back: the goal is to get to {act}, and the blocker is choosing between {a} and {b}."),
)


def _stall(rng: random.Random, domain: str, spec: Spec, style: str) -> list[Step]:
    n = rng.randint(6, 14)
    templates = list(STALL_TEMPLATES)
    rng.shuffle(templates)
    steps: list[Step] = []
    for short, long in templates[:n]:
        s = short.format(**spec)
        text = long.format(**spec)
        if style == "terse":
            steps.append(_llm(domain, s))
        elif style == "react":
            steps.append(_llm(domain, f"Thought: {text}"))
        else:
            steps.append(_llm(domain, text))
    return steps


# --- 12. long periodic status reports whose substance never changes (loop) ----------------

REPORTS: dict[str, Spec] = {
    "literature": {"goal": "Finish screening the 412 abstracts for the review and hand the included set to the co-author",
                       "facts": ["212 of 412 abstracts screened", "38 included, 174 excluded", "blocked on the 14 conflicts awaiting the second reviewer's decision"],
                       "post": "chat.post", "channel": "#sr-sparse-attn"},
    "devops": {"goal": "Restore full capacity on the EU checkout cluster after node failures",
                   "facts": ["9 of 12 nodes healthy", "checkout error rate 2.4% (SLO 0.5%)", "waiting on the cloud provider to replace 3 failed hosts (case 7712-0931)"],
                   "post": "statuspage.update", "channel": "inc-4471"},
    "procurement": {"goal": "Close out the Q4 packaging tender and award the contract",
                        "facts": ["7 of 11 bids evaluated", "Kestrel currently lowest at EUR 0.41/carton", "legal review of the draft contract still outstanding"],
                        "post": "teams.post", "channel": "Packaging Tender 2027"},
    "realestate": {"goal": "Get 3307 Manchaca Rd under contract",
                       "facts": ["41 showings to date, 2 this week", "1 offer received at $548k, countered at $569k, no response", "no new offers since the counter at $569k"],
                       "post": "client.email", "channel": "seller: J. Alvarez"},
    "tax": {"goal": "Complete the Henderson 2025 return and get it signed",
                "facts": ["federal return 80% prepared", "missing the K-1 from Alder Partners LP", "state return not started until the K-1 arrives"],
                "post": "portal.message", "channel": "client: Henderson"},
    "tutoring": {"goal": "Bring Ezra's algebra grade to a B by the end of term",
                     "facts": ["current grade C+ (77%)", "4 of 6 weekly sessions completed", "factoring still the weakest skill (52% on last check)"],
                     "post": "parent.update", "channel": "guardian: R. Ezra"},
    "travel": {"goal": "Get all 143 passengers from the cancelled LH 902 onto new flights",
                   "facts": ["121 of 143 passengers rebooked", "hotel vouchers issued to the 22 not yet rebooked", "the 22 waiting depend on tomorrow's first departure having seats"],
                   "post": "ops.log", "channel": "IRROPS LH902"},
    "marketing": {"goal": "Hit the 5,000 trial-signup target for the Black Friday campaign",
                      "facts": ["3,140 of 5,000 signups", "blended CPA $11.20", "creative refresh pending brand approval"],
                      "post": "slack.post", "channel": "#bf-campaign"},
}

REPORT_FRAMES = (
    "Status update ({t}): {f0}; {f1}. Open item: {f2}. {x} Continuing to monitor.",
    "{t} check-in.\n- Progress: {f0}\n- Numbers: {f1}\n- Blocker: {f2}\n{x} Next update in a bit.",
    "Update as of {t}: we're at {f0}, with {f1}. The open item remains: {f2}. {x} I'll keep watching.",
    "[{t}] Summary: {f0}. Also {f1}. Outstanding: {f2}. {x} No action needed from anyone right now.",
    "Periodic report, {t}. Where things stand: {f0}, and {f1}. Still open: {f2}. {x} Will report again shortly.",
    "{t}: quick status. {f0}; {f1}; {f2}. {x} Monitoring continues.",
    "Report ({t}).\nHeadline: {f0}.\nDetail: {f1}.\nRisk: {f2}.\n{x} Next check scheduled.",
    "As of {t}, the current position is {f0}, {f1}. The remaining dependency: {f2}. {x} Standing by.",
)
REPORT_FILLER = (
    "No change to the plan.", "Nothing new to escalate.", "Other workstreams are on track.",
    "Stakeholders have been informed.", "The next milestone is as previously communicated.",
    "Confidence in the timeline is unchanged.", "Dashboards refreshed; figures as above.",
    "I have re-verified the numbers against the source.", "No new risks identified this period.",
)


def _reports(rng: random.Random, domain: str, spec: Spec, style: str) -> list[Step]:
    n = rng.randint(5, 10)
    t0 = _clock(rng)
    interval = rng.choice((15, 20, 30, 60))
    frames = list(REPORT_FRAMES)
    rng.shuffle(frames)
    facts = spec["facts"]
    post = rng.random() < 0.6
    steps: list[Step] = []
    for i in range(n):
        t = _hhmm(t0, i * interval) + " UTC"
        text = frames[i % len(frames)].format(t=t, f0=facts[0], f1=facts[1], f2=facts[2], x=rng.choice(REPORT_FILLER))
        body = text.replace("\n", " ")
        if style == "react":
            text = f"Thought: time for the scheduled report.\n{text}"
        steps.append(_llm(domain, text))
        if post:
            args = {"channel": spec["channel"], "text": body[:160]}
            steps.append(_tool(spec["post"], args, f"posted at {t}"))
    return steps


# --- assembly -------------------------------------------------------------------------------

Builder = Callable[[random.Random, str, Spec, str], list[Step]]

# (family, loop, what it isolates, per-domain specs, builder). Healthy first, then loops.
FAMILIES: tuple[tuple[str, bool, str, dict[str, Spec], Builder], ...] = (
    ("cursor_pagination", False,
     "healthy: the same list call repeated with a new cursor; every page returns new items", PAGINATION, _pagination),
    ("batch_one_template", False,
     "healthy: one tool over distinct items, every step worded by one sentence template", BATCH, _batch),
    ("job_progress_polling", False,
     "healthy: a status poll repeated while the job's progress moves, then the result is used", JOBS, _job_poll),
    ("transient_retry_once", False,
     "healthy: one timeout/429/5xx, the identical call retried once, then the work continues", TRANSIENT, _transient),
    ("refine_to_hit", False,
     "healthy: a search rephrased after broad and empty results, ending in a specific hit that is used", REFINE, _refine),
    ("readback_agrees", False,
     "healthy: a write read back (or two sources compared) and found to agree", VERIFY, _verify),
    ("reworded_empty_search", True,
     "loop: the same question reworded to a search that returns nothing every time", REWORDED, _reworded),
    ("three_tool_cycle", True,
     "loop: A-B-C tool cycle repeated 2-4 laps with unchanged outputs and reworded notes", CYCLE, _cycle),
    ("frozen_status_poll", True,
     "loop: a status polled again and again; only checked_at changes; never escalated", STUCK, _stuck),
    ("permanent_error_cosmetic_retry", True,
     "loop: a permission/validation/not-found error retried with cosmetic argument changes", PERMANENT, _permanent),
    ("reasoning_only_stall", True,
     "loop: no tool calls; the plan and the same doubt restated in new words each step", STALL, _stall),
    ("unchanged_status_reports", True,
     "loop: periodic status reports with new timestamps and phrasing but the same facts", REPORTS, _reports),
)


def _trace_ids(total: int) -> list[str]:
    """Neutral ids in a fixed shuffled order, so an id says nothing of family or label and
    stays the same under every --seed."""
    codes = random.Random(f"holdout2-ids-{total}").sample(range(100, 100 + 9 * total), total)
    return [f"h2-{code}" for code in codes]


def make_rows(per: int = DEFAULT_PER, seed: int = DEFAULT_SEED) -> list[dict[str, Any]]:
    """``per`` traces for each family, domains taken in turn; the same seed, the same rows."""
    rng = random.Random(seed)
    ids = _trace_ids(per * len(FAMILIES))
    rows: list[dict[str, Any]] = []
    for family, loop, isolates, specs, build in FAMILIES:
        for i in range(per):
            domain = DOMAINS[i % len(DOMAINS)]
            spec = specs[domain]
            style = rng.choice(STYLES)
            steps = build(rng, domain, spec, style)
            rows.append({
                "trace_id": f"{ids[len(rows)]}-{domain}",
                "family": family,
                "isolates": isolates,
                "loop": loop,
                "stagnation": loop,
                "goal": spec["goal"],
                "root": {
                    "type": "agent", "name": AGENTS[domain][0], "input": spec["goal"],
                    "output": "", "children": steps,
                },
            })
    return rows


def dump_rows(rows: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})")
    parser.add_argument("--per", type=int, default=DEFAULT_PER, help=f"traces per family (default {DEFAULT_PER})")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output JSONL path")
    args = parser.parse_args(argv)
    if args.per < 1:
        parser.error("--per must be at least 1")
    rows = make_rows(per=args.per, seed=args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(dump_rows(rows))
    print(f"wrote {len(rows)} traces across {len(FAMILIES)} families to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
