"""The dashboard's routes: server-rendered pages over the same store the API reads.

Every page but the sign-in page needs a session (:mod:`._session`); every form that
changes state carries its CSRF token. Handlers are plain functions: FastAPI runs them in
its thread pool, as the API runs its store calls.
"""

from __future__ import annotations

import datetime as dt
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlencode

import jinja2
from fastapi import APIRouter, Depends, Form, HTTPException, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response

from ...alert.config import AlertsConfig
from ...detect.config import DetectorConfig
from ...evaluate.findings import FP_PENALTY, FP_THRESHOLD
from ...events import Event, Signal
from ...store import CONVERSATION_EVALUATORS, Page, Position, Store, StoredSignal, key_id_of
from ...store.queries import RUN_STATUSES, SOURCES
from .._auth import org_for_key, store_of
from .._paging import decode_cursor, encode_cursor, parse_time
from .._schemas import RowId
from ..agents import HEALTH_DAYS, agent_health, semantic_config
from ..semantic import issue_body, issues_of, record_feedback, usage_body, withdraw_feedback
from ._calibration import read_reports
from ._charts import runs_chart, sparkline
from ._session import Session, Sessions

__all__ = ["SESSION_COOKIE", "SignInRequired", "router", "templates"]

HERE = Path(__file__).parent
STATIC = HERE / "static"
#: Reachable without a session: the sign-in page's own stylesheet.
PUBLIC_ASSETS = frozenset({"style.css"})
SESSION_COOKIE = "semloop_session"
LOGIN_CSRF_COOKIE = "semloop_login_csrf"

templates = jinja2.Environment(
    loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True,
    undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
templates.filters["when"] = lambda t: "—" if t is None else time.strftime(
    "%Y-%m-%d %H:%M:%S", time.gmtime(t))
templates.filters["pct"] = lambda v: "—" if v is None else f"{100 * v:.1f}%"
templates.globals.update(fp_threshold=FP_THRESHOLD, fp_penalty=FP_PENALTY)

router = APIRouter(include_in_schema=False)


class SignInRequired(Exception):
    """No valid session: the handler sends the browser to the sign-in page."""

    def __init__(self, path: str) -> None:
        self.path = path


def _sessions(request: Request) -> Sessions:
    sessions: Sessions = request.app.state.sessions
    return sessions


def current(request: Request) -> Session:
    """Dependency: the request's session, its key still live for its org; else sign in."""
    session = _sessions(request).read(request.cookies.get(SESSION_COOKIE))
    if session is None or store_of(request).org_for_key_id(session.key_id) != session.org_id:
        raise SignInRequired(request.url.path)
    return session


Signed = Annotated[Session, Depends(current)]


#: Pages may load only this server's own files, and no other site may frame them.
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}


def render(request: Request, name: str, session: Session | None, status: int = 200,
           **context: Any) -> HTMLResponse:
    page = templates.get_template(name).render(
        request=request, path=request.url.path,
        refresh_s=request.app.state.settings.dashboard_refresh_s,
        csrf=_sessions(request).csrf_token(session) if session else "", **context)
    return HTMLResponse(page, status_code=status, headers=HEADERS)


def _missing(request: Request, session: Session, what: str) -> HTMLResponse:
    return render(request, "missing.html", session, status=404, what=what)


# -- sign-in and sign-out ------------------------------------------------------------------

def _safe_next(target: str | None) -> str:
    # Only a path on this server: an open redirect would let a link send users anywhere.
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return "/"


@router.get("/login")
def login_page(request: Request, next: str = "/") -> HTMLResponse:
    token = request.cookies.get(LOGIN_CSRF_COOKIE) or secrets.token_urlsafe(24)
    response = render(request, "login.html", None, login_csrf=token, next=_safe_next(next),
                      error=None)
    _set_cookie(request, response, LOGIN_CSRF_COOKIE, token, max_age=3600)
    return response


