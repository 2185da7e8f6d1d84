"""Random play: the shared contract check, and Fortress's own invariants over thousands
of random legal games of 2 to 4 players."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import IllegalAction
from games.fortress_siege import GAME
from games.fortress_siege.cards import deck_ids
from games.fortress_siege.state import State
from games.play import new_game, random_game, step
from tests.games.contract import check_contract, mutations
from tests.games.fortress_siege.scenario import Scene, scene

MAX_ACTIONS = 3_000


def test_contract_standard_game() -> None:
    """Every game kind passes the shared simulation test (design.md, "Tests")."""
    lengths = check_contract(GAME, players=[2, 3, 4], games=12, check_every=7, max_actions=MAX_ACTIONS)
    assert all(0 < length < MAX_ACTIONS for length in lengths)


def test_contract_winds_of_fate_and_big_tables() -> None:
    """The same with Winds of Fate (one deck per two players) and with 5 and 6 players."""
    check_contract(
        GAME,
        players=[2, 3, 5],
        games=4,
        check_every=7,
        options={"winds_of_fate": True},
        max_actions=MAX_ACTIONS,
    )
    check_contract(GAME, players=[5, 6], games=2, check_every=11, max_actions=MAX_ACTIONS)


SORTED_DECKS = [sorted(deck_ids(deck)) for deck in range(6)]


def places(state: State) -> list[list[str]]:
    """Every card each seat holds anywhere: Fortress, hand, battlefield, Graveyard (and
    shields on the table during an attack, and during the answered attacks of the same move)."""
    out = []
    attacks = [*state.answered, *([state.attack] if state.attack else [])]
    for seat, player in enumerate(state.players):
        cards = [*player.fortress, *player.hand, *player.graveyard]
        for character in player.battlefield:
            cards += character.cards()
        for attack in attacks:
            if attack.target_seat == seat:
                cards += [card for shield in attack.shields for card in shield]
        out.append(cards)
    return out


def check_conservation(state: State, winds_of_fate: bool, all_cards: list[str]) -> None:
    held = places(state)
    if winds_of_fate:
        assert sorted([card for cards in held for card in cards] + list(state.set_aside)) == all_cards
    else:
        for seat, cards in enumerate(held):
            assert sorted(cards) == SORTED_DECKS[seat], f"deck {seat} is not all in seat {seat}'s piles"


def play_checked(players: int, seed: int, winds_of_fate: bool, illegal_every: int) -> Scene:
    """One random game, checking the invariants after every action."""
    rng = random.Random(seed)
    play = scene(new_game(GAME, players, {"winds_of_fate": winds_of_fate}, rng))
    decks = -(-players // 2) if winds_of_fate else players
    all_cards = sorted(card for deck in range(decks) for card in deck_ids(deck))
    assert sorted([card for cards in places(play.state) for card in cards] + list(play.state.set_aside)) == all_cards
    moves = 0
    for turn in range(MAX_ACTIONS):
        state = play.state
        if GAME.outcome(state) is not None:
            assert moves <= 3
            check_conservation(state, winds_of_fate, all_cards)
            return play
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        action = rng.choice(legal)
        if turn % illegal_every == 0:
            for wrong in mutations(action, rng):
                if wrong not in legal:
                    before = (len(play.events), play.state)
                    with pytest.raises(IllegalAction):
                        step(GAME, play, seat, wrong, rng)
                    assert (len(play.events), play.state) == before, "an illegal action appended events"
        mover = state.active
        events = step(GAME, play, seat, action, rng)
        if state.attack is None and not state.declaring:
            moves += 1
        kinds = [event.type for event in events]
        if "TurnPassed" in kinds:
            out = any(e.type == "PlayerDefeated" and e.seat == mover for e in events)
            assert moves == 3 or (out and moves < 3), f"a turn of {moves} moves"
            moves = 0
        if turn % 9 == 0 or "PlayerDefeated" in kinds:
            check_conservation(play.state, winds_of_fate, all_cards)
        assert max([len(player.hand) for player in play.state.players]) <= 5
    raise AssertionError(f"game {seed} did not end within {MAX_ACTIONS} actions")


@pytest.mark.statistical
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_conserve_cards_take_three_moves_a_turn_and_end(players: int) -> None:
    """Thousands of random legal games (700 for each of 2, 3 and 4 players), every one
    checked throughout: "Each player must take exactly three actions per turn", "Each
    player may hold up to five cards in their hand at any time", every card of each deck
    stays in its owner's Fortress, hand, battlefield or Graveyard, illegal actions append
    nothing, and "The game ends when all but one of the players' Fortresses have been
    depleted" (always: RULINGS.md, "Every game ends")."""
    for seed in range(700):
        play = play_checked(players, seed * 10 + players, winds_of_fate=False, illegal_every=37)
        outcome = GAME.outcome(play.state)
        assert outcome is not None and len(outcome["winners"]) == 1
        assert [p.in_game for p in play.state.players].count(True) == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_winds_of_fate_games_conserve_the_shared_decks(players: int) -> None:
    """Winds of Fate games: "all decks are shuffled together as one" and every card stays
    in play somewhere."""
    for seed in range(60):
        play_checked(players, seed * 10 + players, winds_of_fate=True, illegal_every=53)


junk = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 200) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 40),
    length=st.integers(0, 150),
    verb=st.sampled_from(
        [
            "draw",
            "deploy",
            "armor",
            "equip",
            "attack",
            "barrage",
            "angel_of_life",
            "angel_of_death",
            "discard",
            "discard_character",
            "assign_defender",
            "add_shield",
            "done_defending",
            "pass",
        ]
    ),
    fields=st.dictionaries(
        st.sampled_from(["card", "character", "attacker", "fortress", "cards", "seat"]), junk, max_size=3
    ),
)
def test_any_action_not_listed_is_refused_with_a_reason(
    seed: int, length: int, verb: str, fields: dict[str, Any]
) -> None:
    """``decide`` accepts exactly what ``legal_actions`` lists; anything else is refused
    with a sentence and changes nothing."""
    play = scene(random_game(GAME, 2 + seed % 3, random.Random(seed), max_actions=length))
    state = play.state
    action = {"type": verb, **fields}
    for seat in range(len(state.players)):
        if action in GAME.legal_actions(state, seat):
            continue
        with pytest.raises(IllegalAction) as error:
            GAME.decide(state, seat, action, random.Random(0))
        assert error.value.reason.endswith(".")
