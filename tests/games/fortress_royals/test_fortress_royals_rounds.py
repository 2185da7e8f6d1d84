"""Scenarios of turns other than attacks (Aces, passing, done), the end of a round, the
tally, the end of the game, and what changes from round to round."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.base import IllegalAction
from games.fortress_royals import GAME
from games.fortress_royals.cards import DECK
from games.play import Playthrough
from tests.games.fortress_royals.tables import (
    act,
    complete,
    decide,
    fortified,
    layout,
    now,
    only,
    pass_round,
    play_round_start,
    types,
    winners,
)

NINE_ROYALS = ["KH", "QH", "JH", "KS", "QS", "JS", "KD", "QD", "JD"]


def test_an_ace_is_discarded_for_a_new_card_placed_at_an_end() -> None:
    """Aces: "If a player has an Ace in his hand, on his turn he may discard the Ace, draw a new
    card and place it left of the left-most card or right of the right-most card. This is his
    turn." Given seat 0 holds AC and 9D tops the deck."""
    play = fortified(complete(["AC"], [], reserve=["9D"]), first=0, rest=["9D"])
    assert {"type": "discard_ace", "card": "AC"} in GAME.legal_actions(now(play), 0)
    events = act(play, 0, {"type": "discard_ace", "card": "AC"})
    assert types(events) == ["AceDiscarded", "CardDrawn"]
    assert events[1].data == {"seat": 0, "card": "9D"}
    assert GAME.redact(events[1], 1).data == {"seat": 0}
    assert now(play).discard == ("AC",)
    assert GAME.legal_actions(now(play), 0) == [
        {"type": "place", "end": "left"},
        {"type": "place", "end": "right"},
    ]
    with pytest.raises(IllegalAction, match="Place the card"):
        decide(play, 0, {"type": "pass"})
    act(play, 0, {"type": "place", "end": "left"})
    assert now(play).hands[0][0] == "9D" and len(now(play).hands[0]) == 10
    assert GAME.to_act(now(play)) == {1}


def test_only_an_ace_may_be_discarded_to_draw() -> None:
    """Aces: "he may discard the Ace, draw a new card": no other card does this."""
    play = fortified(complete(["AC", "5C"], []), first=0)
    with pytest.raises(IllegalAction, match="Only an Ace"):
        decide(play, 0, {"type": "discard_ace", "card": "5C"})


def test_an_ace_cannot_draw_from_an_empty_deck() -> None:
    """Aces: "discard the Ace, draw a new card" needs a card to draw (RULINGS: with the deck
    empty the Ace cannot be used). Given five players and two cards left, seat 0 uses two Aces;
    the third is refused."""
    others = [card for card in DECK if card not in ("AC", "AD", "AH", "9D", "9S")]
    hands = [["AC", "AD", "AH", *others[:7]]] + [others[7 + 10 * i : 17 + 10 * i] for i in range(4)]
    play = fortified(hands, first=0, rest=["9D", "9S"])
    for ace in ("AC", "AD"):
        act(play, 0, {"type": "discard_ace", "card": ace})
        act(play, 0, {"type": "place", "end": "right"})
        for seat in (1, 2, 3, 4):
            act(play, seat, {"type": "pass"})
    assert now(play).deck == ()
    assert {"type": "discard_ace", "card": "AH"} not in GAME.legal_actions(now(play), 0)
    with pytest.raises(IllegalAction, match="deck is empty"):
        decide(play, 0, {"type": "discard_ace", "card": "AH"})


def test_a_pass_skips_the_turn_and_all_players_passing_ends_the_round() -> None:
    """Passing: "A player may pass his attacking phase, which will skip this turn of the player.
    However, if all players pass, the round is over and points are tallied." """
    play = fortified(complete(["5C"], ["6D"]), first=0)
    assert types(act(play, 0, {"type": "pass"})) == ["TurnPassed"]
    act(play, 1, {"type": "attack", "cards": ["6D"], "side": "left"})
    assert types(act(play, 0, {"type": "pass"})) == ["TurnPassed"]
    events = act(play, 1, {"type": "pass"})
    assert types(events) == ["TurnPassed", "RoundEnded"]
    assert events[1].data["reason"] == "every player passed"


