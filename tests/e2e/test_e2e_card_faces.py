"""Card faces never cut their names: on every kind's board, at 1280x800 and on a 390x844
phone, each card's name and type label fit inside the card (no word cut off at its edge,
nothing pushed out of its box), and the type label does not run under the card's "i"."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.board import each_turn_looked_at

# The kinds whose cards are drawn from named faces (the others are playing cards).
KINDS = ["dragoborne", "dragon-fortress", "stomping-grounds"]
SIZES = [(1280, 800), (390, 844)]

# Every name and type label on the board that is cut: wider than its box, outside its
# card, or (a label) under the card's "i" button.
CUT = """() => {
  const out = [];
  const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1
    && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  for (const card of document.querySelectorAll('.board .card')) {
    const box = card.getBoundingClientRect();
    const info = card.querySelector('.face-info')?.getBoundingClientRect();
    for (const part of card.querySelectorAll('.named-title, .named-band')) {
      if (!part.textContent.trim()) continue;
      const r = part.getBoundingClientRect();
      const text = part.textContent.trim();
      if (part.scrollWidth > part.clientWidth + 1) out.push(`${text}: wider than its box`);
      else if (!inside(r, box)) out.push(`${text}: outside its card`);
      else if (info && part.classList.contains('named-band')) {
        const range = document.createRange(); range.selectNodeContents(part);
        if ([...range.getClientRects()].some((line) => meet(line, info))) out.push(`${text}: under the i`);
      }
    }
  }
  return out;
}"""


@pytest.mark.parametrize("kind", KINDS)
def test_no_card_face_cuts_its_name(page: Any, kind: str) -> None:
    faces = 0
    for _ in each_turn_looked_at(page, kind, 3):
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_function("() => document.querySelector('.board')")
            assert page.evaluate(CUT) == [], (kind, width)
            faces += page.locator(".board .card .named-title").count()
        page.set_viewport_size({"width": 1280, "height": 800})
    assert faces, f"no named card was drawn in {kind}"
