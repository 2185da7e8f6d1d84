"""Rules revision 2: the Gate Tower no longer buried, purchases one of a type per
phase, the Gold Cost paid, no fleeing back to the player left, and card data with no common
card or upgrade strictly dominated; each earlier reading kept as an option. Also the
rulebook's worked examples that had no scenario of their own."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from games.base import GameEvent, IllegalAction, InvalidOptions
from games.dragon_fortress import GAME
from games.dragon_fortress.cards import DRAGON_IDS, GATE_IDS, TYPE_OF, TYPES, CardType, points_of
from games.dragon_fortress.reading import estate_power, fortress_power, gold_power
from games.dragon_fortress.state import State
from games.play import fold
from tests.games.dragon_fortress.tables import given, kinds, table_event, when

STAY = {"type": "stay"}
DRAW = {"type": "draw", "pile": "common"}
TAKEN = {1: ["spitfire-02"], 2: ["dread-wyrm-01"], 3: ["dread-wyrm-02"]}  # every other line holds a dragon


def _gates_at_front(line: tuple[str, ...]) -> bool:
    """No card but a Gate Tower or a dragon stands behind (toward the Front Line) a Gate Tower."""
    gates = [at for at, card in enumerate(line) if card in GATE_IDS]
    return not gates or all(card in GATE_IDS | DRAGON_IDS for card in line[gates[0] :])


def _purchases(table: State) -> list[str]:
    return [a["card"] for a in GAME.legal_actions(table, table.turn) if a["type"] == "purchase"]


def _back_to(table: State, seat: int) -> State:
    """The other players' turns, as given: the turn comes back to ``seat``."""
    return fold(GAME, [GameEvent("TurnPassed", {"to": seat}, (seat + 1) % table.players)], table)


def _buy(table: State, card: str) -> State:
    """Seat 0 purchases ``card``, then (never two turns in a row) draws and places a turn."""
    _, table = when(table, 0, STAY, {"type": "purchase", "card": card})
    _, table = when(_back_to(table, 0), 0, STAY, DRAW)
    _, table = when(table, 0, GAME.legal_actions(table, 0)[0])
    return _back_to(table, 0)


# --- the Gate Tower stays at the Front Line ------------------------------------------------


def test_a_gate_tower_a_dragon_fled_back_beyond_is_not_buried() -> None:
    """ "The Gate Tower, once placed, will always stay on the Front Line" (revision 1's bug: a
    dragon fled back to its own Front Line, beyond the gate, and the card placed next went in
    front of the gate for good)."""
    hand = ["farmstead-01", "crop-field-02", "crop-field-03", "crop-field-04", "crop-field-05"]
    lines = {0: ["spitfire-01", "crop-field-01", "gate-tower-01"], **TAKEN}
    table = given(table_event(lines=lines, hands={0: hand}, supply_top=["crop-field-06"], options={"flee_home": True}))
    _, table = when(table, 0, STAY, DRAW)
    assert table.estates[0].line == ("crop-field-01", "gate-tower-01", "spitfire-01")

    events, after = when(table, 0, {"type": "place", "card": "farmstead-01"})

    assert events[0] == GameEvent("CardPlaced", {"card": "farmstead-01", "at": 1}, 0)
    assert after.estates[0].line == ("crop-field-01", "farmstead-01", "gate-tower-01", "spitfire-01")
    _, after = when(_back_to(after, 0), 0, STAY)
    assert after.estates[0].line == ("crop-field-01", "farmstead-01", "spitfire-01", "gate-tower-01")
    _, after = when(after, 0, DRAW, {"type": "place", "card": "crop-field-02"})
    assert after.estates[0].line[-2:] == ("crop-field-02", "gate-tower-01"), "behind the dragon, before the gate"


