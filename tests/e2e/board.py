"""Drivers the e2e tests share: a game played only by clicking the board (what
``service/client/boardplay.js`` draws: the board's elements, the menu by a selection
and the action bar; never the fallback list), the middle of a game played through the
HTTP API with the page's own seat token (``play_through_api``), the log read as
sentences, the page's width on a phone, and axe-core's accessibility check."""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import requests

from games import registry

DOCS_TABLES = Path(__file__).resolve().parents[2] / "docs" / "tables"
# The laptop screen the board tests play on (a phone is 390x844).
LAPTOP = {"width": 1280, "height": 800}

# What the page offers now: the outcome, or the board's controls (a menu first).
STATE = """() => {
  if (document.querySelector('.panel.outcome')) return 'over';
  if (document.querySelector('.board-menu .board-choice:not([disabled])')) return 'menu';
  if (document.querySelector('.board-bar .board-choice:not([disabled]), .board [data-ref].playable')) return 'board';
  return false;
}"""

# Tags each control the board offers now with data-e2e=<n>; answers [n, action types].
OFFERS = """(where) => {
  document.querySelectorAll('[data-e2e]').forEach((n) => n.removeAttribute('data-e2e'));
  const nodes = where === 'menu'
    ? [...document.querySelectorAll('.board-menu .board-choice:not([disabled])')]
    : [...document.querySelectorAll('.board-bar .board-choice:not([disabled]), .board [data-ref].playable')];
  return nodes.map((n, i) => {
    n.dataset.e2e = String(i);
    const types = n.dataset.actionType || n.dataset.actionTypes || '';
    return [i, types.split(' ').filter(Boolean), n.textContent.trim().slice(0, 80)];
  });
}"""


REDRAWN = """() => document.querySelector('.panel.outcome') || !document.querySelector('.board[data-e2e-old]')"""
# Controls on the table that hold another control (axe's nested-interactive: a screen
# reader cannot reach the inner one), as the board stands now. Checked before every click,
# so a clash that only some deals bring (a realm lit as a target while its challenge can be
# attempted) is caught on whichever move first shows it, not only at axe's two snapshots.
CONTROL = '[role=button], [role=menuitem], button, a[href], input, select, textarea, [tabindex]:not([tabindex="-1"])'
NESTED_IN = (
    "(root) => [...root.querySelectorAll('[role=button], button, [role=menuitem]')]"
    f".filter((n) => n.querySelector('{CONTROL}'))"
    ".map((n) => n.dataset.ref || n.textContent.trim().slice(0, 40))"
)
NESTED = f"() => ({NESTED_IN})(document.querySelector('.board-box') || document.createElement('div'))"

NAMES = ["Tess", "Uma", "Vic"]


def _fill_form(page: Any, kind: str, players: int, options: dict[str, str | bool], humans: int, bot: str) -> bool:
    """The lobby's create form filled in; True when it held (the lobby may draw the form
    again as its lists arrive, and typing too soon after the count once went into it)."""
    page.select_option("#kind", kind)
    page.fill("#players", str(players))
    page.dispatch_event("#players", "change")
    page.locator(f'[data-seat-type="{players - 1}"]').wait_for()
    page.locator("#players").blur()
    for seat, name in zip(range(humans), NAMES, strict=False):
        page.select_option(f'[data-seat-type="{seat}"]', "human")
        page.fill(f'input[name="name-{seat}"]', name)
    for seat in range(humans, players):
        page.select_option(f'[data-seat-type="{seat}"]', "bot")
        page.select_option(f'[data-seat-level="{seat}"]', bot)
    for name, value in options.items():
        if isinstance(value, bool):
            page.set_checked(f"#opt-{name}", value)
        else:
            page.fill(f"#opt-{name}", value)
    page.wait_for_timeout(200)
    return bool(
        page.evaluate(
            """([players, names, options]) => document.querySelectorAll('[data-seat-type]').length === players
              && names.every((n, i) => document.querySelector(`input[name="name-${i}"]`).value === n)
              && Object.entries(options).every(([k, v]) => {
                   const input = document.querySelector(`#opt-${k}`);
                   return typeof v === 'boolean' ? input.checked === v : input.value === v;
                 })""",
            [players, NAMES[:humans], options],
        )
    )


