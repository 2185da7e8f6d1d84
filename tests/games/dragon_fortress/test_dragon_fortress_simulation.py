"""Random legal play: the shared contract test, then thousands of games checking this game's
own invariants (card conservation, one dragon a line, hands, endings)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given as hypothesis_given
from hypothesis import settings
from hypothesis import strategies as st

from games.base import Action, IllegalAction
from games.dragon_fortress import GAME
from games.dragon_fortress.cards import CALL_CARD, DRAGON_IDS, HAND_SIZE, PHASES, TYPE_OF, UPGRADES
from games.dragon_fortress.state import STEP_MOVE, Estate, State
from games.play import Playthrough, fold, new_game, random_game, step
from tests.games.contract import check_contract, roundtrip
from tests.games.dragon_fortress.tables import every_card

ALL_CARDS = frozenset(TYPE_OF)
ACTION_LIMIT = 2_000


def test_the_shared_contract_holds_in_random_play() -> None:
    lengths = check_contract(GAME, players=[3, 4], games=12, check_every=7)
    assert all(length < ACTION_LIMIT for length in lengths)


# Checked after every action of thousands of games: as set operations, the same checks.
NEVER_IN_A_HAND = frozenset(card for card, kind in TYPE_OF.items() if kind.kind in ("dragon", "call", "flag"))


def piles(table: State) -> list[tuple[str, ...]]:
    """The places ``every_card`` reads outside the Estates, in a fixed order."""
    return [table.supply, table.gold, table.dragons, table.out, *table.phase_piles, *table.upgrade_piles]


def check_invariants(table: State, before: State | None = None) -> None:
    """The invariants of ``table``. Given ``before``, the table this one was played from, which
    passed them: what ``table`` shares with it (the same immutable value: a pile, an Estate) is
    not read again. Its 160 cards were each in one place, so ``table``'s are too exactly when
    the places that changed hold together the cards they held before."""
    gone: list[str] = []
    come: list[str] = []
    if before is None:
        cards = every_card(table)
        assert len(cards) == 160 and frozenset(cards) == ALL_CARDS, "a card was lost or doubled"
        checked: tuple[Estate | None, ...] = (None,) * table.players
    else:
        for old, new in zip(piles(before), piles(table), strict=True):
            if old is not new:
                gone += old
                come += new
        checked = before.estates
    for estate, old_estate in zip(table.estates, checked, strict=True):
        if estate is old_estate:
            continue
        if old_estate is not None:
            gone += (old_estate.flag, *old_estate.line, *old_estate.hand, *old_estate.trophies)
            come += (estate.flag, *estate.line, *estate.hand, *estate.trophies)
        assert len(DRAGON_IDS.intersection(estate.line)) <= 1, "two dragons in one line"
        assert NEVER_IN_A_HAND.isdisjoint(estate.hand)
        assert len(estate.hand) <= HAND_SIZE + 1
        assert CALL_CARD not in estate.line and estate.flag not in estate.line
        assert DRAGON_IDS.issuperset(estate.trophies)
    assert gone == come or sorted(gone) == sorted(come), "a card was lost or doubled"
    if table.step == STEP_MOVE:
        assert all(len(e.hand) <= HAND_SIZE for e in table.estates)
        assert all(e.fresh_gold is None for e in table.estates)
    if before is None or table.supply is not before.supply or table.out is not before.out:
        assert table.supply.count(CALL_CARD) + table.out.count(CALL_CARD) == 1
    if before is None or table.dragons is not before.dragons:
        assert DRAGON_IDS.issuperset(table.dragons)


def check_ending(table: State) -> None:
    result = GAME.outcome(table)
    assert result is not None and table.ender is not None
    assert not any(card in DRAGON_IDS for e in table.estates for card in e.line), "dragons flee at the end"
    if table.result == "terror":
        assert "shadow-terror-01" in table.estates[table.ender].trophies
    else:
        assert table.result == "hand" and table.estates[table.ender].hand == ()
    assert result["scores"][result["winners"][0]] == max(result["scores"])


WRONG = [
    {"type": "move", "card": "estate-flag-01"},
    {"type": "place", "card": CALL_CARD},
    {"type": "purchase", "card": "crop-field"},
    {"type": "draw", "pile": "dragons"},
]


def near_misses(table: State, seat: int) -> list[dict[str, str]]:
    """Well-formed actions of every step that are usually illegal now: moving any card of the
    line, placing any card of the hand or line (fresh gold included), every purchase and advance,
    both draws and the Dragon Tower answers."""
    estate = table.estates[seat]
    actions: list[dict[str, str]] = [{"type": "stay"}, {"type": "sacrifice"}, {"type": "spare"}]
    actions += [{"type": "move", "card": card} for card in estate.line]
    actions += [{"type": "place", "card": card} for card in estate.hand + estate.line]
    actions += [{"type": "purchase", "card": upgrade.key} for upgrade in UPGRADES]
    actions += [{"type": "advance", "phase": phase.key} for phase in PHASES]
    actions += [{"type": "draw", "pile": pile} for pile in ("common", "gold")]
    return actions + WRONG


def probe(play: Playthrough, seat: int, legal: list[Action], rng: random.Random) -> None:
    """An action legal_actions does not list is refused and appends nothing, as is a legal one
    sent by a seat that is not to act."""
    table = play.state
    wrong = [action for action in near_misses(table, seat) if action not in legal]
    attempts = [(seat, rng.choice(wrong))] if wrong else []
    attempts.append(((seat + 1) % table.players, rng.choice(legal)))
    for who, action in attempts:
        before = len(play.events)
        with pytest.raises(IllegalAction):
            step(GAME, play, who, action, rng)
        assert len(play.events) == before and play.state is table, "an illegal action appended events"


def play_checked(players: int, rng: random.Random, probe_illegal: bool) -> State:
    play = new_game(GAME, players, None, rng)
    before = None
    for _ in range(ACTION_LIMIT):
        table = play.state
        assert isinstance(table, State)
        check_invariants(table, before)
        before = table
        if GAME.outcome(table) is not None:
            check_ending(table)
            return table
        seat = table.turn
        legal = GAME.legal_actions(table, seat)
        if probe_illegal:
            probe(play, seat, legal, rng)
        step(GAME, play, seat, rng.choice(legal), rng)
    raise AssertionError("a random game did not end")


@pytest.mark.statistical
@pytest.mark.parametrize("players", [3, 4])
def test_thousands_of_random_games_keep_every_card_and_end(players: int) -> None:
    endings = {"terror": 0, "hand": 0}
    for index in range(1000):
        table = play_checked(players, random.Random(f"df-{players}-{index}"), probe_illegal=index % 10 == 0)
        assert table.result is not None
        endings[table.result] += 1
    assert endings["hand"] > 0


@settings(max_examples=25, deadline=None)
@hypothesis_given(players=st.sampled_from([3, 4]), seed=st.integers(min_value=0, max_value=2**32))
def test_a_random_game_refolds_from_its_json_log(players: int, seed: int) -> None:
    play = random_game(GAME, players, random.Random(seed), max_actions=ACTION_LIMIT)
    assert GAME.outcome(play.state) is not None
    assert fold(GAME, [roundtrip(event) for event in play.events]) == play.state
    json.dumps(GAME.view(play.state, None))


def test_the_shadow_terror_ends_some_random_games() -> None:
    """Both endings happen in play: a terror ending is reachable, not only the empty hand."""
    seen = set()
    for index in range(300):
        table = random_game(GAME, 4, random.Random(f"terror-{index}"), max_actions=ACTION_LIMIT).state
        assert isinstance(table, State)
        seen.add(table.result)
        if seen == {"terror", "hand"}:
            break
    assert seen == {"terror", "hand"}
