"""``GET /v1/kinds`` lists every option of every kind with its type, default and meaning
(``rules`` included), derived from the options each kind declares: every listed option is
accepted by a create, with the type listed, and a name not listed is refused."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from games import registry

KINDS = [key for key in registry.keys() if key != "tiny"]
WRONG_TYPE: dict[str, Any] = {"integer": "three", "string": 3, "boolean": "yes", "array": "x", "object": "x"}


def listed(client: FlaskClient) -> dict[str, dict[str, Any]]:
    answer = client.get("/v1/kinds")
    assert answer.status_code == 200
    return {kind["key"]: kind for kind in answer.get_json()["kinds"]}


def create(client: FlaskClient, kind: dict[str, Any], options: dict[str, Any]) -> Any:
    players = [{"name": f"p{seat}"} for seat in range(kind["min_players"])]
    return client.post("/v1/games", json={"kind": kind["key"], "players": players, "options": options})


@pytest.mark.parametrize("key", KINDS)
def test_each_kind_lists_every_option_it_accepts_with_its_type_default_and_meaning(
    client: FlaskClient, key: str
) -> None:
    kind = listed(client)[key]
    game = registry.get(key)
    assert game is not None
    names = [option["name"] for option in kind["options"]]
    assert names == [option.name for option in game.options] + ["rules"]
    for option in kind["options"]:
        assert option["type"] in WRONG_TYPE and "default" in option
        assert option["description"].strip() and "\n" not in option["description"], option["name"]
    rules = kind["options"][-1]
    assert rules == {
        "name": "rules",
        "type": "integer",
        "default": kind["rules_revision"],
        "description": "The rules revision the game is played under, from 1 to the newest (the default).",
        "minimum": 1,
        "maximum": kind["rules_revision"],
    }
    accepted = game.validate_options(
        {option["name"]: option["default"] for option in kind["options"]}, game.min_players
    )
    assert set(accepted) | {"rules"} == set(names), "the options a game is created with are the listed ones"


@pytest.mark.parametrize("key", KINDS)
def test_every_listed_option_is_accepted_with_its_listed_type_and_no_other_name_is(
    client: FlaskClient, key: str
) -> None:
    kind = listed(client)[key]
    for option in kind["options"]:
        name = option["name"]
        given = create(client, kind, {name: option["default"]})
        assert given.status_code == 201, (name, given.get_json())
        wrong = create(client, kind, {name: WRONG_TYPE[option["type"]]})
        assert wrong.status_code == 422 and wrong.get_json()["code"] == "invalid_options"
        assert any(f"'{name}'" in problem for problem in wrong.get_json()["problems"]), wrong.get_json()
    unlisted = create(client, kind, {"not_an_option": True})
    assert unlisted.status_code == 422
    assert unlisted.get_json()["problems"] == ["unknown option 'not_an_option'"]
