"""Players, in Chromium with two people (two browser contexts, so two
localStorages): ann signs up, creates a rated game with a seat opened by invite and
passes its code; bob signs up and joins with it; both play the game to its end by
clicking, chat both ways (a message that is HTML shows as text and runs nothing), and
each sees the other's turns arrive as notifications from the player stream; ann offers
a rematch, bob accepts, and the new game starts with the seats rotated; both players'
ratings and the kind's leaderboard, as the client shows them, have moved. And a
player's key in the browser: signed out and in again by pasting it, rotated, revoked;
a seat reserved by name, taken from the game's link; my games marking the turn."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_e2e_client import CHOOSE, PREFERENCE, READY

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

# CI runs these beside the rest of the suite on two cores: wait longer than Playwright's 5 s.
WAIT_MS = 20_000


@pytest.fixture(autouse=True)
def _patient_expect() -> Iterator[None]:
    expect.set_options(timeout=WAIT_MS)
    yield
    expect.set_options(timeout=5_000)  # Playwright's own default, for the tests after


KIND = "fortress-royals"  # with one round: the shortest whole game between two people
XSS = "<img src=x onerror=alert(1)>"

# The table shows a version past the one it had, or the outcome.
MOVED_ON = """(v) => {
  const pill = [...document.querySelectorAll('.table-head .pill')].find((x) => x.textContent.startsWith('version'));
  return (pill && Number(pill.textContent.replace(/\\D+/g, '')) > v) || !!document.querySelector('.panel.outcome');
}"""


def sign_up(page: Any, name: str) -> str:
    page.goto("/")
    page.fill("#signup-name", name)
    page.click("[data-testid=signup]")
    key_field = page.locator("[data-testid=player-key]")
    expect(key_field).to_be_visible()
    key = key_field.input_value()
    assert key.startswith("tsp_"), key
    # Shown once by the service: the page says so, and offers to copy it.
    expect(page.locator("[data-testid=key-warning]")).to_contain_text("never show it again")
    expect(page.locator("[data-testid=copy-key]")).to_be_visible()
    assert key in page.evaluate("() => localStorage.getItem('tablestream:player')")
    expect(page.locator("[data-testid=account-link]")).to_have_text(name)
    return key


def your_turn_notices(page: Any, game: str) -> Any:
    return page.locator(f'#notices .notice[data-type="your_turn"][data-game="{game}"]')


def profile_rating(page: Any, name: str) -> Any:
    page.goto(f"/#/players/{name}")
    expect(page.locator("[data-testid=profile-name]")).to_have_text(name)
    return page.locator(f"[data-testid=rating-{KIND}]")


def chat(page: Any, text: str) -> None:
    page.fill("[data-testid=chat-input]", text)
    page.click("[data-testid=chat-send]")
    expect(page.locator("[data-testid=chat-input]")).to_have_value("")


def chat_line(page: Any, text: str) -> Any:
    return page.locator(".chat-log .chat-msg .chat-text", has_text=text)


def table_version(page: Any) -> int:
    text = page.locator(".table-head .pill", has_text="version").first.inner_text()
    return int(re.search(r"\d+", text).group())  # type: ignore[union-attr]


def whose_turn(pages: list[Any], timeout: float = 15) -> Any:
    """The page that has an action to take, once one has."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for page in pages:
            if page.evaluate(READY) == "act":
                return page
        time.sleep(0.1)
    raise AssertionError("nobody may act")


# A click's answer in a page's trail (conftest's _watched_page): the status of its POST,
# or "failed" when the request got no answer at all.
ACTION_ANSWER = re.compile(r"^(\d{3}|failed) POST \S+/actions\b")
# Refusals a person meets on a busy service and answers by clicking again: too many
# requests, the service unavailable or unreachable. Any other refusal of an action the
# table offered is a fault.
TRANSIENT = {"429", "502", "503", "504", "failed"}


def stuck(pages: dict[str, Any], who: str, before: int, why: str) -> str:
    """What each page showed and asked when ``who``'s click at ``before`` did not move
    the table on: its messages, whose turn it says, its version, its last API requests."""
    lines = [f"{who}'s click at version {before}: {why}"]
    for name, page in pages.items():
        shown = page.evaluate(
            "() => [...document.querySelectorAll('.toast, .whose-turn, .table-head .pill')].map((x) => x.textContent)"
        )
        lines += [f"--- {name} shows {shown}; its last requests:", *page.trail[-25:]]
    return "\n".join(lines)


