"""Table chat: two channels per game, ``seats`` and ``spectators``.

Who may post: on ``seats``, a caller holding a seat of the game (its seat token, or the
key of the player holding it); on ``spectators``, a player watching (a player key whose
player holds no seat). Anonymous spectators read but cannot post.

Who may read: ``seats`` is public (spectators too); ``spectators`` is read by everyone
who holds no seat, and by the seats only once the game is finished, so that nobody in
play hears what the watchers say about their hands.

A message is plain text, stripped, 1 to ``MAX_TEXT`` characters, with no control
character but the newline (``TEXT_RULE``); the API returns it as it was sent, and a
client shows it as text, never as HTML.

Messages are kept by a ``ChatLog`` beside the game (``stores.chat.RedisChatLog``: a
stream among the game's keys), never in the game's log: the hash chain, the audit and the
replay do not see them. It keeps about the latest ``KEPT`` messages. A message's id is
its entry id there (``<ms>-<seq>``), and its time is that id's (the store's clock).

Each author (a player, or a seat played by token) posts at most ``RATE_LIMIT`` messages
in ``RATE_WINDOW_SECONDS`` in a game: a cell rate (GCRA) of ``RATE_LIMIT`` at once from
rest, then one every ``RATE_WINDOW_SECONDS / RATE_LIMIT``. The store checks and writes at
once: a refused post stores nothing.

A posted message is noted in the inbox (``projections.inbox``) of every player holding a
seat of the game who may read it, except its author, and sent to those players' webhooks
that take ``chat`` (``core.webhooks``).
"""

from __future__ import annotations

import abc
import json
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from core.errors import Code, CommandError
from core.webhooks import Webhooks
from events.store import stamp_ms
from projections.inbox import Inbox
from projections.table import Table

SEATS, SPECTATORS = "seats", "spectators"
CHANNELS = (SEATS, SPECTATORS)
PART = "chat"  # the chat's name among the game's keys (``EventStore.wait_for_either`` reads it too)
MAX_TEXT = 500
KEPT = 10_000
RATE_LIMIT = 5
RATE_WINDOW_SECONDS = 10
PAGE = 100
MAX_PAGE = 500
TEXT_RULE = (
    f"A chat message is plain text of 1 to {MAX_TEXT} characters once stripped of the whitespace "
    "around it, with no control character but the newline."
)
CURSOR = re.compile(r"0|\d{1,20}-\d{1,20}")  # "0": from the oldest message kept


@dataclass(frozen=True)
class Author:
    """Who posts: a seat (with the player holding it, if any), or a player watching."""

    seat: int | None
    name: str
    player: str | None

    @property
    def rate_key(self) -> str:
        return self.player if self.player is not None else f"seat-{self.seat}"

    def as_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "player": self.player}


def clean_text(text: str) -> str:
    """``text`` stripped, if it keeps ``TEXT_RULE``; ``invalid_request`` with the rule otherwise."""
    stripped = text.strip()
    if not stripped:
        raise CommandError(Code.INVALID_REQUEST, "The message is empty.", rule=TEXT_RULE)
    if len(stripped) > MAX_TEXT:
        raise CommandError(
            Code.INVALID_REQUEST, f"The message is {len(stripped)} characters, over {MAX_TEXT}.", rule=TEXT_RULE
        )
    bad = next((c for c in stripped if c != "\n" and unicodedata.category(c) == "Cc"), None)
    if bad is not None:
        raise CommandError(
            Code.INVALID_REQUEST, f"The message holds a control character (U+{ord(bad):04X}).", rule=TEXT_RULE
        )
    return stripped


def seat_of(table: Table, seat: int | None, player_id: str | None) -> int | None:
    """The caller's seat as the table stands now: a seat token's own, or the seat a
    player key's player holds (None: it watches)."""
    if seat is not None or player_id is None:
        return seat
    return next((i for i, held in enumerate(table.seats) if held.player == player_id), None)


def readable(table: Table, seat: int | None) -> tuple[str, ...]:
    """The channels a caller in ``seat`` (None: watching) may read in the game as it is."""
    if seat is None or table.status == "finished":
        return CHANNELS
    return (SEATS,)


def channels_asked(table: Table, seat: int | None, channel: str | None) -> tuple[str, ...]:
    """The channels a read asks for (None: every one the caller may read); 403 for a
    channel the caller may not read, 422 for one that does not exist."""
    allowed = readable(table, seat)
    if channel is None:
        return allowed
    if channel not in CHANNELS:
        raise CommandError(Code.INVALID_REQUEST, "channel must be seats or spectators.")
    if channel not in allowed:
        raise CommandError(
            Code.FORBIDDEN, "The spectators' channel opens to the seats once the game is finished.", channel=channel
        )
    return (channel,)


