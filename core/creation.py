"""Creating a game (once per Idempotency-Key, however many requests race with it) and
taking an open seat."""

from __future__ import annotations

import hashlib
import secrets
import time
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from core.commands import Commands, Created, Part, draws_record, new_event, new_game_id, seal
from core.errors import Code, CommandError
from core.lifecycle import check_lifecycle
from core.players import account_of
from events.envelope import NewEvent, canonical_json
from events.store import VersionConflict
from games import registry
from games.base import TABLE_SIZE, InvalidOptions
from games.rng import commitment, derive_rng
from projections.lifecycle import ABANDON_AFTER, OPEN_SECONDS, settings
from projections.table import Table

BOT_LEVELS = ("random", "greedy", "ismcts")
INVITE_SECONDS = 7 * 24 * 3600  # an invite code lapses a week after the game's creation
MAX_NAME = 64


class Creation(Part):
    def __init__(self, core: Commands, max_seats: int = TABLE_SIZE) -> None:
        super().__init__(core)
        self.max_seats = max_seats
        """The largest table of a kind whose rulebook sets none (``Config.max_seats``)."""

    def create_game(
        self,
        kind: str,
        players: Sequence[Mapping[str, Any]],
        options: Mapping[str, Any] | None = None,
        seed: str | None = None,
        command_id: str | None = None,
        forked_from: Mapping[str, Any] | None = None,
        turn_seconds: int | None = None,
        unlisted: bool = False,
        rated: bool = False,
        rematch_of: str | None = None,
        lifecycle: Mapping[str, Any] | None = None,
    ) -> Created:
        """A new game. ``rated``: every seat is a player's (held, reserved, by invite or
        open to players only), and the result moves their ratings. ``unlisted``: left out
        of the lobby, the lists and the profiles (anyone with its id still reaches it). An
        open seat may be reserved for a player
        (``reserved_for``: its id) or opened by an invite code (``invite``: the code is among
        the answer's tokens, lapses after ``INVITE_SECONDS`` and serves once)."""
        if command_id is None:
            # Without a key the request cannot be asked again: its tokens are answered as
            # written on the master (see ``Commands.confirm``).
            return self._create_game(
                kind, players, options, seed, None, forked_from, turn_seconds, unlisted, rated, rematch_of, lifecycle
            )
        request = [kind, [dict(p) for p in players], dict(options or {}), seed, forked_from, turn_seconds]
        if unlisted:
            request.append("unlisted")
        if rated:
            request.append("rated")
        if rematch_of:
            request.append({"rematch_of": rematch_of})
        if lifecycle:
            request.append({"lifecycle": dict(lifecycle)})
        fingerprint = hashlib.sha256(canonical_json(request).encode()).hexdigest()
        deadline = time.monotonic() + self.core.vault.CLAIM_SECONDS
        while (record := self.core.vault.claim_create(command_id, fingerprint)) is not None:
            if record["fingerprint"] != fingerprint:
                raise CommandError(
                    Code.IDEMPOTENCY_KEY_REUSED,
                    "This Idempotency-Key was used for a different request; use a new key for a new game.",
                )
            if record["game"] is not None:
                # Acknowledged only once a replica holds the game (its append's record says).
                earlier = self.core.store.command_result(record["game"], command_id)
                if earlier is not None:
                    self.core.confirm(record["game"], earlier.first_version, earlier.last_version, earlier.replicated)
                return Created(self.core.load(record["game"]), self.core.vault.created_tokens(command_id, record))
            if time.monotonic() > deadline:
                raise CommandError(Code.REQUEST_IN_PROGRESS, "A request with this Idempotency-Key is still running.")
            time.sleep(0.05)  # the first request with this key is creating the game
        try:
            created = self._create_game(
                kind,
                players,
                options,
                seed,
                command_id,
                forked_from,
                turn_seconds,
                unlisted,
                rated,
                rematch_of,
                lifecycle,
            )
        except BaseException:
            self.core.vault.abandon_create(command_id)
            raise
        self.core.vault.finish_create(command_id, fingerprint, created.table.game_id, created.tokens)
        self.core.confirm(created.table.game_id, 1, created.table.version, created.replicated)
        return created

    def _create_game(
        self,
        kind: str,
        players: Sequence[Mapping[str, Any]],
        options: Mapping[str, Any] | None,
        seed: str | None,
        command_id: str | None,
        forked_from: Mapping[str, Any] | None,
        turn_seconds: int | None,
        unlisted: bool = False,
        rated: bool = False,
        rematch_of: str | None = None,
        lifecycle: Mapping[str, Any] | None = None,
    ) -> Created:
        game = registry.get(kind)
        if game is None:
            known = ", ".join(registry.keys())
            raise CommandError(Code.UNKNOWN_KIND, f"There is no game kind '{kind}'. Known kinds: {known}.")
        seats = check_players(players)
        if rated and any(not (s.get("player") or s["open"]) for s in seats):
            raise CommandError(
                Code.INVALID_REQUEST,
                "A rated game is between players: every seat is 'me', open or reserved for a player "
                "(bots and seats by name carry no rating).",
            )
        try:
            checked = game.validate_options(options, len(seats), self.max_seats)
        except InvalidOptions as error:
            raise CommandError(
                Code.INVALID_OPTIONS,
                "The game cannot start: " + "; ".join(error.problems) + ".",
                problems=error.problems,
            ) from None
        chosen = dict(lifecycle or {})
        check_lifecycle(turn_seconds, chosen.get("clock"), chosen.get("on_leave", "out"), chosen.get("open_seconds"))
        ending = settings(
            turn_seconds,
            chosen.get("clock"),
            chosen.get("on_leave", "out"),
            chosen.get("abandon_after", ABANDON_AFTER),
            chosen.get("open_seconds") or OPEN_SECONDS,
        )
        chosen_seed = seed is not None
        seed = seed if seed is not None else secrets.token_hex(32)
        game_id = new_game_id()
        rng = derive_rng(seed, 1)
        opening = game.setup(checked, len(seats), rng)
        created = NewEvent(
            "GameCreated",
            {
                "game": game_id,
                "kind": kind,
                "options": checked,
                "seats": seats,
                "seed_commitment": commitment(seed),
                "fair_deal": game.fair_deal(checked) and not chosen_seed,
                "seed_chosen_by_creator": chosen_seed,
                "forked_from": dict(forked_from) if forked_from else None,
                "turn_seconds": turn_seconds,
                **({"unlisted": True} if unlisted else {}),
                **({"rated": True} if rated else {}),
                **({"rematch_of": rematch_of} if rematch_of else {}),
                "lifecycle": ending,
                **draws_record(rng),
            },
        )
        self.core.vault.set_seed(game_id, seed)
        events = seal(game, seed, [created, *(new_event(e, "system") for e in opening)], 1)
        result = self.core.store.append(game_id, events, 0, command_id)
        table = self.core.tables.fold(game_id, None, list(result.envelopes))
        self.core.tables.remember(table)
        self.core.tables.snapshots.put(table)
        # A seat a player holds needs no token: the player's key acts for it. An invite seat's
        # token is its invite code (it lapses, and joining revokes it).
        tokens = {
            i: self.core.vault.issue_token(game_id, i)
            for i, s in enumerate(seats)
            if not s["bot"] and not s["open"] and not s.get("player")
        }
        tokens |= {
            i: self.core.vault.issue_token(game_id, i, seconds=INVITE_SECONDS)
            for i, s in enumerate(seats)
            if s.get("invite")
        }
        self.core.scheduled(table)
        return Created(table, tokens, result.replicated)

    def join(
        self,
        game_id: str,
        seat: int,
        name: str | None,
        player: Mapping[str, Any] | None = None,
        invite: str | None = None,
        held: int | None = None,
    ) -> tuple[Table, str | None]:
        """Take an open seat: by name, with a new seat token; or for ``player`` (its name,
        and no token: the player's key acts for the seat). A reserved seat takes only its
        player; an invite seat only its code; a rematch's seat kept for a seat token's holder
        only the caller who held (``held``) that seat of the game rematched."""
        table = self.core.load(game_id)
        if not 0 <= seat < len(table.seats):
            raise CommandError(Code.NOT_FOUND, f"Game {game_id} has no seat {seat}.")
        wanted = table.seats[seat]
        if table.status == "finished":
            raise CommandError(Code.GAME_OVER, "The game is over (aborted before it started).", version=table.version)
        if not wanted.open:
            raise CommandError(Code.SEAT_TAKEN, f"Seat {seat} is not open.")
        if table.rated and player is None:
            raise CommandError(Code.NOT_YOUR_SEAT, "A rated game seats players only: join with your player key.")
        if wanted.reserved_for is not None and (player is None or player["id"] != wanted.reserved_for):
            raise CommandError(Code.NOT_YOUR_SEAT, f"Seat {seat} is reserved for another player.")
        if wanted.rematch_seat is not None and (player is not None or held != wanted.rematch_seat):
            raise CommandError(Code.NOT_YOUR_SEAT, f"Seat {seat} is kept for the holder of the game rematched.")
        if wanted.invite and (invite is None or self.core.vault.owner(invite) != (game_id, seat)):
            raise CommandError(
                Code.NOT_YOUR_SEAT, f"Seat {seat} opens only with its invite code (used once; it lapses)."
            )
        data: dict[str, Any] = {"seat": seat, "name": check_name(name if player is None else player["name"])}
        if player is not None:
            self._not_seated(table, player)
            data["player"] = player["id"]
            data |= account_of(player)
        try:
            result = self.core.store.append(
                game_id,
                self.core.sealed(table, [NewEvent("SeatTaken", data, seat, "human")]),
                table.version,
                prev_hash=table.head_hash,
            )
        except VersionConflict:
            raise CommandError(Code.SEAT_TAKEN, f"Seat {seat} was taken by someone else; try another.") from None
        if wanted.invite:
            self.core.vault.revoke(game_id, seat)  # the code served once
        token = self.core.vault.issue_token(game_id, seat) if player is None else None
        table = self.core.tables.advance(table, list(result.envelopes))
        self.core.scheduled(table)
        return table, token

    def claim(self, game_id: str, seat: int, token: str, player: Mapping[str, Any]) -> Table:
        """``player`` takes over the seat ``token`` acts for: from now on the
        player's key acts for it and the token does not. Not once the game has ended: its
        final head is on the ledger."""
        table = self.core.load(game_id)
        if self.core.vault.owner(token) != (game_id, seat):
            raise CommandError(Code.NOT_YOUR_SEAT, f"That token does not act for seat {seat} of game {game_id}.")
        if table.status == "finished":
            raise CommandError(Code.GAME_OVER, "The game is over: its seats can no longer be claimed.")
        if table.seats[seat].player is not None:
            raise CommandError(Code.SEAT_TAKEN, f"Seat {seat} is already held by a player.")
        self._not_seated(table, player)
        event = NewEvent("SeatClaimed", {"seat": seat, "player": player["id"], **account_of(player)}, seat, "human")
        try:
            result = self.core.store.append(
                game_id, self.core.sealed(table, [event]), table.version, prev_hash=table.head_hash
            )
        except VersionConflict:
            raise CommandError(Code.STALE_VERSION, "The game moved on while claiming; try again.") from None
        self.core.vault.revoke(game_id, seat)
        return self.core.tables.advance(table, list(result.envelopes))

    def rematch(self, game_id: str, seat: int, player: Mapping[str, Any] | None) -> tuple[Table, int, str | None]:
        """Offer a rematch of the finished game, or accept the one offered: ``seat`` (held by
        ``player``, or by a seat token when None) takes its seat in the rematch. The rematch
        has the game's kind, options, rating and listing, a new seed and the seat order
        rotated by one; it is open until every human seat is taken, then it starts (bots
        sit from the first). One rematch per game, however many seats ask at once. Returns
        the rematch, the caller's seat in it and, for a seat token's holder, the new seat's
        token (asked again, a new one: the first answer may have been lost)."""
        old = self.core.load(game_id)
        if old.status != "finished":
            raise CommandError(Code.GAME_IN_PLAY, "A rematch can be offered only once the game is over.")
        rematch_id = self._rematch_game(old)
        new_seat = (seat - 1) % len(old.seats)
        table = self.core.load(rematch_id)
        if not table.seats[new_seat].open:  # accepted already: nothing to append
            token = None
            if player is None:
                self.core.vault.revoke(rematch_id, new_seat)
                token = self.core.vault.issue_token(rematch_id, new_seat)
            return table, new_seat, token
        name = old.seats[seat].name if player is None else None
        table, token = self.join(rematch_id, new_seat, name, player, held=seat if player is None else None)
        return table, new_seat, token

    def _rematch_game(self, old: Table) -> str:
        """The id of ``old``'s rematch, made by this request if no other made it first."""
        deadline = time.monotonic() + self.core.vault.CLAIM_SECONDS
        while True:
            link = self.core.vault.rematch(old.game_id)
            if link is not None and link != self.core.vault.PENDING:
                return link
            if link is None and self.core.vault.claim_rematch(old.game_id):
                break
            if time.monotonic() > deadline:
                raise CommandError(Code.REQUEST_IN_PROGRESS, "The rematch is being made; ask again in a moment.")
            time.sleep(0.05)
        try:
            created = self.create_game(
                old.kind,
                rematch_seats(old),
                old.options,
                turn_seconds=old.turn_seconds,
                unlisted=old.unlisted,
                rated=old.rated,
                rematch_of=old.game_id,
                lifecycle=_chosen(old.lifecycle),
            )
        except BaseException:
            self.core.vault.link_rematch(old.game_id, None)
            raise
        self.core.vault.link_rematch(old.game_id, created.table.game_id)
        return created.table.game_id

    @staticmethod
    def _not_seated(table: Table, player: Mapping[str, Any]) -> None:
        held = [i for i, s in enumerate(table.seats) if s.player == player["id"]]
        if held:
            raise CommandError(Code.ALREADY_SEATED, f"You already hold seat {held[0]} of this game.", seat=held[0])


