"""Auditing a game's log: the hash chain, the seed against its commitment, every
random draw and every action re-derived from the state before it, undo never
crossing an irreversible event, and the cached snapshot against the fold.

Works on stored entries alone (plus the seed when the game is not over), so the
same audit checks a live game, an exported file before import, and a fork.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from events.commitments import open_problem
from events.envelope import Envelope, canonical_json, verify_chain
from games.base import Game, GameEvent, IllegalAction, State
from games.registry import get
from games.rng import Draws, commitment, derive_rng, redraw
from projections.lifecycle import ending_outcome, ms
from projections.table import PLATFORM_EVENTS, Table, evolve
from projections.tables import fold_runs
from projections.views import sealed_data

Progress = Callable[[int, int], None]


@dataclass
class AuditReport:
    game_id: str
    ok: bool = True
    first_bad_version: int | None = None
    reason: str | None = None
    checks: dict[str, str] = field(default_factory=dict)
    versions: int = 0
    actions: int = 0

    def fail(self, version: int, reason: str) -> AuditReport:
        if self.ok:
            self.ok, self.first_bad_version, self.reason = False, version, reason
        return self

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "ok": self.ok,
            "first_bad_version": self.first_bad_version,
            "reason": self.reason,
            "checks": self.checks,
            "versions": self.versions,
            "actions": self.actions,
        }


def _same(event: Envelope, expected: GameEvent) -> bool:
    return (
        event.type == expected.type
        and event.seat == expected.seat
        and canonical_json(event.data) == canonical_json(expected.data)
    )


def audit_entries(
    game_id: str,
    entries: Sequence[tuple[int, str]],
    seed: str | None = None,
    snapshot: Table | None = None,
    progress: Progress | None = None,
) -> AuditReport:
    """Audit stored entries ``(version, text)``. ``seed`` is needed only while the game
    is in play (a finished game reveals its own)."""
    report = AuditReport(game_id, versions=len(entries))
    chain = verify_chain(entries)
    if not chain.ok:
        report.checks["hash_chain"] = f"broken at version {chain.first_bad_version}: {chain.reason}"
        return report.fail(chain.first_bad_version or 1, chain.reason or "hash chain broken")
    report.checks["hash_chain"] = f"ok: {len(entries)} events linked"
    envelopes = [Envelope.decode(text) for _, text in entries]
    if not envelopes:
        return report.fail(1, "the log is empty")
    first = envelopes[0]
    if first.type not in ("GameCreated", "ForkedFrom"):
        return report.fail(1, "the log does not start with GameCreated or ForkedFrom")
    game = get(first.data.get("kind", ""))
    if game is None:
        return report.fail(1, f"unknown game kind {first.data.get('kind')!r}")

    ended = next((e for e in envelopes if e.type == "SeedRevealed"), None)
    if ended is not None:
        revealed = ended.data.get("seed")
        if not isinstance(revealed, str) or commitment(revealed) != first.data.get("seed_commitment"):
            report.checks["seed"] = "the revealed seed does not match the commitment"
            return report.fail(ended.version, "the revealed seed does not match the seed commitment")
        if seed is not None and seed != revealed:
            return report.fail(ended.version, "the revealed seed is not the game's seed")
        seed = revealed
        report.checks["seed"] = "ok: sha256(revealed seed) equals the commitment"
    elif seed is not None:
        if commitment(seed) != first.data.get("seed_commitment"):
            return report.fail(1, "the game's seed does not match its commitment")
        report.checks["seed"] = "ok: not yet revealed; the server's seed matches the commitment"
    else:
        report.checks["seed"] = "not revealed yet: random draws cannot be re-derived"

    problem = _seal_problem(game, envelopes, seed)
    if problem:
        return report.fail(*problem)
    sealed = sum(1 for e in envelopes if e.sealed is not None)
    report.checks["commitments"] = (
        f"ok: {sealed} events hide values, every commitment opens to the data"
        if seed is not None
        else f"ok: {sealed} events hide values; their open parts match (commitments open with the seed)"
    )
    recipe = 1 if first.schema < 2 else 2

    tables: dict[int, Table] = {}

    def past(version: int) -> Table:
        return tables[version]

    table: Table | None = None
    index = 0
    setup_end = 1  # index of the first event after the deal
    if first.type == "GameCreated":
        while setup_end < len(envelopes) and envelopes[setup_end].type not in PLATFORM_EVENTS:
            setup_end += 1
    if first.type == "GameCreated" and seed is not None:
        rng = derive_rng(seed, 1, recipe)
        opening = game.setup(first.data["options"], len(first.data["seats"]), rng)
        if _draws_of(rng) != first.data.get("draws"):
            return report.fail(1, "the draws GameCreated records are not the ones the seed gives for the deal")
        recorded = envelopes[1:setup_end]
        for expected, event in zip(opening, recorded, strict=False):
            if not _same(event, expected):
                return report.fail(event.version, "the deal does not match the one the seed derives")
        if len(recorded) != len(opening):
            return report.fail(min(setup_end, len(opening) + 1), "the deal has a different number of events")
        report.checks["deal"] = f"ok: the {len(opening)} opening events re-derive from the seed"
    if first.type == "ForkedFrom" and seed is not None:
        problem_at = _recorded_redeal_problem(first.data.get("draws"), seed)
        if problem_at:
            return report.fail(1, problem_at)
        if first.data.get("draws"):
            report.checks["deal"] = f"ok: the fork's {len(first.data['draws'])} re-deal draws re-derive from the seed"

    total = len(envelopes)
    while index < total:
        envelope = envelopes[index]
        if envelope.type == "ActionTaken":
            clock = table.clock if table is not None else None
            if clock is not None and envelope.seat is not None and clock.left(envelope.seat, ms(envelope.at)) <= 0:
                return report.fail(envelope.version, f"seat {envelope.seat + 1} moved after its clock ran out")
            problem, consumed, decided = _check_action(game, table, envelopes, index, seed, recipe)
            if problem:
                return report.fail(problem[0], problem[1])
            report.actions += 1
            # Folded once: the decision's state when the seed re-decided the recorded events.
            table = fold_runs(table, envelopes[index : index + consumed], past, tables, decided)
            index += consumed
            if progress and index % 100 < consumed:
                progress(index, total)
            continue
        if envelope.type not in PLATFORM_EVENTS and index >= setup_end:
            return report.fail(envelope.version, f"{envelope.type} was not produced by any action")
        if envelope.type == "SeedRevealed" and table is not None:
            result = ending_outcome(table, envelopes[index - 1], game.outcome(table.state))
            if result is None or canonical_json(result) != canonical_json(envelope.data.get("outcome")):
                return report.fail(envelope.version, "the recorded outcome is not the fold's outcome")
        wrong = _ending_problem(table, envelope)
        if wrong:
            return report.fail(envelope.version, wrong)
        if envelope.type == "Rewound" and table is not None:
            to_version = envelope.data.get("to_version")
            if not isinstance(to_version, int) or not 1 <= to_version < envelope.version:
                return report.fail(envelope.version, "an undo names a version the game never had")
            if to_version not in tables:
                return report.fail(envelope.version, "an undo names a version in the middle of a command")
            crossed = next((e for e in envelopes[to_version:index] if _irreversible(game, e)), None)
            if crossed is not None:
                reason = f"an undo crossed the irreversible {crossed.type} at {crossed.version}"
                return report.fail(envelope.version, reason)
        table = evolve(table, envelope, past)
        tables[envelope.version] = table
        index += 1
    report.checks["actions"] = (
        f"ok: {report.actions} actions legal and re-decided to the recorded events"
        if seed is not None
        else f"ok: {report.actions} actions legal when taken (draws not re-derived without the seed)"
    )
    if snapshot is not None:
        folded = tables.get(snapshot.version)
        # A log imported under a new id still names its old one inside; the snapshot has the new.
        if folded is not None and folded.game_id != snapshot.game_id:
            folded = replace(folded, game_id=snapshot.game_id)
        if folded is None or folded != snapshot:
            return report.fail(snapshot.version, "the cached snapshot differs from the fold of the log")
        report.checks["snapshot"] = f"ok: the snapshot at version {snapshot.version} equals the fold"
    if progress:
        progress(total, total)
    return report


def _ending_problem(table: Table | None, envelope: Envelope) -> str | None:
    """What is wrong with an ending the platform appended, judged by the log alone: a seat
    leaves once, only while the game is in play; a flag falls only once the seat's clock
    (kept by the log's timestamps) has run out; an abort only while it is allowed."""
    if table is not None and envelope.type == "DrawAgreed":
        offer = table.draw
        if table.status != "active" or offer is None or offer.id != envelope.data.get("id"):
            return "a game ended by an agreement no seat offered"
        if not set(table.competing()) <= offer.accepted:
            return "a game ended by an agreement not every seat still in accepted"
        return None
    if table is None or envelope.type not in ("Resigned", "FlagFell", "Abandoned", "Aborted"):
        return None
    if envelope.type == "Aborted":
        return None if table.may_abort() else "the game was aborted after every seat had moved"
    seat = envelope.data.get("seat")
    if not isinstance(seat, int) or not 0 <= seat < len(table.seats) or table.status != "active":
        return f"{envelope.type} names no seat of a game in play"
    if table.seats[seat].left is not None:
        return f"seat {seat + 1} left the game twice"
    if envelope.type == "FlagFell":
        due = table.clock.deadline(seat) if table.clock is not None else None
        if due is None or ms(envelope.at) < due:
            return f"seat {seat + 1}'s flag fell before its clock ran out"
    return None


def _recorded_redeal_problem(draws: Any, seed: str) -> str | None:
    """A fork's recorded re-deal against its seed: labels v1/0, v1/1, ... in order, each
    result the one the seed gives (whether the rules dealt from them is the fork origin's
    check, which needs the game it forks)."""
    if draws is None:
        return None
    if not isinstance(draws, list):
        return "the fork's draws are not a list"
    for k, draw in enumerate(draws):
        if not isinstance(draw, dict) or draw.get("label") != f"v1/{k}":
            return f"the fork's draw {k} is not labelled v1/{k}"
        try:
            redrawn = redraw(seed, draw)
        except (KeyError, TypeError, ValueError):
            return f"the fork's draw v1/{k} is not a draw of the recipe"
        if canonical_json(redrawn) != canonical_json(draw.get("result")):
            return f"the fork's draw v1/{k} is not what the seed gives"
    return None


def _draws_of(rng: random.Random) -> list[dict[str, Any]] | None:
    return list(rng.draws) if isinstance(rng, Draws) and rng.draws else None


def _seal_problem(game: Game, envelopes: Sequence[Envelope], seed: str | None) -> tuple[int, str] | None:
    """Each schema-2 event's sealed form against its data: with the seed, exactly the seal
    the rule gives (every hidden value committed, every commitment opening); without it,
    the parts in the open."""
    for e in envelopes:
        if e.schema < 2:
            continue
        if seed is not None:
            expected = sealed_data(game, e.type, e.seat, e.data, seed, e.version)
            if canonical_json(expected) != canonical_json(e.sealed):
                problem = open_problem(e.sealed, e.data, seed, e.version) if e.sealed is not None else None
                return e.version, problem or "the event's hidden values are not sealed as the rule says"
        elif e.sealed is not None:
            problem = open_problem(e.sealed, e.data, None, e.version)
            if problem:
                return e.version, problem
    return None


def _irreversible(game: Game, envelope: Envelope) -> bool:
    if envelope.type in PLATFORM_EVENTS:
        return envelope.type in ("GameCreated", "ForkedFrom")
    return game.irreversible(GameEvent(envelope.type, envelope.data, envelope.seat))


def _check_action(
    game: Game, table: Table | None, envelopes: list[Envelope], index: int, seed: str | None, recipe: int
) -> tuple[tuple[int, str] | None, int, State | None]:
    """Check the command starting at ``envelopes[index]`` by deciding it again (the game's
    ``decision`` is the only judge of an action); return (problem, events it spans, the
    state after them when the seed re-derived them)."""
    taken = envelopes[index]
    following = envelopes[index + 1 :]
    closing = PLATFORM_EVENTS - {"SeedRevealed"}
    span = 1 + next((i for i, e in enumerate(following) if e.type in closing), len(following))
    if span > 1 and envelopes[index + span - 1].type == "SeedRevealed":
        span -= 1
    if table is None or table.state is None:
        return (taken.version, "an action before the game was set up"), span, None
    seat = taken.seat
    action = taken.data.get("action")
    if seat is None or not isinstance(action, dict):
        return (taken.version, "an action without a seat or an action object"), span, None
    if table.status != "active":
        return (taken.version, f"seat {seat} was not to act: the game was {table.status}"), span, None
    # Without the seed the draws cannot be re-derived; any rng still tells a legal action.
    rng = derive_rng(seed, taken.version, recipe) if seed is not None else random.Random(taken.version)
    try:
        decided = game.decision(table.state, seat, action, rng)
    except IllegalAction as error:
        if error.code == "not_your_turn":
            return (taken.version, f"seat {seat} was not to act"), span, None
        reason = f"the action {json.dumps(action)} was not among the legal actions ({error.reason})"
        return (taken.version, reason), span, None
    if seed is None:
        return None, span, None
    recorded = envelopes[index + 1 : index + span]
    if _draws_of(rng) != taken.data.get("draws"):
        return (taken.version, "the draws the action records are not the ones the seed gives"), span, None
    for offset, expected in enumerate(decided.events):
        if offset >= len(recorded) or not _same(recorded[offset], expected):
            version = recorded[offset].version if offset < len(recorded) else taken.version + offset + 1
            reason = f"re-deciding the action at {taken.version} gives a different {expected.type}"
            return (version, reason), span, None
    if len(recorded) != len(decided.events):
        return (recorded[len(decided.events)].version, "events follow the action that it does not produce"), span, None
    return None, span, decided.state
