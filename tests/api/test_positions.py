"""Games set up from a stated position over HTTP (tutorials, puzzles, audits): the cards are
dealt exactly in the order the creator gave, the game says its deal is not fair, a seat
cannot read the stated order before the end, and a wrong position is refused with nothing
appended. Stomping-grounds, fortress-royals, fortress-siege (with and without Winds of
Fate), dragon-fortress and dragoborne, at every player count they take."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from core.tooling import audit_game
from games.dragoborne.cards import DECKS as BORNE_DECKS
from games.dragoborne.cards import OPENING_HAND as BORNE_HAND
from games.dragoborne.cards import deck_keys as borne_keys
from games.dragoborne.cards import expand as borne_ids
from games.dragon_fortress.cards import FIRST_CALL_DEPTH
from games.dragon_fortress.cards import HAND_SIZE as DRAGON_HAND_SIZE
from games.dragon_fortress.game import GAME as DRAGON
from games.dragon_fortress.rules import common_cards as dragon_common_cards
from games.fortress_royals.cards import DECK
from games.fortress_siege.cards import MOVES_PER_TURN
from games.fortress_siege.cards import deck_ids as siege_deck_ids
from games.fortress_siege.game import GAME as SIEGE
from games.fortress_siege.rules import all_cards as siege_cards
from games.fortress_siege.rules import fortress_size
from games.stomping_grounds.cards import DECK_KEYS, deck_ids
from games.stomping_grounds.turn import HAND_LIMIT
from projections.table import HIDDEN_OPTION
from stores.platform import Platform
from tests.api.conftest import bearer
from workers.projector import Projector


def _stated_orders(decks: list[str]) -> list[list[str]]:
    """An order no shuffle is likely to give: each deck's card ids, reversed."""
    return [sorted(deck_ids(seat, key), reverse=True) for seat, key in enumerate(decks)]


def _create(client: FlaskClient, decks: list[str], orders: list[list[str]]) -> Any:
    return _create_kind(client, "stomping-grounds", len(decks), {"decks": decks, "deck": orders})


def _create_kind(client: FlaskClient, kind: str, players: int, options: dict[str, Any]) -> Any:
    seats = [{"name": f"seat{n}"} for n in range(players)]
    return client.post("/v1/games", json={"kind": kind, "players": seats, "options": options})


def _stated_game(
    client: FlaskClient, kind: str, players: int, options: dict[str, Any]
) -> tuple[dict[str, Any], list[dict[str, str]], str]:
    """A game of ``kind`` created from a stated position, which says its deal is not fair:
    the game, each seat's header and its URL."""
    created = _create_kind(client, kind, players, options)
    assert created.status_code == 201, created.get_data(as_text=True)
    game = created.get_json()
    assert game["fair_deal"] is False
    return game, [bearer(seat["token"]) for seat in game["seats"]], f"/v1/games/{game['id']}"


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
    game, headers, url = _stated_game(client, "fortress-royals", players, {"deck": order})
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


# -- fortress-siege: option 'decks', one Fortress per seat, top card first, Tombstone last --


def _siege_position(players: int, winds: bool) -> tuple[list[list[str]], int]:
    """Each seat's stated Fortress, in an order no shuffle is likely to give, and how many
    cards are left over. Without Winds of Fate seat k's own deck is reversed; with it every
    shared card is reversed and cut into equal Fortresses, the remainder set aside."""
    if winds:
        cards = list(reversed(siege_cards(players, True)))
        size = fortress_size(players, True)
        return [cards[seat * size : (seat + 1) * size] for seat in range(players)], len(cards) - size * players
    return [list(reversed(siege_deck_ids(seat))) for seat in range(players)], 0


def _siege_options(decks: list[list[str]], winds: bool) -> dict[str, Any]:
    """The options stating these Fortresses, with Winds of Fate when asked for."""
    return {"decks": decks, "winds_of_fate": True} if winds else {"decks": decks}


