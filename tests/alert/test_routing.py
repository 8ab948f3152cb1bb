"""Routing alerts to destinations: the pure match, the ``route:`` config and its errors, and
the worker sending each alert only where its route matches (SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from semloop._exceptions import ConfigError
from semloop.alert import (
    SEVERITIES,
    AlertsConfig,
    Route,
    UndecidedSignal,
    load_alerts_config,
    route_matches,
)
from semloop.events import Signal
from semloop.store import Store
from semloop.worker import AlertsWorker

from .conftest import Receiver, Runs

MakeReceiver = Callable[..., Receiver]


def alert(agent_id: str = "billing-bot", failure_type: str = "TOOL_LOOP",
          severity: str = "HIGH", source: str = "structural") -> UndecidedSignal:
    return UndecidedSignal(id=1, org_id="o", org_name="acme", run_id="run-1", agent_id=agent_id,
                        agent_version="v1", failure_type=failure_type, source=source,
                        severity=severity, confidence=0.8, evidence={}, step_index=0,
                        shadow=False, detected_at=0.0)


# -- the pure match -------------------------------------------------------------------


def test_no_route_matches_every_alert() -> None:
    assert route_matches(alert(), None)
    assert route_matches(alert("x", "ANYTHING", "LOW", "semantic"), None)


@pytest.mark.parametrize(("patterns", "agent", "expected"), [
    (("billing-*",), "billing-bot", True),
    (("billing-*",), "billing-", True),
    (("billing-*",), "support-bot", False),
    (("billing-*",), "Billing-bot", False),          # agent ids are case-sensitive
    (("billing-*",), "old-billing-bot", False),      # a glob is anchored at both ends
    (("support-bot",), "support-bot", True),
    (("support-bot",), "support-bot-2", False),
    (("billing-?",), "billing-1", True),
    (("billing-?",), "billing-12", False),
    (("billing-[0-9]*",), "billing-7eu", True),
    (("billing-[0-9]*",), "billing-eu", False),
    (("support-bot", "billing-*"), "billing-eu", True),  # any pattern of the list
    (("*",), "", True),
])
def test_agent_globs(patterns: tuple[str, ...], agent: str, expected: bool) -> None:
    assert route_matches(alert(agent_id=agent), Route(agents=patterns)) is expected


@pytest.mark.parametrize(("patterns", "failure_type", "expected"), [
    (("*INJECTION*",), "PROMPT_INJECTION_SIGNAL", True),
    (("*INJECTION*",), "RETRIEVED_CONTENT_INJECTION", True),
    (("*INJECTION*",), "TOOL_LOOP", False),
    (("*_LOOP",), "TOOL_LOOP", True),
    (("*_LOOP",), "SEMANTIC_LOOP", True),
    (("*_LOOP",), "LLM_TRUNCATION_LOOP", True),
    (("*_LOOP",), "TOOL_THRASHING", False),
    (("TOOL_LOOP",), "tool_loop", False),  # failure types are names, matched exactly
])
def test_failure_type_globs(patterns: tuple[str, ...], failure_type: str, expected: bool) -> None:
    assert route_matches(alert(failure_type=failure_type), Route(failure_types=patterns)) is expected


def test_severity_lets_through_its_band_and_every_band_above() -> None:
    assert SEVERITIES == ("LOW", "MEDIUM", "HIGH", "CRITICAL")
    passed = {minimum: [s for s in SEVERITIES
                        if route_matches(alert(severity=s), Route(min_severity=minimum))]
              for minimum in SEVERITIES}
    assert passed == {
        "LOW": ["LOW", "MEDIUM", "HIGH", "CRITICAL"],
        "MEDIUM": ["MEDIUM", "HIGH", "CRITICAL"],
        "HIGH": ["HIGH", "CRITICAL"],
        "CRITICAL": ["CRITICAL"],
    }


def test_a_severity_outside_the_bands_meets_no_minimum_but_still_routes_elsewhere() -> None:
    assert route_matches(alert(severity="high"), Route(min_severity="HIGH"))  # case-insensitive
    odd = alert(severity="WARNING")
    assert not route_matches(odd, Route(min_severity="LOW"))
    assert route_matches(odd, Route(agents=("billing-*",)))
    assert route_matches(odd, None)


def test_sources_match_by_name_or_glob() -> None:
    semantic = alert(source="semantic")
    assert route_matches(semantic, Route(sources=("semantic",)))
    assert not route_matches(semantic, Route(sources=("structural",)))
    assert route_matches(semantic, Route(sources=("sem*", "structural")))


def test_every_condition_of_a_route_must_hold() -> None:
    route = Route(agents=("billing-*",), failure_types=("TOOL_*",), min_severity="HIGH",
                  sources=("structural",))
    assert route_matches(alert(), route)
    assert not route_matches(alert(agent_id="support-bot"), route)
    assert not route_matches(alert(failure_type="COST_SPIKE"), route)
    assert not route_matches(alert(severity="MEDIUM"), route)
    assert not route_matches(alert(source="semantic"), route)
    assert route_matches(alert(agent_id="billing-eu", failure_type="TOOL_THRASHING",
                               severity="CRITICAL"), route)


def test_a_platform_signal_routes_like_a_stored_one() -> None:
    signal = Signal(failure_type="TOOL_LOOP", run_id="r", severity="HIGH", confidence=0.9,
                    agent_id="billing-bot")
    assert route_matches(signal, Route(agents=("billing-*",), min_severity="MEDIUM"))
    assert not route_matches(signal, Route(min_severity="CRITICAL"))


@pytest.mark.parametrize(("kwargs", "key"), [
    ({"agents": ()}, "agents"),
    ({"agents": "billing-*"}, "agents"),
    ({"failure_types": ("TOOL_LOOP", "")}, "failure_types[1]"),
    ({"sources": (" ",)}, "sources[0]"),
    ({"min_severity": "low"}, "min_severity"),  # the config upper-cases; the type does not
    ({}, None),
])
def test_a_route_checks_itself(kwargs: dict[str, Any], key: str | None) -> None:
    with pytest.raises(ConfigError) as info:
        Route(**kwargs)
    assert info.value.key == key


def test_destinations_for_keeps_the_configured_order_and_unrouted_ones() -> None:
    config = AlertsConfig.from_dict({"destinations": {
        "pager": {"type": "webhook", "url": "http://p", "route": {"min_severity": "critical"}},
        "all": {"type": "slack", "url": "http://a"},
        "billing": {"type": "webhook", "url": "http://b", "route": {"agents": ["billing-*"]}},
    }})

    def names(a: UndecidedSignal) -> list[str]:
        return [d.name for d in config.destinations_for(a)]

    assert names(alert()) == ["all", "billing"]
    assert names(alert(severity="CRITICAL")) == ["pager", "all", "billing"]
    assert names(alert(agent_id="support-bot")) == ["all"]


# -- the config -----------------------------------------------------------------------


def with_route(route: Any) -> dict[str, Any]:
    return {"destinations": {"pager": {"type": "webhook", "url": "http://p", "route": route}}}


def test_a_route_is_read_from_the_config() -> None:
    config = AlertsConfig.from_dict(with_route({
        "agents": ["billing-*", "payments"], "failure_types": ["TOOL_LOOP"],
        "min_severity": "High", "sources": ["structural"]}))
    assert config.destinations[0].route == Route(
        agents=("billing-*", "payments"), failure_types=("TOOL_LOOP",), min_severity="HIGH",
        sources=("structural",))
    no_route = AlertsConfig.from_dict({"destinations": {"ops": {"type": "webhook",
                                                                "url": "http://o"}}})
    assert no_route.destinations[0].route is None


ROUTE = "alerts.destinations.pager.route"


@pytest.mark.parametrize(("route", "key"), [
    ({"agent": ["billing-*"]}, f"{ROUTE}.agent"),
    ({"agents": "billing-*"}, f"{ROUTE}.agents"),
    ({"agents": {"billing-*": True}}, f"{ROUTE}.agents"),
    ({"agents": []}, f"{ROUTE}.agents"),
    ({"agents": [""]}, f"{ROUTE}.agents[0]"),
    ({"agents": ["billing-*", 7]}, f"{ROUTE}.agents[1]"),
    ({"failure_types": ["TOOL_LOOP", None]}, f"{ROUTE}.failure_types[1]"),
    ({"failure_types": []}, f"{ROUTE}.failure_types"),
    ({"sources": "structural"}, f"{ROUTE}.sources"),
    ({"sources": []}, f"{ROUTE}.sources"),
    ({"min_severity": "urgent"}, f"{ROUTE}.min_severity"),
    ({"min_severity": 3}, f"{ROUTE}.min_severity"),
    ({"min_severity": ["high"]}, f"{ROUTE}.min_severity"),
    ({"min_severity": None}, f"{ROUTE}.min_severity"),
    ({}, ROUTE),
    (None, ROUTE),
    (["billing-*"], ROUTE),
    ("billing-*", ROUTE),
])
def test_a_bad_route_is_named(route: Any, key: str) -> None:
    with pytest.raises(ConfigError) as info:
        AlertsConfig.from_dict(with_route(route))
    assert info.value.key == key


def test_a_bad_route_in_a_file_names_the_file_and_the_key(tmp_path: Path) -> None:
    path = tmp_path / "alerts.yml"
    path.write_text("alerts:\n  destinations:\n    pager:\n      type: webhook\n"
                    "      url: http://p\n      route:\n        min_severity: sev1\n")
    with pytest.raises(ConfigError, match=(r"alerts\.yml: alerts\.destinations\.pager\.route"
                                           r"\.min_severity: unknown severity 'SEV1' \(known: "
                                           r"low, medium, high, critical\)")):
        load_alerts_config(path)
    path.write_text("alerts:\n  destinations:\n    pager:\n      type: webhook\n"
                    "      url: http://p\n      route:\n")
    with pytest.raises(ConfigError, match=r"alerts\.yml: alerts\.destinations\.pager\.route: "
                                          r"sets no condition"):
        load_alerts_config(path)
    path.write_text("alerts:\n  destinations:\n    pager:\n      type: webhook\n"
                    "      url: http://p\n      route:\n        agents: [billing-*]\n"
                    "        min_severity: high\n")
    assert load_alerts_config(path).destinations[0].route == Route(agents=("billing-*",),
                                                                   min_severity="HIGH")


# -- the worker -----------------------------------------------------------------------


def test_each_alert_reaches_only_the_destinations_whose_route_matches(
        store: Store, runs: Runs, receiver_factory: MakeReceiver) -> None:
    billing, security = receiver_factory(), receiver_factory()
    worker = AlertsWorker(store, AlertsConfig.from_dict({
        "destinations": {
            "billing": {"type": "webhook", "url": billing.url,
                        "route": {"agents": ["billing-*"], "min_severity": "medium"}},
            "security": {"type": "webhook", "url": security.url,
                         "route": {"failure_types": ["*INJECTION*"], "sources": ["structural"]}},
        },
        "retry": {"max_attempts": 2, "base_delay_s": 0.01},
    }))
    # TOOL_LOOP alerts at its second consecutive run (2/10) for each agent.
    runs.add("bill-1", "TOOL_LOOP", agent_id="billing-bot")
    runs.add("bill-2", "TOOL_LOOP", agent_id="billing-bot")
    runs.add("sup-1", "PROMPT_INJECTION_SIGNAL", agent_id="support-bot", severity="CRITICAL")
    runs.add("sup-2", "TOOL_LOOP", agent_id="support-bot")
    runs.add("sup-3", "TOOL_LOOP", agent_id="support-bot")
    # Billing's own agent, but below the route's minimum severity.
    runs.add("bill-3", "FIRST_STEP_FAILURE", agent_id="billing-bot", severity="LOW")
    worker.drain()

    assert [(b["agent"], b["failure_type"], b["run_id"]) for b in billing.bodies] == [
        ("billing-bot", "TOOL_LOOP", "bill-2")]
    assert [(b["agent"], b["failure_type"], b["run_id"]) for b in security.bodies] == [
        ("support-bot", "PROMPT_INJECTION_SIGNAL", "sup-1")]

    # Every alert is recorded; the two no route matched have no delivery.
    routed = {a.run_id: sorted((d.destination, d.status) for d in a.deliveries)
              for a in store.list_alerts(runs.org_id)}
    assert routed == {
        "bill-2": [("billing", "delivered")],
        "sup-1": [("security", "delivered")],
        "sup-3": [],
        "bill-3": [],
    }
    assert worker.unrouted == 2
    assert worker.deliveries == {"delivered": 2}
    assert store.alert_decisions(runs.org_id, "sup-3") == {("TOOL_LOOP", "structural"): "alerted"}

    # A later poll sends nothing more: an unrouted alert is not retried or re-routed.
    worker.drain()
    assert len(billing.requests) == 1 and len(security.requests) == 1
