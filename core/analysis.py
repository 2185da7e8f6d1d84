"""Post-game analysis: for every decision of a finished game (a seat's action where it had
a choice), the search (``games.ismcts.appraise``) looks at it from that seat's information
only, as the seat stood then, never from the hidden cards: it estimates the seat's
expected score (its share of a win) with the move it prefers (the one it tried most)
and with the move played. What the move cost is how far the second falls short of the
first (none when the played move's estimate is as high, which the search's noise allows).

An analysis is a read model: derived from the log (and a fixed rng per decision, so the
same game and budget give the same analysis), kept beside the game, never in its log. A
worker computes it as a long job (``workers.jobs.analysis_job``); only a finished game is
analysed, since it speaks of every seat's decisions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from core.errors import Code, CommandError
from core.tooling import Wiring, log_upto
from games.ismcts import action_key, appraise
from projections.table import Table, evolve

ITERATIONS = 200
"""The search's iterations per decision (at least twice the actions on offer)."""
WORST = 3
"""How many of each seat's costliest moves the analysis marks."""

Progress = Callable[[int, int], None]


def finished_only(table: Table) -> None:
    """``game_in_play`` for a game not finished: an analysis speaks of every seat's moves."""
    if table.status != "finished":
        raise CommandError(
            Code.GAME_IN_PLAY, "A game is analysed once it is finished: it speaks of every seat's moves."
        )


def analyse(
    platform: Wiring, game_id: str, iterations: int = ITERATIONS, progress: Progress | None = None
) -> dict[str, Any]:
    final = platform.handler.load(game_id)
    finished_only(final)
    envelopes = log_upto(platform, game_id, final.version)
    tables: dict[int, Table] = {}
    table: Table | None = None
    decisions: list[dict[str, Any]] = []
    for envelope in envelopes:
        before = table
        table = evolve(table, envelope, tables.__getitem__)
        tables[envelope.version] = table
        if progress is not None and (envelope.version % 20 == 0 or envelope.version == final.version):
            progress(envelope.version, final.version)
        if envelope.type != "ActionTaken" or envelope.seat is None or before is None or before.state is None:
            continue
        seat = envelope.seat
        if len(before.game.legal_actions(before.state, seat)) < 2:
            continue
        rng = random.Random(f"analysis:{game_id}:{envelope.version}")
        ranked = appraise(before.game, before.state, seat, rng, iterations)
        best = ranked[0]
        played_key = action_key(envelope.data["action"])
        played = next((a for a in ranked if action_key(a.action) == played_key), None)
        after = played.value if played is not None else best.value
        decisions.append(
            {
                "version": envelope.version,
                "seat": seat,
                "actor": envelope.actor,
                "played": envelope.data["action"],
                "preferred": best.action,
                "before": round(best.value, 4),
                "after": round(after, 4),
                "cost": round(max(0.0, best.value - after), 4),
                "choices": len(ranked),
            }
        )
    for seat in range(len(final.seats)):
        mine = sorted((d for d in decisions if d["seat"] == seat and d["cost"] > 0), key=lambda d: -d["cost"])
        for decision in mine[:WORST]:
            decision["costly"] = True
    return {
        "game": game_id,
        "kind": final.kind,
        "seats": len(final.seats),
        "iterations": iterations,
        "outcome": final.outcome,
        "decisions": decisions,
    }