def _draw_a_turn_each(client: FlaskClient, game: dict[str, Any]) -> list[dict[str, Any]]:
    """Each seat in turn spends its whole turn drawing, from the first player round the
    table; returns every seat's own view after that."""
    headers = [bearer(seat["token"]) for seat in game["seats"]]
    url = f"/v1/games/{game['id']}"
    for _ in headers:
        seat = client.get(url).get_json()["to_act"][0]
        for _ in range(MOVES_PER_TURN):
            version = client.get(url).get_json()["version"]
            draw = {"action": {"type": "draw"}, "expected_version": version}
            assert client.post(f"{url}/actions", json=draw, headers=headers[seat]).status_code == 200
    return [client.get(url, headers=h).get_json() for h in headers]


SIEGE_TABLES = [
    (players, winds) for winds in (False, True) for players in range(SIEGE.min_players, SIEGE.max_players + 1)
]


@pytest.mark.parametrize(("players", "winds"), SIEGE_TABLES)
def test_stated_fortresses_are_dealt_exactly_top_card_first_and_tombstone_last(
    client: FlaskClient, players: int, winds: bool
) -> None:
    """Each seat's Fortress is its stated list as given: the Tombstone shown is the last card,
    the Fortress holds the whole list, and a turn of draws takes the first cards in order;
    with Winds of Fate the shared cards not stated are set aside."""
    decks, left_over = _siege_position(players, winds)
    created = _create_kind(client, "fortress-siege", players, _siege_options(decks, winds))
    assert created.status_code == 201, created.get_data(as_text=True)
    game = created.get_json()
    assert game["fair_deal"] is False
    for seat, mine in enumerate(_draw_a_turn_each(client, game)):
        view = mine["view"]
        me = view["players"][seat]
        assert view["fixed_deal"] is True and view["winds_of_fate"] is winds and view["set_aside"] == left_over
        assert [player["tombstone"] for player in view["players"]] == [deck[-1] for deck in decks]
        assert me["fortress"] == len(decks[seat]) - MOVES_PER_TURN
        assert me["hand"] == decks[seat][:MOVES_PER_TURN]


# -- dragon-fortress: option 'deck', the common cards top first, dealt round-robin --


def _dragon_position(players: int) -> list[str]:
    """Every common card in play at this table, the manifest order reversed."""
    return list(reversed(dragon_common_cards(players)))


def _stay_and_draw(client: FlaskClient, url: str, header: dict[str, str], seat: int) -> str:
    """The seat to act forgoes its Estate Move and draws from the common supply; returns the
    card drawn as its own view shows it (the last card of its hand)."""
    for action in ({"type": "stay"}, {"type": "draw", "pile": "common"}):
        version = client.get(url).get_json()["version"]
        moved = client.post(f"{url}/actions", json={"action": action, "expected_version": version}, headers=header)
        assert moved.status_code == 200, moved.get_data(as_text=True)
    return client.get(url, headers=header).get_json()["view"]["players"][seat]["hand"][-1]


def _place_first_legal(client: FlaskClient, url: str, header: dict[str, str]) -> None:
    """The seat to act places the first card its legal actions offer, ending its turn."""
    mine = client.get(url, headers=header).get_json()
    placed = {"action": mine["legal_actions"][0], "expected_version": mine["version"]}
    assert client.post(f"{url}/actions", json=placed, headers=header).status_code == 200


