"""Setup, options, the manifest's shape and the hidden information."""

from __future__ import annotations

import json
import random

import pytest

from games.base import GameEvent, InvalidOptions
from games.dragon_fortress import GAME
from games.dragon_fortress.cards import (
    CALL_CARD,
    FIRST_CALL_DEPTH,
    HAND_SIZE,
    PHASES,
    RAW,
    TYPE_OF,
    TYPES,
    UPGRADES,
    in_play,
)
from games.play import fold
from tests.games.dragon_fortress.tables import every_card, given, table_event, when


def _setup(players: int, seed: int = 1, options: dict[str, object] | None = None) -> list[GameEvent]:
    return GAME.setup(GAME.validate_options(options, players), players, random.Random(seed))


@pytest.mark.parametrize("players", [3, 4])
def test_setup_lays_out_flags_piles_dragons_hands_and_the_call_card(players: int) -> None:
    """ "Give every player an Estate Flag card. Place all of the upgrade structures, phase cards,
    gold and dragons in like piles, face up ... Place all dragons in a single pile in ascending
    order based on their strength (weakest on top, strongest on bottom). Shuffle all of the Crop
    Fields, Farmsteads, Watch Towers and Guard Towers ... Deal five of these cards to each
    player." "place the call card, face down, nine cards in from the top\""""
    table = fold(GAME, _setup(players))

    assert [e.flag for e in table.estates] == [f"estate-flag-0{s + 1}" for s in range(players)]
    assert all(len(e.hand) == HAND_SIZE == 5 for e in table.estates)
    assert all(TYPE_OF[c].group == "common" for e in table.estates for c in e.hand)
    assert table.supply.index(CALL_CARD) == FIRST_CALL_DEPTH == 9
    assert all(TYPE_OF[c].group == "common" for c in table.supply if c != CALL_CARD)
    strengths = [TYPE_OF[d].strength for d in table.dragons]
    assert strengths == sorted(strengths) and table.dragons[-1] == "shadow-terror-01"
    assert all(e.line == () and e.trophies == () for e in table.estates)
    assert sorted(every_card(table)) == sorted(TYPE_OF)
    view = GAME.view(table, None)
    assert view["dragons"] == list(table.dragons), "the dragon pile is face up"
    assert view["piles"]["barn"] == len(table.upgrade_piles[0]) > 0
    assert table.turn == 0 and GAME.to_act(table) == {0}


def test_the_common_supply_is_shuffled() -> None:
    """ "Shuffle all of the Crop Fields, Farmsteads, Watch Towers and Guard Towers\""""
    decks = {tuple(fold(GAME, _setup(4, seed)).supply) for seed in range(5)}
    assert len(decks) == 5


def test_the_deck_option_stacks_the_supply_and_marks_the_deal_unfair() -> None:
    """A tutorial deal: the listed cards on top, dealt round-robin, the rest in manifest order."""
    top = ["guard-tower-03", "farmstead-07", "crop-field-11", "watch-tower-02", "gold-01"]
    with pytest.raises(InvalidOptions) as error:
        GAME.validate_options({"deck": top + ["guard-tower-03", "crop-field-32"]}, 3)
    problems = " ".join(error.value.problems)
    assert "'gold-01' is not a common supply card" in problems
    assert "'crop-field-32' is not a common supply card in a 3-player game" in problems
    assert "twice" in problems

    stacked = top[:4]
    table = fold(GAME, _setup(4, options={"deck": stacked}))
    assert [e.hand[0] for e in table.estates] == stacked
    assert not GAME.fair_deal({"deck": stacked}) and GAME.fair_deal({"deck": None})
    assert GAME.redact(_setup(4, options={"deck": stacked})[0], 1).data["options"]["deck"] == 4


def test_validate_refuses_two_and_five_players() -> None:
    """ "A game for 3-4 players\""""
    for players in (2, 5):
        with pytest.raises(InvalidOptions, match="3 to 4 players"):
            GAME.validate_options(None, players)


def test_the_manifest_has_160_cards_with_the_named_types() -> None:
    """ "160 Playing Cards" with four Estate Flags, the Dragon Call card, the phase cards, gold,
    the upgrades, the common supply and the dragons (Spitfire, Dread Wyrm, Ice Wyvern, Shadow
    Terror among them)."""
    assert sum(t.count for t in TYPES) == 160 == len(TYPE_OF)
    keys = {t.key for t in TYPES}
    assert {"estate-flag", "dragon-call", "fallow", "meadow", "pasture", "gold"} <= keys
    assert {"barn", "mill", "granary", "gate-tower", "war-tower", "dragon-tower"} == {t.key for t in UPGRADES}
    assert {t.key for t in TYPES if t.group == "common"} == {
        "crop-field",
        "farmstead",
        "watch-tower",
        "guard-tower",
    }
    assert {"spitfire", "dread-wyrm", "ice-wyvern", "shadow-terror"} <= {t.key for t in TYPES if t.is_dragon}
    assert TYPE_OF["estate-flag-01"].count == 4 and TYPE_OF[CALL_CARD].count == 1
    assert [t.key for t in PHASES] == ["fallow", "meadow", "pasture"]


