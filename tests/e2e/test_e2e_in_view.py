"""What a player needs on their move is in view without scrolling, on every kind's table,
at 1280x800 and on a 390x844 phone: their hand and the board's controls (its action bar)
lie inside the window when the table opens, and again with the page scrolled to the
middle of the board; a menu opened by a card of the hand lies wholly inside the window,
its Cancel too, scrolls nothing, and covers none of the card picked, the places it can
go (the highlighted targets), the hand, the bar and the list of actions beside the board;
axe finds nothing serious with the menu open.

Each table is reached cheaply: the game is made through the API with a stated seed, the
human's seat sends its moves through the API (board.py ``play_through_api``, a fixed
choice of each kind's quick moves) while random bots answer on the server, until the
human is to move with a hand to play from; only then is the table opened in the browser,
in one page shared by every kind."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import requests

from tests.e2e.board import LAPTOP, play_through_api, resize, serious_violations, wait_for_board

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

PHONE = {"width": 390, "height": 844}
Game = dict[str, Any]
Actions = list[dict[str, Any]]


def _first(actions: Actions, *types: str) -> dict[str, Any]:
    """The first action of the first of ``types`` offered, else the first action."""
    for kind in types:
        for action in actions:
            if action["type"] == kind:
                return action
    return actions[0]


def _types(game: Game) -> set[str]:
    return {a["type"] for a in game["legal_actions"]}


def _keep_or(*types: str) -> Callable[[Actions, Game], dict[str, Any]]:
    """Keeps the opening hand (a mulligan of no card), else the first of ``types``."""

    def choose(actions: Actions, _game: Game) -> dict[str, Any]:
        kept = [a for a in actions if a["type"] == "mulligan" and not a["cards"]]
        return kept[0] if kept else _first(actions, *types)

    return choose


@dataclass(frozen=True)
class Position:
    """Where a kind's table is looked at: the human's moves until ``reached`` holds, its
    hand's card ids in the view, the card of the hand whose menu is opened (``pick``, of
    the legal actions), whether that menu lights targets on the board, and whether the
    position has moves on the board's action bar."""

    players: int
    choose: Callable[[Actions, Game], dict[str, Any]]
    reached: Callable[[Game], bool]
    hand: Callable[[dict[str, Any]], list[str]]
    pick: Callable[[Actions], str]
    targets: bool
    bar: bool


def _own(view: dict[str, Any], key: str = "hand") -> list[str]:
    me = next(p for p in view["players"] if p["seat"] == 0)
    return list(me[key])


POSITIONS = {
    # The main phase of the human's first turn: summon from the hand onto a fort, or go to combat.
    "dragoborne": Position(
        2,
        _keep_or("take", "no_block", "resource", "end_turn"),
        lambda g: g["view"]["phase"] == "main" and {"summon", "combat"} <= _types(g),
        _own,
        lambda actions: next(a["card"] for a in actions if a["type"] == "summon"),
        targets=True,
        bar=True,
    ),
    # A turn with two cards in hand or more: play one, or draw (the bar).
    "fortress-siege": Position(
        2,
        lambda actions, _game: _first(actions, "draw"),
        lambda g: "draw" in _types(g) and len(_own(g["view"])) >= 2,
        _own,
        lambda actions: next(a["card"] for a in actions if a["type"] == "discard"),
        targets=False,
        bar=True,
    ),
    # The first attack: a card of the hand, then an end of the attacked hand; or pass (the bar).
    "fortress-royals": Position(
        2,
        lambda actions, _game: _first(actions, "choose_first", "keep_dealt", "place", "keep", "pass"),
        lambda g: {"attack", "pass"} <= _types(g),
        lambda view: [c for h in view["hands"] if h["seat"] == 0 for c in h["cards"]],
        lambda actions: next(a["cards"][0] for a in actions if a["type"] == "attack"),
        targets=True,
        bar=True,
    ),
    # The first placement: a card of the hand, then the Front Line (no move on the bar).
    "dragon-fortress": Position(
        3,
        lambda actions, _game: _first(actions, "stay", "draw", "place"),
        lambda g: g["view"].get("step") == "place",
        _own,
        lambda actions: next(a["card"] for a in actions if a["type"] == "place"),
        targets=True,
        bar=False,
    ),
    # The reclaim phase with a card in hand to play onto the map; or end the turn (the bar).
    "stomping-grounds": Position(
        3,
        lambda actions, _game: _first(
            actions, "place_realm", "place_dragon", "land", "end_phase", "pass", "skip", "burn", "discard"
        ),
        lambda g: (
            g["view"]["phase"] == "reclaim"
            and "end_phase" in _types(g)
            and any(a["type"] == "play" and a.get("at") for a in g["legal_actions"])
        ),
        _own,
        lambda actions: next(a["card"] for a in actions if a["type"] == "play" and a.get("at")),
        targets=True,
        bar=True,
    ),
}

