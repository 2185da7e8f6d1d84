"""The turn's three steps: the Estate Move, draw / purchase / advance, Front Line placement."""

from __future__ import annotations

import random

import pytest

from games.base import GameEvent, IllegalAction
from games.dragon_fortress import GAME
from games.dragon_fortress.cards import PHASES
from games.dragon_fortress.state import State
from tests.games.dragon_fortress.tables import given, kinds, table_event, when

STAY = {"type": "stay"}
DRAW = {"type": "draw", "pile": "common"}


def _quiet_turn(table: State) -> State:
    seat = table.turn
    _, table = when(table, seat, STAY, DRAW)
    _, table = when(table, seat, GAME.legal_actions(table, seat)[0])
    return table


def _round(table: State) -> State:
    """Every other seat takes a turn of drawing and placing."""
    for _ in range(table.players - 1):
        table = _quiet_turn(table)
    return table


def _purchases(table: State) -> list[str]:
    return [a["card"] for a in GAME.legal_actions(table, table.turn) if a["type"] == "purchase"]


def test_the_estate_move_moves_one_estate_or_gold_card_one_space_toward_the_flag() -> None:
    """ "Any Estate or Gold card may move one space, in your Estate Line, toward your Estate flag
    (left). Only one card may move in your Estate each turn." "Fortress cards may never move\""""
    table = given(table_event(lines={0: ["crop-field-01", "watch-tower-01", "gold-01", "guard-tower-01"]}))
    assert GAME.legal_actions(table, 0) == [{"type": "move", "card": "gold-01"}, STAY]
    with pytest.raises(IllegalAction, match="Fortress cards and dragons never"):
        GAME.decide(table, 0, {"type": "move", "card": "guard-tower-01"}, random.Random(0))

    events, after = when(table, 0, {"type": "move", "card": "gold-01"})

    assert events[0] == GameEvent("EstateCardMoved", {"card": "gold-01"}, 0)
    assert after.estates[0].line == ("crop-field-01", "gold-01", "watch-tower-01", "guard-tower-01")
    assert not [a for a in GAME.legal_actions(after, 0) if a["type"] == "move"], "only one move a turn"


def test_one_of_draw_purchase_or_advance_then_the_card_goes_to_the_front_line() -> None:
    """ "If you purchase an upgrade or advance to the next phase, you must place that card at the
    FRONT LINE instead of one from your hand." (a Gate Tower, once placed, stays at the Front Line)"""
    line = ["fallow-01", "gold-01", "crop-field-01"]
    table = given(table_event(lines={0: line}, reached={0: 1}))
    hand = table.estates[0].hand
    _, table = when(table, 0, STAY)
    assert {"type": "draw", "pile": "common"} in GAME.legal_actions(table, 0)
    assert {"type": "draw", "pile": "gold"} in GAME.legal_actions(table, 0)

    events, after = when(table, 0, {"type": "purchase", "card": "gate-tower"})

    assert kinds(events) == ["StructurePurchased", "TurnPassed"]
    assert after.estates[0].line == ("fallow-01", "crop-field-01", "gate-tower-01"), "its Gold Cost paid"
    assert after.estates[0].hand == hand
    assert after.upgrade_piles[3][0] == "gate-tower-02"


def test_under_revision_1_purchases_are_one_of_each_type_per_phase_reached() -> None:
    """ "You may only purchase one of each card type per phase." (revision 1's reading, and the
    ``purchases_carry_over`` option's: an allowance per phase reached, unused ones kept)"""
    meadow = PHASES[1]
    crops = [f"crop-field-{n:02d}" for n in range(10, 10 + meadow.requires_estate)]
    towers = [f"watch-tower-{n:02d}" for n in range(10, 10 + meadow.requires_fortress)]
    line = ["fallow-01", "gold-01", "gold-02", *crops, *towers]
    table = given(table_event(lines={0: line}, reached={0: 1}, call_at=99, options={"rules": 1}))
    _, table = when(table, 0, STAY)
    assert _purchases(table) == ["barn", "gate-tower"]

    _, table = when(table, 0, {"type": "purchase", "card": "barn"})
    table = _round(table)
    _, table = when(table, 0, STAY)
    assert _purchases(table) == [], "never two turns in a row"
    _, table = when(table, 0, {"type": "draw", "pile": "gold"})
    table = _place_any(table)
    table = _round(table)
    _, table = when(table, 0, STAY)
    assert _purchases(table) == ["gate-tower"], "one Barn per phase"
    with pytest.raises(IllegalAction, match="one Barn per phase"):
        GAME.decide(table, 0, {"type": "purchase", "card": "barn"}, random.Random(0))

    _, table = when(table, 0, {"type": "advance", "phase": "meadow"})
    table = _round(table)
    _, table = when(table, 0, STAY)
    assert _purchases(table) == ["barn", "mill", "gate-tower", "war-tower"]


def test_upgrades_need_the_gold_their_phase_names() -> None:
    """ "Purchasing a Mill or War Tower requires a Meadow and two gold.\""""
    table = given(table_event(lines={0: ["meadow-01", "gold-01"]}, reached={0: 2}))
    _, table = when(table, 0, STAY)
    assert _purchases(table) == ["barn", "gate-tower"]
    with pytest.raises(IllegalAction, match="needs 2 gold"):
        GAME.decide(table, 0, {"type": "purchase", "card": "mill"}, random.Random(0))


def test_the_purchase_caps_hold_whatever_the_phase() -> None:
    """ "No player may ever have more than three Barns, three Gate Towers, two Mills, two War
    Towers, one Granary and one Dragon Tower.\""""
    line = ["pasture-01", "gold-01", "gold-02", "gold-03", "gold-04", "gold-05", "gold-06"]
    table = given(table_event(lines={0: line}, reached={0: 3}, call_at=99))
    _, table = when(table, 0, STAY)
    assert "granary" in _purchases(table)
    _, table = when(table, 0, {"type": "purchase", "card": "granary"})
    table = _quiet_turn(_round(table))
    table = _round(table)

    _, table = when(table, 0, STAY)

    assert "granary" not in _purchases(table) and "barn" in _purchases(table)
    with pytest.raises(IllegalAction, match="more than 1 of Granary"):
        GAME.decide(table, 0, {"type": "purchase", "card": "granary"}, random.Random(0))


def _place_any(table: State) -> State:
    _, table = when(table, table.turn, GAME.legal_actions(table, table.turn)[0])
    return table


def test_only_the_player_whose_turn_it_is_may_act() -> None:
    """The turn passes clockwise; nobody else may act (the Dragon Tower decision is the owner's,
    on the owner's own turn)."""
    table = given(table_event(call_at=99))
    for seat in (1, 2, 3):
        assert GAME.legal_actions(table, seat) == []
        with pytest.raises(IllegalAction, match="not your turn") as error:
            GAME.decide(table, seat, STAY, random.Random(0))
        assert error.value.code == "not_your_turn"
    after = _quiet_turn(table)
    assert after.turn == 1 and GAME.to_act(after) == {1}
