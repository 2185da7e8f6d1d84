"""Witnesses (``tablestream witness``, docs/verification.md section 6) against an operator
who rewrites the ledger and against one who shows two ledgers to two clients.

Given two witnesses that have each accepted and cosigned a checkpoint of the service's
ledger, when the operator rewrites an old entry (every hash recomputed, the tree's
kept nodes dropped, the service restarted) and the ledger grows, then both witnesses
raise an alarm naming both checkpoints and keep the one they had. When the operator runs
two ledgers under one key and shows one to each client, each witness watching one of
them sees nothing wrong alone; a client's checkpoint handed to the other witness raises
the alarm. Honest growth is accepted and cosigned, and the service serves the
cosignatures, each verifiable under its witness's key."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import Any

import fakeredis
import pytest
from flask.testing import FlaskClient

from core.config import Config
from events.envelope import GENESIS_HASH
from events.ledger import entry_hash
from events.transparency import Signer, cosign, cosigned_by, witness_vkey
from service.app import create_app
from service.witness import Alarm, Witness
from stores.platform import Platform

LOG_KEY = base64.b64encode(hashlib.sha256(b"the operator's log key").digest()).decode()
SEEDS = {name: hashlib.sha256(name.encode()).digest() for name in ("w1.example.org", "w2.example.org")}
WITNESS_KEYS = tuple(witness_vkey(name, Signer(name, seed).public_key) for name, seed in SEEDS.items())


def service(client: fakeredis.FakeRedis | None = None) -> tuple[Platform, FlaskClient]:
    config = Config(
        redis_url="fake", rate_per_address=10**6, rate_per_token=10**6, log_key=LOG_KEY, witnesses=WITNESS_KEYS
    )
    platform = Platform(config, client or fakeredis.FakeRedis())
    return platform, create_app(config, platform).test_client()


def finish(platform: Platform, first: int, count: int, tag: str = "g") -> None:
    for n in range(first, first + count):
        platform.ledger.record(f"{tag}{n}", "tiny", 10 + n, hashlib.sha256(f"{tag}{n}".encode()).hexdigest(), "t")


def witness(name: str, client: FlaskClient, folder: Path) -> Witness:
    def fetch(path: str) -> str:
        answer = client.get(path)
        if answer.status_code != 200:  # as urllib raises for the CLI
            raise LookupError(f"{path}: {answer.status_code}")
        return answer.get_data(as_text=True)

    def post(path: str, body: dict[str, Any]) -> int:
        return client.post(path, json=body).status_code

    return Witness(folder / f"{name}.json", fetch, post, name, SEEDS[name], clock=lambda: 1_800_000_000)


def kept(folder: Path, name: str) -> str:
    return str(json.loads((folder / f"{name}.json").read_text())["checkpoint"])


def size_of(note: str) -> int:
    return int(note.split("\n")[1])


def rewrite_entry(platform: Platform, index: int) -> None:
    """The operator's rewrite: entry ``index`` gets another head, and every entry from it
    on is chained again, the stream written anew and the tree's kept nodes dropped."""
    ledger = platform.ledger
    entries = ledger.page(0, 10_000)
    entries[index - 1]["hash"] = hashlib.sha256(b"a rewritten head").hexdigest()
    prev = GENESIS_HASH
    for entry in entries:
        entry["prev"] = prev
        entry["entry_hash"] = prev = entry_hash(prev, entry)
    platform.redis.delete(ledger.key, ledger.tree_key)
    for entry in entries:
        platform.redis.xadd(ledger.key, {"e": json.dumps(entry)}, id=f"{entry['index']}-0")


def test_two_witnesses_cosign_honest_growth_and_the_service_serves_their_cosignatures(tmp_path: Path) -> None:
    platform, client = service()
    finish(platform, 1, 10)
    for name in SEEDS:
        assert size_of(witness(name, client, tmp_path).run()) == 10
    finish(platform, 11, 7)
    for name in SEEDS:
        assert size_of(witness(name, client, tmp_path).run()) == 17
    served = client.get("/v1/ledger/checkpoint").get_data(as_text=True)
    text, _, signatures = served.partition("\n\n")
    lines = signatures.rstrip("\n").split("\n")
    assert len(lines) == 3  # the log's, then one per witness
    for name, seed in SEEDS.items():
        line = next(line for line in lines if line.startswith(f"\u2014 {name} "))
        assert cosigned_by(text + "\n", line, name, Signer(name, seed).public_key)
        assert not cosigned_by(text.replace("\n17\n", "\n18\n") + "\n", line, name, Signer(name, seed).public_key)
    # A cosignature by a witness the service does not keep, or over another tree, is refused.
    forged = cosign("w3.example.org", bytes(32), text + "\n", 1)
    assert client.post("/v1/ledger/cosignatures", json={"checkpoint": f"{text}\n\n{forged}\n"}).status_code == 422
    other_root = text.rsplit("\n", 1)[0] + "\n" + base64.b64encode(bytes(32)).decode()
    line = cosign("w1.example.org", SEEDS["w1.example.org"], other_root + "\n", 1)
    refused = client.post("/v1/ledger/cosignatures", json={"checkpoint": f"{other_root}\n\n{line}\n"})
    assert refused.status_code == 422 and "not a checkpoint of this log" in refused.get_json()["detail"]


