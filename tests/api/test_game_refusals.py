"""A game's own refusal reaches the client as the game gave it: a code of the platform's
set as that code (with its HTTP status), any other code as ``illegal_action`` naming the
game's rule, always with the game's own sentence; and nothing is appended."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from games.base import IllegalAction
from tests.api.conftest import bearer, new_tiny
from tests.tinygame import GAME as TINY


@pytest.mark.parametrize(
    ("code", "status", "shown", "rule"),
    [
        ("not_your_turn", 403, "not_your_turn", None),
        ("game_over", 409, "game_over", None),
        ("must_draw_first", 422, "illegal_action", "must_draw_first"),
        ("illegal_action", 422, "illegal_action", None),
    ],
)
def test_the_games_code_and_sentence_reach_the_client(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, code: str, status: int, shown: str, rule: str | None
) -> None:
    game = new_tiny(client)
    sentence = f"The game says no ({code})."

    def refuse(state: Any, seat: int, action: Any, rng: Any) -> Any:
        raise IllegalAction(sentence, code=code)

    monkeypatch.setattr(TINY, "decision", refuse)
    url = f"/v1/games/{game['id']}"
    before = client.get(url).get_json()["version"]
    answer = client.post(
        f"{url}/actions",
        json={"action": {"type": "add", "amount": 1}, "expected_version": before},
        headers=bearer(game["seats"][0]["token"]),
    )
    body = answer.get_json()
    assert answer.status_code == status and body["status"] == status, body
    assert body["code"] == shown and body["detail"] == sentence
    assert body.get("rule") == rule
    assert client.get(url).get_json()["version"] == before, "a refusal appends nothing"
