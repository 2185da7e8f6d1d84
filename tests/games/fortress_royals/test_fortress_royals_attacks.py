"""Scenarios of the Attacking Phase: blocking attacks, breaking defenses, royals.

Each scenario: given two fortified hands (seat 0 attacks seat 1, whose left end is
named first), when seat 0 attacks, then the AttackResolved event says what broke,
what was revealed, and where every card went.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from games.base import IllegalAction
from games.fortress_royals import GAME
from games.fortress_royals.combat import resolve
from games.play import Playthrough
from tests.games.fortress_royals.tables import act, complete, decide, fortified, now, only, types


def duel(attacker: Sequence[str], defender: Sequence[str]) -> Playthrough:
    return fortified(complete(attacker, defender), first=0)


def attack(play: Playthrough, cards: list[str], side: str = "left") -> dict[str, Any]:
    return dict(only(act(play, 0, {"type": "attack", "cards": cards, "side": side}), "AttackResolved").data)


def test_attack_with_one_card_or_some_or_all_of_a_run_of_equal_ranks() -> None:
    """Attacking Phase: "a player removes any single card from his hand, or if two or more cards
    of an equal rank are directly next to each other, he may attack with all or some of those
    cards." Given 7C 7D 7H in a row and 7S apart, every subset of the run may attack, 7S alone."""
    play = duel(["7C", "7D", "7H", "2S", "7S"], ["5D"])
    legal = GAME.legal_actions(now(play), 0)
    groups = {tuple(a["cards"]) for a in legal if a["type"] == "attack"}
    for group in [("7C",), ("7C", "7D"), ("7C", "7H"), ("7D", "7H"), ("7C", "7D", "7H"), ("7S",), ("2S",)]:
        assert group in groups
        assert {"type": "attack", "cards": list(group), "side": "left"} in legal
        assert {"type": "attack", "cards": list(group), "side": "right"} in legal
    assert ("7H", "7S") not in groups
    with pytest.raises(IllegalAction, match="next to each other"):
        decide(play, 0, {"type": "attack", "cards": ["7H", "7S"], "side": "left"})
    with pytest.raises(IllegalAction, match="equal rank"):
        decide(play, 0, {"type": "attack", "cards": ["7H", "2S"], "side": "left"})
    with pytest.raises(IllegalAction, match="not a card in your hand"):
        decide(play, 0, {"type": "attack", "cards": ["5D"], "side": "left"})


def test_one_card_breaks_a_lower_or_equal_single_and_both_are_discarded() -> None:
    """Blocking: "one attack card and one defense card, and the attack card is greater than or
    equal to the rank of the defense card"; "If the attacking card(s) breaks the defending
    card(s), both the attacking and defending cards are discarded." Given 5C against 5D."""
    play = duel(["5C"], ["5D"])
    data = attack(play, ["5C"])
    assert data["result"] == "broken"
    assert data["broken"] == ["5D"] and data["discarded"] == ["5C", "5D"]
    assert now(play).discard == ("5C", "5D")
    assert "5D" not in now(play).hands[1] and "5C" not in now(play).hands[0]


def test_a_blocked_attack_is_discarded_and_the_defender_stays_revealed() -> None:
    """Blocking: "If the defending card(s) blocks the attacking card(s), the defender flips over
    the defending card(s) ... revealing them to the attacker (and anyone else playing). The
    attacking card(s) is then discarded, and the defending card(s) remains revealed."
    Given 4C against 5D: blocked; 5D shows in every view, still after later turns."""
    play = duel(["4C"], ["5D"])
    data = attack(play, ["4C"])
    assert data["result"] == "blocked" and data["broken"] == []
    assert data["revealed"] == ["5D"] and data["discarded"] == ["4C"]
    assert now(play).hands[1][0] == "5D"
    act(play, 1, {"type": "pass"})
    for viewer in (0, None):
        seen = GAME.view(now(play), viewer)["hands"][1]
        assert seen["cards"][0] == "5D" and seen["cards"][1:] == [None] * 9
        assert seen["revealed"] == [0]
    assert GAME.view(now(play), 1)["hands"][1]["revealed"] == [0]


def test_the_defending_cards_are_the_outer_card_and_its_equal_neighbours() -> None:
    """Attacking Phase: "If one or more cards of equal rank to the outer card are directly next
    to the outer card, they together make the defending cards." A single Nine meets a pair of
    Fives: one attack card against two defense cards is blocked, and both Fives were needed."""
    play = duel(["9C"], ["5D", "5H"])
    data = attack(play, ["9C"])
    assert data["result"] == "blocked" and data["revealed"] == ["5D", "5H"]


