"""Every term of a kind's vocabulary explains itself (service/client/terms.js): on every
kind's table, at 1280x800 and on a 390x844 phone, each term the table shows has its
explanation, a term under the mouse shows it, a term tapped on the phone shows it in a
popover that lies wholly inside the window, Escape dismisses it, and the keyboard's focus
brings it back. And every kind's glossary (its module's ``terms``) is short text of our
own: each term explained in at most 240 characters, found on a page by its own name, and
never the rulebook's words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games import registry
from tests.e2e.board import LAPTOP, create_game, serious_violations, wait_for_board

KINDS = sorted(key for key in registry.keys() if key != "tiny")
PHONE = {"width": 390, "height": 844}
ROOT = Path(__file__).resolve().parents[2]
# The rulebooks lie beside the checkout, never in it; where they are, no explanation may
# share this many words in a row with its kind's rulebook.
RULEBOOKS = ROOT.parent / "shared" / "rules"
SHARED_WORDS = 8
LONGEST = 240

# Every term marked on the table: its words, its explanation, whether that describes it
# (or, inside a control, the control), whether it is a tab stop and whether it is drawn.
SHOWN = """() => [...document.querySelectorAll('.table dfn.term')].map((n) => {
  const inControl = !n.hasAttribute('tabindex');
  const describer = inControl ? n.parentElement.closest('[aria-describedby]') : n;
  return { term: n.dataset.term, text: n.textContent, inControl,
    explanation: document.getElementById(n.dataset.def)?.textContent || '',
    described: (describer?.getAttribute('aria-describedby') || '').split(' ').includes(n.dataset.def),
    stop: n.tabIndex === 0, drawn: n.checkVisibility() };
})"""

# Tags a term drawn inside the window's width under ``where`` with data-e2e-term: the first,
# or (``stop``) the tab stop nearest the window's right edge, whose popover must be pulled
# back inside the window. Answers its explanation, or null.
TAG = """([where, stop]) => {
  document.querySelectorAll('[data-e2e-term]').forEach((n) => n.removeAttribute('data-e2e-term'));
  const fits = (n) => { const r = n.getBoundingClientRect();
    return n.checkVisibility() && r.left >= 0 && r.right <= document.documentElement.clientWidth; };
  const right = (n) => n.getBoundingClientRect().right;
  const terms = [...document.querySelectorAll(`${where} dfn.term`)].filter(fits);
  const term = stop ? terms.filter((n) => n.tabIndex === 0).sort((a, b) => right(b) - right(a))[0] : terms[0];
  if (!term) return null;
  term.dataset.e2eTerm = '1';
  return document.getElementById(term.dataset.def).textContent;
}"""

# The popover as drawn: its text, its box and the window's.
TIP = """() => { const tip = document.getElementById('term-tip');
  if (!tip || tip.hidden || !tip.isConnected) return null;
  const r = tip.getBoundingClientRect();
  return { text: tip.innerText.replace(/\\s+/g, ' ').trim(), left: r.left, right: r.right, top: r.top, bottom: r.bottom,
           width: document.documentElement.clientWidth, height: document.documentElement.clientHeight,
           focused: document.activeElement?.dataset?.e2eTerm === '1' }; }"""

# Each kind's glossary, and each term's own name marked on a page alone: the terms found in it.
GLOSSARIES = """async (kinds) => {
  const { kindModule } = await import('/client/kinds/index.js');
  const { markTerms, useTerms } = await import('/client/terms.js');
  const out = {};
  for (const kind of kinds) {
    const terms = kindModule(kind).terms || [];
    useTerms(kind, terms);
    out[kind] = terms.map((t) => {
      const line = document.createElement('p');
      line.textContent = t.term;
      markTerms(line, kind);
      const found = [...line.querySelectorAll('dfn.term')].map((n) => n.dataset.term);
      return { term: t.term, text: t.text, found };
    });
  }
  return out;
}"""


@pytest.fixture()
def touch_page(browser: Any, server: str) -> Iterator[Any]:
    """A page on a screen that takes taps as well as a mouse (a phone's taps need one), in
    a context of its own; its JavaScript errors fail the test."""
    context = browser.new_context(viewport=LAPTOP, base_url=server, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda m: (
            errors.append(m.text) if m.type == "error" and not m.text.startswith("Failed to load resource") else None
        ),
    )
    yield page
    context.close()
    assert not errors, errors


def at_rest(page: Any) -> None:
    """The table is the player's alone to move (no bot still to act, as in dragoborne's
    mulligan where both seats are) and has read its log to the version shown: no answer is
    on its way to draw it again under a pointer."""
    assert wait_for_board(page) in ("menu", "board")
    page.wait_for_function(
        """() => { const text = (sel) => document.querySelector(sel)?.textContent || '';
                    const shown = /version (\\d+)/.exec(text('.title-row'));
                    const read = /verified to version (\\d+)/.exec(text('[data-testid=chain]'));
                    const others = document.querySelectorAll('.seat-chip.to-act:not(.me)').length;
                    return shown && read && Number(read[1]) >= Number(shown[1]) && others === 0; }""",
        timeout=20_000,
    )


def explained(page: Any, where: str, how: str, stop: bool) -> tuple[str, dict[str, Any]]:
    """A term under ``where`` hovered or tapped (``how``): its explanation and the popover
    then shown. Tried again when the table was drawn anew under the pointer."""
    for _ in range(3):
        explanation = page.evaluate(TAG, [where, stop])
        assert explanation, f"no term drawn in {where}"
        term = page.locator("[data-e2e-term]")
        try:
            if how == "hover":
                term.hover(timeout=3_000)
            else:
                term.tap(timeout=3_000)
            tip = page.wait_for_function(TIP, timeout=3_000).json_value()
            return str(explanation), tip
        except Exception:  # drawn again: the term is another node now
            continue
    raise AssertionError(f"no popover for a term of {where} by {how}")


def redrawn_at(page: Any, size: dict[str, int]) -> None:
    """The window at ``size``, once the table has been drawn again for it."""
    page.evaluate("() => document.querySelector('.board').dataset.e2eOld = '1'")
    page.set_viewport_size(size)
    page.wait_for_function("() => document.querySelector('.board') && !document.querySelector('.board[data-e2e-old]')")


def inside(tip: dict[str, Any]) -> bool:
    return bool(0 <= tip["left"] <= tip["right"] <= tip["width"] and 0 <= tip["top"] <= tip["bottom"] <= tip["height"])


@pytest.mark.parametrize("kind", KINDS)
def test_every_term_on_the_table_explains_itself(touch_page: Any, kind: str) -> None:
    page = touch_page
    create_game(page, kind, registry.get(kind).min_players)  # type: ignore[union-attr]
    at_rest(page)

    shown = page.evaluate(SHOWN)
    assert any(t["drawn"] for t in shown), f"no term marked on the {kind} table"
    unexplained = [t["text"] for t in shown if t["term"] not in t["explanation"] or not t["described"]]
    assert not unexplained, f"terms with no explanation: {unexplained}"
    drawn = [t for t in shown if t["drawn"]]
    unreached = {t["term"] for t in drawn if not t["inControl"]} - {t["term"] for t in drawn if t["stop"]}
    assert not unreached, f"terms the keyboard never reaches: {unreached}"

    explanation, tip = explained(page, ".board-box", "hover", stop=False)
    assert tip["text"] == explanation, (tip, explanation)
    page.mouse.move(1, 1)
    page.wait_for_function(f"() => !({TIP})()", timeout=3_000)

    redrawn_at(page, PHONE)
    explanation, tip = explained(page, ".board-box .board", "tap", stop=True)
    assert tip["text"] == explanation, (tip, explanation)
    assert inside(tip), f"the popover runs out of the window: {tip}"
    assert tip["focused"], "the tapped term does not hold the focus"
    assert serious_violations(page) == []
    page.keyboard.press("Escape")
    page.wait_for_function(f"() => !({TIP})()", timeout=3_000)

    # Away by the keyboard and back: the term focused by a key shows its popover again.
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    tip = page.wait_for_function(TIP, timeout=3_000).json_value()
    assert tip["text"] == explanation and tip["focused"], (tip, explanation)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def _runs(words: list[str], size: int) -> set[str]:
    return {" ".join(words[i : i + size]) for i in range(len(words) - size + 1)}


def test_every_kinds_glossary_is_short_and_our_own(page: Any) -> None:
    page.goto("/")
    page.wait_for_selector("[data-testid=create]")
    glossaries = page.evaluate(GLOSSARIES, KINDS)
    for kind in KINDS:
        terms = glossaries[kind]
        assert len(terms) >= 10, f"{kind}: only {len(terms)} terms"
        names = [t["term"].lower() for t in terms]
        assert len(set(names)) == len(names), f"{kind}: a term listed twice"
        book = RULEBOOKS / f"{kind}.txt"
        copied = _runs(_words(book.read_text()), SHARED_WORDS) if book.exists() else set()
        for t in terms:
            text = t["text"]
            name = f"{kind} {t['term']}"
            assert 20 <= len(text) <= LONGEST, f"{name}: {len(text)} characters"
            assert (text[0].isupper() or text[0].isdigit()) and text.endswith("."), f"{name}: not a sentence: {text}"
            assert t["found"] and set(t["found"]) == {t["term"]}, f"{name}: its name is found as {t['found']}"
            taken = _runs(_words(text), SHARED_WORDS) & copied
            assert not taken, f"{name}: the rulebook's words: {taken}"