def answer_to_click(pages: dict[str, Any], who: str, before: int, mark: int) -> str | None:
    """None once the table has moved past ``before`` (or ended), or the status of a
    transient refusal of the click's action; a failure with what the pages showed for
    any other refusal, or when nothing came within WAIT_MS."""
    page = pages[who]
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        if page.evaluate(MOVED_ON, before):
            return None
        for line in page.trail[mark:]:
            found = ACTION_ANSWER.match(line)
            # 409: the table had moved on; the client reads it again, and that moves on.
            if found is None or found.group(1) in ("200", "409"):
                continue
            if found.group(1) in TRANSIENT:
                return found.group(1)
            raise AssertionError(stuck(pages, who, before, f"the service refused the action: {line}"))
        time.sleep(0.05)
    raise AssertionError(stuck(pages, who, before, f"the table did not move on within {WAIT_MS} ms"))


def play_to_the_end(pages: dict[str, Any], game: str, on_turn: Callable[[str, str | None], None]) -> int:
    """Click a legal action on whichever page may act, until both show the outcome;
    ``on_turn(who, before)`` runs when the turn passes to ``who`` from ``before``. A
    click refused for a moment (``TRANSIENT``) is clicked again, as a person would, at
    most a few times a game."""
    clicks = 0
    last: str | None = None
    refusals: list[str] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        states = {who: page.evaluate(READY) for who, page in pages.items()}
        if all(state == "over" for state in states.values()):
            if refusals:
                print(f"\nrefused for a moment and clicked again: {refusals}")
            return clicks
        ready = [who for who, state in states.items() if state == "act"]
        if not ready:
            time.sleep(0.1)
            continue
        who = ready[0] if last not in ready or len(ready) == 1 else next(w for w in ready if w != last)
        if who != last:
            on_turn(who, last)
        page = pages[who]
        index = page.evaluate(CHOOSE, PREFERENCE[KIND])
        if index is None:
            continue
        before = table_version(page)
        mark = len(page.trail)
        try:
            page.locator(f'.actions button.action[data-action-index="{index}"]').click(timeout=3_000)
        except Exception:  # the table re-rendered under the pointer: look again
            continue
        # The table answers the action and moves on before the next look.
        refused = answer_to_click(pages, who, before, mark)
        if refused is not None:
            refusals.append(f"{who} at version {before}: {refused}")
            assert len(refusals) <= 3, stuck(pages, who, before, f"refused again and again: {refusals}")
            continue
        clicks += 1
        last = who
    raise AssertionError(f"no end of the game after {clicks} clicks")


