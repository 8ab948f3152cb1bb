"""The dashboard over real HTTP on SQLite and PostgreSQL: sign-in, sessions and CSRF, no
page without a session, org scoping of every page, and what the pages show."""

from __future__ import annotations

import dataclasses
import re
import time

import pytest
from fastapi.routing import APIRoute

from api._seed import charge_run, finish_task
from semloop.api.dashboard._pages import SESSION_COOKIE, router
from semloop.api.dashboard._session import Sessions

from .conftest import (
    ANGRY,
    MARKED,
    SECOND_AGREED,
    STUCK,
    TOOL_STEPS,
    Site,
    judge_call,
    seed_loop_run,
)

#: Dashboard routes not behind the sign-in: the page itself and its stylesheet.
SIGN_IN = {"/login"}


def _page_routes() -> list[str]:
    return sorted({r.path for r in router.routes if isinstance(r, APIRoute)
                   and "GET" in (r.methods or ()) and r.path not in SIGN_IN})


PAGES = _page_routes()
IDS = {"run_id": "run-loop", "agent_id": "support", "conversation_id": "conv-1",
       "name": "refresh.js"}


def _fill(path: str, site: Site) -> str:
    ids = {**IDS, "issue_id": str(site.issue_id)}
    return re.sub(r"\{([^}]+)\}", lambda m: ids[m.group(1)], path)


def test_the_pages_are_found() -> None:
    assert {"/", "/runs", "/runs/{run_id}", "/agents", "/agents/{agent_id}", "/issues",
            "/issues/{issue_id}", "/conversations", "/conversations/{conversation_id}", "/evaluators",
            "/static/{name}"} <= set(PAGES)


def test_no_page_or_asset_without_signing_in(read_only_site: Site) -> None:
    with read_only_site.client(signed_in=False) as anonymous:
        for path in PAGES:
            reply = anonymous.get(_fill(path, read_only_site))
            assert reply.status_code == 303, path
            assert reply.headers["location"].startswith("/login?next="), path
        # the sign-in page and its stylesheet are the exceptions
        assert anonymous.get("/login").status_code == 200
        assert anonymous.get("/static/style.css").status_code == 200
        assert anonymous.get("/static/NOTICE").status_code == 303


def test_sign_in_sets_a_signed_http_only_strict_cookie_without_the_key(read_only_site: Site) -> None:
    with read_only_site.client(signed_in=False) as client:
        reply = read_only_site.sign_in(client)
        assert reply.status_code == 303 and reply.headers["location"] == "/"
        cookie = next(c for c in reply.headers.get_list("set-cookie")
                      if c.startswith(f"{SESSION_COOKIE}="))
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie
        value = cookie.split(";")[0].split("=", 1)[1]
        # "sl_<id>_<secret>": the secret is url-safe base64 and may itself hold "_".
        secret = read_only_site.key.split("_", 2)[2]
        assert secret not in value and read_only_site.key not in value
        assert client.get("/").status_code == 200


def test_a_wrong_key_or_a_forged_form_is_refused(read_only_site: Site) -> None:
    with read_only_site.client(signed_in=False) as client:
        reply = read_only_site.sign_in(client, key="sl_000000000000_not-a-key")
        assert reply.status_code == 401 and "not valid" in reply.text
        assert SESSION_COOKIE not in client.cookies
        forged = client.post("/login", data={"key": read_only_site.key, "csrf": "guess", "next": "/"})
        assert forged.status_code == 403
        assert SESSION_COOKIE not in client.cookies


def test_sign_in_never_redirects_off_the_site(read_only_site: Site) -> None:
    with read_only_site.client(signed_in=False) as client:
        form = client.get("/login", params={"next": "//evil.example/x"})
        token = re.search(r'name="csrf" value="([^"]+)"', form.text)
        assert token is not None and "evil" not in form.text
        reply = client.post("/login", data={"key": read_only_site.key,
                                            "csrf": token.group(1),
                                            "next": "https://evil.example/"})
        assert reply.headers["location"] == "/"


def test_a_forged_or_expired_session_is_no_session(read_only_site: Site) -> None:
    with read_only_site.client() as client:
        real = client.cookies[SESSION_COOKIE]
        body, mac = real.split(".")
        client.cookies.set(SESSION_COOKIE, f"{body}.{mac[:-2]}AA")
        assert client.get("/").status_code == 303
    sessions = Sessions(b"k" * 32, max_age_s=60)
    token = sessions.issue("org", "keyid", now=1000.0)
    assert sessions.read(token, now=1059.0) is not None
    assert sessions.read(token, now=1061.0) is None
    assert Sessions(b"x" * 32, 60).read(token, now=1001.0) is None