def test_three_player_removals_and_purchase_caps_fit_the_counts() -> None:
    """ "In a 3-player game, remove the following cards" and "No player may ever have more than
    three Barns, three Gate Towers, two Mills, two War Towers, one Granary and one Dragon Tower."
    (ours: at either player count no pile holds a copy the players could never own, and there
    is one phase card of each kind per player)"""
    for card_type in TYPES:
        assert 0 <= card_type.remove_with_3_players <= card_type.count, card_type.key
    caps = {"barn": 3, "gate-tower": 3, "mill": 2, "war-tower": 2, "granary": 1, "dragon-tower": 1}
    assert {u.key: u.limit for u in UPGRADES} == caps
    needs = {"barn": (1, 1), "gate-tower": (1, 1), "mill": (2, 2), "war-tower": (2, 2)}
    needs |= {"granary": (3, 3), "dragon-tower": (3, 3)}
    assert {u.key: (u.phase, u.gold_cost) for u in UPGRADES} == needs
    for players in (3, 4):
        for upgrade in UPGRADES:
            copies = len(in_play(upgrade, players))
            assert copies <= upgrade.limit * players, f"{upgrade.key}: a copy no {players} players could own"
        for phase in PHASES:
            copies = len(in_play(phase, players))
            assert copies == players, f"{phase.key}: one per player ('You may only advance to a phase once')"


def test_every_printed_number_says_where_it_comes_from() -> None:
    """Each card's numbers are the rulebook's (quoted) or marked as the project's own."""
    skip = {"key", "name", "group", "kind", "source"}
    for raw in RAW["cards"]:
        source = raw["source"]
        quoted, ours = set(source["rulebook"]), set(source["ours"])
        assert not quoted & ours, raw["key"]
        assert set(raw) - skip <= quoted | ours, (raw["key"], set(raw) - skip - quoted - ours)
    for name, rule in RAW["rules"].items():
        assert rule["source"], name


def test_hands_and_supply_order_are_hidden_from_other_seats() -> None:
    """ "These five cards will become the players hand and should be concealed during game
    play." "Place the common supply deck face down\""""
    events = _setup(4)
    table = fold(GAME, events)
    hand0 = set(table.estates[0].hand)
    supply = set(table.supply) - {CALL_CARD}
    for seat in (None, 1, 2, 3):
        shown = json.dumps([GAME.view(table, seat), GAME.redact(events[0], seat).data])
        assert not [c for c in hand0 | supply if f'"{c}"' in shown], seat
        assert GAME.view(table, seat)["players"][0]["hand_count"] == 5
    mine = GAME.view(table, 0)
    assert set(mine["players"][0]["hand"]) == hand0
    assert GAME.redact(events[0], 0).data["hands"][0] == list(table.estates[0].hand)
    assert GAME.redact(events[0], 0).data["supply"] == {"count": len(table.supply), "call_depth": 9}

    drawn = GAME.decide(fold(GAME, GAME.decide(table, 0, {"type": "stay"}, random.Random(0)), table), 0,
                        {"type": "draw", "pile": "common"}, random.Random(0))  # fmt: skip
    assert GAME.redact(drawn[0], 1).data == {"card": None}
    assert GAME.redact(drawn[0], 0) == drawn[0]


def test_gold_drawn_is_public_and_determinize_keeps_it() -> None:
    """ "Gold ... in like piles, face up": a gold card drawn is seen by all, so it is no secret;
    the common cards in other hands are re-dealt by determinize, never one's own."""
    hand = ["gold-05", "crop-field-01", "crop-field-02", "crop-field-03", "crop-field-04"]
    table = given(table_event(hands={1: hand}))
    assert "gold-05" not in GAME.secrets(table, 0)
    assert GAME.view(table, 0)["players"][1]["hand_gold"] == ["gold-05"]
    for seed in range(5):
        guess = GAME.determinize(table, 0, random.Random(seed))
        assert "gold-05" in guess.estates[1].hand
        assert guess.estates[0].hand == table.estates[0].hand
        assert guess.supply.index(CALL_CARD) == table.supply.index(CALL_CARD)
        assert sorted(every_card(guess)) == sorted(every_card(table))
    _, after = when(table, 0, {"type": "stay"}, {"type": "draw", "pile": "common"})
    assert after.estates[0].hand[-1] not in GAME.secrets(after, 0)
    assert after.estates[0].hand[-1] in GAME.secrets(after, 1)