def create_game(
    page: Any,
    kind: str,
    players: int = 2,
    options: dict[str, str | bool] | None = None,
    humans: int = 1,
    bot: str = "random",
) -> str:
    """A game made in the lobby, Tess (and Uma, Vic) at the first seats and bots at the
    others; answers its id once its table is drawn for Tess."""
    page.goto("/")
    page.wait_for_selector("[data-testid=create]")
    held = any(_fill_form(page, kind, players, options or {}, humans, bot) for _ in range(3))
    assert held, "the create form kept being reset"
    page.click("[data-testid=create]")
    page.wait_for_url(re.compile(r"#/game/[^?]+\?seat=0"), timeout=15_000)
    page.wait_for_selector(".board", timeout=15_000)
    return str(page.url.split("#/game/")[1].split("?")[0])


def wait_for_board(page: Any, timeout: float = 30_000) -> str:
    """'over', 'menu' or 'board', once the page offers one."""
    return str(page.wait_for_function(STATE, timeout=timeout).json_value())


def _rank(types: Sequence[str], prefer: Sequence[str]) -> int:
    ranks = [prefer.index(t) for t in types if t in prefer]
    return min(ranks) if ranks else len(prefer)


def board_move(
    page: Any,
    prefer: Sequence[str] = (),
    rng: random.Random | None = None,
    rank: Callable[[list[str], str], Any] | None = None,
) -> str | None:
    """One click on the board: in the open menu if there is one, else on the action bar
    or a playable element, choosing by action type in ``prefer`` order, or by ``rank``
    (of the action types and the text; lower is better), ties at random. Answers what
    was clicked (its text), or None when the page offers nothing yet."""
    rng = rng or random.Random(0)
    where = page.evaluate(STATE)
    if where not in ("menu", "board"):
        return None
    offers = page.evaluate(OFFERS, where)
    if not offers:
        return None
    nested = page.evaluate(NESTED)
    assert not nested, f"controls holding another control: {nested}"
    score = rank or (lambda types, _text: _rank(types, prefer))
    best = min(score(types, text) for _, types, text in offers)
    index, _, text = rng.choice([o for o in offers if score(o[1], o[2]) == best])
    page.evaluate("() => document.querySelectorAll('.board').forEach((b) => { b.dataset.e2eOld = '1'; })")
    # The very element tagged, not the selector: when the table is drawn again before the
    # click lands (a bot's move, the answer to the last one), the click fails at once ("not
    # attached") where a locator waited its whole timeout for a tag the new drawing lacks.
    target = page.query_selector(f'[data-e2e="{index}"]')
    try:
        assert target is not None
        target.click(timeout=3_000)
    except Exception:  # the table was drawn again under the pointer: look again
        return None
    # Every click draws the table again (a selection, or the answer to a move): wait for
    # that, so the next click is on what the player now sees.
    try:
        page.wait_for_function(REDRAWN, timeout=5_000)
    except Exception:  # the answer is slow: the next look waits for the page anyway
        pass
    return str(text)


def each_turn_looked_at(page: Any, kind: str, turns: int) -> Iterator[int]:
    """A game of ``kind`` at its fewest seats, made with the lobby, looked at on up to
    ``turns`` of its turns: yields (the turn's number) whenever the board is there for the
    caller to look at, then makes one move on it; ends at the outcome."""
    create_game(page, kind, registry.get(kind).min_players)  # type: ignore[union-attr]
    for turn in range(turns):
        if wait_for_board(page) == "over":
            return
        yield turn
        board_move(page)


def play_on_board(
    page: Any, prefer: Sequence[str] = (), limit: int = 800, seed: int = 0, shot: Any = None, shot_at: int = 20
) -> int:
    """Clicks on the board until the outcome shows; answers the clicks made. ``shot``
    (a path) saves a screenshot of the table after ``shot_at`` clicks."""
    rng = random.Random(seed)
    for clicks in range(limit):
        if wait_for_board(page) == "over":
            return clicks
        board_move(page, prefer, rng)
        if shot is not None and clicks == shot_at:
            page.wait_for_timeout(400)
            page.screenshot(path=str(shot), full_page=False)
    raise AssertionError(f"no outcome after {limit} clicks on the board")


def seat_token(page: Any, game_id: str, seat: int = 0) -> str:
    """The seat token the page holds for ``seat`` (api.js keeps it in localStorage under
    ``tablestream:seats:<game>``): what its own moves are sent with."""
    held = page.evaluate("(key) => JSON.parse(localStorage.getItem(key) || '{}')", f"tablestream:seats:{game_id}")
    return str(held[str(seat)]["token"])


def leave_table(page: Any) -> None:
    """The page off the table (a blank page, no stream open, nothing drawn), so that moves
    sent through the API meanwhile are neither drawn one by one nor share its token's rate."""
    page.goto("about:blank")


# The version up to which the page has read and checked the log (its chain note), or 0.
CHAIN_CHECKED = """() => {
  const note = document.querySelector('[data-testid=chain]');
  const found = /verified to version (\\d+)/.exec(note ? note.textContent : '');
  return found ? Number(found[1]) : 0;
}"""


