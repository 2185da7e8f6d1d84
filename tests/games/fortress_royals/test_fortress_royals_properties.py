"""Random legal play across 2-5 players: the invariants of the table hold at every event,
every game ends, and ``legal_actions`` and ``decide`` agree in both directions.

Invariants: the 52 cards are each in exactly one place (hands, deck, the drawn card,
discard pile, captured piles, set aside); a hand's order only changes where the rules
allow (the dealt pair, the one move after the tenth card; otherwise cards leave and
new cards arrive at an end); scores never fall and are the sum of the round tallies.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import Action, GameEvent, IllegalAction
from games.fortress_royals import GAME
from games.fortress_royals.cards import DECK
from games.fortress_royals.combat import SIDES
from games.fortress_royals.state import OVER, State
from games.play import Playthrough, new_game, step

MAX_ACTIONS = 20_000
ALL_CARDS = sorted(DECK)


def cards_everywhere(state: State) -> list[str]:
    places: list[str] = [*state.deck, *state.discard, *state.set_aside]
    for hand in state.hands:
        places += hand
    for pile in state.captured:
        places += pile
    if state.pending is not None:
        places.append(state.pending)
    return sorted(places)


def hand_order_kept(before: Sequence[str], after: Sequence[str], event: GameEvent) -> bool:
    if event.type in ("RoundStarted", "CardsDealt"):
        return True
    if event.type == "DealtCardsArranged":
        return list(after) in (list(before), list(before)[::-1])
    if event.type == "HandFinalized":
        if list(after) == list(before):
            return True
        return any(
            [c for c in before if c != moved] == [c for c in after if c != moved] for moved in before
        ) and sorted(before) == sorted(after)
    survivors = [card for card in before if card in after]
    added = len(after) - len(survivors)
    if added > 1:
        return False
    return list(after[: len(survivors)]) == survivors or list(after[added:]) == survivors


def places(state: State) -> list[tuple[str, ...]]:
    """Every place a card may be (``cards_everywhere``'s), in a fixed order."""
    return [
        state.deck,
        state.discard,
        state.set_aside,
        *state.hands,
        *state.captured,
        () if state.pending is None else (state.pending,),
    ]


def check_event(before: State, after: State, event: GameEvent, before_checked: bool = False) -> None:
    """The invariants after ``event``. When ``before`` passed them too (``before_checked``),
    what ``after`` shares with it (the same immutable value) is not read again: its 52 cards
    were each in one place, so ``after``'s are too exactly when the places that changed
    hold together the cards they held before."""
    if before_checked:
        gone: list[str] = []
        come: list[str] = []
        for old, new in zip(places(before), places(after), strict=True):
            if old is not new:
                gone += old
                come += new
        assert gone == come or sorted(gone) == sorted(come), f"cards not conserved after {event.type}"
    else:
        assert cards_everywhere(after) == ALL_CARDS, f"cards not conserved after {event.type}"
    for seat in range(after.players):
        if before.hands[seat] is not after.hands[seat]:
            assert hand_order_kept(before.hands[seat], after.hands[seat], event), (
                f"hand {seat} reordered by {event.type}: {before.hands[seat]} -> {after.hands[seat]}"
            )
    if after.scores != before.scores:
        assert all(new >= old for new, old in zip(after.scores, before.scores, strict=True)), "a score fell"
        tallied = [sum(points) for points in zip(*after.round_points, strict=True)]
        assert list(after.scores) == tallied, "scores are not the sum of the round tallies"
    if after.revealed and not (before_checked and after.revealed is before.revealed and after.hands is before.hands):
        in_hands = {card for hand in after.hands for card in hand}
        assert after.revealed <= in_hands, "a revealed card is not in a hand"


def near_misses(state: State, seat: int, rng: random.Random) -> list[Action]:
    """Actions of every kind with plausible fields: some legal, most not."""
    hand = state.hands[seat]
    out: list[Action] = [
        {"type": "pass"},
        {"type": "done"},
        {"type": "keep"},
        {"type": "keep_dealt"},
        {"type": "swap_dealt"},
        {"type": "place", "end": rng.choice(SIDES)},
        {"type": "choose_first", "seat": rng.randrange(state.players + 1)},
        {"type": "move", "from": rng.randrange(11), "to": rng.randrange(11)},
        {"type": "discard_ace", "card": rng.choice(["AC", "AD", "AH", "AS", *hand])},
        {"type": "attack", "cards": [rng.choice(DECK)], "side": rng.choice(SIDES)},
    ]
    if hand:
        size = rng.randint(1, min(4, len(hand)))
        start = rng.randrange(len(hand) - size + 1)
        picked = list(hand[start : start + size])
        out.append({"type": "attack", "cards": picked, "side": rng.choice(SIDES)})
        out.append({"type": "attack", "cards": picked[::-1], "side": rng.choice(SIDES)})
    return out


def check_agreement(state: State, rng: random.Random) -> None:
    for seat in range(state.players):
        legal = GAME.legal_actions(state, seat)
        for action in near_misses(state, seat, rng):
            if action in legal:
                GAME.decide(state, seat, action, rng)
                continue
            play = Playthrough(events=[], state=state)
            try:
                step(GAME, play, seat, action, rng)
            except IllegalAction as refused:
                assert refused.reason
            else:
                raise AssertionError(f"seat {seat} was allowed {action}, not in legal_actions")
            assert play.events == [] and play.state is state


def play_checked(players: int, seed: int, agreement_every: int = 0, options: dict | None = None) -> int:
    rng = random.Random(seed)
    play = new_game(GAME, players, options, rng)
    state = cast(State, play.state)
    checked = False  # the table after the first event is checked from scratch
    for turn in range(MAX_ACTIONS):
        if state.phase == OVER:
            assert GAME.outcome(state) is not None
            return turn
        if agreement_every and turn % agreement_every == 0:
            check_agreement(state, rng)
        seat = rng.choice(sorted(GAME.to_act(state)))
        action = rng.choice(GAME.legal_actions(state, seat))
        for event in GAME.decide(state, seat, action, rng):
            after = GAME.evolve(state, event)
            check_event(state, after, event, before_checked=checked)
            state, checked = after, True
    raise AssertionError(f"game {players}/{seed} did not end within {MAX_ACTIONS} actions")


@pytest.mark.statistical
def test_thousands_of_random_games_keep_the_invariants_and_end() -> None:
    lengths = [play_checked(2 + index % 4, index) for index in range(2000)]
    assert min(lengths) > 0


def test_short_games_by_rounds_and_low_targets_keep_the_invariants() -> None:
    for index in range(200):
        options = {"rounds": 1 + index % 3} if index % 2 else {"target": 1 + index % 7}
        play_checked(2 + index % 4, 10_000 + index, options=options)


@pytest.mark.statistical
def test_legal_actions_and_decide_agree_in_random_games() -> None:
    """Every action legal_actions lists is accepted; every near miss it does not list is
    refused with a reason (and, decide being pure, nothing is appended)."""
    for index in range(160):
        play_checked(2 + index % 4, 50_000 + index, agreement_every=1)


@settings(max_examples=60, deadline=None)
@given(players=st.integers(min_value=2, max_value=5), seed=st.integers(min_value=0, max_value=2**32))
def test_any_seed_plays_to_an_end_within_the_invariants(players: int, seed: int) -> None:
    play_checked(players, seed, agreement_every=7)
