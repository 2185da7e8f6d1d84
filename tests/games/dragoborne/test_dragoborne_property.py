"""Random legal play over every pairing of pre-built decks: the shared contract test (no leaks,
determinize, JSON round trips, illegal actions refused), and Dragoborne's own invariants over
thousands of games."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement, product

import pytest

from games.base import IllegalAction
from games.dragoborne import GAME
from games.dragoborne.cards import CREATURES_PER_FORT, DECKS, HAND_LIMIT
from games.dragoborne.state import Side, State
from games.play import new_game, step
from tests.games.contract import check_contract

DECK_NAMES = sorted(DECKS)
PAIRINGS = list(combinations_with_replacement(DECK_NAMES, 2))
ORDERED = list(product(DECK_NAMES, DECK_NAMES))
GAMES_PER_PAIRING = 240  # 9 ordered pairings: 2160 games


@pytest.mark.parametrize("pairing", PAIRINGS, ids=["-".join(p) for p in PAIRINGS])
def test_contract_holds_for_every_pairing(pairing: tuple[str, str]) -> None:
    lengths = check_contract(GAME, players=[2], games=4, options={"decks": list(pairing)}, check_every=4)
    assert all(length > 0 for length in lengths)


def _every_card(state: State, seat: int) -> list[str]:
    return _side_cards(state.sides[seat])


def _side_cards(side: Side) -> list[str]:
    cards = [*side.deck, *side.hand, *side.resources, *side.discard, *side.lifted]
    cards += [c.id for c in side.field]
    cards += [card for pile in side.forts for card in pile]
    return cards


def _check_invariants(state: State, start: list[list[str]], checked: list[Side | None]) -> None:
    """Each side of ``state`` keeps its invariants. ``checked`` holds, by seat, the side last
    found to keep them: a side is an immutable value, so one that has not changed since (most
    actions change one side) keeps them still and is not gone over again."""
    for seat, side in enumerate(state.sides):
        if side is checked[seat]:
            continue
        _check_side(side, seat, start[seat])
        checked[seat] = side


def _check_side(side: Side, seat: int, start: list[str]) -> None:
    cards = _side_cards(side)  # the same cards as at the start, as a sorted list
    assert sorted(cards) == start, f"cards of seat {seat} were created, lost or duplicated"
    assert not side.known or side.known <= set(side.hand)
    assert not side.rested or side.rested <= set(side.resources)
    holding = [creature.fort for creature in side.field]
    assert all(holding.count(fort) <= CREATURES_PER_FORT for fort in range(len(side.forts)))
    for index, die in enumerate(side.dice):
        if die.use == "cross":
            creature = side.creature(die.creature or "")
            assert creature is not None and creature.cross == index
        if die.use == "shield":
            assert side.forts[die.fort or 0], "a Dragoshield stands before a destroyed fort"
            assert side.shield_at(die.fort or 0) == index, "two Dragoshields stand before one fort"
    for creature in side.field:
        if creature.cross is not None:
            assert side.dice[creature.cross].creature == creature.id


@pytest.mark.statistical
@pytest.mark.parametrize("pairing", ORDERED, ids=["-".join(p) for p in ORDERED])
def test_random_games_keep_every_card_and_end(pairing: tuple[str, str]) -> None:
    """Every card stays in exactly one place; every game ends by a rule of the rulebook; an action
    legal_actions does not list is refused and changes nothing."""
    for index in range(GAMES_PER_PAIRING):
        rng = random.Random(f"{pairing}-{index}")
        play = new_game(GAME, 2, {"decks": list(pairing)}, rng)
        start = [sorted(_every_card(play.state, seat)) for seat in range(2)]
        checked: list[Side | None] = [None, None]
        for turn in range(3000):
            state = play.state
            if GAME.outcome(state) is not None:
                break
            seat = rng.choice(sorted(GAME.to_act(state)))
            legal = GAME.legal_actions(state, seat)
            if turn % 7 == 0:
                logged = len(play.events)
                wrong = {"type": "attack", "creature": "0-no-card-1", "fort": 0}
                with pytest.raises(IllegalAction):
                    step(GAME, play, seat, wrong, rng)
                if 1 - seat not in GAME.to_act(state):
                    with pytest.raises(IllegalAction):
                        step(GAME, play, 1 - seat, legal[0], rng)
                assert play.state is state and len(play.events) == logged, "an illegal action changed the game"
            events = step(GAME, play, seat, rng.choice(legal), rng)
            _check_invariants(play.state, start, checked)
            if any(e.type == "TurnStarted" for e in events):
                ended = 1 - play.state.active
                assert len(play.state.sides[ended].hand) <= HAND_LIMIT, "a turn ended above the hand limit"
        result = GAME.outcome(play.state)
        assert result is not None, "the game did not end"
        assert "forts" in result["reason"] or "empty deck" in result["reason"]