# The table has drawn the version it shows, its log is read up to it, and the board offers
# the human's move: nothing is on its way to draw the table again under the pointer.
AT_REST = """() => {
  const text = (sel) => document.querySelector(sel)?.textContent || '';
  const shown = /version (\\d+)/.exec(text('.title-row'));
  const read = /verified to version (\\d+)/.exec(text('[data-testid=chain]'));
  return !!shown && !!read && Number(read[1]) >= Number(shown[1])
    && !!document.querySelector('.board [data-ref].playable');
}"""

# The boxes the checks need, in the window's pixels: the window; the hand (its cards, each
# clipped to a row that scrolls sideways inside the board, so a long hand in a scrolling
# row counts by what it shows); the action bar; and, with a menu open, the menu, its Cancel
# (clipped to the menu, which may scroll its own list), the card picked, its targets, the
# hand's dock and the table's list of actions.
BOXES = """(hand) => {
  const needed = '.board [data-ref].selected, .board [data-ref].target, .board-bar, .hand-dock, .panel.actions';
  const rect = (n) => { const r = n.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; };
  const cut = (a, b) => ({ left: Math.max(a.left, b.left), top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) });
  const seen = (n) => {
    let r = rect(n);
    for (let p = n.parentElement; p && !p.matches('.board-box'); p = p.parentElement) {
      if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) r = cut(r, rect(p));
    }
    return r;
  };
  const union = (rs) => rs.length ? { left: Math.min(...rs.map((r) => r.left)), top: Math.min(...rs.map((r) => r.top)),
    right: Math.max(...rs.map((r) => r.right)), bottom: Math.max(...rs.map((r) => r.bottom)) } : null;
  const cards = hand.map((id) => document.querySelector(`.board [data-ref="${CSS.escape(id)}"]`));
  const one = (sel) => { const n = document.querySelector(sel); return n ? rect(n) : null; };
  const menu = document.querySelector('.board-menu');
  const cancel = menu?.querySelector('.board-cancel');
  return {
    width: document.documentElement.clientWidth, height: document.documentElement.clientHeight,
    scrollY: window.scrollY,
    missing: hand.filter((id, i) => !cards[i]),
    hand: union(cards.filter(Boolean).map(seen).filter((r) => r.right > r.left)),
    bar: one('.board-bar'),
    menu: menu ? rect(menu) : null,
    cancel: cancel ? cut(rect(cancel), rect(menu)) : null,
    needed: [...document.querySelectorAll(needed)].map((n) => ({ what: n.dataset.ref || n.className, box: rect(n) })),
  };
}"""


def inside(box: dict[str, float] | None, boxes: dict[str, Any]) -> bool:
    """Wholly inside the window (a pixel of rounding aside)."""
    return bool(
        box
        and box["right"] > box["left"]
        and box["bottom"] > box["top"]
        and box["left"] >= -1
        and box["top"] >= -1
        and box["right"] <= boxes["width"] + 1
        and box["bottom"] <= boxes["height"] + 1
    )


def overlap(a: dict[str, float], b: dict[str, float]) -> float:
    """The area two boxes share, in square pixels (edges that touch share none)."""
    width = min(a["right"], b["right"]) - max(a["left"], b["left"])
    height = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0.0, width) * max(0.0, height)


@pytest.fixture(scope="module")
def table_page(browser: Any, server: str) -> Iterator[Any]:
    """One page for every kind's table, in a context of its own holding each game's seat
    token; its JavaScript errors fail the test that made them."""
    context = browser.new_context(viewport=LAPTOP, base_url=server)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on(
        "console",
        lambda m: (
            page.errors.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource")
            else None
        ),
    )
    page.goto("/")
    yield page
    context.close()


