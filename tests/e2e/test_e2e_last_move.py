"""The last move on the table: after a move, what it changed is marked with a ring that
stays until the next one, and the cards it moved glide to their new places, except for a
person who asks for reduced motion, for whom nothing on the board moves."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.board import board_move, create_game, wait_for_board

# Counts every animation the page starts on the board's elements.
COUNT_GLIDES = """
window.glides = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  if (this.closest && this.closest('.board')) window.glides += 1;
  return animate.apply(this, args);
};
"""

# The version the table's heading shows.
VERSION = "() => Number(document.querySelector('.title-row').textContent.match(/version (\\d+)/)[1])"

# The marked elements, each with its ring as drawn.
MARKS = """() => [...document.querySelectorAll('.board .last-move')].map((n) => getComputedStyle(n).boxShadow)"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_last_move_is_marked_and_moves_only_without_reduced_motion(page: Any, motion: str) -> None:
    page.emulate_media(reduced_motion=motion)
    page.add_init_script(COUNT_GLIDES)
    create_game(page, "fortress-siege", 2)
    start = page.evaluate(VERSION)
    assert not page.evaluate(MARKS), "the first drawing marks nothing"
    for _ in range(20):
        if wait_for_board(page) == "over" or page.evaluate(MARKS):
            break
        board_move(page)
    rings = page.evaluate(MARKS)
    assert rings and all(ring != "none" for ring in rings), rings
    now = page.evaluate(VERSION)
    assert now > start
    glides = page.evaluate("() => window.glides")
    assert (glides == 0) if motion == "reduce" else (glides > 0), glides
