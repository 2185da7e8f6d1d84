"""Rate limits in Redis as a generic cell rate algorithm (GCRA): per client address and
per bearer token, ``limit`` requests per ``window``, at most ``limit`` of them at once
from rest and then evenly spaced, one every ``window / limit``. Both checks, and the
read of whom the token acts for, are one atomic Lua round trip on Redis's own clock.
On a cluster each counter is a slot of its own, so no one master holds what every
request reads: the token's counter, the address's and the owner are read one after
the other. While the counters' Redis is away (a master killed, until its replica is
promoted), each process judges requests by counters of its own (``LocalCounter``).

A fixed window lets a client spend its whole allowance in the window's first
milliseconds, every window, and twice over across a window's end; the requests of
everyone else sharing the server wait behind each such burst. Here a flood gets its
allowance spread out, one request per interval, and a refused request spends nothing.

Each key holds one number, the theoretical arrival time (ms) of the next request at
the sustained rate, and is only ever written together with its expiry: the moment the
allowance is whole again, never more than one window away. No key can outlive its
window; one found without an expiry (left by an older version, whose ``SET NX`` and
``INCR`` were separate steps) is read as a client at rest.

The states never reach the append-only file or a replica (``redis.set_repl``): a state
lost with a restart or a failover only lets a client start its window afresh, and a
Redis that fsyncs every write (``appendfsync always``, as ``tablestream serve`` runs its
own) otherwise waits for the disk once more on every request, before the action's own
append waits for it again."""

from __future__ import annotations

import ipaddress
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import redis

from events.keys import clustered

HIT_LUA = """
-- KEYS[1]: the address's state; KEYS[2], KEYS[3] (optional): the token's state and the
-- key naming whom the token acts for. ARGV[1]: the window in ms; ARGV[2], ARGV[3]: the
-- address's and the token's limits. Returns {refused by (0 none, 1 the address, 2 the
-- token), ms until a request would be allowed, the token's owner}.
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + tonumber(clock[2]) / 1000
local window = tonumber(ARGV[1])
local function check(key, limit)
  local interval = window / limit
  local tat = tonumber(redis.call('GET', key))
  -- Absent, at rest, or without an expiry (never written so by this script): at rest.
  if tat == nil or tat < now or redis.call('PTTL', key) < 0 then tat = now end
  local next_tat = tat + interval
  local allowed_at = next_tat - window
  if now < allowed_at then return next_tat, math.ceil(allowed_at - now) end
  return next_tat, 0
end
local address_tat, address_wait = check(KEYS[1], tonumber(ARGV[2]))
local token_tat, token_wait = 0, 0
if #KEYS > 1 then token_tat, token_wait = check(KEYS[2], tonumber(ARGV[3])) end
local owner = false
if #KEYS > 2 then owner = redis.call('GET', KEYS[3]) end
if token_wait > 0 then return {2, token_wait, owner} end
if address_wait > 0 then return {1, address_wait, owner} end
-- Allowed: both states move on together, each with its expiry in the same step. They are
-- soft state, at most a window old: kept out of the append-only file and the replicas, so
-- that on a Redis that fsyncs every write a request waits for no disk here.
if redis.set_repl then redis.set_repl(redis.REPL_NONE) end  -- (fakeredis has none)
redis.call('SET', KEYS[1], string.format('%.3f', address_tat), 'PX', math.max(1, math.ceil(address_tat - now)))
if #KEYS > 1 then
  redis.call('SET', KEYS[2], string.format('%.3f', token_tat), 'PX', math.max(1, math.ceil(token_tat - now)))
end
return {0, 0, owner}
"""

ADDRESS, TOKEN = 1, 2


@dataclass(frozen=True)
class Hit:
    """One request's verdict: who refused it (None: allowed), how long until a request
    would be allowed, and whom its token acts for."""

    refused_by: int | None
    wait_ms: int = 0
    owner: bytes | None = None
    local: bool = False
    """Judged by this process's own counters (``LocalCounter``), the owner unread."""


class RateCounter:
    """The one-round-trip checking script, registered once per Redis client, and this
    process's own counters for when the Redis ones are away (``LocalCounter``)."""

    def __init__(self, client: redis.Redis) -> None:
        self._client = client
        self._hit = client.register_script(HIT_LUA)
        # On a cluster each counter has a slot of its own (``counter_key``), so the token's
        # and the address's are checked one after the other, and the owner's key is read
        # by a command of its own.
        self._clustered = clustered(client)
        self.local = LocalCounter()

    def hit(
        self,
        address_key: str,
        address_limit: int,
        window_seconds: float,
        token_keys: tuple[str, str] | None = None,
        token_limit: int = 1,
    ) -> Hit:
        """Check one request against ``address_key`` and, given ``(token state, token
        owner key)``, against the token too, reading the owner in the same step. An
        allowed request spends one from each; a refused one spends nothing (on a cluster,
        a request its address refuses has spent one of its token's). With the counters'
        Redis away, this process's own counters judge it, at the same limits, and the
        owner is not read (``Hit.local``)."""
        window_ms = max(1, round(window_seconds * 1000))
        try:
            if self._clustered:
                return self._hit_apart(address_key, address_limit, window_ms, token_keys, token_limit)
            keys = [address_key, *token_keys] if token_keys else [address_key]
            refused, wait, owner = self._hit(keys=keys, args=[window_ms, max(1, address_limit), max(1, token_limit)])
            return Hit(int(refused) or None, int(wait), owner or None)
        except redis.RedisError:
            return self.local.hit(address_key, address_limit, window_ms, token_keys, token_limit)

    def _hit_apart(
        self,
        address_key: str,
        address_limit: int,
        window_ms: int,
        token_keys: tuple[str, str] | None,
        token_limit: int,
    ) -> Hit:
        """On a cluster: the token's counter first (a token over its limit spends nothing
        of its address's, which others behind the same address share), then the address's."""
        if token_keys is not None:
            refused, wait, _ = self._hit(keys=[token_keys[0]], args=[window_ms, max(1, token_limit), 1])
            if int(refused):
                return Hit(TOKEN, int(wait))
        refused, wait, _ = self._hit(keys=[address_key], args=[window_ms, max(1, address_limit), 1])
        owner = self._client.get(token_keys[1]) if token_keys is not None else None
        return Hit(ADDRESS if int(refused) else None, int(wait), owner or None)


