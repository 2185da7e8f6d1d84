"""Random play: the shared contract check, then our own invariants over thousands of games
(every card of every deck in exactly one place, the map's limits, every game ends)."""

from __future__ import annotations

import functools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import GameEvent, IllegalAction
from games.bots import greedy_bot
from games.play import fold, new_game, random_game, step
from games.stomping_grounds import GAME
from games.stomping_grounds.board import REALMS_PER_PLAYER, adjacent_realms
from games.stomping_grounds.cards import deck_ids
from games.stomping_grounds.state import State
from tests.games.contract import check_contract

SHORT = {"turn_limit": 3}


@functools.cache
def _sorted_deck(seat: int, key: str) -> list[str]:
    """Every card id of ``seat``'s deck, sorted (kept: the conservation check asks often)."""
    return sorted(deck_ids(seat, key))


def check_invariants(state: State) -> None:
    for seat, p in enumerate(state.players):
        mine = f"s{seat}-"
        places = [*p.deck, *p.hand, *p.stash, *p.junk, *p.burned, *p.hoard]
        places += [r.card for r in state.realms if r.card.startswith(mine)]
        places += [r.challenge for r in state.realms if r.challenge and r.challenge.startswith(mine)]
        places += [i.card for i in state.stack if i.card and i.card.startswith(mine)]
        assert sorted(places) == _sorted_deck(seat, p.deck_key), f"seat {seat}'s cards are not conserved"
        assert p.dragon is None or p.dragon in state.where, "a dragon is off the map"
        assert 0 <= p.known_bottom <= len(p.deck)
    assert len(state.realms) <= REALMS_PER_PLAYER * state.count
    assert len(state.where) == len(state.realms), "two realms share a space"
    if len(state.realms) > 1:
        assert all(adjacent_realms(state, r.at) for r in state.realms), "a realm is not edge to edge"


def test_contract_short_games() -> None:
    check_contract(GAME, players=[2, 3, 4], games=10, options=SHORT, check_every=3)


def test_contract_full_games() -> None:
    check_contract(GAME, players=[2, 4], games=1, seed=7, check_every=25)


@pytest.mark.statistical
def test_thousands_of_random_games_conserve_cards_and_end() -> None:
    """Random legal play at 2, 3 and 4 seats, with turn limits of 1 to 5 rounds so that games
    stop at every stage: cards are conserved per deck and every game ends, by the rulebook's
    win or by the turn limit (RULINGS.md), never later."""
    rng = random.Random(2024)
    reasons = set()
    for index in range(2000):
        players = 2 + index % 3
        limit = 1 + index % 5
        play = new_game(GAME, players, {"turn_limit": limit}, rng)
        for _ in range(5000):
            if GAME.outcome(play.state) is not None:
                break
            seat = rng.choice(sorted(GAME.to_act(play.state)))
            action = rng.choice(GAME.legal_actions(play.state, seat))
            step(GAME, play, seat, action, rng)
            if index % 10 == 0:
                check_invariants(play.state)
        check_invariants(play.state)
        outcome = GAME.outcome(play.state)
        assert outcome is not None, f"game {index} did not end"
        assert play.state.turn <= limit * players
        reasons.add(outcome["reason"].split(":")[0])
    assert reasons <= {"no cards left in deck, stash and junk", "turn limit"}


def test_full_length_random_games_under_revision_1_end_by_its_turn_limit_at_the_latest() -> None:
    """Revision 1 plays a 40-round limit by default (revision 2: off unless asked for)."""
    assert GAME.validate_options(None, 2)["turn_limit"] is None
    for index in range(12):
        play = random_game(GAME, 2 + index % 3, random.Random(index), {"rules": 1})
        outcome = GAME.outcome(play.state)
        assert outcome is not None
        assert play.state.turn_limit == 40 and play.state.turn <= 40 * play.state.count
        check_invariants(play.state)