def test_both_witnesses_alarm_when_the_operator_rewrites_an_entry(tmp_path: Path) -> None:
    platform, client = service()
    finish(platform, 1, 12)
    for name in SEEDS:
        witness(name, client, tmp_path).run()
    before = {name: kept(tmp_path, name) for name in SEEDS}
    rewrite_entry(platform, 3)
    restarted, client = service(platform.redis)  # a new process: nothing of the old tree in memory
    finish(restarted, 13, 1)
    for name in SEEDS:
        with pytest.raises(Alarm) as raised:
            witness(name, client, tmp_path).run()
        alarm = raised.value
        assert "does not extend the one kept (12)" in alarm.reason, alarm.reason
        report = alarm.report()
        assert before[name] in report and client.get("/v1/ledger/checkpoint").get_data(as_text=True) in report
        assert kept(tmp_path, name) == before[name], "the witness keeps what it had"


def test_a_split_view_is_caught_when_a_client_hands_its_checkpoint_to_a_witness(tmp_path: Path) -> None:
    # One operator, one key, two ledgers: the first five entries alike, then each its own.
    x_platform, x_client = service()
    y_platform, y_client = service()
    for platform, tag in ((x_platform, "x"), (y_platform, "y")):
        finish(platform, 1, 5)
        finish(platform, 6, 4, tag)
    shown_to_client_1 = x_client.get("/v1/ledger/checkpoint").get_data(as_text=True)
    shown_to_client_2 = y_client.get("/v1/ledger/checkpoint").get_data(as_text=True)
    w1 = witness("w1.example.org", x_client, tmp_path)
    w2 = witness("w2.example.org", y_client, tmp_path)
    assert size_of(w1.run()) == size_of(w2.run()) == 9  # alone, each sees one consistent ledger
    with pytest.raises(Alarm) as raised:
        w1.run(shown=[shown_to_client_2])
    assert "two checkpoints of 9 entries with different roots" in raised.value.reason
    assert shown_to_client_2 in raised.value.report() and shown_to_client_1 in raised.value.report()
    # The other way round, after the operator grew its second ledger: no proof ties them.
    finish(y_platform, 10, 3, "y")
    grown = y_client.get("/v1/ledger/checkpoint").get_data(as_text=True)
    with pytest.raises(Alarm) as raised:
        witness("w1.example.org", x_client, tmp_path).run(shown=[grown])
    assert "does not extend the one kept (9)" in raised.value.reason
    # An honest client's checkpoint, older than the witness's, is tied by a proof.
    finish(x_platform, 10, 2, "x")
    assert size_of(witness("w1.example.org", x_client, tmp_path).run(shown=[shown_to_client_1])) == 11


def test_the_command_watches_a_served_ledger_and_exits_1_on_an_alarm(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tablestream witness URL --state FILE --key FILE --name NAME`` over real HTTP."""
    import threading

    from werkzeug.serving import make_server

    from service.cli import main

    platform, _ = service()
    finish(platform, 1, 6)
    server = make_server("127.0.0.1", 0, create_app(platform.config, platform), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}"
        key = tmp_path / "w1.key"
        key.write_text(base64.b64encode(SEEDS["w1.example.org"]).decode())
        command = ["witness", url, "--state", str(tmp_path / "state.json"), "--key", str(key)]
        command += ["--name", "w1.example.org"]
        assert main(command) == 0
        out = capsys.readouterr().out
        assert f"witness key: {WITNESS_KEYS[0]}" in out and "checkpoint of 6 entries consistent" in out
        assert "w1.example.org" in platform.ledger.checkpoint()  # cosigned, and served with it
        rewrite_entry(platform, 2)
        platform.ledger.tree.memo.clear()
        platform.ledger._notes.clear()
        finish(platform, 7, 1)
        assert main(command) == 1
        assert "ALARM: the checkpoint of 7 entries does not extend the one kept (6)" in capsys.readouterr().err
    finally:
        server.shutdown()
        thread.join(5)
