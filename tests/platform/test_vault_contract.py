"""The vault's promises, kept alike by the Redis vault (on fakeredis, on the real test
Redis and on a local Redis Cluster) and its in-memory twin: seeds per game, tokens shown once and kept only as
hashes, revocation, and idempotent creation records that a retry with the same key (and
only that key) can read back."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator

import fakeredis
import pytest
import redis

from core.vault import MemoryVault, Secrets
from stores.vault import RedisVault
from tests.conftest import delete_prefixed
from tests.localcluster import local_cluster  # noqa: F401  (a fixture)


@pytest.fixture(params=["memory", "fakeredis", "redis", "cluster"])
def vault(request: pytest.FixtureRequest) -> Iterator[Secrets]:
    if request.param == "memory":
        yield MemoryVault()
    elif request.param == "fakeredis":
        yield RedisVault(fakeredis.FakeRedis(), prefix="vault")
    elif request.param == "cluster":
        # The session's cluster, and every key in it, goes when the session ends.
        yield RedisVault(request.getfixturevalue("local_cluster").client(), prefix=f"vault-{uuid.uuid4().hex[:12]}")
    else:
        client: redis.Redis = request.getfixturevalue("real_redis")
        prefix: str = request.getfixturevalue("prefix")
        yield RedisVault(client, prefix=prefix)
        delete_prefixed(client, prefix)


def test_a_seed_is_kept_per_game(vault: Secrets) -> None:
    vault.set_seed("g1", "seed-one")
    vault.set_seed("g2", "seed-two")
    assert vault.seed("g1") == "seed-one" and vault.seed("g2") == "seed-two"
    with pytest.raises(LookupError):
        vault.seed("nowhere")


def test_tokens_act_for_their_seat_until_revoked(vault: Secrets) -> None:
    first, second, other = vault.issue_token("g", 0), vault.issue_token("g", 1), vault.issue_token("h", 0)
    assert len({first, second, other}) == 3 and all(len(t) >= 43 for t in (first, second, other))
    assert vault.owner(first) == ("g", 0) and vault.owner(second) == ("g", 1) and vault.owner(other) == ("h", 0)
    assert vault.owner(first + "x") is None and vault.owner("") is None
    vault.revoke("g", 0)
    assert vault.owner(first) is None and vault.owner(second) == ("g", 1) and vault.owner(other) == ("h", 0)


def test_a_redis_vault_keeps_only_hashes_of_tokens(real_redis: redis.Redis, prefix: str) -> None:
    vault = RedisVault(real_redis, prefix=prefix)
    token = vault.issue_token("g", 0)
    stored = b"".join(
        key + (real_redis.get(key) or b"" if real_redis.type(key) == b"string" else b"".join(real_redis.hkeys(key)))
        for key in real_redis.scan_iter(match=f"{prefix}:*")
    )
    assert token.encode() not in stored and hashlib.sha256(token.encode()).hexdigest().encode() in stored


def test_a_create_key_is_claimed_once_and_answers_retries_with_the_first_tokens(vault: Secrets) -> None:
    assert vault.claim_create("key-1", "fp") is None, "the first request owns the key"
    pending = vault.claim_create("key-1", "fp")
    assert pending == {"fingerprint": "fp", "game": None}, "a retry meanwhile sees the claim"
    vault.finish_create("key-1", "fp", "g", {0: "token-zero", 1: "token-one"})
    record = vault.claim_create("key-1", "fp")
    assert record is not None and record["game"] == "g" and record["fingerprint"] == "fp"
    assert "token-zero" not in str(record), "the record holds the tokens masked"
    assert vault.created_tokens("key-1", record) == {0: "token-zero", 1: "token-one"}
    try:  # only the key unmasks: another gives bytes that are not the tokens (nor, mostly, text)
        assert vault.created_tokens("key-2", record) != {0: "token-zero", 1: "token-one"}
    except UnicodeDecodeError:
        pass
    assert vault.claim_create("key-2", "fp") is None, "another key is another create"


def test_an_abandoned_create_frees_its_key(vault: Secrets) -> None:
    assert vault.claim_create("key", "fp") is None
    vault.abandon_create("key")
    assert vault.claim_create("key", "other") is None


def test_a_rematch_is_claimed_once_then_linked_for_good(vault: Secrets) -> None:
    assert vault.rematch("g-old") is None
    assert vault.claim_rematch("g-old"), "the first request makes the rematch"
    assert not vault.claim_rematch("g-old"), "a second one meanwhile waits for it"
    assert vault.rematch("g-old") == vault.PENDING
    vault.link_rematch("g-old", "g-new")
    assert vault.rematch("g-old") == "g-new"
    assert not vault.claim_rematch("g-old"), "a linked game is never rematched twice"
    assert vault.rematch("g-other") is None


def test_a_dropped_rematch_claim_frees_the_game(vault: Secrets) -> None:
    assert vault.claim_rematch("g-old")
    vault.link_rematch("g-old", None)
    assert vault.rematch("g-old") is None
    assert vault.claim_rematch("g-old")
