"""The contract's typed views are the games' own: openapi.yaml's View_<kind> schemas are
what ``python -m service.spec_gen`` reads from seeded games (test_spec_actions checks the
file is up to date), and the views of other games, never sampled, fit them: every seat's
and a spectator's at every move, the final views, and a view as the API serves it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from flask.testing import FlaskClient

from games.registry import all_games
from service import yamltext
from service.spec_gen import SPEC, sampled_views

PACKAGED = sorted(key for key, game in all_games().items() if type(game).__module__.startswith("games."))


def view_schema(kind: str) -> Any:
    schemas = yamltext.load(Path(SPEC).read_text())["components"]["schemas"]
    return jsonschema_rs.Draft202012Validator(schemas["View_" + kind.replace("-", "_")])


@pytest.mark.parametrize("kind", PACKAGED)
def test_views_of_games_never_sampled_fit_their_kinds_schema(kind: str) -> None:
    validator = view_schema(kind)
    game = all_games()[kind]
    checked = 0
    for view in sampled_views(game, seeds=range(100, 103)):
        errors = [f"{list(e.instance_path)}: {e.message}" for e in validator.iter_errors({"kind": kind, **view})]
        assert errors == [], f"{kind}: a view does not fit View_{kind}: {errors[:5]}"
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("kind", PACKAGED)
def test_a_view_served_carries_its_kind_and_fits(client: FlaskClient, kind: str) -> None:
    game = all_games()[kind]
    players = [{"name": f"p{i}"} for i in range(game.min_players)]
    created = client.post("/v1/games", json={"kind": kind, "players": players, "seed": "typed-views"}).get_json()
    token = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    validator = view_schema(kind)
    rng = random.Random(kind)
    for _ in range(5):
        for headers in (token, {}):
            view = client.get(f"/v1/games/{created['id']}", headers=headers).get_json()["view"]
            assert view["kind"] == kind
            assert [e.message for e in validator.iter_errors(view)] == []
        seat = client.get(f"/v1/games/{created['id']}").get_json()["to_act"][0]
        mover = {"Authorization": f"Bearer {created['seats'][seat]['token']}"}
        state = client.get(f"/v1/games/{created['id']}", headers=mover).get_json()
        client.post(
            f"/v1/games/{created['id']}/actions",
            json={"action": rng.choice(state["legal_actions"]), "expected_version": state["version"]},
            headers=mover,
        )
