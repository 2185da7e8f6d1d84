"""The endings besides the rules' in Chromium against a running ``tablestream serve``: a game with a
clock shows each seat's time ticking down (read against the server's time, with the
browser's clock an hour fast), may be aborted until both seats have moved, and ends by
a resignation named in words with its winner, here and in the replay; a game aborted
before any move, or while a seat is open, has no winner; a seat that lets a short clock
run out loses on time, the flag falling on the workers' scheduler with no move from
anyone; a seat the turn timer plays for twice in a row has abandoned the game; and in a
game of three, a seat that resigns leaves while play goes on."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from tests.e2e.board import seat_token

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]

# CI runs these beside the rest of the suite on two cores: wait longer than Playwright's 5 s.
WAIT_MS = 20_000
KIND = "fortress-siege"  # two seats, one to act at a time

# The time a clock shows, in milliseconds ("4:59", "1:02:03", "0:07.3").
CLOCK_MS = """(node) => {
  const parts = node.textContent.trim().split(':').map(Number);
  return Math.round(parts.reduce((total, part) => total * 60 + part, 0) * 1000);
}"""


# Whether both seats have moved (the abort button is disabled), or Tess may act.
ABORT_OR_ACT = """() => {
  if (document.querySelector('[data-testid=abort]')?.disabled) return 'moved';
  return document.querySelector('.actions button.action:not([disabled])') ? 'act' : false;
}"""


@pytest.fixture(autouse=True)
def _patient_expect() -> Iterator[None]:
    expect.set_options(timeout=WAIT_MS)
    yield
    expect.set_options(timeout=5_000)  # Playwright's own default, for the tests after


def create(page: Any, second: str, clock: tuple[str, str] | None = None, turn: tuple[str, str] | None = None) -> str:
    """A game of Tess against ``second`` ("bot": a random bot; "open": a seat left open;
    else a person by that name, whose seat token this browser keeps too), with a clock of (minutes, increment
    seconds) or a turn limit of (seconds, timer moves in a row that abandon) if given,
    made with the lobby's form. Its id."""
    page.goto("/")
    page.select_option("#kind", KIND)
    page.select_option('[data-seat-type="0"]', "human")
    page.fill('input[name="name-0"]', "Tess")
    if second == "bot":
        page.select_option('[data-seat-type="1"]', "bot")
        page.select_option('[data-seat-level="1"]', "random")
    elif second == "open":
        page.select_option('[data-seat-type="1"]', "open")
    else:
        page.select_option('[data-seat-type="1"]', "human")
        page.fill('input[name="name-1"]', second)
    if clock is not None:
        page.select_option("#time-control", "clock")
        page.fill("#clock-minutes", clock[0])
        page.fill("#clock-increment", clock[1])
    if turn is not None:
        page.select_option("#time-control", "turn")
        page.fill("#turn-seconds", turn[0])
        page.fill("#abandon-after", turn[1])
    page.click("[data-testid=create]")
    page.wait_for_url(re.compile(r"#/game/[^?]+\?seat=0"), timeout=WAIT_MS)
    expect(page.locator(".board")).to_be_visible()
    return page.url.split("#/game/")[1].split("?")[0]


def log_line(page: Any, event_type: str, log: str = ".log") -> Any:
    """The line of the event log of an event of type ``event_type`` (as "Flag fell": FlagFell)."""
    name = "".join(word.capitalize() for word in event_type.split())
    return page.locator(f'{log} .event[data-type="{name}"]')


