"""Replays, audits, export and import: the tooling on the log, free of Flask, used by
the API's jobs and by the CLI."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from events.envelope import Envelope, verify_chain
from events.store import VersionConflict
from games.codec import decode
from projections.audit import AuditReport, audit_entries
from projections.table import Table, evolve
from projections.views import board, event_for
from service.errors import CommandError
from service.platform import Platform

Progress = Callable[[int, int], None]
EXPORT_FORMAT = "tablestream-export/1"
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def seats_and_spectator(table: Table) -> list[int | None]:
    return [None, *range(len(table.seats))]


def history(platform: Platform, game_id: str, version: int, seat: int | None) -> dict[str, Any]:
    """The view at ``version``: the caller's, the spectator's, or every seat's once over."""
    table = platform.handler.load(game_id)
    if not 1 <= version <= table.version:
        raise CommandError("not_found", f"Game {game_id} has versions 1 to {table.version}.")
    past = platform.tables.at(game_id, version)
    assert past is not None
    out: dict[str, Any] = {"id": game_id, "version": version, "last_version": table.version, "seat": seat}
    if past.state is None:
        out["view"] = None
    else:
        out["view"] = board(past, seat)
        if table.status == "finished":
            out["views"] = [board(past, s) for s in range(len(table.seats))]
    return out


def replay(platform: Platform, game_id: str, seat: int | None) -> dict[str, Any]:
    """A finished game's every event unredacted, with the seed; else the caller's history."""
    table = platform.handler.load(game_id)
    envelopes = platform.store.read(game_id)
    events = [event_for(table, e, seat) for e in envelopes]
    return {
        "id": game_id,
        "kind": table.kind,
        "status": table.status,
        "seed_commitment": table.seed_commitment,
        "seed": table.seed,
        "outcome": table.outcome,
        "events": events,
    }


def render_replay(
    platform: Platform, game_id: str, seat: int | None, progress: Progress | None = None
) -> Iterator[str]:
    """NDJSON, one line per version: the event and the views at that point (every seat's
    for a finished game; the caller's while in play)."""
    final = platform.handler.load(game_id)
    envelopes = platform.store.read(game_id)
    viewers = seats_and_spectator(final) if final.status == "finished" else [seat]
    yield json.dumps({"game": game_id, "kind": final.kind, "versions": final.version, "seed": final.seed,
                      "seed_commitment": final.seed_commitment, "outcome": final.outcome})
    tables: dict[int, Table] = {}
    table: Table | None = None
    for envelope in envelopes:
        table = evolve(table, envelope, tables.__getitem__)
        tables[envelope.version] = table
        views = {} if table.state is None else {str(v): board(table, v) for v in viewers}
        yield json.dumps({"version": envelope.version, "event": event_for(final, envelope, seat), "views": views})
        if progress and (envelope.version % 50 == 0 or envelope.version == final.version):
            progress(envelope.version, final.version)


def audit_game(platform: Platform, game_id: str, progress: Progress | None = None) -> AuditReport:
    platform.handler.load(game_id)
    entries = platform.store.read_raw(game_id)
    snapshot = platform.snapshots.get(game_id)
    report = audit_entries(game_id, entries, seed=platform.vault.seed(game_id), snapshot=snapshot, progress=progress)
    first = Envelope.decode(entries[0][1])
    if first.type == "ForkedFrom" and report.checks.get("hash_chain", "").startswith("ok"):
        _audit_fork_origin(platform, first, report)
    return report


