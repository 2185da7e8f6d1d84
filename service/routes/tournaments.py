"""Tournaments over HTTP (``core.tournaments``): create one, register and withdraw, start
it (a worker pairs each round), and read it: its rounds, their games, and the standings."""

from __future__ import annotations

import json
import time
from typing import Any

from flask import Blueprint, Response
from marshmallow import fields, validate

from core.errors import Code, CommandError
from core.tournaments import (
    FORMATS,
    MAX_MINUTES,
    MAX_ROUNDS,
    MAX_SEATS,
    Tournament,
    created,
    fold,
    new_id,
    outcome_reader,
    pod_of,
    standings,
    starting,
)
from games import registry
from service import schemas
from service.http import body, platform, signed_in
from service.routes.games import int_arg

bp = Blueprint("tournaments", __name__)

APPEND_TRIES = 20


class TournamentIn(schemas.Strict):
    kind = fields.String(required=True, validate=validate.Length(min=1, max=64))
    format = fields.String(load_default="swiss", validate=validate.OneOf(FORMATS))
    rounds = fields.Integer(strict=True, load_default=None, validate=validate.Range(1, MAX_ROUNDS))
    minutes = fields.Integer(strict=True, load_default=None, validate=validate.Range(1, MAX_MINUTES))
    seats = fields.Integer(strict=True, required=True, validate=validate.Range(2, MAX_SEATS))
    clock = fields.Nested(schemas.ClockIn, load_default=None, allow_none=True)
    fill = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(("random", "greedy", "ismcts")))


def _json(payload: Any, status: int = 200) -> Response:
    return Response(json.dumps(payload), status=status, mimetype="application/json")


def _load(tournament_id: str) -> Tournament:
    t = fold(tournament_id, platform().tournaments.read(tournament_id))
    if t is None:
        raise CommandError(Code.NOT_FOUND, f"There is no tournament {tournament_id}.")
    return t


def _append(tournament_id: str, make: Any) -> Tournament:
    """Append what ``make(tournament)`` returns at the log's length, again if another
    append came first (``make`` checks the tournament anew each time)."""
    for _ in range(APPEND_TRIES):
        t = _load(tournament_id)
        if platform().tournaments.append(tournament_id, t.length, [make(t)]):
            return _load(tournament_id)
    raise CommandError(Code.UNAVAILABLE, "The tournament is busy; try again shortly.")


def shown(t: Tournament) -> dict[str, Any]:
    outcome_of = outcome_reader(platform().handler.load)
    names = {e.id: e.name for e in t.entrants}
    pairings = [
        {
            "round": paired["round"],
            "tables": [
                {"game": table["game"], "entrants": [names[one] for one in table["entrants"]]}
                for table in paired["tables"]
            ],
            "byes": [names[one] for one in paired["byes"]],
        }
        for paired in t.paired
    ]
    table = standings(t, outcome_of) if t.entrants else []
    return {**t.as_json(), "pairings": pairings, "standings": table}


@bp.post("/v1/tournaments")
def create() -> Response:
    creator = signed_in()
    data = body(schemas.one(TournamentIn))
    game = registry.get(data["kind"])
    if game is None:
        raise CommandError(Code.UNKNOWN_KIND, f"There is no kind '{data['kind']}'.")
    if data["seats"] < pod_of(data["kind"]):
        raise CommandError(Code.INVALID_REQUEST, f"{data['kind']} needs at least {pod_of(data['kind'])} seats.")
    if (data["format"] == "swiss") != (data["rounds"] is not None) or (data["format"] == "arena") != (
        data["minutes"] is not None
    ):
        raise CommandError(Code.INVALID_REQUEST, "A swiss tournament has rounds; an arena has minutes, and no rounds.")
    tournament_id = new_id()
    event = created(
        data["kind"],
        data["rounds"] or 0,
        data["seats"],
        creator,
        data["clock"],
        data["fill"],
        format=data["format"],
        minutes=data["minutes"],
    )
    platform().tournaments.append(tournament_id, 0, [event])
    return _json(shown(_load(tournament_id)), 201)


@bp.get("/v1/tournaments")
def listed() -> Response:
    offset, limit = int_arg("offset", 0, 0, 10**9), int_arg("limit", 50, 1, 200)
    total, ids = platform().tournaments.ids(offset, limit)
    found = [fold(i, platform().tournaments.read(i)) for i in ids]
    return _json({"tournaments": [t.as_json() for t in found if t], "total": total, "offset": offset, "limit": limit})


@bp.get("/v1/tournaments/<tournament_id>")
def read(tournament_id: str) -> Response:
    return _json(shown(_load(tournament_id)))


@bp.post("/v1/tournaments/<tournament_id>/entries")
def register(tournament_id: str) -> Response:
    """The caller's player enters, before the start, while seats are left."""
    player = signed_in()

    def entry(t: Tournament) -> dict[str, Any]:
        if t.status != "registering":
            raise CommandError(Code.GAME_IN_PLAY, "The tournament has started: entries are closed.")
        if player["id"] in t.registered:
            raise CommandError(Code.ALREADY_SEATED, "You are entered already.")
        if len(t.registered) >= t.seats:
            raise CommandError(Code.SEAT_TAKEN, f"All {t.seats} seats are taken.")
        rating = platform().redis.hget(platform().ratings.key("current", t.kind), player["id"])
        value = json.loads(rating)["rating"] if rating else 1500.0
        return {"type": "Registered", "player": player["id"], "name": player["name"], "rating": value}

    return _json(shown(_append(tournament_id, entry)))


@bp.delete("/v1/tournaments/<tournament_id>/entries/me")
def withdraw(tournament_id: str) -> Response:
    player = signed_in()

    def leave(t: Tournament) -> dict[str, Any]:
        if t.status != "registering":
            raise CommandError(Code.GAME_IN_PLAY, "The tournament has started: withdraw by resigning your games.")
        if player["id"] not in t.registered:
            raise CommandError(Code.NOT_FOUND, "You are not entered.")
        return {"type": "Withdrawn", "player": player["id"]}

    _append(tournament_id, leave)
    return Response(status=204)


@bp.post("/v1/tournaments/<tournament_id>/start")
def start(tournament_id: str) -> Response:
    """The creator starts it: bots fill the seats left (with ``fill``), and a worker pairs
    the first round."""
    player = signed_in()
    t = _load(tournament_id)
    if t.creator != player["id"]:
        raise CommandError(Code.FORBIDDEN, "Only the tournament's creator starts it.")
    started_ms = int(time.time() * 1000)
    started = _append(tournament_id, lambda now: starting(now, pod_of(now.kind), started_ms))
    platform().tournament_runner.schedule(tournament_id)
    return _json(shown(started), 202)