@pytest.mark.parametrize(
    "options, line",
    [
        ({}, ("crop-field-01", "farmstead-01", "gate-tower-01", "spitfire-01", "gate-tower-02")),
        ({"rules": 1}, ("crop-field-01", "gate-tower-01", "spitfire-01", "farmstead-01", "gate-tower-02")),
    ],
)
def test_a_dragon_among_two_gate_towers_leaves_both_at_the_front_line(
    options: Mapping[str, Any], line: tuple[str, ...]
) -> None:
    """ "The Gate Tower, once placed, will always stay on the Front Line" (a dragon that fled in
    at the very front has passed one of two Gate Towers when a card is placed: under revision 1
    the card went between the dragon and the last gate, burying the first)."""
    hand = ["farmstead-01", "crop-field-02", "crop-field-03", "crop-field-04", "crop-field-05"]
    given_line = ["crop-field-01", "gate-tower-01", "gate-tower-02", "spitfire-01"]
    table = given(table_event(lines={0: given_line}, hands={0: hand}, supply_top=["crop-field-06"], options=options))

    _, after = when(table, 0, STAY, DRAW, {"type": "place", "card": "farmstead-01"})

    assert after.estates[0].line == line
    assert _gates_at_front(line) == (options == {})


@pytest.mark.parametrize("seed", range(6))
def test_in_random_play_no_card_is_ever_placed_behind_a_gate_tower(seed: int) -> None:
    """ "The Gate Tower, once placed, will always stay on the Front Line", checked after every
    action of random games (with ``flee_home``, which sends dragons back beyond the gates too)."""
    rng = random.Random(seed)
    options = GAME.validate_options({"flee_home": seed % 2 == 1}, 3 + seed % 2)
    table = fold(GAME, GAME.setup(options, 3 + seed % 2, rng))
    while not GAME.is_over(table):
        seat = min(GAME.to_act(table))
        _, table = when(table, seat, rng.choice(GAME.legal_actions(table, seat)))
        for estate in table.estates:
            assert _gates_at_front(estate.line), estate.line
    assert GAME.outcome(table) is not None


# --- a dragon flees to another player ------------------------------------------------------


def test_a_dragon_at_the_flag_never_flees_back_to_the_player_it_leaves() -> None:
    """ "Three scenarios will cause a dragon to flee your estate and head to another player"
    (ours, where the rulebook is silent: with every other line holding a dragon, it has no other
    player to go to and leaves the game unscored, as a dragon pushed out by a second one does)."""
    table = given(table_event(lines={0: ["spitfire-01", "crop-field-01"], **TAKEN}))

    events, after = when(table, 0, STAY)

    assert GameEvent("DragonFled", {"dragon": "spitfire-01", "to": None}, 0) in events
    assert after.estates[0].line == ("crop-field-01",)
    assert "spitfire-01" in after.out and "spitfire-01" not in after.estates[0].trophies


def test_a_dragon_razing_gold_with_every_other_line_taken_leaves_the_game() -> None:
    """ "Three scenarios will cause a dragon to flee your estate and head to another player\""""
    table = given(table_event(lines={0: ["crop-field-01", "gold-01", "cinder-drake-01"], **TAKEN}))

    events, after = when(table, 0, STAY)

    assert kinds(events)[:3] == ["EstateMoveForgone", "DragonAdvanced", "CardRazed"]
    assert GameEvent("DragonFled", {"dragon": "cinder-drake-01", "to": None}, 0) in events
    assert not any(card in DRAGON_IDS for card in after.estates[0].line)


def test_a_dragon_still_flees_to_the_first_other_player_without_one() -> None:
    """ "Three scenarios will cause a dragon to flee your estate and head to another player"
    (counter-clockwise: seat 0's dragon skips seat 3, which holds one, for seat 2)."""
    table = given(table_event(lines={0: ["spitfire-01", "crop-field-01"], 3: ["dread-wyrm-01"]}))

    events, after = when(table, 0, STAY)

    assert GameEvent("DragonFled", {"dragon": "spitfire-01", "to": 2}, 0) in events
    assert after.estates[2].line[-1] == "spitfire-01"


# --- one purchase of each type per phase -----------------------------------------------------


def test_an_unused_purchase_does_not_carry_over_to_the_next_phase() -> None:
    """ "You may only purchase one of each card type per phase." (no Barn bought in Fallow: still
    one Barn only in Meadow)"""
    line = ["meadow-01", *(f"gold-{n:02d}" for n in range(1, 7))]
    table = given(table_event(lines={0: line}, reached={0: 2}, call_at=99))

    table = _buy(table, "barn")

    _, table = when(table, 0, STAY)
    assert "barn" not in _purchases(table) and "gate-tower" in _purchases(table)
    with pytest.raises(IllegalAction, match="one Barn per phase"):
        GAME.decide(table, 0, {"type": "purchase", "card": "barn"}, random.Random(0))