def test_a_clock_ticks_and_a_resignation_ends_the_game_with_the_winner_named(page: Any, server: str) -> None:
    # This browser's clock is an hour fast: the clocks read the server's time all the same.
    page.clock.install(time=time.time() + 3600)
    game = create(page, "bot", clock=("5", "2"))
    bot = requests.get(f"{server}/v1/games/{game}", timeout=10).json()["seats"][1]["name"]
    expect(page.locator("[data-testid=time-control]")).to_have_text("clock 5 min + 2 s")
    mine, theirs = page.locator("[data-testid=clock-0]"), page.locator("[data-testid=clock-1]")
    expect(theirs).to_have_text(re.compile(r"^[45]:\d\d$"))
    # Once the bot has drawn (if it begins), Tess's clock runs: it shows, and goes down.
    expect(mine).to_have_class(re.compile(r"\brunning\b"))
    expect(theirs).not_to_have_class(re.compile(r"\brunning\b"))
    first = mine.evaluate(CLOCK_MS)
    assert 270_000 < first <= 300_000, mine.inner_text()
    shown_now = f"({CLOCK_MS})(document.querySelector('[data-testid=clock-0]'))"
    page.wait_for_function(f"(first) => {shown_now} < first", arg=first)
    assert mine.evaluate(CLOCK_MS) < first

    # Until every seat has made a move, the game may be aborted; then no more, and the page says why.
    expect(page.locator("[data-testid=abort]")).to_be_enabled()
    for _ in range(20):
        if page.wait_for_function(ABORT_OR_ACT).json_value() == "moved":
            break
        try:
            page.locator(".actions button.action:not([disabled])").first.click(timeout=3_000)
        except Exception:  # the table re-rendered under the pointer: look again
            pass
    else:
        raise AssertionError("the abort button stayed enabled after 20 moves")
    expect(page.locator("[data-testid=abort-note]")).to_have_text(
        "Every seat has moved: the game can no longer be aborted; you may resign."
    )

    # Resigning asks first; a cancel keeps the game going.
    page.click("[data-testid=resign]")
    expect(page.locator("[data-testid=resign-question]")).to_have_text(f"Resign? {bot} wins the game.")
    page.click("[data-testid=end-cancel]")
    expect(page.locator("[data-testid=resign-confirm]")).to_have_count(0)
    page.click("[data-testid=resign]")
    page.click("[data-testid=resign-confirm]")

    ending = page.locator(".panel.outcome [data-testid=ending]")
    expect(ending).to_have_text(f"Tess resigned — {bot} wins")
    expect(page.locator(".panel.outcome tr.winner")).to_contain_text(bot)
    expect(page.locator("[data-testid=left-0]")).to_have_text("resigned")
    expect(page.locator(".whose-turn")).to_have_text("The game is over.")
    expect(page.locator("[data-testid=end-game]")).to_have_count(0)
    expect(log_line(page, "Resigned")).to_contain_text("Tess resigned")
    expect(log_line(page, "Seed revealed")).to_contain_text(f"Game over: Tess resigned — {bot} wins")
    # The clocks stand once the game is over.
    expect(page.locator(".clock.running")).to_have_count(0)

    page.click("a:has-text('Open replay')")
    expect(page.locator(".replay .panel.outcome [data-testid=ending]")).to_have_text(f"Tess resigned — {bot} wins")
    expect(log_line(page, "Resigned", ".replay-log")).to_contain_text("Tess resigned")


def test_an_abort_before_any_move_ends_the_game_with_no_winner(page: Any) -> None:
    create(page, "Uma")
    expect(page.locator("[data-testid=clock-0]")).to_have_count(0)  # no time control, no clock
    expect(page.locator("[data-testid=abort-note]")).to_contain_text("Until every seat has made a move")
    page.click("[data-testid=abort]")
    expect(page.locator("[data-testid=abort-question]")).to_contain_text("no result")
    page.click("[data-testid=abort-confirm]")

    outcome = page.locator(".panel.outcome")
    expect(outcome.locator("[data-testid=ending]")).to_have_text("Aborted")
    detail = outcome.locator("[data-testid=ending-detail]")
    expect(detail).to_have_text("Tess aborted the game: no result, no rating change.")
    expect(outcome).not_to_contain_text("wins")
    expect(outcome.locator("tr.winner")).to_have_count(0)
    expect(page.locator(".seat-chip.winner")).to_have_count(0)
    expect(log_line(page, "Aborted")).to_contain_text("Tess aborted the game")


