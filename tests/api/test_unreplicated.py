"""The replica policy, when fewer replicas than asked confirm a change that can be asked
again (an action with an Idempotency-Key) in time: ``refuse`` (the default) answers 503
and acknowledges nothing; ``acknowledge`` (``TABLESTREAM_UNREPLICATED``) answers it with
``"replicated": false`` and records it, and the audit lists those versions. The store's
replicas are played by its append reporting no replica's confirmation; a real cluster
losing a replica is ``tests/reliability/test_reliability_replicas.py``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import fakeredis
import pytest

from core.config import Config
from core.tooling import audit_game
from service.app import create_app
from stores.platform import Platform
from tests.api.conftest import bearer, new_tiny


def replicas_away(platform: Platform, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every append from now on is written, and no replica confirms it in time."""
    append = platform.store.append

    def unconfirmed(*args: Any, **kwargs: Any) -> Any:
        return replace(append(*args, **kwargs), replicated=False)

    monkeypatch.setattr(platform.store, "append", unconfirmed)


@pytest.mark.parametrize("policy", ["refuse", "acknowledge"])
def test_a_change_no_replica_confirmed_is_refused_or_acknowledged_as_unreplicated(
    policy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = Config(redis_url="fake", rate_per_address=10**6, rate_per_token=10**6, unreplicated=policy)
    platform = Platform(config, fakeredis.FakeRedis())
    client = create_app(config, platform).test_client()
    game = new_tiny(client)
    seat = bearer(game["seats"][0]["token"])
    replicas_away(platform, monkeypatch)
    sent = {"action": {"type": "add", "amount": 1}, "expected_version": game["version"]}
    answer = client.post(f"/v1/games/{game['id']}/actions", json=sent, headers={**seat, "Idempotency-Key": "k1"})
    if policy == "refuse":
        assert answer.status_code == 503 and answer.get_json()["code"] == "unavailable"
        assert "replicated" not in audit_game(platform, game["id"]).checks["replication"].split(":")[0]
        assert platform.store.unreplicated(game["id"]) == []
        return
    assert answer.status_code == 200 and answer.get_json()["replicated"] is False
    version = answer.get_json()["version"]
    again = client.post(f"/v1/games/{game['id']}/actions", json=sent, headers={**seat, "Idempotency-Key": "k1"})
    assert again.get_json()["duplicate"] is True and again.get_json()["version"] == version
    monkeypatch.undo()  # the replicas are back: the next change is confirmed
    sent = {"action": {"type": "add", "amount": 1}, "expected_version": version}
    other = bearer(game["seats"][1]["token"])
    confirmed = client.post(f"/v1/games/{game['id']}/actions", json=sent, headers={**other, "Idempotency-Key": "k2"})
    assert confirmed.get_json()["replicated"] is True
    report = audit_game(platform, game["id"])
    [(first, last)] = platform.store.unreplicated(game["id"])  # the first action's versions only
    assert report.ok and first == game["version"] + 1 and last == version
    assert report.checks["replication"].endswith(f"versions {first}-{last}")


def test_the_setting_takes_only_its_two_policies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLESTREAM_UNREPLICATED", "Acknowledge")
    assert Config.from_env().unreplicated == "acknowledge"
    monkeypatch.setenv("TABLESTREAM_UNREPLICATED", "sometimes")
    with pytest.raises(ValueError, match="refuse, acknowledge"):
        Config.from_env()