def test_with_purchases_carry_over_a_phase_missed_may_be_bought_later() -> None:
    """ "You may only purchase one of each card type per phase." (the ``purchases_carry_over``
    option, revision 1's reading: one Barn per phase reached, so two in Meadow)"""
    line = ["meadow-01", *(f"gold-{n:02d}" for n in range(1, 7))]
    table = given(table_event(lines={0: line}, reached={0: 2}, call_at=99, options={"purchases_carry_over": True}))

    table = _buy(table, "barn")

    _, table = when(table, 0, STAY)
    assert "barn" in _purchases(table)


def test_the_rulebooks_purchase_example_phase_by_phase() -> None:
    """ "You may only purchase one of each card type per phase." (its example: Fallow allows a Barn
    and a Gate Tower; Meadow a Mill, a War Tower and one more Barn and Gate Tower; Pasture a
    Granary, a Dragon Tower and one more of all others; gold kept here, so that only the limits
    are at work)"""
    crops = [f"crop-field-{n:02d}" for n in range(1, 16)]
    towers = [f"watch-tower-{n:02d}" for n in range(1, 9)]
    line = ["fallow-01", "gold-01", "gold-02", "gold-03", *crops, *towers]
    table = given(table_event(lines={0: line}, reached={0: 1}, call_at=99, options={"gold_kept": True}))
    phases = [
        ("meadow", ["barn", "gate-tower"]),
        ("pasture", ["barn", "mill", "gate-tower", "war-tower"]),
        (None, ["barn", "mill", "granary", "gate-tower", "war-tower", "dragon-tower"]),
    ]
    for next_phase, allowed in phases:
        _, offered = when(table, 0, STAY)
        assert _purchases(offered) == allowed
        for card in allowed:
            table = _buy(table, card)
        _, offered = when(table, 0, STAY)
        assert _purchases(offered) == [], "one of each type this phase, all bought"
        if next_phase:
            _, table = when(table, 0, STAY, {"type": "advance", "phase": next_phase})
            table = _back_to(table, 0)

    bought = GAME.view(table, 0)["players"][0]["purchases"]
    caps = {"barn": 3, "mill": 2, "granary": 1, "gate-tower": 3, "war-tower": 2, "dragon-tower": 1}
    assert bought == caps, "the example reaches exactly the caps"


# --- the Gold Cost is paid ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, paid",
    [({}, ["gold-03", "gold-02"]), ({"gold_kept": True}, None), ({"rules": 1}, None)],
)
def test_a_purchase_pays_its_gold_cost(options: Mapping[str, Any], paid: list[str] | None) -> None:
    """ "Gold Cost" (printed on every upgrade, in the card anatomy): the gold is spent, back to
    the gold supply (ours: the gold nearest the Front Line, as the rulebook does not say which);
    with ``gold_kept``, and under revision 1, gold is a requirement only."""
    line = ["meadow-01", "gold-01", "crop-field-01", "gold-02", "gold-03"]
    table = given(table_event(lines={0: line}, reached={0: 2}, options=options))
    gold_supply = table.gold

    events, after = when(table, 0, STAY, {"type": "purchase", "card": "mill"})

    if paid is None:
        assert "paid" not in events[0].data
        assert after.estates[0].line == (*line, "mill-01")
        assert after.gold == gold_supply
    else:
        assert events[0] == GameEvent("StructurePurchased", {"card": "mill-01", "at": 3, "paid": paid}, 0)
        assert after.estates[0].line == ("meadow-01", "gold-01", "crop-field-01", "mill-01")
        assert after.gold == (*gold_supply, *paid), "back to the bottom of the gold supply"
        _, later = when(_back_to(after, 0), 0, STAY)
        assert "mill" not in _purchases(later), "one gold left: not enough for a second"


# --- the options ----------------------------------------------------------------------------


def test_each_earlier_reading_is_an_option_off_by_default() -> None:
    """The readings of revision 1 that play well stay available under revision 2, named."""
    options = {option.name: option for option in GAME.options}
    for name in ("flee_home", "purchases_carry_over", "gold_kept"):
        assert options[name].type == "boolean" and options[name].default is False
    assert GAME.rules_revision == 2
    checked = GAME.validate_options(None, 3)
    assert checked["rules"] == 2 and not checked["flee_home"]


