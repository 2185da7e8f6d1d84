"""Live event streams, read once per game and shared.

Each API process keeps one reader per game that has listeners: it alone waits on the
game's log and chat (one blocking read of both, in the game's slot), folds what arrives
into the table once, and hands every listener the same batch. A batch renders each event
once per kind of viewer (a seat, or a spectator) and shares the text between every
listener of that kind; a listener only filters the chat channels it may read. With no
listener left, the reader stops after its current wait.

A listener never depends on the reader to be complete: it reads what came before it
joined from the log itself, and when a batch does not follow on from the last version it
sent (it joined mid-read, or fell behind and had batches dropped), it reads the gap from
the log too. So a stream sends every version once, in order, whatever the timing."""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from redis import RedisError

from core import chat as chats
from core.chat import Chat
from core.errors import log_damaged
from events.envelope import Envelope
from events.store import EventStore, LogDamaged
from projections.table import Table
from projections.views import event_for
from service.http import problem_body
from stores.platform import Platform

PAGE = 1000
# Batches a listener may have waiting; a client that reads slower than its game moves has
# the rest dropped, and reads them back from the log when it next sends.
BACKLOG = 64
RETRY_SECONDS = 1.0
LOG = logging.getLogger(__name__)


@dataclass
class Batch:
    """What one wake of a game's reader brought: new events (with the table after them),
    new chat messages, or the news that the store could not be read."""

    envelopes: list[Envelope]
    table: Table
    said: list[dict[str, Any]]
    failed: bool = False
    _texts: dict[tuple[int, int | None], str] = field(default_factory=dict)

    def text(self, envelope: Envelope, seat: int | None, seed: str | None = None) -> str:
        """The event as ``seat`` sees it, as one SSE message: made by the first listener
        of that kind to ask, shared by the rest (a seat's ``seed`` opens its own values,
        and is the game's whoever asks)."""
        key = (envelope.version, seat)
        made = self._texts.get(key)
        if made is None:
            made = self._texts[key] = sse(self.table, envelope, seat, seed)
        return made


def sse(table: Table, envelope: Envelope, seat: int | None, seed: str | None = None) -> str:
    shown = json.dumps(event_for(table, envelope, seat, seed))
    return f"id: {envelope.version}\nevent: {envelope.type}\ndata: {shown}\n\n"


class Listener:
    def __init__(self) -> None:
        self.batches: queue.Queue[Batch] = queue.Queue(maxsize=BACKLOG)
        self.ended = False

    def end(self, wake: Batch) -> None:
        """The server is stopping: the stream ends once it has sent what it was handed
        (``wake``, with nothing in it, only wakes a listener that waits)."""
        self.ended = True
        self.offer(wake)  # one whose queue is full finds a batch at once anyway

    def offer(self, batch: Batch) -> None:
        try:
            self.batches.put_nowait(batch)
        except queue.Full:
            pass  # it reads the gap from the log when it catches up

    def next(self, timeout: float) -> Batch | None:
        try:
            return self.batches.get(timeout=timeout)
        except queue.Empty:
            return None


class GameReader:
    """The one reader of a game in this process."""

    def __init__(self, hub: Hub, table: Table, heard: str) -> None:
        self.hub = hub
        self.game_id = table.game_id
        self.table = table
        # The last version read. The table may be newer: this process's cache can hold
        # versions its own requests appended that the log has not been read up to yet.
        self.version = table.version
        self.heard = heard
        self.listeners: set[Listener] = set()

    def run(self) -> None:
        p = self.hub.platform
        while self.hub.keep(self):
            try:
                envelopes, said = p.store.wait_for_either(
                    self.game_id, self.version, chats.PART, self.heard, self.hub.wait_seconds, limit=PAGE
                )
            except Exception as error:  # the one reader of its listeners must not die
                # A store away (RedisError), or a connection closed under the read (a
                # ValueError from the client's buffer, seen when a cluster node goes):
                # listeners hear the store is away and the read is tried again.
                if not isinstance(error, RedisError):
                    LOG.warning("stream reader of %s: %r; reading again", self.game_id, error)
                self.hub.publish(self, Batch([], self.table, [], failed=True))
                threading.Event().wait(RETRY_SECONDS)
                continue
            if not envelopes and not said:
                continue
            if envelopes:
                self.table = p.tables.follow(self.table, envelopes)
                self.version = envelopes[-1].version
            if said:
                self.heard = said[-1][0]
            messages = [self.hub.chat.decode(entry_id, fields) for entry_id, fields in said]
            self.hub.publish(self, Batch(envelopes, self.table, messages))


