"""Replays, audits, export and import: the tooling on the log, free of Flask, used by
the API's jobs and by the CLI. Each takes the platform (``stores.platform.Platform``)
as the parts of it that it reads (``Wiring``)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from core.chat import Chat, ChatWiring, checked_export, readable
from core.commands import new_game_id
from core.errors import Code, CommandError, log_damaged
from core.handler import Handler
from core.vault import Secrets
from events.envelope import Envelope, verify_chain
from events.ledger import Ledger, verify_entries
from events.store import EventStore, LogDamaged, VersionConflict
from games.codec import decode
from games.rng import Draws, derive_rng
from projections.audit import AuditReport, audit_entries
from projections.read_models import ReadModels
from projections.snapshots import Snapshots
from projections.table import Table, evolve
from projections.tables import Tables
from projections.views import board, event_for

Progress = Callable[[int, int], None]
EXPORT_FORMAT = "tablestream-export/1"
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


class Wiring(ChatWiring, Protocol):
    """What the tooling reads of the platform: its log, tables, handler, vault, ledger,
    snapshots, read models and chat."""

    @property
    def store(self) -> EventStore: ...

    @property
    def tables(self) -> Tables: ...

    @property
    def handler(self) -> Handler: ...

    @property
    def vault(self) -> Secrets: ...

    @property
    def ledger(self) -> Ledger: ...

    @property
    def snapshots(self) -> Snapshots: ...

    @property
    def read_models(self) -> ReadModels: ...

    def opening_seed(self, table: Table, seat: int | None) -> str | None: ...


def seats_and_spectator(table: Table) -> list[int | None]:
    return [None, *range(len(table.seats))]


def history(platform: Wiring, game_id: str, version: int, seat: int | None) -> dict[str, Any]:
    """The view at ``version``: the caller's, the spectator's, or every seat's once over."""
    table = platform.handler.load(game_id)
    if not 1 <= version <= table.version:
        raise CommandError(Code.NOT_FOUND, f"Game {game_id} has versions 1 to {table.version}.")
    past = platform.tables.at(game_id, version)
    assert past is not None
    out: dict[str, Any] = {
        "id": game_id,
        "version": version,
        "last_version": table.version,
        "head": table.head,
        "seat": seat,
    }
    if past.state is None:
        out["view"] = None
    else:
        out["view"] = board(past, seat)
        if table.status == "finished":
            out["views"] = [board(past, s) for s in range(len(table.seats))]
    return out


def replay(platform: Wiring, game_id: str, seat: int | None) -> dict[str, Any]:
    """A finished game's every event unredacted, with the seed; else the caller's history."""
    table = platform.handler.load(game_id)
    envelopes = log_upto(platform, game_id, table.version)
    seed = platform.opening_seed(table, seat)
    events = [event_for(table, e, seat, seed) for e in envelopes]
    entry = platform.ledger.of(game_id) if table.status == "finished" else None
    return {
        "id": game_id,
        "kind": table.kind,
        "status": table.status,
        "seed_commitment": table.seed_commitment,
        "seed": table.seed,
        "outcome": table.outcome,
        "head": table.head,
        "ledger": entry,
        # The entry's place in the ledger's tree, under the latest signed checkpoint.
        "ledger_proof": None if entry is None else platform.ledger.proof_of(entry),
        "events": events,
    }


def render_replay(platform: Wiring, game_id: str, seat: int | None, progress: Progress | None = None) -> Iterator[str]:
    """NDJSON, one line per version: the event and the views at that point (every seat's
    for a finished game; the caller's while in play)."""
    final = platform.handler.load(game_id)
    envelopes = log_upto(platform, game_id, final.version)
    viewers = seats_and_spectator(final) if final.status == "finished" else [seat]
    yield json.dumps(
        {
            "game": game_id,
            "kind": final.kind,
            "versions": final.version,
            "seed": final.seed,
            "seed_commitment": final.seed_commitment,
            "outcome": final.outcome,
        }
    )
    tables: dict[int, Table] = {}
    table: Table | None = None
    for envelope in envelopes:
        table = evolve(table, envelope, tables.__getitem__)
        tables[envelope.version] = table
        views = {} if table.state is None else {str(v): board(table, v) for v in viewers}
        yield json.dumps({"version": envelope.version, "event": event_for(final, envelope, seat), "views": views})
        if progress and (envelope.version % 50 == 0 or envelope.version == final.version):
            progress(envelope.version, final.version)