def author_of(table: Table, channel: str, seat: int | None, player: dict[str, Any] | None) -> Author:
    """Who posts on ``channel``: 401 for an anonymous caller, 403 for a caller who may
    not post there."""
    if channel == SEATS:
        if seat is None:
            if player is not None:
                raise CommandError(
                    Code.NOT_YOUR_SEAT,
                    "Your player holds no seat in this game: players watching post on the spectators channel.",
                )
            raise CommandError(Code.UNAUTHORIZED, "Only the seats post on the seats channel; send a seat token.")
        held = table.seats[seat]
        return Author(seat, held.name or f"seat {seat}", held.player)
    if channel == SPECTATORS:
        if seat is not None:
            raise CommandError(Code.FORBIDDEN, "A seat posts on the seats channel, not the spectators'.")
        if player is None:
            raise CommandError(Code.UNAUTHORIZED, "Anonymous spectators cannot post; send your player key.")
        return Author(None, str(player["name"]), str(player["id"]))
    raise CommandError(Code.INVALID_REQUEST, "channel must be seats or spectators.")


def entry_time(entry_id: str) -> str:
    """The ISO time (ms, UTC) of a stream entry id: its first part is Redis's clock in ms."""
    millis = int(entry_id.split("-", 1)[0])
    return stamp_ms(millis)


def check_cursor(after: str) -> str:
    if CURSOR.fullmatch(after) is None:
        raise CommandError(
            Code.INVALID_REQUEST, "after must be a chat message id (digits-digits), or 0 for the oldest."
        )
    return after


class RateRefused(Exception):
    """A post its author's rate does not allow yet: ``wait_ms`` until one would be."""

    def __init__(self, wait_ms: int) -> None:
        super().__init__(f"wait {wait_ms} ms")
        self.wait_ms = wait_ms


class ChatLog(abc.ABC):
    """Where a game's chat is kept, each message as its JSON text under its entry id."""

    @abc.abstractmethod
    def key(self, game_id: str) -> str:
        """The name the game's chat is kept under."""

    @abc.abstractmethod
    def append(self, game_id: str, author: str, message: str, window_ms: int, limit: int, kept: int) -> str:
        """Keep ``message`` if ``author`` has posted fewer than ``limit`` in the last
        ``window_ms`` by a cell rate, and only about the latest ``kept`` messages: the
        check and the write at once. Its entry id; ``RateRefused``, storing nothing, when
        the rate refuses it."""

    @abc.abstractmethod
    def entries(self, game_id: str, after: str = "0", count: int | None = None) -> list[tuple[str, str]]:
        """Up to ``count`` (None: every one) messages after the entry id ``after`` ("0": from
        the oldest kept), oldest first: (entry id, message)."""

    @abc.abstractmethod
    def last_id(self, game_id: str) -> str:
        """The newest message's id ("0-0" when there is none)."""

    @abc.abstractmethod
    def restore(self, game_id: str, entries: Sequence[tuple[str, str]], kept: int) -> None:
        """Write ``entries`` (entry id, message) under their own ids, in one round trip."""

    @abc.abstractmethod
    def message_of(self, fields: Mapping[str, str]) -> str:
        """The message in an entry's fields, as a read of the game's keys gives them
        (``EventStore.wait_for_either``)."""


class ChatWiring(Protocol):
    """What a ``Chat`` is made of, as the platform (``stores.platform``) holds them."""

    @property
    def chat_log(self) -> ChatLog: ...

    @property
    def inbox(self) -> Inbox: ...

    @property
    def webhooks(self) -> Webhooks: ...


