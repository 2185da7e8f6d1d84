"""axe-core on the pages every kind shares: the lobby, the how-to-play pages and a
replay (each kind's table is checked by its own board test, test_e2e_board_*.py),
and the how-to-play page of every kind drawn from its README, at a phone's width too."""

from __future__ import annotations

from typing import Any

import pytest
import requests

from games import registry
from tests.e2e.board import create_game, overflow_at_phone_width, serious_violations

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

KINDS = [k for k in registry.keys() if k != "tiny"]


def test_the_lobby_has_no_serious_accessibility_violation(page: Any) -> None:
    page.goto("/")
    page.wait_for_selector("[data-testid=create]")
    assert serious_violations(page) == []
    assert overflow_at_phone_width(page) <= 2


@pytest.mark.parametrize("kind", KINDS)
def test_how_to_play_shows_the_kinds_own_words_and_its_rulings(page: Any, server: str, kind: str) -> None:
    rules = requests.get(f"{server}/v1/kinds/{kind}/rules", timeout=10).json()
    page.goto(f"/#/rules/{kind}")
    article = page.locator("[data-testid=how-to-play]")
    article.wait_for()
    text = article.inner_text()
    # The first heading and the first words of the README's section are on the page.
    first_words = next(
        line for line in rules["how_to_play"].splitlines() if line and not line.startswith(("#", "|", "-"))
    )
    assert first_words.replace("**", "").replace("`", "")[:30] in text.replace("\n", " ")
    page.click("text=Read our rulings")
    assert page.locator("[data-testid=rulings]").get_attribute("open") is not None
    assert serious_violations(page) == []
    assert overflow_at_phone_width(page) <= 2


def test_a_table_links_to_its_how_to_play(page: Any) -> None:
    create_game(page, "fortress-royals", 2)
    page.click("[data-testid=how-to-play]")
    page.wait_for_url("**/#/rules/fortress-royals")
    page.locator("[data-testid=how-to-play]").wait_for()


def test_a_replay_has_no_serious_accessibility_violation(page: Any) -> None:
    create_game(page, "fortress-royals", 2)
    page.click("[data-testid=resign]")
    page.click("[data-testid=resign-confirm]")
    page.wait_for_selector(".panel.outcome", timeout=20_000)
    page.click("a:has-text('Open replay')")
    page.wait_for_selector(".replay-seat .board", timeout=20_000)
    assert serious_violations(page) == []
    assert overflow_at_phone_width(page) <= 2
