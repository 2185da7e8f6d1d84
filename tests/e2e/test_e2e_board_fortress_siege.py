"""fortress-siege in a real browser, played only on the board: a human seat against a
random bot, from the lobby to the outcome, by clicking the cards in hand, the characters,
the Fortresses, the menu by a selection and the board's action bar (never the fallback
list of actions). On the way: the card faces on the board show the numbers of
GET /v1/kinds/fortress-siege/cards, the log reads in sentences, the table fits a phone's
width and axe-core finds nothing serious. Winds of Fate (one deck for the two players,
27 cards a Fortress) keeps the game short; it is still played to its outcome.

With TABLESTREAM_DOCS_SCREENSHOT=1 a mid-game screenshot of the table at 1280x800 is saved
as docs/tables/fortress-siege.png."""

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
    overflow_at_phone_width,
    phone_problems,
    serious_violations,
    wait_for_board,
)

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

ROOT = Path(__file__).resolve().parents[2]
DOCS_SHOT = ROOT / "docs" / "tables" / "fortress-siege.png"

# The human's plan, best first: batter the bot's Fortress, build attackers, defend.
PREFER = [
    "attack",
    "barrage",
    "equip",
    "armor",
    "deploy",
    "angel_of_death",
    "add_shield",
    "assign_defender",
    "done_defending",
    "done_attacking",
    "draw",
    "angel_of_life",
    "discard",
    "discard_character",
]


def rank(types: list[str], text: str) -> tuple[int, int]:
    """Lower is better: by action type, then an attack on a Fortress first, and never
    one's own Fortress or characters as a target when another choice is there."""
    by_type = min((PREFER.index(t) for t in types if t in PREFER), default=len(PREFER))
    words = text.lower()
    own = "your own" in words or "send your" in words
    fortress = "fortress" in words
    return by_type, 2 if own else (0 if fortress else 1)


FACES_SHOWN = """async () => {
  const faces = (await (await fetch('/v1/kinds/fortress-siege/cards')).json()).cards;
  const out = [];
  for (const node of document.querySelectorAll('.board [data-card]')) {
    const id = node.dataset.card;
    const face = faces[id.replace(/\\.\\d+$/, '')];
    if (!face) { out.push(`${id}: no face`); continue; }
    const text = node.textContent;
    for (const s of face.stats || []) {
      if (typeof s.value !== 'number' || text.includes(String(s.value))) continue;
    out.push(`${id}: ${s.label} ${s.value} not shown in "${text}"`);
    }
    if (!(node.title || '').includes(face.name)) out.push(`${id}: the title does not name ${face.name}`);
  }
  return {checked: document.querySelectorAll('.board [data-card]').length, problems: out};
}"""


def check_faces(page: Any, seen: dict[str, int]) -> None:
    got = page.evaluate(FACES_SHOWN)
    assert not got["problems"], got["problems"]
    seen["cards"] += got["checked"]


def standing(page: Any, clicks: int) -> bool:
    """A table worth a picture: a character on the board and cards in your hand (or late enough)."""
    in_hand = page.locator(".hand-dock .hand .siege-card").count()
    return clicks >= 30 or (page.locator(".board .character").count() > 0 and in_hand >= 2)


