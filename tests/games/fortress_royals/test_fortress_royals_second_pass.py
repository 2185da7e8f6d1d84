"""Scenarios of the rules' second pass: the readings a player would dispute, each
played under the rulebook's literal words (rules revision 2, the default), under the option
that keeps our first reading, and under revision 1 (games stored before the change), and
the rulebook's worked examples.

Seat 0 attacks seat 1, whose hand is named left end first; ``complete`` fills each hand up
to ten number cards that pair with nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from games.base import IllegalAction
from games.fortress_royals import GAME
from games.play import Playthrough
from tests.games.fortress_royals.tables import act, complete, decide, fortified, now, only

FIRST_READING = {"royals_pair_by_face": True, "kings_taken_in_defence_score_2": True}
RULES_1 = {"rules": 1}


def duel(attacker: Sequence[str], defender: Sequence[str], **options: Any) -> Playthrough:
    return fortified(complete(attacker, defender), first=0, **options)


def attack(play: Playthrough, cards: list[str], side: str = "left") -> dict[str, Any]:
    return dict(only(act(play, 0, {"type": "attack", "cards": cards, "side": side}), "AttackResolved").data)


# --- a King taken in defence -----------------------------------------------------------


def king_taken_in_defence(**options: Any) -> list[int]:
    """Seat 1 attacks with its King against seat 0's Five (blocked: the King is taken by
    seat 0), then both pass; the round's points."""
    play = duel(["5C"], ["KC"], **options)
    act(play, 0, {"type": "pass"})
    taken = only(act(play, 1, {"type": "attack", "cards": ["KC"], "side": "left"}), "AttackResolved")
    assert taken.data["result"] == "blocked" and taken.data["captured_by_defender"] == ["KC"]
    act(play, 0, {"type": "pass"})
    return list(only(act(play, 1, {"type": "pass"}), "RoundEnded").data["points"])


def test_a_king_taken_from_an_attacker_scores_as_one_of_the_other_royals() -> None:
    """Tallying: "2 points for every King captured (i.e. if the player's attack has beat a
    royal)". Seat 0's attack beat nothing: the King came to it in defence, so it is one of the
    royals worth 1 point."""
    assert king_taken_in_defence() == [1, 0]


def test_a_king_beaten_by_an_attack_scores_two() -> None:
    """Tallying: "2 points for every King captured (i.e. if the player's attack has beat a
    royal)". Seat 0's Two beats seat 1's lone King at the left end."""
    play = duel(["2C"], ["KC"])
    assert attack(play, ["2C"])["captured_by_attacker"] == ["KC"]
    act(play, 1, {"type": "pass"})
    assert only(act(play, 0, {"type": "pass"}), "RoundEnded").data["points"] == [2, 0]


@pytest.mark.parametrize("options", [FIRST_READING, RULES_1], ids=["option", "rules-1"])
def test_our_first_reading_scores_every_captured_king_two(options: dict[str, Any]) -> None:
    """The option kings_taken_in_defence_score_2, and every game stored under rules 1: any
    King in the captured pile scores 2, however it got there."""
    assert king_taken_in_defence(**options) == [2, 0]


# --- four attack cards against a royal at the end ----------------------------------------


@pytest.mark.parametrize("options", [{}, FIRST_READING, RULES_1], ids=["default", "option", "rules-1"])
def test_four_attack_cards_do_not_beat_a_royal_at_the_attacked_end(options: dict[str, Any]) -> None:
    """Blocking: "there are four attack cards. It beats all cards up to (but not including) a
    royal." The literal words: with the Queen at the end nothing lies before it, so four
    Twos beat nothing and are blocked, and the Queen is shown; a single Two would take it
    (the next test). Every reading agrees."""
    play = duel(["2C", "2D", "2H", "2S"], ["QH", "5D"], **options)
    data = attack(play, ["2C", "2D", "2H", "2S"])
    assert data["result"] == "blocked" and data["broken"] == [] and data["revealed"] == ["QH"]
    assert data["discarded"] == ["2C", "2D", "2H", "2S"] and now(play).hands[1][0] == "QH"


