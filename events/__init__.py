"""The event log: envelopes, their canonical codec and hash chain, and the stores."""

from events.envelope import GENESIS_HASH, Envelope, NewEvent, canonical_json, chain
from events.store import AppendResult, EventStore, Notice, VersionConflict

__all__ = [
    "GENESIS_HASH",
    "AppendResult",
    "Envelope",
    "EventStore",
    "NewEvent",
    "Notice",
    "VersionConflict",
    "canonical_json",
    "chain",
]
