"""The contract's typed actions are the games' own: openapi.yaml's Action_<kind> schemas are
what ``python -m service.spec_gen`` writes from each game's ``action_schemas()``, and every
legal action a game offers in random play fits its kind's schema."""

from __future__ import annotations

import random
from pathlib import Path

import jsonschema_rs
import pytest

from games.play import new_game, step
from games.registry import all_games
from service import yamltext
from service.spec_gen import SPEC, rendered

PACKAGED = sorted(key for key, game in all_games().items() if type(game).__module__.startswith("games."))


def components() -> dict[str, dict[str, object]]:
    return dict(yamltext.load(Path(SPEC).read_text())["components"]["schemas"])


def test_the_typed_actions_are_what_the_games_define() -> None:
    text = SPEC.read_text()
    assert text == rendered(text), "openapi.yaml's typed actions are out of date: run python -m service.spec_gen"


@pytest.mark.parametrize("kind", PACKAGED)
def test_every_legal_action_in_play_fits_its_kinds_schema(kind: str) -> None:
    schemas = components()
    name = "Action_" + kind.replace("-", "_")
    mapping = schemas[name]["discriminator"]["mapping"]  # type: ignore[index]
    game = all_games()[kind]
    seen: set[str] = set()
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(3):
            rng = random.Random(seed)
            play = new_game(game, players, None, rng)
            for _ in range(2_000):
                if game.outcome(play.state) is not None:
                    break
                for seat in sorted(game.to_act(play.state)):
                    for action in game.legal_actions(play.state, seat):
                        assert action["type"] in mapping, f"{kind}: no schema for {action}"
                        schema = schemas[mapping[action["type"]].rsplit("/", 1)[1]]
                        errors = [e.message for e in jsonschema_rs.Draft202012Validator(schema).iter_errors(action)]
                        assert errors == [], f"{kind}: {action} does not fit: {errors}"
                        seen.add(action["type"])
                seat = rng.choice(sorted(game.to_act(play.state)))
                step(game, play, seat, rng.choice(game.legal_actions(play.state, seat)), rng)
    assert seen, f"{kind}: no legal action was offered"
