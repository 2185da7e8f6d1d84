"""The command handler: every command of the platform, free of Flask; the API, the
workers and the CLI all act through it.

``core.commands`` holds the core (load, let the game decide, append). The other commands
are parts built on that core, each in a module of its own: creation and seats
(``core.creation``), the endings besides the rules' (``core.lifecycle``), undo
(``core.undo``) and forks (``core.forks``). ``Handler`` puts them together and names
each command once.
"""

from __future__ import annotations

from core.commands import GAME_CODES, Acted, Commands, Created, Scheduler, request_fingerprint
from core.creation import BOT_LEVELS, MAX_NAME, Creation
from core.forks import Forks
from core.lifecycle import Lifecycle
from core.undo import Undo
from core.vault import Secrets
from events.ledger import Ledger
from events.store import EventStore
from games.base import TABLE_SIZE
from projections.tables import Tables

__all__ = [
    "BOT_LEVELS",
    "GAME_CODES",
    "MAX_NAME",
    "Acted",
    "Commands",
    "Created",
    "Handler",
    "Scheduler",
    "request_fingerprint",
]


class Handler:
    """Every command, each carried out by the part that owns it; the parts share one core,
    which holds the store, the tables, the vault, the scheduler and the ledger."""

    def __init__(
        self,
        store: EventStore,
        tables: Tables,
        vault: Secrets,
        scheduler: Scheduler | None = None,
        ledger: Ledger | None = None,
        max_seats: int = TABLE_SIZE,
    ) -> None:
        self.core = core = Commands(store, tables, vault, scheduler, ledger)
        self.store, self.tables, self.vault = store, tables, vault
        creation, endings, undo, forks = Creation(core, max_seats), Lifecycle(core), Undo(core), Forks(core)
        # The core's own: reading a game, the clock, the ledger.
        self.load = core.load
        self.now_ms = core.now_ms
        self.record_finished = core.record_finished
        # A move (a seat whose clock has run out is flagged instead) and the other endings.
        self.act = endings.act
        self.resign = endings.resign
        self.offer_draw = endings.offer_draw
        self.answer_draw = endings.answer_draw
        self.abort = endings.abort
        self.expire_open = endings.expire_open
        self.flag = endings.flag
        self.out_of_time = endings.out_of_time
        self.abandoned = endings.abandoned
        # New games and their seats.
        self.create_game = creation.create_game
        self.join = creation.join
        self.claim = creation.claim
        self.rematch = creation.rematch
        # Undo with consent, and forks.
        self.request_undo = undo.request_undo
        self.answer_undo = undo.answer_undo
        self.undo_offer = undo.undo_offer
        self.fork = forks.fork

    @property
    def scheduler(self) -> Scheduler | None:
        """What enqueues the jobs an append calls for (bot turns, timers); the entry point
        that runs workers sets it."""
        return self.core.scheduler

    @scheduler.setter
    def scheduler(self, scheduler: Scheduler | None) -> None:
        self.core.scheduler = scheduler

    @property
    def ledger(self) -> Ledger | None:
        """The public ledger finished games go on, if this process writes it."""
        return self.core.ledger

    @ledger.setter
    def ledger(self, ledger: Ledger | None) -> None:
        self.core.ledger = ledger

    @property
    def unreplicated(self) -> str:
        """``Commands.unreplicated``: what a change too few replicas confirmed gets."""
        return self.core.unreplicated

    @unreplicated.setter
    def unreplicated(self, policy: str) -> None:
        self.core.unreplicated = policy
