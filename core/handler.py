"""The command handler: every command of the platform, free of Flask; the API, the
workers and the CLI all act through it.

``core.commands`` holds the core (load, let the game decide, append); creation and
seats (``core.creation``), undo (``core.undo``) and forks (``core.forks``) build on it.
"""

from __future__ import annotations

from core.commands import GAME_CODES, Acted, Commands, Created, Scheduler, request_fingerprint
from core.creation import BOT_LEVELS, MAX_NAME, Creation
from core.forks import Forks
from core.lifecycle import Lifecycle
from core.undo import Undo

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


class Handler(Lifecycle, Creation, Undo, Forks):
    """Every command: create and join (``Creation``), act (``Commands``), undo (``Undo``),
    fork (``Forks``), and the endings besides the rules' (``Lifecycle``)."""
