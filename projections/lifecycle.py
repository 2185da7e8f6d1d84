"""How a game ends besides its rules, and its clocks, as folded from the log.

A game's lifecycle settings are chosen at creation and kept in its ``GameCreated``
(``lifecycle``); a game stored before them has none, and keeps the old behaviour:

* ``on_leave``: what becomes of a seat that resigns, runs out of time or is abandoned in
  a game of more than two seats still competing: ``out`` (the default: a bot makes its
  moves so that the rules can go on, and the seat can no longer win) or ``bot`` (a bot
  takes the seat over and plays to win; the win is the bot's, never the player's).
  Where only one competitor would be left, that one wins.
* ``abandon_after``: with a per-turn limit, a seat whose turn the timer played this many
  times in a row has abandoned the game (None: never).
* ``clock``: ``{"initial": seconds, "increment": seconds}``, a Fischer clock per seat, or
  None. Kept from the log's own timestamps (``Envelope.at``): a seat's clock runs while
  the seat is to act, and its move adds the increment.
* ``open_seconds``: a game with a seat still open this long after its creation is aborted.

The platform events (see ``projections.table``): ``Resigned``, ``Aborted``, ``FlagFell``
(a clock ran out) and ``Abandoned``. A game that ends by one of them is followed by its
``SeedRevealed``, whose outcome says how it ended (``ending``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from events.store import stamp_ms as iso

if TYPE_CHECKING:
    from projections.table import Table

ON_LEAVE = ("out", "bot")
ABANDON_AFTER = 3
OPEN_SECONDS = 7 * 24 * 3600  # as long as an invite code lasts
ENDINGS = ("rules", "resignation", "abort", "time", "abandonment", "agreement")
LEAVING_EVENTS = {"Resigned": "resignation", "FlagFell": "time", "Abandoned": "abandonment"}


RESULTS = 2
"""What counts as a result: from revision 2, a game that ends other than by its rules (a
resignation, a flag, a seat that left) before every seat but the bots has moved by itself
counts for nothing, as an abort: a result nobody played for is no result."""


def settings(
    turn_seconds: int | None,
    clock: Mapping[str, Any] | None = None,
    on_leave: str = "out",
    abandon_after: int | None = ABANDON_AFTER,
    open_seconds: int = OPEN_SECONDS,
) -> dict[str, Any]:
    """A new game's lifecycle record (checked by the caller). ``results`` is the revision of
    what counts as a result (``final_outcome``): games made before it was recorded keep
    revision 1, so their outcomes audit as they were written."""
    return {
        "results": RESULTS,
        "on_leave": on_leave,
        "abandon_after": abandon_after if turn_seconds else None,
        "clock": None if clock is None else {"initial": int(clock["initial"]), "increment": int(clock["increment"])},
        "open_seconds": open_seconds,
    }


def ms(at: str) -> int:
    """An envelope's ``at`` (ISO 8601, milliseconds, Z) in milliseconds since the epoch."""
    return round(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() * 1000)


@dataclass(frozen=True)
class Clock:
    """Each seat's time left (ms) as of ``since`` for a running seat (ms since the epoch,
    None when its clock stands)."""

    initial: int
    increment: int
    remaining: tuple[int, ...]
    since: tuple[int | None, ...]

    @staticmethod
    def start(setting: Mapping[str, Any], seats: int) -> Clock:
        initial = int(setting["initial"]) * 1000
        return Clock(initial, int(setting["increment"]) * 1000, (initial,) * seats, (None,) * seats)

    def left(self, seat: int, now_ms: int) -> int:
        """The seat's time left at ``now_ms``."""
        since = self.since[seat]
        return self.remaining[seat] - (0 if since is None else max(0, now_ms - since))

    def running(self) -> list[int]:
        return [s for s, since in enumerate(self.since) if since is not None]

    def deadline(self, seat: int) -> int | None:
        """When the seat's time runs out, if its clock runs (ms since the epoch)."""
        since = self.since[seat]
        return None if since is None else since + self.remaining[seat]

    def moved(self, seat: int, at_ms: int) -> Clock:
        """The seat moved at ``at_ms``: its time spent is taken and the increment added;
        its clock stands until it is to act again."""
        remaining, since = list(self.remaining), list(self.since)
        remaining[seat] = self.left(seat, at_ms) + self.increment
        since[seat] = None
        return Clock(self.initial, self.increment, tuple(remaining), tuple(since))

    def follow(self, to_act: Sequence[int], at_ms: int) -> Clock:
        """The seats to act now are ``to_act``: a seat that stops acting has its time
        spent taken; one that starts acting has its clock started."""
        remaining, since = list(self.remaining), list(self.since)
        for seat in range(len(since)):
            if seat in to_act and since[seat] is None:
                since[seat] = at_ms
            elif seat not in to_act and since[seat] is not None:
                remaining[seat] = self.left(seat, at_ms)
                since[seat] = None
        return Clock(self.initial, self.increment, tuple(remaining), tuple(since))

    def as_json(self, now_ms: int | None = None) -> dict[str, Any]:
        """What every view shows: each seat's time left at the last event (``remaining_ms``),
        whose clocks run and since when; and, given ``now_ms``, the time left then."""
        out: dict[str, Any] = {
            "initial_seconds": self.initial // 1000,
            "increment_seconds": self.increment // 1000,
            "remaining_ms": list(self.remaining),
            "running": self.running(),
            "since": [None if s is None else iso(s) for s in self.since],
        }
        if now_ms is not None:
            out["left_ms"] = [max(0, self.left(s, now_ms)) for s in range(len(self.remaining))]
            out["as_of"] = iso(now_ms)
        return out


