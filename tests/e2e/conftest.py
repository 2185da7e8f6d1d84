"""A running ``tablestream serve`` on the embedded Redis and Debian's Chromium,
driven through Playwright for Python (no browser download)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.served import serving

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "test-output"


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[str]:
    _held(request)
    with serving(tmp_path_factory.mktemp("tablestream") / "data") as base:
        yield base


@pytest.fixture(scope="session")
def browser(request: pytest.FixtureRequest) -> Iterator[object]:
    _held(request)
    if not os.path.exists(CHROMIUM):
        # CI installs Chromium (.ci/run), so there a missing browser is a failure, not a skip.
        message = f"{CHROMIUM} is missing (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright import sync_api

    with sync_api.sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield instance
        instance.close()


# The server and the browser are shared by this process's browser tests, and let go once
# none of the tests it still has queued needs them, rather than at the end of the session:
# an idle ``tablestream serve`` (its RQ scheduler, projector and embedded Redis) spends about
# a second of CPU a minute, and on a 2-core machine the rest of the suite ran for up to 18
# minutes after a worker's last browser test. A browser test that comes later (a worker
# under ``--dist worksteal`` may take more tests from another) starts them again.
SHARED = ("server", "browser")
_HELD: dict[str, Any] = {}


def _held(request: pytest.FixtureRequest) -> None:
    """Note a shared fixture's request, to finish it early (``pytest_runtest_teardown``)."""
    _HELD[str(request.fixturename)] = request


def _needs_shared(item: pytest.Item) -> bool:
    return item.path.is_relative_to(Path(__file__).parent) and any(
        name in SHARED for name in getattr(item, "fixturenames", ())
    )


def queued(item: pytest.Item) -> list[pytest.Item]:
    """The tests this process still has to run after ``item``'s next one: under xdist,
    those in its worker's queue (``--dist worksteal`` may take some away or hand more);
    else those after ``item`` in the session's list."""
    items = item.session.items
    for plugin in item.config.pluginmanager.get_plugins():
        torun = getattr(plugin, "torun", None)
        if torun is not None and hasattr(torun, "lock") and hasattr(plugin, "nextitem_index"):
            with torun.lock() as indices:
                return [items[index] for index in indices if isinstance(index, int)]
    position = items.index(item) if item in items else len(items)
    return items[position + 2 :]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    result = yield
    if nextitem is not None and _HELD and not any(_needs_shared(later) for later in [nextitem, *queued(item)]):
        for name in reversed(SHARED):  # the browser first, then the server it was using
            request = _HELD.pop(name, None)
            if request is not None:
                request._fixturedef.finish(request)  # type: ignore[attr-defined]
    return result


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome: Any = yield
    report = outcome.get_result()
    if report.when == "call":
        item.failed_call = report.failed  # type: ignore[attr-defined]


def _watched_page(browser: Any, server: str) -> Any:
    """A page in a context of its own (a person of its own: its own localStorage), that
    notes its JavaScript errors, a trail of API requests, and any request to another host."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=server)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    trail: list[str] = []
    page.trail = trail
    page.on("console", lambda message: trail.append(f"console {message.type}: {message.text}"))

    def console_error(message: Any) -> None:
        # An answer of 4xx is the browser's note, not the client's: a refused move is
        # shown to the player. Anything else the client logs as an error is a fault.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            errors.append(f"console: {message.text}")

    page.on("console", console_error)
    page.on("requestfailed", lambda req: trail.append(f"failed {req.method} {req.url}: {req.failure}"))
    elsewhere: list[str] = []  # no CDN, no external font: every request goes to the service
    page.elsewhere = elsewhere

    def answered(res: Any) -> None:
        if "/v1/" in res.url:
            trail.append(f"{res.status} {res.request.method} {res.url} etag={res.headers.get('etag')}")

    def requested(req: Any) -> None:
        if "/v1/" in req.url:
            trail.append(f"-> {req.method} {req.url}")
        if not req.url.startswith(server):
            elsewhere.append(req.url)

    page.on("response", answered)
    page.on("request", requested)
    return page


def _close_watched(page: Any, request: pytest.FixtureRequest, suffix: str = "") -> None:
    if getattr(request.node, "failed_call", False):  # keep what the browser showed
        OUTPUT.mkdir(exist_ok=True)
        name = re.sub(r"[^\w.-]+", "_", request.node.name) + suffix
        try:
            page.screenshot(path=str(OUTPUT / f"failed-{name}.png"), full_page=True)
            text = page.url + "\n\n" + page.inner_text("body") + "\n\n" + "\n".join(page.trail[-200:])
            (OUTPUT / f"failed-{name}.txt").write_text(text)
        except Exception:  # the page itself may be gone
            pass
    page.context.close()
    assert not page.errors, f"JavaScript errors in the page{suffix}: {page.errors}"
    assert not page.elsewhere, f"requests to other hosts{suffix}: {page.elsewhere}"


@pytest.fixture()
def page(browser: object, server: str, request: pytest.FixtureRequest) -> Iterator[object]:
    watched = _watched_page(browser, server)
    yield watched
    _close_watched(watched, request)


@pytest.fixture()
def people(browser: object, server: str, request: pytest.FixtureRequest) -> Iterator[Callable[[str], Any]]:
    """Opens a page per person, each in a browser context of its own: ``people("ann")``."""
    opened: list[tuple[str, Any]] = []

    def open_page(name: str) -> Any:
        watched = _watched_page(browser, server)
        opened.append((name, watched))
        return watched

    yield open_page
    problems = []
    for name, watched in opened:
        try:
            _close_watched(watched, request, f"-{name}")
        except AssertionError as problem:  # close every context before failing
            problems.append(str(problem))
    assert not problems, problems


@pytest.fixture(scope="session")
def output() -> Path:
    OUTPUT.mkdir(exist_ok=True)
    return OUTPUT
