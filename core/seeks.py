"""Matchmaking: seeks, and automatch by a worker.

A player seeks a game of a kind: its seat count, a clock (or none), rated or not, and how
far from its own rating an opponent may be (``width``; none: anyone). Each seek records the
seeker's rating for the kind as it seeks (1500 without one). Seeks of one kind that agree
on seats, clock and rating, whose seekers' ratings each lie within every other's width,
and between whom no block stands, are compatible. The worker (``workers.matchmaking``)
looks at a kind's open seeks as they arrive: the oldest first, it seats with it the
compatible seeks of the closest ratings, takes them all at once (a seek taken is in one
game only), creates the game (its seats in an order drawn at random) under a command id
made from the seeks, and tells each seeker on its stream (``seek_filled``). A seek lasts
``SEEK_SECONDS``; its seeker may cancel it until it is taken. A player seeking again what
it seeks already (the same ``spec``) is given its open seek back: a client's retry makes one.
"""

from __future__ import annotations

import abc
import hashlib
import json
import secrets
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from core.errors import Code, CommandError

SEEK_SECONDS = 30 * 60
LEFT_SECONDS = 60  # a match taken this long ago with no game recorded: its worker died
OPEN_PER_PLAYER = 3  # a player's open seeks of one kind
MAX_WIDTH = 1000


class SeekStore(abc.ABC):
    @abc.abstractmethod
    def add(self, seek: dict[str, Any], limit: int, fresh_ms: int) -> str | None:
        """Keep ``seek`` open, unless its player has an open seek of the same ``spec`` (made
        at ``fresh_ms`` or later): the id of the one open, or None (nothing written) when the
        player has ``limit`` fresh open seeks of the kind."""

    @abc.abstractmethod
    def get(self, seek_id: str) -> dict[str, Any] | None: ...

    @abc.abstractmethod
    def open_seeks(self, kind: str) -> list[dict[str, Any]]:
        """The kind's open seeks, oldest first."""

    @abc.abstractmethod
    def lobby(self, kind: str, fresh_ms: int, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        """How many open seeks of the kind were made at ``fresh_ms`` or later, and a page of
        them, newest first."""

    @abc.abstractmethod
    def cancel(self, seek: dict[str, Any], status: str = "cancelled") -> bool:
        """Close an open seek with ``status``; False when it is no longer open (taken, or gone)."""

    @abc.abstractmethod
    def take(self, kind: str, seek_ids: Sequence[str], match: str, now_ms: int) -> bool:
        """Take every one of ``seek_ids`` for the match ``match`` at once; False (nothing
        changed) when any is no longer open."""

    @abc.abstractmethod
    def matching(self, kind: str, before_ms: int) -> list[list[dict[str, Any]]]:
        """The seeks taken for a match before ``before_ms`` whose game is not recorded yet,
        match by match."""

    @abc.abstractmethod
    def filled(self, kind: str, seek_ids: Sequence[str], game_id: str) -> None:
        """Record the game the taken seeks became."""

    @abc.abstractmethod
    def expire(self, kind: str, before_ms: int) -> int:
        """Close the kind's open seeks made before ``before_ms`` (``expired``); how many."""

    @abc.abstractmethod
    def rating(self, kind: str, player_id: str) -> int:
        """The player's current rating for the kind (``projections.ratings``), 1500 without one."""


class MatchRunner(Protocol):
    def schedule(self, kind: str) -> None:
        """Have a worker match the kind's open seeks (``workers.matchmaking.match``)."""
        ...


class NoMatchRunner:
    def schedule(self, kind: str) -> None:
        raise CommandError(Code.UNAVAILABLE, "No job runner is configured for this service; seeks cannot be matched.")


def new_id() -> str:
    return "sk_" + secrets.token_urlsafe(9).replace("-", "x")


def spec(seek: dict[str, Any]) -> str:
    """What a seek asks for: two seeks of one player with the same spec are one seek."""
    return json.dumps([seek["players"], seek["clock"], seek["rated"], seek["width"]], sort_keys=True)


def status(seek: dict[str, Any], now_ms: int) -> str:
    """The seek's status as of ``now_ms``: an open seek past its time has expired, whether or
    not the sweep has closed it yet."""
    if seek["status"] == "open" and seek["created_ms"] < now_ms - SEEK_SECONDS * 1000:
        return "expired"
    return str(seek["status"])


def match_id(seek_ids: Sequence[str]) -> str:
    """The match's id, and its game's command id: the same seeks make the same game once."""
    return "match-" + hashlib.sha256("|".join(sorted(seek_ids)).encode()).hexdigest()[:24]


def compatible(one: dict[str, Any], other: dict[str, Any], blocked: Callable[[str, str], bool]) -> bool:
    if one["player"]["id"] == other["player"]["id"]:
        return False
    if (one["kind"], one["players"], one["clock"], one["rated"]) != (
        other["kind"],
        other["players"],
        other["clock"],
        other["rated"],
    ):
        return False
    apart = abs(one["rating"] - other["rating"])
    if one["width"] is not None and apart > one["width"]:
        return False
    if other["width"] is not None and apart > other["width"]:
        return False
    return not blocked(one["player"]["id"], other["player"]["id"])


def plan(seeks: Sequence[dict[str, Any]], blocked: Callable[[str, str], bool]) -> list[list[dict[str, Any]]]:
    """Groups of seeks to seat together: each the oldest seek left, with the compatible
    seeks of the ratings closest to its own (each compatible with every other in the
    group), as many as its seats need; seeks that find no group wait."""
    left = list(seeks)
    groups = []
    while left:
        first = left.pop(0)
        group = [first]
        for candidate in sorted(left, key=lambda s: (abs(s["rating"] - first["rating"]), s["created_ms"])):
            if len(group) == first["players"]:
                break
            if all(compatible(candidate, member, blocked) for member in group):
                group.append(candidate)
        if len(group) == first["players"]:
            groups.append(group)
            left = [s for s in left if s not in group]
    return groups
