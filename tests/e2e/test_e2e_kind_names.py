"""One name for each kind, and the lobby's game menu on a phone: the lobby's menu, the
table's heading and the replay's heading call a kind by the registry's title; the menu and
the kind's summary stay inside the create form's card at 390x844; a kind played by a fixed
number of people says "2 players", not a range from a number to itself."""

from __future__ import annotations

from typing import Any

import requests

from tests.e2e.board import create_game

PHONE = {"width": 390, "height": 844}

# The boxes of the create form's card, its game menu and the kind's summary, and how far
# the page runs past the window.
BOXES = """() => {
  const box = (sel) => { const r = document.querySelector(sel).getBoundingClientRect(); return [r.left, r.right]; };
  return { card: box('form.create'), menu: box('#kind'), summary: box('.kind-summary'),
           overflow: document.documentElement.scrollWidth - window.innerWidth };
}"""


def _kinds(server: str) -> list[dict[str, Any]]:
    kinds: list[dict[str, Any]] = requests.get(f"{server}/v1/kinds", timeout=10).json()["kinds"]
    return kinds


def _count_words(kind: dict[str, Any]) -> str:
    low, high = kind["min_players"], kind["max_players"]
    return f"{low} players" if low == high else f"{low}–{high} players"


def _inside(inner: list[float], outer: list[float]) -> bool:
    return inner[0] >= outer[0] - 1 and inner[1] <= outer[1] + 1


def test_the_lobby_menu_fits_a_phone_and_counts_players_as_said(browser: Any, server: str) -> None:
    kinds = _kinds(server)
    assert any(k["min_players"] == k["max_players"] for k in kinds), "no kind with a fixed count to check"
    context = browser.new_context(viewport=PHONE, base_url=server, is_mobile=True)
    page = context.new_page()
    try:
        page.goto("/")
        page.wait_for_selector("[data-testid=create]")
        for kind in kinds:
            page.select_option("#kind", kind["key"])
            boxes = page.evaluate(BOXES)
            assert boxes["overflow"] <= 1, f"{kind['key']}: the lobby is {boxes['overflow']}px wider than a phone"
            assert _inside(boxes["menu"], boxes["card"]), f"{kind['key']}: the game menu runs past its card {boxes}"
            assert _inside(boxes["summary"], boxes["card"]), f"{kind['key']}: the summary runs past its card {boxes}"
            summary = page.inner_text(".kind-summary")
            assert summary.endswith(f"({_count_words(kind)})"), summary
            assert (
                page.evaluate("() => document.querySelector('#kind').selectedOptions[0].textContent") == kind["title"]
            )
    finally:
        context.close()


def test_the_table_and_the_replay_use_the_lobbys_name(page: Any, server: str) -> None:
    kind = next(k for k in _kinds(server) if k["title"].lower() != k["key"].replace("-", " "))
    game = create_game(page, kind["key"], kind["min_players"])
    page.wait_for_function(
        "(title) => document.querySelector('.title-row h2')?.textContent === title", arg=kind["title"]
    )
    page.goto(f"/#/replay/{game}")
    heading = page.wait_for_selector(".replay .title-row h2")
    assert heading.text_content() == f"Replay: {kind['title']}"