@pytest.mark.parametrize("players", range(DRAGON.min_players, DRAGON.max_players + 1))
def test_a_stated_common_order_deals_the_hands_round_robin_and_stacks_the_rest(
    client: FlaskClient, players: int
) -> None:
    """Seat k holds cards k, k+players, ... of the stated order up to the hands' total; the
    rest is the supply in the stated order with the Call card put in at its depth, so each
    seat's first draw takes the next stated card in turn."""
    deck = _dragon_position(players)
    dealt = DRAGON_HAND_SIZE * players
    game, headers, url = _stated_game(client, "dragon-fortress", players, {"deck": deck})
    for seat, header in enumerate(headers):
        view = client.get(url, headers=header).get_json()["view"]
        assert view["players"][seat]["hand"] == deck[seat:dealt:players]
        assert view["supply"] == {"count": len(deck) - dealt + 1, "call_depth": FIRST_CALL_DEPTH}
    for turn in range(players):
        seat = client.get(url).get_json()["to_act"][0]
        assert seat == turn
        assert _stay_and_draw(client, url, headers[seat], seat) == deck[dealt + turn]
        _place_first_legal(client, url, headers[seat])
    supply = client.get(url).get_json()["view"]["supply"]
    assert supply == {"count": len(deck) - dealt + 1 - players, "call_depth": FIRST_CALL_DEPTH - players}


def _listing(platform: Platform) -> Projector:
    """A projector reading from the start of the feed, so the games list shows the games
    created after it (stepped by ``_read_as`` before it reads)."""
    projector = Projector(platform, "positions-test")
    projector.ensure_group()
    return projector


def _read_as(client: FlaskClient, game_id: str, header: dict[str, str], projector: Projector) -> dict[str, Any]:
    """Every route that reads a game in play, as one reader (a seat's header, or none for a
    spectator): the route's name and its response. The list must hold the game: a summary
    read from an empty list would prove nothing."""
    while projector.step(block_ms=10):
        pass
    listed = client.get("/v1/games?status=active").get_json()["games"]
    assert [summary["id"] for summary in listed] == [game_id]
    url = f"/v1/games/{game_id}"
    version = client.get(url).get_json()["version"]
    routes = [
        url,
        f"{url}/events",
        f"{url}/history/1",
        f"{url}/history/{version}",
        f"{url}/replay",
        f"{url}/export",
        "/v1/games",
        "/v1/games?status=active",
    ]
    return {route: client.get(route, headers=header) for route in routes}


def _assert_unseen_cards_unread(
    client: FlaskClient, game_id: str, header: dict[str, str], unseen: set[str], projector: Projector
) -> None:
    """No route names, as a JSON string, a stated card the reader has not seen."""
    for route, response in _read_as(client, game_id, header, projector).items():
        assert response.status_code == 200, (route, response.get_data(as_text=True))
        text = response.get_data(as_text=True)
        named = sorted(card for card in unseen if json.dumps(card) in text)
        assert named == [], (route, named)


@pytest.mark.parametrize("winds", [False, True])
def test_no_route_shows_a_reader_a_stated_fortress_card_it_has_not_seen(
    client: FlaskClient, platform: Platform, winds: bool
) -> None:
    """Only the Tombstones of a stated deal are public, and a drawn card is seen by its drawer
    alone: the seat that drew, another seat and a spectator each read no other stated card,
    on any route that reads the game, and the options say only that the deal is hidden."""
    projector = _listing(platform)
    decks, _ = _siege_position(3, winds)
    created = _create_kind(client, "fortress-siege", 3, _siege_options(decks, winds))
    game = created.get_json()
    url = f"/v1/games/{game['id']}"
    drawer = client.get(url).get_json()["to_act"][0]
    headers = [bearer(seat["token"]) for seat in game["seats"]]
    draw = {"action": {"type": "draw"}, "expected_version": client.get(url).get_json()["version"]}
    assert client.post(f"{url}/actions", json=draw, headers=headers[drawer]).status_code == 200
    drawn = decks[drawer][0]
    assert client.get(url, headers=headers[drawer]).get_json()["view"]["players"][drawer]["hand"] == [drawn]
    assert json.dumps(drawn) in client.get(f"{url}/events", headers=headers[drawer]).get_data(as_text=True)
    hidden = {card for deck in decks for card in deck[:-1]}
    other = (drawer + 1) % 3
    assert client.get(url, headers=headers[other]).get_json()["options"]["decks"] == HIDDEN_OPTION
    _assert_unseen_cards_unread(client, game["id"], headers[drawer], hidden - {drawn}, projector)
    _assert_unseen_cards_unread(client, game["id"], headers[other], hidden, projector)
    _assert_unseen_cards_unread(client, game["id"], {}, hidden, projector)
    assert not any(json.dumps(card) in created.get_data(as_text=True) for card in hidden)