def test_done_may_be_called_with_at_most_one_number_card() -> None:
    """Calling done: "At the beginning of his turn and when a player has one or zero number
    ranked cards in his hand (i.e. one or zero cards other than royals), he may call "done".
    This will immediately end the round, and points should be tallied." """
    play = fortified([[*NINE_ROYALS, "5C"], complete([], reserve=[*NINE_ROYALS, "5C"])[0]], first=0)
    assert {"type": "done"} in GAME.legal_actions(now(play), 0)
    events = act(play, 0, {"type": "done"})
    assert types(events) == ["DoneCalled", "RoundEnded"]
    ended = events[1].data
    assert ended["reason"] == 'seat 0 called "done"'
    assert ended["points"] == [3 * 1 + 3 * 2 + 3 * 1, 0]
    assert ended["hands"][0] == [*NINE_ROYALS, "5C"]


def test_done_is_refused_with_two_number_cards() -> None:
    """Calling done: only "when a player has one or zero number ranked cards in his hand"."""
    play = fortified(complete([], []), first=0)
    assert {"type": "done"} not in GAME.legal_actions(now(play), 0)
    with pytest.raises(IllegalAction, match="at most one card other than royals"):
        decide(play, 0, {"type": "done"})


def test_done_is_called_only_at_the_beginning_of_a_turn() -> None:
    """Calling done: "At the beginning of his turn": not after an Ace's draw in the same turn."""
    play = fortified([["AC", *NINE_ROYALS], complete([], reserve=["AC", *NINE_ROYALS])[0]], first=0)
    act(play, 0, {"type": "discard_ace", "card": "AC"})
    with pytest.raises(IllegalAction):
        decide(play, 0, {"type": "done"})


def test_a_player_out_of_cards_ends_the_round() -> None:
    """Tallying: a round is finished when "a player runs out of cards". Four Threes sweep a
    hand without royals: the defender has nothing left."""
    play = fortified(complete(["3C", "3D", "3H", "3S"], []), first=0)
    events = act(play, 0, {"type": "attack", "cards": ["3C", "3D", "3H", "3S"], "side": "right"})
    assert types(events) == ["AttackResolved", "RoundEnded"]
    assert len(events[0].data["broken"]) == 10
    assert events[1].data["reason"] == "seat 1 ran out of cards"


def test_an_attacker_out_of_cards_ends_the_round() -> None:
    """Tallying: a round is finished when "a player runs out of cards", the attacker too.
    Seat 0 throws four Twos and four Threes against a King at seat 1's left end (blocked, the
    King shown), then its last two cards, two Fours, beat the lone King and capture it."""
    attacker = ["2C", "2D", "2H", "2S", "3C", "3D", "3H", "3S", "4C", "4D"]
    play = fortified([attacker, ["KH", "5C", "6C", "7C", "8C", "9C", "10C", "5D", "6D", "KS"]], first=0)
    for run in (attacker[:4], attacker[4:8]):
        blocked = only(act(play, 0, {"type": "attack", "cards": run, "side": "left"}), "AttackResolved")
        assert blocked.data["result"] == "blocked" and blocked.data["revealed"] == ["KH"]
        act(play, 1, {"type": "pass"})
    events = act(play, 0, {"type": "attack", "cards": ["4C", "4D"], "side": "left"})
    assert types(events) == ["AttackResolved", "RoundEnded"]
    assert events[0].data["captured_by_attacker"] == ["KH"]
    assert events[1].data["reason"] == "seat 0 ran out of cards"
    assert events[1].data["points"] == [2, 1]


def tallied_round(**options: Any) -> tuple[Playthrough, list]:
    """Seat 0 breaks a lone King with 2C, seat 1 attacks with a Jack that is blocked (and
    captured by seat 0), both pass."""
    hands = complete(["2C", "5C", "QH", "JH", "KD"], ["KS", "3D", "JC", "QS", "JD"])
    play = fortified(hands, first=0, **options)
    act(play, 0, {"type": "attack", "cards": ["2C"], "side": "left"})
    act(play, 1, {"type": "attack", "cards": ["JC"], "side": "left"})
    act(play, 0, {"type": "pass"})
    return play, act(play, 1, {"type": "pass"})


def test_the_tally_of_a_round() -> None:
    """Tallying: "2 points for every King captured", "2 points for every Queen protected (i.e.
    if the player still has the card in his hand when the round is over)", "All other royals
    are worth 1 point." Seat 0: KS captured 2, JC captured 1, QH 2, JH 1, KD 1 kept = 7;
    seat 1: QS 2, JD 1 kept = 3 (3D stays in hand and scores nothing)."""
    play, events = tallied_round()
    ended = only(events, "RoundEnded").data
    assert now(play).captured == (("KS", "JC"), ())
    assert ended["points"] == [7, 3] and ended["scores"] == [7, 3]
    assert now(play).scores == (7, 3)
    assert GAME.view(now(play), None)["round_points"] == [[7, 3]]


