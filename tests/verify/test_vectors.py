"""The test vectors of docs/verification.md, section 9, in both verifiers; and canonical
JSON written alike by both, key order and escapes included (section 1)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from service import verifier
from tests.verify.conftest import ROOT, node

SEED = "5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed"
CARDS = ["AS", "KH", "QD", "JC", "10S", "9H", "2C", "AD"]
EVENT = {
    "schema": 2,
    "version": 5,
    "type": "CardDrawn",
    "seat": 1,
    "actor": "human",
    "data": {"seat": 1, "card": "QH"},
    "sealed": {"seat": 1, "card": {"$commit": "4d76819fa2edd233ab00223eb0602b59bf984e78a8982206adf8986afba41228"}},
    "at": "2026-11-23T12:00:00.000Z",
    "command_id": "seat-1:k1",
    "prev_hash": "a" * 64,
}


def spec_vectors() -> dict[str, Any]:
    """The table of section 9 and the whole event after it, read from the spec itself."""
    text = (ROOT / "docs" / "verification.md").read_text(encoding="utf-8")
    section = text[text.index("## 9. Test vectors") :]
    rows = dict(re.findall(r"^\| (.+?) \| `(.+?)` \|$", section, re.M))
    return {
        "seed_commitment": rows["`seed_commitment`"],
        "hmac": rows["first HMAC block of label `v7/0`"],
        "below": [
            int(rows["integer below 6, label `v7/0`"]),
            int(rows["integer below 52, label `v7/1`"]),
            int(rows["integer below 1000, label `v7/2`"]),
        ],
        "shuffle": json.loads(rows['shuffle of `["AS","KH","QD","JC","10S","9H","2C","AD"]`, label `v1/0`']),
        "salt_card": rows['salt, version 5, path `["card"]`'],
        "commit_card": rows['commitment to `"QH"` with that salt'],
        "salt_hands": rows['salt, version 9, path `["hands",1]`'],
        "commit_hands": rows['commitment to `["2C","KD"]` with that salt'],
        "body": re.search(r"Its hashed body is\n\n```\n(.+?)\n```", section, re.S).group(1),  # type: ignore[union-attr]
        "hash": re.search(r"its hash `([0-9a-f]{64})`", section).group(1),  # type: ignore[union-attr]
    }


def python_values() -> dict[str, Any]:
    v = verifier
    salt_card, salt_hands = v.salt(SEED, 5, ["card"]), v.salt(SEED, 9, ["hands", 1])
    return {
        "seed_commitment": v.sha256_hex(SEED),
        "hmac": v.hmac_sha256(SEED, "tablestream/draw/2\nv7/0\n0").hex(),
        "below": [v.below(n, v.byte_stream(SEED, label)) for n, label in ((6, "v7/0"), (52, "v7/1"), (1000, "v7/2"))],
        "shuffle": v.shuffled(CARDS, SEED, "v1/0"),
        "salt_card": salt_card.hex(),
        "commit_card": v.commitment(salt_card, "QH"),
        "salt_hands": salt_hands.hex(),
        "commit_hands": v.commitment(salt_hands, ["2C", "KD"]),
        "body": v.canonical_json(v.hashed_body(EVENT)),
        "hash": v.event_hash("a" * 64, EVENT),
    }


JS_VALUES = """
import * as v from %(module)s;
const SEED = %(seed)s, CARDS = %(cards)s, EVENT = %(event)s;
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const out = [];
for (const pure of [false, true]) {
  v.usePureHashing(pure);
  const saltCard = await v.salt(SEED, 5, ["card"]), saltHands = await v.salt(SEED, 9, ["hands", 1]);
  out.push({
    seed_commitment: await v.sha256Hex(SEED),
    hmac: hex(await v.hmacSha256(SEED, "tablestream/draw/2\\nv7/0\\n0")),
    below: [await v.below(6, v.drawStream(SEED, "v7/0")), await v.below(52, v.drawStream(SEED, "v7/1")),
            await v.below(1000, v.drawStream(SEED, "v7/2"))],
    shuffle: await v.shuffled(CARDS, SEED, "v1/0"),
    salt_card: hex(saltCard), commit_card: await v.commitment(saltCard, "QH"),
    salt_hands: hex(saltHands), commit_hands: await v.commitment(saltHands, ["2C", "KD"]),
    body: v.canonicalJson(v.hashedBody(EVENT)),
    hash: await v.eventHash("a".repeat(64), EVENT),
  });
}
console.log(JSON.stringify(out));
"""


def run_js(source: str) -> Any:
    done = subprocess.run([node(), "--input-type=module", "-e", source], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def module_url() -> str:
    return json.dumps((ROOT / "service" / "client" / "verify.js").as_uri())


def test_python_gives_every_vector_of_the_spec() -> None:
    assert python_values() == spec_vectors()


def test_javascript_gives_every_vector_of_the_spec_with_webcrypto_and_with_its_own_sha256() -> None:
    source = JS_VALUES % {
        "module": module_url(),
        "seed": json.dumps(SEED),
        "cards": json.dumps(CARDS),
        "event": json.dumps(EVENT),
    }
    with_subtle, pure = run_js(source)
    assert with_subtle == spec_vectors()
    assert pure == spec_vectors()


TRICKY = [
    {"b": 1, "a": [True, None, False], "A": -0, "Z": -12},
    {"é": "é", "\U0001f600": "astral", "\ue000": "private use", "z": "\u2028\u2029\x7f"},
    {"ctl": '\x00\x01\x08\x09\x0a\x0b\x0c\x0d\x1f"\\/', "10": 10, "9": 9, "": ""},
    [[], {}, "", 0, 9007199254740991, -9007199254740991],
]


def test_both_write_the_same_canonical_json(tmp_path: Path) -> None:
    values = json.dumps(TRICKY, ensure_ascii=True)
    js = run_js(
        f"import * as v from {module_url()};\n"
        f"console.log(JSON.stringify(JSON.parse({json.dumps(values)}).map(v.canonicalJson)));"
    )
    assert js == [verifier.canonical_json(value) for value in TRICKY]
    assert verifier.canonical_json(TRICKY[0]) == '{"A":0,"Z":-12,"a":[true,null,false],"b":1}'
    # code point order: U+E000 before U+1F600, though UTF-16 puts the surrogate pair first
    assert list(json.loads(verifier.canonical_json(TRICKY[1]))) == ["z", "é", "\ue000", "\U0001f600"]


@pytest.mark.parametrize("text", ["1.5", "1e400", "12345678901234567890", '"\\ud800"'])
def test_a_value_without_one_canonical_text_is_refused_by_both(text: str) -> None:
    event = json.dumps({**EVENT, "version": 1, "hash": "0" * 64})[:-1] + f', "extra": {text}}}'
    record = '{"events": [' + event + "]}"
    py = verifier.verify(verifier.parse_record(record)).as_json()
    js = run_js(
        f"import * as v from {module_url()};\n"
        f"console.log(JSON.stringify(await v.verifyRecord(v.parseRecord({json.dumps(record)}))));"
    )
    assert py == js
    assert not py["ok"] and py["first_bad_version"] == 1
    assert py["reason"].startswith("the event holds ")


def spec_opening() -> tuple[dict[str, Any], str]:
    """Section 9's event as seat 1 reads it in play (with its opening), and the reason the
    spec gives when the seat is shown another card."""
    section = (ROOT / "docs" / "verification.md").read_text(encoding="utf-8").split("## 9. Test vectors")[1]
    shown = re.search(r"with its card and the card's opening:\n\n```\n(.+?)\n```", section, re.S)
    reason = re.search(r"the seat's check fails:\n`(.+?)`", section, re.S)
    assert shown and reason
    return {**EVENT, **json.loads(shown.group(1))}, reason.group(1).replace("\n", " ")


def test_both_open_the_spec_s_opening_and_refuse_another_card() -> None:
    event, reason = spec_opening()
    lied = {**event, "data": {**event["data"], "card": "QS"}}
    # Python: the opening checks; the other card fails with the spec's words
    assert verifier.check_openings(event) == 1
    with pytest.raises(verifier.Failed) as failed:
        verifier.check_openings(lied)
    assert (failed.value.version, failed.value.reason) == (5, reason)
    # JavaScript: the same, with webcrypto and with its own SHA-256
    source = f"""
import * as v from {module_url()};
const out = [];
for (const pure of [false, true]) {{
  v.usePureHashing(pure);
  const opened = await v.checkOpenings({json.dumps(event)});
  const failed = await v.checkOpenings({json.dumps(lied)}).then(() => null, (e) => [e.version, e.reason]);
  out.push([opened, failed]);
}}
console.log(JSON.stringify(out));
"""
    assert run_js(source) == [[1, [5, reason]], [1, [5, reason]]]
