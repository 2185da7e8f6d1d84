"""Webhooks (issue 22): a player's URLs that the workers POST its notices to.

A player registers up to ``MAX_PER_PLAYER`` URLs, each for some or all of the notice
types of its inbox (``projections.inbox``, and ``chat``). Registering answers the
webhook's signing secret, once; the secret is kept (a signature needs it) and never
shown again.

When a notice is noted for a player (by the projector, or by the chat as a message is
posted), each of the player's webhooks that takes its type gets a delivery whose id is
derived from the webhook and the notice (its game, version, type and seat, or a chat
message's id): a notice noted twice is one delivery, which a job on the workers sends
(``workers.webhooks``) until it is delivered or has failed ``Config.webhook_attempts``
times. A delivery's record (status, attempts, the last HTTP status or error, its times)
is kept for the webhook's latest ``KEPT_DELIVERIES``.

Where a URL may point (``URL_RULE``, ``AllowList``): http or https, no credentials, at
most ``MAX_URL`` characters; by default only public addresses (never loopback, private,
link-local, shared, reserved or multicast ones); with ``TABLESTREAM_WEBHOOK_ALLOW``, only
the names and networks listed. The host is checked as written when a webhook is
registered, and every address it resolves to is checked again at each delivery.

On Redis, under ``<prefix>:webhooks`` (``<prefix>:{webhooks}`` on a cluster: one slot, as
a registration counts and writes in one script, and a delivery's record, its webhook's
list and the open deliveries change together).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import logging
import secrets
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import SplitResult, urlsplit

from core.config import HOST_NAME
from core.errors import CommandError
from events.keys import group
from events.store import stamp_ms

log = logging.getLogger(__name__)

EVENTS = (
    "your_turn",
    "game_ended",
    "undo_requested",
    "rematch_offered",
    "chat",
    "seated",
    "seat_filled",
    "game_started",
)
MAX_PER_PLAYER = 5
MAX_URL = 2000
KEPT_DELIVERIES = 100
DONE_SECONDS = 7 * 24 * 3600  # a delivered or failed delivery's record lives this long at most
STATUSES = ("pending", "delivered", "retrying", "failed")
FINAL = ("delivered", "failed")

URL_RULE = (
    f"A webhook URL is http:// or https://, at most {MAX_URL} characters, with a host and no "
    "user name or password; its host is a public address or a name (which must resolve to "
    "public addresses when it is called), unless the operator's allow-list says otherwise."
)
EVENTS_RULE = "events is a non-empty list of distinct notice types, among: " + ", ".join(EVENTS) + "."
CAP_RULE = f"A player has at most {MAX_PER_PLAYER} webhooks; delete one to register another."


def _iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    return stamp_ms(ms)


def now_ms() -> int:
    return int(time.time() * 1000)


# -- where a webhook may point ---------------------------------------------------


Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def public(address: Address) -> bool:
    """An address anyone on the internet reaches: not loopback, private, link-local,
    shared (100.64/10), reserved, unspecified or multicast (an IPv4-mapped IPv6 address
    is judged as its IPv4 address)."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


@dataclass(frozen=True)
class AllowList:
    """The operator's allow-list (``Config.webhook_allow``). Empty: any host whose
    addresses are public. Otherwise a URL's host must be a listed name (``*.example.com``:
    any name under it) or an address within a listed network, and every address it
    resolves to must be public or within a listed network."""

    names: tuple[str, ...] = ()
    networks: tuple[Network, ...] = ()

    @classmethod
    def of(cls, entries: Iterable[str]) -> AllowList:
        names, networks = [], []
        for entry in entries:
            try:
                networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                names.append(entry.lower())
        return cls(tuple(names), tuple(networks))

    @property
    def empty(self) -> bool:
        return not self.names and not self.networks

    def _in_networks(self, address: Address) -> bool:
        return any(address in network for network in self.networks)

    def address_allowed(self, address: Address) -> bool:
        """Whether a delivery may connect to ``address``."""
        return public(address) or self._in_networks(address)

    def host_allowed(self, host: str) -> bool:
        """Whether a URL may name ``host`` (an address or a name, lower case)."""
        address = _address(host)
        if address is not None:
            return self._in_networks(address) if not self.empty else public(address)
        if self.empty:
            return host != "localhost" and not host.endswith((".localhost", ".local", ".internal"))
        return any(host == name or (name.startswith("*.") and host.endswith(name[1:])) for name in self.names)

    def describe(self) -> str:
        if self.empty:
            return "public addresses only"
        return "the operator's allow-list: " + ", ".join([*self.names, *(str(n) for n in self.networks)])


