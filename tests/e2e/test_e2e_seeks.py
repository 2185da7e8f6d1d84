"""Quick play in Chromium against `tablestream serve` and its worker: two people seek the
same game from the lobby, the worker pairs them, and each page opens the same table."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_e2e_players import WAIT_MS, sign_up

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


def test_two_people_seek_the_same_game_and_meet_at_one_table(people: Callable[[str], Any]) -> None:
    expect.set_options(timeout=WAIT_MS)
    try:
        pages = [people("seek-ann"), people("seek-bob")]
        for page, name in zip(pages, ("seek-ann", "seek-bob"), strict=True):
            sign_up(page, name)
            page.goto("/#/")
            page.select_option("[data-testid=seek-kind]", "fortress-royals")
        pages[0].click("[data-testid=seek]")
        expect(pages[1].locator("[data-testid=seek-list]")).to_contain_text("seek-ann")
        pages[1].click("[data-testid=seek]")
        games = []
        for page in pages:
            expect(page).to_have_url(re.compile(r"#/game/[^?]+"))
            games.append(page.url.split("#/game/")[1].split("?")[0])
        assert games[0] == games[1], "both at one table"
        expect(pages[0].locator(".table-head")).to_be_visible()
    finally:
        expect.set_options(timeout=5_000)
