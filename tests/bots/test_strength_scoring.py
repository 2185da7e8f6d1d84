"""How ``bench.bots`` scores a game for the challenger: its pairwise finishes
against every opponent seat, averaged, so that even play scores one half at any table
size; and when a pairing has played enough games."""

from __future__ import annotations

from bench.bots import Result, finish_share, settled


def test_two_seats_score_a_win_a_loss_and_a_shared_win() -> None:
    assert finish_share({"winners": [0], "scores": [21, 9]}, 0, 2) == 1.0
    assert finish_share({"winners": [1], "scores": [21, 9]}, 0, 2) == 0.0
    assert finish_share({"winners": [0, 1], "scores": [21, 21]}, 1, 2) == 0.5


def test_three_seats_count_each_opponent_the_challenger_finished_above() -> None:
    # Seat 2 won; seat 0 scored more than seat 1: above one opponent of two.
    result = {"winners": [2], "scores": [30, 12, 41]}
    assert finish_share(result, 2, 3) == 1.0
    assert finish_share(result, 0, 3) == 0.5
    assert finish_share(result, 1, 3) == 0.0
    # Level with one opponent, above the other.
    assert finish_share({"winners": [0, 1], "scores": [20, 20, 5]}, 0, 3) == 0.75


def test_a_pairing_is_settled_once_its_interval_is_within_five_points() -> None:
    def wins(count: int) -> list[Result]:
        return [Result(index, 1.0, True) for index in range(count)]

    assert not settled(wins(20)), "a 95% interval of 20 wins is wider than +/-5 points"
    assert settled(wins(40))
    even = [Result(index, index % 2, True) for index in range(200)]
    assert not settled(even), "at one half, +/-5 points takes about 385 games"