def test_greedy_dragons_reach_the_rulebook_win() -> None:
    """The rulebook's win (no cards in deck, stash and junk) is reachable in real play."""
    reasons = []
    for index in range(6):
        rng = random.Random(index)
        play = new_game(GAME, 2, None, rng)
        while GAME.outcome(play.state) is None:
            seat = min(GAME.to_act(play.state))
            step(GAME, play, seat, greedy_bot(GAME, play.state, seat, rng), rng)
        check_invariants(play.state)
        reasons.append(GAME.outcome(play.state)["reason"])  # type: ignore[index]
    assert sum(r.startswith("no cards left") for r in reasons) >= 4, reasons


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 150),
    junk=st.sampled_from(
        [
            {"type": "play", "card": "s9-nothing-1"},
            {"type": "fly", "to": [99, 99]},
            {"type": "burn", "pile": "deck", "count": 0},
            {"type": "burn", "pile": "hand", "count": 1},
            {"type": "duel", "opponent": 0, "colour": "green"},
            {"type": "attempt", "at": [0, 0]},
            {"type": "pass", "seat": 1},
            {"type": "draw", "count": True},
            {"type": "place_dragon", "at": [0, 0], "extra": 1},
            {"type": "end_phase", "phase": "reclaim"},
        ]
    ),
)
def test_illegal_actions_are_refused_and_append_nothing(seed: int, moves: int, junk: dict) -> None:  # type: ignore[type-arg]
    rng = random.Random(seed)
    play = new_game(GAME, 2 + seed % 3, SHORT, rng)
    for _ in range(moves):
        if GAME.outcome(play.state) is not None:
            break
        seat = rng.choice(sorted(GAME.to_act(play.state)))
        step(GAME, play, seat, rng.choice(GAME.legal_actions(play.state, seat)), rng)
    before = (len(play.events), play.state)
    for seat in range(play.state.count):
        if junk in GAME.legal_actions(play.state, seat):
            continue
        try:
            step(GAME, play, seat, junk, rng)
        except IllegalAction as error:
            assert error.reason
        else:
            raise AssertionError(f"{junk} was accepted")
    assert (len(play.events), play.state) == before


class _Hidden:
    """What a seat may not know, worked out from the events alone (not from ``GAME.secrets``):
    every card in a deck, and each card drawn face down into a hand while it stays there
    (unless its place at the bottom of the deck was public: the junk went under it)."""

    def __init__(self, players: int) -> None:
        self.in_hand: list[set[str]] = [set() for _ in range(players)]
        self.public_bottom: list[set[str]] = [set() for _ in range(players)]
        self._decks_of: State | None = None  # the state whose deck cards ``_decks`` holds
        self._decks: set[str] = set()

    def see(self, before: State | None, event: GameEvent, after: State) -> None:
        data = event.data
        if event.type == "CardsDrawn":
            seat = data["seat"]
            self.in_hand[seat] |= {c for c in data["cards"] if c not in self.public_bottom[seat]}
        elif event.type == "DeckShuffled":
            self.public_bottom[data["seat"]] = set()
        elif event.type == "JunkReturned" and before is not None:
            self.public_bottom[data["seat"]] |= set(before.players[data["seat"]].junk)
        for seat, player in enumerate(after.players):
            self.in_hand[seat] &= set(player.hand)

    def from_(self, viewer: int | None, state: State) -> set[str]:
        if state is not self._decks_of:  # asked once per viewer of each state: the decks once
            self._decks_of, self._decks = state, {c for p in state.players for c in p.deck}
        hands = {c for seat, cards in enumerate(self.in_hand) if seat != viewer for c in cards}
        return hands | self._decks


def _named(payload: object, cards: set[str]) -> list[str]:
    """The cards whose JSON string ``"<card>"`` the payload's JSON text holds. For cards
    without a ``"`` (card ids) that is the text between two of the text's consecutive quotes,
    so one split of the text stands for a substring search per card."""
    text = json.dumps(payload)
    if '"' in "".join(cards):
        return [c for c in cards if f'"{c}"' in text]
    between = set(text.split('"')[1:-1])
    return [] if between.isdisjoint(cards) else [c for c in cards if c in between]


def test_no_seat_learns_another_hand_or_any_deck_order() -> None:
    """Hands and decks are secret (RULINGS.md). Random games at 2-4 seats: after every event
    and every action, no viewer (each seat, a spectator) is sent the name of a card that is
    in a deck or face down in another seat's hand, in the events as redacted for it or in its view."""
    for index in range(30):
        rng = random.Random(f"leak-{index}")
        players = 2 + index % 3
        viewers: list[int | None] = [None, *range(players)]
        hidden = _Hidden(players)
        play = new_game(GAME, players, SHORT, rng)
        new = list(play.events)
        state: State | None = None
        while True:
            for event in new:
                after = fold(GAME, [event], state)
                hidden.see(state, event, after)
                state = after
                for viewer in viewers:
                    leaked = _named(GAME.redact(event, viewer).data, hidden.from_(viewer, state))
                    assert not leaked, f"game {index}: {event.type} shows seat {viewer} {leaked}"
            assert state is not None and state == play.state
            for viewer in viewers:
                leaked = _named(GAME.view(state, viewer), hidden.from_(viewer, state))
                assert not leaked, f"game {index}: the view shows seat {viewer} {leaked}"
            if GAME.outcome(state) is not None:
                break
            seat = rng.choice(sorted(GAME.to_act(state)))
            new = step(GAME, play, seat, rng.choice(GAME.legal_actions(state, seat)), rng)