@router.post("/login")
async def login(request: Request, key: Annotated[str, Form()],
                csrf: Annotated[str, Form()], next: Annotated[str, Form()] = "/") -> Response:
    expected = request.cookies.get(LOGIN_CSRF_COOKIE)
    target = _safe_next(next)

    def again(error: str, status: int) -> HTMLResponse:
        return render(request, "login.html", None, status=status, login_csrf=expected or "",
                      next=target, error=error)

    if not expected or not secrets.compare_digest(expected, csrf):
        return again("The form expired; sign in again.", 403)
    key = key.strip()
    key_id = key_id_of(key)
    try:
        org_id = await org_for_key(request, key) if key_id else None
    except HTTPException:
        org_id = None
    if org_id is None or key_id is None:
        return again("That API key is not valid (unknown or revoked).", 401)
    response = RedirectResponse(target, status_code=303)
    sessions = _sessions(request)
    _set_cookie(request, response, SESSION_COOKIE, sessions.issue(org_id, key_id),
                max_age=int(sessions.max_age_s))
    response.delete_cookie(LOGIN_CSRF_COOKIE, path="/")
    return response


def _check_csrf(request: Request, session: Session, csrf: str) -> None:
    if not _sessions(request).csrf_ok(session, csrf):
        raise HTTPException(403, "the form's CSRF token is not valid")