def test_two_players_invite_play_chat_notify_rematch_and_ratings(people: Callable[[str], Any], output: Path) -> None:
    started = time.monotonic()
    suffix = str(int(time.time() * 1000))[-6:]
    ann_name, bob_name = f"ann_{suffix}", f"bob_{suffix}"
    ann, bob = people("ann"), people("bob")
    dialogs: list[str] = []
    for page in (ann, bob):
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))

    # ann signs up; she has no rating yet, and the leaderboard does not list her.
    sign_up(ann, ann_name)
    expect(profile_rating(ann, ann_name)).to_have_count(0)
    expect(ann.locator("[data-testid=unrated]")).to_contain_text("1500")
    ann.goto(f"/#/leaderboards/{KIND}")
    expect(ann.locator("[data-testid=board-empty], [data-testid=leaderboard]")).to_have_count(1)
    expect(ann.locator(f'[data-testid=leaderboard] tr[data-player="{ann_name}"]')).to_have_count(0)

    # ann creates a rated game: her own seat and one opened by an invite code.
    ann.goto("/")
    ann.select_option("#kind", KIND)
    expect(ann.locator('[data-seat-type="0"]')).to_have_value("me")
    ann.select_option('[data-seat-type="1"]', "open")
    ann.select_option('[data-seat-access="1"]', "invite")
    ann.fill("#opt-rounds", "1")
    ann.check("#rated")
    ann.click("[data-testid=create]")
    ann.wait_for_url(re.compile(r"#/game/[^?]+"))
    game = ann.url.split("#/game/")[1].split("?")[0]
    invite = ann.locator("[data-testid=invite-link]")
    expect(invite).to_be_visible()
    link = invite.input_value()
    code = ann.locator("[data-testid=invite-code]").inner_text().strip()
    assert code.startswith(f"{game}/1/") and link.endswith(code.split("/", 2)[2]), (link, code)
    expect(ann.locator(".table-head")).to_contain_text("rated")
    expect(ann.locator(".whose-turn")).to_contain_text("Waiting for players")

    # bob signs up in his own browser and joins with the code ann passed him.
    sign_up(bob, bob_name)
    bob.goto("/")
    bob.fill("[data-testid=invite-input]", code)
    bob.click("[data-testid=invite-go]")
    bob.click("[data-testid=accept-invite]")
    bob.wait_for_url(re.compile(rf"#/game/{game}"))
    expect(bob.locator(".seat-chip.me")).to_have_text(re.compile(bob_name))
    expect(ann.locator(".table-head .status-active")).to_be_visible(timeout=WAIT_MS)
    expect(ann.locator(".seat-strip")).to_contain_text(bob_name)
    # The invite served once: the seat is no longer open, so ann no longer shows it.
    expect(ann.locator("[data-testid=invite-link]")).to_have_count(0)

    # Chat both ways; bob's HTML is shown as text, and nothing runs.
    chat(ann, f"good luck {bob_name}")
    expect(chat_line(bob, f"good luck {bob_name}")).to_be_visible(timeout=WAIT_MS)
    chat(bob, XSS)
    expect(chat_line(ann, XSS)).to_be_visible(timeout=WAIT_MS)
    expect(chat_line(ann, XSS)).to_have_text(XSS)
    assert ann.locator(".chat-log img").count() == 0
    assert bob.locator(".chat-log img").count() == 0
    # Too fast (the service takes 5 messages in 10 s from one author): the client says
    # when to write again, and holds the button until then.
    sent_or_refused = (
        "() => document.querySelector('[data-testid=chat-input]').value === ''"
        " || !!document.querySelector('.toast-error')"
    )
    for n in range(6):
        ann.fill("[data-testid=chat-input]", f"and again {n}")
        ann.click("[data-testid=chat-send]")
        ann.wait_for_function(sent_or_refused, timeout=WAIT_MS)
        if ann.locator(".toast-error").count():
            break
    expect(ann.locator(".toast-error", has_text="Slow down")).to_be_visible()
    expect(ann.locator("[data-testid=chat-send]")).to_be_disabled()
    expect(ann.locator("[data-testid=chat-input]")).to_have_value(re.compile("and again"))
    ann.screenshot(path=str(output / "players-table.png"), full_page=True)

    # Play to the end. Whenever the turn passes, the one whose turn it is has been told
    # so by the player stream: a "your turn" notice of this game, newer than the last.
    pages = {"ann": ann, "bob": bob}
    notified = {"ann": 0, "bob": 0}
    opened_bell = set()

    def on_turn(who: str, before: str | None) -> None:
        page = pages[who]
        if before is None:
            return
        expect(your_turn_notices(page, game)).not_to_have_count(notified[who], timeout=WAIT_MS)
        notified[who] = your_turn_notices(page, game).count()
        if who not in opened_bell:  # what a person sees: the bell, and the notice under it
            opened_bell.add(who)
            expect(page.locator("[data-testid=unread]")).not_to_have_text("0")
            page.click("[data-testid=bell]")
            expect(your_turn_notices(page, game).first).to_be_visible()
            expect(your_turn_notices(page, game).first).to_contain_text("Your turn in Fortress (royals in hand)")
            page.keyboard.press("Escape")
            expect(page.locator("#notices")).to_be_hidden()

    clicks = play_to_the_end(pages, game, on_turn)
    # Both played with their player keys: neither browser holds a seat token of the game.
    for page in (ann, bob):
        assert page.evaluate("(g) => localStorage.getItem('tablestream:seats:' + g)", game) is None
    assert opened_bell == {"ann", "bob"}, "the turn passed both ways"
    for page in (ann, bob):
        expect(page.locator(".panel.outcome")).to_be_visible()
    outcome = ann.locator(".panel.outcome h3").inner_text()

    # ann offers a rematch; bob hears of it on his stream and accepts on his table.
    ann.click("[data-testid=rematch-offer]")
    ann.wait_for_url(re.compile(r"#/game/(?!" + game + r")[^?]+"))
    rematch = ann.url.split("#/game/")[1].split("?")[0]
    expect(ann.locator("[data-testid=rematch-of]")).to_be_visible()
    expect(ann.locator(".whose-turn")).to_contain_text("accept")
    expect(bob.locator("[data-testid=rematch-accept]")).to_be_visible(timeout=WAIT_MS)
    bob.screenshot(path=str(output / "players-rematch-offered.png"), full_page=True)
    bob.click("[data-testid=rematch-accept]")
    bob.wait_for_url(re.compile(rf"#/game/{rematch}"))
    # The new game has started, with the seats rotated: bob first now, then ann.
    for page in (ann, bob):
        expect(page.locator(".table-head .status-active")).to_be_visible(timeout=WAIT_MS)
        expect(page.locator(".seat-strip .seat-chip")).to_have_count(2)
        expect(page.locator(".seat-strip .seat-chip").nth(0)).to_contain_text(bob_name)
        expect(page.locator(".seat-strip .seat-chip").nth(1)).to_contain_text(ann_name)
    expect(bob.locator(".seat-strip .seat-chip").nth(0)).to_have_class(re.compile(r"\bme\b"))
    expect(ann.locator(".seat-strip .seat-chip").nth(1)).to_have_class(re.compile(r"\bme\b"))

    # Both ratings moved from the start (1500 ± 350), and the leaderboard lists both.
    winner = ann_name if ann_name in outcome else bob_name if bob_name in outcome else None
    for page, name in ((ann, ann_name), (bob, bob_name)):
        card = profile_rating(page, name)
        expect(card).to_contain_text("1 rated game", timeout=WAIT_MS)
        rating = int(card.locator(".rating").inner_text())
        rd = int(card.locator(".rd").inner_text())
        assert rd < 350, f"{name}: the deviation shrinks after a rated game ({rd})"
        if winner is not None and " and " not in outcome:
            assert (rating > 1500) == (name == winner), f"{name}: {rating} after '{outcome}'"
    bob.screenshot(path=str(output / "players-profile.png"), full_page=True)
    ann.goto(f"/#/leaderboards/{KIND}")
    board = ann.locator("[data-testid=leaderboard]")
    expect(board.locator(f'tr[data-player="{ann_name}"] .games-count')).to_have_text("1")
    expect(board.locator(f'tr[data-player="{bob_name}"] .games-count')).to_have_text("1")
    ann.screenshot(path=str(output / "players-leaderboard.png"), full_page=True)

    assert not dialogs, f"a chat message ran as HTML: {dialogs}"
    print(f"\nplayers: {clicks} clicks to the end, {time.monotonic() - started:.1f} s in all")