def test_revoking_the_key_ends_its_sessions(site: Site) -> None:
    with site.client() as client:
        assert client.get("/runs").status_code == 200
        site.store.revoke_api_key(site.key)
        assert client.get("/runs").status_code == 303


def test_sign_out_needs_the_csrf_token_and_ends_the_session(read_only_site: Site) -> None:
    with read_only_site.client() as client:
        page = client.get("/")
        token = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert token is not None
        assert client.post("/logout", data={"csrf": "wrong"}).status_code == 403
        assert client.get("/").status_code == 200
        reply = client.post("/logout", data={"csrf": token.group(1)})
        assert reply.status_code == 303 and reply.headers["location"] == "/login"
        assert client.get("/").status_code == 303


def test_pages_allow_only_their_own_origin(read_only_site: Site) -> None:
    with read_only_site.client() as client:
        policy = client.get("/").headers["content-security-policy"]
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy


def test_another_orgs_session_sees_none_of_this_orgs_pages(site: Site) -> None:
    other = site.store.create_org("other")
    other_key = site.store.create_api_key(other)
    with site.client(signed_in=False) as client:
        assert site.sign_in(client, key=other_key).status_code == 303
        for path in PAGES:
            reply = client.get(_fill(path, site))
            if "{" in path and path != "/static/{name}":
                assert reply.status_code == 404, path
                continue
            assert reply.status_code == 200, path
            for secret in ("run-loop", "find my order", "conv-1", "conv-angry", "refund"):
                assert secret not in reply.text, (path, secret)


def test_run_detail_shows_each_finding_and_marks_the_steps_its_evidence_names(
        read_only_site: Site) -> None:
    with read_only_site.client() as client:
        page = client.get("/runs/run-loop").text
    named = {int(n) for n in re.findall(r'<li id="step-(\d+)" class="step named"', page)}
    assert named == set(TOOL_STEPS) | set(range(STUCK[0], STUCK[1] + 1))
    assert 'data-findings="SEMANTIC_LOOP"' in page  # step 3: the stretch only
    assert 'data-findings="TOOL_LOOP SEMANTIC_LOOP"' in page  # step 4: both
    for step in range(STUCK[0], STUCK[1] + 1):
        assert f'href="#step-{step}"' in page
    assert "below the floor 0.60" in page  # SEMANTIC_LOOP's 0.55
    assert "timeout after 30 s" in page and "order 42" in page


def test_runs_filter_and_page_by_cursor(site: Site) -> None:
    for i in range(55):
        seed_loop_run(site.store, site.org_id, f"run-more-{i:02d}",
                      start=time.time() - 100_000 - i)
    with site.client() as client:
        first = client.get("/runs").text
        assert first.count('<tr><td>') == 50
        later = re.search(r'href="(/runs\?cursor=[^"]+)"', first)
        assert later is not None
        second = client.get(later.group(1).replace("&amp;", "&")).text
        assert "run-more-54" in second and "run-more-54" not in first
        assert "run-loop" in first and "run-loop" not in second
        semantic = client.get("/runs", params={"source": "semantic", "status": "errored"}).text
        assert "run-loop" in semantic and "run-ok-0" not in semantic
        assert "run-ok-0" in client.get("/runs", params={"status": "completed"}).text
        bad = client.get("/runs", params={"status": "lost"}).text
        assert "status is one of" in bad
        bad_time = client.get("/runs", params={"since": "last week"}).text
        assert "query.since" in bad_time


@pytest.mark.parametrize("path", ["/", "/?window=24h", "/?window=30d", "/agents",
                                  "/agents/support", "/evaluators", "/issues",
                                  "/conversations", "/conversations/conv-1"])