def test_fortress_siege_played_on_the_board(page: Any, output: Path) -> None:
    started = time.monotonic()
    page.set_viewport_size(LAPTOP)
    create_game(page, "fortress-siege", 2, {"winds_of_fate": True})
    rng = random.Random(7)
    docs = os.environ.get("TABLESTREAM_DOCS_SCREENSHOT") == "1"
    seen = {"cards": 0}
    clicks = 0
    checked_at_phone = False
    shot = False
    timings: list[float] = []
    waits: list[float] = []
    while True:
        t0 = time.monotonic()
        state = wait_for_board(page)
        waits.append(time.monotonic() - t0)
        if state == "over":
            break
        if clicks % 4 == 0:
            check_faces(page, seen)
        # the docs' screenshot: mid-game, a character on the board and cards in hand (or late enough)
        if docs and not shot and state == "board" and clicks >= 6 and standing(page, clicks):
            page.evaluate("() => window.scrollTo(0, 0)")
            page.wait_for_timeout(400)
            DOCS_SHOT.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(DOCS_SHOT), full_page=False)
            shot = True
        if clicks >= 10 and state == "board" and not checked_at_phone:
            # mid-game: a few moves at a phone's width, the table never wider than it, and
            # axe finds nothing serious on the table
            for _ in range(6):
                assert overflow_at_phone_width(page) <= 0, "the table is wider than a 390 px phone"
                if wait_for_board(page) == "over":
                    break
                board_move(page, rng=rng, rank=rank)
                clicks += 1
            page.screenshot(path=str(output / "fortress-siege-board-390.png"), full_page=True)
            page.set_viewport_size(LAPTOP)
            while wait_for_board(page) == "menu":  # no selection open: the board as it rests
                board_move(page, rng=rng, rank=rank)
                clicks += 1
            page.wait_for_timeout(300)
            violations = serious_violations(page, ".board-box")
            assert not violations, violations
            checked_at_phone = True
            continue
        t0 = time.monotonic()
        board_move(page, rng=rng, rank=rank)
        clicks += 1
        timings.append(time.monotonic() - t0)
        assert clicks < 900, "no outcome after 900 clicks on the board"
    assert checked_at_phone, "the game ended before the mid-game checks"
    assert shot or not docs, "the game ended before the docs screenshot"
    # Checked at least twice (mid-game and at the end), each time every face on the board:
    # a short game of Winds of Fate still shows a hand and a Fortress's worth.
    assert seen["cards"] >= 10, "cards with faces were drawn on the board"

    # the outcome, in words, with every hand shown
    page.wait_for_selector("[data-testid=ending]")
    assert page.locator("[data-testid=ending]").inner_text().startswith("Winner:")
    assert page.locator(".board.siege .siege-phase").inner_text() == "Game over"
    assert page.locator(".board.siege .badge.win").count() == 1
    check_faces(page, seen)
    assert page.locator(".board.siege .seat-zone.out .badge.out").count() == 1, "the loser is marked out"
    assert page.locator(".board.siege .hand .card.back").count() == 0, "every hand is shown once the game is over"
    violations = serious_violations(page, ".board-box")
    assert not violations, violations

    lines = assert_log_in_sentences(page, minimum=30)
    assert any(line.startswith("You draw the ") for line in lines), "your own draws are named"
    assert any(re.match(r"^Random bot \d draws (a card|\d cards)\.$", line, re.I) for line in lines), (
        "the bot's draws are told without the card"
    )
    assert any("Fortress loses" in line or "fires a Barrage" in line for line in lines)
    assert any(line.endswith("out of the game.") for line in lines)
    assert not phone_problems(page, "fortress-siege"), phone_problems(page, "fortress-siege")
    page.screenshot(path=str(output / "fortress-siege-board-over.png"), full_page=True)
    elapsed = time.monotonic() - started
    spent = f"clicking {sum(timings):.0f} s, waiting {sum(waits):.0f} s"
    print(f"fortress-siege on the board: {clicks} clicks, {elapsed:.0f} s ({spent})")


def test_the_client_has_a_sentence_for_every_event_and_a_label_for_every_action() -> None:
    """Every event type the kind's evolve knows is a case of the module's describe, and
    every action type its schemas list is a case of its label (no generic summing up)."""
    from games.fortress_siege import GAME
    from games.fortress_siege.evolve import EVOLVE

    module = (ROOT / "service" / "client" / "kinds" / "fortress_siege.js").read_text()
    sentences = module[module.index("function sentence(") :]
    labels = module[module.index("  label(a, ctx) {") : module.index("  // A sentence begins")]
    missing = [kind for kind in EVOLVE if f'case "{kind}"' not in sentences]
    assert not missing, f"events without a sentence: {missing}"
    unlabelled = [kind for kind in GAME.action_schemas() if f'case "{kind}"' not in labels]
    assert not unlabelled, f"actions without a label: {unlabelled}"