def reach(server: str, kind: str) -> tuple[str, str, Game]:
    """A game of ``kind`` made through the API (a stated seed, Tess and random bots) and
    played through it to its position; its id, Tess's seat token and the game then."""
    position = POSITIONS[kind]
    players = [{"name": "Tess"}] + [{"bot": "random"}] * (position.players - 1)
    made = requests.post(
        f"{server}/v1/games",
        json={"kind": kind, "players": players, "seed": f"in-view-{kind}"},
        timeout=10,
    )
    assert made.status_code == 201, made.text
    game_id, token = made.json()["id"], made.json()["seats"][0]["token"]
    _, game = play_through_api(server, game_id, token, position.choose, position.reached, timeout=60)
    return game_id, token, game


def open_table(page: Any, game_id: str, token: str) -> None:
    page.set_viewport_size(LAPTOP)
    held = json.dumps({"0": {"token": token, "name": "Tess"}})
    page.evaluate("([key, held]) => localStorage.setItem(key, held)", [f"tablestream:seats:{game_id}", held])
    page.goto(f"/#/game/{game_id}?seat=0")
    assert wait_for_board(page) in ("board", "menu")
    page.wait_for_function(AT_REST, timeout=20_000)


def at_size(page: Any, size: dict[str, int]) -> None:
    """The window at ``size``, the table drawn again for it, the page at its top: as the
    table opens at that size."""
    resize(page, size)
    page.evaluate("() => window.scrollTo(0, 0)")


def check_in_view(page: Any, hand: list[str], bar: bool, where: str) -> None:
    """The hand's cards, and the action bar where the position has one, inside the window."""
    boxes = page.evaluate(BOXES, hand)
    assert not boxes["missing"], f"{where}: hand cards not drawn: {boxes['missing']}"
    assert inside(boxes["hand"], boxes), (
        f"{where}: the hand is not in view: {boxes['hand']} in {boxes['width']}x{boxes['height']}"
    )
    if bar:
        assert inside(boxes["bar"], boxes), f"{where}: the action bar is not in view: {boxes['bar']}"


def check_menu(page: Any, picked: str, targets: bool, hand: list[str], where: str) -> None:
    """The card ``picked`` clicked: its menu lies inside the window, scrolled nothing and
    covers nothing it needs; Cancel closes it."""
    before = page.evaluate("() => window.scrollY")
    page.locator(f'.board [data-ref="{picked}"].playable').first.click()
    page.locator(".board-menu").wait_for(timeout=5_000)
    boxes = page.evaluate(BOXES, hand)
    assert boxes["scrollY"] == before, f"{where}: opening the menu scrolled the page ({before} -> {boxes['scrollY']})"
    assert inside(boxes["menu"], boxes), f"{where}: the menu runs out of the window: {boxes['menu']}"
    assert inside(boxes["cancel"], boxes), f"{where}: Cancel is not in view: {boxes['cancel']}"
    lit = page.locator(".board [data-ref].target").count()
    assert (lit > 0) == targets, f"{where}: {lit} targets lit"
    covered = [n["what"] for n in boxes["needed"] if overlap(boxes["menu"], n["box"]) > 1]
    assert not covered, f"{where}: the menu covers what it needs: {covered}"
    problems = serious_violations(page)
    assert not problems, f"{where}: {problems}"
    page.locator(".board-menu .board-cancel").click()
    page.wait_for_function("() => !document.querySelector('.board-menu')", timeout=5_000)


@pytest.mark.parametrize("kind", sorted(POSITIONS))
def test_the_hand_the_controls_and_the_menus_stay_in_view(table_page: Any, server: str, kind: str) -> None:
    page = table_page
    page.errors.clear()
    position = POSITIONS[kind]
    game_id, token, game = reach(server, kind)
    hand = position.hand(game["view"])
    assert hand, f"{kind}: no hand at the position"
    picked = position.pick(game["legal_actions"])

    started = time.monotonic()
    open_table(page, game_id, token)
    for size in (LAPTOP, PHONE):
        where = f"{kind} at {size['width']}x{size['height']}"
        at_size(page, size)
        check_in_view(page, hand, position.bar, where)
        # Scrolled to the middle of the board, the hand and the bar are still in view.
        page.evaluate(
            """() => { const r = document.querySelector('.board-box').getBoundingClientRect();
                       window.scrollTo(0, window.scrollY + r.top + r.height / 2 - window.innerHeight / 2); }"""
        )
        check_in_view(page, hand, position.bar, f"{where}, scrolled")
        page.evaluate("() => window.scrollTo(0, 0)")
        check_menu(page, picked, position.targets, hand, where)
    print(f"\n{kind}: {time.monotonic() - started:.1f} s in the browser")
    assert not page.errors, page.errors
