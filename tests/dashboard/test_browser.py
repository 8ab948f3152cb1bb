"""End to end in a real headless Chromium (Debian's, driven by Playwright): sign in, follow
a loop finding's evidence to its steps, mark a finding not a real issue and undo it, open
a conversation with a frustration finding, every page at 1280 and 390 px, pages that
refresh on their own, sign-out. Any console error, page error or request to anything but
127.0.0.1 fails the test. Screenshots go to $SEMLOOP_SCREENSHOTS (default: a tmp dir).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, Playwright, Request, Route, sync_playwright

from conftest import sqlite_copy  # tests/conftest.py, the shared one
from semloop.events import Event
from semloop.store import Store

from .conftest import ANGRY, MARKED, STUCK, TOOL_STEPS, Site, serve_site

WIDTHS = {"wide": (1280, 900), "narrow": (390, 844)}
PAGES = {"overview": "/", "runs": "/runs", "run": "/runs/run-loop", "agents": "/agents",
         "agent": "/agents/support", "issues": "/issues", "conversations": "/conversations",
         "conversation": "/conversations/conv-angry-1", "evaluators": "/evaluators",
         "issue": "/issues/{issue_id}"}


def _chromium() -> str:
    found = os.environ.get("SEMLOOP_CHROMIUM") or shutil.which("chromium")
    if not found:
        pytest.fail("Debian's chromium is missing: scripts/test.sh installs it "
                    "(apt-get install chromium)")
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as pw:
        yield _launch(pw)


def _launch(pw: Playwright) -> Browser:
    # --no-sandbox: the suite runs as root in containers, where Chromium's sandbox cannot.
    return pw.chromium.launch(executable_path=_chromium(), args=["--no-sandbox"])


@pytest.fixture
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = os.environ.get("SEMLOOP_SCREENSHOTS")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        return Path(target)
    return tmp_path_factory.mktemp("screenshots")


@contextlib.contextmanager
def _live(url: str) -> Iterator[Site]:
    # SQLite only: the pages' queries run on both databases in test_pages.py; here the
    # browser is under test.
    with Store(url) as store, serve_site(store, dashboard_refresh_s=1.0) as served:
        yield served


@pytest.fixture
def live(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    with _live(sqlite_copy(sqlite_template, tmp_path_factory)) as served:
        yield served


@pytest.fixture(scope="module")
def read_only_live(sqlite_template: Path,
                   tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """One site for the tests that only read it: pages, and sign-ins and sign-outs, which
    live in the browser context's cookies and change nothing served."""
    with _live(sqlite_copy(sqlite_template, tmp_path_factory)) as served:
        yield served