class Hub:
    """The readers of this process, by game."""

    def __init__(self, platform: Platform, chat: Chat, wait_seconds: float) -> None:
        self.platform = platform
        self.chat = chat
        self.wait_seconds = wait_seconds
        self._readers: dict[str, GameReader] = {}
        self._lock = threading.Lock()
        self.ending = False

    def end_streams(self) -> None:
        """The server is stopping: every stream ends now, after the events it was already
        handed, rather than holding its connection for the graceful time. Its client
        reconnects (to another server) from the last version it got, as it would after a
        dropped connection; a stream that opens from now on ends after its catch-up."""
        with self._lock:
            self.ending = True
            found = [(reader.table, list(reader.listeners)) for reader in self._readers.values()]
        for table, listeners in found:
            for listener in listeners:
                listener.end(Batch([], table, []))

    def join(self, table: Table, listener: Listener) -> GameReader:
        heard = self.chat.last_id(table.game_id)  # read before the lock: no wait is held under it
        with self._lock:
            listener.ended = self.ending
            reader = self._readers.get(table.game_id)
            started = reader is None
            if reader is None:
                reader = self._readers[table.game_id] = GameReader(self, table, heard)
            reader.listeners.add(listener)
        if started:
            threading.Thread(target=reader.run, name=f"stream {table.game_id}", daemon=True).start()
        return reader

    def leave(self, reader: GameReader, listener: Listener) -> None:
        with self._lock:
            reader.listeners.discard(listener)

    def keep(self, reader: GameReader) -> bool:
        """Whether ``reader`` goes on reading; one with no listener left is let go."""
        with self._lock:
            if reader.listeners:
                return True
            if self._readers.get(reader.game_id) is reader:
                del self._readers[reader.game_id]
            return False

    def publish(self, reader: GameReader, batch: Batch) -> None:
        with self._lock:
            listeners = list(reader.listeners)
        for listener in listeners:
            listener.offer(batch)

    def readers(self) -> int:
        with self._lock:
            return len(self._readers)


def first_page(store: EventStore, opened: Table, after: int) -> list[Envelope]:
    """The first page a stream from ``after`` sends, read before it answers, so that a log
    that lost any of it (its tail, say) is answered ``log_damaged`` as ``/replay`` is, not
    streamed up to the cut. Raises ``LogDamaged``."""
    return store.read_span(opened.game_id, after, min(opened.version, after + PAGE))


def follow(
    hub: Hub,
    opened: Table,
    after: int,
    seat: int | None,
    watcher: str | None,
    heartbeat: float,
    first: list[Envelope] | None = None,
    hidden: frozenset[str] = frozenset(),
) -> Iterator[str]:
    """The SSE messages of one listener of ``opened``'s game from version ``after`` on:
    the events it missed (``first``, already read, then the rest from the log), then each
    new one as it is appended, the chat it may read, and a heartbeat comment when nothing
    happened for ``heartbeat`` seconds; no chat of a player in ``hidden`` (those the
    listener blocks or muted, as the stream opened). A finished game's stream ends once everything is
    sent; so does one whose log turns out to lack a version, with an ``event: problem``
    holding the ``log_damaged`` problem."""
    store = hub.platform.store
    seed = hub.platform.opening_seed(opened, seat)
    listener = Listener()
    reader = hub.join(opened, listener)
    table, last, heard = opened, after, _stream_id(reader.heard)

    def from_the_log(shown_with: Table, upto: int, page: list[Envelope] | None = None) -> Iterator[str]:
        # The events after ``last`` up to version ``upto`` (which the table vouches for),
        # read by this listener itself, a page of the log to a write.
        nonlocal last
        while last < upto:
            envelopes = page or store.read_span(shown_with.game_id, last, min(last + PAGE, upto))
            page = None
            yield "".join(sse(shown_with, envelope, seat, seed) for envelope in envelopes)
            last = envelopes[-1].version

    try:
        yield "retry: 2000\n\n"
        yield from from_the_log(table, table.version, first)
        while not (table.status == "finished" and last >= table.version):
            if listener.ended:
                yield ": this server is stopping; reconnect\n\n"
                break
            batch = listener.next(heartbeat)
            if batch is None:
                if reader.version > last:  # batches were dropped while this client was slow
                    table = reader.table
                    yield from from_the_log(table, reader.version)
                else:
                    yield ": heartbeat\n\n"
                continue
            if batch.failed:
                yield ": store unavailable, retrying\n\n"
                continue
            # All a wake brought goes out in one write: a move's events and chat together.
            out: list[str] = []
            if batch.envelopes:
                table = batch.table
                fresh = [envelope for envelope in batch.envelopes if envelope.version > last]
                if fresh:
                    out.extend(from_the_log(table, fresh[0].version - 1))
                for envelope in fresh:
                    if envelope.version == last + 1:
                        out.append(batch.text(envelope, seat, seed))
                        last = envelope.version
            # A player watching who takes a seat reads as a seat from then on.
            channels = chats.readable(table, chats.seat_of(table, seat, watcher))
            for message in batch.said:
                said_at = _stream_id(message["id"])
                if said_at > heard:
                    heard = said_at
                    if message["channel"] in channels and message["from"].get("player") not in hidden:
                        out.append(f"event: chat\ndata: {json.dumps(message)}\n\n")
            if out:
                yield "".join(out)
    except RedisError:
        yield ": store unavailable, reconnect\n\n"
    except LogDamaged as damage:
        error = log_damaged(damage.game_id, damage.version, damage.head_version)
        yield f"event: problem\ndata: {json.dumps(problem_body(error))}\n\n"
    finally:
        hub.leave(reader, listener)


def _stream_id(entry_id: str) -> tuple[int, int]:
    ms, _, seq = entry_id.partition("-")
    return int(ms or 0), int(seq or 0)