def check_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise CommandError(Code.INVALID_REQUEST, "A player's name must be a non-empty string.")
    if len(name) > MAX_NAME or any(unicodedata.category(c) in ("Cc", "Cs") for c in name):
        raise CommandError(
            Code.INVALID_REQUEST, f"A player's name has at most {MAX_NAME} characters and no control characters."
        )
    return name.strip()


def check_players(players: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    if not isinstance(players, Sequence) or not players:
        raise CommandError(Code.INVALID_REQUEST, "A game needs a list of players.")
    seats: list[dict[str, Any]] = []
    for index, player in enumerate(players):
        if not isinstance(player, Mapping):
            raise CommandError(Code.INVALID_REQUEST, f"Player {index} must be an object.")
        if player.get("open"):
            seat_: dict[str, Any] = {"name": None, "bot": None, "open": True}
            if player.get("reserved_for"):  # a player's id (resolved by the API)
                seat_["reserved_for"] = str(player["reserved_for"])
            elif player.get("rematch_seat") is not None:  # set by ``rematch`` only
                seat_["rematch_seat"] = int(player["rematch_seat"])
            elif player.get("invite"):
                seat_["invite"] = True
            seats.append(seat_)
            continue
        bot = player.get("bot")
        if bot is not None and bot not in BOT_LEVELS:
            raise CommandError(
                Code.INVALID_REQUEST, f"Player {index}: bot must be one of {', '.join(BOT_LEVELS)} or null."
            )
        name = player.get("name") or (f"{bot.capitalize()} bot {index + 1}" if bot else None)  # as people count: from 1
        seat = {"name": check_name(name), "bot": bot, "open": False}
        if player.get("player") is not None and bot is None:  # a seat held by a player (resolved by the API)
            seat["player"] = str(player["player"])
            if player.get("account") == "bot":
                seat["account"] = "bot"
        seats.append(seat)
    held = [seat["player"] for seat in seats if "player" in seat]
    if len(held) != len(set(held)):
        raise CommandError(Code.ALREADY_SEATED, "A player holds at most one seat of a game.")
    return seats


def rematch_seats(old: Table) -> list[dict[str, Any]]:
    """The seats of ``old``'s rematch, in the order rotated by one (who sat second now sits
    first): a bot keeps its level and name; a player's seat is reserved for the player; a
    seat token's seat is kept for its holder."""
    count = len(old.seats)
    seats: list[dict[str, Any]] = []
    for index in range(count):
        was = (index + 1) % count
        held = old.seats[was]
        if held.bot is not None and held.left is None:  # (a seat that left is its holder's again)
            seats.append({"name": held.name, "bot": held.bot})
        elif held.player is not None:
            seats.append({"open": True, "reserved_for": held.player})
        else:
            seats.append({"open": True, "rematch_seat": was})
    return seats


def _chosen(lifecycle: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A game's lifecycle settings as a creation asks for them (a rematch keeps them)."""
    if lifecycle is None:
        return None
    chosen = {k: lifecycle[k] for k in ("clock", "on_leave", "open_seconds") if lifecycle.get(k) is not None}
    if lifecycle.get("abandon_after") is not None:
        chosen["abandon_after"] = lifecycle["abandon_after"]
    return chosen
