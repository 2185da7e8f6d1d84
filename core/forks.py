"""Forks: a new game that starts from another's state at a version between two commands
(exactly, for a finished game; re-dealt from one seat's point of view, for a game in play)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from core.commands import Created, Part, draws_record, new_game_id, seal
from core.creation import check_players
from core.errors import Code, CommandError
from events.envelope import NewEvent
from games.codec import encode
from games.rng import commitment, derive_rng
from projections.table import between_commands


class Forks(Part):
    def fork(
        self,
        game_id: str,
        at_version: int,
        seat: int | None,
        players: Sequence[Mapping[str, Any]] | None = None,
    ) -> Created:
        """A new game starting from this one's state at ``at_version``. A finished game
        forks exactly; a game in play forks only from ``seat``'s point of view, every
        card hidden from it re-dealt from a fresh seed. Its seats (``players``, else the
        game's names and bots) hold no player unless the caller names one."""
        table = self.core.load(game_id)
        if not 1 <= at_version <= table.version:
            raise CommandError(Code.INVALID_REQUEST, f"at_version must be between 1 and {table.version}.")
        past = self.core.tables.at(game_id, at_version)
        if past is None or past.state is None:
            raise CommandError(Code.INVALID_REQUEST, f"Version {at_version} is before the deal.")
        around = self.core.store.read(game_id, after=at_version - 1, limit=2)
        if not between_commands(around[1].type if len(around) == 2 else None):
            # Inside a command (the deal, an action's effects) the state is half-made: a
            # game forked there may have nobody to act, ever.
            raise CommandError(Code.INVALID_REQUEST, f"Version {at_version} is in the middle of a command.")
        game = table.game
        seed = secrets.token_hex(32)
        redeal: dict[str, Any] = {}
        if table.status == "finished":
            state = past.state
            exact = True
        else:
            if seat is None:
                raise CommandError(Code.NOT_YOUR_SEAT, "A game in play forks only from a seat's point of view.")
            # The re-deal is the fork's first command: its draws come from the fork's seed under
            # the labels v1/0, v1/1, ..., and are recorded (and committed) like a deal's.
            rng = derive_rng(seed, 1)
            state = game.determinize(past.state, seat, rng)
            redeal = draws_record(rng)
            exact = False
        if game.outcome(state) is not None:
            raise CommandError(Code.GAME_OVER, f"The game was already over at version {at_version}.")
        # A fork's seats are new: by default named and played (human or bot) as before, but
        # held by no player. Identity is earned at the table: a fork is its creator's game,
        # in no one else's lists, profile, ratings or stats.
        source = players if players is not None else [{"name": s.name, "bot": s.bot} for s in table.seats]
        seats = check_players(source)
        if len(seats) != len(table.seats):
            raise CommandError(Code.INVALID_REQUEST, f"A fork keeps the {len(table.seats)} seats of its game.")
        fork_id = new_game_id()
        envelope = around[0]
        first = NewEvent(
            "ForkedFrom",
            {
                "id": fork_id,
                "game": game_id,
                "version": at_version,
                "hash": envelope.hash,
                "exact": exact,
                "from_seat": None if exact else seat,
                "kind": table.kind,
                "options": dict(table.options),
                "seats": seats,
                "seed_commitment": commitment(seed),
                "fair_deal": table.fair_deal and not exact,
                "state": encode(state),
                **redeal,
            },
        )
        self.core.vault.set_seed(fork_id, seed)
        result = self.core.store.append(fork_id, seal(game, seed, [first], 1), 0)
        new = self.core.tables.fold(fork_id, None, list(result.envelopes))
        self.core.tables.remember(new)
        tokens = {
            i: self.core.vault.issue_token(fork_id, i) for i, s in enumerate(seats) if not s["bot"] and not s["open"]
        }
        self.core.scheduled(new)
        return Created(new, tokens)