def test_no_route_shows_a_reader_a_stated_common_card_it_has_not_seen(client: FlaskClient, platform: Platform) -> None:
    """A seat has seen its own hand and what it drew, a spectator nothing of the stated order:
    the seat that drew, another seat and a spectator each read no other stated card, on any
    route that reads the game, and the options say only that the deal is hidden."""
    players = 3
    projector = _listing(platform)
    deck = _dragon_position(players)
    dealt = DRAGON_HAND_SIZE * players
    created = _create_kind(client, "dragon-fortress", players, {"deck": deck})
    game = created.get_json()
    url = f"/v1/games/{game['id']}"
    headers = [bearer(seat["token"]) for seat in game["seats"]]
    drawer = client.get(url).get_json()["to_act"][0]
    drawn = _stay_and_draw(client, url, headers[drawer], drawer)
    assert drawn == deck[dealt]
    assert json.dumps(drawn) in client.get(f"{url}/events", headers=headers[drawer]).get_data(as_text=True)
    other = (drawer + 1) % players
    assert client.get(url, headers=headers[other]).get_json()["options"]["deck"] == HIDDEN_OPTION
    hidden = set(deck)
    _assert_unseen_cards_unread(
        client, game["id"], headers[drawer], hidden - set(deck[drawer:dealt:players]) - {drawn}, projector
    )
    _assert_unseen_cards_unread(client, game["id"], headers[other], hidden - set(deck[other:dealt:players]), projector)
    _assert_unseen_cards_unread(client, game["id"], {}, hidden, projector)
    assert not any(json.dumps(card) in created.get_data(as_text=True) for card in hidden)


@pytest.mark.parametrize("winds", [False, True])
def test_the_audit_replays_a_fortress_siege_game_set_up_from_stated_fortresses(
    client: FlaskClient, platform: Platform, winds: bool
) -> None:
    """The stated Fortresses are among the game's stored options, so the audit's replay deals
    them again and finds every draw's events again."""
    decks, _ = _siege_position(3, winds)
    game = _create_kind(client, "fortress-siege", 3, _siege_options(decks, winds)).get_json()
    _draw_a_turn_each(client, game)
    report = audit_game(platform, game["id"])
    assert report.ok, report.as_json()
    assert report.actions == 3 * MOVES_PER_TURN and {"hash_chain", "actions"} <= set(report.checks)


def test_the_audit_replays_a_dragon_fortress_game_set_up_from_a_stated_common_order(
    client: FlaskClient, platform: Platform
) -> None:
    """The stated order is among the game's stored options, so the audit's replay deals the
    same hands and supply and finds every action's events again."""
    players = 3
    game = _create_kind(client, "dragon-fortress", players, {"deck": _dragon_position(players)}).get_json()
    headers = [bearer(seat["token"]) for seat in game["seats"]]
    url = f"/v1/games/{game['id']}"
    for seat in range(players):
        _stay_and_draw(client, url, headers[seat], seat)
        _place_first_legal(client, url, headers[seat])
    report = audit_game(platform, game["id"])
    assert report.ok, report.as_json()
    assert report.actions == 3 * players and {"hash_chain", "actions"} <= set(report.checks)


def _readme_example(game: str) -> dict[str, Any]:
    """The options object the game's README gives under "Setting up a position"."""
    text = (Path(__file__).parents[2] / "games" / game / "README.md").read_text(encoding="utf-8")
    section = text.split("## Setting up a position", 1)[1]
    return json.loads(section.split("```json", 1)[1].split("```", 1)[0])


