"""Dragoborne played only on the board in a real browser: a human against a random bot
from the mulligan to the outcome by clicking cards, forts, dice and the board's menu and
action bar (never the fallback action list); the cards show the numbers of their faces
(GET /v1/kinds/dragoborne/cards), the log reads in sentences, the table fits a phone and
axe finds nothing serious. With TABLESTREAM_DOCS_SCREENSHOT=1 a mid-game table is saved
as docs/tables/dragoborne.png."""

from __future__ import annotations

import os
import random
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
    phone_problems,
    serious_violations,
    wait_for_board,
)

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

ROOT = Path(__file__).resolve().parents[2]
DOCS_SHOT = ROOT / "docs" / "tables" / "dragoborne.png"

# The human plays to end the game soon: summon, go to combat, attack, answer what it is
# asked (a target, a block, a broken barrier), and only then end the turn. Dice and moves
# are left out (they come after everything listed), so every turn ends.
PREFER = [
    "target",
    "burst",
    "take",
    "block",
    "no_block",
    "discard",
    "resource",
    "mulligan",
    "summon",
    "attack",
    "combat",
    "end_turn",
]

# Every card drawn with its face on the board, with the numbers it shows.
SHOWN_FACES = """() => [...document.querySelectorAll('.board .card.face[data-card]')].map((n) => ({
  id: n.dataset.card,
  creature: n.classList.contains('db-creature'),
  name: n.querySelector('.named-title')?.textContent || '',
  stats: [...n.querySelectorAll('.face-stat')].map((s) => [
    s.querySelector('.face-stat-label')?.textContent || '', s.querySelector('b')?.textContent || '']),
}))"""

# The kind's ending (dragoborne.js): how the rules ended the game, seats by name.
ENDING = r"Every fort of .+ has fallen, so .+ wins?\.|.+ had to draw from an empty deck, so .+ wins?\."

FACES = """async () => (await (await fetch('/v1/kinds/dragoborne/cards')).json()).cards"""


def key_of(card_id: str) -> str:
    return card_id.split("-", 1)[1].rsplit("-", 1)[0]


def check_faces(page: Any) -> int:
    """Cards in hand show the numbers of their face; creatures on a fort their name. Answers
    how many hand cards were checked."""
    faces = page.evaluate(FACES)
    shown = page.evaluate(SHOWN_FACES)
    checked = 0
    for card in shown:
        face = faces[key_of(card["id"])]
        assert card["name"] == face["name"], card
        if card["creature"]:
            labels = [label for label, _ in card["stats"]]
            assert labels == ["ATK", "EDR"], card  # its current numbers, from the view
            continue
        assert card["stats"] == [[s["label"], str(s["value"])] for s in face["stats"]], (card, face)
        checked += 1
    return checked


def play(page: Any, shot: Path, limit: int = 900, shot_at: int = 40) -> int:
    """board.py's clicks on the board until the outcome shows (as its play_on_board), with
    the mid-game screenshot taken with the board at the top of the window."""
    rng = random.Random(5)
    for clicks in range(limit):
        if wait_for_board(page) == "over":
            return clicks
        board_move(page, PREFER, rng)
        if clicks == shot_at:
            page.wait_for_timeout(400)
            page.locator(".board-box").evaluate("(n) => n.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(200)
            page.screenshot(path=str(shot), full_page=False)
    raise AssertionError(f"no outcome after {limit} clicks on the board")


def test_a_whole_game_on_the_board(page: Any, output: Path) -> None:
    started = time.monotonic()
    page.set_viewport_size(LAPTOP)
    create_game(page, "dragoborne")
    wait_for_board(page)
    assert check_faces(page) >= 5  # the opening hand

    shot = DOCS_SHOT if os.environ.get("TABLESTREAM_DOCS_SCREENSHOT") == "1" else output / "dragoborne-board.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    clicks = play(page, shot)
    page.wait_for_selector(".panel.outcome")

    # The outcome in the rules' words (the kind's ending): every fort of one side fell, or
    # a deck ran out; seats named, never "seat 0".
    detail = page.inner_text("[data-testid=ending-detail]")
    assert re.fullmatch(ENDING, detail), detail
    assert "seat" not in detail
    board = page.inner_text(".board")
    assert "Game over" in board

    # Final hands: the bot's hand is shown card by card, not as backs.
    bot_side = page.locator(".db-side:not(.mine)")
    hand_count = int(bot_side.locator(".db-hand .stat-label").inner_text().split("(")[1].rstrip(")"))
    assert bot_side.locator(".db-hand .card.back").count() == 0
    assert bot_side.locator(".db-hand .card.face").count() == hand_count
    check_faces(page)

    lines = assert_log_in_sentences(page, minimum=20)
    assert any(line.startswith("You summon ") for line in lines), lines[:40]
    assert any(" attack" in line for line in lines)

    assert not serious_violations(page, ".table-grid")
    page.screenshot(path=str(output / "dragoborne-board-over.png"), full_page=True)
    assert not phone_problems(page, "dragoborne"), phone_problems(page, "dragoborne")
    page.screenshot(path=str(output / "dragoborne-board-phone.png"), full_page=True)
    print(f"\ndragoborne on the board: {clicks} clicks, {time.monotonic() - started:.1f} s")