def test_only_the_defending_cards_needed_to_block_are_revealed() -> None:
    """Blocking: "the defender flips over the defending card(s) that were necessary to block the
    attack". A Four against a pair of Fives: one Five alone blocks it, so only it is shown."""
    play = duel(["4C"], ["5D", "5H"])
    data = attack(play, ["4C"])
    assert data["revealed"] == ["5D"]
    assert GAME.view(now(play), 0)["hands"][1]["cards"][:2] == ["5D", None]


def test_two_attack_cards_beat_any_single_defense_card() -> None:
    """Blocking: "there are two attack cards and one defense card" (whatever the ranks)."""
    play = duel(["2C", "2D"], ["10H"])
    data = attack(play, ["2C", "2D"])
    assert data["result"] == "broken" and data["broken"] == ["10H"]
    assert data["discarded"] == ["2C", "2D", "10H"]


def test_two_attack_cards_beat_two_lower_or_equal_defense_cards() -> None:
    """Blocking: "there are two attack cards and two defense cards, and the attack cards are
    greater than or equal to the rank of the defense cards"."""
    play = duel(["6C", "6D"], ["6H", "6S"])
    assert attack(play, ["6C", "6D"])["broken"] == ["6H", "6S"]


def test_two_attack_cards_are_blocked_by_two_higher_defense_cards() -> None:
    """Blocking: two attack cards beat two defense cards only when "greater than or equal";
    two Fours against two Sixes are blocked and both Sixes shown (one alone would fall to two)."""
    play = duel(["4C", "4D"], ["6H", "6S"])
    data = attack(play, ["4C", "4D"])
    assert data["result"] == "blocked" and data["revealed"] == ["6H", "6S"]


def test_two_attack_cards_are_blocked_by_three_defense_cards() -> None:
    """Blocking: no line lets two attack cards beat three defense cards: blocked."""
    play = duel(["9C", "9D"], ["5H", "5S", "5C"])
    data = attack(play, ["9C", "9D"])
    assert data["result"] == "blocked" and data["revealed"] == ["5H", "5S", "5C"]


def test_three_attack_cards_beat_three_defense_cards() -> None:
    """Blocking: "there are three attack cards and three or less defense cards"."""
    play = duel(["2C", "2D", "2H"], ["9H", "9S", "9C"])
    data = attack(play, ["2C", "2D", "2H"])
    assert data["broken"] == ["9H", "9S", "9C"]
    assert resolve(["2C", "2D", "2H"], ["10H", "10S", "4C"], "left", royals_pair=True).broken == ("10H", "10S")


def test_three_attack_cards_against_a_single_also_break_a_single_behind_it() -> None:
    """Blocking: "If there is a single defense card, and the next defense card is a single, it
    beats them both." Given 9H then 7S (then 8C), three Twos break 9H and 7S."""
    play = duel(["2C", "2D", "2H"], ["9H", "7S", "8C"])
    data = attack(play, ["2C", "2D", "2H"])
    assert data["broken"] == ["9H", "7S"]
    assert now(play).hands[1][0] == "8C"


def test_three_attack_cards_capture_a_single_royal_behind_a_single() -> None:
    """Blocking: "If there is a single defense card, and the next defense card is a single, it
    beats them both"; Capturing: "the above rules still apply with royals ... When a royal is
    beat, it is captured." Given 9H then QS (then 8C), three Twos break 9H and capture QS."""
    play = duel(["2C", "2D", "2H"], ["9H", "QS", "8C"])
    data = attack(play, ["2C", "2D", "2H"])
    assert data["broken"] == ["9H", "QS"] and data["captured_by_attacker"] == ["QS"]
    assert data["discarded"] == ["2C", "2D", "2H", "9H"]
    assert now(play).captured == (("QS",), ())


def test_three_attack_cards_against_a_single_stop_at_a_pair_behind_it() -> None:
    """Blocking: "If there is a single defense card, and the next defense card is a single, it
    beats them both": 7S 7C behind 9H is a pair, not a single, so only 9H breaks."""
    play = duel(["2C", "2D", "2H"], ["9H", "7S", "7C"])
    data = attack(play, ["2C", "2D", "2H"])
    assert data["broken"] == ["9H"]


def test_three_attack_cards_against_a_single_at_the_edge_of_a_hand() -> None:
    """Blocking: "If there is a single defense card, and the next defense card is a single, it
    beats them both" (RULINGS: the hand's last card is a single; a lone card has nothing behind)."""
    three = ["2C", "2D", "2H"]
    assert resolve(three, ["9H", "7S"], "left", royals_pair=True).broken == ("9H", "7S")
    assert resolve(three, ["7S", "9H"], "right", royals_pair=True).broken == ("9H", "7S")
    assert resolve(three, ["9H"], "left", royals_pair=True).broken == ("9H",)


