"""One way to validate an action, in every game: ``decide`` accepts exactly what
``legal_actions`` lists, and refuses anything else before its move runs, with the reason
the game gives (by default the move's own, when its checks find what is wrong)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from games import registry
from games.base import IllegalAction
from games.play import new_game
from tests.tinygame import TinyGame

KINDS = [key for key in registry.keys() if key != "tiny"]


class Lenient(TinyGame):
    """The tiny game with moves that would accept more than it lists."""

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        return [{"type": "add", "amount": 1}] if seat in self.to_act(state) else []

    def move(self, state: Any, seat: int, kind: str) -> Any:
        added = super().move(state, seat, kind)

        def checked(state: Any, seat: int, action: Mapping[str, Any], rng: random.Random) -> Any:
            if action.get("amount") not in (1, 2):
                raise IllegalAction("Add 1 or 2.")
            return added(state, seat, action, rng)

        return checked

    def refusal(self, state: Any, seat: int, action: Any) -> str:
        return super(TinyGame, self).refusal(state, seat, action)  # the kit's own


def test_an_action_the_move_would_take_but_the_game_does_not_list_is_refused() -> None:
    game = Lenient()
    rng = random.Random(1)
    state = game.fold(None, game.setup({"start": 0}, 2, rng))
    with pytest.raises(IllegalAction) as refused:
        game.decide(state, 0, {"type": "add", "amount": 2}, rng)
    assert refused.value.reason == game.unlisted_reason
    with pytest.raises(IllegalAction) as named:
        game.decide(state, 0, {"type": "add", "amount": 3}, rng)
    assert named.value.reason == "Add 1 or 2.", "the move's own reason, when it has one"
    with pytest.raises(IllegalAction) as malformed:
        game.decide(state, 0, ["add"], rng)
    assert malformed.value.reason == game.malformed_reason
    assert game.decide(state, 0, {"type": "add", "amount": 1}, rng)


@pytest.mark.parametrize("kind", KINDS)
def test_every_game_refuses_a_listed_action_with_a_field_added_or_changed_and_says_why(kind: str) -> None:
    game = registry.get(kind)
    assert game is not None
    rng = random.Random(kind)
    play = new_game(game, game.min_players, None, rng)
    for _ in range(60):
        state = play.state
        if game.outcome(state) is not None:
            break
        seat = sorted(game.to_act(state))[0]
        legal = game.legal_actions(state, seat)
        action = rng.choice(legal)
        for wrong in ({**action, "extra": 1}, {**action, "type": action["type"] + "_not"}):
            if wrong in legal:
                continue
            with pytest.raises(IllegalAction) as refused:
                game.decide(state, seat, wrong, rng)
            assert refused.value.reason.strip(), f"{kind}: a refusal with no reason"
        events = game.decide(state, seat, action, rng)
        play.state = game.fold(state, events)