def _address(host: str) -> Address | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


@dataclass(frozen=True)
class Target:
    """A checked webhook URL: where to connect and what to ask for."""

    url: str
    scheme: str
    host: str
    port: int
    path: str  # with its query

    @classmethod
    def parse(cls, url: Any, allow: AllowList) -> Target:
        """``url`` checked against ``URL_RULE`` and ``allow``; ``invalid_request`` with
        the rule saying what is wrong otherwise."""

        def refuse(why: str) -> CommandError:
            return CommandError("invalid_request", f"The webhook URL {why}.", rule=URL_RULE)

        if not isinstance(url, str) or not url:
            raise refuse("is missing")
        if len(url) > MAX_URL:
            raise refuse(f"is {len(url)} characters, over {MAX_URL}")
        if any(c.isspace() or ord(c) < 0x20 or ord(c) == 0x7F for c in url) or not url.isascii():
            raise refuse("holds a space, a control character or a character outside ASCII")
        try:
            parts: SplitResult = urlsplit(url)
            port = parts.port
        except ValueError:
            raise refuse("cannot be parsed (its host or port is malformed)") from None
        scheme = parts.scheme.lower()
        if scheme not in ("http", "https"):
            raise refuse(f"must be http or https, not {parts.scheme or 'without a scheme'}")
        if "@" in parts.netloc or parts.username is not None or parts.password is not None:
            raise refuse("must not carry a user name or password")
        if parts.fragment:
            raise refuse("must not carry a fragment (#...)")
        host = (parts.hostname or "").lower().rstrip(".")
        if not host:
            raise refuse("has no host")
        address = _address(host)
        if isinstance(address, ipaddress.IPv6Address) and address.scope_id:
            raise refuse(f"has an IPv6 zone ({host})")
        if address is None:
            last = host.rsplit(".", 1)[-1]
            # 127.1, 2130706433 or 0x7f.1 resolve to addresses, yet no DNS name ends so.
            if HOST_NAME.fullmatch(host) is None or host.startswith("*") or len(host) > 253:
                raise refuse(f"has a host that is neither an address nor a DNS name ({host})")
            if last.isdigit() or last.startswith("0x"):
                raise refuse(f"has a host that is an address in a form other than the standard one ({host})")
        if not allow.host_allowed(host):
            raise refuse(f"names a host this service does not call ({host}; it calls {allow.describe()})")
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        if port == 0:
            raise refuse("names port 0")
        return cls(url, scheme, host, port if port is not None else (443 if scheme == "https" else 80), path)


# -- signatures and ids -------------------------------------------------------------


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """The ``Tablestream-Signature`` header: HMAC-SHA256, keyed by the webhook's secret,
    over the timestamp, a dot and the body, as hex."""
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def delivery_id(webhook_id: str, notice: dict[str, Any]) -> str:
    """The delivery of ``notice`` to a webhook: the same notice noted twice is one id. A
    game's notice is told apart by its game, version, type and seat; a chat notice by the
    message's id."""
    if notice.get("type") == "chat":
        identity = ["chat", notice.get("game"), (notice.get("message") or {}).get("id")]
    else:
        identity = [notice.get("type"), notice.get("game"), notice.get("version"), notice.get("seat")]
    raw = json.dumps([webhook_id, *identity], separators=(",", ":"))
    return "whd_" + hashlib.sha256(raw.encode()).hexdigest()[:32]


def backoff_seconds(attempts: int, first: float) -> float:
    """The wait after ``attempts`` failed attempts: ``first``, doubling, at most an hour."""
    return float(min(first * 2 ** max(0, attempts - 1), 3600))


# -- who sends ---------------------------------------------------------------------


class DeliveryRunner(Protocol):
    """Starts deliveries on a job runner (``workers.webhooks`` on RQ)."""

    def start(self, delivery_ids: Sequence[str]) -> None: ...


class NoDeliveryRunner:
    """No job runner wired: deliveries stay pending, and a worker sends them when it starts
    (``workers.webhooks.sweep``)."""

    def start(self, delivery_ids: Sequence[str]) -> None:
        return None