def test_three_attack_cards_are_blocked_by_four_defense_cards() -> None:
    """Blocking: three attack cards beat "three or less defense cards", so four block them."""
    play = duel(["2C", "2D", "2H"], ["9H", "9S", "9C", "9D"])
    data = attack(play, ["2C", "2D", "2H"])
    assert data["result"] == "blocked" and data["revealed"] == ["9H", "9S", "9C", "9D"]


def test_four_attack_cards_beat_every_card_up_to_a_royal() -> None:
    """Blocking: "there are four attack cards. It beats all cards up to (but not including) a
    royal." Given 2C 4D 4H 10H KH from the left, four Threes break the first four; KH stays."""
    play = duel(["3C", "3D", "3H", "3S"], ["2C", "4D", "4H", "10H", "KH"])
    data = attack(play, ["3C", "3D", "3H", "3S"])
    assert data["broken"] == ["2C", "4D", "4H", "10H"]
    assert now(play).hands[1][0] == "KH" and now(play).captured[0] == ()


def test_four_attack_cards_are_blocked_by_a_royal_at_the_end() -> None:
    """Blocking: four attack cards beat "all cards up to (but not including) a royal": with a
    royal at the attacked end there is nothing before it, so the attack is blocked (RULINGS)."""
    play = duel(["3C", "3D", "3H", "3S"], ["KH", "4D"])
    data = attack(play, ["3C", "3D", "3H", "3S"])
    assert data["result"] == "blocked" and data["revealed"] == ["KH"]
    assert data["discarded"] == ["3C", "3D", "3H", "3S"]


def test_a_single_card_beats_a_single_royal_and_captures_it() -> None:
    """Capturing: "Royals (Jack, Queen, and King) have a rank of 0. In other words, any single
    attack card can beat a single royal ... When a royal is beat, it is captured." """
    play = duel(["2C"], ["KH"])
    data = attack(play, ["2C"])
    assert data["broken"] == ["KH"] and data["captured_by_attacker"] == ["KH"]
    assert data["discarded"] == ["2C"]
    assert now(play).captured == (("KH",), ())
    assert GAME.view(now(play), None)["captured"] == [["KH"], []]


def test_the_table_still_applies_to_royals() -> None:
    """Capturing: "any single attack card can beat a single royal, but the above rules still
    apply with royals": one card against a pair of Queens is blocked."""
    play = duel(["10C"], ["QH", "QS"])
    data = attack(play, ["10C"])
    assert data["result"] == "blocked" and data["revealed"] == ["QH", "QS"]


def test_royals_used_to_attack_are_captured_by_the_defender() -> None:
    """Capturing: "If royals are used to attack, they are captured by the defending opponent."
    A Queen (rank 0) against a Five is blocked and goes to the defender's captured pile."""
    play = duel(["QC"], ["5D"])
    data = attack(play, ["QC"])
    assert data["result"] == "blocked"
    assert data["captured_by_defender"] == ["QC"] and data["discarded"] == []
    assert now(play).captured == ((), ("QC",))


def test_a_royal_attacking_a_royal_is_captured_while_capturing() -> None:
    """Capturing: rank 0 meets rank 0 ("greater than or equal") and breaks it; "When a royal is
    beat, it is captured. If royals are used to attack, they are captured by the defending
    opponent." """
    play = duel(["JC"], ["QD"])
    data = attack(play, ["JC"])
    assert data["captured_by_attacker"] == ["QD"] and data["captured_by_defender"] == ["JC"]
    assert now(play).captured == (("QD",), ("JC",))


def test_the_right_end_can_be_attacked() -> None:
    """Attacking Phase: "the player physically taps on the left or right side of the
    opponent's hand"; the right-most card (with its equal neighbours) then defends."""
    hands = complete(["8C"], ["2D"], reserve=["3S"])
    hands[1][-1] = "3S"
    assert not hands[1][-2].startswith("3")
    play = fortified(hands, first=0)
    data = attack(play, ["8C"], side="right")
    assert data["broken"] == ["3S"] and now(play).hands[1][-1] != "3S"


def test_an_attack_ends_the_turn() -> None:
    """Attacking Phase: "For his turn, a player attacks (just once per turn) the person on his
    left": after one attack it is the defender's turn."""
    play = duel(["5C", "6C"], ["5D"])
    events = act(play, 0, {"type": "attack", "cards": ["5C"], "side": "left"})
    assert types(events) == ["AttackResolved"]
    assert GAME.to_act(now(play)) == {1}
    with pytest.raises(IllegalAction):
        decide(play, 0, {"type": "attack", "cards": ["6C"], "side": "left"})
