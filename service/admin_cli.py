"""CLI commands for the operator and the analyst: a finished game's analysis (with a
progress bar), the players' reports, resolving one, and closing a player."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from core.errors import CommandError
from core.moderation import RESOLUTIONS
from service.cli_arguments import SEATS_NOTE, whole_number
from service.progress import progress


def register(commands: Any) -> dict[str, Any]:
    analyse = commands.add_parser(
        "analyse",
        help="analyse a finished game: each seat's chances at every decision, from its own information",
        description="Runs the post-game analysis here (core.analysis), keeps it as the game's analysis "
        "(GET /v1/games/{id}/analysis) and prints the costliest moves. Exit 1 for a game not finished. " + SEATS_NOTE,
    )
    analyse.add_argument("game_id")
    analyse.add_argument("--iterations", type=_iterations, default=None, help="search iterations per decision")
    analyse.add_argument("--json", action="store_true", help="print the whole analysis as JSON")
    reports = commands.add_parser(
        "reports",
        help="list the players' reports (the operator's)",
        description="Lists the reports players filed about other players, oldest first: open ones, or resolved.",
    )
    reports.add_argument("--status", choices=("open", "resolved"), default="open")
    reports.add_argument("--limit", type=_limit, default=50, help="at most this many (1 to 200)")
    resolve = commands.add_parser(
        "resolve-report",
        help="resolve a report: dismissed, or the player closed",
        description="Closes a report as dismissed, or as closed, which also closes the player it reports.",
    )
    resolve.add_argument("report_id")
    resolve.add_argument("resolution", choices=RESOLUTIONS)
    resolve.add_argument("--note", default="", help="a few words kept with the report")
    close = commands.add_parser(
        "close-player",
        help="close a player: its key stops at once and no other is issued; its games stay",
        description="Closes the player of this name (in any case): its key stops working and no other is issued.",
    )
    close.add_argument("name")
    return {"analyse": cmd_analyse, "reports": cmd_reports, "resolve-report": cmd_resolve, "close-player": cmd_close}


def _iterations(text: str) -> int:
    value = whole_number(text, "a number of iterations")
    if not 1 <= value <= 100_000:
        raise argparse.ArgumentTypeError("iterations are 1 to 100000")
    return value


def _limit(text: str) -> int:
    value = whole_number(text, "a limit")
    if not 1 <= value <= 200:
        raise argparse.ArgumentTypeError("a limit is 1 to 200")
    return value


def _platform() -> Any:
    from workers.wiring import process_platform

    return process_platform()


def _fail(error: CommandError) -> int:
    print(f"{error.code}: {error.detail}", file=sys.stderr)
    return 1


def cmd_analyse(args: argparse.Namespace) -> int:
    from core.analysis import ITERATIONS, analyse

    platform = _platform()
    with progress("analysis", "versions") as report_progress:
        try:
            found = analyse(platform, args.game_id, args.iterations or ITERATIONS, report_progress)
        except CommandError as error:
            return _fail(error)
    platform.analyses.save(args.game_id, found)
    if args.json:
        print(json.dumps(found))
        return 0
    print(f"{len(found['decisions'])} decisions analysed at {found['iterations']} iterations each")
    for decision in (d for d in found["decisions"] if d.get("costly")):
        print(
            f"v{decision['version']} seat {decision['seat']}: played {json.dumps(decision['played'])}, "
            f"preferred {json.dumps(decision['preferred'])}: {decision['before']:.2f} -> {decision['after']:.2f}"
        )
    return 0


def cmd_reports(args: argparse.Namespace) -> int:
    total, page = _platform().moderation.reports(args.status, 0, args.limit)
    print(f"{total} {args.status} report{'s' if total != 1 else ''}")
    for report in page:
        game = f" in {report['game']}" if report.get("game") else ""
        note = f": {report['note']}" if report.get("note") else ""
        print(
            f"{report['id']}  {report['created_at']}  {report['reporter']['name']} reports "
            f"{report['player']['name']} for {report['reason']}{game}{note}"
        )
    return 0


def cmd_resolve(args: argparse.Namespace) -> int:
    platform = _platform()
    try:
        resolved = platform.moderation.resolve(args.report_id, args.resolution, args.note)
        if args.resolution == "closed":
            platform.players.close(resolved["player"]["id"])
    except CommandError as error:
        return _fail(error)
    print(f"{args.report_id} resolved: {args.resolution}")
    return 0


def cmd_close(args: argparse.Namespace) -> int:
    platform = _platform()
    player = platform.players.by_name(args.name)
    if player is None:
        print(f"not_found: there is no player '{args.name}'", file=sys.stderr)
        return 1
    platform.players.close(player["id"])
    print(f"{player['name']} closed: its key no longer works")
    return 0
