"""``GET /v1/games/{id}/export``: a finished game's NDJSON export is anyone's, and is the
operator's export to the byte; a game in play exports the caller's view. Each verifies as
docs/verification.md says, and holds nothing the same caller's replay does not: a seat's
export is its replay's events with their openings, a spectator's has no opening, and
neither carries the seed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from core.tooling import export_lines
from service import verifier
from stores.platform import Platform
from tests.verify.conftest import KINDS, Case, Games, bearer, js_verdicts, python_verdict, replay_of


def exported(client: FlaskClient, game_id: str, token: str | None = None) -> tuple[Any, list[str]]:
    response = client.get(f"/v1/games/{game_id}/export", headers=bearer(token) if token else {})
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/x-ndjson"
    assert response.headers["Content-Disposition"] == f'attachment; filename="{game_id}.ndjson"'
    return response, response.get_data(as_text=True).splitlines()


@pytest.mark.parametrize("kind", KINDS)
def test_a_finished_game_s_export_is_public_and_the_operator_s_to_the_byte(
    kind: str, client: FlaskClient, platform: Platform, games: Games
) -> None:
    game_id = games.finished(kind)["id"]
    response, lines = exported(client, game_id)  # no token
    assert lines == list(export_lines(platform, game_id))
    header = json.loads(lines[0])
    assert "seed" not in header, "a finished game's seed is in its last event, not in a header"
    verdict = python_verdict(Case("\n".join(lines)))
    assert verdict["ok"] and verdict["over"], verdict
    assert verdict["commitments"] > 0 and verdict["draws"] > 0
    # Kept by caches for good only once the ledger holds it: it never changes after that.
    immutable = "immutable" in response.headers["Cache-Control"]
    assert immutable == (header["ledger"] is not None)
    assert [json.loads(line) for line in lines[1:]] == replay_of(client, game_id)["events"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("viewer", ["seat", "spectator"])
def test_a_game_in_play_exports_the_caller_s_view_and_no_more(
    kind: str, viewer: str, client: FlaskClient, games: Games, tmp_path: Path
) -> None:
    playing = games.in_play(kind)
    token = playing.token if viewer == "seat" else None
    response, lines = exported(client, playing.game_id, token)
    assert response.headers["Cache-Control"] == "private, no-store"
    header = json.loads(lines[0])
    assert "seed" not in header and header["status"] == "active"
    assert header["view"] == {"seat": 0 if viewer == "seat" else None}
    events = [json.loads(line) for line in lines[1:]]
    # Exactly the events the same caller's replay holds: nothing a seat may not see.
    assert events == replay_of(client, playing.game_id, token)["events"]
    assert header["versions"] == len(events) and header["head"]["hash"] == events[-1]["hash"]
    assert any("openings" in e for e in events) == (viewer == "seat")
    text = "\n".join(lines)
    verdict = python_verdict(Case(text))
    assert verdict["ok"] and not verdict["over"], verdict
    assert verdict["commitments"] == 0 and verdict["draws"] == 0, "no seed: no hidden value of another seat opens"
    assert js_verdicts([Case(text)], tmp_path) == [verdict]


def test_a_changed_event_in_an_export_in_play_fails_at_its_version(client: FlaskClient, games: Games) -> None:
    playing = games.in_play("fortress-royals")
    _, lines = exported(client, playing.game_id, playing.token)
    event = json.loads(lines[2])
    event["at"] = event["at"].replace("T", "T0", 1)
    lines[2] = json.dumps(event)
    verdict = verifier.verify(verifier.parse_record("\n".join(lines)))
    assert not verdict.ok and verdict.first_bad_version == event["version"]


def test_an_unknown_game_s_export_is_a_problem(client: FlaskClient) -> None:
    response = client.get("/v1/games/no-such-game/export")
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json" and response.get_json()["code"] == "not_found"
