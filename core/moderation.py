"""Moderation: what a player may do about another, and what the operator does about reports.

* **Block** (``PUT /v1/players/me/blocks/{name}``): for good, until unblocked. The blocked
  player cannot reserve a seat for the blocker (an invitation by name), is never matched
  with it by automatch, and its chat messages reach the blocker nowhere (the chat page,
  the game's stream, the inbox). The blocked player is not told.
* **Mute** (``PUT /v1/games/{id}/mutes/{name}``): one game's chat from that player, for the
  caller only, in that game only.
* **Report** (``POST /v1/reports``): a player reports another with a reason from
  ``REASONS``, optionally a game and a few words. A reporter has at most ``OPEN_REPORTS``
  reports open at once (a flood of reports is refused, not stored). Only the operator reads
  them (``GET /v1/reports``) and resolves each: dismissed, or the player closed.
* **Close** (``POST /v1/players/{name}/close``, the operator's): the player's key stops at
  once and no other is issued (as a revocation), and its profile says it was closed.

What a block hides is filtered where the message is read, so a block applies to every
message already kept as well as to those to come. The store is a ``ModerationStore``
(``stores.moderation.RedisModerationStore``).
"""

from __future__ import annotations

import abc
import secrets
from datetime import UTC, datetime
from typing import Any

from core.errors import Code, CommandError
from events.store import stamp

REASONS = ("cheating", "abuse", "spam", "stalling", "impersonation", "other")
OPEN_REPORTS = 5
MAX_BLOCKS = 1000
MAX_NOTE = 500
RESOLUTIONS = ("dismissed", "closed")


class ModerationStore(abc.ABC):
    @abc.abstractmethod
    def block(self, player_id: str, other_id: str, limit: int) -> bool:
        """Add ``other_id`` to ``player_id``'s blocks; False (nothing written) at ``limit``."""

    @abc.abstractmethod
    def unblock(self, player_id: str, other_id: str) -> None: ...

    @abc.abstractmethod
    def blocks(self, player_id: str) -> set[str]: ...

    @abc.abstractmethod
    def mute(self, game_id: str, player_id: str, other_id: str) -> None: ...

    @abc.abstractmethod
    def unmute(self, game_id: str, player_id: str, other_id: str) -> None: ...

    @abc.abstractmethod
    def mutes(self, game_id: str, player_id: str) -> set[str]: ...

    @abc.abstractmethod
    def file_report(self, report: dict[str, Any], limit: int) -> bool:
        """Keep ``report`` open; False (nothing written) when its reporter has ``limit`` open."""

    @abc.abstractmethod
    def reports(self, status: str, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        """A page of the reports of ``status`` (open or resolved), oldest first, and their count."""

    @abc.abstractmethod
    def resolve(self, report_id: str, resolution: dict[str, Any]) -> dict[str, Any] | None:
        """Mark an open report resolved; the report, or None for an unknown or resolved one."""


class Moderation:
    def __init__(self, store: ModerationStore) -> None:
        self.store = store

    def block(self, player: dict[str, Any], other: dict[str, Any]) -> None:
        if other["id"] == player["id"]:
            raise CommandError(Code.INVALID_REQUEST, "A player cannot block itself.")
        if not self.store.block(player["id"], other["id"], MAX_BLOCKS):
            raise CommandError(Code.INVALID_REQUEST, f"A player blocks at most {MAX_BLOCKS} others.")

    def unblock(self, player: dict[str, Any], other: dict[str, Any]) -> None:
        self.store.unblock(player["id"], other["id"])

    def blocks(self, player_id: str) -> set[str]:
        return self.store.blocks(player_id)

    def blocked_between(self, one: str, other: str) -> bool:
        """Whether either player blocks the other (automatch and invitations keep them apart)."""
        return other in self.store.blocks(one) or one in self.store.blocks(other)

    def hidden_from(self, player_id: str | None, game_id: str) -> frozenset[str]:
        """The players whose chat ``player_id`` does not see in ``game_id``: those it blocks,
        and those it muted there."""
        if player_id is None:
            return frozenset()
        return frozenset(self.store.blocks(player_id) | self.store.mutes(game_id, player_id))

    def mute(self, game_id: str, player: dict[str, Any], other: dict[str, Any]) -> None:
        if other["id"] == player["id"]:
            raise CommandError(Code.INVALID_REQUEST, "A player cannot mute itself.")
        self.store.mute(game_id, player["id"], other["id"])

    def unmute(self, game_id: str, player: dict[str, Any], other: dict[str, Any]) -> None:
        self.store.unmute(game_id, player["id"], other["id"])

    def report(
        self,
        reporter: dict[str, Any],
        reported: dict[str, Any],
        reason: str,
        game: str | None,
        note: str,
        now: datetime | None = None,
    ) -> dict[str, Any]:
        if reported["id"] == reporter["id"]:
            raise CommandError(Code.INVALID_REQUEST, "A player cannot report itself.")
        if reason not in REASONS:
            raise CommandError(Code.INVALID_REQUEST, f"reason must be one of {', '.join(REASONS)}.")
        report = {
            "id": "rp_" + secrets.token_urlsafe(9).replace("-", "x"),
            "reporter": {"id": reporter["id"], "name": reporter["name"]},
            "player": {"id": reported["id"], "name": reported["name"]},
            "reason": reason,
            "game": game,
            "note": note,
            "status": "open",
            "created_at": stamp(now or datetime.now(UTC)),
        }
        if not self.store.file_report(report, OPEN_REPORTS):
            raise CommandError(
                Code.RATE_LIMITED,
                f"You have {OPEN_REPORTS} reports waiting for the operator: file more once they are resolved.",
            )
        return report

    def reports(self, status: str, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        if status not in ("open", "resolved"):
            raise CommandError(Code.INVALID_REQUEST, "status must be open or resolved.")
        return self.store.reports(status, offset, limit)

    def resolve(self, report_id: str, resolution: str, note: str, now: datetime | None = None) -> dict[str, Any]:
        if resolution not in RESOLUTIONS:
            raise CommandError(Code.INVALID_REQUEST, f"resolution must be one of {', '.join(RESOLUTIONS)}.")
        done = {"resolution": resolution, "note": note, "resolved_at": stamp(now or datetime.now(UTC))}
        report = self.store.resolve(report_id, done)
        if report is None:
            raise CommandError(Code.NOT_FOUND, f"There is no open report {report_id}.")
        return report