def test_a_seat_that_lets_its_clock_run_out_loses_on_time(page: Any) -> None:
    create(page, "Uma", clock=("0.05", "0"))  # three seconds each, and no one moves
    expect(page.locator("[data-testid=time-control]")).to_have_text("clock 3 s + 0 s")
    running = page.locator(".clock.running")
    expect(running).to_have_count(1)
    expect(running).to_have_class(re.compile(r"\blow\b"))  # under ten seconds is low time
    seat = int(running.get_attribute("data-seat") or "")
    late, other = ("Tess", "Uma") if seat == 0 else ("Uma", "Tess")

    # The flag falls on the server (the workers' scheduler); the stream brings it here.
    ending = page.locator(".panel.outcome [data-testid=ending]")
    expect(ending).to_have_text(f"{late} ran out of time — {other} wins")
    expect(page.locator(f"[data-testid=left-{seat}]")).to_have_text("out of time")
    expect(page.locator(f"[data-testid=clock-{seat}]")).to_have_text("0:00.0")
    expect(page.locator(f"[data-testid=clock-{seat}]")).to_have_class(re.compile(r"\bflagged\b"))
    expect(log_line(page, "Flag fell")).to_contain_text(f"{late} ran out of time")
    expect(page.locator(".panel.outcome tr.winner")).to_contain_text(other)


def test_a_seat_the_turn_timer_plays_for_too_often_has_abandoned_the_game(page: Any) -> None:
    create(page, "Uma", turn=("1", "2"))  # a second a turn; two timer moves in a row abandon
    expect(page.locator("[data-testid=time-control]")).to_have_text("1 s a turn")
    ending = page.locator(".panel.outcome [data-testid=ending]")
    expect(ending).to_have_text(
        re.compile(r"^(Tess|Uma) abandoned the game \(2 moves in a row by the timer\) — (Tess|Uma) wins$")
    )
    gone = ending.inner_text().split(" ")[0]
    other = "Uma" if gone == "Tess" else "Tess"
    assert ending.inner_text().endswith(f"— {other} wins")
    expect(log_line(page, "Abandoned")).to_contain_text(f"{gone} abandoned the game (2 moves in a row by the timer)")
    expect(page.locator(".log .event.actor-timeout").first).to_contain_text("(by the turn timer)")
    # The outcome counts the timer's moves per seat, and does not count the result.
    expect(page.locator(".panel.outcome th", has_text="timer moves")).to_be_visible()
    expect(page.locator("[data-testid=uncounted]")).to_be_visible()
    seat = 0 if gone == "Tess" else 1
    expect(page.locator(f"[data-testid=left-{seat}]")).to_have_text("abandoned")


def test_in_a_game_of_three_a_seat_that_resigns_leaves_and_play_goes_on(page: Any, server: str) -> None:
    page.goto("/")
    page.select_option("#kind", "dragon-fortress")
    page.fill("#players", "3")
    page.dispatch_event("#players", "change")
    page.select_option('[data-seat-type="0"]', "human")
    page.fill('input[name="name-0"]', "Tess")
    for seat in (1, 2):
        page.select_option(f'[data-seat-type="{seat}"]', "bot")
        page.select_option(f'[data-seat-level="{seat}"]', "random")
    expect(page.locator("#on-leave")).to_be_visible()  # asked only in a game of more than two
    page.select_option("#on-leave", "out")
    page.click("[data-testid=create]")
    page.wait_for_url(re.compile(r"#/game/[^?]+\?seat=0"), timeout=WAIT_MS)
    page.click("[data-testid=resign]")
    expect(page.locator("[data-testid=resign-question]")).to_have_text(
        "Resign? You leave the game; the others play on."
    )
    page.click("[data-testid=resign-confirm]")
    expect(page.locator("[data-testid=left-0]")).to_have_text("resigned")
    # The game goes on: Tess's seat is out, and a bot makes its moves (the greedy one).
    expect(page.locator("[data-testid=you-left]")).to_contain_text("You left this game (resigned)")
    expect(page.locator(".actions")).to_contain_text("You left this game: a bot makes this seat's moves.")
    expect(page.locator(".actions button.action")).to_have_count(0)
    expect(page.locator("[data-testid=undo]")).to_have_count(0)
    # The random bots may play the game out in a few hundred events, past the 400 lines the
    # live log keeps: the resignation's version comes from the log itself, over the API.
    game = page.url.split("#/game/")[1].split("?")[0]
    resigned = resignation_version(server, game, seat_token(page, game))
    page.wait_for_function(
        """(after) => [...document.querySelectorAll('.log .event')].some((line) =>
             Number(line.dataset.version) > after && line.dataset.seat === '0')""",
        arg=resigned,
    )
    expect(page.locator(".seat-chip.winner", has_text="Tess")).to_have_count(0)
    # The resignation in words, in the replay at its version.
    page.goto(f"/#/replay/{game}?v={resigned}")
    expect(log_line(page, "Resigned", ".replay-log")).to_contain_text("Tess resigned")