@dataclass(frozen=True)
class Anchors:
    """What recorded a log's end outside it, read before the log: the read models' position
    on the feed, the ledger entry of a finished game, the cached snapshot and the head. Each
    is written after the events it names, so a log read after them holds at least as much;
    events appended meanwhile lie past the head and are left for the next audit."""

    fed: int
    entry: dict[str, Any] | None
    snapshot: Table | None
    head: tuple[int, str]

    @staticmethod
    def read(platform: Wiring, game_id: str) -> Anchors:
        fed = platform.read_models.applied_version(game_id)
        entry = platform.ledger.of(game_id)
        snapshot = platform.snapshots.get(game_id)
        return Anchors(fed, entry, snapshot, platform.store.head(game_id))


def audit_game(platform: Wiring, game_id: str, progress: Progress | None = None) -> AuditReport:
    """The game's log audited up to its head (read first: one prefix of a game in play),
    and its end checked against the anchors."""
    anchors = Anchors.read(platform, game_id)
    entries = platform.store.read_raw(game_id)
    if not entries and anchors.head[0] == 0:
        raise CommandError(Code.NOT_FOUND, f"There is no game '{game_id}'.")
    prefix = [entry for entry in entries if entry[0] <= anchors.head[0]]
    if len(prefix) < len(entries) and platform.store.head(game_id)[0] >= entries[-1][0]:
        entries = prefix  # appended while it was read: the head has moved on over them
    snapshot = anchors.snapshot if anchors.snapshot and anchors.snapshot.version <= anchors.head[0] else None
    report = audit_entries(game_id, entries, seed=platform.vault.seed(game_id), snapshot=snapshot, progress=progress)
    if not entries:
        return report
    first = Envelope.decode(entries[0][1])
    if first.type == "ForkedFrom" and report.checks.get("hash_chain", "").startswith("ok"):
        revealed = Envelope.decode(entries[-1][1])
        seed = revealed.data.get("seed") if revealed.type == "SeedRevealed" else platform.vault.seed(game_id)
        _audit_fork_origin(platform, first, report, seed if isinstance(seed, str) else None)
    _audit_anchors(anchors, Envelope.decode(entries[-1][1]), report)
    spans = platform.store.unreplicated(game_id)
    # Not a failure: the deployment chose to acknowledge these on the master alone.
    report.checks["replication"] = (
        "every acknowledged change confirmed by a replica (or none asked for)"
        if not spans
        else "acknowledged before any replica confirmed them: versions "
        + ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in spans)
    )
    return report


def _audit_anchors(anchors: Anchors, last: Envelope, report: AuditReport) -> None:
    """The log's end against what recorded it elsewhere: the head written with each append,
    the read models' position on the feed, and the ledger entry of a finished game. A log
    that ends before any of them has lost its tail; one with another hash was rewritten."""
    problems = []
    head_version, head_hash = anchors.head
    if head_version != last.version:
        problems.append(
            (
                last.version + 1,
                f"the log ends at version {last.version} but its head was appended at {head_version}: "
                "the tail is missing",
            )
            if head_version > last.version
            else (head_version + 1, f"the log runs to version {last.version} past its head at {head_version}")
        )
    elif head_hash != last.hash:
        problems.append((last.version, "the last event's hash is not the head's hash: the log was rewritten"))
    fed = anchors.fed
    if fed > last.version:
        problems.append(
            (last.version + 1, f"the feed announced version {fed}, the log ends at {last.version}: the tail is missing")
        )
    entry = anchors.entry
    if entry is not None and (entry["version"], entry["hash"]) != (last.version, last.hash):
        problems.append(
            (
                min(entry["version"], last.version + 1),
                f"the ledger holds this game ending at version {entry['version']} with another head",
            )
        )
    if problems:
        version, reason = min(problems, key=lambda problem: problem[0])
        report.checks["anchors"] = reason
        if report.ok or (report.first_bad_version or 0) > version:
            report.ok, report.first_bad_version, report.reason = False, version, reason
        return
    named = ["head"] + (["feed"] if fed else []) + (["ledger"] if entry is not None else [])
    report.checks["anchors"] = f"ok: the log ends where its {', '.join(named)} say (version {last.version})"


def _audit_fork_origin(platform: Wiring, forked: Envelope, report: AuditReport, seed: str | None) -> None:
    """A fork names the event it starts after by its hash; when that game is on this
    server, check the hash, that an exact fork starts from that game's state then, and
    that a re-dealt one shows its seat what it saw there and, given the fork's ``seed``,
    is the re-deal the seed gives (the recorded draws, then the state dealt from them)."""
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
            elif seed is not None:
                problem = _dealt_again_problem(past, seat, seed, forked.data, state)
    if problem is None:
        report.checks["fork"] = f"ok: forks game {parent} after version {at}, whose hash it names"
        return
    report.checks["fork"] = problem
    # Version 1 comes before any other failure the audit may have found (one at version 1
    # already, the log's own, is kept).
    if report.ok or (report.first_bad_version or 0) > 1:
        report.ok, report.first_bad_version, report.reason = False, 1, problem


