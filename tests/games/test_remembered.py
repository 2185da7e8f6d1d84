"""``legal_actions`` keeps its last answer (``games.base.remembered``): the same answer as the
rules give, for the state and seat asked, whatever a caller did to a list it was given."""

from __future__ import annotations

import random

from games.base import remembered
from games.dragoborne import GAME
from games.play import new_game, step


def test_a_kept_answer_is_the_rules_answer_for_that_state_and_seat_only() -> None:
    calls: list[tuple[object, int]] = []

    def rules(state: object, seat: int) -> list[dict[str, object]]:
        calls.append((state, seat))
        return [{"type": "pass", "seat": seat}]

    listed = remembered(rules)
    first, second = object(), object()
    given = listed(first, 0)
    given.append({"type": "spoiled"})  # a caller's own list: the kept answer is unchanged
    assert listed(first, 0) == [{"type": "pass", "seat": 0}]
    assert listed(first, 1) == [{"type": "pass", "seat": 1}]
    assert listed(second, 1) == [{"type": "pass", "seat": 1}]
    assert listed(second, 1) == [{"type": "pass", "seat": 1}]
    assert calls == [(first, 0), (first, 1), (second, 1)], "asked again for the same state and seat only"


def test_a_game_s_kept_answer_follows_its_states_through_a_whole_game() -> None:
    rng = random.Random(7)
    play = new_game(GAME, 2, None, rng)
    while GAME.outcome(play.state) is None:
        seat = sorted(GAME.to_act(play.state))[0]
        listed = GAME.legal_actions(play.state, seat)
        assert listed == GAME.legal_actions.__wrapped__(play.state, seat)
        step(GAME, play, seat, rng.choice(listed), rng)