def resignation_version(server: str, game: str, token: str) -> int:
    """The version of the game's one ``Resigned`` event, read page by page from its log."""
    after, found = 0, []
    while True:
        batch = requests.get(
            f"{server}/v1/games/{game}/events",
            params={"after": after, "limit": 500},
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        ).json()
        found += [event["version"] for event in batch["events"] if event["type"] == "Resigned"]
        if batch["next_after"] >= batch["last_version"] or not batch["events"]:
            break
        after = batch["next_after"]
    assert len(found) == 1, found
    return int(found[0])


def test_a_game_waiting_for_a_player_may_be_aborted_but_not_resigned(page: Any) -> None:
    create(page, "open")
    expect(page.locator("[data-testid=abort-note]")).to_have_text(
        "A seat is still open: the game may be aborted, with no result."
    )
    expect(page.locator("[data-testid=resign]")).to_have_count(0)
    page.click("[data-testid=abort]")
    page.click("[data-testid=abort-confirm]")
    expect(page.locator(".panel.outcome [data-testid=ending]")).to_have_text("Aborted")
    expect(page.locator(".pill.status-finished")).to_have_text("finished")


def press_across_a_redraw(page: Any, game: str, selector: str) -> None:
    """Presses ``selector`` with the pointer down before the table is drawn again and up
    after: a notice of this game asks the table for its state, and the answer redraws it.
    Pressed once the event stream is live: the pill that says so changes its width as it
    connects, which moves the header's links from under a pointer held still."""
    expect(page.locator(".title-row .live-live")).to_be_visible()
    page.locator(".board").evaluate("(board) => { board.dataset.before = 'yes'; }")
    box = page.locator(selector).bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.evaluate("(game) => window.dispatchEvent(new CustomEvent('tablestream:notice', {detail: {game}}))", game)
    expect(page.locator(".board:not([data-before])")).to_have_count(1)
    page.mouse.up()


def test_a_press_held_while_the_table_is_drawn_again_is_not_lost(page: Any) -> None:
    """The table is drawn again on every answer; a button pressed as one arrives (the
    pointer down before it, up after) still does what it says."""
    game = create(page, "open")
    expect(page.locator("[data-testid=abort-note]")).to_be_visible()
    press_across_a_redraw(page, game, "[data-testid=abort]")
    expect(page.locator("[data-testid=abort-question]")).to_be_visible()


def test_a_press_on_the_header_held_while_the_table_is_drawn_again_is_not_lost(page: Any) -> None:
    """The header (how to play, the seats) is drawn again on every answer too."""
    game = create(page, "open")
    press_across_a_redraw(page, game, "[data-testid=how-to-play]")
    page.wait_for_url(f"**/#/rules/{KIND}")


def test_a_press_on_the_header_held_while_a_move_changes_the_header_is_not_lost(page: Any, server: str) -> None:
    """A move changes the header around the link pressed (its version, whose turn it is):
    what changed is drawn again and the link, which reads the same, stays."""
    game = create(page, "Rex")
    expect(page.locator(".title-row .live-live")).to_be_visible()  # the links no longer move
    link = page.locator("[data-testid=how-to-play]")
    box = link.bounding_box()
    assert box is not None
    state = requests.get(f"{server}/v1/games/{game}", timeout=10).json()
    mover = state["to_act"][0]
    token = {"Authorization": f"Bearer {seat_token(page, game, mover)}"}
    legal = requests.get(f"{server}/v1/games/{game}", headers=token, timeout=10).json()["legal_actions"]
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    moved = requests.post(
        f"{server}/v1/games/{game}/actions",
        json={"action": legal[0], "expected_version": state["version"]},
        headers=token,
        timeout=10,
    )
    assert moved.status_code == 200, moved.text
    expect(page.locator(".title-row")).to_contain_text(f"version {moved.json()['version']}")
    page.mouse.up()
    page.wait_for_url(f"**/#/rules/{KIND}")