def test_a_player_signs_out_and_in_with_its_key_rotates_revokes_and_takes_a_reserved_seat(
    people: Callable[[str], Any],
) -> None:
    suffix = str(int(time.time() * 1000))[-6:]
    cy_name, dee_name = f"cy_{suffix}", f"dee_{suffix}"
    cy, dee = people("cy"), people("dee")
    first_key = sign_up(cy, cy_name)
    sign_up(dee, dee_name)

    # cy keeps a seat for dee by name; dee opens the game's link and takes it.
    cy.goto("/")
    cy.select_option("#kind", KIND)
    cy.select_option('[data-seat-type="1"]', "open")
    cy.select_option('[data-seat-access="1"]', "reserved")
    cy.fill('input[name="name-1"]', dee_name)
    cy.fill("#opt-rounds", "1")
    cy.click("[data-testid=create]")
    cy.wait_for_url(re.compile(r"#/game/[^?]+"))
    game = cy.url.split("#/game/")[1].split("?")[0]
    expect(cy.locator(".seat-strip")).to_contain_text("reserved")
    dee.goto(f"/#/game/{game}")
    dee.click("[data-testid=take-seat]")
    expect(dee.locator(".seat-chip.me")).to_have_text(re.compile(dee_name))
    expect(cy.locator(".table-head .status-active")).to_be_visible(timeout=WAIT_MS)

    # My games marks the game whose turn it is: whoever is to act sees "your turn" on it.
    acting = whose_turn([cy, dee])
    acting.goto("/#/me")
    expect(acting.locator(f'.my-games li[data-game="{game}"] [data-testid=your-turn]')).to_be_visible()

    # Signed out, cy signs in again by pasting the key she kept.
    cy.goto("/#/me")
    cy.click("[data-testid=signout]")
    expect(cy.locator("[data-testid=account-link]")).to_have_text("Sign in")
    assert cy.evaluate("() => localStorage.getItem('tablestream:player')") is None
    cy.goto("/#/me")
    cy.fill("#signin-key", first_key)
    cy.click("[data-testid=signin]")
    expect(cy.locator("[data-testid=account-link]")).to_have_text(cy_name)
    expect(cy.locator(f'.my-games li[data-game="{game}"]')).to_be_visible()

    # A new key: shown with the warning, and the old one no longer signs in.
    cy.click("[data-testid=rotate]")
    expect(cy.locator("[data-testid=key-warning]")).to_contain_text("never show it again")
    second_key = cy.locator("[data-testid=player-key]").input_value()
    assert second_key.startswith("tsp_") and second_key != first_key
    cy.click("[data-testid=signout]")
    cy.goto("/#/me")
    cy.fill("#signin-key", first_key)
    cy.click("[data-testid=signin]")
    expect(cy.locator(".toast-error")).to_contain_text("unknown, rotated or revoked")
    cy.fill("#signin-key", second_key)
    cy.click("[data-testid=signin]")
    expect(cy.locator("[data-testid=account-link]")).to_have_text(cy_name)

    # Revoked for good: signed out here, and the key signs in nowhere.
    cy.click("[data-testid=revoke]")
    cy.click("[data-testid=revoke-confirm]")
    expect(cy.locator("[data-testid=account-link]")).to_have_text("Sign in")
    cy.goto("/#/me")
    cy.fill("#signin-key", second_key)
    cy.click("[data-testid=signin]")
    expect(cy.locator(".toast-error").last).to_contain_text("unknown, rotated or revoked")