def test_hands_are_shown_for_the_tally() -> None:
    """Tallying: Queens "protected" are counted from the hands, so every hand is shown when the
    round ends (RULINGS)."""
    play, _ = tallied_round()
    view = GAME.view(now(play), 1)
    assert view["hands"][0]["cards"] == list(now(play).hands[0])


def test_the_target_score_depends_on_the_number_of_players() -> None:
    """After a round: "For two players, the target score is 21", "For three players, the target
    score is 17", "For four players, the target score is 14" (five: 12, ours)."""
    for players, target in ((2, 21), (3, 17), (4, 14), (5, 12)):
        events = GAME.setup(GAME.validate_options({}, players), players, random.Random(0))
        assert events[0].data["target"] == target
        assert GAME.view(GAME.evolve(None, events[0]), None)["target_score"] == target


def test_reaching_the_target_score_wins() -> None:
    """After a round: "The first player to reach the target score wins the game"."""
    play, events = tallied_round(target=7)
    assert types(events)[-2:] == ["RoundEnded", "GameWon"]
    assert GAME.outcome(now(play)) == {
        "winners": [0],
        "scores": [7, 3],
        "reason": "reached the target score of 7 with 7 points",
    }
    assert GAME.to_act(now(play)) == frozenset()


def test_when_several_reach_the_target_the_highest_wins() -> None:
    """After a round: "(or the highest score if more than one player reaches the target score)".
    Seat 0 keeps a Queen (2), seat 1 two Queens (4): both reach 2, seat 1 wins."""
    hands = complete(["5C", "QH"], ["5D", "QS", "QD"], ["5S"])
    play = fortified(hands, first=0, target=2)
    pass_round(play)
    assert winners(play) == [1]


def test_equal_highest_scores_at_the_target_share_the_win() -> None:
    """After a round: "the highest score if more than one player reaches the target score"
    (RULINGS: equal highest scores share the win)."""
    play = fortified(complete(["5C", "QH"], ["5D", "QS"]), first=0, target=2)
    pass_round(play)
    assert winners(play) == [0, 1]


def test_a_fixed_number_of_rounds_makes_a_shorter_game() -> None:
    """After a round: "For a shorter game, have one or two rounds be a complete game."
    With rounds=1 the highest total after the round wins; with rounds=2 play goes on."""
    play = fortified(complete(["5C", "QH"], ["5D"]), first=0, rounds=1)
    events = pass_round(play)
    assert only(events, "GameWon").data == {"winners": [0], "reason": "highest score after 1 round"}
    play = fortified(complete(["5C", "QH"], ["5D"]), first=0, rounds=2)
    events = pass_round(play)
    assert "GameWon" not in types(events) and GAME.outcome(now(play)) is None


def test_scores_are_running_totals_and_a_fixed_number_of_rounds_ends_after_the_last() -> None:
    """Tallying: "Keep the score tallied on a scoresheet"; After a round: "After a round is
    tallied, write down the total score for each player on a scoresheet" and "For a shorter
    game, have one or two rounds be a complete game." Given rounds=2 and a first round of
    7 to 3, the second round's points are added, and the game ends after it."""
    play, events = tallied_round(rounds=2)
    assert only(events, "RoundEnded").data["scores"] == [7, 3]
    play_round_start(play, first=1)
    royals_kept = [sum({"J": 1, "Q": 2, "K": 1}.get(card[0], 0) for card in hand) for hand in now(play).hands]
    ended = only(pass_round(play), "RoundEnded").data
    assert ended["round"] == 2 and ended["points"] == royals_kept
    assert ended["scores"] == [7 + royals_kept[0], 3 + royals_kept[1]]
    assert now(play).scores == tuple(ended["scores"])
    assert GAME.view(now(play), None)["round_points"] == [[7, 3], royals_kept]
    result = GAME.outcome(now(play))
    assert result is not None and result["reason"] == "highest score after 2 rounds"
    best = max(ended["scores"])
    assert result["winners"] == [seat for seat, score in enumerate(ended["scores"]) if score == best]