def final_outcome(
    table: Table,
    result: Mapping[str, Any],
    ending: str,
    mover: int | None = None,
    actor: str = "human",
    left: Sequence[int] = (),
) -> dict[str, Any]:
    """The rules' ``result`` made honest: how the game ended (``ending``); the moves the
    turn timer made per seat (``timeouts``); the seats that left (``left``), which never
    win; and whether the result ``counts`` for stats and ratings: not for an abort, nor
    when no winner made a move of its own and no one resigned (a game the timer decided).
    ``mover``/``actor``: the move that ended it, not yet folded into ``table``."""
    gone = sorted({i for i, s in enumerate(table.seats) if s.left is not None} | set(left))
    timeouts = list(table.timeouts) or [0] * len(table.seats)
    acted = set(table.acted)
    if mover is not None:
        if actor == "timeout":
            timeouts[mover] += 1
        else:
            acted.add(mover)
    winners = [w for w in result.get("winners", []) if w not in gone]
    scores = list(result.get("scores", []))
    if result.get("winners") and not winners:
        # Every winner by the rules has left: the best of those still in wins.
        staying = [i for i in range(len(table.seats)) if i not in gone]
        if staying and len(scores) == len(table.seats):
            best = max(scores[i] for i in staying)
            winners = [i for i in staying if scores[i] == best]
        elif len(staying) == 1:
            winners = staying
    # A result counts unless it was aborted, or no winner moved by itself and no one resigned
    # (a game the turn timer decided: two absent seats are not a human win).
    counts = ending != "abort" and (
        ending == "resignation" or any(w in acted or table.seats[w].bot is not None for w in winners)
    )
    if ending != "rules" and int((table.lifecycle or {}).get("results", 1)) >= 2:
        # ``RESULTS`` 2: ended other than by its rules before every seat but the bots moved (a
        # seat that left is played by a bot after, but was no bot: it must have moved too).
        counts = counts and all(
            i in acted or (seat.bot is not None and seat.left is None) for i, seat in enumerate(table.seats)
        )
    return {
        **dict(result),
        "winners": sorted(winners),
        "scores": scores,
        "ending": ending,
        "left": gone,
        "timeouts": timeouts,
        "counts": bool(counts),
    }


AGREED = "The seats still in agreed to end the game with a shared result."


# The kinds whose rules can never end with a result shared by the seats still in, and why
# (each kind's RULINGS.md, "Agreed endings"). An agreement gives every seat still in the
# same result, so it is refused where the rules know no such result; every other kind's
# outcome can name several winners, or none.
NO_SHARED_RESULT = {
    "fortress-siege": "In fortress-siege the game ends when all but one Fortress has fallen: "
    "exactly one seat wins, so the rules know no shared result to agree on.",
}
NO_TURN_LIMIT = (
    "In stomping-grounds without a turn limit only the player whose turn ends with no cards left "
    "wins: the rules know no shared result to agree on (a game with a turn_limit may end shared)."
)


def shared_result_refusal(table: Table) -> str | None:
    """Why the seats of ``table`` cannot agree to end it with a shared result, or None when
    they may: its kind's rules must be able to end with several winners or none. In
    stomping-grounds only a turn limit (an option, and revision 1's default) can end a game
    that way; its state says whether the game has one."""
    if table.kind == "stomping-grounds":
        return NO_TURN_LIMIT if getattr(table.state, "turn_limit", None) is None else None
    return NO_SHARED_RESULT.get(table.kind)


def leaving_reason(ending: str, seat: int, staying: Sequence[int]) -> str:
    """The outcome's sentence when a seat's leaving ends the game."""
    who = f"Seat {seat + 1}"
    won = f"; seat {staying[0] + 1} wins" if staying else ""
    return {
        "resignation": f"{who} resigned{won}.",
        "time": f"{who} ran out of time{won}.",
        "abandonment": f"{who} abandoned the game{won}.",
    }[ending]


def ending_outcome(before: Table, ended_by: Any, rules_result: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The outcome a ``SeedRevealed`` must hold (what an audit checks): ``before`` is the
    table folded up to it; ``ended_by`` the envelope just before it (a ``Resigned``,
    ``FlagFell``, ``Abandoned`` or ``Aborted`` ends the game by itself); ``rules_result``
    the rules' outcome of the state. A game without lifecycle settings keeps the rules'."""
    kind = getattr(ended_by, "type", None)
    if kind == "Aborted":
        reason = str(ended_by.data.get("reason", ""))
        return final_outcome(before, {"winners": [], "scores": [], "reason": reason}, "abort")
    if kind == "DrawAgreed":
        staying = before.competing()
        return final_outcome(before, {"winners": staying, "scores": [], "reason": AGREED}, "agreement")
    if kind in LEAVING_EVENTS:
        seat = int(ended_by.data["seat"])
        staying = before.competing()
        ending = LEAVING_EVENTS[kind]
        result = {"winners": staying, "scores": [], "reason": leaving_reason(ending, seat, staying)}
        return final_outcome(before, result, ending)
    if rules_result is None:
        return None
    return dict(rules_result) if before.lifecycle is None else final_outcome(before, rules_result, "rules")