def test_the_player_stream_resumes_with_last_event_id_and_the_key_stays_out_of_urls(
    people: Callable[[str], Any],
) -> None:
    """The stream is read with fetch (the key in the Authorization header): when it drops,
    the client asks again from the last id it saw, and after a reload from the last id
    it kept. The service's answers are stood in for here: one notice per connection,
    then a refusal that ends the stream, then notices again."""
    fay = people("fay")
    asked: list[dict[str, str]] = []
    urls: list[str] = []
    refusing = {"after": 3}
    fay.on("request", lambda request: urls.append(request.url))

    def answer(route: Any) -> None:
        asked.append({**route.request.headers, "url": route.request.url})
        n = len(asked)
        if n > refusing["after"]:
            route.fulfill(status=404, headers={"Content-Type": "application/problem+json"}, body="{}")
            return
        notice = {"type": "your_turn", "game": f"game{n}", "kind": KIND, "version": 10 + n, "seat": 0}
        body = f"retry: 2000\n\nid: 1700000000000-{n}\nevent: your_turn\ndata: {json.dumps(notice)}\n\n"
        route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body=body)

    fay.route("**/v1/players/me/stream*", answer)
    key = sign_up(fay, f"fay_{str(int(time.time() * 1000))[-6:]}")
    notices = fay.locator('#notices .notice[data-type="your_turn"]')
    expect(notices).to_have_count(3)  # one per connection: the first, and two after drops
    expect(notices.first).to_contain_text("Your turn in Fortress (royals in hand)")
    fay.wait_for_function("() => document.querySelector('#bell').title.includes('refused')")
    assert len(asked) == 4
    assert "last-event-id" not in asked[0], "a new player's stream starts from now"
    assert [a.get("last-event-id") for a in asked[1:4]] == [f"1700000000000-{n}" for n in (1, 2, 3)]
    assert all(a.get("authorization") == f"Bearer {key}" for a in asked)

    refusing["after"] = len(asked) + 1  # one more notice, after the reload
    fay.reload()
    expect(notices).to_have_count(4)  # the three kept, and one more
    assert asked[4].get("last-event-id") == "1700000000000-3", "after a reload: from the last id kept"
    assert not [u for u in urls if key in u], "the key never goes in a URL"
