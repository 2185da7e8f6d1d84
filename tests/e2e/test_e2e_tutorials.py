"""The tutorials in Chromium against `tablestream serve`: every tutorial of every kind starts
from its Start button and opens a table dealt exactly as its stated position says, read
through the API with the learner's own seat token and compared with the stated orders in
the dealing order each kind's README gives (as tests/api/test_positions.py does); and in the
lobby's create form, a position under Advanced that is not JSON is caught in the page, one
the service refuses shows the service's own words and creates nothing, and a tutorial's
position picked there creates a game the lobby marks as not a fair deal."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
import requests

from games.dragoborne.cards import OPENING_HAND as BORNE_HAND
from games.dragoborne.cards import expand as borne_ids
from games.dragon_fortress.cards import HAND_SIZE as DRAGON_HAND_SIZE
from games.dragon_fortress.rules import common_cards as dragon_common_cards
from games.fortress_siege.cards import FACTS as SIEGE_FACTS
from games.stomping_grounds.turn import HAND_LIMIT
from tests.e2e.board import overflow_at_phone_width, play_through_api, seat_token, serious_violations

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]

TUTORIALS = "async () => (await import('/client/tutorials.js')).TUTORIALS"
GAME_URL = re.compile(r"#/game/([^?]+)")
CREATE = re.compile(r"^(\d{3}) POST \S+/v1/games etag=")


def _view(base: str, game_id: str, token: str) -> dict[str, Any]:
    answer = requests.get(f"{base}/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    answer.raise_for_status()
    return dict(answer.json())


def _check_siege(base: str, game_id: str, token: str, options: dict[str, Any]) -> None:
    """Each Fortress is its list: the Tombstones are the lists' last cards, seat 0's Fortress
    holds its whole list, the seat stated (else the highest Tombstone) starts, and the
    learner's first draw, once its turn comes, is the top of its list."""
    decks = options["decks"]
    view = _view(base, game_id, token)["view"]
    assert [player["tombstone"] for player in view["players"]] == [deck[-1] for deck in decks]
    assert view["players"][0]["fortress"] == len(decks[0])
    ranks = [SIEGE_FACTS[deck[-1]].destiny for deck in decks]
    assert view["first"] == options.get("first_player", ranks.index(max(ranks)))
    _, game = play_through_api(
        base, game_id, token, lambda legal, _: {"type": "draw"}, lambda g: bool(g["view"]["players"][0]["hand"])
    )
    assert game["view"]["players"][0]["hand"] == decks[0][:1]


def _check_royals(base: str, game_id: str, token: str, options: dict[str, Any]) -> None:
    """The stated order's top cards are the draw for first player, seat 0's King the highest:
    the learner chooses itself, and is dealt cards 1 and players + 1 of the same order."""
    order = options["deck"]
    players = len(_view(base, game_id, token)["seats"])
    choose = {"type": "choose_first", "seat": 0}
    _, game = play_through_api(
        base, game_id, token, lambda legal, _: choose, lambda g: bool(g["view"]["hands"][0]["cards"])
    )
    assert game["view"]["hands"][0]["cards"] == [order[0], order[players]]


def _check_dragon(base: str, game_id: str, token: str, options: dict[str, Any]) -> None:
    """The stated cards first, the unlisted in manifest order, dealt round-robin from seat 0:
    the learner holds cards 0, players, 2 x players... of that order."""
    game = _view(base, game_id, token)
    players = len(game["seats"])
    stated = options["deck"]
    order = stated + [card for card in dragon_common_cards(players) if card not in stated]
    dealt = DRAGON_HAND_SIZE * players
    assert game["view"]["players"][0]["hand"] == order[0:dealt:players]
    assert game["view"]["supply"]["count"] == len(order) - dealt + 1  # and the Call card


def _check_stomping(base: str, game_id: str, token: str, options: dict[str, Any]) -> None:
    """The stated top card is the luck draw (into the junk), the learner's realms are placed
    (the first offered), and the hand is the next seven of the order less the realms placed."""
    order = options["deck"][0]
    _, game = play_through_api(base, game_id, token, lambda legal, _: legal[0], lambda g: g["view"]["phase"] != "setup")
    me = game["view"]["players"][0]
    placed = {realm["card"] for realm in game["view"]["realms"] if realm["owner"] == 0}
    assert me["junk"] == order[:1]
    assert me["hand"] == [card for card in order[1:] if card not in placed][:HAND_LIMIT]


def _check_borne(base: str, game_id: str, token: str, options: dict[str, Any]) -> None:
    """The learner's opening hand is the top five of its stated order; the stated seat starts."""
    view = _view(base, game_id, token)["view"]
    mine = next(player for player in view["players"] if player["seat"] == 0)
    assert mine["hand"] == borne_ids(0, options["deck"][0])[:BORNE_HAND]
    assert view["first"] == options["first_player"]


CHECKS = {
    "fortress-siege": _check_siege,
    "fortress-royals": _check_royals,
    "dragon-fortress": _check_dragon,
    "stomping-grounds": _check_stomping,
    "dragoborne": _check_borne,
}


