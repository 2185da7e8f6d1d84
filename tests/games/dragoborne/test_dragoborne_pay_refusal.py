"""A ``summon``, ``cast`` or ``activate`` refused for its payment says what is wrong with
it: a missing ``pay`` is named, with the payments that would do (rules revision 2, where the player
chooses what rests: "Play cards from hand by paying their Call/Cast Costs")."""

from __future__ import annotations

import fakeredis
import pytest

from core.config import Config
from games.base import IllegalAction
from games.dragoborne import GAME
from service.app import create_app
from stores.platform import Platform
from tests.games.dragoborne.scenario import Scenario

SENTRY = "0-sunspear-sentry-1"


def two_yellow_twos() -> Scenario:
    """Seat 0 with Red, Red, Yellow, Yellow standing and a Sunspear Sentry (Yellow, cost 2) in hand."""
    game = Scenario(
        first=0,
        seat0={"hand": ["sunspear-sentry"], "draws": ["bastion-rite", "bastion-rite", "dawnshield-acolyte"]},
    )
    game.end_turn()
    game.end_turn(resource=True)
    return game


def refusal(game: Scenario, action: dict[str, object]) -> str:
    with pytest.raises(IllegalAction) as refused:
        GAME.decide(game.state, 0, action, game.rng)
    return refused.value.reason


def test_a_summon_without_pay_says_pay_is_missing_and_what_would_pay() -> None:
    game = two_yellow_twos()
    reason = refusal(game, {"type": "summon", "card": SENTRY, "fort": 0})
    assert reason == (
        "'pay' is missing: name the resources (by colour) to rest for that card; "
        "it may be paid with [red, yellow]; [yellow, yellow]."
    )


def test_a_summon_with_a_pay_that_does_not_pay_names_the_payments_that_do() -> None:
    game = two_yellow_twos()
    reason = refusal(game, {"type": "summon", "card": SENTRY, "fort": 0, "pay": ["red", "red"]})
    assert reason == "That 'pay' does not pay for that card now; it may be paid with [red, yellow]; [yellow, yellow]."


def test_a_cast_without_pay_says_pay_is_missing() -> None:
    game = two_yellow_twos()
    casts = [a for a in game.legal(0) if a["type"] == "cast"]
    assert casts, "Bastion Rite, drawn, can be cast"
    reason = refusal(game, {"type": "cast", "card": "0-bastion-rite-1"})
    assert reason == (
        "'pay' is missing: name the resources (by colour) to rest for that card; "
        "it may be paid with [red, yellow]; [yellow, yellow]."
    )


def test_a_card_nothing_pays_is_still_refused_for_its_cost() -> None:
    """Revision 1, where the engine pays: a card the standing resources cannot pay."""
    game = Scenario(first=1, seat1={"hand": ["hollow-warden", "emberhound"]}, rules=1)
    with pytest.raises(IllegalAction) as refused:
        GAME.decide(game.state, 1, {"type": "summon", "card": "1-emberhound-1", "fort": 0}, game.rng)
    assert "cost" in refused.value.reason


def test_the_service_answers_a_missing_pay_with_the_reason() -> None:
    config = Config(redis_url="fake", rate_per_address=10**6, rate_per_token=10**6)
    client = create_app(config, Platform(config, fakeredis.FakeRedis())).test_client()
    body = {"kind": "dragoborne", "players": [{"name": "ann"}, {"name": "bob"}], "options": {"first_player": 0}}
    created = client.post("/v1/games", json=body).get_json()
    tokens = [{"Authorization": f"Bearer {seat['token']}"} for seat in created["seats"]]
    for seat in (0, 1):
        view = client.get(f"/v1/games/{created['id']}", headers=tokens[seat]).get_json()
        client.post(
            f"/v1/games/{created['id']}/actions",
            json={"action": {"type": "mulligan", "cards": []}, "expected_version": view["version"]},
            headers=tokens[seat],
        )
    view = client.get(f"/v1/games/{created['id']}", headers=tokens[0]).get_json()
    summon = next(a for a in view["legal_actions"] if a["type"] == "summon")
    unpaid = {key: value for key, value in summon.items() if key != "pay"}
    answer = client.post(
        f"/v1/games/{created['id']}/actions",
        json={"action": unpaid, "expected_version": view["version"]},
        headers=tokens[0],
    )
    assert answer.status_code == 422 and answer.get_json()["code"] == "illegal_action"
    assert answer.get_json()["detail"].startswith("'pay' is missing:")
    assert ", ".join(summon["pay"]) in answer.get_json()["detail"]


ACOLYTE = "0-dawnshield-acolyte-1"


def acolyte_ready_to_act() -> Scenario:
    """Seat 0's Dawnshield Acolyte on the field (its ability: rest three resources), with
    Red, Red and Yellow standing to pay for it."""
    game = Scenario(
        first=0, seat0={"hand": ["dawnshield-acolyte"], "draws": ["bastion-rite", "bastion-rite", "sunspear-sentry"]}
    )
    game.end_turn()
    game.end_turn(resource=True)
    game.act(0, {"type": "summon", "card": ACOLYTE, "fort": 0, "pay": ["yellow"]})
    return game


def test_an_activate_without_pay_says_pay_is_missing_and_what_would_pay() -> None:
    game = acolyte_ready_to_act()
    reason = refusal(game, {"type": "activate", "creature": ACOLYTE, "ability": 0})
    assert reason == (
        "'pay' is missing: name the resources (by colour) to rest for that ability; "
        "it may be paid with [red, red, yellow]."
    )


def test_an_activate_with_a_pay_that_does_not_pay_names_the_payment_that_does() -> None:
    game = acolyte_ready_to_act()
    reason = refusal(game, {"type": "activate", "creature": ACOLYTE, "ability": 0, "pay": ["red", "red"]})
    assert reason == "That 'pay' does not pay for that ability now; it may be paid with [red, red, yellow]."


def test_an_activate_of_a_creature_that_cannot_act_keeps_its_own_reason() -> None:
    game = acolyte_ready_to_act()
    reason = refusal(game, {"type": "activate", "creature": "0-no-such-creature-1", "ability": 0, "pay": []})
    assert reason == "That creature cannot do that now (it is resting, has moved, or is not yours)."
