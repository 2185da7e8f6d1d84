"""Time travel and tooling: views at past versions, replays, audits and their jobs,
undo with consent, and forks."""

from __future__ import annotations

import base64
import hmac
import json
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response
from marshmallow import RAISE, Schema, fields, validate

from core import tooling
from core.analysis import finished_only
from core.errors import Code, CommandError
from core.vault import token_hash
from service.http import bearer, body, caller_player, caller_seat, platform, with_me
from service.routes.games import game_body, int_arg
from service.routes.meta import operator_token
from service.schemas import MAX_VERSION, PlayerIn

bp = Blueprint("history", __name__)


class UndoIn(Schema):
    class Meta:
        unknown = RAISE

    to_version = fields.Integer(strict=True, required=True, validate=validate.Range(1, MAX_VERSION))


class ForkIn(Schema):
    class Meta:
        unknown = RAISE

    at_version = fields.Integer(strict=True, required=True, validate=validate.Range(1, MAX_VERSION))
    players = fields.List(fields.Nested(PlayerIn), load_default=None, validate=validate.Length(min=1, max=16))


def _json(payload: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(json.dumps(payload), status=status, mimetype="application/json", headers=headers)


def _seat_required(game_id: str) -> int:
    seat = caller_seat(game_id)
    if seat is None:
        if caller_player() is not None:
            raise CommandError(Code.NOT_YOUR_SEAT, "Your player holds no seat in this game.")
        raise CommandError(Code.UNAUTHORIZED, "Send a seat token: spectators cannot do this.")
    return seat


@bp.get("/v1/games/<game_id>/history/<int:version>")
def history(game_id: str, version: int) -> Response:
    seat = caller_seat(game_id)
    return _json(tooling.history(platform(), game_id, version, seat))


@bp.get("/v1/games/<game_id>/replay")
def replay(game_id: str) -> Response:
    seat = caller_seat(game_id)
    return _json(tooling.replay(platform(), game_id, seat))


@bp.get("/v1/games/<game_id>/export")
def export(game_id: str) -> Response:
    """The game's log as NDJSON (``core.tooling.shared_export``): a finished game's whole,
    for anyone, kept by caches for good once the ledger holds it (it never changes again);
    a game in play as the caller sees it. Read whole before the first byte is sent: an error
    is a problem, never a cut file."""
    seat = caller_seat(game_id)
    settled, lines = tooling.shared_export(platform(), game_id, seat)
    headers = {
        "Content-Disposition": f'attachment; filename="{game_id}.ndjson"',
        "Cache-Control": "public, max-age=31536000, immutable" if settled else "private, no-store",
        "Vary": "Authorization",
    }
    return Response("".join(line + "\n" for line in lines), mimetype="application/x-ndjson", headers=headers)


@bp.get("/v1/ledger")
def ledger() -> Response:
    """The public ledger of finished games, paged by index."""
    after = int_arg("after", 0, 0, 2**53)
    limit = int_arg("limit", 100, 1, 1000)
    entries = platform().ledger.page(after, limit)
    last = platform().ledger.last()
    return _json(
        {
            "entries": entries,
            "next_after": entries[-1]["index"] if entries else after,
            "head": None if last is None else {"index": last["index"], "entry_hash": last["entry_hash"]},
        }
    )


@bp.get("/v1/ledger/checkpoint")
def checkpoint() -> Response:
    """The ledger's latest checkpoint (or the one of ``size`` entries), signed (a C2SP
    signed note), with the witnesses' cosignatures kept for it."""
    ledger = platform().ledger
    latest = ledger.size()
    size = int_arg("size", latest, 0, 2**53)
    if size > latest:
        raise CommandError(Code.NOT_FOUND, f"The ledger has {latest} entries.")
    return Response(ledger.checkpoint(size), mimetype="text/plain", headers={"Cache-Control": "no-cache"})


class CosignatureIn(Schema):
    class Meta:
        unknown = RAISE

    checkpoint = fields.String(required=True, validate=validate.Length(1, 4096))


@bp.post("/v1/ledger/cosignatures")
def cosign() -> Response:
    """A witness's cosignature of one of the ledger's checkpoints: kept and served with it
    when it is one of the configured witnesses' and verifies."""
    ledger = platform().ledger
    note = body(CosignatureIn())["checkpoint"]
    if not ledger.witnesses:
        raise CommandError(Code.FORBIDDEN, "This service keeps no witness's cosignatures (none is configured).")
    try:
        valid, new = ledger.cosign(note)
    except ValueError as error:
        raise CommandError(Code.INVALID_REQUEST, f"{error}.") from None
    if not valid:
        raise CommandError(Code.INVALID_REQUEST, "No line is a valid cosignature of a witness this service keeps.")
    return _json({"kept": new, "checkpoint": ledger.checkpoint(int(note.split("\n")[1]))}, 201 if new else 200)


@bp.get("/v1/ledger/key")
def log_key() -> Response:
    """The key every checkpoint is signed with."""
    signer = platform().ledger.signer()
    return _json(
        {
            "origin": signer.name,
            "algorithm": "Ed25519",
            "public_key": base64.b64encode(signer.public_key).decode(),
            "verifier_key": signer.vkey,
        }
    )


@bp.get("/v1/ledger/games/<game_id>")
def ledger_entry(game_id: str) -> Response:
    """A finished game's ledger entry and its inclusion in the latest checkpoint."""
    ledger = platform().ledger
    entry = ledger.of(game_id)
    if entry is None:
        raise CommandError(Code.NOT_FOUND, f"Game '{game_id}' is not on the ledger: only finished games are.")
    return _json({"entry": entry, "ledger_proof": ledger.proof_of(entry)})


@bp.get("/v1/ledger/proofs/inclusion")
def inclusion() -> Response:
    """Entry ``index``'s audit path in the tree of ``size`` entries (the latest by default)."""
    ledger = platform().ledger
    latest = ledger.size()
    index = int_arg("index", 1, 1, 2**53)
    size = int_arg("size", latest, 1, 2**53)
    if size > latest or index > size:
        raise CommandError(
            Code.NOT_FOUND, f"The ledger has {latest} entries: ask for an entry and a size no larger than that."
        )
    return _json({"index": index, "tree_size": size, "hashes": ledger.inclusion(index, size)})


@bp.get("/v1/ledger/proofs/consistency")
def consistency() -> Response:
    """That the tree of ``to`` entries (the latest by default) extends the tree of ``from``."""
    ledger = platform().ledger
    latest = ledger.size()
    first = int_arg("from", 1, 1, 2**53)
    second = int_arg("to", latest, 1, 2**53)
    if second > latest or first > second:
        raise CommandError(Code.NOT_FOUND, f"The ledger has {latest} entries: ask for 1 <= from <= to <= {latest}.")
    return _json({"from": first, "to": second, "hashes": ledger.consistency(first, second)})


@bp.post("/v1/games/<game_id>/replays")
def start_replay(game_id: str) -> Response:
    seat = caller_seat(game_id)
    platform().handler.load(game_id)
    job = platform().jobs.enqueue("replay", game_id, seat, owner=_owner(seat))
    return _json(platform().jobs.status(job), 202, {"Location": f"/v1/jobs/{job}"})


@bp.post("/v1/games/<game_id>/analyses")
def start_analysis(game_id: str) -> Response:
    """A worker analyses the finished game (``core.analysis``); anyone may ask and read it."""
    finished_only(platform().handler.load(game_id))
    job = platform().jobs.enqueue("analysis", game_id, owner=None)
    return _json(platform().jobs.status(job), 202, {"Location": f"/v1/jobs/{job}"})


@bp.get("/v1/games/<game_id>/analysis")
def analysis(game_id: str) -> Response:
    """The game's analysis, once a worker made it (404 until then)."""
    platform().handler.load(game_id)
    found = platform().analyses.get(game_id)
    if found is None:
        raise CommandError(Code.NOT_FOUND, f"Game {game_id} has not been analysed: POST /v1/games/{game_id}/analyses.")
    return _json(found)


@bp.post("/v1/games/<game_id>/audits")
def start_audit(game_id: str) -> Response:
    seat = caller_seat(game_id)
    platform().handler.load(game_id)
    job = platform().jobs.enqueue("audit", game_id, owner=_owner(seat))
    return _json(platform().jobs.status(job), 202, {"Location": f"/v1/jobs/{job}"})


def _owner(seat: int | None) -> str | None:
    """Who may read a job: the seat token that started it; anyone, for a job a spectator
    started (it holds only what a spectator may see)."""
    token = bearer()
    return None if seat is None or token is None else token_hash(token)


@bp.post("/v1/projections/rebuilds")
def start_rebuild() -> Response:
    """Rebuild every read model from the logs, as a job: maintenance, for the operator only."""
    token = operator_token("Rebuilding the read models")
    job = platform().jobs.enqueue("rebuild", owner=token_hash(token))
    return _json(platform().jobs.status(job), 202, {"Location": f"/v1/jobs/{job}"})


def _readable_job(job_id: str) -> None:
    """A job started with a token is the token's: anyone else is told there is no such job."""
    owner = platform().jobs.owner(job_id)
    token = bearer()
    if owner is None or (owner and (token is None or not hmac.compare_digest(token_hash(token), owner))):
        raise CommandError(
            Code.NOT_FOUND,
            f"There is no job '{job_id}' for this caller: a job started with a token is visible only with "
            "that token, and results are kept for a day.",
        )


@bp.get("/v1/jobs/<job_id>")
def job_status(job_id: str) -> Response:
    _readable_job(job_id)
    found = platform().jobs.status(job_id)
    if found is None:
        raise CommandError(Code.NOT_FOUND, f"There is no job '{job_id}' (results are kept for a day).")
    return _json(found)


@bp.get("/v1/jobs/<job_id>/result")
def job_result(job_id: str) -> Response:
    _readable_job(job_id)
    found = platform().jobs.result(job_id)
    if found is None:
        raise CommandError(Code.NOT_FOUND, f"Job '{job_id}' has no result (yet).")
    media_type, text = found
    return Response(text, mimetype=media_type)


@bp.post("/v1/games/<game_id>/undo-requests")
def request_undo(game_id: str) -> Response:
    seat = _seat_required(game_id)
    data = body(UndoIn())
    acted = platform().handler.request_undo(
        game_id, seat, data["to_version"], datetime.now(UTC), platform().config.undo_seconds
    )
    return _json(_undo_body(acted.table, seat), 201)


@bp.post("/v1/games/<game_id>/undo-requests/<request_id>/<any(accept, decline):answer>")
def answer_undo(game_id: str, request_id: str, answer: str) -> Response:
    seat = _seat_required(game_id)
    acted = platform().handler.answer_undo(game_id, seat, request_id, answer == "accept", datetime.now(UTC))
    return _json(_undo_body(acted.table, seat))


def _undo_body(table: Any, seat: int) -> dict[str, Any]:
    undo = table.undo
    pending = None
    if undo is not None:
        pending = {
            "id": undo.id,
            "by": undo.by,
            "to_version": undo.to_version,
            "expires_at": undo.expires_at,
            "accepted": sorted(undo.accepted),
        }
    return {"pending": pending, "game": game_body(table, seat)}


@bp.post("/v1/games/<game_id>/forks")
def fork(game_id: str) -> Response:
    seat = caller_seat(game_id)
    data = body(ForkIn())
    created = platform().handler.fork(game_id, data["at_version"], seat, with_me(data["players"]))
    summary = created.table.summary()
    for entry in summary["seats"]:
        if entry["seat"] in created.tokens:
            entry["token"] = created.tokens[entry["seat"]]
    return _json(summary, 201, {"Location": f"/v1/games/{created.table.game_id}"})