def test_one_card_of_the_four_takes_the_same_lone_royal() -> None:
    """Capturing: "Royals (Jack, Queen, and King) have a rank of 0." Against the same Queen one
    of the four Twos, alone, breaks and captures it."""
    play = duel(["2C", "2D", "2H", "2S"], ["QH", "5D"])
    data = attack(play, ["2C"])
    assert data["result"] == "broken" and data["captured_by_attacker"] == ["QH"]


def test_four_attack_cards_sweep_up_to_the_first_royal() -> None:
    """Blocking: "there are four attack cards. It beats all cards up to (but not including) a
    royal." Four Twos break 9C, 9D and 5H and stop before the Jack."""
    play = duel(["2C", "2D", "2H", "2S"], ["9C", "9D", "5H", "JD", "4S"])
    data = attack(play, ["2C", "2D", "2H", "2S"])
    assert data["broken"] == ["9C", "9D", "5H"] and now(play).hands[1][0] == "JD"


# --- royals side by side -----------------------------------------------------------------


def test_royals_of_any_face_side_by_side_defend_together() -> None:
    """Capturing: "Royals (Jack, Queen, and King) have a rank of 0." Taken at its word, a Jack
    beside a Queen are two cards of equal rank: a single card against the two is blocked
    (both are needed, both shown), and two cards break them both."""
    play = duel(["2C", "3C", "3D"], ["JH", "QS", "5D"])
    blocked = attack(play, ["2C"])
    assert blocked["result"] == "blocked" and blocked["revealed"] == ["JH", "QS"]
    act(play, 1, {"type": "pass"})
    broken = attack(play, ["3C", "3D"])
    assert broken["result"] == "broken" and broken["captured_by_attacker"] == ["JH", "QS"]


def test_royals_of_any_face_side_by_side_attack_together() -> None:
    """Attacking: "if two or more cards of an equal rank are directly next to each other, he
    may attack with all or some of those cards", royals being all of rank 0: a Jack and the
    King beside it attack together (and, as royals, go to the defender)."""
    play = duel(["JC", "KD", "4H"], ["5D"])
    assert {"type": "attack", "cards": ["JC", "KD"], "side": "left"} in GAME.legal_actions(now(play), 0)
    data = attack(play, ["JC", "KD"])
    assert data["result"] == "broken" and data["broken"] == ["5D"]
    assert data["captured_by_defender"] == ["JC", "KD"]


@pytest.mark.parametrize("options", [FIRST_READING, RULES_1], ids=["option", "rules-1"])
def test_our_first_reading_pairs_royals_only_by_face(options: dict[str, Any]) -> None:
    """The option royals_pair_by_face, and every game stored under rules 1: a Jack and a
    Queen are not equal ranks. One card breaks the Jack alone; the Jack and King may not
    attack together."""
    play = duel(["2C", "JC", "KD"], ["JH", "QS", "5D"], **options)
    data = attack(play, ["2C"])
    assert data["result"] == "broken" and data["captured_by_attacker"] == ["JH"]
    act(play, 1, {"type": "pass"})
    with pytest.raises(IllegalAction, match="equal rank"):
        decide(play, 0, {"type": "attack", "cards": ["JC", "KD"], "side": "left"})


# --- the rulebook's worked examples --------------------------------------------------------


def test_worked_example_two_sixes_against_two_fives() -> None:
    """Blocking: "For example, if two attacking 6's contest two defending 5's, both defending
    5's must be discarded.\""""
    play = duel(["6C", "6D"], ["5H", "5S", "9C"])
    data = attack(play, ["6C", "6D"])
    assert data["result"] == "broken" and data["broken"] == ["5H", "5S"]
    assert data["discarded"] == ["6C", "6D", "5H", "5S"] and now(play).hands[1][0] == "9C"


def test_worked_example_two_aces_next_to_each_other() -> None:
    """Fortifying: "It is also beneficial to have equally ranked cards next to each other (such
    as two Aces next to each other) in the player's hand." The two Aces attack together, and
    two attack cards beat a single defense card, even a Nine."""
    play = duel(["AC", "AD"], ["9H"])
    data = attack(play, ["AC", "AD"])
    assert data["result"] == "broken" and data["broken"] == ["9H"]
