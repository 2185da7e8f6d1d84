"""The simulation test every game gets (OpenSpiel-style): random legal play through
the bare decider, checking the contract at every step.

A game's own test module calls ``check_contract(GAME, players=..., games=...)``.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import jsonschema_rs

from games.base import Game, GameEvent, IllegalAction
from games.play import fold, new_game, step
from service import yamltext
from service.spec_gen import SPEC, action_components, view_components


def roundtrip(event: GameEvent) -> GameEvent:
    """The event as the store gives it back: data through JSON."""
    return GameEvent(event.type, json.loads(json.dumps(event.data)), event.seat)


@functools.cache
def _quoted(card: str) -> str:
    return json.dumps(card)


def quoted(ids: Iterable[str]) -> list[str]:
    """Each card id as JSON writes it, quotes and all (a card's JSON form is the same every
    time, so it is written once: the random-play checks asked for it 670,000 times a run)."""
    return [_quoted(card) for card in ids]


def assert_no_secret(payload: Any, secrets: frozenset[str], where: str) -> None:
    text = json.dumps(payload, sort_keys=True)
    leaked = [card for card in quoted(secrets) if card in text]
    assert not leaked, f"{where} names hidden cards {leaked}: {text[:400]}"


@functools.cache
def _contract_schemas() -> dict[str, Any]:
    """openapi.yaml's schemas, with the typed actions and views as the games' code writes
    them now (test_spec_actions checks the file says the same)."""
    schemas: dict[str, Any] = yamltext.load(Path(SPEC).read_text())["components"]["schemas"]
    return {**schemas, **action_components(), **view_components()}


@functools.cache
def _view_validator(key: str) -> Callable[[Any], list[str]] | None:
    schemas = _contract_schemas()
    name = "View_" + key.replace("-", "_")
    if name not in schemas:
        return None  # a kind the contract does not type (the platform tests' tiny game)
    validator = jsonschema_rs.Draft202012Validator(
        {"$ref": f"#/components/schemas/{name}", "components": {"schemas": schemas}}
    )
    return lambda view: [f"{list(e.instance_path)}: {e.message}" for e in validator.iter_errors(view)]


def assert_view_fits(game: Game, view: Mapping[str, Any], where: str) -> None:
    """``view`` (as ``view`` or ``final_view`` returned it) is what the contract's
    ``View_<kind>`` says a view of the kind holds, with the ``kind`` the API adds."""
    check = _view_validator(game.key)
    if check is not None:
        errors = check({"kind": game.key, **view})
        assert errors == [], f"{where} does not fit View_{game.key}: {errors[:5]}"


WRONG_VALUES: tuple[Any, ...] = (None, -1, 999, "XX", [], {"x": 1})


def mutations(action: Mapping[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """Nearby actions that are usually illegal: unknown verb, extra field, each field
    replaced by a wrong value."""
    out: list[dict[str, Any]] = [{"type": "no-such-action"}, {**action, "extra": 1}]
    for name, value in action.items():
        if name == "type":
            continue
        for wrong in WRONG_VALUES:
            if wrong != value:
                out.append({**action, name: wrong})
        without = dict(action)
        del without[name]
        out.append(without)
    rng.shuffle(out)
    return out[:6]


def check_contract(
    game: Game,
    players: Iterable[int],
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    max_actions: int = 20_000,
    check_every: int = 1,
) -> list[int]:
    """Play ``games`` random games for each player count; return each game's action count."""
    lengths = []
    for count in players:
        for index in range(games):
            rng = random.Random(f"{seed}-{count}-{index}")
            lengths.append(_play_one(game, count, rng, options, max_actions, check_every))
    return lengths


def _play_one(
    game: Game,
    players: int,
    rng: random.Random,
    options: Mapping[str, Any] | None,
    max_actions: int,
    check_every: int,
) -> int:
    play = new_game(game, players, options, rng)
    assert fold(game, [roundtrip(e) for e in play.events]) == play.state, "setup events do not survive JSON"
    seats: list[int | None] = [None, *range(players)]
    for turn in range(max_actions):
        state = play.state
        if game.outcome(state) is not None:
            assert not game.to_act(state), "a finished game still has seats to act"
            result = game.outcome(state)
            assert result is not None
            json.dumps(result)
            assert set(result["winners"]) <= set(range(players))
            for viewer in seats:
                assert_view_fits(game, game.final_view(state, viewer), f"the final view for {viewer}")
            return turn
        acting = sorted(game.to_act(state))
        assert acting, f"nobody may act in an unfinished game at action {turn}"
        for seat in range(players):
            legal = game.legal_actions(state, seat)
            if seat in acting:
                assert legal, f"seat {seat} is to act but has no legal action"
            else:
                assert not legal, f"seat {seat} is not to act but has legal actions"
        seat = rng.choice(acting)
        legal = game.legal_actions(state, seat)
        json.dumps(legal)
        action = rng.choice(legal)
        if turn % check_every == 0:
            _check_state(game, state, seat, legal, rng, seats)
        before = len(play.events)
        decided_again = game.decide(state, seat, action, random.Random(turn))
        new_events = step(game, play, seat, action, random.Random(turn))
        assert decided_again == new_events, "decide is not deterministic for a given rng"
        for event in new_events:
            json.dumps(event.data)
        # The platform keeps the state a decision leaves (it folds each event once, as it
        # is made): that state is the fold of the events as the store gives them back.
        assert fold(game, [roundtrip(e) for e in new_events], state) == play.state, "events do not survive JSON"
        for viewer in seats:
            secrets = game.secrets(play.state, viewer)
            for event in play.events[before:]:
                assert_no_secret(game.redact(event, viewer).data, secrets, f"redacted {event.type} for {viewer}")
    raise AssertionError(f"game did not end within {max_actions} actions")


def _check_state(game, state, seat, legal, rng, seats) -> None:  # type: ignore[no-untyped-def]
    for viewer in seats:
        view = game.view(state, viewer)
        assert_view_fits(game, view, f"the view for {viewer}")
        assert_no_secret(view, game.secrets(state, viewer), f"view for {viewer}")
        if viewer is not None:
            guess = game.determinize(state, viewer, rng)
            assert game.view(guess, viewer) == view, f"view of seat {viewer} depends on cards hidden from it"
            assert game.legal_actions(guess, viewer) == game.legal_actions(state, viewer), (
                f"legal actions of seat {viewer} depend on cards hidden from it"
            )
    for wrong in mutations(rng.choice(legal), rng):
        if wrong in legal:
            continue
        try:
            game.decide(state, seat, wrong, rng)
        except IllegalAction as error:
            assert error.reason, "an illegal action needs a reason"
        else:
            raise AssertionError(f"decide accepted {wrong}, which legal_actions does not list")
    others = [s for s in range(len(seats) - 1) if s not in game.to_act(state)]
    if others:
        try:
            game.decide(state, others[0], legal[0], rng)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"seat {others[0]} acted out of turn")