class Watch:
    """Every console error, page error and off-host request of one browser context."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.external: list[str] = []

    def route(self, route: Route, request: Request) -> None:
        if urlsplit(request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            self.external.append(request.url)
            route.abort()


@pytest.fixture
def page(browser: Browser) -> Iterator[tuple[Page, Watch]]:
    watch = Watch()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.route("**/*", watch.route)
    opened = context.new_page()
    opened.on("console", lambda m: watch.errors.append(m.text) if m.type == "error" else None)
    opened.on("pageerror", lambda e: watch.errors.append(str(e)))
    yield opened, watch
    context.close()
    assert watch.external == [], watch.external
    assert watch.errors == [], watch.errors


def _sign_in(page: Page, site: Site, target: str = "/") -> None:
    page.goto(site.url + target)
    assert "/login" in page.url
    page.fill("#key", site.key)
    page.click("button[type=submit]")
    page.wait_for_url(site.url + target)


def test_sign_in_open_a_loop_run_and_see_its_evidence_on_the_steps(
        read_only_live: Site, page: tuple[Page, Watch], shots: Path) -> None:
    browser_page, _ = page
    _sign_in(browser_page, read_only_live)
    browser_page.click("text=Runs")
    browser_page.click("text=run-loop")
    browser_page.wait_for_url(f"{read_only_live.url}/runs/run-loop")
    named = browser_page.eval_on_selector_all(
        "li.step.named", "els => els.map(e => Number(e.id.replace('step-', '')))")
    assert set(named) == set(TOOL_STEPS) | set(range(STUCK[0], STUCK[1] + 1))
    # the highlight is visible: named steps have the highlight's background, others none
    background = "e => getComputedStyle(e).backgroundColor"
    assert browser_page.eval_on_selector("#step-4", background) == "rgb(255, 244, 194)"
    assert browser_page.eval_on_selector("#step-1", background) == "rgba(0, 0, 0, 0)"
    loop_signal = browser_page.locator("article.signal", has_text="SEMANTIC_LOOP")
    assert "below the floor" in loop_signal.inner_text()
    loop_signal.locator(f"a.step-link[data-step='{STUCK[0]}']").click()
    assert browser_page.url.endswith(f"#step-{STUCK[0]}")
    assert browser_page.locator(f"#step-{STUCK[0]}:target").count() == 1
    browser_page.screenshot(path=str(shots / "run-evidence.png"))


@pytest.mark.parametrize("width", list(WIDTHS))
def test_every_page_renders_at_both_widths_without_errors(
        read_only_live: Site, page: tuple[Page, Watch], shots: Path, width: str) -> None:
    browser_page, _ = page
    wide, high = WIDTHS[width]
    browser_page.set_viewport_size({"width": wide, "height": high})
    browser_page.goto(read_only_live.url + "/login")
    browser_page.screenshot(path=str(shots / f"login-{width}.png"))
    _sign_in(browser_page, read_only_live)
    for name, path in PAGES.items():
        path = path.format(issue_id=read_only_live.issue_id)
        reply = browser_page.goto(read_only_live.url + path)
        assert reply is not None and reply.status == 200, path
        # nothing wider than the window: tables scroll inside their own box
        overflow = browser_page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, (path, width, overflow)
        browser_page.screenshot(path=str(shots / f"{name}-{width}.png"), full_page=True)


# The click posts a form and the page reloads: between documents the element is missing,
# which must read as "not yet", not as an error in the predicate.
_MARKS_ARE = "n => document.querySelector('#issue-marks')?.textContent === String(n)"


def _issue_figures(page: Page) -> tuple[int, str]:
    return int(page.inner_text("#issue-marks")), page.inner_text("#issue-state .state")


def test_mark_a_finding_not_a_real_issue_see_its_issue_change_and_undo(
        live: Site, page: tuple[Page, Watch], shots: Path) -> None:
    browser_page, _ = page
    _sign_in(browser_page, live, "/issues")
    browser_page.click(f"a[href='/issues/{live.issue_id}']")
    browser_page.wait_for_url(f"{live.url}/issues/{live.issue_id}")
    assert _issue_figures(browser_page) == (MARKED, "active")
    assert browser_page.locator("button.not-real").count() == 0  # feedback is off
    browser_page.click("text=Turn feedback on")
    browser_page.wait_for_selector("button.not-real")
    assert browser_page.locator("button.not-real").count() == len(ANGRY) - MARKED
    finding = browser_page.locator("article.signal", has=browser_page.locator("button.not-real"))
    finding_id = finding.get_attribute("id")
    finding.locator("button.not-real").click()
    browser_page.wait_for_function(_MARKS_ARE, arg=MARKED + 1)
    assert browser_page.url.endswith(f"#{finding_id}")
    assert _issue_figures(browser_page) == (MARKED + 1, "lowered")
    assert "lowered" in browser_page.locator(f"#{finding_id} .issue-line").inner_text()
    browser_page.screenshot(path=str(shots / "issue-marked.png"), full_page=True)
    browser_page.locator(f"#{finding_id} button.undo").click()
    browser_page.wait_for_function(_MARKS_ARE, arg=MARKED)
    assert _issue_figures(browser_page) == (MARKED, "active")
    assert browser_page.locator(f"#{finding_id} button.not-real").count() == 1


def test_open_a_conversation_with_a_frustration_finding(
        read_only_live: Site, page: tuple[Page, Watch], shots: Path) -> None:
    browser_page, _ = page
    _sign_in(browser_page, read_only_live)
    browser_page.click("header.top >> text=Conversations")
    browser_page.select_option("select[name=evaluator]", "USER_FRUSTRATION")
    browser_page.fill("input[name=user_id]", "u-7")
    browser_page.click("form.filters button[type=submit]")
    browser_page.wait_for_url("**/conversations?**")
    listed = browser_page.eval_on_selector_all(
        "table.conversations a", "els => els.map(e => e.textContent)")
    assert sorted(listed) == ["conv-angry-1", "conv-angry-2"]
    browser_page.click("text=conv-angry-1")
    browser_page.wait_for_url(f"{read_only_live.url}/conversations/conv-angry-1")
    runs = browser_page.eval_on_selector_all("ol.convo > li > a:first-child",
                                             "els => els.map(e => e.textContent)")
    assert runs == [f"conv-angry-1-run-{i}" for i in range(3)]
    finding = browser_page.locator("article.signal", has_text="USER_FRUSTRATION")
    assert finding.count() == 1
    assert "asked for the refund 3 times" in finding.inner_text()
    assert "Recurring issue" in finding.inner_text()
    browser_page.screenshot(path=str(shots / "conversation-frustration.png"), full_page=True)


def test_pages_refresh_on_their_own(live: Site, page: tuple[Page, Watch]) -> None:
    browser_page, _ = page
    _sign_in(browser_page, live)
    before = browser_page.inner_text("#runs-total")
    now = time.time()
    live.store.add_events(live.org_id, [Event("run.started", "run-new", "support", 0, now, {})])
    browser_page.wait_for_function(
        "n => document.querySelector('#runs-total').textContent !== n", arg=before,
        timeout=10_000)
    assert int(browser_page.inner_text("#runs-total")) == int(before) + 1


def test_sign_out(read_only_live: Site, page: tuple[Page, Watch]) -> None:
    browser_page, _ = page
    _sign_in(browser_page, read_only_live)
    browser_page.click("text=Sign out")
    browser_page.wait_for_url(f"{read_only_live.url}/login")
    browser_page.goto(read_only_live.url + "/runs")
    assert "/login" in browser_page.url