def _dealt_again_problem(past: Table, seat: int, seed: str, data: Mapping[str, Any], state: Any) -> str | None:
    """Deal the fork again from its seed: recipe 2 (draws recorded under v1/k) for forks
    that record draws, the keyed generator of recipe 1 for forks made before."""
    recorded = data.get("draws")
    rng = derive_rng(seed, 1) if recorded is not None else derive_rng(seed, 0, recipe=1)
    again = past.game.determinize(past.state, seat, rng)
    if recorded is not None and (not isinstance(rng, Draws) or rng.draws != recorded):
        return "the fork's recorded re-deal draws are not the ones its seed gives"
    if again != state:
        return "the fork's re-dealt cards are not the ones its seed deals"
    return None


def export_lines(platform: Wiring, game_id: str) -> Iterator[str]:
    """The whole log, unredacted: a header line, then one stored envelope per line.
    While the game is in play the header carries the seed: an export is the operator's.
    The header carries the game's chat (``core.chat``), when there is any, as the API
    shows it, both channels."""
    # The ledger entry before the table: a game that ends while it is exported is then
    # exported up to the head it loaded, without an entry its log would not reach.
    entry = platform.ledger.of(game_id)
    table = platform.handler.load(game_id)
    header: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "game": game_id,
        "kind": table.kind,
        "versions": table.version,
        "head": {"version": table.version, "hash": table.head_hash},
        "ledger": entry,
    }
    if header["ledger"] is not None:
        header["ledger_proof"] = platform.ledger.proof_of(header["ledger"])
    if table.status != "finished":
        header["seed"] = platform.vault.seed(game_id)
    chat = Chat.of(platform).export(game_id)
    if chat:  # in the header, outside the log: no chain or audit reads it
        header["chat"] = chat
    entries = raw_log_upto(platform, game_id, table.version)
    yield json.dumps(header)
    for _, text in entries:
        yield text


def shared_export(platform: Wiring, game_id: str, seat: int | None) -> tuple[bool, list[str]]:
    """The export anyone may fetch: a finished game's whole log (``export_lines``, which
    carries no seed once the seed is revealed); for a game in play, the log as ``seat``
    (None: a spectator) sees it, each hidden value it may not see behind its commitment,
    its own ones with their openings, and the chat it may read. The header names the view
    and the head it was read at, so both verify with ``tablestream verify`` (a finished one
    against the ledger; one in play by its chain and the open parts of its seals). Returns
    whether the export is settled (a finished game on the ledger: it never changes again),
    and its lines."""
    table = platform.handler.load(game_id)
    if table.status == "finished":
        lines = list(export_lines(platform, game_id))
        return json.loads(lines[0])["ledger"] is not None, lines
    if table.schema < 2:
        raise CommandError(
            Code.GAME_IN_PLAY,
            "This game began before hidden values were sealed one by one: its log shows no hashes "
            "until it is over, so it exports only once it is finished.",
        )
    envelopes = log_upto(platform, game_id, table.version)
    seed = platform.opening_seed(table, seat)
    header: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "game": game_id,
        "kind": table.kind,
        "status": table.status,
        "view": {"seat": seat},
        "versions": table.version,
        "head": {"version": table.version, "hash": table.head_hash},
    }
    chat = [message for message in Chat.of(platform).export(game_id) if message["channel"] in readable(table, seat)]
    if chat:
        header["chat"] = chat
    return False, [json.dumps(header), *(json.dumps(event_for(table, e, seat, seed)) for e in envelopes)]


def raw_log_upto(platform: Wiring, game_id: str, upto: int) -> list[tuple[int, str]]:
    """The log from version 1 to ``upto``, a version a table loaded head first vouches for:
    what is appended meanwhile is left out, and a log that lacks any of them is damaged."""
    try:
        return platform.store.read_raw_span(game_id, 0, upto)
    except LogDamaged as damage:
        raise log_damaged(game_id, damage.version, damage.head_version) from None


def log_upto(platform: Wiring, game_id: str, upto: int) -> list[Envelope]:
    return [Envelope.decode(text) for _, text in raw_log_upto(platform, game_id, upto)]