def test_the_fortress_siege_readme_example_deals_what_it_says(client: FlaskClient) -> None:
    """Two players with Winds of Fate: the Tombstones are the lists' last cards, so the second
    Joker's seat starts, and each seat's first turn of draws takes the top of its list."""
    options = _readme_example("fortress_siege")
    decks = options["decks"]
    created = _create_kind(client, "fortress-siege", 2, options)
    assert created.status_code == 201, created.get_data(as_text=True)
    game = created.get_json()
    mine = _draw_a_turn_each(client, game)
    assert [player["tombstone"] for player in mine[0]["view"]["players"]] == ["2H.0", "JK2.0"]
    assert mine[0]["view"]["first"] == 1 and mine[0]["view"]["set_aside"] == 0
    assert [own["view"]["players"][seat]["hand"] for seat, own in enumerate(mine)] == [
        deck[:MOVES_PER_TURN] for deck in decks
    ]


def test_the_dragon_fortress_readme_example_deals_what_it_says(client: FlaskClient) -> None:
    """Three players: each hand starts with a Guard Tower, seat 0's second card is the Watch
    Tower, and the rest of each hand is Crop Fields in manifest order."""
    created = _create_kind(client, "dragon-fortress", 3, _readme_example("dragon_fortress"))
    assert created.status_code == 201, created.get_data(as_text=True)
    game = created.get_json()
    url = f"/v1/games/{game['id']}"
    hands = [
        client.get(url, headers=bearer(seat["token"])).get_json()["view"]["players"][number]["hand"]
        for number, seat in enumerate(game["seats"])
    ]
    fields = [f"crop-field-{n:02d}" for n in range(1, 12)]
    assert hands == [
        ["guard-tower-01", "watch-tower-01", *fields[2:9:3]],
        ["guard-tower-02", *fields[0:10:3]],
        ["guard-tower-03", *fields[1:11:3]],
    ]


# -- dragoborne: each seat's deck order, and who goes first ---------------------------------

BORNE = ["emberguard", "tidecrypt"]


def _borne_position() -> list[list[str]]:
    """Each seat's whole deck as card names, top first, in an order no shuffle is likely
    to give: the names sorted backwards."""
    return [sorted(borne_keys(BORNE_DECKS[name]), reverse=True) for name in BORNE]


@pytest.mark.parametrize("first", [0, 1])
def test_a_stated_dragoborne_order_deals_each_seat_the_top_of_its_deck(client: FlaskClient, first: int) -> None:
    """Each seat's opening hand is the top five of the order stated for it, the seat
    stated goes first, and the game says its deal is not fair."""
    orders = _borne_position()
    options = {"decks": BORNE, "deck": orders, "first_player": first}
    created = _create_kind(client, "dragoborne", 2, options)
    assert created.status_code == 201, created.get_data(as_text=True)
    game = created.get_json()
    assert game["fair_deal"] is False
    url = f"/v1/games/{game['id']}"
    for seat, token in enumerate(seat["token"] for seat in game["seats"]):
        view = client.get(url, headers=bearer(token)).get_json()["view"]
        mine = next(player for player in view["players"] if player["seat"] == seat)
        assert mine["hand"] == borne_ids(seat, orders[seat])[:BORNE_HAND]
        assert mine["deck"] == len(orders[seat]) - BORNE_HAND
    assert client.get(url).get_json()["view"]["first"] == first


