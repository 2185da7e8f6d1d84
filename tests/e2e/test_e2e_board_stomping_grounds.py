"""Stomping Grounds in a real browser, played only by clicking the board: a human against
two random bots from the lobby to the outcome (a one-round limit, the kind's option to
shorten a game). The realms offered at setup are drawn as cards and the map is a lettered
and numbered grid whose cells are clicked; card faces show the numbers the kind's card
data gives; the log reads in sentences; the table fits a phone and axe finds nothing
serious. With TABLESTREAM_DOCS_SCREENSHOT=1 a mid-game table is saved as
docs/tables/stomping-grounds.png."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.board import (
    LAPTOP,
    assert_log_in_sentences,
    board_move,
    create_game,
    overflow_at_phone_width,
    phone_problems,
    play_on_board,
    serious_violations,
    unmarked_scrollers,
    wait_for_board,
)

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

KIND = "stomping-grounds"
ROOT = Path(__file__).resolve().parents[2]
# Moves that keep a game going and show its parts: realms and dragons placed, challenges
# attempted, flights to their end, cards played; then the moves that end a phase.
PREFER = (
    "place_realm",
    "place_dragon",
    "attempt",
    "fly",
    "duel",
    "push",
    "burn",
    "discard",
    "play",
    "search",
    "raze",
    "move_dragon",
    "roam",
    "break",
    "land",
    "pass",
    "end_phase",
    "skip",
)

# The numbers on every face card the board shows, by its card id.
SHOWN_FACES = """() => [...document.querySelectorAll('.board .card.face[data-card]')].map((n) => ({
  id: n.dataset.card,
  stats: [...n.querySelectorAll('.face-stat')].map((s) => [
    s.querySelector('.face-stat-label').textContent, s.querySelector('b').textContent]),
}))"""
CARDS = "() => fetch('/v1/kinds/stomping-grounds/cards').then((r) => r.json())"


def face_key(card_id: str) -> str:
    found = re.match(r"^s\d+-(.+)-\d+$", card_id)
    return found.group(1) if found else card_id


def check_faces(page: Any, cards: dict[str, Any]) -> int:
    shown = page.evaluate(SHOWN_FACES)
    for card in shown:
        face = cards[face_key(card["id"])]
        assert card["stats"] == [[s["label"], str(s["value"])] for s in face["stats"]], card
    return len(shown)


def test_stomping_grounds_whole_game_by_the_board(page: Any, output: Path) -> None:
    started = time.monotonic()
    page.set_viewport_size(LAPTOP)
    create_game(page, KIND, 3, {"turn_limit": "1"})
    cards = page.evaluate(CARDS)["cards"]
    assert wait_for_board(page) == "board"

    # Setup: the realms of your deck are drawn as cards to choose, the map's open spaces
    # are lettered and numbered cells, and a realm is placed by a card then a cell.
    page.wait_for_selector('.sg-offers [data-ref^="deck:"].playable', timeout=30_000)
    offered = page.locator('.sg-offers [data-ref^="deck:"]')
    assert offered.count() >= 1
    assert check_faces(page, cards) >= offered.count()
    offered.first.click()
    cell = page.locator('.sg-map .realm.spot.target[data-ref="0,0"], .sg-map .realm.spot.target').first
    cell.wait_for(timeout=5_000)
    assert re.fullmatch(r"[A-Z]+\d+", cell.locator(".cell-name").inner_text().strip())
    cell.click()
    page.wait_for_selector(".sg-map .realm:not(.void)", timeout=15_000)
    assert page.locator(".sg-map .axis.col").first.inner_text() == "A"
    assert page.locator(".sg-map .axis.row").first.inner_text() == "1"

    # Play on until a card in hand is picked with its places lit on the map (a realm or a
    # challenge in the reclaim phase): the faces, axe and the docs' picture then.
    picking = """() => !!document.querySelector('.sg-map .dragon-token')
      && !!document.querySelector('.board-menu') && !!document.querySelector('.sg-map .target')"""
    for _ in range(80):
        if wait_for_board(page) == "over" or page.evaluate(picking):
            break
        board_move(page, PREFER)
    assert check_faces(page, cards) >= 1
    mid_game = serious_violations(page, ".board-box")
    if os.environ.get("TABLESTREAM_DOCS_SCREENSHOT") == "1":
        shot = ROOT / "docs" / "tables" / "stomping-grounds.png"
        shot.parent.mkdir(parents=True, exist_ok=True)
        page.evaluate("() => document.querySelector('.board-box').scrollIntoView()")
        page.wait_for_timeout(400)
        page.screenshot(path=str(shot), full_page=False)
    # The map at its widest so far, with its places lit, on a phone: it scrolls in its box,
    # and a line above it says so.
    assert overflow_at_phone_width(page) == 0
    assert not unmarked_scrollers(page), unmarked_scrollers(page)
    page.set_viewport_size(LAPTOP)
    clicks = play_on_board(page, PREFER, limit=600, seed=3)
    page.wait_for_selector(".panel.outcome")
    assert page.locator("[data-testid=ending]").inner_text().startswith("Winner")
    page.screenshot(path=str(output / "stomping-grounds-board.png"), full_page=True)

    # Every hand is shown once the game is over, each card with its numbers.
    assert page.locator(".sg-seat .hand .card.back").count() == 0
    check_faces(page, cards)

    lines = assert_log_in_sentences(page, minimum=20)
    assert any(line.startswith("You ") for line in lines)
    assert any(re.match(r"Random bot \d", line) for line in lines), lines[:40]

    assert not mid_game, mid_game
    assert not serious_violations(page, ".board-box")
    assert not phone_problems(page, KIND), phone_problems(page, KIND)
    page.screenshot(path=str(output / "stomping-grounds-phone.png"), full_page=True)
    print(f"\n{KIND}: {clicks} clicks after setup, {time.monotonic() - started:.1f} s")