def import_lines(platform: Wiring, lines: Iterable[str]) -> tuple[str, AuditReport]:
    """Verify an export's chain and rules, then write it, and its chat (an export without
    one has none); the original id is kept unless it is taken. A tampered log is refused
    naming its first bad version."""
    rows = [line for line in (raw.strip() for raw in lines) if line]
    if not rows:
        raise CommandError(Code.INVALID_REQUEST, "The file is empty.")
    try:
        header = json.loads(rows[0])
    except ValueError:
        raise CommandError(Code.INVALID_REQUEST, "The first line is not an export header.") from None
    if header.get("format") != EXPORT_FORMAT:
        raise CommandError(Code.INVALID_REQUEST, f"The first line must be a {EXPORT_FORMAT} header.")
    if not isinstance(header.get("seed"), (str, type(None))):
        raise CommandError(Code.INVALID_REQUEST, "The header's seed must be a string.")
    chat = checked_export(header.get("chat", []))
    entries = [(index, text) for index, text in enumerate(rows[1:], start=1)]
    original = str(header.get("game", ""))
    report = audit_entries(original, entries, seed=header.get("seed"))
    if not report.ok:
        raise CommandError(
            Code.INVALID_REQUEST,
            f"The log fails its audit at version {report.first_bad_version}: {report.reason}.",
            first_bad_version=report.first_bad_version,
        )
    last = Envelope.decode(entries[-1][1])
    first = Envelope.decode(entries[0][1])
    own_id = first.data.get("id" if first.type == "ForkedFrom" else "game")
    anchored = _check_import_anchors(platform, header, str(own_id), last) and original == own_id
    # An id from a file is kept only when a ledger entry vouches for it (a finished game whose
    # final head the entry holds), and only if it looks like one of ours: it goes into Redis
    # keys and RQ job ids, which allow letters, digits, "_" and "-".
    game_id = original if anchored and GAME_ID.fullmatch(original) else new_game_id()
    while True:
        try:
            platform.store.import_raw(game_id, entries)
            break
        except VersionConflict:  # the id is taken (perhaps by an import running at the same time)
            game_id = new_game_id()
    seed = header.get("seed") or (last.data.get("seed") if last.type == "SeedRevealed" else None)
    if seed:
        platform.vault.set_seed(game_id, seed)
    Chat.of(platform).restore(game_id, chat)
    assert verify_chain(platform.store.read_raw(game_id)).ok
    return game_id, report


def _check_import_anchors(platform: Wiring, header: dict[str, Any], original: str, last: Envelope) -> bool:
    """Refuse a log that ends before the head its header names, or whose final head is not the
    one the ledger entry it claims (or this server's ledger) holds. ``original`` is the id the
    log names for itself. True when a ledger entry checked out, so that id may be trusted."""
    head = header.get("head")
    if head is not None and (
        not isinstance(head, dict) or (head.get("version"), head.get("hash")) != (last.version, last.hash)
    ):
        raise CommandError(
            Code.INVALID_REQUEST,
            f"The log ends at version {last.version} but its header names another head: "
            "events are missing or were rewritten.",
            first_bad_version=last.version + 1
            if isinstance(head, dict) and isinstance(head.get("version"), int) and head["version"] > last.version
            else last.version,
        )
    ours = platform.ledger.of(original)
    if ours is not None and (ours["version"], ours["hash"]) != (last.version, last.hash):
        raise CommandError(
            Code.INVALID_REQUEST,
            f"This server's ledger holds game {original} ending at version {ours['version']} with another head: "
            "the log was rewritten.",
            first_bad_version=min(ours["version"], last.version),
        )
    claimed = header.get("ledger")
    if claimed is None:
        return False
    fields = ("index", "game", "kind", "version", "hash", "at", "prev", "entry_hash")
    if not isinstance(claimed, dict) or any(name not in claimed for name in fields):
        raise CommandError(Code.INVALID_REQUEST, "The header's ledger entry lacks fields: " + ", ".join(fields) + ".")
    if verify_entries([claimed], str(claimed["prev"]), claimed["index"] if isinstance(claimed["index"], int) else 0):
        raise CommandError(Code.INVALID_REQUEST, "The header's ledger entry does not match its own hash.")
    if claimed["game"] != original or (claimed["version"], claimed["hash"]) != (last.version, last.hash):
        raise CommandError(
            Code.INVALID_REQUEST,
            f"The log's final head (version {last.version}) is not the one the ledger entry it claims holds.",
            first_bad_version=min(int(claimed["version"]), last.version)
            if isinstance(claimed["version"], int)
            else last.version,
        )
    return last.type == "SeedRevealed"


def verify_seed(platform: Wiring, game_id: str) -> dict[str, Any]:
    """Re-derive every shuffle and draw of a finished game from its revealed seed."""
    table = platform.handler.load(game_id)
    if table.status != "finished" or table.seed is None:
        raise CommandError(
            Code.GAME_NOT_STARTED if table.status == "open" else Code.INVALID_REQUEST,
            "The seed is revealed only when the game ends.",
        )
    report = audit_entries(game_id, platform.store.read_raw(game_id))
    return {"game": game_id, "seed": table.seed, "seed_commitment": table.seed_commitment, **report.as_json()}
