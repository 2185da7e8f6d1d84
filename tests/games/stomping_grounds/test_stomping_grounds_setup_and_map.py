"""Scenarios: setup and the realm map (rulebook 'Starting the Game', 'Realms', 'Adjacent', 'Razed')."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest

from games.base import IllegalAction
from games.play import fold
from games.stomping_grounds import GAME
from games.stomping_grounds.cards import CARDS, DECKS, FIELDS, Effect, deck_ids, parse_card

from .helpers import cid, ev, first, row, table, types, when


def _setup(decks: list[str], tops: list[list[str]]):  # type: ignore[no-untyped-def]
    orders = []
    for seat, key in enumerate(decks):
        ids = deck_ids(seat, key)
        orders.append(tops[seat] + [c for c in ids if c not in tops[seat]])
    options = GAME.validate_options({"decks": decks, "deck": orders}, len(decks))
    events = GAME.setup(options, len(decks), random.Random(1))
    return events, fold(GAME, events)


def test_luck_draw_for_the_first_player_goes_into_the_junk() -> None:
    """'Each player draws a card for luck, and then places it in his junk pile. The player
    with the highest luck goes first.'"""
    events, state = _setup(["ember", "tide"], [[cid(0, "sack-the-granary")], [cid(1, "twist-of-fate")]])
    lucks = [e.data["luck"] for e in events if e.type == "LuckDrawn"]
    assert lucks == [1, 8]
    assert first(events, "FirstPlayerChosen").data["seat"] == 1
    assert state.players[0].junk == (cid(0, "sack-the-granary"),)
    assert state.players[1].junk == (cid(1, "twist-of-fate"),)


def test_tied_luck_draws_again() -> None:
    """'The player with the highest luck goes first' (ours: tied players draw again)."""
    events, state = _setup(
        ["ember", "tide"],
        [
            [cid(0, "stoke-the-embers"), cid(0, "sack-the-granary")],
            [cid(1, "moonwell-grotto"), cid(1, "wave-of-oblivion")],
        ],
    )
    assert [e.data["luck"] for e in events if e.type == "LuckDrawn"] == [6, 6, 1, 3]
    assert state.first == 1


def test_realms_are_played_in_the_order_written() -> None:
    """'Starting with the first player and going to the right, all players play a realm from
    their deck. Then, the last player plays another realm from their deck. All other players
    going to the right plays a second realm from the deck.'"""
    events, state = _setup(
        ["ember", "tide", "moss"],
        [[cid(0, "rampaging-fury")], [cid(1, "bind-the-storm-spirit")], [cid(2, "riddle-of-the-mushroom-ring")]],
    )
    assert state.first == 0
    # going to the right is against seat order (seats run clockwise, to the left)
    assert [(o.seat, o.kind) for o in state.owed] == [
        (0, "place_realm"),
        (2, "place_realm"),
        (1, "place_realm"),
        (1, "place_realm"),
        (0, "place_realm"),
        (2, "place_realm"),
    ]
    assert GAME.legal_actions(state, 0)[0] == {"type": "place_realm", "card": "ashfall-crag", "at": [0, 0]}
    assert {tuple(a["at"]) for a in GAME.legal_actions(state, 0)} == {(0, 0)}


def test_seven_cards_each_then_dragons_on_unoccupied_realms() -> None:
    """'All players draw 7 cards from their deck into their hand. Finally, starting with the
    first player and going to the left again, all players puts their dragon token on an
    unoccupied realm.'"""
    _, state = _setup(["ember", "tide"], [[cid(0, "rampaging-fury")], [cid(1, "bind-the-storm-spirit")]])
    rng = random.Random(2)
    while state.phase == "setup":
        seat = state.owed[0].seat
        events = GAME.decide(state, seat, GAME.legal_actions(state, seat)[0], rng)
        state = fold(GAME, events, state)
    assert [len(p.hand) for p in state.players] == [7, 7]
    assert [(o.seat, o.kind) for o in state.owed] == [(0, "place_dragon"), (1, "place_dragon")]
    events, state = when(state, 0, {"type": "place_dragon", "at": [0, 0]})
    assert {"type": "place_dragon", "at": [0, 0]} not in GAME.legal_actions(state, 1)
    with pytest.raises(IllegalAction):
        GAME.decide(state, 1, {"type": "place_dragon", "at": [0, 0]}, rng)
    events, state = when(state, 1, GAME.legal_actions(state, 1)[0])
    assert types(events)[-2:] == ["TurnBegan", "PhaseBegan"] and state.phase == "challenge" and state.active == 0


