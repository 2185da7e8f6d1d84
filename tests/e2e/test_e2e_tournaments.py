"""The client's tournament page, in Chromium, against `tablestream serve` and its worker: a
signed-in player creates a Swiss tournament with bots filling the seats, enters and
starts it; the worker pairs the first round, and the page shows the standings of all
four entrants and the round's games, the player's own linked to its table."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_e2e_players import WAIT_MS, sign_up

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


def test_a_player_creates_enters_and_starts_a_tournament_and_sees_its_first_round(page: Any) -> None:
    expect.set_options(timeout=WAIT_MS)
    try:
        sign_up(page, "tourney-ann")
        page.goto("/#/tournaments")
        page.select_option("select[name=kind]", "fortress-royals")
        page.fill("input[name=rounds]", "2")
        page.fill("input[name=seats]", "4")
        page.click(".tournament-form button[type=submit]")
        expect(page.locator("[data-testid=tournament-status]")).to_contain_text("open for entries")
        page.click("[data-testid=enter-tournament]")
        expect(page.locator("[data-testid=tournament-status]")).to_contain_text("1 entered of 4 seats")
        page.click("[data-testid=start-tournament]")
        # The worker pairs round 1: four entrants standing, two games, one of them hers.
        expect(page.locator("[data-testid=standings] tbody tr")).to_have_count(4)
        expect(page.locator(".pairings li a")).to_have_count(2)
        mine = page.locator(".pairings li a", has_text="tourney-ann")
        expect(mine).to_have_count(1)
        mine.click()
        expect(page.locator(".table-head")).to_be_visible()
        page.goto("/#/tournaments")
        expect(page.locator("[data-testid=tournaments] li")).not_to_have_count(0)
    finally:
        expect.set_options(timeout=5_000)
