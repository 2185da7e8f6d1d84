"""CLI commands on the log: replay, audit, export, import, verify-seed, and verify (which
needs no server: it checks a record or an export as docs/verification.md says)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from core.errors import Code, CommandError
from service.cli_arguments import SEATS_NOTE, input_file, output_file, seat, seconds, version
from service.progress import progress

BOLD, DIM, CYAN, GREEN, RED, RESET = "\033[1m", "\033[2m", "\033[36m", "\033[32m", "\033[31m", "\033[0m"


def register(commands: Any) -> dict[str, Any]:
    replay = commands.add_parser(
        "replay",
        help="print the board at each version of a game",
        description="Prints each version of a finished game: its event, then the board as the spectator, or "
        "the seat of --seat, saw it. " + SEATS_NOTE,
    )
    replay.add_argument("game_id")
    replay.add_argument("--at", type=version, default=None, help="show only this version (from 1)")
    replay.add_argument(
        "--seat", type=seat, default=None, help="the seat whose view to show, from 0 (default: spectator)"
    )
    replay.add_argument("--delay", type=seconds, default=0.0, help="seconds between versions")
    replay.add_argument("--plain", action="store_true", help="no colours")
    audit = commands.add_parser(
        "audit",
        help="audit a game: chain, seed, every action re-decided, snapshot",
        description="Checks a game's log here: its hash chain, its seed against the commitment, every action "
        "decided again by the rules, and its snapshot. Exit 0 when it passes, 1 when it cannot be read, 2 when "
        "a check fails (naming the first bad version). " + SEATS_NOTE,
    )
    audit.add_argument("game_id")
    export = commands.add_parser(
        "export",
        help="write a game's whole log as NDJSON to stdout",
        description="Writes a header line, then one line per event: the format import reads and verify checks.",
    )
    export.add_argument("game_id")
    imp = commands.add_parser(
        "import",
        help="verify and import an exported NDJSON log",
        description="Audits an export and writes it as a game here. The game keeps the export's id when a "
        "ledger entry vouches for it and no game here holds it; else it is given a new id, and told why.",
    )
    imp.add_argument("file", type=input_file, help="path, or - for stdin")
    verify = commands.add_parser(
        "verify-seed",
        help="re-derive every shuffle of a finished game from its seed",
        description="Checks a finished game's revealed seed against its commitment and derives every shuffle "
        "and draw of the log again from it. Exit 0 when all agree, 1 when the game cannot be read, 2 if not.",
    )
    verify.add_argument("game_id")
    from service import verifier

    check = commands.add_parser(
        "verify",
        help="verify a game's record or export (FILE, - or URL) by docs/verification.md alone",
        description="Exit status: 0 when the record verifies, 1 when a check fails, 2 when it cannot be read.",
    )
    verifier.add_arguments(check)
    from service import witness

    watch = commands.add_parser(
        "witness",
        help="watch a service's ledger for rewrites and split views, and cosign what is consistent",
        description="Exit status: 0 when every checkpoint seen is consistent, 1 on an alarm, 2 when unreadable.",
    )
    witness.add_arguments(watch)
    back = commands.add_parser(
        "backup",
        help="write every game, its secrets, the ledger and players to one file, while serving",
        description="Each game is one consistent prefix of its log. The file holds every seed: keep it secret.",
    )
    back.add_argument("file", type=output_file, help="path to write, or - for stdout")
    put = commands.add_parser(
        "restore",
        help="restore a backup into a Redis holding nothing of this deployment, then verify every game",
        description="Exit status: 0 when every game verifies, 1 when the file is refused or a game does not verify.",
    )
    put.add_argument("file", type=input_file, help="path, or - for stdin")
    return {
        "backup": cmd_backup,
        "restore": cmd_restore,
        "replay": cmd_replay,
        "audit": cmd_audit,
        "export": cmd_export,
        "import": cmd_import,
        "verify-seed": cmd_verify_seed,
        "verify": verifier.run,
        "witness": witness.run,
    }


def _platform() -> Any:
    from workers.wiring import process_platform

    return process_platform()


def _fail(error: CommandError) -> int:
    print(f"error ({error.code}): {error.detail}", file=sys.stderr)
    return 1


def seat_names(table: Any) -> tuple[str, ...]:
    """Each seat as the table names it: its player's name, else its bot's, else open."""
    return tuple(seat.name or (f"{seat.bot} bot" if seat.bot else "open seat") for seat in table.seats)


def cmd_replay(args: argparse.Namespace) -> int:
    from core import tooling
    from games.base import rules_of
    from projections.table import evolve
    from projections.views import board, event_for
    from service.boards import Sheet, draw

    platform = _platform()
    colour = sys.stdout.isatty() and not args.plain
    try:
        final = platform.handler.load(args.game_id)
        envelopes = tooling.log_upto(platform, args.game_id, final.version)
    except CommandError as error:
        return _fail(error)
    if args.seat is not None and final.status != "finished":
        print("error: a seat's view of a game in play needs that seat's token; use the API", file=sys.stderr)
        return 1
    if args.seat is not None and args.seat >= len(final.seats):
        return _fail(
            CommandError(
                Code.BAD_REQUEST,
                f"game {args.game_id} has no seat {args.seat}: its seats are 0 to {len(final.seats) - 1}",
            )
        )
    if args.at is not None and args.at > final.version:
        return _fail(
            CommandError(Code.BAD_REQUEST, f"game {args.game_id} has versions 1 to {final.version}, not {args.at}")
        )
    table: Any = None
    tables: dict[int, Any] = {}
    for envelope in envelopes:
        table = evolve(table, envelope, tables.__getitem__)
        tables[envelope.version] = table
        if args.at is not None and envelope.version != args.at:
            continue
        shown = event_for(final, envelope, args.seat)
        seat_note = f" (seat {shown['seat']})" if shown["seat"] is not None else ""
        head = f"v{envelope.version} {shown['type']}{seat_note}"
        print(f"{BOLD}{head}{RESET}" if colour else head)
        print("  " + json.dumps(shown["data"])[:200])
        if table.state is not None:
            sheet = Sheet(seat_names(table), colour, rules_of(table.options), tuple(sorted(table.to_act())))
            print("\n".join("  " + line for line in draw(table.kind, board(table, args.seat), sheet)))
        print()
        if args.delay:
            time.sleep(args.delay)
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    from core.tooling import audit_game

    with progress("audit", "events") as report_progress:
        try:
            report = audit_game(_platform(), args.game_id, report_progress)
        except CommandError as error:
            return _fail(error)
    for name, result in report.checks.items():
        print(f"{name:<10} {result}")
    if report.ok:
        print(f"{GREEN}audit passed{RESET}" if sys.stdout.isatty() else "audit passed")
        return 0
    print(f"audit FAILED at version {report.first_bad_version}: {report.reason}")
    return 2


def cmd_export(args: argparse.Namespace) -> int:
    from core.tooling import export_lines

    try:
        for line in export_lines(_platform(), args.game_id):
            sys.stdout.write(line + "\n")
    except CommandError as error:
        return _fail(error)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from core.tooling import import_lines

    stream = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")  # noqa: SIM115
    with stream:
        lines = stream.readlines()
    with progress("import", "lines read") as report_progress:
        report_progress(0, len(lines))
        try:
            game_id, report = import_lines(_platform(), lines)
        except CommandError as error:
            return _fail(error)
        report_progress(len(lines), len(lines))
    print(f"imported {report.versions} events as game {game_id}")
    renamed = why_renamed(_platform(), lines, game_id)
    if renamed:
        print(f"tablestream import: a new id, {game_id}: {renamed}", file=sys.stderr)
    return 0


def why_renamed(platform: Any, lines: list[str], game_id: str) -> str | None:
    """Why an import that audited well was given ``game_id`` rather than the id its export
    names (None when it kept it). The import keeps that id only when it is one of ours, a
    ledger entry vouches for it and no game here holds it; the first of these that failed."""
    from core.tooling import GAME_ID
    from events.envelope import Envelope

    rows = [line for line in (raw.strip() for raw in lines) if line]
    original = str(json.loads(rows[0]).get("game") or "")
    if original == game_id:
        return None
    if not original:
        return "the export names no game id"
    if not GAME_ID.fullmatch(original):
        return f"the export's id {original!r} is not one this service can use (1 to 64 letters, digits, _ or -)"
    held = platform.store.head(original)
    if held[0]:
        last = Envelope.decode(rows[-1])
        if held == (last.version, last.hash):
            return f"this service already holds that game as {original}; this is a copy of it"
        return f"the id {original} is taken by another game here"
    return (
        f"the id {original} is kept only when a ledger entry vouches for it (a finished game's export "
        "carries one), and none here or in the export does"
    )


def cmd_backup(args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    from service.backup import backup

    platform = _platform()
    out = sys.stdout if args.file == "-" else open(args.file, "w", encoding="utf-8")  # noqa: SIM115
    with out, progress("backup", "keys") as report_progress:
        closing = backup(
            platform.redis,
            platform.config.prefix,
            out,
            lambda: datetime.now(UTC).isoformat(timespec="milliseconds"),
            report_progress,
        )
    print(f"backed up {closing['keys']} keys (sha256 {closing['sha256']})", file=sys.stderr)
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from service.backup import BackupError, restore

    platform = _platform()
    stream = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")  # noqa: SIM115
    with stream, progress("restore", "keys") as report_progress:
        try:
            count = restore(platform.redis, platform.config.prefix, stream, report_progress)
        except BackupError as error:
            print(f"error (invalid_request): {error}", file=sys.stderr)
            return 1
    games = list(platform.store.game_ids())
    failed = [game for game in games if not platform.store.verify(game).ok]
    print(f"restored {count} keys: {len(games)} games, {len(games) - len(failed)} of them verify")
    for game in failed:
        print(f"game {game} does not verify: {platform.store.verify(game).reason}")
    print("start the workers: each enqueues again, as it starts, every job the games call for")
    return 1 if failed else 0


def cmd_verify_seed(args: argparse.Namespace) -> int:
    from core.tooling import verify_seed

    try:
        result = verify_seed(_platform(), args.game_id)
    except CommandError as error:
        return _fail(error)
    print(f"seed            {result['seed']}")
    print(f"commitment      {result['seed_commitment']}")
    for name, check in result["checks"].items():
        print(f"{name:<15} {check}")
    print("every shuffle and draw re-derived from the seed" if result["ok"] else f"FAILED: {result['reason']}")
    return 0 if result["ok"] else 2