def back_to_table(page: Any, game_id: str, version: int, seat: int = 0) -> None:
    """The table opened again as a player returning to it sees it: the page loads the game
    and its whole log afresh (table.js ``allEvents``) and follows it live from there; it
    has caught up once its log is read and its chain checked to ``version``."""
    page.goto(f"/#/game/{game_id}?seat={seat}")
    page.wait_for_selector(".board", timeout=30_000)
    page.wait_for_function(f"() => ({CHAIN_CHECKED})() >= {int(version)}", timeout=30_000)


def play_through_api(
    base: str,
    game_id: str,
    token: str,
    choose: Callable[[list[dict[str, Any]], dict[str, Any]], dict[str, Any]],
    until: Callable[[dict[str, Any]], bool],
    timeout: float = 240,
) -> tuple[int, dict[str, Any]]:
    """The seat's moves sent through ``POST /v1/games/{id}/actions`` with its own ``token``
    (the page's), each ``choose(legal_actions, game)`` at the version read, while the bots
    answer on the server, until ``until(game)`` holds on the game read on the seat's turn
    (the game as ``GET /v1/games/{id}`` answers it). Answers the moves sent and that game.
    The game must not end on the way: the ending is the board's to play."""
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {token}"
    url = f"{base}/v1/games/{game_id}"
    deadline = time.monotonic() + timeout
    sent = 0
    while time.monotonic() < deadline:
        answer = session.get(url, timeout=10)
        if answer.status_code == 429:  # the token's rate: wait as told (clients.md)
            time.sleep(float(answer.headers.get("Retry-After") or 1))
            continue
        answer.raise_for_status()
        game = answer.json()
        assert game["status"] == "active", f"the game ended through the API, before the board: {game['outcome']}"
        if game["seat"] not in game["to_act"] or not game["legal_actions"]:
            time.sleep(0.05)  # a bot's turn: its job answers on the server
            continue
        if until(game):
            return sent, game
        action = choose(game["legal_actions"], game)
        acted = session.post(
            f"{url}/actions",
            json={"action": action, "expected_version": game["version"]},
            headers={"Idempotency-Key": f"e2e-{game_id}-{game['version']}"},
            timeout=10,
        )
        if acted.status_code == 429:
            time.sleep(float(acted.headers.get("Retry-After") or 1))
            continue
        assert acted.status_code == 200 or acted.json().get("code") == "stale_version", acted.text
        sent += acted.status_code == 200
    raise AssertionError(f"the game did not reach the hand-over point through the API in {timeout} s")


NUMBERED_FROM_0 = re.compile(r"\b(seat|fort|fortress|player|die|dice|row|column|col|position|slot)\s*:?\s*#?0\b", re.I)
KEY_VALUE = re.compile(r"\b[a-z_]+: (\d|[a-z]+\b(?! [a-z]))")