def test_realms_go_edge_to_edge_never_diagonally() -> None:
    """'Realms – Play on the center of the table next to another realm, edge to edge.' and
    'Adjacent – Only considers horizontal and vertical. Do not count diagonals.'"""
    state = table(
        realms=[(0, cid(0, "charred-orchard"), (0, 0))],
        dragons=[(0, 0), (0, 0)],
        hands=[[cid(0, "charred-orchard", 2)]],
        phase="reclaim",
    )
    spots = {tuple(a["at"]) for a in GAME.legal_actions(state, 0) if a["type"] == "play"}
    assert spots == {(1, 0), (-1, 0), (0, 1), (0, -1)}


def test_at_most_ten_realms_per_player() -> None:
    """'There can only be a maximum of 10 realms in play per player. For example, 20 realms for
    2 players.'"""
    realms = [
        (0, cid(0, slug, n), at)
        for (slug, n), at in zip(
            [(s, n) for s in ("charred-orchard", "sulfur-springs", "cinderfield-town") for n in (1, 2, 3)]
            + [("ashfall-crag", 1)],
            row(10, 0),
            strict=True,
        )
    ]
    realms += [
        (1, cid(1, slug, n), at)
        for (slug, n), at in zip(
            [(s, n) for s in ("fogbank-shoals", "drowned-chapel", "tidewater-village") for n in (1, 2, 3)]
            + [("moonwell-grotto", 1)],
            row(10, 1),
            strict=True,
        )
    ]
    hand = [cid(0, "ashfall-crag", 2)]
    full = table(realms=realms, dragons=[(0, 0), (1, 0)], hands=[hand], phase="reclaim")
    assert not [a for a in GAME.legal_actions(full, 0) if a["type"] == "play"]
    one_less = table(realms=realms[:-1], dragons=[(0, 0), (1, 0)], hands=[hand], phase="reclaim")
    assert [a for a in GAME.legal_actions(one_less, 0) if a["type"] == "play"]


def test_realms_are_owned_by_who_played_them() -> None:
    """'Orient the cards towards you so you know which ones are yours.' (a Town's start of turn
    effect works for its owner only)"""
    state = table(
        realms=[(0, cid(0, "cinderfield-town"), (0, 0)), (1, cid(1, "fogbank-shoals"), (1, 0))],
        dragons=[(1, 0), (1, 0)],
        phase="reclaim",
        active=1,
    )
    assert GAME.view(state, None)["realms"][0]["owner"] == 0
    _, state = when(state, 1, {"type": "end_phase"})
    events, state = when(state, 0, {"type": "pass"})
    assert [e.data["seat"] for e in events if e.type == "CardsStashed"] == [0]
    assert state.active == 0 and len(state.players[0].stash) == 1


def test_a_challenge_replaces_the_realms_text_and_border() -> None:
    """'Challenge - Play stacked on any realm. These replace the text and border on the realms.'"""
    lair = cid(0, "smoldering-lair")
    state = table(
        realms=[(0, cid(0, "charred-orchard"), (0, 0)), (0, lair, (1, 0)), (0, cid(0, "charred-orchard", 2), (2, 0))],
        challenges=[(0, cid(0, "bully-the-bridgekeeper"), (1, 0))],
        dragons=[(0, 0), (2, 0)],
        phase="flight",
    )
    events, after = when(state, 0, {"type": "fly", "to": [1, 0]})
    assert "DragonLanded" not in types(events), "the white-bordered challenge does not stop the flight"
    events, after = when(after, 0, {"type": "land"})
    assert len(after.players[0].stash) == 1, "one space flown; the covered lair gives no stash 2"


def test_razed_realms_fly_as_white_but_razed_challenges_stay_black_under_revision_1() -> None:
    """'That realm's text is no longer active and can be flown over as if it were white
    bordered during the flight phase.' Revision 1 also turned every razed challenge black
    (revision 2: test_stomping_grounds_revision_2.py)."""
    crag = cid(0, "ashfall-crag")
    realms = [(0, cid(0, "charred-orchard"), (0, 0)), (0, crag, (1, 0)), (0, cid(0, "charred-orchard", 2), (2, 0))]
    razed = [ev("RealmRazed", None, at=[1, 0])]
    state = table(realms=realms, dragons=[(0, 0), (2, 0)], phase="flight")
    events, _ = when(state, 0, {"type": "fly", "to": [1, 0]})
    assert "DragonLanded" in types(events), "a face-up black realm stops the flight"
    state = table(
        realms=realms,
        dragons=[(0, 0), (2, 0)],
        phase="flight",
        extra=razed,
    )
    events, after = when(state, 0, {"type": "fly", "to": [1, 0]})
    assert "DragonLanded" not in types(events)
    assert "CardsBurned" not in types(events) and not after.owed, "razed text gives no landing burn"
    covered = table(
        realms=realms,
        challenges=[(0, cid(0, "rampaging-fury"), (1, 0))],
        dragons=[(0, 0), (2, 0)],
        phase="flight",
        extra=razed,
        rules=1,
    )
    events, _ = when(covered, 0, {"type": "fly", "to": [1, 0]})
    assert "DragonLanded" in types(events), "revision 1: a razed white challenge counts as black"


