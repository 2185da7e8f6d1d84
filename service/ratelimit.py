"""Fixed-window rate limits in Redis: one counter per client address and one per bearer
token, both counted, and the token's owner read, in one atomic Lua round trip.

A counter is only ever written together with its expiry, inside the script, so none can
outlive its window; one found without an expiry (left by an older version, whose
``SET NX`` and ``INCR`` were separate steps) starts a fresh window instead of refusing
its address forever."""

from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass
from functools import lru_cache

import redis

HIT_LUA = """
-- KEYS[1]: the address's counter; KEYS[2], KEYS[3] (optional): the token's counter and
-- the key naming whom the token acts for. ARGV[1]: the window in milliseconds.
-- Returns the address's count and milliseconds left, then the token's, then its owner.
local window = tonumber(ARGV[1])
local function hit(key)
  local left = redis.call('PTTL', key)
  if left < 0 then
    -- Absent (-2), or without an expiry (-1): either way a new window, set with its
    -- expiry in the same step. (Time stands still inside a script, so a key alive at
    -- PTTL is still alive at INCR.)
    redis.call('SET', key, 1, 'PX', window)
    return 1, window
  end
  return redis.call('INCR', key), left
end
local address_count, address_left = hit(KEYS[1])
if #KEYS == 1 then return {address_count, address_left} end
local token_count, token_left = hit(KEYS[2])
return {address_count, address_left, token_count, token_left, redis.call('GET', KEYS[3])}
"""


@dataclass(frozen=True)
class Hit:
    """One request's counts in its windows, and whom its token acts for."""

    address_count: int
    address_left_ms: int
    token_count: int | None = None
    token_left_ms: int = 0
    owner: bytes | None = None


class RateCounter:
    """The one-round-trip counting script, registered once per Redis client."""

    def __init__(self, client: redis.Redis) -> None:
        self._hit = client.register_script(HIT_LUA)

    def hit(self, address_key: str, window_seconds: float, token_keys: tuple[str, str] | None = None) -> Hit:
        """Count one request against ``address_key`` and, given ``(token counter, token
        owner key)``, against the token too, reading the owner in the same step."""
        window_ms = max(1, round(window_seconds * 1000))
        keys = [address_key, *token_keys] if token_keys else [address_key]
        reply = self._hit(keys=keys, args=[window_ms])
        if token_keys is None:
            return Hit(int(reply[0]), int(reply[1]))
        owner = reply[4] if len(reply) > 4 else None  # a nil at the end of a Lua table is dropped
        return Hit(int(reply[0]), int(reply[1]), int(reply[2]), int(reply[3]), owner)


def retry_after(left_ms: int) -> int:
    """Whole seconds until a window ends, never less than one (Retry-After's unit)."""
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


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)


def parse_trusted_proxies(value: str) -> int | tuple[str, ...]:
    """``TABLESTREAM_TRUSTED_PROXIES``: empty or 0 (off), a count of proxies, or a
    comma-separated list of proxy addresses or networks (checked here, at start-up)."""
    value = value.strip()
    if not value:
        return 0
    if value.isdigit():
        return int(value)
    entries = tuple(entry.strip() for entry in value.split(",") if entry.strip())
    for entry in entries:
        ipaddress.ip_network(entry, strict=False)
    return entries