def test_every_tutorial_starts_from_its_stated_position(page: Any, server: str) -> None:
    started = time.monotonic()
    page.goto("/")
    page.click("[data-testid=tutorials-link]")
    page.wait_for_selector(".tutorial-list")
    page.locator(".tutorial-position summary").first.click()  # a position shown, as a reader opens it
    assert serious_violations(page) == []
    assert overflow_at_phone_width(page) <= 2
    page.set_viewport_size({"width": 1280, "height": 900})
    tutorials = page.evaluate(TUTORIALS)
    kinds = {kind["key"] for kind in requests.get(f"{server}/v1/kinds", timeout=10).json()["kinds"]}
    assert {tutorial["kind"] for tutorial in tutorials} == kinds, "every kind has a tutorial"
    browser = 0.0
    for number, tutorial in enumerate(tutorials):
        clicked = time.monotonic()
        if number:
            page.goto(f"/#/tutorials/{tutorial['kind']}")
        page.click(f"[data-testid=start-{tutorial['id']}]")
        page.wait_for_url(GAME_URL)
        note = page.locator("[data-testid=tutorial-note]")
        note.wait_for()
        assert tutorial["title"] in note.inner_text()
        page.wait_for_selector(".table-head .pill.warn")  # the table's mark of a deal not fair
        browser += time.monotonic() - clicked
        game_id = GAME_URL.search(page.url).group(1)  # type: ignore[union-attr]
        assert requests.get(f"{server}/v1/games/{game_id}", timeout=10).json()["fair_deal"] is False
        CHECKS[tutorial["kind"]](server, game_id, seat_token(page, game_id), tutorial["options"])
    # The note goes once dismissed, and stays gone when the table is opened again.
    page.click("[data-testid=dismiss-note]")
    page.reload()
    page.wait_for_selector(".table-head")
    assert page.locator("[data-testid=tutorial-note]").count() == 0
    # Each kind's How to play leads to its tutorials.
    page.goto("/#/rules/dragoborne")
    page.click("[data-testid=kind-tutorials]")
    page.wait_for_selector('[data-tutorial="borne-paying-with-banners"]')
    assert page.locator(".tutorial").count() == len([t for t in tutorials if t["kind"] == "dragoborne"])
    print(f"\n{len(tutorials)} tutorials: {browser:.1f} s in the browser, {time.monotonic() - started:.1f} s in all")


def _creates(page: Any) -> list[str]:
    """The status of each answer to POST /v1/games the page has had."""
    return [found.group(1) for line in page.trail if (found := CREATE.match(line))]


def test_a_stated_position_in_the_lobby_refused_or_created(page: Any, server: str) -> None:
    started = time.monotonic()
    page.goto("/")
    page.wait_for_selector("[data-testid=create]")
    page.select_option("#kind", "stomping-grounds")
    page.click("[data-testid=position] summary")
    error = page.locator("[data-testid=position-error]")
    # Not JSON: caught in the page, nothing sent.
    page.fill("[data-testid=position-json]", '{"decks": ["ember", "tide"], deck: ')
    page.click("[data-testid=create]")
    error.wait_for()
    assert "not valid JSON" in error.inner_text()
    assert _creates(page) == []
    # A deck that is not the tide deck (a card twice, another missing): the service's words.
    tutorial = next(t for t in page.evaluate(TUTORIALS) if t["kind"] == "stomping-grounds")
    wrong = json.loads(json.dumps(tutorial["options"]))
    wrong["deck"][1][-1] = wrong["deck"][1][0]
    page.fill("[data-testid=position-json]", json.dumps(wrong))
    page.click("[data-testid=create]")
    page.wait_for_function("() => /Refused/.test(document.querySelector('[data-testid=position-error]').textContent)")
    assert "seat 1's deck order must hold every card of the tide deck exactly once" in error.inner_text()
    assert serious_violations(page, "[data-testid=position]") == []
    assert _creates(page) == ["422"], "one request, refused: nothing created"
    assert "#/game/" not in page.url
    # A tutorial's position picked: the seats follow its count, and the game is not a fair deal.
    page.select_option("[data-testid=position-pick]", tutorial["id"])
    assert error.is_hidden()
    assert json.loads(page.input_value("[data-testid=position-json]")) == tutorial["options"]
    page.click("[data-testid=create]")
    page.wait_for_url(GAME_URL)
    page.locator("[data-testid=tutorial-note]", has_text="not a fair deal").wait_for()
    game_id = GAME_URL.search(page.url).group(1)  # type: ignore[union-attr]
    assert requests.get(f"{server}/v1/games/{game_id}", timeout=10).json()["fair_deal"] is False
    assert _creates(page) == ["422", "201"]
    page.goto("/#/")
    page.locator(".game-item", has=page.locator(f'a[href="#/game/{game_id}"]')).locator(
        "[data-testid=unfair-pill]"
    ).wait_for()
    print(f"\nthe stated position in the lobby: {time.monotonic() - started:.1f} s")
