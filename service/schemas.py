"""Marshmallow schemas: every request body is loaded through one, every response
body is dumped through one. Unknown fields are refused."""

from __future__ import annotations

from typing import TypeVar

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from core.handler import BOT_LEVELS, MAX_NAME

MAX_VERSION = 2**53


S = TypeVar("S", bound=Schema)


def one(schema: type[S]) -> S:
    """The one shared instance of ``schema``: building a Schema costs more than using it,
    and load and dump keep no state on the instance."""
    found = _INSTANCES.get(schema)
    if found is None:
        found = _INSTANCES.setdefault(schema, schema())
    return found  # type: ignore[return-value]


_INSTANCES: dict[type[Schema], Schema] = {}


class Strict(Schema):
    class Meta:
        unknown = RAISE


class Flag(fields.Boolean):
    """A JSON true or false, nothing else: marshmallow's Boolean takes 1 and 0 for them
    (they hash alike in its sets of truthy and falsy values), which the contract does not."""

    def _deserialize(self, value, attr, data, **kwargs):  # type: ignore[no-untyped-def]
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class PlayerIn(Strict):
    name = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=MAX_NAME))
    bot = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(BOT_LEVELS))
    open = Flag(load_default=False)
    me = Flag(load_default=False)
    reserved = fields.String(data_key="for", load_default=None, validate=validate.Length(min=1, max=64))
    invite = Flag(load_default=False)

    @validates_schema
    def _one_kind(self, data: dict, **_: object) -> None:
        if (data.get("reserved") or data.get("invite")) and not data.get("open"):
            raise ValidationError("only an open seat is reserved ('for') or opened by an invite", "open")
        if data.get("reserved") and data.get("invite"):
            raise ValidationError("an open seat is reserved for a player or opened by an invite, not both", "for")
        if data.get("me") and (data.get("bot") or data.get("name") or data.get("open")):
            raise ValidationError("the caller's own seat ('me') has no name, bot or open: it is the player's", "me")
        if data.get("open") and (data.get("bot") or data.get("name")):
            raise ValidationError("an open seat has no name and no bot", "open")
        if not data.get("me") and not data.get("open") and not data.get("bot") and not data.get("name"):
            raise ValidationError("a human seat needs a name", "name")


class CreateGameIn(Strict):
    kind = fields.String(required=True, validate=validate.Length(min=1, max=64))
    players = fields.List(fields.Nested(PlayerIn), required=True, validate=validate.Length(min=1, max=16))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    seed = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=256))
    turn_seconds = fields.Integer(
        strict=True, load_default=None, allow_none=True, validate=validate.Range(min=1, max=86400)
    )
    unlisted = Flag(load_default=False)
    rated = Flag(load_default=False)
    clock = fields.Nested(lambda: ClockIn(), load_default=None, allow_none=True)
    on_leave = fields.String(load_default="out", validate=validate.OneOf(["out", "bot"]))
    abandon_after = fields.Integer(strict=True, load_default=3, validate=validate.Range(min=1, max=100))
    open_seconds = fields.Integer(
        strict=True, load_default=None, allow_none=True, validate=validate.Range(min=60, max=30 * 86400)
    )


class ClockIn(Strict):
    initial = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=7 * 86400))
    increment = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0, max=3600))


class JoinIn(Strict):
    # Required without a player key; with one, the seat takes the player's name.
    name = fields.String(load_default=None, validate=validate.Length(min=1, max=MAX_NAME))
    invite = fields.String(load_default=None, validate=validate.Length(min=1, max=256))


class ClaimIn(Strict):
    token = fields.String(required=True, validate=validate.Length(min=1, max=256))


class PlayerNew(Strict):
    name = fields.String(required=True, validate=validate.Length(min=1, max=64))
    bot = Flag(load_default=False)  # a bot account, for good


class PlayerOut(Schema):
    id = fields.String()
    name = fields.String()
    created_at = fields.String()
    bot = fields.Boolean()
    key = fields.String()


class ActionIn(Strict):
    action = fields.Dict(keys=fields.String(), required=True)
    expected_version = fields.Integer(
        strict=True, load_default=None, allow_none=True, validate=validate.Range(0, MAX_VERSION)
    )


class SeatOut(Schema):
    seat = fields.Integer()
    name = fields.String(allow_none=True)
    bot = fields.String(allow_none=True)
    open = fields.Boolean()
    player = fields.String(allow_none=True)
    reserved_for = fields.String(allow_none=True)
    invite = fields.Raw()  # on an open seat: whether it is opened by invite; the code itself, once, at creation
    rematch_seat = fields.Integer(allow_none=True)  # a rematch's open seat kept for that seat's holder
    left = fields.String()  # how the seat left the game: resignation, time, abandonment
    account = fields.String()  # "bot": held by a bot account
    token = fields.String()


class SummaryOut(Schema):
    id = fields.String()
    unlisted = fields.Boolean()
    rated = fields.Boolean()
    kind = fields.String()
    version = fields.Integer()
    status = fields.String()
    seats = fields.List(fields.Nested(SeatOut))
    options = fields.Dict()
    fair_deal = fields.Boolean()
    seed_commitment = fields.String()
    seed = fields.String(allow_none=True)
    outcome = fields.Raw(allow_none=True)
    to_act = fields.List(fields.Integer())
    created_at = fields.String()
    updated_at = fields.String()
    forked_from = fields.Raw(allow_none=True)
    turn_seconds = fields.Integer(allow_none=True)
    head = fields.Nested(lambda: HeadOut())
    rematch_of = fields.String(allow_none=True)
    lifecycle = fields.Dict(allow_none=True)
    clock = fields.Dict(allow_none=True)
    timeouts = fields.List(fields.Integer())


