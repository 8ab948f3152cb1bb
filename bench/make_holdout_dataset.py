"""Write bench/holdout.jsonl: a held-out set of labelled agent traces for the loop judges.

Written blind to how any judge works, in domains that are not coding (HR onboarding,
insurance claims, e-commerce returns, data-pipeline operations, legal research, IoT fleet,
customer billing, clinic scheduling), with their own tool names, outputs and wording. The
point is an honest measurement, so the traces are written the way agents behave, not the
way any judge would like them to look.

Sixteen families of five traces each. Eight are healthy runs that a repetition check could
mistake for loops (``loop`` and ``stagnation`` false); eight are runs that circle without
progress (both true), several of them worded so that they do not look repetitive.

    python bench/make_holdout_dataset.py [--out bench/holdout.jsonl] [--seed N] [--per 5]

Seeded: the same ``--seed`` and ``--per`` always give byte-identical output.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_SEED = 4127
DEFAULT_PER = 5
DEFAULT_OUT = Path(__file__).resolve().parent / "holdout.jsonl"

Span = dict[str, Any]


def plural(noun: str) -> str:
    return noun[:-1] + "ies" if noun.endswith("y") and noun[-2] not in "aeiou" else noun + "s"


def llm(text: str, name: str = "plan") -> Span:
    return {"type": "llm", "name": name, "output": text, "children": []}


def tool(name: str, args: dict[str, Any], output: str) -> Span:
    return {"type": "tool", "name": name, "input": args, "output": output, "children": []}


# --------------------------------------------------------------------------------------
# Domains. Each holds the nouns, tools and outputs one kind of agent would really use.
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Domain:
    key: str
    agent: str
    noun: str  # what one record is: "claim", "return", ...
    records: tuple[tuple[str, str], ...]  # (id, one-line description)
    lookup_tool: str
    lookup_arg: str
    lookup_out: Callable[[str, str, random.Random], str]
    list_tool: str
    list_args: dict[str, Any]
    search_tool: str
    search_arg: str
    question: str  # the thing the agent is trying to find, in plain words
    rephrasings: tuple[str, ...]  # the same question as several search queries
    empty: str  # what the search tool returns when nothing matches
    refined: tuple[str, str, str]  # a query refined twice; the third one hits
    hit: str  # what the third query returns
    job_tool: str
    job_arg: str
    job_id: str
    job_what: str  # what the polled job is doing
    write_tool: str
    read_tool: str
    write_args: dict[str, Any]
    read_args: dict[str, Any]
    written: str  # what the read-back shows
    fail_tool: str
    fail_args: dict[str, Any]
    cosmetic_key: str  # the argument an agent fiddles with on retry
    cosmetic_values: tuple[Any, ...]
    error: str
    cycle: tuple[tuple[str, dict[str, Any], str], ...]  # three tools with fixed outputs
    report_subject: str
    metric_names: tuple[str, str, str]


def _hr_lookup(rid: str, desc: str, rng: random.Random) -> str:
    return json.dumps({"employee_id": rid, "name": desc.split(",")[0], "role": desc.split(",")[1].strip(),
                       "laptop": rng.choice(["shipped", "pending", "delivered"]),
                       "badge": rng.choice(["printed", "requested"]), "i9_verified": rng.choice([True, False])})


def _claim_lookup(rid: str, desc: str, rng: random.Random) -> str:
    return json.dumps({"claim_id": rid, "summary": desc, "reserve_usd": rng.randrange(800, 24000, 50),
                       "adjuster": rng.choice(["M. Okafor", "L. Brandt", "S. Iyer"]),
                       "documents": rng.randrange(2, 9), "status": "open"})


def _return_lookup(rid: str, desc: str, rng: random.Random) -> str:
    return json.dumps({"rma": rid, "item": desc, "reason": rng.choice(["wrong size", "damaged in transit", "not as described"]),
                       "order_total": round(rng.uniform(19, 340), 2), "days_since_delivery": rng.randrange(2, 40)})


def _dataset_lookup(rid: str, desc: str, rng: random.Random) -> str:
    return json.dumps({"table": rid, "description": desc, "last_loaded": f"2026-11-{rng.randrange(10, 29)}T0{rng.randrange(1, 9)}:00Z",
                       "row_count": rng.randrange(10_000, 9_000_000), "freshness_sla_hours": rng.choice([6, 12, 24])})


def _case_lookup(rid: str, desc: str, rng: random.Random) -> str:
    return json.dumps({"citation": rid, "holding": desc, "court": rng.choice(["9th Cir.", "2d Cir.", "N.D. Cal.", "S.D.N.Y."]),
                       "treatment": rng.choice(["followed", "distinguished", "cited"])})


def _device_lookup(rid: str, desc: str, rng: random.Random) -> str:
    return json.dumps({"device_id": rid, "site": desc, "firmware": rng.choice(["4.2.1", "4.2.3", "4.3.0"]),
                       "battery_pct": rng.randrange(8, 100), "last_seen_min": rng.randrange(1, 600)})


def _account_lookup(rid: str, desc: str, rng: random.Random) -> str:
    return json.dumps({"account": rid, "customer": desc, "balance_due": round(rng.uniform(0, 900), 2),
                       "plan": rng.choice(["Starter", "Growth", "Scale"]), "autopay": rng.choice([True, False])})


def _patient_lookup(rid: str, desc: str, rng: random.Random) -> str:
    return json.dumps({"referral_id": rid, "specialty": desc, "insurance_auth": rng.choice(["approved", "approved", "pending"]),
                       "earliest_slot": f"2026-12-{rng.randrange(1, 20):02d} {rng.choice(['08:30', '10:15', '14:00', '15:45'])}"})


DOMAINS: tuple[Domain, ...] = (
    Domain(
        key="hr", agent="onboarding_agent", noun="new hire",
        records=(("E-20417", "Priya Raman, Data Analyst"), ("E-20418", "Tomasz Wilk, Account Executive"),
                 ("E-20421", "Grace Adeyemi, Site Reliability Engineer"), ("E-20425", "Luis Ortega, Payroll Specialist"),
                 ("E-20426", "Mei Tanaka, Product Designer"), ("E-20430", "Samir Haddad, Warehouse Lead"),
                 ("E-20433", "Hannah Cole, Legal Counsel"), ("E-20434", "Dmitri Volkov, QA Analyst")),
        lookup_tool="hris.get_employee", lookup_arg="employee_id", lookup_out=_hr_lookup,
        list_tool="hris.list_pending_onboarding", list_args={"start_after": "2026-12-01"},
        search_tool="policy_kb.search", search_arg="q",
        question="whether contractors converted to full time keep their accrued PTO",
        rephrasings=("contractor to FTE conversion PTO carryover", "do converted contractors keep accrued vacation",
                     "PTO balance transfer when contractor becomes employee", "accrued leave policy for contractor conversion",
                     "conversion from contract worker paid time off retained", "contractor hired permanently vacation days kept"),
        empty='{"results": [], "total": 0}',
        refined=("relocation reimbursement", "relocation reimbursement cap engineering", "relocation policy 2026 tier 2"),
        hit='{"results": [{"doc": "HR-POL-114 Relocation (2026)", "snippet": "Tier 2 roles: lump sum up to $7,500, receipts not required"}], "total": 1}',
        job_tool="hris.get_background_check", job_arg="check_id", job_id="BGC-88213", job_what="the background check for the new hire",
        write_tool="hris.update_employee", read_tool="hris.get_employee",
        write_args={"employee_id": "E-20421", "fields": {"manager_id": "E-10077", "cost_center": "CC-4410"}},
        read_args={"employee_id": "E-20421"},
        written='{"employee_id": "E-20421", "manager_id": "E-10077", "cost_center": "CC-4410", "updated_by": "onboarding_agent"}',
        fail_tool="it.provision_account", fail_args={"employee_id": "E-20426", "groups": ["design", "all-staff"]},
        cosmetic_key="groups", cosmetic_values=(["design", "all-staff"], ["all-staff", "design"], ["Design", "all-staff"], ["design", "All-Staff"], ["design", "all-staff", "design"]),
        error='{"error": "403 Forbidden: service account lacks Directory.Write on tenant acme-corp"}',
        cycle=(("hris.get_employee", {"employee_id": "E-20430"}, '{"employee_id": "E-20430", "name": "Samir Haddad", "manager_id": null}'),
               ("org_chart.lookup", {"department": "Logistics"}, '{"department": "Logistics", "head": "vacant", "members": 41}'),
               ("slack.search_messages", {"query": "Samir Haddad manager"}, '{"messages": []}')),
        report_subject="December onboarding cohort", metric_names=("laptops shipped", "accounts provisioned", "I-9s verified"),
    ),
    Domain(
        key="claims", agent="claims_triage_agent", noun="claim",
        records=(("CLM-55102", "rear-end collision, Honda Civic, no injuries"), ("CLM-55117", "burst pipe, kitchen flooring damage"),
                 ("CLM-55120", "hail damage to roof shingles"), ("CLM-55131", "stolen e-bike from garage"),
                 ("CLM-55134", "windshield chip from highway debris"), ("CLM-55140", "slip and fall at insured's storefront"),
                 ("CLM-55149", "lightning strike, fried HVAC compressor"), ("CLM-55152", "tree fell on detached shed")),
        lookup_tool="claims.get_claim", lookup_arg="claim_id", lookup_out=_claim_lookup,
        list_tool="claims.list_unassigned", list_args={"line": "property", "region": "midwest"},
        search_tool="policy_forms.search", search_arg="query",
        question="whether the HO-3 form excludes damage from gradual seepage",
        rephrasings=("HO-3 gradual seepage exclusion", "homeowners policy continuous leakage not covered",
                     "is long term water seepage excluded ho3", "repeated seepage or leakage exclusion homeowner form",
                     "slow leak damage exclusion homeowners 3", "seepage over weeks covered under HO-3?"),
        empty='{"hits": 0, "documents": []}',
        refined=("rental car coverage", "rental reimbursement endorsement", "rental reimbursement endorsement PA-114 daily limit"),
        hit='{"hits": 1, "documents": [{"form": "PA-114", "title": "Transportation Expenses", "text": "up to $40 per day, 30 days maximum"}]}',
        job_tool="fraud.get_score_job", job_arg="job_id", job_id="FRD-3319", job_what="the fraud scoring job for the claim",
        write_tool="claims.set_reserve", read_tool="claims.get_claim",
        write_args={"claim_id": "CLM-55149", "reserve_usd": 6200, "note": "compressor replacement quote attached"},
        read_args={"claim_id": "CLM-55149"},
        written='{"claim_id": "CLM-55149", "reserve_usd": 6200, "reserve_note": "compressor replacement quote attached", "status": "open"}',
        fail_tool="payments.issue_check", fail_args={"claim_id": "CLM-55134", "amount_usd": 412.5, "payee": "Glass Pros LLC"},
        cosmetic_key="payee", cosmetic_values=("Glass Pros LLC", "Glass Pros, LLC", "GLASS PROS LLC", "Glass Pros L.L.C.", "Glass Pros"),
        error='{"error": "payee vendor_id not on approved vendor list (VND-REQ-002)"}',
        cycle=(("claims.get_claim", {"claim_id": "CLM-55140"}, '{"claim_id": "CLM-55140", "coverage": "general liability", "incident_report": null}'),
               ("documents.list", {"claim_id": "CLM-55140"}, '{"documents": ["photo_1.jpg", "photo_2.jpg"]}'),
               ("adjuster_notes.get", {"claim_id": "CLM-55140"}, '{"notes": "awaiting incident report from insured"}')),
        report_subject="property claims intake queue", metric_names=("claims triaged", "reserves set", "flagged for SIU"),
    ),
    Domain(
        key="returns", agent="returns_desk_agent", noun="return",
        records=(("RMA-774201", "Trail runner shoes, size 10"), ("RMA-774215", "Ceramic pour-over kettle"),
                 ("RMA-774230", "Wool throw blanket, charcoal"), ("RMA-774238", "Bluetooth bookshelf speakers"),
                 ("RMA-774244", "Kids rain jacket, yellow, 6T"), ("RMA-774251", "Cast iron skillet 12 inch"),
                 ("RMA-774260", "Standing desk frame"), ("RMA-774263", "Noise cancelling earbuds")),
        lookup_tool="oms.get_return", lookup_arg="rma", lookup_out=_return_lookup,
        list_tool="oms.list_returns", list_args={"status": "received", "warehouse": "RNO-2"},
        search_tool="helpcenter.search", search_arg="text",
        question="the return window for items bought with a gift card during the holiday extension",
        rephrasings=("holiday return window gift card purchases", "extended holiday returns paid by gift card",
                     "gift card order return deadline december", "how long to return holiday gift card orders",
                     "return period for purchases made with store credit over holidays", "seasonal return extension gift card tender"),
        empty='[]',
        refined=("damaged item refund", "damaged in transit refund without return", "keep it refund threshold damaged item"),
        hit='[{"article": "KB-2231", "title": "Refund without return", "body": "Items under $25 reported damaged: refund issued, customer keeps item"}]',
        job_tool="carrier.track", job_arg="tracking_number", job_id="1Z84F10A0392215541", job_what="the return shipment",
        write_tool="oms.issue_refund", read_tool="oms.get_refund",
        write_args={"rma": "RMA-774238", "amount": 129.0, "method": "original_payment"},
        read_args={"rma": "RMA-774238"},
        written='{"rma": "RMA-774238", "refund_id": "RF-90311", "amount": 129.0, "state": "submitted", "method": "original_payment"}',
        fail_tool="oms.create_exchange", fail_args={"rma": "RMA-774244", "new_sku": "JKT-KID-YEL-7T"},
        cosmetic_key="new_sku", cosmetic_values=("JKT-KID-YEL-7T", "jkt-kid-yel-7t", "JKT-KID-YEL-7T ", "JKT_KID_YEL_7T", "JKT-KID-YELLOW-7T"),
        error='{"error": "exchange blocked: original order paid with split tender, manual review required"}',
        cycle=(("oms.get_return", {"rma": "RMA-774260"}, '{"rma": "RMA-774260", "state": "received", "inspection": null}'),
               ("wms.get_inspection", {"rma": "RMA-774260"}, '{"inspection": null, "queue_position": null}'),
               ("oms.get_order", {"order_id": "SO-3391027"}, '{"order_id": "SO-3391027", "items": 1, "freight": "LTL"}')),
        report_subject="RNO-2 returns backlog", metric_names=("returns inspected", "refunds issued", "restocked units"),
    ),
    Domain(
        key="pipeline", agent="data_ops_agent", noun="table",
        records=(("analytics.orders_daily", "daily order facts"), ("analytics.sessions", "web sessions by visitor"),
                 ("finance.gl_entries", "general ledger lines"), ("marketing.campaign_spend", "ad spend by campaign"),
                 ("ops.shipments", "carrier shipment events"), ("crm.accounts", "account snapshot"),
                 ("support.tickets", "support ticket history"), ("product.feature_flags", "flag exposure log")),
        lookup_tool="catalog.describe_table", lookup_arg="table", lookup_out=_dataset_lookup,
        list_tool="airflow.list_dag_runs", list_args={"dag_id": "nightly_warehouse_load", "state": "failed"},
        search_tool="logs.search", search_arg="query",
        question="which upstream change made the orders_daily row count drop by 40 percent",
        rephrasings=("orders_daily row count drop", "schema change upstream orders source",
                     "orders_daily fewer rows than expected", "truncated orders extract last night",
                     "orders ingestion partial load", "missing partitions orders_daily"),
        empty='{"matches": 0, "lines": []}',
        refined=("OOM", "OOM spark executor nightly_warehouse_load", "Container killed exceeding memory limits stage 14"),
        hit='{"matches": 3, "lines": ["2026-11-29T02:14:07Z stage 14 task 211: Container killed by YARN for exceeding memory limits (12.3 GB of 12 GB)"]}',
        job_tool="airflow.get_task_state", job_arg="task_id", job_id="nightly_warehouse_load.transform_orders", job_what="the backfill task",
        write_tool="airflow.set_variable", read_tool="airflow.get_variable",
        write_args={"key": "orders_backfill_start", "value": "2026-11-22"},
        read_args={"key": "orders_backfill_start"},
        written='{"key": "orders_backfill_start", "value": "2026-11-22"}',
        fail_tool="warehouse.run_query", fail_args={"sql": "SELECT count(*) FROM analytics.orders_daily WHERE ds = '2026-11-29'", "timeout_s": 60},
        cosmetic_key="timeout_s", cosmetic_values=(60, 90, 61, 120, 75),
        error='{"error": "permission denied for schema analytics (role: svc_dataops)"}',
        cycle=(("airflow.get_dag_run", {"dag_id": "nightly_warehouse_load", "run_id": "scheduled__2026-11-29"}, '{"state": "failed", "failed_task": "load_orders"}'),
               ("airflow.get_task_log", {"task_id": "load_orders", "try": 1}, '{"log": "ERROR - upstream returned 0 files"}'),
               ("s3.list_objects", {"prefix": "raw/orders/2026-11-29/"}, '{"objects": []}')),
        report_subject="nightly warehouse load", metric_names=("tables loaded", "tables late", "rows rejected"),
    ),
    Domain(
        key="legal", agent="legal_research_agent", noun="authority",
        records=(("941 F.3d 1203", "non-compete unenforceable absent protectable interest"), ("58 Cal.4th 1109", "arbitration waiver of PAGA claims"),
                 ("12 N.Y.3d 441", "implied covenant in franchise agreements"), ("2024 WL 118822", "choice-of-law clause under Restatement 187"),
                 ("733 F.Supp.3d 90", "trade secret misappropriation by departing employee"), ("210 A.3d 556", "liquidated damages as penalty"),
                 ("88 F.4th 317", "personal jurisdiction over remote employer"), ("2025 WL 40417", "garden leave clause upheld")),
        lookup_tool="caselaw.get_opinion", lookup_arg="citation", lookup_out=_case_lookup,
        list_tool="caselaw.list_citing", list_args={"citation": "941 F.3d 1203", "jurisdiction": "CA"},
        search_tool="caselaw.search", search_arg="query",
        question="a California appellate decision enforcing a garden-leave clause for a remote employee",
        rephrasings=("garden leave clause enforced California appellate remote employee",
                     "Cal. Ct. App. garden leave enforceability remote worker",
                     "paid notice period restrictive covenant California remote",
                     "California court upheld garden leave for employee working remotely",
                     "garden leave provision Business and Professions Code 16600 remote",
                     "enforceability of paid non-work notice period California appeal"),
        empty='{"results": [], "count": 0}',
        refined=("liquidated damages penalty", "liquidated damages penalty software license", "liquidated damages penalty software license Delaware 2019..2025"),
        hit='{"results": [{"citation": "210 A.3d 556", "court": "Del. Super.", "year": 2021, "holding": "liquidated damages clause void as penalty"}], "count": 1}',
        job_tool="docket.get_filing_status", job_arg="filing_id", job_id="EF-2026-118834", job_what="the e-filing of the motion",
        write_tool="memo.save_section", read_tool="memo.get_section",
        write_args={"memo_id": "MEMO-4471", "section": "II.B", "text": "Under 941 F.3d 1203, the covenant fails absent a protectable interest."},
        read_args={"memo_id": "MEMO-4471", "section": "II.B"},
        written='{"memo_id": "MEMO-4471", "section": "II.B", "text": "Under 941 F.3d 1203, the covenant fails absent a protectable interest.", "version": 3}',
        fail_tool="pacer.fetch_docket", fail_args={"case_number": "3:25-cv-04118", "court": "cand"},
        cosmetic_key="case_number", cosmetic_values=("3:25-cv-04118", "3:25-CV-04118", "3:25-cv-4118", "25-cv-04118", "3:25cv04118"),
        error='{"error": "PACER login failed: account locked after failed attempts"}',
        cycle=(("caselaw.get_opinion", {"citation": "88 F.4th 317"}, '{"citation": "88 F.4th 317", "holding": "jurisdiction turns on purposeful availment"}'),
               ("caselaw.list_citing", {"citation": "88 F.4th 317", "jurisdiction": "CA"}, '{"citing": []}'),
               ("secondary.search", {"query": "remote employer personal jurisdiction"}, '{"results": []}')),
        report_subject="non-compete research memo", metric_names=("authorities reviewed", "authorities cited", "open questions"),
    ),
    Domain(
        key="iot", agent="fleet_ops_agent", noun="device",
        records=(("TRK-0451", "reefer trailer, Fresno depot"), ("TRK-0457", "reefer trailer, Stockton yard"),
                 ("GW-1120", "gateway, Denver cold store"), ("GW-1133", "gateway, Reno cross-dock"),
                 ("SNS-9002", "door sensor, Bay 4 Tacoma"), ("SNS-9017", "temperature probe, Bay 9 Tacoma"),
                 ("TRK-0502", "dry van, Phoenix hub"), ("GW-1190", "gateway, Salt Lake yard")),
        lookup_tool="fleet.get_device", lookup_arg="device_id", lookup_out=_device_lookup,
        list_tool="fleet.list_devices", list_args={"firmware_lt": "4.3.0", "online": True},
        search_tool="fleet.search_events", search_arg="filter",
        question="why the reefer trailers report temperature spikes at exactly 03:00",
        rephrasings=("reefer temperature spike 03:00", "temp excursion 3am reefer trailers",
                     "compressor defrost cycle temperature jump", "scheduled job 03:00 reefer telemetry",
                     "nightly temperature anomaly trailers", "cold chain spike every night 3 am"),
        empty='{"events": [], "next_cursor": null}',
        refined=("battery low", "battery low gateway denver", "battery_pct<15 device_type=gateway site=denver"),
        hit='{"events": [{"device_id": "GW-1120", "type": "battery_low", "battery_pct": 11, "at": "2026-11-30T05:41Z"}], "next_cursor": null}',
        job_tool="ota.get_rollout", job_arg="rollout_id", job_id="OTA-430-canary", job_what="the firmware 4.3.0 canary rollout",
        write_tool="fleet.set_config", read_tool="fleet.get_config",
        write_args={"device_id": "TRK-0457", "config": {"report_interval_s": 120, "temp_alarm_c": 5.0}},
        read_args={"device_id": "TRK-0457"},
        written='{"device_id": "TRK-0457", "report_interval_s": 120, "temp_alarm_c": 5.0, "applied": true}',
        fail_tool="fleet.reboot_device", fail_args={"device_id": "GW-1133", "mode": "soft"},
        cosmetic_key="mode", cosmetic_values=("soft", "Soft", "graceful", "soft_restart", "SOFT"),
        error='{"error": "device unreachable: last heartbeat 9h ago"}',
        cycle=(("fleet.get_device", {"device_id": "SNS-9017"}, '{"device_id": "SNS-9017", "online": false, "last_seen_min": 412}'),
               ("fleet.get_device", {"device_id": "GW-1133"}, '{"device_id": "GW-1133", "online": true, "children": ["SNS-9002"]}'),
               ("fleet.search_events", {"filter": "device_id=SNS-9017"}, '{"events": [], "next_cursor": null}')),
        report_subject="west region reefer fleet", metric_names=("devices online", "devices updated", "open temperature alarms"),
    ),
    Domain(
        key="billing", agent="billing_support_agent", noun="account",
        records=(("ACC-31007", "Northwind Dental"), ("ACC-31022", "Bluebird Logistics"), ("ACC-31045", "Kettle & Crumb Bakery"),
                 ("ACC-31050", "Ridgeview Property Mgmt"), ("ACC-31066", "Sable Fitness Studios"), ("ACC-31071", "Orchard Lane Vet Clinic"),
                 ("ACC-31088", "Polar Freight Brokers"), ("ACC-31093", "Lumen Architecture")),
        lookup_tool="billing.get_account", lookup_arg="account_id", lookup_out=_account_lookup,
        list_tool="billing.list_invoices", list_args={"status": "past_due", "days_over": 30},
        search_tool="billing.search_transactions", search_arg="query",
        question="the payment that Bluebird Logistics says they sent on November 14",
        rephrasings=("Bluebird Logistics payment 2026-11-14", "ACH from Bluebird mid November",
                     "incoming wire Bluebird Logistics invoice INV-88120", "payment received Bluebird nov 14",
                     "remittance Bluebird Logistics 4,180.00", "unapplied cash Bluebird Logistics"),
        empty='{"transactions": [], "total": 0}',
        refined=("refund", "refund ACC-31066", "refund ACC-31066 duplicate charge 2026-11"),
        hit='{"transactions": [{"id": "TX-771902", "type": "refund", "amount": -89.0, "date": "2026-11-21", "memo": "duplicate charge reversal"}], "total": 1}',
        job_tool="billing.get_dunning_run", job_arg="run_id", job_id="DUN-2026-11-30", job_what="the dunning email run",
        write_tool="billing.apply_credit", read_tool="billing.get_account",
        write_args={"account_id": "ACC-31045", "amount": 45.0, "reason": "service outage 2026-11-18"},
        read_args={"account_id": "ACC-31045"},
        written='{"account_id": "ACC-31045", "balance_due": 0.0, "credits": [{"amount": 45.0, "reason": "service outage 2026-11-18"}]}',
        fail_tool="payments.charge_card", fail_args={"account_id": "ACC-31088", "amount": 1250.0, "currency": "USD"},
        cosmetic_key="currency", cosmetic_values=("USD", "usd", "US$", "USD ", "840"),
        error='{"error": "card_declined: do_not_honor"}',
        cycle=(("billing.get_account", {"account_id": "ACC-31050"}, '{"account_id": "ACC-31050", "balance_due": 612.4, "disputes": 1}'),
               ("billing.list_invoices", {"account_id": "ACC-31050"}, '{"invoices": [{"id": "INV-88301", "amount": 612.4, "status": "disputed"}]}'),
               ("billing.get_dispute", {"invoice_id": "INV-88301"}, '{"dispute": "open", "reason": "not specified", "evidence": []}')),
        report_subject="past-due accounts", metric_names=("accounts contacted", "payments collected", "disputes open"),
    ),
    Domain(
        key="clinic", agent="scheduling_agent", noun="referral",
        records=(("REF-60211", "dermatology"), ("REF-60219", "cardiology follow-up"), ("REF-60224", "physical therapy"),
                 ("REF-60230", "orthopedics, knee"), ("REF-60237", "sleep study"), ("REF-60242", "endocrinology"),
                 ("REF-60250", "audiology"), ("REF-60255", "pediatric allergy")),
        lookup_tool="ehr.get_referral", lookup_arg="referral_id", lookup_out=_patient_lookup,
        list_tool="scheduling.list_open_slots", list_args={"specialty": "cardiology", "location": "Eastside"},
        search_tool="provider_directory.search", search_arg="query",
        question="a Spanish-speaking pediatric allergist in network within 20 miles",
        rephrasings=("pediatric allergist Spanish in network 20 miles", "bilingual Spanish kids allergy specialist near patient",
                     "allergy immunology pediatrics language=es", "Spanish speaking children's allergist accepting Medicaid",
                     "pediatric allergy provider habla español", "kids allergist who speaks Spanish nearby in plan"),
        empty='{"providers": []}',
        refined=("MRI", "MRI knee without contrast", "MRI knee without contrast Eastside imaging open Saturday"),
        hit='{"providers": [{"name": "Eastside Imaging Center", "slot": "2026-12-06 09:20", "in_network": true}]}',
        job_tool="payer.get_prior_auth", job_arg="auth_id", job_id="PA-771204", job_what="the prior authorisation for the sleep study",
        write_tool="scheduling.book", read_tool="scheduling.get_appointment",
        write_args={"patient_id": "P-0042219", "slot_id": "SLT-33018", "referral_id": "REF-60224"},
        read_args={"patient_id": "P-0042219", "slot_id": "SLT-33018"},
        written='{"appointment_id": "APT-918220", "slot_id": "SLT-33018", "patient_id": "P-0042219", "status": "booked", "provider": "J. Alvarez, PT"}',
        fail_tool="sms.send_reminder", fail_args={"patient_id": "P-0042219", "phone": "+1-555-0142", "template": "appt_reminder_v2"},
        cosmetic_key="phone", cosmetic_values=("+1-555-0142", "+15550142", "555-0142", "(555) 0142", "+1 555 0142"),
        error='{"error": "recipient opted out of SMS (STOP received 2026-10-02)"}',
        cycle=(("ehr.get_referral", {"referral_id": "REF-60237"}, '{"referral_id": "REF-60237", "specialty": "sleep study", "insurance_auth": "pending"}'),
               ("payer.get_prior_auth", {"auth_id": "PA-771204"}, '{"auth_id": "PA-771204", "status": "pending", "note": null}'),
               ("scheduling.list_open_slots", {"specialty": "sleep study", "location": "Eastside"}, '{"slots": [], "requires_auth": true}')),
        report_subject="Eastside referral queue", metric_names=("referrals scheduled", "awaiting authorisation", "patients unreachable"),
    ),
)

# --------------------------------------------------------------------------------------
# Healthy families (loop false, stagnation false).
# --------------------------------------------------------------------------------------


def fixed_template_work(d: Domain, rng: random.Random) -> tuple[str, list[Span]]:
    """A ReAct-style agent that writes every step in the same Thought/Action frame while
    moving through different records, each with a new finding."""
    n = rng.randint(4, 7)
    recs = rng.sample(d.records, n)
    goal = f"Review {n} open {plural(d.noun)} and flag the ones that need a human today"
    steps: list[Span] = []
    prev_verdict = ""
    for i, (rid, desc) in enumerate(recs, 1):
        out = d.lookup_out(rid, desc, rng)
        verdict = rng.choice(["needs a human", "can proceed automatically", "needs a human", "is blocked on missing data"])
        steps.append(llm(
            f"Thought: {d.noun} {i} of {n} is {rid} ({desc}); I need its current details before deciding. "
            f"Action: {d.lookup_tool}. Observation from previous step: "
            + ("none yet." if i == 1 else f"{recs[i - 2][0]} {prev_verdict}."),
            name="react"))
        steps.append(tool(d.lookup_tool, {d.lookup_arg: rid}, out))
        prev_verdict = verdict
    flagged = [r for r in recs if rng.random() < 0.5] or recs[:1]
    steps.append(llm(f"Thought: all {n} reviewed. Final answer: flag {', '.join(r[0] for r in flagged)} for a human; "
                     f"the rest can proceed.", name="react"))
    return goal, steps


def pagination(d: Domain, rng: random.Random) -> tuple[str, list[Span]]:
    """Walks a paginated list tool page by page until the cursor runs out."""
    pages = rng.randint(3, 6)
    goal = f"Export every item from {d.list_tool} into the weekly review sheet"
    steps: list[Span] = [llm(f"I'll pull the full list from {d.list_tool} with the filters {json.dumps(d.list_args)}. "
                             f"It is paginated, so I keep requesting pages until there is no next cursor.")]
    total = 0
    cursor: str | None = None
    prefix = d.records[0][0].split("-")[0] if "-" in d.records[0][0] else d.key.upper()
    ids = [f"{prefix}-{rng.randrange(10000, 99999)}" for _ in range(pages * 4)]
    for p in range(1, pages + 1):
        chunk = ids[(p - 1) * 4: p * 4] if p < pages else ids[(p - 1) * 4: (p - 1) * 4 + rng.randint(1, 3)]
        total += len(chunk)
        nxt = f"cur_{rng.randrange(16**6):06x}" if p < pages else None
        args = dict(d.list_args, page_size=4)
        if p > 1:
            args["cursor"] = cursor
        steps.append(tool(d.list_tool, args, json.dumps({"items": chunk, "next_cursor": nxt})))
        if p < pages:
            steps.append(llm(rng.choice([
                f"Page {p} gave {len(chunk)} items ({chunk[0]} .. {chunk[-1]}); running total {total}. Fetching page {p + 1}.",
                f"Got {len(chunk)} more, total {total} so far. There is a next cursor, so requesting page {p + 1}.",
                f"Page {p} done: {', '.join(chunk)}. {total} collected; continuing with the cursor.",
            ])))
        cursor = nxt
    steps.append(tool("sheets.append_rows", {"sheet": "weekly_review", "rows": total}, json.dumps({"appended": total})))
    steps.append(llm(f"No next cursor after page {pages}. Appended all {total} items to the weekly review sheet. Done."))
    return goal, steps


def polling_progress(d: Domain, rng: random.Random) -> tuple[str, list[Span]]:
    """Polls a job whose status really changes between polls, then acts on the result."""
    polls = rng.randint(4, 8)
    pcts = sorted(rng.sample(range(5, 96), polls - 2))
    states = ["queued"] + [f"running ({p}%)" for p in pcts] + ["completed"]
    goal = f"Wait for {d.job_what} to finish and act on the result"
    steps: list[Span] = [llm(f"{d.job_what[0].upper()}{d.job_what[1:]} ({d.job_id}) was started earlier. I'll poll {d.job_tool} "
                             f"until it completes, waiting between polls.")]
    for i, st in enumerate(states):
        status, _, pct = st.partition(" ")
        body: dict[str, Any] = {d.job_arg: d.job_id, "status": status}
        if pct:
            body["progress"] = int(pct.strip("(%)"))
        if status == "completed":
            body["result"] = rng.choice(["clear", "passed", "ok"])
        steps.append(tool(d.job_tool, {d.job_arg: d.job_id}, json.dumps(body)))
        if i < len(states) - 1:
            if i == 0:
                steps.append(llm("It is still queued; nothing to do but wait. Polling again in 30 seconds.", name="wait"))
                continue
            steps.append(llm(rng.choice([
                f"Status is {st}. Not done yet; waiting 30 seconds before the next poll.",
                f"Now {st}, up from the last poll. I'll check again shortly.",
                f"{d.job_id}: {st}. Still moving, polling again.",
            ]), name="wait"))
    steps.append(llm(f"{d.job_id} completed with result {body['result']}. Recording it and moving the {d.noun} to the next stage."))
    return goal, steps


def transient_retry(d: Domain, rng: random.Random) -> tuple[str, list[Span]]:
    """One call fails with a transient error, is retried once unchanged, succeeds, and the
    run goes on to finish the task."""
    rid, desc = rng.choice(d.records)
    err = rng.choice(['{"error": "503 Service Unavailable", "retry_after_s": 2}', '{"error": "upstream timeout after 30s"}',
                      '{"error": "429 Too Many Requests", "retry_after_s": 5}'])
    goal = f"Update {d.noun} {rid} and confirm the change"
    out = d.lookup_out(rid, desc, rng)
    steps = [
        llm(f"First I need the current record for {rid} ({desc})."),
        tool(d.lookup_tool, {d.lookup_arg: rid}, err),
        llm("That looks transient (the service asked me to back off). Retrying the same request once after the wait."),
        tool(d.lookup_tool, {d.lookup_arg: rid}, out),
        llm("The retry worked. With the record in hand I can make the change the ticket asks for."),
        tool(d.write_tool, d.write_args, '{"ok": true}'),
        llm("Change accepted. Reading it back to confirm."),
        tool(d.read_tool, d.read_args, d.written),
        llm("Confirmed; the record shows the new values. Closing the ticket."),
    ]
    return goal, steps


def batch_same_tool(d: Domain, rng: random.Random) -> tuple[str, list[Span]]:
    """The same tool called on many different records, one short sentence each."""
    n = rng.randint(5, 9)
    recs = rng.sample(d.records, min(n, len(d.records)))
    action = f"{d.key}.notify"
    goal = f"Send the weekly status notification for every {d.noun} in the queue"
    steps: list[Span] = [llm(f"There are {len(recs)} {plural(d.noun)} in the queue. I'll send one notification per {d.noun}.")]
    for rid, desc in recs:
        msg_id = f"MSG-{rng.randrange(100000, 999999)}"
        steps.append(llm(f"Sending the status notification for {rid} ({desc})."))
        steps.append(tool(action, {"record_id": rid, "template": "weekly_status"}, json.dumps({"queued": True, "message_id": msg_id})))
    steps.append(llm(f"All {len(recs)} notifications queued without errors."))
    return goal, steps


def boilerplate_reports(d: Domain, rng: random.Random) -> tuple[str, list[Span]]:
    """Each shift the agent files a long report with the same header and footer, but the
    numbers and the actions taken differ every time."""
    shifts = rng.randint(3, 5)
    a, b, c = d.metric_names
    goal = f"Work the {d.report_subject} for the next {shifts} checkpoints and report after each"
    header = (f"Status report: {d.report_subject}. Prepared automatically by {d.agent} for the operations channel. "
              f"Figures below are cumulative since the start of the run and are read directly from the system of record.")
    footer = "No action is required from readers unless a line below says otherwise. Next report at the following checkpoint."
    steps: list[Span] = []
    va, vb, vc = rng.randint(2, 6), rng.randint(0, 3), rng.randint(4, 9)
    recs = rng.sample(d.records, shifts)
    for s in range(shifts):
        rid, desc = recs[s]
        steps.append(tool(d.lookup_tool, {d.lookup_arg: rid}, d.lookup_out(rid, desc, rng)))
        done = rng.choice([f"escalated {rid} ({desc}) to the team lead", f"resolved {rid} ({desc}) and closed it",
                           f"reassigned {rid} ({desc}) after the owner went on leave", f"unblocked {rid} ({desc}) by supplying the missing document"])
        steps.append(llm(f"{header} Checkpoint {s + 1}: {a} {va}, {b} {vb}, {c} {vc}. This checkpoint I {done}. {footer}", name="report"))
        va += rng.randint(2, 5)
        vb += rng.randint(1, 3)
        vc = max(0, vc - rng.randint(1, 3))
    return goal, steps


def refined_search(d: Domain, rng: random.Random) -> tuple[str, list[Span]]:
    """A search that returns too much or nothing, narrowed twice, and then answers."""
    q1, q2, q3 = d.refined
    too_many = json.dumps({"total": rng.randrange(400, 3000), "note": "too many results, showing none; narrow your query"})
    goal = f"Find the rule or record behind: {q3}"
    steps = [
        llm(f"I'll start broad with '{q1}' to see what the search index has."),
        tool(d.search_tool, {d.search_arg: q1}, too_many),
        llm(f"Far too broad. Adding the specific context narrows it: '{q2}'."),
        tool(d.search_tool, {d.search_arg: q2}, d.empty),
        llm(f"Now nothing; the phrasing is probably wrong rather than the record missing. The index uses the formal name, so trying '{q3}'."),
        tool(d.search_tool, {d.search_arg: q3}, d.hit),
        llm("Found it. The third query returned the record I need; quoting it in the answer with its reference."),
    ]
    return goal, steps


def write_then_verify(d: Domain, rng: random.Random) -> tuple[str, list[Span]]:
    """Reads, writes, then reads the same record back to check the write landed."""
    goal = f"Make the requested change with {d.write_tool} and verify it"
    rid = next(iter(d.read_args.values()))
    steps = [
        llm(f"Before changing anything I'll look at the current state of {rid}."),
        tool(d.read_tool, d.read_args, json.dumps({"id": rid, "note": "current values before the change", "version": 2})),
        llm(f"Current values noted. Applying the change: {json.dumps(d.write_args)}."),
        tool(d.write_tool, d.write_args, json.dumps({"accepted": True, "request_id": f"req-{rng.randrange(16**8):08x}"})),
        llm("Accepted, but an accepted write is not proof. Reading the record back."),
        tool(d.read_tool, d.read_args, d.written),
        llm(f"The read-back matches what I wrote. Change verified for {rid}."),
    ]
    return goal, steps


# --------------------------------------------------------------------------------------
# Loop families (loop true, stagnation true).
# --------------------------------------------------------------------------------------


def rephrased_empty_search(d: Domain, rng: random.Random) -> tuple[str, list[Span]]:
    """The same question put to the same search tool in new words each time; every answer
    is the same empty result, and the agent never changes approach."""
    n = rng.randint(4, 6)
    queries = rng.sample(d.rephrasings, n)
    goal = f"Find {d.question}"
    lead = [
        "Let me search for this directly.",
        "Maybe the index uses different wording; rephrasing.",
        "Still nothing. I'll phrase it the way a customer might.",
        "The answer has to be in there somewhere. Trying another formulation.",
        "Perhaps a more specific query will surface it.",
        "One more angle on the same question.",
    ]
    steps: list[Span] = []
    for i, q in enumerate(queries):
        steps.append(llm(f"{lead[i]} Query: \"{q}\"."))
        steps.append(tool(d.search_tool, {d.search_arg: q}, d.empty))
    return goal, steps


def two_tool_bounce(d: Domain, rng: random.Random) -> tuple[str, list[Span]]:
    """A-B-A-B: the agent checks one tool, then another, then the first again, each time
    getting the same answers and concluding it should check the other one."""
    rounds = rng.randint(3, 5)
    (ta, aa, oa), (tb, ab, ob), _ = d.cycle
    goal = f"Resolve the open question on {next(iter(aa.values()))}"
    say_a = [f"Let me look at {ta} for the current state.", f"Going back to {ta}; maybe it has updated.",
             f"Checking {ta} once more to be sure.", f"I'll re-read {ta} in case I missed a field.", f"Back to {ta}."]
    say_b = [f"{ta} doesn't settle it. {tb} should have the missing piece.", f"Nothing new there, so {tb} again.",
             f"Let me cross-check with {tb}.", f"{tb} might show it now.", f"Trying {tb}."]
    steps: list[Span] = []
    for r in range(rounds):
        steps.append(llm(say_a[r]))
        steps.append(tool(ta, aa, oa))
        steps.append(llm(say_b[r]))
        steps.append(tool(tb, ab, ob))
    return goal, steps


def three_tool_cycle(d: Domain, rng: random.Random) -> tuple[str, list[Span]]:
    """A-B-C-A-B-C with fixed outputs; the reasoning is reworded each lap."""
    laps = rng.randint(2, 4)
    (ta, aa, oa), (tb, ab, ob), (tc, ac, oc) = d.cycle
    goal = f"Work out what is blocking {next(iter(aa.values()))} and clear it"
    words = [
        (f"Start with the record itself via {ta}.", f"The record has a gap; {tb} may explain it.", f"Nothing conclusive; {tc} is the last place to look."),
        (f"Let me re-open the record with {ta} and read it carefully.", f"Same gap. Checking {tb} again in case it changed.", f"And {tc} again."),
        (f"Perhaps I misread the record; {ta} once more.", f"{tb} for the related entries.", f"{tc} to see if anything was added."),
        (f"Starting over from the top with {ta}.", f"Then {tb}.", f"Then {tc}."),
    ]
    steps: list[Span] = []
    for lap in range(laps):
        wa, wb, wc = words[lap]
        steps += [llm(wa), tool(ta, aa, oa), llm(wb), tool(tb, ab, ob), llm(wc), tool(tc, ac, oc)]
    return goal, steps


def stuck_polling(d: Domain, rng: random.Random) -> tuple[str, list[Span]]:
    """Polls a status that never changes, many times, never escalating or giving up."""
    polls = rng.randint(6, 14)
    status = rng.choice(["pending", "in_progress", "queued", "processing"])
    body = json.dumps({d.job_arg: d.job_id, "status": status, "updated_at": "2026-11-30T08:02:11Z"})
    goal = f"Wait for {d.job_what} to finish and act on the result"
    phr = [f"Status is still {status}. Waiting and checking again.", f"{d.job_id} remains {status}. Polling again.",
           f"No change yet ({status}). I'll give it another moment.", f"Still {status}; it should finish soon.",
           f"Checking {d.job_id} again.", "Not done. Polling."]
    steps: list[Span] = [llm(f"Polling {d.job_tool} for {d.job_id} until it completes.")]
    for i in range(polls):
        steps.append(tool(d.job_tool, {d.job_arg: d.job_id}, body))
        steps.append(llm(phr[rng.randrange(len(phr))], name="wait"))
    return goal, steps


def cosmetic_retry(d: Domain, rng: random.Random) -> tuple[str, list[Span]]:
    """A call that fails for a reason the arguments can't fix, retried with cosmetic
    changes (case, punctuation, order) and the same error each time."""
    n = rng.randint(4, 5)
    goal = f"Complete the {d.fail_tool} step for the ticket"
    steps: list[Span] = []
    notes = ["Calling it with the values from the ticket.", "Maybe the formatting was off; normalising the value.",
             "Trying an alternative spelling of the same value.", "Perhaps the service is picky about the format; adjusting.",
             "Another variant of the same value."]
    for i in range(n):
        args = dict(d.fail_args)
        args[d.cosmetic_key] = d.cosmetic_values[i]
        steps.append(llm(f"{notes[i]} {d.cosmetic_key} = {json.dumps(d.cosmetic_values[i])}."))
        steps.append(tool(d.fail_tool, args, d.error))
    return goal, steps


def plan_restating(d: Domain, rng: random.Random) -> tuple[str, list[Span]]:
    """The agent re-announces its plan in new words every step and never calls a tool."""
    n = rng.randint(4, 7)
    rid, desc = rng.choice(d.records)
    goal = f"Sort out {d.noun} {rid} ({desc})"
    plans = [
        f"My plan: first pull up {rid} with {d.lookup_tool}, then decide what it needs, then make the change and confirm it.",
        f"To handle this properly I'll retrieve the {d.noun} record, figure out the required action, carry it out and verify.",
        f"Approach: look up {rid}, determine the next step from its details, execute, and double-check the result.",
        f"The right way to do this is to read the current state of the {d.noun}, work out what's missing, fix it, and check.",
        f"So, step one is fetching {rid}; step two, choosing an action; step three, doing it; step four, confirming.",
        f"Let me restate the approach: get the details for {rid}, identify the gap, address it, and validate the outcome.",
        f"I'll begin by loading the {d.noun}, then decide, act and verify, in that order.",
    ]
    rng.shuffle(plans)
    return goal, [llm(p) for p in plans[:n]]


def near_identical_reports(d: Domain, rng: random.Random) -> tuple[str, list[Span]]:
    """Long status reports whose numbers never move; only a timestamp and a word or two change."""
    n = rng.randint(4, 6)
    a, b, c = d.metric_names
    va, vb, vc = rng.randint(3, 9), rng.randint(0, 4), rng.randint(2, 8)
    goal = f"Work the {d.report_subject} and report after each checkpoint"
    opener = ["Status update", "Progress update", "Checkpoint report", "Status report", "Update"]
    steps: list[Span] = []
    for i in range(n):
        hh = 8 + i
        steps.append(tool(d.lookup_tool, {d.lookup_arg: d.records[0][0]}, d.lookup_out(d.records[0][0], d.records[0][1], random.Random(7))))
        steps.append(llm(
            f"{opener[i % len(opener)]} for the {d.report_subject} as of {hh:02d}:00 UTC. {a}: {va}. {b}: {vb}. {c}: {vc}. "
            f"I am still waiting on {d.records[0][0]} before the remaining items can move forward, and I will continue to "
            f"monitor the queue and report again at the next checkpoint. No other changes since the previous report.",
            name="report"))
    return goal, steps


def terse_retry(d: Domain, rng: random.Random) -> tuple[str, list[Span]]:
    """Very short steps around the same failing call."""
    n = rng.randint(5, 9)
    goal = f"Complete the {d.fail_tool} step for the ticket"
    short = ["Trying again.", "Retry.", "Once more.", "Again.", "Retrying.", "Trying again now.", "One more try."]
    steps: list[Span] = []
    for i in range(n):
        steps.append(llm(short[rng.randrange(len(short))] if i else f"Calling {d.fail_tool}."))
        steps.append(tool(d.fail_tool, d.fail_args, d.error))
    return goal, steps


@dataclass(frozen=True)
class Family:
    name: str
    loop: bool
    isolates: str
    build: Callable[[Domain, random.Random], tuple[str, list[Span]]]


FAMILIES: tuple[Family, ...] = (
    Family("fixed_template_work", False, "healthy: one Thought/Action frame for every step over different records", fixed_template_work),
    Family("pagination", False, "healthy: same list tool page after page, each page new items", pagination),
    Family("polling_progress", False, "healthy: polling a status that changes until it completes", polling_progress),
    Family("transient_retry", False, "healthy: one transient error, retried once unchanged, then success", transient_retry),
    Family("batch_same_tool", False, "healthy: one tool and one sentence shape over many different records", batch_same_tool),
    Family("boilerplate_reports", False, "healthy: long reports with a fixed header and footer, figures and actions change", boilerplate_reports),
    Family("refined_search", False, "healthy: a search narrowed twice that finally finds the record", refined_search),
    Family("write_then_verify", False, "healthy: read, write, read back the same record", write_then_verify),
    Family("rephrased_empty_search", True, "loop: one question reworded to the same search, empty every time", rephrased_empty_search),
    Family("two_tool_bounce", True, "loop: A-B-A-B between two tools with unchanged outputs", two_tool_bounce),
    Family("three_tool_cycle", True, "loop: A-B-C-A-B-C with unchanged outputs, reasoning reworded each lap", three_tool_cycle),
    Family("stuck_polling", True, "loop: polling a status that never changes, no escalation", stuck_polling),
    Family("cosmetic_retry", True, "loop: a failing call retried with cosmetic argument changes, same error", cosmetic_retry),
    Family("plan_restating", True, "loop: the plan restated in new words every step, no tool call", plan_restating),
    Family("near_identical_reports", True, "loop: long status reports whose figures never move", near_identical_reports),
    Family("terse_retry", True, "loop: very short 'trying again' steps around the same failing call", terse_retry),
)


def make_rows(per: int = DEFAULT_PER, seed: int = DEFAULT_SEED) -> list[dict[str, Any]]:
    """``per`` rows per family; each instance of a family uses a different domain."""
    rows: list[dict[str, Any]] = []
    for fi, fam in enumerate(FAMILIES):
        rng = random.Random(f"{seed}:{fam.name}")
        order = list(DOMAINS)
        rng.shuffle(order)
        for i in range(per):
            d = order[i % len(order)]
            goal, steps = fam.build(d, rng)
            rows.append({
                "trace_id": f"{fam.name}-{i:02d}",
                "family": fam.name,
                "isolates": fam.isolates,
                "loop": fam.loop,
                "stagnation": fam.loop,
                "goal": goal,
                "root": {"type": "agent", "name": d.agent, "input": goal, "output": "", "children": steps},
            })
    return rows


def dump_rows(rows: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--per", type=int, default=DEFAULT_PER)
    args = parser.parse_args()
    rows = make_rows(per=args.per, seed=args.seed)
    args.out.write_text(dump_rows(rows), encoding="utf-8")
    print(f"wrote {len(rows)} traces across {len(FAMILIES)} families to {args.out}")


if __name__ == "__main__":
    main()
