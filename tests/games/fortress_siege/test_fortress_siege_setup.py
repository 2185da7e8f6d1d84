"""Setup, Tombstones and who starts, options, Winds of Fate dealing."""

from __future__ import annotations

import random

import pytest

from games.base import TABLE_SIZE, InvalidOptions
from games.fortress_siege import GAME
from games.fortress_siege.cards import deck_ids
from games.play import Playthrough, new_game

from .scenario import deck, idle, scene, start


def test_each_player_has_a_54_card_fortress_with_its_tombstone_at_the_bottom() -> None:
    """ "Each player's pile is their Fortress and their drawpile" / "The bottom card of a
    player's Fortress is their Tombstone" / "One deck of 54 standard playing cards (Jokers
    included) per player"."""
    play = scene(new_game(GAME, 3, {}, random.Random(7)))
    started = play.events[0]
    for seat, player in enumerate(play.state.players):
        assert sorted(player.fortress) == sorted(deck_ids(seat))
        assert player.tombstone == player.fortress[-1] == started.data["tombstones"][seat]
        assert player.hand == () and player.battlefield == ()


def test_the_highest_tombstone_starts_and_a_joker_beats_an_ace() -> None:
    """ "the Player with the highest value Tombstone starts the game (Aces are high, Jokers
    are the highest value card, and suit has no relevance to value)"."""
    play = start([], [], [], tombstones=["AS", "JK2", "KH"])
    assert play.events[1].type == "FirstPlayerChosen"
    assert play.events[1].data == {"seat": 1, "tied": [1]}
    assert play.state.active == 1 and GAME.to_act(play.state) == {1}


def test_an_ace_beats_a_king_whatever_the_suit() -> None:
    """ "Aces are high ... suit has no relevance to value"."""
    play = start([], [], tombstones=["KS", "AC"])
    assert play.state.active == 1


def test_a_tie_for_highest_tombstone_is_settled_among_the_tied_players_only() -> None:
    """ "the Player with the highest value Tombstone starts the game" (tie: RULINGS.md)."""
    firsts = set()
    for seed in range(30):
        decks = [deck(0, [], "QS"), deck(1, [], "QH"), deck(2, [], "3C")]
        play = scene(new_game(GAME, 3, {"decks": decks}, random.Random(seed)))
        chosen = play.events[1].data
        assert chosen["tied"] == [0, 1]
        firsts.add(chosen["seat"])
    assert firsts == {0, 1}


def test_play_moves_clockwise_from_the_starting_player() -> None:
    """ "Play moves clockwise from the starting player"."""
    play = start([], [], [], tombstones=["3C", "JK1", "2C"])
    seen = []
    for _ in range(4):
        seen.append(play.state.active)
        idle(play)
    assert seen == [1, 2, 0, 1]


def test_two_or_more_players_up_to_the_services_table_size() -> None:
    """ "Fortress is a fantasy combat card game for 2 or more players": no largest table in
    the rules, so the service's table size bounds it (8 unless the service sets another)."""
    assert GAME.open_ended and GAME.max_players == TABLE_SIZE == 8
    for players in range(2, 9):
        GAME.validate_options({}, players)
    for players in (1, 9):
        with pytest.raises(InvalidOptions):
            GAME.validate_options({}, players)
    GAME.validate_options({}, 12, table_size=12)
    with pytest.raises(InvalidOptions) as refused:
        GAME.validate_options({}, 13, table_size=12)
    assert refused.value.problems == ["Fortress is played by 2 to 12 players, not 13"]


def test_a_fixed_deck_game_is_not_a_fair_deal_and_says_so() -> None:
    """A game created with the ``decks`` option says so (issue: "a game created with it
    says so in its public summary")."""
    decks = [deck(0, [], "JK1"), deck(1, [], "2C")]
    options = GAME.validate_options({"decks": decks}, 2)
    assert not GAME.fair_deal(options)
    assert GAME.fair_deal(GAME.validate_options({}, 2))
    play = scene(new_game(GAME, 2, options, random.Random(0)))
    assert GAME.view(play.state, None)["fixed_deal"] is True
    assert [list(p.fortress) for p in play.state.players] == decks


def test_bad_decks_are_refused_with_every_problem() -> None:
    """A deck is "One deck of 54 standard playing cards (Jokers included) per player"."""
    good = deck(1, [], "2C")
    with pytest.raises(InvalidOptions) as error:
        GAME.validate_options({"decks": [deck(0, [], "JK1")[:-1], good[:-1] + ["2C.0"]]}, 2)
    problems = " ".join(error.value.problems)
    assert "deck 0 must have 54 cards" in problems and "deck 1 must have 54" not in problems
    with pytest.raises(InvalidOptions) as error:
        GAME.validate_options({"decks": [good, deck(0, [], "JK1")]}, 2)
    assert len(error.value.problems) == 2
    with pytest.raises(InvalidOptions):
        GAME.validate_options({"decks": [good]}, 2)


@pytest.mark.parametrize(
    ("players", "decks", "each"),
    [(2, 1, 27), (3, 2, 36), (4, 2, 27), (5, 3, 32), (6, 3, 27), (7, 4, 30), (8, 4, 27), (12, 6, 27)],
)
def test_winds_of_fate_shuffles_one_deck_per_two_players_and_deals_equally(players: int, decks: int, each: int) -> None:
    """Winds of Fate: "2 players = 1 deck, 3-4 players = 2 decks, 5-6 players = 3 decks,
    etc.) and all decks are shuffled together as one and all cards are dealt in equal
    number to all players"."""
    options = GAME.validate_options({"winds_of_fate": True}, players, table_size=players)
    events = GAME.setup(options, players, random.Random(players))
    play = scene(Playthrough(events=events, state=GAME.fold(None, events)))
    fortresses = [p.fortress for p in play.state.players]
    assert [len(f) for f in fortresses] == [each] * players
    everything = [card for f in fortresses for card in f] + list(play.state.set_aside)
    assert sorted(everything) == sorted(card for d in range(decks) for card in deck_ids(d))
    assert len(play.state.set_aside) == 54 * decks - each * players
    assert len({card.split(".")[1] for card in fortresses[0]}) > 1 or decks == 1


def test_winds_of_fate_explicit_decks_must_be_equal_and_distinct() -> None:
    """Winds of Fate: "all cards are dealt in equal number to all players"."""
    cards = deck_ids(0)
    GAME.validate_options({"winds_of_fate": True, "decks": [cards[:27], cards[27:]]}, 2)
    with pytest.raises(InvalidOptions):
        GAME.validate_options({"winds_of_fate": True, "decks": [cards[:28], cards[26:]]}, 2)
    with pytest.raises(InvalidOptions):
        GAME.validate_options({"winds_of_fate": True, "decks": [cards[:27], cards[:27]]}, 2)