# -- the store ---------------------------------------------------------------------

REGISTER_LUA = """
-- KEYS: the player's webhooks (set), the webhook; ARGV: webhook id, record (JSON), cap
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2])
return 1
"""

DELETE_LUA = """
-- KEYS: the player's webhooks, the webhook, its deliveries (zset), the open deliveries
-- ARGV: webhook id, the prefix of a delivery's key
if redis.call('SREM', KEYS[1], ARGV[1]) == 0 then return 0 end
for _, id in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
  redis.call('DEL', ARGV[2] .. id)
  redis.call('ZREM', KEYS[4], id)
end
redis.call('DEL', KEYS[2], KEYS[3])
return 1
"""

CREATE_LUA = """
-- KEYS: the webhook, the delivery, the webhook's deliveries, the open deliveries
-- ARGV: delivery id, webhook id, player, notice (JSON), now (ms), kept, delivery key prefix
-- Returns 1: created; 2: there, not attempted yet (start it again); 0: nothing to start.
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('EXISTS', KEYS[2]) == 1 then
  local state = redis.call('HMGET', KEYS[2], 'status', 'attempts')
  if state[1] == 'pending' and tonumber(state[2]) == 0 then return 2 end
  return 0
end
redis.call('HSET', KEYS[2], 'id', ARGV[1], 'webhook', ARGV[2], 'player', ARGV[3], 'notice', ARGV[4],
  'status', 'pending', 'attempts', 0, 'created', ARGV[5], 'updated', ARGV[5], 'due', ARGV[5])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[5], ARGV[1])
local over = redis.call('ZCARD', KEYS[3]) - tonumber(ARGV[6])
if over > 0 then
  for _, id in ipairs(redis.call('ZRANGE', KEYS[3], 0, over - 1)) do
    if not redis.call('ZSCORE', KEYS[4], id) then redis.call('DEL', ARGV[7] .. id) end
  end
  redis.call('ZREMRANGEBYRANK', KEYS[3], 0, over - 1)
end
return 1
"""

ATTEMPT_LUA = """
-- KEYS: the delivery; ARGV: now (ms). The attempt's number, or 0 when the delivery is
-- gone or done.
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'delivered' or status == 'failed' then return 0 end
redis.call('HSET', KEYS[1], 'attempted', ARGV[1], 'updated', ARGV[1])
return redis.call('HINCRBY', KEYS[1], 'attempts', 1)
"""

OUTCOME_LUA = """
-- KEYS: the delivery, the open deliveries; ARGV: delivery id, status, due (ms), seconds a
-- done record lives, then field/value pairs. A delivery once done stays as it is.
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'delivered' or status == 'failed' then return 0 end
redis.call('HDEL', KEYS[1], 'code', 'error')
redis.call('HSET', KEYS[1], 'status', ARGV[2], 'due', ARGV[3], unpack(ARGV, 5))
if ARGV[2] == 'delivered' or ARGV[2] == 'failed' then
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('EXPIRE', KEYS[1], tonumber(ARGV[4]))
else
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
end
return 1
"""

RELEASE_LUA = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


@dataclass(frozen=True)
class Delivery:
    id: str
    webhook: str
    player: str
    notice: dict[str, Any]
    status: str
    attempts: int
    created: int
    updated: int
    due: int
    attempted: int | None
    code: int | None
    error: str | None

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "webhook": self.webhook,
            "type": self.notice.get("type"),
            "notice": self.notice,
            "status": self.status,
            "attempts": self.attempts,
            "last_status": self.code,
            "last_error": self.error,
            "created_at": _iso(self.created),
            "last_attempt_at": _iso(self.attempted),
            "next_attempt_at": _iso(self.due) if self.status in ("pending", "retrying") else None,
            "updated_at": _iso(self.updated),
        }