def test_each_page_renders_the_orgs_figures(read_only_site: Site, path: str) -> None:
    with read_only_site.client() as client:
        reply = client.get(path)
    assert reply.status_code == 200
    text = reply.text
    if path.startswith("/?") or path == "/":
        assert "TOOL_LOOP" in text and 'id="runs-total">16<' in text
        assert "<rect class=\"bar\"" in text
    if path == "/agents/support":
        assert "Baselines" in text and "Detector config" in text and "TOOL_LOOP" in text
    if path == "/evaluators":
        assert "SEMANTIC_LOOP" in text and "AGENT_LOOP" in text  # findings and calibration
    if path in ("/issues", "/conversations"):
        assert "conv-angry" in text or "USER_FRUSTRATION" in text
    if path == "/conversations/conv-1":
        assert "run-loop" in text


def test_run_detail_shows_the_sampling_decision_once_recorded(site: Site) -> None:
    from semloop.evaluate.sampling import Sample

    with site.client() as client:
        assert "No sampling decision recorded" in client.get("/runs/run-loop").text
        run = site.store.get_run(site.org_id, "run-loop")
        assert run is not None
        site.store.record_sample(site.org_id, run, Sample(True, "structural_signal", 1.0, 0.42))
        page = client.get("/runs/run-loop").text
    assert "evaluated: structural_signal" in page


def _csrf(page: str) -> str:
    token = re.search(r'name="csrf" value="([^"]+)"', page)
    assert token is not None
    return token.group(1)


def _issue_figures(page: str) -> tuple[int, str]:
    marks = re.search(r'<span id="issue-marks">(\d+)</span>', page)
    state = re.search(r'<dd id="issue-state"><span class="state state-(\w+)"', page)
    assert marks is not None and state is not None, page
    return int(marks.group(1)), state.group(1)


def test_not_a_real_issue_marks_a_finding_changes_its_issue_and_can_be_undone(
        site: Site) -> None:
    issue_page = f"/issues/{site.issue_id}"
    found = site.store.issue(site.org_id, site.issue_id)
    assert found is not None
    unmarked = found[1][-1].id  # the seed marked the newest MARKED
    with site.client() as client:
        page = client.get(issue_page).text
        token = _csrf(page)
        # feedback is off: no button, and a forged or early mark is refused
        assert _issue_figures(page) == (MARKED, "active") and "Not a real issue" not in page
        assert "Turn feedback on" in page
        early = client.post(f"/signals/{unmarked}/feedback", data={"csrf": token,
                                                                   "next": issue_page})
        assert early.status_code == 403 and "feedback is off" in early.text
        forged = client.post("/settings/feedback", data={"csrf": "guess", "enabled": "true"})
        assert forged.status_code == 403
        assert client.post("/settings/feedback", data={
            "csrf": token, "enabled": "true", "next": issue_page}).status_code == 303
        page = client.get(issue_page).text
        assert page.count('class="not-real"') == len(ANGRY) - MARKED
        assert page.count("Undo the mark") == MARKED
        assert client.post(f"/signals/{unmarked}/feedback",
                           data={"csrf": "guess"}).status_code == 403
        marked = client.post(f"/signals/{unmarked}/feedback",
                             data={"csrf": token, "next": issue_page})
        assert marked.status_code == 303
        assert marked.headers["location"] == f"{issue_page}#finding-{unmarked}"
        assert _issue_figures(client.get(issue_page).text) == (MARKED + 1, "lowered")
        # the API and the worker read the same mark
        group = site.store.groups_for(site.org_id, "support", "USER_FRUSTRATION")[0]
        assert group.false_positives == MARKED + 1
        # the run the finding is on shows it too, with its undo
        run_page = client.get(f"/runs/{found[1][-1].signal.run_id}").text
        assert "Undo the mark" in run_page and 'class="state state-lowered"' in run_page
        undone = client.post(f"/signals/{unmarked}/feedback/undo",
                             data={"csrf": token, "next": issue_page})
        assert undone.status_code == 303
        assert _issue_figures(client.get(issue_page).text) == (MARKED, "active")
        assert client.post("/signals/999999/feedback/undo",
                           data={"csrf": token}).status_code == 404
        # a structural finding has no button, and marking it anyway is refused
        tool_loop = site.store.list_signals(site.org_id, failure_type="TOOL_LOOP").items[0].id
        refused = client.post(f"/signals/{tool_loop}/feedback", data={"csrf": token})
        assert refused.status_code == 400 and "structural" in refused.text


