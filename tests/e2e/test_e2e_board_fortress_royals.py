"""Fortress (royals in hand) in a real browser, played only by clicking the board: a
human against a random bot from the lobby to the outcome, in a game of one round (the
kind's `rounds` option, the rulebook's short game). Each hand is drawn on one line with
its two ends marked, also on a phone; a drawn card is placed by clicking an end of your
hand and an attack by clicking a card of your hand, then an end of the attacked hand.
Face-up cards show the numbers of the kind's card faces; the log reads in sentences; the
table fits a phone and axe finds nothing serious. With TABLESTREAM_DOCS_SCREENSHOT=1 a
mid-game table is saved as docs/tables/fortress-royals.png."""

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
    phone_problems,
    play_on_board,
    serious_violations,
    wait_for_board,
)

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

KIND = "fortress-royals"
ROOT = Path(__file__).resolve().parents[2]
# Attacks first (they end a round soonest), then the moves that build the hands.
PREFER = ("attack", "place", "keep", "keep_dealt", "choose_first", "discard_ace", "done", "pass")

# The numbers on every face-up card the board shows, by card id.
SHOWN_FACES = """() => [...document.querySelectorAll('.board .card[data-card]')].map((n) => ({
  id: n.dataset.card,
  chips: [...n.querySelectorAll('.fr-chip')].map((c) => [c.dataset.label, c.dataset.value]),
}))"""
CARDS = "() => fetch('/v1/kinds/fortress-royals/cards').then((r) => r.json())"
# The top edge of each card of a seat's hand (one line: all the same).
HAND_TOPS = """(seat) => [...document.querySelectorAll(`.fr-line[data-seat="${seat}"] .card`)]
  .map((n) => Math.round(n.getBoundingClientRect().top))"""
# The ends of a seat's hand are in view, left of its first card and right of its last.
ENDS_AROUND = """(seat) => {
  const line = document.querySelector(`.fr-line[data-seat="${seat}"]`);
  const cards = [...line.querySelectorAll('.card')].map((n) => n.getBoundingClientRect());
  const left = line.querySelector(`[data-ref="end:${seat}:left"]`).getBoundingClientRect();
  const right = line.querySelector(`[data-ref="end:${seat}:right"]`).getBoundingClientRect();
  return left.right <= cards[0].left + 1 && right.left >= cards.at(-1).right - 1 && right.right <= window.innerWidth;
}"""


def check_faces(page: Any, cards: dict[str, Any]) -> int:
    """Every face-up card's chips say what its face says (strength, a royal's points)."""
    shown = page.evaluate(SHOWN_FACES)
    for card in shown:
        stats = {s["label"]: str(s["value"]) for s in cards[card["id"]]["stats"]}
        assert card["chips"], f"{card['id']} shows no numbers"
        for label, value in card["chips"]:
            assert stats[label] == value, (card, stats)
    return len(shown)


def until(page: Any, selector: str, prefer: tuple[str, ...], limit: int = 80) -> bool:
    """Board moves of the ``prefer`` types (building the hands) until ``selector`` shows;
    False if the game ended first. The page is looked at again once it offers a move, so
    the move that ``selector`` waits for is not made here."""
    for _ in range(limit):
        if page.locator(selector).count():
            return True
        if wait_for_board(page) == "over":
            return False
        if page.locator(selector).count():
            return True
        board_move(page, prefer)
    raise AssertionError(f"{selector} never showed")


def pick_then(page: Any, first: str, then: Any, tries: int = 5) -> None:
    """Click ``first`` on the board, then ``then`` (a locator) once it shows. The table is
    drawn again when a bot moves: a click on a drawing just replaced is tried again."""
    for _ in range(tries):
        page.locator(first).first.click()
        try:
            then.wait_for(timeout=3_000)
            then.click(timeout=3_000)
            return
        except Exception:  # drawn again under the pointer: pick again
            page.keyboard.press("Escape")
    raise AssertionError(f"{first} never led to {then}")


