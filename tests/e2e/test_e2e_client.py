"""The reference web client in a real browser (Debian's Chromium through Playwright)
against a running ``tablestream serve``: a game of each kind against bots, two of
them played to the end by clicking, the replay with its audit, and a fork.

Screenshots land in test-output/ (one per kind); the README's come from each kind's
board test (test_e2e_board_*.py)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.board import create_game

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

# Which of the legal actions the test clicks first, per kind: enough to finish a game
# in a few dozen clicks. Anything not listed comes after, in the order shown.
PREFERENCE = {
    "fortress-siege": [
        "attack:Fortress",
        "barrage",
        "deploy",
        "armor",
        "equip",
        "angel_of_death",
        "attack",
        "done_defending",
        "draw",
        "angel_of_life",
        "discard_character",
        "discard",
    ],
    "fortress-royals": ["attack", "place", "keep", "keep_dealt", "done", "discard_ace", "pass", "choose_first"],
}

READY = """() => {
  if (document.querySelector('.panel.outcome')) return 'over';
  const b = document.querySelector('.actions button.action:not([disabled])');
  return b ? 'act' : false;
}"""

CHOOSE = """(prefs) => {
  const buttons = [...document.querySelectorAll('.actions button.action:not([disabled])')];
  if (!buttons.length) return null;
  const rank = (b) => {
    for (let i = 0; i < prefs.length; i += 1) {
      const [type, word] = prefs[i].split(':');
      if (b.dataset.actionType === type && (!word || b.textContent.includes(word))) return i;
    }
    return prefs.length;
  };
  buttons.sort((a, b) => rank(a) - rank(b));
  return buttons[0].dataset.actionIndex;
}"""


def version(page: Any) -> int:
    text = page.locator(".table-head .pill", has_text="version").first.inner_text()
    return int(re.search(r"\d+", text).group())  # type: ignore[union-attr]


def wait_ready(page: Any, timeout: float = 30_000) -> str:
    return page.wait_for_function(READY, timeout=timeout).json_value()


def click_action(page: Any, kind: str) -> None:
    index = page.evaluate(CHOOSE, PREFERENCE.get(kind, []))
    if index is None:
        return
    button = page.locator(f'.actions button.action[data-action-index="{index}"]')
    try:
        button.click(timeout=3_000)
    except Exception:  # the table re-rendered under the pointer: look again
        pass


def play_to_the_end(page: Any, kind: str, limit: int = 400) -> int:
    clicks = 0
    while clicks < limit:
        if wait_ready(page) == "over":
            return clicks
        click_action(page, kind)
        clicks += 1
    raise AssertionError(f"{kind}: no end after {limit} clicks")


def check_replay(page: Any, kind: str, output: Path) -> None:
    page.click("a:has-text('Open replay')")
    page.wait_for_selector(".replay-seat .board", timeout=20_000)
    assert page.locator(".replay-seat").count() >= 2, "every seat's view is shown once the game is over"
    assert page.locator("[data-testid=seed]").inner_text().strip()
    page.wait_for_selector(".seed-panel .ok", timeout=5_000)  # sha256(seed) matches the commitment
    # The whole record verified in the browser (service/client/verify.js): every commitment opened.
    page.wait_for_selector(".verify-result .ok, .verify-result .error", timeout=30_000)
    verified = page.locator(".verify-result").inner_text()
    assert page.locator(".verify-result .ok").count() == 1, verified
    assert re.search(r"Chain of \d+ events, \d+ commitments? opened, \d+ draws? re-derived", verified), verified
    before = page.locator(".replay-version").inner_text()
    page.click("[data-testid=step-back]")
    page.wait_for_function("(b) => document.querySelector('.replay-version').textContent !== b", arg=before)
    page.locator("#replay-slider").fill("3")
    page.wait_for_function("() => document.querySelector('.replay-version').textContent.startsWith('version 3 ')")
    page.wait_for_selector(".replay-seat", timeout=10_000)
    page.click("[data-testid=audit]")
    page.wait_for_selector(".audit-result .ok, .audit-result .error", timeout=60_000)
    assert page.locator(".audit-result .ok").count() == 1, page.locator(".audit-result").inner_text()
    page.screenshot(path=str(output / f"{kind}-replay.png"), full_page=True)


@pytest.mark.parametrize("kind,options", [("fortress-royals", {"rounds": "1"}), ("fortress-siege", {})])
def test_play_to_the_end_then_replay_audit_and_fork(
    page: Any, output: Path, kind: str, options: dict[str, str]
) -> None:
    started = time.monotonic()
    create_game(page, kind, 2, options)
    assert wait_ready(page) == "act"
    # A card on the board that an action names is a control: clicking it narrows the actions.
    playable = page.locator(".board .playable")
    if playable.count():
        playable.first.click()
        page.wait_for_selector(".filter-note")
        page.click(".filter-note button")
    clicks = play_to_the_end(page, kind)
    page.wait_for_selector(".panel.outcome")
    assert "Seed revealed" in page.locator(".panel.outcome").inner_text()
    # Every event's hash was checked as it arrived, up to the last; and each card the seat
    # was dealt or drew, and each move it sent, opened its commitment with the salt it came with.
    page.wait_for_function(
        "(v) => document.querySelector('[data-testid=chain]')"
        ".textContent.startsWith(`✓ Chain verified to version ${v} ·`)",
        arg=version(page),
        timeout=10_000,
    )
    opened = page.locator("[data-testid=openings]").inner_text()
    assert re.fullmatch(r" · your cards match their commitments \(\d+ values checked\)", opened), opened
    page.screenshot(path=str(output / f"{kind}.png"), full_page=True)
    check_replay(page, kind, output)
    # Version 1 is the game's creation, dealt in the same command: the table there is
    # half-made, so the replay offers no fork and names the nearest version that forks.
    page.locator("#replay-slider").fill("1")
    page.wait_for_selector("[data-testid=fork-why]")
    assert page.locator("[data-testid=fork]").is_disabled()
    nearest = re.search(r"nearest to fork at: (\d+)", page.locator("[data-testid=fork-why]").inner_text())
    assert nearest, page.locator("[data-testid=fork-why]").inner_text()
    # Fork the finished game there: a new table opens, playable.
    page.locator("#replay-slider").fill(nearest.group(1))
    page.wait_for_selector("[data-testid=fork]:not([disabled])")
    page.click("[data-testid=fork]")
    # The fork either opens the new table or says why not in a toast; the toast is the failure.
    page.wait_for_function(
        "() => location.hash.startsWith('#/game/') || document.querySelector('.toast-error')", timeout=15_000
    )
    refused = page.locator(".toast-error")
    assert refused.count() == 0, f"the fork was refused: {refused.all_inner_texts()}"
    page.wait_for_selector(".board", timeout=15_000)
    assert page.locator(".table-head .status-active, .table-head .status-finished").count() >= 1
    print(f"\n{kind}: {clicks} clicks to the end, {time.monotonic() - started:.1f} s with replay, audit and fork")


@pytest.mark.parametrize("kind,players", [("dragon-fortress", 3), ("dragoborne", 2), ("stomping-grounds", 2)])
def test_other_kinds_render_and_take_an_action(page: Any, output: Path, kind: str, players: int) -> None:
    create_game(page, kind, players)
    assert wait_ready(page) == "act"
    assert page.locator(".board .card, .board .realm").count() > 0, "cards (or realms) are drawn"
    # By keyboard: focus an action and press Enter, until the log shows the seat's own
    # action (a bot acting at the same moment makes the first try stale: the client
    # then shows the new position and the player chooses again).
    mine = page.locator(".log .event.mine")
    for _ in range(5):
        wait_ready(page)
        wanted = page.locator('.actions button.action[data-action-type="stay"]:not([disabled])')
        anything = page.locator(".actions button.action:not([disabled])")
        target = wanted if kind == "dragon-fortress" and wanted.count() else anything
        target.first.focus()
        page.keyboard.press("Enter")
        try:
            mine.first.wait_for(timeout=5_000)
            break
        except Exception:
            continue
    assert mine.count() >= 1, "the seat's action was accepted and shows in the event log"
    if kind == "dragon-fortress":
        # "Stay" reveals nothing, so it can be undone; the bots agree at once.
        page.click("[data-testid=undo]")
        page.locator('.log .event[data-type="Rewound"]').first.wait_for(timeout=10_000)
    page.wait_for_timeout(300)
    page.screenshot(path=str(output / f"{kind}.png"), full_page=True)


def test_lobby_and_table_fit_a_phone(browser: Any, server: str, output: Path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=server, is_mobile=True)
    page = context.new_page()
    try:
        create_game(page, "fortress-siege", 2)
        wait_ready(page)
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 2, f"the table is {overflow}px wider than a phone"
        page.screenshot(path=str(output / "phone-table.png"), full_page=True)
        page.goto("/")
        page.wait_for_selector("[data-testid=create]")
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 2, f"the lobby is {overflow}px wider than a phone"
    finally:
        context.close()


def test_an_undo_asked_by_one_human_is_accepted_by_the_other(page: Any, output: Path) -> None:
    """Two human seats held in this browser and a bot: Tess stays (it reveals nothing), asks
    to undo it, and Uma, chosen in "Play as", accepts; the game is rewound."""
    create_game(page, "dragon-fortress", 3, humans=2)
    wait_ready(page)
    page.locator('.actions button.action[data-action-type="stay"]').first.click()
    page.locator(".log .event.mine").first.wait_for(timeout=10_000)
    page.click("[data-testid=undo]")
    page.locator(".undo", has_text="asks to undo").wait_for(timeout=10_000)
    assert page.locator(".undo button", has_text="Accept undo").count() == 0, "the asker cannot answer itself"
    page.select_option(".seat-switch select", label="Uma")
    accept = page.locator(".undo button", has_text="Accept undo")
    accept.wait_for(timeout=10_000)
    accept.click()
    page.locator('.log .event[data-type="Rewound"]').first.wait_for(timeout=10_000)
    page.screenshot(path=str(output / "undo-accepted.png"), full_page=True)


def test_the_actions_are_reached_with_the_tab_key(page: Any) -> None:
    create_game(page, "fortress-siege", 2)
    wait_ready(page)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")  # from the top of the page
    presses = 0
    while not page.evaluate("() => document.activeElement.matches('.actions button.action')"):
        assert presses < 80, "no action button is reachable with Tab"
        page.keyboard.press("Tab")
        presses += 1
    page.keyboard.press("Enter")
    page.locator(".log .event.mine").first.wait_for(timeout=10_000)
    print(f"\nkeyboard: the first action is {presses} Tab presses from the start of the main content")