def test_conversations_filter_by_user_and_finding_and_show_their_findings(read_only_site: Site) -> None:
    def listed(**params: str) -> set[str]:
        with read_only_site.client() as client:
            page = client.get("/conversations", params=params).text
        return set(re.findall(r'href="/conversations/([^"?]+)"', page))

    angry = {c for c, _ in ANGRY}
    assert listed() == angry | {"conv-1"}
    assert listed(user_id="u-7") == {"conv-angry-1", "conv-angry-2"}
    assert listed(evaluator="USER_FRUSTRATION") == angry
    assert listed(evaluator="CONFUSION_LOOP") == set()
    assert listed(has_finding="no") == {"conv-1"}
    with read_only_site.client() as client:
        page = client.get("/conversations/conv-angry-1").text
        assert page.index("conv-angry-1-run-0") < page.index("conv-angry-1-run-1") \
            < page.index("conv-angry-1-run-2")
        assert "Conversation-level findings (1)" in page and "USER_FRUSTRATION" in page
        assert "asked for the refund 3 times" in page
        assert re.search(r'Judged on runs:\s*<a href="/runs/conv-angry-1-run-0">', page)
        assert "query.since" in client.get("/conversations", params={"since": "soon"}).text


def test_overview_shows_evaluation_usage_against_quota_with_its_projection(site: Site) -> None:
    site.store.update_org_semantics(site.org_id, evaluation_quota=40)
    run = site.store.get_run(site.org_id, "run-loop")
    assert run is not None
    for i in range(4):
        charge_run(site.store, site.org_id, dataclasses.replace(run, run_id=f"x-{i}"),
                              counted=True)
    with site.client() as client:
        page = client.get("/").text
    used = 4 + len(ANGRY)  # the seeded conversations' evaluations too
    assert re.search(rf'<span class="big">{used}</span> of 40 semantic evaluations used', page)
    assert f"{40 - used} left" in page and "Projected by month end" in page


def test_agent_page_shows_its_semantic_config(site: Site) -> None:
    from semloop.evaluate.sampling import AgentSemantics

    with site.client() as client:
        assert "No overrides stored" in client.get("/agents/support").text
        site.store.set_agent_semantics(site.org_id, "support", AgentSemantics(
            sample_rate=0.25, budget_monthly=300, evaluators=("USER_FRUSTRATION",),
            semantic_critical=True))
        page = client.get("/agents/support").text
    assert "25.0%" in page and "300 evaluations" in page and "every run is evaluated" in page
    assert 'id="semantic-config"' in page and "USER_FRUSTRATION" in page


def test_evaluator_quality_shows_marks_beside_judge_agreement(site: Site) -> None:
    calls = [judge_call("run-loop", "embedded", True)] + [
        judge_call("run-loop", "llm", agreed, second=True) for agreed in (True, True, False)]
    finish_task(site.store, site.org_id, "run-loop", "USER_FRUSTRATION", attempts=1,
                           signal=None, group=None, calls=calls)
    with site.client() as client:
        page = client.get("/evaluators").text
    row = re.search(r"<tr><td>USER_FRUSTRATION</td>(.*?)</tr>", page, re.DOTALL)
    assert row is not None, page
    cells = re.findall(r'<td class="num">([^<]*)</td>', row.group(1))
    seconds, agreed = len(ANGRY) + 3, SECOND_AGREED + 2
    assert cells == [str(MARKED), "0", str(seconds), f"{100 * agreed / seconds:.1f}%"]
    assert 'class="spark agree"' in row.group(1)


def test_another_orgs_session_cannot_mark_or_unmark_this_orgs_findings(site: Site) -> None:
    found = site.store.issue(site.org_id, site.issue_id)
    assert found is not None
    marked, unmarked = found[1][0].id, found[1][-1].id
    other = site.store.create_org("other")
    site.store.update_org_semantics(other, feedback_enabled=True)
    with site.client(signed_in=False) as client:
        assert site.sign_in(client, key=site.store.create_api_key(other)).status_code == 303
        token = _csrf(client.get("/issues").text)
        assert client.post(f"/signals/{unmarked}/feedback",
                           data={"csrf": token}).status_code == 404
        assert client.post(f"/signals/{marked}/feedback/undo",
                           data={"csrf": token}).status_code == 404
        assert client.get(f"/issues/{site.issue_id}").status_code == 404
    reviews = site.store.reviews(site.org_id, [marked, unmarked])
    assert (reviews[marked].false_positive_marks, reviews[unmarked].false_positive_marks) \
        == (1, 0)