EXAMPLES = {
    "misty-scalespine-mountain",
    "red-dragonscale",
    "saint-george-dragonslayer",
    "burn-down-the-farm",
    "impress-the-idiots",
}


def _raw_cards() -> list[tuple[str, dict]]:  # type: ignore[type-arg]
    folder = resources.files("games.stomping_grounds").joinpath("decks")
    out = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        raw = json.loads(entry.read_text(encoding="utf-8"))
        out += [(raw["key"], item) for item in raw["cards"]]
    return out


def test_card_data_says_where_it_comes_from() -> None:
    """Every card is the project's own design except the rulebook's five examples."""
    for _, raw in _raw_cards():
        if raw["slug"] in EXAMPLES:
            assert raw["source"].startswith("rulebook:"), raw["name"]
        else:
            assert raw["source"] == "ours: the project's own design", raw["name"]
    assert len(DECKS) == 4 and all(len(d) == 60 for d in DECKS.values())
    assert all(len(set(d)) >= 20 for d in DECKS.values())
    assert EXAMPLES.issubset(CARDS)


def test_every_card_states_every_printed_field() -> None:
    """'Parts of the Card: Card Name, Cost, Deck Icon, Luck, Card Type, Text Box' (and the
    border, challenge colour and number, Roam X, Requires X and timing the rules speak of)."""
    for key, raw in _raw_cards():
        assert set(raw) == set(FIELDS), raw["name"]
        assert raw["deck"] == key and isinstance(raw["luck"], int) and isinstance(raw["cost"], int)
        assert raw["type"] in ("realm", "challenge", "hoard", "action") and raw["text"]
        if raw["type"] in ("realm", "challenge"):
            assert raw["border"] in ("white", "black"), raw["name"]
        if raw["type"] == "challenge":
            assert raw["colour"] in ("red", "white", "blue") and isinstance(raw["number"], int), raw["name"]
            assert raw["effect"], raw["name"]
    broken = dict(next(raw for _, raw in _raw_cards() if raw["slug"] == "red-dragonscale"))
    del broken["requires"]
    with pytest.raises(ValueError):
        parse_card(broken, "ember")
    with pytest.raises(ValueError):
        parse_card({**broken, "requires": None}, "tide")


def test_the_rulebook_examples_keep_their_printed_facts() -> None:
    """'the Red Dragonscale card costs 1'; 'Saint George, Dragonslayer can only be played to an
    unoccupied Town'; 'Burn Down the Farm 5 - Burn 2'; 'Impress the Idiots 5 - Stash 2';
    'Misty Scalespine Mountain, a lair that lets her stash 2 when landing there'."""
    assert CARDS["red-dragonscale"].cost == 1
    george = CARDS["saint-george-dragonslayer"]
    assert (george.type, george.play_on_kind, george.play_on_unoccupied) == ("challenge", "Town", True)
    farm = CARDS["burn-down-the-farm"]
    assert (farm.type, farm.number, farm.effect) == ("challenge", 5, (Effect("burn", 2, "self"),))
    idiots = CARDS["impress-the-idiots"]
    assert (idiots.type, idiots.number, idiots.effect) == ("challenge", 5, (Effect("stash", 2, "self"),))
    misty = CARDS["misty-scalespine-mountain"]
    assert (misty.type, misty.kind, misty.landing) == ("realm", "Lair", (Effect("stash", 2, "self"),))


def test_no_card_is_special_cased_in_the_rules_code() -> None:
    """Effects are data built from primitives: no card name or slug appears in the code."""
    names = {c.name.lower() for c in CARDS.values()} | set(CARDS)
    folder = resources.files("games.stomping_grounds")
    for entry in folder.iterdir():
        if entry.name.endswith(".py"):
            code = entry.read_text(encoding="utf-8").lower()
            assert not [n for n in names if n in code], entry.name


def test_saint_george_only_on_an_unoccupied_town() -> None:
    """'Many cards have specific requirements that need to be met. For example, Saint George,
    Dragonslayer can only be played to an unoccupied Town.'"""
    george = cid(0, "saint-george-dragonslayer")
    towns = [(0, cid(0, "bellwick-market-town", n), (n - 1, 0)) for n in (1, 2)]
    state = table(
        decks=("ivory", "tide"),
        realms=[*towns, (0, cid(0, "pilgrim-road"), (2, 0))],
        dragons=[(0, 0), (2, 0)],
        hands=[[george]],
        phase="reclaim",
    )
    spots = [a["at"] for a in GAME.legal_actions(state, 0) if a["type"] == "play" and a["card"] == george]
    assert spots == [[1, 0]], "not the occupied Town, not the Road"