@router.post("/logout")
def logout(request: Request, session: Signed, csrf: Annotated[str, Form()]) -> Response:
    _check_csrf(request, session, csrf)
    response = RedirectResponse("/login", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


def _set_cookie(request: Request, response: Response, name: str, value: str,
                max_age: int) -> None:
    response.set_cookie(name, value, max_age=max_age, path="/", httponly=True,
                        samesite="strict", secure=request.url.scheme == "https")


@router.get("/static/{name}")
def static(name: str, request: Request) -> Response:
    if name not in PUBLIC_ASSETS:
        current(request)
    path = STATIC / name
    if "/" in name or name.startswith(".") or not path.is_file():
        raise HTTPException(404, "no such asset")
    return FileResponse(path, headers={"Cache-Control": "private, max-age=300"})


# -- overview ------------------------------------------------------------------------------

WINDOWS = {"24h": (86_400, 3_600), "7d": (7 * 86_400, 86_400), "30d": (30 * 86_400, 86_400)}


@router.get("/")
def overview(request: Request, session: Signed, window: str = "7d") -> HTMLResponse:
    span, bucket = WINDOWS.get(window, WINDOWS["7d"])
    since = time.time() - span
    store = store_of(request)
    activity = store.run_activity(session.org_id, since, bucket)
    runs, flagged = sum(a.runs for a in activity), sum(a.flagged for a in activity)
    return render(request, "overview.html", session, window=window, windows=list(WINDOWS),
                  chart=runs_chart(activity, since, bucket, span // bucket + 1),
                  runs=runs, flagged=flagged, rate=flagged / runs if runs else None,
                  top=store.top_failure_types(session.org_id, since),
                  issues=issues_of(store, session.org_id)[:5],
                  usage=usage_body(store, session.org_id, dt.datetime.now(dt.timezone.utc)))


# -- runs ----------------------------------------------------------------------------------

_RUN_FILTERS = ("agent_id", "status", "failure_type", "source", "since", "until")


@router.get("/runs")
def runs(request: Request, session: Signed, cursor: str | None = None) -> HTMLResponse:
    def fetch(given: dict[str, str], after: Position | None) -> Page[Any]:
        if given.get("status") not in (None, *RUN_STATUSES):
            raise ValueError(f"status is one of {', '.join(RUN_STATUSES)}")
        if given.get("source") not in (None, *SOURCES):
            raise ValueError(f"source is one of {', '.join(SOURCES)}")
        return store_of(request).list_runs(
            session.org_id, limit=50, after=after, agent_id=given.get("agent_id"),
            status=given.get("status"), failure_type=given.get("failure_type"),
            source=given.get("source"), since=parse_time("since", given.get("since")),
            until=parse_time("until", given.get("until")))

    return render(request, "runs.html", session, statuses=RUN_STATUSES, sources=SOURCES,
                  **_filtered(request, "runs", _RUN_FILTERS, cursor, fetch))


def _filtered(request: Request, listing: str, names: Sequence[str], cursor: str | None,
              fetch: Callable[[dict[str, str], Position | None], Page[Any]],
              ) -> dict[str, Any]:
    """A filtered listing page's context: the filters given, the page ``fetch`` reads
    (or the error that names a bad filter) and the link to the next page."""
    given = {k: v for k in names if (v := request.query_params.get(k, "").strip())}
    error, items, next_url = None, [], None
    try:
        page = fetch(given, None if cursor is None else decode_cursor(listing, cursor))
    except (ValueError, HTTPException) as exc:
        error = exc.detail if isinstance(exc, HTTPException) else str(exc)
    else:
        items = page.items
        if page.next is not None:
            next_url = f"/{listing}?" + urlencode(
                {**given, "cursor": encode_cursor(listing, page.next)})
    return {"filters": given, "error": error, "items": items, "next_url": next_url}


def evidence_steps(signal: Signal) -> list[int]:
    """The steps a signal's evidence names: its ``steps``, a loop's stuck stretch (first
    to last), else the step it was found at."""
    evidence: Mapping[str, Any] = signal.evidence
    named = {int(s) for s in evidence.get("steps") or () if isinstance(s, int)}
    stretch = evidence.get("stuck_stretch")
    if isinstance(stretch, Mapping) and isinstance(stretch.get("first_step"), int) \
            and isinstance(stretch.get("last_step"), int):
        named.update(range(stretch["first_step"], stretch["last_step"] + 1))
    return sorted(named) or [signal.step_index]


def _timeline(events: list[Event]) -> list[tuple[int, list[Event]]]:
    steps: list[tuple[int, list[Event]]] = []
    for event in events:
        if steps and steps[-1][0] == event.step_index:
            steps[-1][1].append(event)
        else:
            steps.append((event.step_index, [event]))
    return steps


@router.get("/runs/{run_id}")
def run_detail(run_id: str, request: Request, session: Signed) -> HTMLResponse:
    store = store_of(request)
    run = store.get_run(session.org_id, run_id)
    if run is None:
        return _missing(request, session, f"run {run_id}")
    stored = list(reversed(store.list_signals(session.org_id, run_id=run_id, limit=500).items))
    named: dict[int, list[str]] = {}
    for s in stored:
        for step in evidence_steps(s.signal):
            named.setdefault(step, []).append(s.signal.failure_type)
    return render(request, "run.html", session, run=run, findings=_findings(store, session,
                                                                            stored),
                  named=named, steps=_timeline(run.events),
                  sample=store.sample_of(session.org_id, run_id),
                  org=store.org_semantics(session.org_id))


def _findings(store: Store, session: Session,
              stored: Sequence[StoredSignal]) -> list[dict[str, Any]]:
    """What a page shows of each finding: its evidence's steps, its failure type's alert
    floor, and for a semantic one its recurring issue and the marks people gave it."""
    alerts = AlertsConfig()
    org = store.org_semantics(session.org_id)
    reviews = store.reviews(session.org_id, [s.id for s in stored
                                              if s.signal.source == "semantic"])
    found = []
    for s in stored:
        review = reviews.get(s.id)
        found.append({
            "id": s.id, "signal": s.signal, "steps": evidence_steps(s.signal),
            "floor": alerts.policy(s.signal.failure_type).confidence_floor, "review": review,
            "issue": None if review is None or review.issue is None
            else issue_body(review.issue, org)})
    return found


# -- "not a real issue": false-positive marks and their undo ---------------------------------

def _back(target: str, signal_id: int) -> RedirectResponse:
    return RedirectResponse(f"{_safe_next(target)}#finding-{signal_id}", status_code=303)


def _refused(request: Request, session: Session, exc: HTTPException,
             target: str) -> HTMLResponse:
    return render(request, "refused.html", session, status=exc.status_code,
                  reason=exc.detail, back=_safe_next(target))


@router.post("/signals/{signal_id}/feedback")
def mark_false_positive(signal_id: RowId, request: Request, session: Signed,
                        csrf: Annotated[str, Form()],
                        next: Annotated[str, Form()] = "/issues") -> Response:
    """Record "not a real issue" through the API's own path (its checks and its store
    call), then go back to the page the button was on."""
    _check_csrf(request, session, csrf)
    try:
        record_feedback(store_of(request), session.org_id, signal_id, "false_positive",
                        "marked on the dashboard")
    except HTTPException as exc:
        return _refused(request, session, exc, next)
    return _back(next, signal_id)


@router.post("/signals/{signal_id}/feedback/undo")
def undo_mark(signal_id: RowId, request: Request, session: Signed,
              csrf: Annotated[str, Form()], next: Annotated[str, Form()] = "/issues") -> Response:
    _check_csrf(request, session, csrf)
    try:
        withdraw_feedback(store_of(request), session.org_id, signal_id)
    except HTTPException as exc:
        return _refused(request, session, exc, next)
    return _back(next, signal_id)


@router.post("/settings/feedback")
def feedback_settings(request: Request, session: Signed, csrf: Annotated[str, Form()],
                      enabled: Annotated[bool, Form()] = False,
                      auto_suppress: Annotated[bool, Form()] = False,
                      next: Annotated[str, Form()] = "/issues") -> Response:
    """The org's feedback switches, as ``PATCH /v1/orgs/semantic-feedback`` sets them."""
    _check_csrf(request, session, csrf)
    store_of(request).update_org_semantics(session.org_id, feedback_enabled=enabled,
                                           auto_suppress=auto_suppress)
    return RedirectResponse(_safe_next(next), status_code=303)


# -- agents --------------------------------------------------------------------------------

@router.get("/agents")
def agents(request: Request, session: Signed) -> HTMLResponse:
    return render(request, "agents.html", session,
                  agents=store_of(request).agent_summaries(session.org_id))


@router.get("/agents/{agent_id}")
def agent_detail(agent_id: str, request: Request, session: Signed) -> HTMLResponse:
    since = time.time() - HEALTH_DAYS * 86_400
    store = store_of(request)
    health = agent_health(store, session.org_id, agent_id, since)
    if health is None:
        return _missing(request, session, f"agent {agent_id}")
    config: DetectorConfig = request.app.state.detector_config
    return render(request, "agent.html", session, health=health, days=HEALTH_DAYS,
                  detectors=sorted(config.for_agent(agent_id).items()),
                  semantic=semantic_config(store, session.org_id, agent_id))


# -- the semantic worker's pages, and evaluator quality --------------------------------------

@router.get("/issues")
def issues(request: Request, session: Signed) -> HTMLResponse:
    store = store_of(request)
    return render(request, "issues.html", session, issues=issues_of(store, session.org_id),
                  org=store.org_semantics(session.org_id))


@router.get("/issues/{issue_id}")
def issue_detail(issue_id: RowId, request: Request, session: Signed) -> HTMLResponse:
    store = store_of(request)
    found = store.issue(session.org_id, issue_id)
    if found is None:
        return _missing(request, session, f"recurring issue {issue_id}")
    issue, members = found
    org = store.org_semantics(session.org_id)
    return render(request, "issue.html", session, issue=issue_body(issue, org), org=org,
                  findings=_findings(store, session, members))


_CONVERSATION_FILTERS = ("agent_id", "user_id", "evaluator", "has_finding", "since", "until")


@router.get("/conversations")
def conversations(request: Request, session: Signed,
                  cursor: str | None = None) -> HTMLResponse:
    def fetch(given: dict[str, str], after: Position | None) -> Page[Any]:
        if given.get("has_finding") not in (None, "yes", "no"):
            raise ValueError("has finding is yes or no")
        return store_of(request).list_conversations(
            session.org_id, limit=50, after=after, agent_id=given.get("agent_id"),
            user_id=given.get("user_id"), evaluator=given.get("evaluator"),
            has_finding=None if "has_finding" not in given else given["has_finding"] == "yes",
            since=parse_time("since", given.get("since")),
            until=parse_time("until", given.get("until")))

    return render(request, "conversations.html", session, evaluators=CONVERSATION_EVALUATORS,
                  **_filtered(request, "conversations", _CONVERSATION_FILTERS, cursor, fetch))


@router.get("/conversations/{conversation_id}")
def conversation_detail(conversation_id: str, request: Request,
                        session: Signed) -> HTMLResponse:
    store = store_of(request)
    page = store.list_runs(session.org_id, limit=500, conversation_id=conversation_id)
    if not page.items:
        return _missing(request, session, f"conversation {conversation_id}")
    return render(request, "conversation.html", session, conversation_id=conversation_id,
                  runs=sorted(page.items, key=lambda r: r.started_at),
                  findings=_findings(store, session, store.conversation_findings(
                      session.org_id, conversation_id)),
                  org=store.org_semantics(session.org_id))


@router.get("/evaluators")
def evaluators(request: Request, session: Signed,
               days: Annotated[int, Query(ge=1, le=90)] = 30) -> HTMLResponse:
    since = time.time() - days * 86_400
    store = store_of(request)
    start = since - since % 86_400

    def per_day(points: dict[float, float], missing: float | None = 0.0) -> list[float | None]:
        return [points.get(start + i * 86_400, missing) for i in range(days + 1)]

    series: dict[tuple[str, str], list[Any]] = {}
    for p in store.evaluator_activity(session.org_id, since, 86_400):
        series.setdefault((p.failure_type, p.source), []).append(p)
    rows = []
    for (failure_type, source), found in sorted(series.items()):
        total = sum(p.signals for p in found)
        rows.append({
            "failure_type": failure_type, "source": source, "signals": total,
            "shadow": sum(p.shadow for p in found),
            "mean_confidence": sum(p.mean_confidence * p.signals for p in found) / total,
            "spark": sparkline(per_day({p.bucket: float(p.signals) for p in found}))})
    judged: dict[str, dict[str, Any]] = {}
    for m in store.mark_activity(session.org_id, since, 86_400):
        row = judged.setdefault(m.evaluator, _judged_row())
        row["false_positive"] += m.false_positive
        row["confirmed"] += m.confirmed
        row["marks"][m.bucket] = float(m.false_positive)
    for a in store.judge_agreement(session.org_id, since, 86_400):
        row = judged.setdefault(a.evaluator, _judged_row())
        row["second_opinions"] += a.second_opinions
        row["agreed"] += a.agreed
        row["agreement"][a.bucket] = a.agreed / a.second_opinions
    quality = [{**row, "evaluator": name, "marks": sparkline(per_day(row["marks"])),
                "agreement": sparkline(per_day(row["agreement"], None), peak=1.0),
                "agreement_days": len(row["agreement"])}
               for name, row in sorted(judged.items())]
    directory: Path = request.app.state.calibration_dir
    reports = read_reports(directory) if directory.is_dir() else []
    return render(request, "evaluators.html", session, rows=rows, days=days, reports=reports,
                  reports_dir=str(directory), quality=quality)


def _judged_row() -> dict[str, Any]:
    return {"false_positive": 0, "confirmed": 0, "second_opinions": 0, "agreed": 0,
            "marks": {}, "agreement": {}}