def test_the_lowest_scorer_of_the_round_chooses_who_goes_first() -> None:
    """After a round: "the player who scored the least amount of points for that round gets to
    decide who goes first." Scores are running totals."""
    play, events = tallied_round()
    assert only(events, "RoundEnded").data["chooser"] == 1
    assert GAME.to_act(now(play)) == {1}
    assert GAME.legal_actions(now(play), 1) == [{"type": "choose_first", "seat": s} for s in (0, 1)]


def test_a_tie_for_the_lowest_round_score_goes_to_the_earliest_in_turn_order() -> None:
    """After a round: "the player who scored the least amount of points for that round gets to
    decide" (RULINGS: among equals, the first of them in the round's turn order)."""
    for first, chooser in ((2, 2), (0, 0), (1, 2)):
        play = fortified(complete(["5C"], ["5D", "QH"], ["5S"]), first=first)
        assert only(pass_round(play), "RoundEnded").data["chooser"] == chooser


def test_the_direction_of_play_alternates_every_round() -> None:
    """After a round: "This time, the play moves counter-clockwise and the starting player
    attacks the person on his right. This rotates each round." """
    play = fortified(complete([], [], []), first=0)
    pass_round(play)
    events = act(play, now(play).chooser, {"type": "choose_first", "seat": 0})
    assert only(events, "RoundStarted").data == {"round": 2, "direction": -1, "even": False}
    assert [e.data["seat"] for e in events if e.type == "CardsDealt"] == [0, 2, 1]
    play_round_start_from_deal(play)
    view = GAME.view(now(play), None)
    assert view["direction"] == "counter-clockwise" and view["attack_target"] == 2
    attacked = act(play, 0, {"type": "attack", "cards": [now(play).hands[0][0]], "side": "left"})
    assert only(attacked, "AttackResolved").data["target"] == 2
    assert now(play).turn == 2
    pass_round(play)
    events = act(play, now(play).chooser, {"type": "choose_first", "seat": 1})
    assert only(events, "RoundStarted").data["direction"] == 1


def play_round_start_from_deal(play: Playthrough) -> None:
    for seat in range(now(play).players):
        act(play, seat, {"type": "keep_dealt"})
    while now(play).waiting or now(play).pending:
        if now(play).waiting:
            act(play, min(now(play).waiting), {"type": "keep"})
        else:
            act(play, now(play).turn, {"type": "place", "end": "right"})


def test_the_even_round_uses_the_cards_left_in_the_deck() -> None:
    """The Even Round: "If there are two players, every other round should be played with the
    cards remaining in the deck. Do not reshuffle the cards." Round 2 deals from the 32 cards
    round 1 left; round 3 shuffles all 52 again."""
    first_round = complete(["5C"], ["5D"])
    used = {card for hand in first_round for card in hand}
    second_round = [
        [card for card in DECK if card not in used][:10],
        [card for card in DECK if card not in used][10:20],
    ]
    play = fortified(first_round, first=0, rest=layout(second_round, first=1, direction=-1))
    pass_round(play)
    remaining = now(play).deck
    events = act(play, now(play).chooser, {"type": "choose_first", "seat": 1})
    assert types(events) == ["FirstPlayerChosen", "RoundStarted", "CardsDealt", "CardsDealt"]
    assert only(events, "RoundStarted").data == {"round": 2, "direction": -1, "even": True}
    assert events[2].data == {"seat": 1, "cards": [remaining[0], remaining[2]]}
    assert sorted(now(play).set_aside) == sorted(used)
    assert GAME.view(now(play), 0)["even_round"] is True
    play_round_start_from_deal(play)
    assert [list(hand) for hand in now(play).hands] == second_round
    assert len(now(play).deck) == 12
    pass_round(play)
    events = act(play, now(play).chooser, {"type": "choose_first", "seat": 0})
    assert "DeckShuffled" in types(events)
    assert only(events, "RoundStarted").data == {"round": 3, "direction": 1, "even": False}
    assert now(play).set_aside == () and len(now(play).deck) == 52 - 4


def test_round_two_starts_again_with_the_fortifying_phase() -> None:
    """After a round: "Begin again with the Fortifying Phase." The same helper that fortified
    round 1 fortifies round 2."""
    play = fortified(complete([], [], []), first=0)
    pass_round(play)
    play_round_start(play, first=1)
    assert all(len(hand) == 10 for hand in now(play).hands)
    assert now(play).round == 2 and now(play).turn == 1
