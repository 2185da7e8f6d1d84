"""Dragon Fortress in a real browser, played by clicking the board: a human against two
random bots from the lobby to the outcome (three players, the smallest table; the kind has
no option that shortens a fair game). The first turn is played by hand: no Estate Move
(the action bar), a draw (the common supply pile, then the menu), a card of the hand placed
by clicking it and then the Front Line slot; the second by the board up to its placement.

The middle of the game is played through the HTTP API: a whole game is some 35 of the
human's turns and 150 clicks or more, and its middle is only more of the same turns,
while the opening and the late game, with the ending, are what the browser must show.
From the second placement the human seat's own moves (its token, the one the page keeps)
go to ``POST /v1/games/{id}/actions``, by the same choices (the common supply whenever it
may be drawn, else ``PREFER``, ties at random) while the bots answer on the server, until
a turn of the human's begins with ``LATE`` cards or fewer left in the common supply (some
15 of its turns to go, the supply's end and the hands played out after it; the test
checks 8 or more). The page is away meanwhile, then opens the table again, loading the
game and its whole log as a returning player does, and the rest of the game is clicked
on the board to its outcome.

Every card face on the board shows the numbers of the kind's card faces; the log reads in
sentences from the viewer's seat; once the game is over every hand is shown; the table
fits a phone and axe finds nothing serious. With TABLESTREAM_DOCS_SCREENSHOT=1 a table of
the late game, clicked, is saved as docs/tables/dragon-fortress.png."""

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
    back_to_table,
    board_move,
    create_game,
    leave_table,
    log_lines,
    phone_problems,
    play_through_api,
    seat_token,
    serious_violations,
    wait_for_board,
)

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

KIND = "dragon-fortress"
ROOT = Path(__file__).resolve().parents[2]
# The fewest clicks a turn: no Estate Move, a draw, the placement; a Dragon Tower is
# always sacrificed. The common supply is drawn from whenever it may be (see `turn`): the
# game lasts as long as that pile, whose draws bring the dragons and the last, the Shadow
# Terror.
PREFER = ("sacrifice", "stay", "place", "draw", "advance", "purchase", "spare", "move")
COMMON = '.df-pile.playable[data-ref="pile:common"]'
# The hand-over to the board: a turn of the human's that begins with this many cards or
# fewer in the common supply (in 150 random games in memory, 10 to 23 of its turns were
# left then, 15 on average, of 29 to 43 in all).
LATE = 18
# The table's drawing now is marked; a drawing without the mark is a new one.
MARK = "() => { const b = document.querySelector('.board'); if (b) b.dataset.e2eSeen = '1'; }"
REDRAWN = "() => { const b = document.querySelector('.board'); return !!b && !b.dataset.e2eSeen; }"

# The numbers on every card face the board shows: its id and each chip's label and value.
SHOWN_FACES = """() => [...document.querySelectorAll('.board.dragon-fortress .card.face[data-card]')].map((n) => ({
  id: n.dataset.card,
  chips: [...n.querySelectorAll('.face-stat')].map((c) => [c.title, c.querySelector('b').textContent]),
}))"""
# Before the screenshot: the page from its top, without a passing toast.
TO_THE_TOP = "() => { document.querySelectorAll('#toast > *').forEach((n) => n.remove()); window.scrollTo(0, 0); }"
PLACED = """() => {
  const line = [...document.querySelectorAll('.df-seat.mine .df-line .card[data-card]')].map((n) => n.dataset.card);
  return line.length === 2 && line[0].startsWith('estate-flag-');
}"""
CARDS = "() => fetch('/v1/kinds/dragon-fortress/cards').then((r) => r.json())"


def face_key(card: str) -> str:
    return re.sub(r"-\d+$", "", card)


def check_faces(page: Any, cards: dict[str, Any]) -> int:
    """Every card face drawn shows all the numbers of its face, as the faces say them."""
    shown = page.evaluate(SHOWN_FACES)
    for card in shown:
        face = cards[face_key(card["id"])]
        wanted = [[s["label"], str(s["value"])] for s in face["stats"]]
        assert card["chips"] == wanted, (card, face)
    return len(shown)