def log_lines(page: Any) -> list[dict[str, Any]]:
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll('.log .event')].map((n) => ({
                 text: n.querySelector('.ev-text')?.textContent || '', type: n.dataset.type,
                 generic: n.dataset.generic === '1', version: Number(n.dataset.version) }))"""
        )
    )


def assert_log_in_sentences(page: Any, minimum: int = 5) -> list[str]:
    """Every line of the log is a sentence its kind wrote (none summed up generically),
    starting with a capital and ending with a stop, with no seat, fort or die numbered
    from 0 and no "key: value" bookkeeping. Answers the lines."""
    if page.locator(".panel.outcome").count():
        # The outcome may be drawn from a move's answer before the stream brings the last
        # events: the log is whole once the seed's reveal, the game's last event, is in it.
        page.locator('.log .event[data-type="SeedRevealed"]').first.wait_for(timeout=20_000)
    lines = log_lines(page)
    assert len(lines) >= minimum, f"only {len(lines)} lines in the log"
    problems = []
    for line in lines:
        text = line["text"].strip()
        if line["generic"]:
            problems.append(f"not described by its kind ({line['type']}): {text}")
        elif not re.match(r"^[A-Z0-9\"'(“]", text) or not re.search(r"[.!?)”\"]$", text):
            problems.append(f"not a sentence ({line['type']}): {text}")
        elif NUMBERED_FROM_0.search(text):
            problems.append(f"numbered from 0 ({line['type']}): {text}")
        elif "—" in text or KEY_VALUE.search(text):
            problems.append(f"bookkeeping, not words ({line['type']}): {text}")
    assert not problems, "\n".join(problems[:20])
    return [line["text"] for line in lines]


# Marks the table's board as the window changes size: a board drawn after that is drawn
# for the new size.
MARK_ON_RESIZE = """() => { window.e2eResized = false;
  window.addEventListener('resize', () => {
    const board = document.querySelector('.board-box .board');
    if (board) board.dataset.e2eResized = '1';
    window.e2eResized = true;
  }, { once: true }); }"""
RESIZED = "() => window.e2eResized && !document.querySelector('.board-box .board[data-e2e-resized]')"


def resize(page: Any, size: dict[str, int]) -> None:
    """The window at ``size``, once a table on the page has been drawn again for it. The
    table draws itself anew a moment after the window changes size (table.js): until then
    its parts keep the places they had (a menu placed for a laptop runs hundreds of pixels
    off a phone's screen, a map's scroll cue is missing), so a fixed wait after the resize
    measured the old drawing whenever that moment ran late, as on a loaded machine."""
    if page.viewport_size == size:
        return
    page.evaluate(MARK_ON_RESIZE)
    page.set_viewport_size(size)
    page.wait_for_function(RESIZED, timeout=15_000)


FITS = "() => document.documentElement.scrollWidth <= window.innerWidth"
STICKING_OUT = """() => {
  const right = (n) => (n && n.getBoundingClientRect().width > 0 ? n.getBoundingClientRect().right : 0);
  const out = (n) => right(n) > window.innerWidth + 0.5;
  return [...document.querySelectorAll('body *')].filter((n) => out(n) && !out(n.parentElement)).slice(0, 5)
    .map((n) => `${n.tagName.toLowerCase()}.${[...n.classList].join('.')}: ${Math.round(right(n))}px`);
}"""


def overflow_at_phone_width(page: Any, width: int = 390) -> int:
    """How many pixels wider than a phone of ``width`` the page is (0: it fits), once the
    table has settled: a move's redraw places its parts (a menu, the dock) a frame after
    drawing them, so a page still wider after 3 s stays wider. What sticks out is printed."""
    resize(page, {"width": width, "height": 844})
    try:
        page.wait_for_function(FITS, timeout=3_000)
    except Exception:  # noqa: BLE001 - playwright's TimeoutError: measured and described below
        print("sticking out of the window:", page.evaluate(STICKING_OUT))
    return int(page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth"))


# Parts of the board that scroll sideways inside it with no visible line above them saying
# so: a cut-off column must not pass for the whole map.
UNMARKED_SCROLLERS = """() => [...document.querySelectorAll('.board *')].filter((n) => {
  const sideways = ['auto', 'scroll'].includes(getComputedStyle(n).overflowX);
  return sideways && n.scrollWidth > n.clientWidth + 1;
}).filter((n) => {
  const cue = n.previousElementSibling;
  if (!cue || !cue.matches('.scroll-cue')) return true;
  const box = cue.getBoundingClientRect();
  const hidden = getComputedStyle(cue).visibility !== 'visible';
  return hidden || box.height < 8 || box.left < 0 || box.right > window.innerWidth;
}).map((n) => `${n.className} (${n.scrollWidth}px in ${n.clientWidth})`)"""


def unmarked_scrollers(page: Any) -> list[str]:
    """The board's parts wider than their box (they scroll sideways) that no visible cue announces."""
    return list(page.evaluate(UNMARKED_SCROLLERS))


def phone_problems(page: Any, kind: str) -> list[str]:
    """What goes wrong with the table on a 390x844 phone: a page wider than the screen, a
    part that scrolls sideways unannounced. With TABLESTREAM_DOCS_SCREENSHOT=1 the board as
    the phone shows it is saved as docs/tables/<kind>-phone.png. The viewport stays a phone's."""
    overflow = overflow_at_phone_width(page)
    problems = [f"the page is {overflow}px wider than a phone"] if overflow > 0 else []
    problems += [f"scrolls with no cue: {part}" for part in unmarked_scrollers(page)]
    if os.environ.get("TABLESTREAM_DOCS_SCREENSHOT") == "1":
        page.evaluate("() => document.querySelector('.board-box').scrollIntoView()")
        page.wait_for_timeout(300)
        page.screenshot(path=str(DOCS_TABLES / f"{kind}-phone.png"), full_page=False)
    return problems


def serious_violations(page: Any, context: str | None = None) -> list[str]:
    """axe-core's serious and critical accessibility violations on the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, context=context)
    found = []
    for violation in results.response.get("violations", []):
        if violation.get("impact") in ("serious", "critical"):
            targets = [", ".join(node.get("target", [])) for node in violation.get("nodes", [])][:5]
            found.append(f"{violation['id']} ({violation['impact']}): {violation['help']} at {targets}")
    return found