class Chat:
    """A game's chat in its ``ChatLog``, and the notices of each message."""

    def __init__(
        self,
        log: ChatLog,
        inbox: Inbox,
        webhooks: Webhooks | None = None,
        blocks: Callable[[str], set[str]] | None = None,
    ) -> None:
        self.log = log
        self.inbox = inbox
        self.webhooks = webhooks
        self.blocks = blocks  # the players a player blocks (core.moderation): told nothing of theirs

    @classmethod
    def of(cls, platform: ChatWiring) -> Chat:
        moderation = getattr(platform, "moderation", None)  # (a platform without moderation blocks no one)
        return cls(platform.chat_log, platform.inbox, platform.webhooks, moderation.blocks if moderation else None)

    def key(self, game_id: str) -> str:
        return self.log.key(game_id)

    def post(
        self, table: Table, channel: str, text: str, seat: int | None, player: dict[str, Any] | None
    ) -> dict[str, Any]:
        """Store a message of the caller (``seat``, None when it watches, and its
        ``player``) and note it in the inboxes of the seated players who may read it."""
        author = author_of(table, channel, seat, player)
        stored = {"channel": channel, "from": author.as_json(), "text": clean_text(text)}
        window_ms = RATE_WINDOW_SECONDS * 1000
        try:
            entry_id = self.log.append(table.game_id, author.rate_key, json.dumps(stored), window_ms, RATE_LIMIT, KEPT)
        except RateRefused as refused:
            seconds = max(1, math.ceil(refused.wait_ms / 1000))
            raise CommandError(
                Code.RATE_LIMITED,
                f"At most {RATE_LIMIT} messages in {RATE_WINDOW_SECONDS} s in a game; wait {seconds} s.",
                retry_after=seconds,
            ) from None
        message = self._message(entry_id, stored)
        notice = {"type": "chat", "game": table.game_id, "kind": table.kind, "channel": channel, "message": message}
        told = []
        for index, held in enumerate(table.seats):
            if held.player is not None and held.player != author.player and channel in readable(table, index):
                if author.player is not None and self.blocks is not None and author.player in self.blocks(held.player):
                    continue
                self.inbox.push(held.player, notice)
                told.append((held.player, notice))
        if self.webhooks is not None:
            self.webhooks.notify(told)
        return message

    def read(
        self, game_id: str, channels: Iterable[str], after: str = "0", limit: int = PAGE
    ) -> tuple[list[dict[str, Any]], str]:
        """Up to ``limit`` messages of ``channels`` after the id ``after``, oldest first,
        and the id to read on from (past any message of another channel)."""
        wanted, cursor = set(channels), after
        found: list[dict[str, Any]] = []
        while len(found) < limit:
            batch = self.log.entries(game_id, cursor, max(limit, PAGE))
            if not batch:
                break
            for entry_id, text in batch:
                cursor = entry_id
                message = self._message(entry_id, json.loads(text))
                if message["channel"] in wanted:
                    found.append(message)
                    if len(found) == limit:
                        break
        return found, cursor

    def last_id(self, game_id: str) -> str:
        """The newest message's id ("0-0" when there is none): where a live stream starts."""
        return self.log.last_id(game_id)

    def decode(self, entry_id: str, fields: dict[str, str]) -> dict[str, Any]:
        return self._message(entry_id, json.loads(self.log.message_of(fields)))

    @staticmethod
    def _message(entry_id: str, stored: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": entry_id,
            "channel": stored["channel"],
            "from": stored["from"],
            "text": stored["text"],
            "at": entry_time(entry_id),
        }

    def export(self, game_id: str) -> list[dict[str, Any]]:
        """Every message kept, oldest first, as the API shows them."""
        return [self._message(entry_id, json.loads(text)) for entry_id, text in self.log.entries(game_id)]

    def restore(self, game_id: str, messages: list[dict[str, Any]]) -> None:
        """Write exported ``messages`` (checked by ``checked_export``) into a game with no
        chat, under their own ids."""
        if not messages:
            return
        entries = [
            (message["id"], json.dumps({key: message[key] for key in ("channel", "from", "text")}))
            for message in messages
        ]
        self.log.restore(game_id, entries, KEPT)


def checked_export(messages: Any) -> list[dict[str, Any]]:
    """An export's chat, each message as ``Chat.export`` writes it, in increasing ids;
    ``invalid_request`` naming the first that is not."""
    if not isinstance(messages, list):
        raise CommandError(Code.INVALID_REQUEST, "The header's chat must be a list of messages.")
    out: list[dict[str, Any]] = []
    previous = (0, 0)
    for index, message in enumerate(messages):
        problem = _message_problem(message)
        if problem is None:
            ms, seq = (int(part) for part in message["id"].split("-"))
            if (ms, seq) <= previous:
                problem = "its id is not after the one before"
            previous = (ms, seq)
        if problem is not None:
            raise CommandError(Code.INVALID_REQUEST, f"The header's chat message {index + 1}: {problem}.")
        out.append(message)
    return out


def _message_problem(message: Any) -> str | None:
    if not isinstance(message, dict):
        return "not an object"
    entry_id, sender, text = message.get("id"), message.get("from"), message.get("text")
    if not isinstance(entry_id, str) or re.fullmatch(r"\d{1,20}-\d{1,20}", entry_id) is None or entry_id == "0-0":
        return "its id is not a stream entry id"
    if message.get("channel") not in CHANNELS:
        return "its channel is not seats or spectators"
    if not isinstance(sender, dict) or set(sender) != {"seat", "name", "player"}:
        return "its from is not {seat, name, player}"
    seat = sender["seat"]
    if not (seat is None or (isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0)):
        return "its seat is not a seat number or null"
    if not isinstance(sender["name"], str) or not isinstance(sender["player"], (str, type(None))):
        return "its name or player is not text"
    if not isinstance(text, str):
        return "its text is not text"
    try:
        if clean_text(text) != text:
            return "its text is not stripped"
    except CommandError as error:
        return error.detail.rstrip(".")
    return None