def pick_then(page: Any, first: str, then: Any, tries: int = 5) -> None:
    """Click ``first`` on the board, then ``then`` (a locator) once it shows; a click on a
    drawing just replaced (a bot moved) is tried again."""
    for _ in range(tries):
        page.locator(first).first.click()
        try:
            then.first.wait_for(timeout=3_000)
            then.first.click(timeout=3_000)
            return
        except Exception:
            page.keyboard.press("Escape")
    raise AssertionError(f"{first} never led to {then}")


def turn(page: Any, rng: random.Random) -> bool:
    """One click on the board (board.py's driver), the common supply first when it is
    offered, then a wait for the table to be drawn again (a click on the drawing an action
    leaves until its answer comes is lost); False once the outcome shows."""
    where = wait_for_board(page)
    if where == "over":
        return False
    page.evaluate(MARK)
    if where == "board" and page.locator(COMMON).count():
        try:
            page.locator(COMMON).first.click(timeout=3_000)
        except Exception:  # drawn again under the pointer
            pass
    else:
        board_move(page, PREFER, rng)
    try:
        page.wait_for_function(REDRAWN, timeout=5_000)
    except Exception:  # nothing to draw again (a click that changed nothing)
        pass
    return True


def choose(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The move the board's driver makes (``turn``), as an action: a draw from the common
    supply whenever it is offered, else the best of ``PREFER``, ties at random."""
    common = [a for a in actions if a["type"] == "draw" and a.get("pile") == "common"]
    if common:
        return common[0]
    rank = [PREFER.index(a["type"]) if a["type"] in PREFER else len(PREFER) for a in actions]
    return rng.choice([a for a, r in zip(actions, rank, strict=True) if r == min(rank)])


def late(game: dict[str, Any]) -> bool:
    """A turn of the human's begins (its Estate Move) with LATE cards or fewer to draw."""
    return bool(game["view"]["step"] == "move" and game["view"]["supply"]["count"] <= LATE)


def play_to_the_outcome(page: Any, limit: int, shot: Path | None, shot_at: int) -> int:
    rng = random.Random(3)
    for clicks in range(limit):
        if not turn(page, rng):
            return clicks
        if shot is not None and clicks == shot_at:
            page.keyboard.press("Escape")
            page.wait_for_timeout(500)
            page.evaluate(TO_THE_TOP)
            page.screenshot(path=str(shot), full_page=False)
    raise AssertionError(f"no outcome after {limit} clicks on the board")


def test_dragon_fortress_a_whole_game_by_the_board(page: Any, server: str, output: Path) -> None:
    started = time.monotonic()
    page.set_viewport_size(LAPTOP)
    game_id = create_game(page, KIND, 3)
    cards = page.evaluate(CARDS)["cards"]
    assert {"crop-field", "guard-tower", "gold", "barn", "spitfire", "shadow-terror"} <= set(cards)

    # Turn 1, by hand: the line is empty, so the Estate Move's only choice is on the bar.
    assert wait_for_board(page) == "board"
    page.locator('.board-bar [data-action-type="stay"]').click()
    page.wait_for_selector(".log .event:has-text('You make no Estate Move.')", timeout=15_000)
    # Draw: the common supply pile, then the menu's one move.
    draw = page.locator(".board-menu .board-choice", has_text="Draw from the common supply")
    pick_then(page, '.df-pile.playable[data-ref="pile:common"]', draw)
    common = r"(Crop Field|Farmstead|Watch Tower|Guard Tower)"
    drawn = page.locator(".log .event", has_text=re.compile(rf"^You draw {common}\.$"))
    drawn.first.wait_for(timeout=15_000)
    # Place: a card of the hand, then the Front Line slot (highlighted as the target).
    hand_card = ".df-hand-mine .card.playable"
    page.wait_for_selector(hand_card, timeout=15_000)
    pick_then(page, hand_card, page.locator('.df-front.target[data-ref="front:0"]'))
    page.wait_for_selector(".log .event:has-text('at your Front Line.')", timeout=15_000)
    page.wait_for_function(PLACED, timeout=15_000)  # the flag and the card placed, in that order
    assert check_faces(page, cards) >= 20  # hand, line, piles, dragons to come

    # Turn 2 up to the placement: axe on the board with the hand's cards playable.
    page.locator('.board-bar [data-action-type="stay"]').click(timeout=60_000)
    pick_then(page, COMMON, draw)
    page.wait_for_selector(hand_card, timeout=15_000)
    mid_game = serious_violations(page, ".board-box")

    # The middle of the game through the API, with the page's own token; then the page
    # opens the table again, as it stands, with the whole log.
    token = seat_token(page, game_id)
    leave_table(page)
    rng = random.Random(11)
    through_api = time.monotonic()
    sent, handed = play_through_api(server, game_id, token, lambda actions, _game: choose(actions, rng), late)
    back_to_table(page, game_id, handed["version"])
    assert check_faces(page, cards) >= 20

    shot = None
    if os.environ.get("TABLESTREAM_DOCS_SCREENSHOT") == "1":
        shot = ROOT / "docs" / "tables" / "dragon-fortress.png"
        shot.parent.mkdir(parents=True, exist_ok=True)

    on_board = time.monotonic()
    clicks = play_to_the_outcome(page, limit=1_500, shot=shot, shot_at=12)
    ended = time.monotonic()
    page.wait_for_selector(".panel.outcome")
    assert page.locator("[data-testid=ending]").inner_text().startswith("Winner")
    detail = page.locator("[data-testid=ending-detail]").inner_text()
    assert re.match(r"(You|Random bot \d) (defeated the Shadow Terror|placed the last card)", detail), detail
    assert "Fortress bonus" in detail and "Seat" not in detail, detail
    page.screenshot(path=str(output / "dragon-fortress-board.png"), full_page=True)

    # Once the game is over every hand is shown, face up with its numbers, and the scores.
    assert page.locator(".df-hand .card.back").count() == 0
    assert page.locator(".df-seat:not(.mine) .df-hand .card.face").count() >= 1
    check_faces(page, cards)
    assert "Final scores" in page.locator(".board.dragon-fortress").inner_text()

    lines = assert_log_in_sentences(page, minimum=100)
    assert any(re.match(r"You draw (Crop Field|Farmstead|Watch Tower|Guard Tower|a Gold)\.$", line) for line in lines)
    assert any(re.match(r"Random bot \d draws a card from the common supply\.$", line) for line in lines)
    assert any(re.search(r"Dragon Call: \w[\w ]+ attacks (your|Random bot \d's) Front Line\.", line) for line in lines)
    assert any(line.endswith("the game ends.") or "the game ends." in line for line in lines)
    others = [line for line in lines if line.startswith("Random bot")]  # a bot's move never says "your"
    assert others and not [line for line in others if re.search(r"\byour\b", line)]

    assert not mid_game, mid_game
    assert not serious_violations(page, ".board-box")
    assert not phone_problems(page, KIND), phone_problems(page, KIND)
    page.screenshot(path=str(output / "dragon-fortress-phone.png"), full_page=True)
    # The board played the late game: your turns begun after the hand-over (their Estate
    # Moves) are many, the ending among them.
    begun = re.compile(r"You (make no Estate Move|move .+ toward your flag)\.$")
    turns = [line for line in log_lines(page) if line["version"] > handed["version"] and begun.match(line["text"])]
    assert len(turns) >= 8, turns
    print(
        f"\n{KIND}: {sent} moves through the API, handed over with {handed['view']['supply']['count']} cards"
        f" in the supply; {clicks} clicks and {len(turns)} turns of yours to the outcome,"
        f" {time.monotonic() - started:.1f} s (the opening {through_api - started:.1f} s, the API"
        f" {on_board - through_api:.1f} s, the board to the outcome {ended - on_board:.1f} s)"
    )