class HeadOut(Schema):
    version = fields.Integer()
    hash = fields.String(allow_none=True)


class GameOut(SummaryOut):
    rematch = fields.String(allow_none=True)  # a finished game's rematch, once offered
    view = fields.Dict()
    undo_offer = fields.Dict(allow_none=True)  # core.undo.Undo.undo_offer, for the caller's seat
    undo_request = fields.Dict(allow_none=True)  # the pending undo request: its id, seat, target, expiry, who agreed
    draw_offer = fields.Dict(allow_none=True)  # the pending offer to end with a shared result, and who agreed
    seat = fields.Integer(allow_none=True)
    legal_actions = fields.List(fields.Dict())


class EventOut(Schema):
    """Every field ``docs/verification.md`` needs to check the chain (``sealed`` only on an
    event that hides something; ``openings`` only on one a seat is shown its own hidden
    values in, while the game is in play)."""

    schema = fields.Integer()
    version = fields.Integer()
    type = fields.String()
    seat = fields.Integer(allow_none=True)
    actor = fields.String()
    data = fields.Raw()
    sealed = fields.Raw()
    openings = fields.List(fields.Dict())
    at = fields.String()
    command_id = fields.String(allow_none=True)
    prev_hash = fields.String(allow_none=True)
    hash = fields.String(allow_none=True)


class ActedOut(Schema):
    version = fields.Integer()
    events = fields.List(fields.Nested(EventOut))
    duplicate = fields.Boolean()
    replicated = fields.Boolean()
    head = fields.Nested(HeadOut)


class EventsPageOut(Schema):
    events = fields.List(fields.Nested(EventOut))
    last_version = fields.Integer()
    next_after = fields.Integer()
    head = fields.Nested(HeadOut)


class OptionOut(Schema):
    name = fields.String()
    type = fields.String()
    default = fields.Raw(allow_none=True)
    description = fields.String()
    choices = fields.List(fields.Raw())
    minimum = fields.Integer()
    maximum = fields.Integer()
    nullable = fields.Boolean()


class KindOut(Schema):
    key = fields.String()
    title = fields.String()
    summary = fields.String()
    min_players = fields.Integer()
    max_players = fields.Integer()
    open_ended = fields.Boolean()
    options = fields.List(fields.Nested(OptionOut))
    rules_revision = fields.Integer()


class MyGameOut(SummaryOut):
    my_seat = fields.Integer(allow_none=True)
    my_turn = fields.Boolean()


class FinishedGamesOut(Schema):
    total = fields.Integer()
    latest = fields.List(fields.Nested(SummaryOut))


class ProfileOut(Schema):
    id = fields.String()
    name = fields.String()
    created_at = fields.String()
    bot = fields.Boolean()
    closed_at = fields.String()  # closed by the operator (core.moderation)
    finished_games = fields.Nested(FinishedGamesOut)


class GamesPageOut(Schema):
    games = fields.List(fields.Nested(SummaryOut))
    total = fields.Integer()
    offset = fields.Integer()
    limit = fields.Integer()


class MyGamesPageOut(GamesPageOut):
    games = fields.List(fields.Nested(MyGameOut))


class JoinedOut(Schema):
    seat = fields.Integer()
    token = fields.String(allow_none=True)
    game = fields.Nested(SummaryOut)


class RematchOut(Schema):
    rematch = fields.String()
    seat = fields.Integer()
    token = fields.String(allow_none=True)
    game = fields.Nested(SummaryOut)


class ChatIn(Strict):
    # The text's own rule (length, control characters) is the core's: core.chat.clean_text.
    channel = fields.String(required=True, validate=validate.OneOf(("seats", "spectators")))
    text = fields.String(required=True)


class ChatFromOut(Schema):
    seat = fields.Integer(allow_none=True)
    name = fields.String()
    player = fields.String(allow_none=True)


class ChatMessageOut(Schema):
    id = fields.String()
    channel = fields.String()
    sender = fields.Nested(ChatFromOut, data_key="from", attribute="from")
    text = fields.String()
    at = fields.String()


class ChatPageOut(Schema):
    messages = fields.List(fields.Nested(ChatMessageOut))
    next_after = fields.String()


class WebhookIn(Strict):
    # The URL's and the events' own rules (scheme, credentials, allow-list, types) are the
    # core's: core.webhooks.
    url = fields.String(required=True, validate=validate.Length(min=1, max=4096))
    events = fields.List(fields.String(validate=validate.Length(min=1, max=64)), load_default=None)


class WebhookOut(Schema):
    id = fields.String()
    url = fields.String()
    events = fields.List(fields.String())
    created_at = fields.String()
    secret = fields.String()


class WebhooksOut(Schema):
    webhooks = fields.List(fields.Nested(WebhookOut))


class DeliveryOut(Schema):
    id = fields.String()
    webhook = fields.String()
    type = fields.String()
    notice = fields.Dict()
    status = fields.String()
    attempts = fields.Integer()
    last_status = fields.Integer(allow_none=True)
    last_error = fields.String(allow_none=True)
    created_at = fields.String()
    last_attempt_at = fields.String(allow_none=True)
    next_attempt_at = fields.String(allow_none=True)
    updated_at = fields.String()


class DeliveriesOut(Schema):
    webhook = fields.String()
    deliveries = fields.List(fields.Nested(DeliveryOut))