class LocalCounter:
    """The same cell rate algorithm in this process's memory, for when the counters' Redis
    is away: each process then holds each client to the limits alone (a client spread over
    N processes may get N times its limit, for as long as the counters are away). Keyed as
    the Redis counters are; at most ``capacity`` states, those at rest dropped first."""

    def __init__(self, capacity: int = 100_000, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = capacity
        self.clock = clock
        self._tats: dict[str, float] = {}
        self.judged = 0  # requests judged here: the metric of the counters being away

    def _check(self, key: str, limit: int, window_ms: int, now: float) -> tuple[float, int]:
        interval = window_ms / max(1, limit)
        tat = max(self._tats.get(key, now), now)
        allowed_at = tat + interval - window_ms
        return tat + interval, 0 if now >= allowed_at else math.ceil(allowed_at - now)

    def hit(
        self,
        address_key: str,
        address_limit: int,
        window_ms: int,
        token_keys: tuple[str, str] | None = None,
        token_limit: int = 1,
    ) -> Hit:
        self.judged += 1
        now = self.clock() * 1000
        if len(self._tats) >= self.capacity:
            self._tats = {key: tat for key, tat in self._tats.items() if tat > now}
            if len(self._tats) >= self.capacity:
                self._tats.clear()
        address_tat, address_wait = self._check(address_key, address_limit, window_ms, now)
        token_tat, token_wait = 0.0, 0
        if token_keys is not None:
            token_tat, token_wait = self._check(token_keys[0], token_limit, window_ms, now)
            if token_wait:
                return Hit(TOKEN, token_wait, local=True)
        if address_wait:
            return Hit(ADDRESS, address_wait, local=True)
        self._tats[address_key] = address_tat
        if token_keys is not None:
            self._tats[token_keys[0]] = token_tat
        return Hit(None, 0, local=True)


class OverLimit:
    """Tokens this process has seen refused, each with the moment Redis said it would
    allow the token's next request. Until then every request of the token is refused
    anyway (a refused request changes nothing in Redis), so a process may refuse it
    without asking, and before any routing (``service.http.over_limit_gate``). It only
    ever refuses what Redis would refuse too; a state deleted early only means this
    process refuses until that moment."""

    def __init__(self, capacity: int = 10_000) -> None:
        self.capacity = capacity
        self._ends: dict[str, float] = {}

    def left_ms(self, key: str, now: float) -> int | None:
        """Milliseconds the token keyed ``key`` stays refused, or None if it is not."""
        ends = self._ends.get(key)
        if ends is None or ends <= now:
            return None
        return max(1, round((ends - now) * 1000))

    def remember(self, key: str, now: float, left_ms: int) -> None:
        if len(self._ends) >= self.capacity:
            for old in [old for old, end in self._ends.items() if end <= now]:
                del self._ends[old]
            if len(self._ends) >= self.capacity:
                self._ends.clear()
        self._ends[key] = now + left_ms / 1000


def retry_after(left_ms: int) -> int:
    """Whole seconds until a request would be allowed, never less than one
    (Retry-After's unit)."""
    return max(1, math.ceil(left_ms / 1000))


def client_address(remote_addr: str | None, forwarded_for: str | None, trusted: int | tuple[str, ...]) -> str:
    """The address a request counts against. With no trusted proxies (the default),
    the peer's own address: X-Forwarded-For is anyone's to write. With ``trusted`` a
    count N, the N-th address from the right of X-Forwarded-For (what the outermost of N
    proxies saw), or the peer's if the header holds fewer. With ``trusted`` a list of
    addresses or networks, X-Forwarded-For is read from the right only while the peer
    and each hop are trusted: the first untrusted hop is the client."""
    peer = remote_addr or "?"
    if not trusted or not forwarded_for:
        return peer
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    if isinstance(trusted, int):
        return hops[-trusted] if len(hops) >= trusted else peer
    networks = _networks(trusted)
    client = peer
    for hop in [peer, *reversed(hops)]:
        client = hop
        try:
            address = ipaddress.ip_address(hop)
        except ValueError:
            return hop
        if not any(address in network for network in networks):
            return hop
    return client


def trusted_proxy(peer: str, trusted: int | tuple[str, ...]) -> bool:
    """Whether ``peer`` is one of the trusted proxies (behind a counted chain of them, the
    peer is always the nearest)."""
    if isinstance(trusted, int):
        return trusted > 0
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    return any(address in network for network in _networks(trusted))


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)


def counter_key(prefix: str, client: object, *parts: str) -> str:
    """A rate counter's key (``ip``, address or ``token``, digest). On a cluster each
    counter is its own hash tag, so the counters spread over every slot: no one master
    holds the counters every request reads."""
    if clustered(client):
        return f"{prefix}:rate:{{{':'.join(parts)}}}"
    return ":".join((prefix, "rate", *parts))