class Webhooks:
    """The players' webhooks and their deliveries on Redis, and the start of a delivery
    when a notice is noted (``notify``)."""

    def __init__(self, client: Any, prefix: str = "ts", allow: Iterable[str] = ()) -> None:
        self.redis = client
        self.base = group(prefix, "webhooks", client)
        self.allow = AllowList.of(allow)
        self.runner: DeliveryRunner = NoDeliveryRunner()
        self._register = client.register_script(REGISTER_LUA)
        self._delete = client.register_script(DELETE_LUA)
        self._create = client.register_script(CREATE_LUA)
        self._attempt = client.register_script(ATTEMPT_LUA)
        self._outcome = client.register_script(OUTCOME_LUA)
        self._release = client.register_script(RELEASE_LUA)

    # keys
    def _player_key(self, player_id: str) -> str:
        return f"{self.base}:player:{player_id}"

    def _hook_key(self, webhook_id: str) -> str:
        return f"{self.base}:hook:{webhook_id}"

    def _recent_key(self, webhook_id: str) -> str:
        return f"{self.base}:recent:{webhook_id}"

    def _delivery_key(self, delivery: str) -> str:
        return f"{self.base}:d:{delivery}"

    def _lease_key(self, delivery: str) -> str:
        return f"{self.base}:lease:{delivery}"

    @property
    def _open_key(self) -> str:
        return f"{self.base}:open"

    # webhooks
    def register(self, player_id: str, url: Any, events: Sequence[str] | None) -> dict[str, Any]:
        """A new webhook of the player, with its secret (shown this once). ``invalid_request``
        for a URL outside ``URL_RULE`` or the allow-list, for bad events, or over the cap."""
        target = Target.parse(url, self.allow)
        chosen = list(EVENTS) if events is None else list(events)
        if not chosen or len(set(chosen)) != len(chosen) or any(e not in EVENTS for e in chosen):
            raise CommandError("invalid_request", EVENTS_RULE, rule=EVENTS_RULE)
        webhook_id = "wh_" + secrets.token_urlsafe(12).replace("-", "x").replace("_", "y")
        record = {
            "id": webhook_id,
            "player": player_id,
            "url": target.url,
            "events": chosen,
            "secret": "whsec_" + secrets.token_urlsafe(32),
            "created_at": _iso(now_ms()),
        }
        keys = [self._player_key(player_id), self._hook_key(webhook_id)]
        if not self._register(keys=keys, args=[webhook_id, json.dumps(record), MAX_PER_PLAYER]):
            raise CommandError("invalid_request", CAP_RULE, rule=CAP_RULE)
        return shown(record) | {"secret": record["secret"]}

    def hook(self, webhook_id: str) -> dict[str, Any] | None:
        """A webhook's whole record, its secret included (for signing only)."""
        raw = self.redis.get(self._hook_key(webhook_id))
        return None if raw is None else dict(json.loads(raw))

    def of_player(self, player_id: str) -> list[dict[str, Any]]:
        """The player's webhooks, oldest first, without their secrets."""
        ids = sorted(member.decode() for member in self.redis.smembers(self._player_key(player_id)))
        records = [self.hook(i) for i in ids]
        return sorted((shown(r) for r in records if r is not None), key=lambda r: (r["created_at"], r["id"]))

    def owned(self, player_id: str, webhook_id: str) -> dict[str, Any]:
        """The player's webhook ``webhook_id``; ``not_found`` when it is not the player's."""
        record = self.hook(webhook_id) if self.redis.sismember(self._player_key(player_id), webhook_id) else None
        if record is None or record.get("player") != player_id:
            raise CommandError("not_found", f"You have no webhook '{webhook_id}'.")
        return record

    def delete(self, player_id: str, webhook_id: str) -> None:
        """Remove the player's webhook and its deliveries (those not sent are not sent)."""
        keys = [self._player_key(player_id), self._hook_key(webhook_id), self._recent_key(webhook_id), self._open_key]
        if not self._delete(keys=keys, args=[webhook_id, f"{self.base}:d:"]):
            raise CommandError("not_found", f"You have no webhook '{webhook_id}'.")

    def delete_all(self, player_id: str) -> int:
        """Remove every webhook of the player (its key revoked: it is told nothing more)."""
        hooks = [member.decode() for member in self.redis.smembers(self._player_key(player_id))]
        for webhook_id in hooks:
            try:
                self.delete(player_id, webhook_id)
            except CommandError:  # removed meanwhile
                pass
        return len(hooks)

    # deliveries
    def notify(self, noted: Iterable[tuple[str, dict[str, Any]]]) -> list[str]:
        """Create the deliveries of notices just noted (player, notice) to the webhooks of
        their players that take their types, and start those not attempted yet. Returns
        their ids. A player with no webhook costs one read for the whole batch."""
        items = list(noted)
        players = sorted({player for player, _ in items})
        if not players:
            return []
        with self.redis.pipeline(transaction=False) as pipe:
            for player in players:
                pipe.smembers(self._player_key(player))
            owned = dict(zip(players, pipe.execute(), strict=True))
        if not any(owned.values()):
            return []
        hooks: dict[str, list[dict[str, Any]]] = {}
        for player, ids in owned.items():
            records = [self.hook(i.decode()) for i in sorted(ids)]
            hooks[player] = [r for r in records if r is not None and r.get("player") == player]
        started: list[str] = []
        at = now_ms()
        for player, notice in items:
            for hook in hooks.get(player, []):
                if notice.get("type") not in hook["events"]:
                    continue
                delivery = delivery_id(hook["id"], notice)
                keys = [
                    self._hook_key(hook["id"]),
                    self._delivery_key(delivery),
                    self._recent_key(hook["id"]),
                    self._open_key,
                ]
                args = [delivery, hook["id"], player, json.dumps(notice), at, KEPT_DELIVERIES, f"{self.base}:d:"]
                if int(self._create(keys=keys, args=args)):
                    started.append(delivery)
        if started:
            try:
                self.runner.start(started)
            except Exception:  # the deliveries are kept open: a worker sends them when it starts
                log.exception("could not start %d webhook deliveries", len(started))
        return started

    def delivery(self, delivery: str) -> Delivery | None:
        raw = self.redis.hgetall(self._delivery_key(delivery))
        if not raw:
            return None
        f = {k.decode(): v.decode() for k, v in raw.items()}

        def number(name: str) -> int | None:
            return int(f[name]) if f.get(name) not in (None, "") else None

        return Delivery(
            id=f["id"],
            webhook=f["webhook"],
            player=f["player"],
            notice=json.loads(f["notice"]),
            status=f["status"],
            attempts=int(f.get("attempts", 0)),
            created=int(f["created"]),
            updated=int(f.get("updated", f["created"])),
            due=int(f.get("due", f["created"])),
            attempted=number("attempted"),
            code=number("code"),
            error=f.get("error") or None,
        )

    def recent(self, webhook_id: str, limit: int = KEPT_DELIVERIES) -> list[Delivery]:
        """The webhook's latest deliveries, newest first."""
        ids = [i.decode() for i in self.redis.zrevrange(self._recent_key(webhook_id), 0, limit - 1)]
        found = [self.delivery(i) for i in ids]
        return [d for d in found if d is not None]

    def open_deliveries(self) -> list[tuple[str, int]]:
        """Every delivery neither delivered nor failed, with when it is due (ms)."""
        return [(i.decode(), int(score)) for i, score in self.redis.zrange(self._open_key, 0, -1, withscores=True)]

    def begin_attempt(self, delivery: str, at: int) -> int:
        """Count an attempt before it is made (a worker killed while sending has used it);
        its number, or 0 when the delivery is gone or done."""
        return int(self._attempt(keys=[self._delivery_key(delivery)], args=[at]))

    def record(self, delivery: str, status: str, at: int, due: int, code: int | None, error: str | None) -> bool:
        """Record an attempt's outcome; False (nothing changed) when the delivery is gone or
        was already done (by another attempt of the same id)."""
        fields: list[Any] = ["updated", at]
        if code is not None:
            fields += ["code", code]
        if error is not None:
            fields += ["error", error[:500]]
        if status == "delivered":
            fields += ["delivered", at]
        keys = [self._delivery_key(delivery), self._open_key]
        return bool(self._outcome(keys=keys, args=[delivery, status, due, DONE_SECONDS, *fields]))

    def lease(self, delivery: str, seconds: float) -> str | None:
        """Hold the delivery for one sender for ``seconds``; the lease's token, or None when
        another holds it."""
        token = secrets.token_hex(8)
        taken = self.redis.set(self._lease_key(delivery), token, nx=True, px=int(seconds * 1000))
        return token if taken else None

    def lease_left(self, delivery: str) -> float:
        """Seconds until the delivery's lease lapses (0 when none is held)."""
        left = self.redis.pttl(self._lease_key(delivery))
        return max(0, int(left)) / 1000

    def release(self, delivery: str, token: str) -> None:
        self._release(keys=[self._lease_key(delivery)], args=[token])


def shown(record: dict[str, Any]) -> dict[str, Any]:
    """What the API shows of a webhook (never its secret)."""
    return {key: record[key] for key in ("id", "url", "events", "created_at")}