def test_fortress_royals_a_whole_game_by_the_board(page: Any, output: Path) -> None:
    started = time.monotonic()
    page.set_viewport_size(LAPTOP)
    create_game(page, KIND, 2, {"rounds": "1"})
    cards = page.evaluate(CARDS)["cards"]
    assert len(cards) == 52
    assert wait_for_board(page) in ("board", "menu")

    # A drawn card goes to an end: click the end's slot, then the menu's one move.
    until(page, '.fr-end.playable[data-ref="end:0:right"]', ("choose_first", "keep_dealt"))
    choice = page.locator(".board-menu .board-choice", has_text="at the right end")
    pick_then(page, '.fr-end.playable[data-ref="end:0:right"]', choice.first)
    shown = page.locator(".log .event", has_text=re.compile(r"^You draw (10|[2-9AJQK])[♠♥♦♣]\.$"))
    assert shown.count() >= 1
    page.wait_for_selector(".log .event:has-text('You place it at the right end of your hand.')", timeout=15_000)
    assert check_faces(page, cards) >= 1

    # Every hand holds 10 cards (the one last move): each on one line, on a phone too.
    assert until(page, '.board-bar [data-action-type="keep"]', ("place",))
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": LAPTOP["height"] if width > 390 else 844})
        page.wait_for_timeout(200)
        for seat in (0, 1):
            tops = page.evaluate(HAND_TOPS, seat)
            assert len(tops) == 10 and max(tops) - min(tops) <= 8, (width, seat, tops)
            assert page.evaluate(ENDS_AROUND, seat), (width, seat)
        assert page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") == 0
    page.set_viewport_size(LAPTOP)
    assert check_faces(page, cards) >= 10

    # The one last move: a card of your hand, then the card whose place it takes.
    pick_then(
        page,
        '.fr-line[data-seat="0"] .card.playable[data-pos="0"]',
        page.locator('.fr-line[data-seat="0"] .card.target[data-pos="2"]'),
    )
    page.wait_for_selector(".log .event:has-text('You move the card in place 1 to place 3.')", timeout=15_000)

    # The attacking phase, your turn.
    assert until(page, '.board-bar [data-action-type="pass"]', ("keep",))

    shot = None
    if os.environ.get("TABLESTREAM_DOCS_SCREENSHOT") == "1":
        shot = ROOT / "docs" / "tables" / "fortress-royals.png"
        shot.parent.mkdir(parents=True, exist_ok=True)

    # An attack: a card of your hand, then an end of the attacked hand (highlighted).
    pick_then(page, '.fr-line[data-seat="0"] .card.playable', page.locator('.fr-end.target[data-ref="end:1:left"]'))
    page.wait_for_selector(".log .event:has-text('You attack the left end of')", timeout=15_000)

    if shot is not None:  # the table in play, your turn again, no toast over it
        page.wait_for_function(
            "() => document.querySelector('.board-bar [data-action-type=pass]:not([disabled]), .panel.outcome')",
            timeout=15_000,
        )
        page.wait_for_function("() => !document.querySelector('.toast')", timeout=10_000)
        page.wait_for_timeout(500)
        page.screenshot(path=str(shot), full_page=False)

    clicks = play_on_board(page, PREFER, limit=400, seed=5)
    page.wait_for_selector(".panel.outcome")
    assert page.locator("[data-testid=ending]").inner_text().startswith("Winner")
    page.screenshot(path=str(output / "fortress-royals-board.png"), full_page=True)

    # Once the game is over every hand is shown, each face-up card with its numbers.
    assert page.locator(".fr-line .card.back").count() == 0
    check_faces(page, cards)
    assert "Round 1 is over because" in page.locator(".board.royals").inner_text()

    lines = assert_log_in_sentences(page, minimum=30)
    assert any(line.startswith("You place it at the ") for line in lines)
    assert any(re.match(r"Random bot \d (draws a card|places it at the)", line) for line in lines)
    assert any(line.startswith("Round 1 ends because") for line in lines)

    assert not serious_violations(page, ".board-box")
    assert not phone_problems(page, KIND), phone_problems(page, KIND)
    page.screenshot(path=str(output / "fortress-royals-phone.png"), full_page=True)
    print(f"\n{KIND}: {clicks} clicks after the first attack, {time.monotonic() - started:.1f} s")