def test_the_options_belong_to_revision_2() -> None:
    """Revision 1 always plays its own readings: asking for one of them as an option there is
    refused rather than silently ignored."""
    with pytest.raises(InvalidOptions, match="gold_kept"):
        GAME.validate_options({"rules": 1, "gold_kept": True}, 3)
    assert GAME.validate_options({"rules": 1}, 3)["rules"] == 1


# --- the card set -----------------------------------------------------------------------------


def _dominated(weak: CardType, strong: CardType, points: Mapping[str, int]) -> bool:
    """``strong`` is at least as good as ``weak`` on every number, and better on one: power,
    shots and points (a higher estate symbol is also razed by fewer dragons, more shots are
    ignored by fewer), no higher Gold Cost or phase, and no ability ``weak`` has and it lacks."""
    good = [(weak.estate_power, strong.estate_power), (weak.shots, strong.shots)]
    good.append((points[weak.key], points[strong.key]))
    good += [(strong.gold_cost, weak.gold_cost), (strong.phase, weak.phase)]
    if weak.ability not in (None, strong.ability):
        return False
    return all(b >= a for a, b in good) and any(b > a for a, b in good)


def _dominance(revision: int) -> list[tuple[str, str]]:
    points = {t.key: points_of(revision)[f"{t.key}-01"] for t in TYPES}
    chosen = [t for t in TYPES if t.group in ("common", "upgrade")]
    return [(a.key, b.key) for a in chosen for b in chosen if a is not b and _dominated(a, b, points)]


def test_no_card_a_player_chooses_is_strictly_dominated_by_another() -> None:
    """The card data is ours (the rulebook prints none of these numbers): no common card or
    upgrade is worse than another on every count. Revision 1's data had two such pairs."""
    assert _dominance(1) == [("crop-field", "farmstead"), ("watch-tower", "guard-tower")]
    assert _dominance(2) == []


def test_revision_2_card_data_changes_only_points_and_only_for_new_games() -> None:
    """The card data of revision 1 stays as it was for games played under it."""
    assert points_of(1)["crop-field-01"] == 0 and points_of(2)["crop-field-01"] == 1
    assert points_of(1)["farmstead-01"] == 1 and points_of(2)["farmstead-01"] == 0
    line = {0: ["crop-field-01", "watch-tower-01"]}
    first = GAME.view(given(table_event(lines=line, options={"rules": 1})), None)
    second = GAME.view(given(table_event(lines=line)), None)
    assert first["players"][0]["victory_points"] == 0
    assert second["players"][0]["victory_points"] == 2


def test_the_per_card_table_names_every_card_a_player_can_use() -> None:
    """``card_names`` and ``action_cards`` (the balance bench's per-card table)."""
    table = given(table_event(lines={0: ["fallow-01", "gold-01"]}, reached={0: 1}, call_at=0))
    names = GAME.card_names(table)
    assert "Crop Field" in names and "Shadow Terror" in names and "Estate Flag" not in names
    _, table = when(table, 0, STAY)

    assert GAME.action_cards(table, 0, DRAW) == ("Dragon Call", TYPE_OF[table.dragons[0]].name)
    assert GAME.action_cards(table, 0, {"type": "draw", "pile": "gold"}) == ("Gold",)
    assert GAME.action_cards(table, 0, {"type": "purchase", "card": "barn"}) == ("Barn",)
    assert GAME.action_cards(table, 0, {"type": "place", "card": table.estates[0].hand[0]}) != ()


# --- the rulebook's worked examples ----------------------------------------------------------


def test_the_typical_estate_line_after_eight_turns() -> None:
    """ "This Estate recently entered into the Fallow phase and may now start purchasing Barns and
    Gate Towers." (the rulebook's typical line after about eight turns: Estate Power 5, Fortress
    Power 5, one gold)"""
    line = ["crop-field-01", "farmstead-01", "watch-tower-01", "gold-01", "guard-tower-01"]
    line += ["crop-field-02", "guard-tower-02", "fallow-01"]
    table = given(table_event(lines={0: line}, reached={0: 1}))
    assert (estate_power(table.estates[0].line), fortress_power(table.estates[0].line)) == (5, 5)
    assert gold_power(table.estates[0].line) == 1

    _, table = when(table, 0, STAY)

    assert _purchases(table) == ["barn", "gate-tower"]