def _audit_fork_origin(platform: Platform, forked: Envelope, report: AuditReport) -> None:
    """A fork names the event it starts after by its hash; when that game is on this
    server, check the hash, and that an exact fork starts from that game's state then."""
    parent, at = forked.data["game"], forked.data["version"]
    origin = platform.store.read(parent, after=at - 1, limit=1)
    problem = None
    if not origin:
        report.checks["fork"] = f"not checked: game {parent} is not on this server"
        return
    if origin[0].hash != forked.data["hash"]:
        problem = f"ForkedFrom names a hash that game {parent} does not have at version {at}"
    else:
        past = platform.tables.at(parent, at)
        state = decode(forked.data["state"])
        if past is None or past.state is None:
            problem = f"game {parent} had no state at version {at}"
        elif forked.data.get("exact") and past.state != state:
            problem = f"the exact fork does not start from the state of game {parent} at version {at}"
        elif not forked.data.get("exact"):
            seat = forked.data["from_seat"]
            if past.game.view(state, seat) != past.game.view(past.state, seat):
                problem = f"the fork does not show seat {seat} what it saw of game {parent} at version {at}"
    if problem is None:
        report.checks["fork"] = f"ok: forks game {parent} after version {at}, whose hash it names"
        return
    report.checks["fork"] = problem
    # Version 1 comes before any other failure the audit may have found.
    report.ok, report.first_bad_version, report.reason = False, 1, problem


def export_lines(platform: Platform, game_id: str) -> Iterator[str]:
    """The whole log, unredacted: a header line, then one stored envelope per line.
    While the game is in play the header carries the seed: an export is the operator's."""
    table = platform.handler.load(game_id)
    header = {"format": EXPORT_FORMAT, "game": game_id, "kind": table.kind, "versions": table.version}
    if table.status != "finished":
        header["seed"] = platform.vault.seed(game_id)
    yield json.dumps(header)
    for _, text in platform.store.read_raw(game_id):
        yield text


def import_lines(platform: Platform, lines: Iterable[str]) -> tuple[str, AuditReport]:
    """Verify an export's chain and rules, then write it; the original id is kept unless
    it is taken. A tampered log is refused naming its first bad version."""
    rows = [line for line in (raw.strip() for raw in lines) if line]
    if not rows:
        raise CommandError("invalid_request", "The file is empty.")
    try:
        header = json.loads(rows[0])
    except ValueError:
        raise CommandError("invalid_request", "The first line is not an export header.") from None
    if header.get("format") != EXPORT_FORMAT:
        raise CommandError("invalid_request", f"The first line must be a {EXPORT_FORMAT} header.")
    if not isinstance(header.get("seed"), (str, type(None))):
        raise CommandError("invalid_request", "The header's seed must be a string.")
    entries = [(index, text) for index, text in enumerate(rows[1:], start=1)]
    original = str(header.get("game", ""))
    report = audit_entries(original, entries, seed=header.get("seed"))
    if not report.ok:
        raise CommandError(
            "invalid_request",
            f"The log fails its audit at version {report.first_bad_version}: {report.reason}.",
            first_bad_version=report.first_bad_version,
        )
    # An id from a file is kept only if it looks like one of ours: it goes into Redis keys
    # and RQ job ids, which allow letters, digits, "_" and "-".
    game_id = original if GAME_ID.fullmatch(original) else secrets.token_urlsafe(9)
    while True:
        try:
            platform.store.import_raw(game_id, entries)
            break
        except VersionConflict:  # the id is taken (perhaps by an import running at the same time)
            game_id = secrets.token_urlsafe(9)
    last = Envelope.decode(entries[-1][1])
    seed = header.get("seed") or (last.data.get("seed") if last.type == "SeedRevealed" else None)
    if seed:
        platform.vault.set_seed(game_id, seed)
    assert verify_chain(platform.store.read_raw(game_id)).ok
    return game_id, report


def verify_seed(platform: Platform, game_id: str) -> dict[str, Any]:
    """Re-derive every shuffle and draw of a finished game from its revealed seed."""
    table = platform.handler.load(game_id)
    if table.status != "finished" or table.seed is None:
        raise CommandError("game_not_started" if table.status == "open" else "invalid_request",
                           "The seed is revealed only when the game ends.")
    report = audit_entries(game_id, platform.store.read_raw(game_id))
    return {"game": game_id, "seed": table.seed, "seed_commitment": table.seed_commitment, **report.as_json()}

