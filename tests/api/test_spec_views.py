"""The contract's typed views are the games' own: openapi.yaml's View_<kind> schemas are
what each kind's view module writes beside its ``view`` (test_spec_actions checks the file
is up to date; tests/games/contract.py checks the views of thousands of random games, every
seat's and a spectator's, and the final views, against them). Here: ``View`` tells the kinds
apart by ``kind`` alone, with nothing left untyped, and a view as the API serves it fits."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from flask.testing import FlaskClient

from games.play import new_game
from games.registry import all_games
from service import yamltext
from service.spec_gen import SPEC

PACKAGED = sorted(key for key, game in all_games().items() if type(game).__module__.startswith("games."))


def schemas() -> dict[str, Any]:
    loaded: dict[str, Any] = yamltext.load(Path(SPEC).read_text())["components"]["schemas"]
    return loaded


def validator(name: str) -> Any:
    return jsonschema_rs.Draft202012Validator(
        {"$ref": f"#/components/schemas/{name}", "components": {"schemas": schemas()}}
    )


def test_view_is_told_apart_by_kind_with_no_catch_all() -> None:
    view = schemas()["View"]
    names = ["View_" + key.replace("-", "_") for key in PACKAGED]
    assert view["discriminator"]["propertyName"] == "kind"
    mapping = {key: f"#/components/schemas/{name}" for key, name in zip(PACKAGED, names, strict=True)}
    assert view["discriminator"]["mapping"] == mapping
    assert view["oneOf"] == [{"$ref": f"#/components/schemas/{n}"} for n in names]
    for key, name in zip(PACKAGED, names, strict=True):
        assert schemas()[name]["properties"]["kind"] == {"type": "string", "enum": [key]}
        assert schemas()[name]["additionalProperties"] is False


def test_a_view_of_one_kind_fits_no_other_kind() -> None:
    game = all_games()["fortress-royals"]
    play = new_game(game, 2, None, random.Random(3))
    view = {"kind": "fortress-royals", **game.view(play.state, 0)}
    assert [e.message for e in validator("View").iter_errors(view)] == []
    for other in PACKAGED:
        if other != "fortress-royals":
            assert not validator("View").is_valid({**view, "kind": other}), f"a royals view passes as {other}"


@pytest.mark.parametrize("kind", PACKAGED)
def test_a_view_served_carries_its_kind_and_fits(client: FlaskClient, kind: str) -> None:
    game = all_games()[kind]
    players = [{"name": f"p{i}"} for i in range(game.min_players)]
    created = client.post("/v1/games", json={"kind": kind, "players": players, "seed": "typed-views"}).get_json()
    token = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    fits = validator("View")
    rng = random.Random(kind)
    for _ in range(5):
        for headers in (token, {}):
            view = client.get(f"/v1/games/{created['id']}", headers=headers).get_json()["view"]
            assert view["kind"] == kind
            assert [e.message for e in fits.iter_errors(view)] == []
        seat = client.get(f"/v1/games/{created['id']}").get_json()["to_act"][0]
        mover = {"Authorization": f"Bearer {created['seats'][seat]['token']}"}
        state = client.get(f"/v1/games/{created['id']}", headers=mover).get_json()
        client.post(
            f"/v1/games/{created['id']}/actions",
            json={"action": rng.choice(state["legal_actions"]), "expected_version": state["version"]},
            headers=mover,
        )
