"""A finished game's replay, in Chromium: it speaks to an onlooker (no seat is "you") and
names the winner only at the last version. And the game analysed from its replay page, against `tablestream serve`
and its worker: the button starts the job, the progress shows, and the chart draws each
seat's expected score over the game with at most three marked moves a seat, one per
decision the analysis holds; a mark moves the slider to its version."""

from __future__ import annotations

import time
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from tests.e2e.test_e2e_players import WAIT_MS

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


def finished_bot_game(server: str) -> str:
    created = requests.post(
        f"{server}/v1/games",
        json={"kind": "fortress-royals", "players": [{"bot": "random"}, {"bot": "greedy"}], "options": {"rounds": 1}},
        timeout=10,
    )
    assert created.status_code == 201, created.text
    game_id = str(created.json()["id"])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if requests.get(f"{server}/v1/games/{game_id}", timeout=10).json()["status"] == "finished":
            return game_id
        time.sleep(0.3)
    raise AssertionError("the bots did not finish")


def test_a_finished_game_is_analysed_from_its_replay_and_charted(page: Any, server: str) -> None:
    expect.set_options(timeout=WAIT_MS * 3)
    try:
        game_id = finished_bot_game(server)
        page.goto(f"/#/replay/{game_id}")
        # The replay speaks to whoever watches as an onlooker, and tells the ending only at the end.
        expect(page.locator(".panel.outcome")).to_be_visible()
        page.click("[aria-label='first version']")
        expect(page.locator(".panel.outcome")).to_be_hidden()
        expect(page.locator("[data-testid=outcome-later]")).to_be_visible()
        page.click("[aria-label='last version']")
        expect(page.locator(".panel.outcome")).to_be_visible()
        views = page.locator(".replay-views").inner_text()
        assert "(you)" not in views and "Your " not in views and "your " not in views, views[:400]
        page.click("[data-testid=analyse]")
        chart = page.locator("[data-testid=analysis-chart]")
        expect(chart).to_be_visible()
        analysis = requests.get(f"{server}/v1/games/{game_id}/analysis", timeout=10).json()
        assert analysis["decisions"], "every decision with a choice is appraised"
        seats = {d["seat"] for d in analysis["decisions"]}
        expect(chart.locator("polyline")).to_have_count(len(seats))
        marks = chart.locator("circle.costly")
        costly = [d for d in analysis["decisions"] if d.get("costly")]
        expect(marks).to_have_count(len(costly))
        assert len(costly) <= 3 * len(seats)
        if costly:
            marked = marks.first.get_attribute("data-version")
            assert int(marked or 0) in {d["version"] for d in costly}
            marks.first.dispatch_event("click")
            expect(page.locator("#replay-slider")).to_have_value(str(marked))
    finally:
        expect.set_options(timeout=5_000)
