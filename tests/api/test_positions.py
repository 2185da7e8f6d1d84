"""Games set up from a stated position over HTTP (tutorials, puzzles, audits): the cards are
dealt exactly in the order the creator gave, the game says its deal is not fair, a seat
cannot read the stated order before the end, and a wrong position is refused with nothing
appended. Stomping-grounds and fortress-royals so far, at every player count they take."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from core.tooling import audit_game
from games.fortress_royals.cards import DECK
from games.stomping_grounds.cards import DECK_KEYS, deck_ids
from games.stomping_grounds.turn import HAND_LIMIT
from projections.table import HIDDEN_OPTION
from stores.platform import Platform
from tests.api.conftest import bearer


def _stated_orders(decks: list[str]) -> list[list[str]]:
    """An order no shuffle is likely to give: each deck's card ids, reversed."""
    return [sorted(deck_ids(seat, key), reverse=True) for seat, key in enumerate(decks)]


def _create(client: FlaskClient, decks: list[str], orders: list[list[str]]) -> Any:
    return _create_kind(client, "stomping-grounds", len(decks), {"decks": decks, "deck": orders})


def _create_kind(client: FlaskClient, kind: str, players: int, options: dict[str, Any]) -> Any:
    seats = [{"name": f"seat{n}"} for n in range(players)]
    return client.post("/v1/games", json={"kind": kind, "players": seats, "options": options})


def _place_every_realm(client: FlaskClient, game: dict[str, Any]) -> list[dict[str, Any]]:
    """Each seat owed a realm places the first one it is offered, until the hands are dealt;
    returns every seat's own view after that."""
    headers = [bearer(seat["token"]) for seat in game["seats"]]
    url = f"/v1/games/{game['id']}"
    for _ in range(2 * len(headers)):
        seat = client.get(url, headers=headers[0]).get_json()["to_act"][0]
        mine = client.get(url, headers=headers[seat]).get_json()
        if mine["view"]["phase"] != "setup":
            break
        action = {"action": mine["legal_actions"][0], "expected_version": mine["version"]}
        assert client.post(f"{url}/actions", json=action, headers=headers[seat]).status_code == 200
    return [client.get(url, headers=h).get_json() for h in headers]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_stated_deck_order_deals_exactly_the_hands_it_states(client: FlaskClient, players: int) -> None:
    """The luck card is the stated top, the realm placed leaves the deck, and the hand is the
    next cards of the stated order: setup does not shuffle a stated deck."""
    decks = list(DECK_KEYS[:players])
    orders = _stated_orders(decks)
    created = _create(client, decks, orders)
    assert created.status_code == 201, created.get_data(as_text=True)
    game = created.get_json()
    assert game["fair_deal"] is False
    for seat, mine in enumerate(_place_every_realm(client, game)):
        me = mine["view"]["players"][seat]
        placed = {realm["card"] for realm in mine["view"]["realms"] if realm["owner"] == seat}
        assert me["junk"] == orders[seat][:1]
        rest = [card for card in orders[seat][1:] if card not in placed]
        assert me["hand"] == rest[:HAND_LIMIT]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_stated_royals_order_deals_the_two_cards_it_states_to_each_seat(client: FlaskClient, players: int) -> None:
    """One stated order serves the first-player draw and the round's deal: dealt one card at a
    time from the first player round the table, seat k (seat 0 first) holds cards k and k+players."""
    order = sorted(DECK, reverse=True)
    created = _create_kind(client, "fortress-royals", players, {"deck": order})
    assert created.status_code == 201, created.get_data(as_text=True)
    game = created.get_json()
    assert game["fair_deal"] is False
    headers = [bearer(seat["token"]) for seat in game["seats"]]
    url = f"/v1/games/{game['id']}"
    chooser = client.get(url, headers=headers[0]).get_json()["to_act"][0]
    version = client.get(url, headers=headers[chooser]).get_json()["version"]
    choice = {"action": {"type": "choose_first", "seat": 0}, "expected_version": version}
    assert client.post(f"{url}/actions", json=choice, headers=headers[chooser]).status_code == 200
    for seat, header in enumerate(headers):
        hands = client.get(url, headers=header).get_json()["view"]["hands"]
        assert hands[seat]["cards"] == [order[seat], order[seat + players]]


def test_the_audit_replays_a_game_set_up_from_a_stated_position(client: FlaskClient, platform: Platform) -> None:
    """The stated order is one of the game's stored options, so the audit's replay deals the
    same hands and finds every action's events again."""
    decks = list(DECK_KEYS[:2])
    game = _create(client, decks, _stated_orders(decks)).get_json()
    _place_every_realm(client, game)
    report = audit_game(platform, game["id"])
    assert report.ok, report.as_json()
    assert report.actions == 4 and {"hash_chain", "actions"} <= set(report.checks)


def test_a_seat_reads_that_a_position_was_stated_but_not_the_order(client: FlaskClient) -> None:
    """The stated order would show every hidden card: the options say only that it is hidden."""
    decks = list(DECK_KEYS[:2])
    orders = _stated_orders(decks)
    game = _create(client, decks, orders).get_json()
    seen = client.get(f"/v1/games/{game['id']}", headers=bearer(game["seats"][0]["token"]))
    assert seen.get_json()["options"]["deck"] == HIDDEN_OPTION
    assert orders[1][1] not in seen.get_data(as_text=True)


def test_a_position_that_loses_or_repeats_a_card_is_refused_and_appends_nothing(client: FlaskClient) -> None:
    """Every card of the seat's deck exactly once: a repeated card in place of another is refused."""
    decks = list(DECK_KEYS[:2])
    orders = _stated_orders(decks)
    orders[1][-1] = orders[1][0]
    refused = _create(client, decks, orders)
    assert refused.status_code == 422 and refused.mimetype == "application/problem+json"
    body = refused.get_json()
    assert body["code"] == "invalid_options"
    assert body["problems"] == [f"seat 1's deck order must hold every card of the {decks[1]} deck exactly once"]
    assert client.get("/v1/games").get_json()["total"] == 0
