"""Webhooks: a player's URLs that the workers POST its notices to.

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
the names and networks listed. An address is judged as what it reaches, not as it is
spelled: an IPv6 address that carries an IPv4 address (``::ffff:10.0.0.1``,
``64:ff9b::127.0.0.1``, 6to4, Teredo; ``carried_ipv4``) is refused when that IPv4
address is, since a dual-stack socket, a NAT64 gateway or a tunnel takes the connection
there. The host is checked as written when a webhook is registered, and every address it
resolves to is checked again at each delivery.

The webhooks and their deliveries are kept by a ``WebhookStore``:
``stores.webhooks.RedisWebhookStore`` on Redis.
"""

from __future__ import annotations

import abc
import hashlib
import hmac
import ipaddress
import json
import logging
import secrets
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network
from typing import Any, Protocol
from urllib.parse import SplitResult, urlsplit

from core.config import HOST_NAME
from core.errors import Code, CommandError
from events.store import stamp_ms

log = logging.getLogger(__name__)

EVENTS = (
    "your_turn",
    "game_ended",
    "undo_requested",
    "draw_offered",
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


Address = IPv4Address | IPv6Address
Network = IPv4Network | IPv6Network

# Why an IPv4 address is not called: the words of the first network here that holds it.
# What none holds but is not global all the same (documentation, benchmarking, protocol
# assignments) is ``NOT_REACHABLE``.
IPV4_REFUSED: tuple[tuple[IPv4Network, str], ...] = (
    (IPv4Network("0.0.0.0/8"), "an address of this host on this network (0.0.0.0/8)"),
    (IPv4Network("10.0.0.0/8"), "a private address"),
    (IPv4Network("100.64.0.0/10"), "a shared address, used inside carrier-grade NAT"),
    (IPv4Network("127.0.0.0/8"), "a loopback address"),
    (IPv4Network("169.254.169.254/32"), "the link-local address where cloud metadata services answer"),
    (IPv4Network("169.254.0.0/16"), "a link-local address"),
    (IPv4Network("172.16.0.0/12"), "a private address"),
    (IPv4Network("192.168.0.0/16"), "a private address"),
    (IPv4Network("224.0.0.0/4"), "a multicast address"),
    (IPv4Network("255.255.255.255/32"), "the broadcast address"),
    (IPv4Network("240.0.0.0/4"), "a reserved address"),
)
NOT_REACHABLE = "a special-purpose address, not reachable from the internet"

# The IPv6 forms that carry an IPv4 address: a connection to one may reach the IPv4
# address inside (a dual-stack socket, a NAT64 gateway, a 6to4 relay, a Teredo tunnel).
IPV4_MAPPED = IPv6Network("::ffff:0:0/96")
IPV4_TRANSLATED = IPv6Network("::ffff:0:0:0/96")
IPV4_COMPATIBLE = IPv6Network("::/96")
NAT64_WELL_KNOWN = IPv6Network("64:ff9b::/96")
NAT64_LOCAL_USE = IPv6Network("64:ff9b:1::/48")
TEREDO = IPv6Network("2001::/32")

IPV6_REFUSED: tuple[tuple[IPv6Network, str], ...] = (
    (IPv6Network("::/128"), "the unspecified address"),
    (IPv6Network("::1/128"), "the loopback address"),
    (IPV4_COMPATIBLE, "an IPv4-compatible address, a form deprecated since 2006 (RFC 4291)"),
    (IPV4_TRANSLATED, "an IPv4-translated address, a form of the obsolete SIIT (RFC 2765)"),
    (NAT64_LOCAL_USE, "a local-use NAT64 address (64:ff9b:1::/48), which reaches IPv4 addresses of its own network"),
    (TEREDO, "a Teredo address (2001::/32), a tunnel to the IPv4 addresses inside it"),
    (IPv6Network("fc00::/7"), "a unique local (private) address"),
    (IPv6Network("fe80::/10"), "a link-local address"),
    (IPv6Network("fec0::/10"), "a site-local (private) address"),
    (IPv6Network("ff00::/8"), "a multicast address"),
)


def carried_ipv4(address: IPv6Address) -> tuple[tuple[str, IPv4Address], ...]:
    """The IPv4 addresses inside an IPv6 address, each with the name of the form that
    carries it: IPv4-mapped, IPv4-translated, IPv4-compatible (but ``::`` and ``::1``),
    NAT64 (the well-known and the local-use prefix, the IPv4 address in the last 32
    bits), 6to4 (bits 16 to 48) and Teredo (its server, and its client: the last 32 bits
    inverted)."""
    last_32_bits = IPv4Address(int(address) & 0xFFFFFFFF)
    if address.ipv4_mapped is not None:
        return (("IPv4-mapped", address.ipv4_mapped),)
    if address in IPV4_TRANSLATED:
        return (("IPv4-translated", last_32_bits),)
    if address in IPV4_COMPATIBLE and int(address) > 1:
        return (("IPv4-compatible", last_32_bits),)
    if address in NAT64_WELL_KNOWN:
        return (("NAT64", last_32_bits),)
    if address in NAT64_LOCAL_USE:
        return (("local-use NAT64", last_32_bits),)
    if address.sixtofour is not None:
        return (("6to4", address.sixtofour),)
    if address.teredo is not None:
        server, client = address.teredo
        return (("Teredo server", server), ("Teredo client", client))
    return ()


def _why_not_public_ipv4(address: IPv4Address) -> str | None:
    for network, why in IPV4_REFUSED:
        if address in network:
            return why
    return None if address.is_global else NOT_REACHABLE


def _why_not_public_ipv6(address: IPv6Address) -> str | None:
    """Why the IPv6 address itself is not public, whatever IPv4 address it carries."""
    for network, why in IPV6_REFUSED:
        if address in network:
            return why
    if not address.is_global:
        return NOT_REACHABLE
    # Python counts the whole of ::/8 reserved, the NAT64 well-known prefix with it, which
    # IANA lists as globally reachable.
    if address.is_reserved and address not in NAT64_WELL_KNOWN:
        return "an address outside the ranges IANA has assigned"
    return None


LOCAL_NAME_ENDINGS = (".localhost", ".local", ".internal")


@dataclass(frozen=True)
class AllowList:
    """The operator's allow-list (``Config.webhook_allow``). Empty: any host whose
    addresses are public. Otherwise a URL's host must be a listed name (``*.example.com``:
    any name under it) or an address within a listed network, and every address it
    resolves to must be public or within a listed network.

    An IPv6 form that carries IPv4 addresses is within the list when every IPv4 address
    it carries is (listing ``10.1.0.0/16`` admits ``::ffff:10.1.2.3`` and
    ``64:ff9b::10.1.2.3``), as a connection to it reaches them; or when the IPv6 address
    itself is in a listed network. The local-use NAT64 prefix is the exception: its
    gateway may place the IPv4 address elsewhere than the last 32 bits (RFC 6052), so
    only listing its IPv6 network admits it."""

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

    def _listed(self, address: Address) -> bool:
        if any(address in network for network in self.networks):
            return True
        if isinstance(address, IPv4Address) or address in NAT64_LOCAL_USE:
            return False
        carried = carried_ipv4(address)
        return bool(carried) and all(self._listed(ipv4) for _, ipv4 in carried)

    def address_refusal(self, address: Address) -> str | None:
        """Why a delivery may not connect to ``address``, in words ("a loopback address",
        "the NAT64 form of 10.0.0.1, a private address"); None when it may. An IPv6
        address is refused for an IPv4 address it carries, unless listed, as well as for
        itself; an IPv4-mapped one is that IPv4 address only, as an IPv6 socket spells it."""
        if self._listed(address):
            return None
        if isinstance(address, IPv4Address):
            return _why_not_public_ipv4(address)
        for form, ipv4 in carried_ipv4(address):
            why = None if self._listed(ipv4) else _why_not_public_ipv4(ipv4)
            if why is not None:
                return f"the {form} form of {ipv4}, {why}"
        return None if address in IPV4_MAPPED else _why_not_public_ipv6(address)

    def host_refusal(self, host: str) -> str | None:
        """Why a URL may not name ``host`` (an address or a name, lower case), as a
        sentence naming it; None when it may."""
        address = _address(host)
        if address is not None and not self.empty:
            return None if self._listed(address) else f"{address} is in none of the listed networks"
        if address is not None:
            why = self.address_refusal(address)
            return None if why is None else f"{address} is {why}"
        if self.empty:
            local = host == "localhost" or host.endswith(LOCAL_NAME_ENDINGS)
            return f"{host} names this machine or its local network" if local else None
        if any(host == name or (name.startswith("*.") and host.endswith(name[1:])) for name in self.names):
            return None
        return f"{host} is not a listed name"

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
            return CommandError(Code.INVALID_REQUEST, f"The webhook URL {why}.", rule=URL_RULE)

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
        if isinstance(address, IPv6Address) and address.scope_id:
            raise refuse(f"has an IPv6 zone ({host})")
        if address is None:
            last = host.rsplit(".", 1)[-1]
            # 127.1, 2130706433 or 0x7f.1 resolve to addresses, yet no DNS name ends so.
            if HOST_NAME.fullmatch(host) is None or host.startswith("*") or len(host) > 253:
                raise refuse(f"has a host that is neither an address nor a DNS name ({host})")
            if last.isdigit() or last.startswith("0x"):
                raise refuse(f"has a host that is an address in a form other than the standard one ({host})")
        refusal = allow.host_refusal(host)
        if refusal is not None:
            raise refuse(f"names a host this service does not call: {refusal} (it calls {allow.describe()})")
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


# -- the store ---------------------------------------------------------------------


class WebhookStore(abc.ABC):
    """Where the webhooks and their deliveries are kept: each webhook's record (JSON), the
    webhooks of each player, each delivery's record and its webhook's latest ones, the
    deliveries still open with when each is due, and the leases of their senders."""

    @abc.abstractmethod
    def add(self, player_id: str, webhook_id: str, record: dict[str, Any], cap: int) -> bool:
        """Write the player's new webhook unless the player has ``cap`` already (False):
        the count and the write at once."""

    @abc.abstractmethod
    def hook(self, webhook_id: str) -> dict[str, Any] | None: ...

    @abc.abstractmethod
    def hooks_of(self, players: Sequence[str]) -> dict[str, list[str]]:
        """The ids of each player's webhooks, in one round trip."""

    @abc.abstractmethod
    def holds(self, player_id: str, webhook_id: str) -> bool: ...

    @abc.abstractmethod
    def remove(self, player_id: str, webhook_id: str) -> bool:
        """Remove the player's webhook, its deliveries with it; False when the player has
        no such webhook."""

    @abc.abstractmethod
    def add_delivery(
        self, delivery: str, webhook_id: str, player_id: str, notice: dict[str, Any], at: int, kept: int
    ) -> bool:
        """Open a pending delivery, due ``at``, of the webhook, keeping the records of its
        latest ``kept`` (those still open stay); nothing when the webhook is gone. True when
        the delivery should be started: new, or there and not attempted yet."""

    @abc.abstractmethod
    def delivery(self, delivery: str) -> Delivery | None: ...

    @abc.abstractmethod
    def recent(self, webhook_id: str, limit: int) -> list[str]:
        """The ids of the webhook's latest ``limit`` deliveries, newest first."""

    @abc.abstractmethod
    def open_deliveries(self) -> list[tuple[str, int]]: ...

    @abc.abstractmethod
    def begin_attempt(self, delivery: str, at: int) -> int:
        """Count an attempt; its number, or 0 when the delivery is gone or done."""

    @abc.abstractmethod
    def record(
        self, delivery: str, status: str, at: int, due: int, code: int | None, error: str | None, done_seconds: int
    ) -> bool:
        """Set an open delivery's outcome: done (``FINAL``) it leaves the open ones and
        its record lives ``done_seconds`` more; else it is due again at ``due``. False
        (nothing changed) when it is gone or already done."""

    @abc.abstractmethod
    def lease(self, delivery: str, token: str, seconds: float) -> bool:
        """Take the delivery's lease for ``seconds`` under ``token``, unless one is held."""

    @abc.abstractmethod
    def lease_left(self, delivery: str) -> float: ...

    @abc.abstractmethod
    def release(self, delivery: str, token: str) -> None:
        """Drop the lease if ``token`` still holds it."""


class Webhooks:
    """The players' webhooks and their deliveries, and the start of a delivery when a
    notice is noted (``notify``)."""

    def __init__(self, store: WebhookStore, allow: Iterable[str] = ()) -> None:
        self.store = store
        self.allow = AllowList.of(allow)
        self.runner: DeliveryRunner = NoDeliveryRunner()

    # webhooks
    def register(self, player_id: str, url: Any, events: Sequence[str] | None) -> dict[str, Any]:
        """A new webhook of the player, with its secret (shown this once). ``invalid_request``
        for a URL outside ``URL_RULE`` or the allow-list, for bad events, or over the cap."""
        target = Target.parse(url, self.allow)
        chosen = list(EVENTS) if events is None else list(events)
        if not chosen or len(set(chosen)) != len(chosen) or any(e not in EVENTS for e in chosen):
            raise CommandError(Code.INVALID_REQUEST, EVENTS_RULE, rule=EVENTS_RULE)
        webhook_id = "wh_" + secrets.token_urlsafe(12).replace("-", "x").replace("_", "y")
        record = {
            "id": webhook_id,
            "player": player_id,
            "url": target.url,
            "events": chosen,
            "secret": "whsec_" + secrets.token_urlsafe(32),
            "created_at": _iso(now_ms()),
        }
        if not self.store.add(player_id, webhook_id, record, MAX_PER_PLAYER):
            raise CommandError(Code.INVALID_REQUEST, CAP_RULE, rule=CAP_RULE)
        return shown(record) | {"secret": record["secret"]}

    def hook(self, webhook_id: str) -> dict[str, Any] | None:
        """A webhook's whole record, its secret included (for signing only)."""
        return self.store.hook(webhook_id)

    def of_player(self, player_id: str) -> list[dict[str, Any]]:
        """The player's webhooks, oldest first, without their secrets."""
        ids = sorted(self.store.hooks_of([player_id])[player_id])
        records = [self.hook(i) for i in ids]
        return sorted((shown(r) for r in records if r is not None), key=lambda r: (r["created_at"], r["id"]))

    def owned(self, player_id: str, webhook_id: str) -> dict[str, Any]:
        """The player's webhook ``webhook_id``; ``not_found`` when it is not the player's."""
        record = self.hook(webhook_id) if self.store.holds(player_id, webhook_id) else None
        if record is None or record.get("player") != player_id:
            raise CommandError(Code.NOT_FOUND, f"You have no webhook '{webhook_id}'.")
        return record

    def delete(self, player_id: str, webhook_id: str) -> None:
        """Remove the player's webhook and its deliveries (those not sent are not sent)."""
        if not self.store.remove(player_id, webhook_id):
            raise CommandError(Code.NOT_FOUND, f"You have no webhook '{webhook_id}'.")

    def delete_all(self, player_id: str) -> int:
        """Remove every webhook of the player (its key revoked: it is told nothing more)."""
        hooks = self.store.hooks_of([player_id])[player_id]
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
        owned = self.store.hooks_of(players)
        if not any(owned.values()):
            return []
        hooks: dict[str, list[dict[str, Any]]] = {}
        for player, ids in owned.items():
            records = [self.hook(i) for i in sorted(ids)]
            hooks[player] = [r for r in records if r is not None and r.get("player") == player]
        started: list[str] = []
        at = now_ms()
        for player, notice in items:
            for hook in hooks.get(player, []):
                if notice.get("type") not in hook["events"]:
                    continue
                delivery = delivery_id(hook["id"], notice)
                if self.store.add_delivery(delivery, hook["id"], player, notice, at, KEPT_DELIVERIES):
                    started.append(delivery)
        if started:
            try:
                self.runner.start(started)
            except Exception:  # the deliveries are kept open: a worker sends them when it starts
                log.exception("could not start %d webhook deliveries", len(started))
        return started

    def delivery(self, delivery: str) -> Delivery | None:
        return self.store.delivery(delivery)

    def recent(self, webhook_id: str, limit: int = KEPT_DELIVERIES) -> list[Delivery]:
        """The webhook's latest deliveries, newest first."""
        found = [self.delivery(i) for i in self.store.recent(webhook_id, limit)]
        return [d for d in found if d is not None]

    def open_deliveries(self) -> list[tuple[str, int]]:
        """Every delivery neither delivered nor failed, with when it is due (ms)."""
        return self.store.open_deliveries()

    def begin_attempt(self, delivery: str, at: int) -> int:
        """Count an attempt before it is made (a worker killed while sending has used it);
        its number, or 0 when the delivery is gone or done."""
        return self.store.begin_attempt(delivery, at)

    def record(self, delivery: str, status: str, at: int, due: int, code: int | None, error: str | None) -> bool:
        """Record an attempt's outcome; False (nothing changed) when the delivery is gone or
        was already done (by another attempt of the same id)."""
        kept_error = None if error is None else error[:500]
        return self.store.record(delivery, status, at, due, code, kept_error, DONE_SECONDS)

    def lease(self, delivery: str, seconds: float) -> str | None:
        """Hold the delivery for one sender for ``seconds``; the lease's token, or None when
        another holds it."""
        token = secrets.token_hex(8)
        return token if self.store.lease(delivery, token, seconds) else None

    def lease_left(self, delivery: str) -> float:
        """Seconds until the delivery's lease lapses (0 when none is held)."""
        return self.store.lease_left(delivery)

    def release(self, delivery: str, token: str) -> None:
        self.store.release(delivery, token)


def shown(record: dict[str, Any]) -> dict[str, Any]:
    """What the API shows of a webhook (never its secret)."""
    return {key: record[key] for key in ("id", "url", "events", "created_at")}