def test_no_route_shows_a_reader_a_stated_dragoborne_card_it_has_not_seen(
    client: FlaskClient, platform: Platform
) -> None:
    """A seat has seen its own opening hand, a spectator nothing of the stated orders: no
    route that reads the game names another stated card to either."""
    projector = _listing(platform)
    orders = _borne_position()
    created = _create_kind(client, "dragoborne", 2, {"decks": BORNE, "deck": orders, "first_player": 0})
    game = created.get_json()
    headers = [bearer(seat["token"]) for seat in game["seats"]]
    dealt = [borne_ids(seat, orders[seat]) for seat in range(2)]
    hidden = {card for cards in dealt for card in cards}
    assert client.get(f"/v1/games/{game['id']}", headers=headers[1]).get_json()["options"]["deck"] == HIDDEN_OPTION
    for seat in range(2):
        _assert_unseen_cards_unread(
            client, game["id"], headers[seat], hidden - set(dealt[seat][:BORNE_HAND]), projector
        )
    _assert_unseen_cards_unread(client, game["id"], {}, hidden, projector)
    assert not any(json.dumps(card) in created.get_data(as_text=True) for card in hidden)


def test_the_audit_replays_a_dragoborne_game_set_up_from_stated_orders(client: FlaskClient, platform: Platform) -> None:
    created = _create_kind(client, "dragoborne", 2, {"decks": BORNE, "deck": _borne_position(), "first_player": 1})
    game = created.get_json()
    url = f"/v1/games/{game['id']}"
    headers = [bearer(seat["token"]) for seat in game["seats"]]
    for _ in range(6):  # the opening's choices, each seat's first legal one
        table = client.get(url).get_json()
        if not table["to_act"]:
            break
        seat = table["to_act"][0]
        mine = client.get(url, headers=headers[seat]).get_json()
        action = {"action": mine["legal_actions"][0], "expected_version": mine["version"]}
        assert client.post(f"{url}/actions", json=action, headers=headers[seat]).status_code == 200
    report = audit_game(platform, game["id"])
    assert report.ok, report.reason


def test_the_fortress_royals_readme_example_deals_what_it_says(client: FlaskClient) -> None:
    """Seat 0 draws the King, seat 1 the 2: seat 0 chooses, chooses itself, and the round
    deals it KS and QS and seat 1 2H and 3H."""
    options = _readme_example("fortress_royals")
    created = _create_kind(client, "fortress-royals", 2, options)
    assert created.status_code == 201, created.get_data(as_text=True)
    game = created.get_json()
    headers = [bearer(seat["token"]) for seat in game["seats"]]
    url = f"/v1/games/{game['id']}"
    table = client.get(url, headers=headers[0]).get_json()
    assert table["to_act"] == [0]
    choice = {"action": {"type": "choose_first", "seat": 0}, "expected_version": table["version"]}
    assert client.post(f"{url}/actions", json=choice, headers=headers[0]).status_code == 200
    hands = [
        client.get(url, headers=header).get_json()["view"]["hands"][seat]["cards"]
        for seat, header in enumerate(headers)
    ]
    assert hands == [["KS", "QS"], ["2H", "3H"]]


def test_a_stated_first_player_goes_first_even_against_a_higher_tombstone(client: FlaskClient) -> None:
    """``first_player`` fixes the one thing stated Fortresses leave to the lot (a tie of the
    highest Tombstones), and overrides the Tombstones when they are not tied."""
    decks, _ = _siege_position(3, False)
    for first in range(3):
        options = {**_siege_options(decks, False), "first_player": first}
        game, _, url = _stated_game(client, "fortress-siege", 3, options)
        table = client.get(url).get_json()
        assert table["view"]["first"] == first and table["to_act"] == [first]
        assert game["fair_deal"] is False


def test_a_first_player_who_is_not_at_the_table_is_refused_and_appends_nothing(client: FlaskClient) -> None:
    refused = _create_kind(client, "fortress-siege", 2, {"first_player": 2})
    assert refused.status_code == 422 and refused.mimetype == "application/problem+json"
    body = refused.get_json()
    assert body["code"] == "invalid_options"
    assert body["problems"] == ["option 'first_player' must be a seat of this game, 0 to 1, not 2"]
    assert client.get("/v1/games").get_json()["total"] == 0
