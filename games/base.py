"""The decider contract every game implements, and the values it trades in.

A game is a set of pure functions over immutable state (Chassaing's Decider):
``setup`` and ``decide`` turn intent into events, ``evolve`` folds one event into
the state and never checks or draws anything. Randomness enters only through the
``random.Random`` handed to ``setup``/``decide``, and its results are written into
events, so a fold needs no rng and an audit that re-runs ``decide`` with the same
derived rng gets the same events back.

Conventions shared by every game:

* Seats are ints ``0..n-1`` in table order (clockwise).
* The game's state starts as ``None``; the first event ``setup`` returns builds it.
* Events are ``GameEvent(type, data, seat)``: ``type`` in the past tense
  (``CardDrawn``), ``data`` JSON values only (lists, not tuples; string keys),
  because the log stores them as JSON and ``evolve`` receives the decoded form.
* Actions are small JSON objects with a ``"type"`` verb (``{"type": "draw"}``);
  ``legal_actions`` lists them in a form a client can send back unchanged, and
  ``decide`` accepts exactly the actions ``legal_actions`` lists.
* The platform records its own events in the same log, so a game never names an
  event ``GameCreated``, ``SeatTaken``, ``SeatClaimed``, ``ActionTaken``, ``SeedRevealed``,
  ``Rewound``, ``ForkedFrom``, ``UndoRequested``, ``UndoAnswered`` or ``UndoExpired``.
* Every physical card has an id unique within the game (``"QH"`` in a single
  deck; games with several copies of a card add a suffix). Hidden cards leave
  the server only through ``view`` and ``redact``.

The rules kit, which every game here uses (``GameBase`` and the helpers below it): one
``decide`` template (game over -> ``game_over``, not this seat's turn -> ``not_your_turn``,
an action ``legal_actions`` does not list or a malformed one -> ``illegal_action``, then
the move for the action's type); one evolver shape, ``(state, event) -> state``, in one
table per game; one move shape, ``(state, seat, action, rng) -> events`` (or the
``EventBuilder`` that made them); one ``EventBuilder``; one ``Decision`` (the events and
the state after them, folded once); turn order (``next_seat``, ``next_seat_where``, ``seats_from``); and
the re-deal ``determinize`` does (``shuffled_hidden``, ``redeal``).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import ModuleType
from typing import Any, Protocol, TypeVar, cast, runtime_checkable

from games.drawing import Sheet, draw_board

JSON = Any
Action = dict[str, JSON]
State = Any


@dataclass(frozen=True)
class GameEvent:
    """One thing that happened, as the game sees it (the store adds the envelope)."""

    type: str
    data: Mapping[str, JSON] = field(default_factory=dict)
    seat: int | None = None


class IllegalAction(Exception):
    """The action cannot be done now; ``reason`` is a sentence a player understands."""

    def __init__(self, reason: str, code: str = "illegal_action") -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


class InvalidOptions(Exception):
    """Game options (or player count) that cannot start a game; lists every problem."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)


@dataclass(frozen=True)
class Option:
    """One game option: its name, JSON type, default and allowed values."""

    name: str
    type: str  # "integer" | "string" | "boolean" | "array" | "object"
    default: JSON
    description: str
    choices: tuple[JSON, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False

    def as_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "name": self.name,
            "type": self.type,
            "default": self.default,
            "description": self.description,
        }
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.nullable:
            out["nullable"] = True
        return out


_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "integer": (int,),
    "string": (str,),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
}


def check_options(specs: Sequence[Option], options: Mapping[str, JSON] | None) -> dict[str, JSON]:
    """Fill defaults and check types, ranges and choices; raise with every problem."""
    given: dict[str, Any] = dict(options or {})
    problems = [f"unknown option '{name}'" for name in given if name not in {s.name for s in specs}]
    out: dict[str, JSON] = {}
    for spec in specs:
        value: Any = given.get(spec.name, spec.default)
        out[spec.name] = value
        if value is None:
            if spec.default is not None and not spec.nullable:
                problems.append(f"option '{spec.name}' may not be null")
            continue
        wanted = _JSON_TYPES[spec.type]
        if not isinstance(value, wanted) or (spec.type == "integer" and isinstance(value, bool)):
            problems.append(f"option '{spec.name}' must be of type {spec.type}")
            continue
        if spec.choices is not None and value not in spec.choices:
            allowed = ", ".join(repr(c) for c in spec.choices)
            problems.append(f"option '{spec.name}' must be one of {allowed}")
        number: Any = value
        if spec.minimum is not None and number < spec.minimum:
            problems.append(f"option '{spec.name}' must be at least {spec.minimum}")
        if spec.maximum is not None and number > spec.maximum:
            problems.append(f"option '{spec.name}' must be at most {spec.maximum}")
    if problems:
        raise InvalidOptions(problems)
    return out


RULES = "rules"

TABLE_SIZE = 8
"""The most seats a table of an open-ended kind (``GameBase.open_ended``: its rulebook sets
no largest table) has, unless the service is set to another (``TABLESTREAM_MAX_SEATS``)."""


def rules_of(options: Mapping[str, JSON]) -> int:
    """The rules revision a game was created under (see ``GameBase.rules_revision``):
    1 for a game whose options do not say, as every game stored before revisions."""
    revision = options.get(RULES, 1)
    return revision if isinstance(revision, int) else 1


class Decider(Protocol):
    """The contract of one game kind, as the design names it: the facts a lobby shows, and
    the pure functions the platform plays a game with. Every function is pure."""

    key: str
    title: str
    summary: str
    min_players: int
    max_players: int
    open_ended: bool
    options: tuple[Option, ...]
    rules_revision: int

    def setup(self, options: Mapping[str, JSON], players: int, rng: random.Random) -> list[GameEvent]:
        """The opening events: seating, shuffles and the deal, written out in full."""
        ...

    def evolve(self, state: State | None, event: GameEvent) -> State:
        """Fold one event into the state. Total, never validates, never draws randomness."""
        ...

    def to_act(self, state: State) -> frozenset[int]:
        """The seats that may act now (several for simultaneous or out-of-turn choices)."""
        ...

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every action ``seat`` may take now; empty when it may not act."""
        ...

    def decide(self, state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
        """Validate ``action`` and return its events; raise ``IllegalAction`` otherwise."""
        ...

    def view(self, state: State, seat: int | None) -> dict[str, JSON]:
        """What ``seat`` may see (``None``: a spectator). JSON values only."""
        ...

    def redact(self, event: GameEvent, seat: int | None) -> GameEvent:
        """The event as ``seat`` may see it in the feed."""
        ...

    def outcome(self, state: State) -> dict[str, JSON] | None:
        """``None`` while in play, else ``{"winners": [seat], "scores": [number], "reason": str}``."""
        ...


class Derived(Protocol):
    """What ``GameBase`` works out from a kind's facts and its decider, the same for every
    kind: no game writes these."""

    @property
    def accepted_options(self) -> tuple[Option, ...]:
        """Every option ``validate_options`` accepts: the kind's own, then ``rules``."""
        ...

    def most_players(self, table_size: int | None = None) -> int:
        """The largest table: ``max_players``, or for an open-ended kind the service's
        ``table_size`` when it gives one."""
        ...

    def validate_options(
        self, options: Mapping[str, JSON] | None, players: int, table_size: int | None = None
    ) -> dict[str, JSON]:
        """Options with defaults filled in; raise ``InvalidOptions`` listing every problem
        (unknown names, wrong types, a player count the game does not support, ...).
        ``table_size``: the service's largest table, for an open-ended kind."""
        ...

    def decision(self, state: State, seat: int, action: Action, rng: random.Random) -> Decision:
        """``decide``, with the state after its events (each folded once, as it was made):
        the one way the platform, the audit and the bots decide an action."""
        ...


class Audited(Protocol):
    """What the platform's promises about fairness need from a kind: undo never crosses a
    draw, a fixed deal is said to be one, and the secrecy tests know what is hidden."""

    def irreversible(self, event: GameEvent) -> bool:
        """True when the event reveals or draws something (a draw, shuffle, roll, reveal):
        undo never crosses it."""
        ...

    def fair_deal(self, options: Mapping[str, JSON]) -> bool:
        """False when an option fixed the cards (an explicit ``deck`` for tutorials and
        scenario tests): the public summary says so."""
        ...

    def secrets(self, state: State, seat: int | None) -> frozenset[str]:
        """Card ids hidden from ``seat`` now that appear nowhere public: none of these may
        appear as a JSON string in anything sent to ``seat`` (the leak tests scan for them)."""
        ...


class Searched(Protocol):
    """What the bots need of a kind besides its rules (the kind's ``bot`` module)."""

    def evaluate(self, state: State, seat: int) -> float:
        """How good ``state`` is for ``seat``, in [0, 1] (used by the greedy bot)."""
        ...

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A full state consistent with all ``seat`` has seen: every card hidden from
        ``seat`` re-dealt at random among the places it could be (used by ISMCTS and forks)."""
        ...


class Presented(Protocol):
    """What clients are shown besides a seat's view (the kind's ``faces`` and ``view``)."""

    def card_faces(self) -> dict[str, dict[str, JSON]]:
        """Every card of the kind as its face shows it (public data, for clients)."""
        ...

    def final_view(self, state: State, seat: int | None) -> dict[str, JSON]:
        """The view once the game is over: every hand shown."""
        ...

    def view_schema(self) -> dict[str, Any] | None:
        """The JSON Schema of what ``view`` and ``final_view`` return (``games.viewschema``),
        written beside them; ``None`` for a kind whose views the contract leaves untyped."""
        ...


@runtime_checkable
class Game(Decider, Derived, Audited, Searched, Presented, Protocol):
    """A kind as the platform plays it: the decider the design names, what ``GameBase``
    derives from it, and three small parts for the audit, the bots and the clients."""


# -- the rules kit: one shape for every game ------------------------------------------

Evolver = Callable[[Any, GameEvent], Any]
"""One event type's case of ``evolve``: ``(state, event) -> state``, no checks, no rng."""


@dataclass(frozen=True)
class Decision:
    """What one action does: its events, and the state after them."""

    events: list[GameEvent]
    state: State


Move = Callable[[Any, int, Action, random.Random], "list[GameEvent] | EventBuilder"]
"""One action type's case of ``decide``: ``(state, seat, action, rng) -> events``, or the
``EventBuilder`` that made them (which has folded them already)."""


def evolve_by_type(table: Mapping[str, Evolver], state: State | None, event: GameEvent) -> State:
    """Fold ``event`` with the one case its type has in ``table``."""
    return table[event.type](state, event)


class EventBuilder:
    """Collects the events of one decision, folding each with ``evolve`` so that the
    later steps of the same decision see its effect."""

    def __init__(self, state: State, evolve: Callable[[State, GameEvent], State]) -> None:
        self.state = state
        self.events: list[GameEvent] = []
        self._evolve = evolve

    def emit(self, type_: str, data: dict[str, JSON], seat: int | None = None) -> None:
        event = GameEvent(type_, data, seat)
        self.events.append(event)
        self.state = self._evolve(self.state, event)


_Builder = TypeVar("_Builder", bound=EventBuilder)


def stepped(
    builder: Callable[[Any], _Builder],
    step: Callable[[_Builder, int, Action, random.Random], None],
    then: Callable[[_Builder, random.Random], None],
) -> Move:
    """A move made of a step on a builder: a ``builder`` on the state, the ``step``, then
    the steps the rules run after any (``then``); the builder goes back to the template,
    which keeps its folded state."""

    def move(state: Any, seat: int, action: Action, rng: random.Random) -> _Builder:
        made = builder(state)
        step(made, seat, action, rng)
        then(made, rng)
        return made

    return move


def outcome_of(winners: Sequence[int], scores: Sequence[float], reason: str) -> dict[str, JSON]:
    return {"winners": sorted(winners), "scores": list(scores), "reason": reason}


def next_seat(seat: int, players: int, step: int = 1) -> int:
    """The seat ``step`` places after ``seat`` in table order (clockwise for 1)."""
    return (seat + step) % players


def next_seat_where(seat: int, players: int, still_in: Callable[[int], bool]) -> int | None:
    """The first seat after ``seat``, going clockwise and ending with ``seat`` itself,
    for which ``still_in`` holds; ``None`` when it holds for none."""
    for step in range(1, players + 1):
        following = next_seat(seat, players, step)
        if still_in(following):
            return following
    return None


def seats_from(first: int, players: int, step: int = 1) -> list[int]:
    """Every seat once, starting at ``first`` and going in direction ``step`` (1 or -1)."""
    return [next_seat(first, players, i * step) for i in range(players)]


def json_same(a: Any, b: Any) -> bool:
    """JSON equality that also tells ``true`` from ``1`` (Python's ``==`` does not)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(json_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(json_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


CARD_ID: JSON = {"type": "string", "minLength": 1, "description": "A card's id, as the view shows it."}
SEAT_NUMBER: JSON = {"type": "integer", "minimum": 0, "description": "A seat, counted from 0."}
SPACE: JSON = {
    "type": "array",
    "items": {"type": "integer"},
    "minItems": 2,
    "maxItems": 2,
    "description": "A space's [column, row].",
}


def fields_of(
    required: Mapping[str, JSON] | None = None, optional: Mapping[str, JSON] | None = None
) -> dict[str, JSON]:
    """The JSON Schema of an action type's fields besides ``type``: those it always carries
    and those only some of its forms carry (``GameBase.action_schemas``)."""
    return {"required": sorted(required or {}), "properties": {**(required or {}), **(optional or {})}}


def action_matches(action: Mapping[str, JSON], legal: Sequence[Action], *, strict: bool = False) -> bool:
    """True when ``action`` equals one of ``legal`` exactly (no extra or missing fields);
    ``strict`` also tells ``true`` from ``1``."""
    plain = dict(action)
    if strict:  # json_same implies ==: the cheap comparison first, the strict one on a match
        return any(plain == candidate and json_same(action, candidate) for candidate in legal)
    return any(plain == candidate for candidate in legal)


def shuffled_hidden(cards: Iterable[str], rng: random.Random) -> list[str]:
    """The cards hidden from a seat in a random order, for ``determinize`` to re-deal.

    Sorted first: the new deal may depend on the rng, never on where the cards really are.
    """
    pool = sorted(cards)
    rng.shuffle(pool)
    return pool


def redeal(places: Iterable[str], hidden: Container[str], pool: Iterator[str]) -> tuple[str, ...]:
    """``places`` with each card in ``hidden`` replaced by the next card of ``pool``."""
    return tuple(next(pool) if card in hidden else card for card in places)


HANDED_OVER: Mapping[str, tuple[str, ...]] = {
    "rules_module": (
        "setup",
        "check_options",
        "to_act",
        "legal_actions",
        "move",
        "action_schemas",
        "is_over",
        "not_your_turn",
        "refusal",
        "after_move",
        "outcome",
    ),
    "view_module": (
        "view",
        "redact",
        "secrets",
        "determinize",
        "card_names",
        "action_cards",
        "final_view",
        "view_schema",
    ),
    "bot_module": ("evaluate",),
}
"""The functions of the contract each module of a game package holds (its home, as
tests/games/test_shape.py checks), which ``GameBase`` hands over to by name."""


def remembered(legal_actions: Callable[[State, int], list[Action]]) -> Callable[[State, int], list[Action]]:
    """``legal_actions`` keeping its last answer: asked again for the same state object and
    seat, it lists them once. That is the common case: a bot or a client chooses from the
    list, then ``decide`` checks the choice against it. A state is an immutable value, so
    its list cannot have changed; each caller gets a list of its own. The one answer kept
    is replaced whole, so threads sharing a game see an old answer or a new one, never half."""
    kept: list[tuple[State, int, tuple[Action, ...]]] = [(None, -1, ())]

    @functools.wraps(legal_actions)
    def listed(state: State, seat: int) -> list[Action]:
        held, held_seat, actions = kept[0]
        if held is state and held_seat == seat:
            return list(actions)
        fresh = legal_actions(state, seat)
        kept[0] = (state, seat, tuple(fresh))
        return fresh

    return listed


class GameBase:
    """The contract's one implementation: the decide template and the defaults, handing
    each function over to the game package's module that holds it.

    A game package's class sets its facts (key, title, player counts, options, ...) and
    names its modules: ``rules_module``, ``view_module``, ``bot_module``, ``faces_module``
    and ``drawing_module``. Plain class attributes, one per module, rather than one value
    holding them all: each is set, read and overridden like any other fact of the class,
    a game without one simply leaves it ``None``, and the ``_module`` suffix keeps them
    apart from the contract's own names (``view`` is both a module and a method).

    When the class is made, each function of ``HANDED_OVER`` its module defines becomes
    the class's method of that name, the module's function itself (a ``staticmethod``):
    a call costs no more than calling the module, which matters on the hot paths (the
    fold, ``decide``, the bots' look-ahead). A function the module does not define keeps
    the default here; a method the class defines itself (a game outside ``games/``, such
    as the tests' tiny game, may define them all) is never replaced.
    """

    rules_module: ModuleType | None = None
    """``setup``, ``to_act``, ``legal_actions``, ``move``, ``outcome``, ... (``HANDED_OVER``)."""
    view_module: ModuleType | None = None
    """``view``, ``redact``, ``secrets``, ``determinize``, and optionally ``final_view``, ..."""
    bot_module: ModuleType | None = None
    """``evaluate``, and ``ISMCTS_ITERATIONS`` (``ismcts_iterations``)."""
    faces_module: ModuleType | None = None
    """``card_faces(rules)``: every card as rules revision ``rules`` prints it."""
    drawing_module: ModuleType | None = None
    """``draw(view, sheet)``: the board as lines of text for the terminal (``games.drawing``)."""
    ismcts_iterations: int | None = None
    """ISMCTS's iterations per move for a caller without a clock (``games.ismcts``): the
    bot module's ``ISMCTS_ITERATIONS``; ``None``, the search's default."""

    key: str
    title: str
    summary: str
    min_players: int
    max_players: int
    open_ended: bool = False
    """The rulebook sets no largest table: ``max_players`` is then ``TABLE_SIZE``, the
    service's default, and the service may set another (``most_players``)."""
    options: tuple[Option, ...] = ()
    irreversible_types: frozenset[str] = frozenset()
    unfair_options: tuple[str, ...] = ()

    evolvers: Mapping[str, Evolver]
    """One case of ``evolve`` per event type."""
    strict_json: bool = False
    """Compare an action with the listed ones as JSON, telling ``true`` from ``1``."""
    rules_revision: int = 1
    """The revision of this game's rules, raised when a change would decide a stored log's
    actions differently. A game created now records it in its options (``rules``, set by
    ``validate_options``; a client may ask for an earlier one); a game stored before has no
    ``rules`` and was played under revision 1 (``rules_of``). The rules read the revision
    from the options, so every stored log is still decided, replayed and audited by the
    rules it was played under."""
    game_over_reason = "The game is over."
    malformed_reason = "An action is an object with a 'type'."
    unlisted_reason = "That action is not one of the choices open to you now (legal_actions lists them)."

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for part, names in HANDED_OVER.items():
            module = cls.__dict__.get(part)
            if module is None:
                continue
            for name in names:
                function = getattr(module, name, None)
                if function is not None and name not in cls.__dict__:
                    setattr(cls, name, staticmethod(remembered(function) if name == "legal_actions" else function))
        bot = cls.__dict__.get("bot_module")
        if bot is not None and "ismcts_iterations" not in cls.__dict__:
            cls.ismcts_iterations = getattr(bot, "ISMCTS_ITERATIONS", None)

    # -- what every game's modules define (``HANDED_OVER``) ----------------------------

    def setup(self, options: Mapping[str, JSON], players: int, rng: random.Random) -> list[GameEvent]:
        raise NotImplementedError

    def to_act(self, state: State) -> frozenset[int]:
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        raise NotImplementedError

    def outcome(self, state: State) -> dict[str, JSON] | None:
        raise NotImplementedError

    def view(self, state: State, seat: int | None) -> dict[str, JSON]:
        raise NotImplementedError

    def redact(self, event: GameEvent, seat: int | None) -> GameEvent:
        raise NotImplementedError

    def secrets(self, state: State, seat: int | None) -> frozenset[str]:
        raise NotImplementedError

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        raise NotImplementedError

    # -- the decider ---------------------------------------------------------------------

    def evolve(self, state: State | None, event: GameEvent) -> State:
        return self.evolvers[event.type](state, event)

    def decide(self, state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
        return self.decision(state, seat, action, rng).events

    def decision(self, state: State, seat: int, action: Action, rng: random.Random) -> Decision:
        """The one decide template: is the game over, is it ``seat``'s turn, is the action
        legal, then the move's own rules, then what the rules add after any move. Each
        event is folded once: by the move's builder as it is made, or here.

        A game that writes its own ``decide`` instead of moves gets its events folded here."""
        if type(self).decide is not GameBase.decide:
            events = self.decide(state, seat, action, rng)
            return Decision(events, self.fold(state, events))
        if self.is_over(state):
            raise IllegalAction(self.game_over_reason, code="game_over")
        if seat not in self.to_act(state):
            raise IllegalAction(self.not_your_turn(state, seat), code="not_your_turn")
        legal = self.legal_actions(state, seat)
        if not isinstance(action, Mapping) or not action_matches(action, legal, strict=self.strict_json):
            raise IllegalAction(self.refusal(state, seat, action))
        made = self.move(state, seat, str(action["type"]))(state, seat, action, rng)
        if isinstance(made, EventBuilder):
            events, after = list(made.events), made.state
        else:
            events, after = made, self.fold(state, made)
        more = self.after_move(after, events)
        return Decision(events + more, self.fold(after, more))

    def fold(self, state: State, events: Iterable[GameEvent]) -> State:
        for event in events:
            state = self.evolve(state, event)
        return state

    def is_over(self, state: State) -> bool:
        return self.outcome(state) is not None

    def not_your_turn(self, state: State, seat: int) -> str:
        """The sentence for an action from a seat that may not act now."""
        return "It is not your turn."

    def refusal(self, state: State, seat: int, action: Any) -> str:
        """Why an action ``legal_actions`` does not list is refused. By default the move's own
        checks say it, when they find what is wrong (a move that checks its fields names the
        field); else it is not one of the choices, or not in the form they are listed in."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return self.malformed_reason
        try:
            self.move(state, seat, action["type"])(state, seat, action, random.Random(0))
        except IllegalAction as refused:
            return refused.reason
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            pass  # a move that trusts the listing to have checked its fields: no reason of its own
        return self.unlisted_reason

    def move(self, state: State, seat: int, kind: str) -> Move:
        """The case of ``decide`` for an action of type ``kind`` (a game with phases keeps
        one table of moves per phase); raise ``IllegalAction`` when there is none."""
        raise NotImplementedError

    def action_schemas(self) -> dict[str, dict[str, JSON]]:
        """Every action type this game takes, each with the JSON Schema of its fields
        (``fields_of``): the contract's typed actions are written from it
        (``python -m service.spec_gen``), and the games' own legal actions are checked
        against it."""
        raise NotImplementedError

    def after_move(self, state: State, events: list[GameEvent]) -> list[GameEvent]:
        """Events the rules add after any move's own (the turn passing, ...), given the
        state after the move's ``events``; none by default."""
        return []

    def fair_deal(self, options: Mapping[str, JSON]) -> bool:
        """False when an option fixed the cards (a tutorial or scenario deck)."""
        return not any(options.get(name) not in (None, [], {}) for name in self.unfair_options)

    @property
    def rules_option(self) -> Option:
        """The option every kind takes: the rules revision to play under (``rules_revision``)."""
        return Option(
            RULES,
            "integer",
            self.rules_revision,
            "The rules revision the game is played under, from 1 to the newest (the default).",
            minimum=1,
            maximum=self.rules_revision,
        )

    @property
    def accepted_options(self) -> tuple[Option, ...]:
        return (*self.options, self.rules_option)

    def most_players(self, table_size: int | None = None) -> int:
        return table_size if self.open_ended and table_size is not None else self.max_players

    def validate_options(
        self, options: Mapping[str, JSON] | None, players: int, table_size: int | None = None
    ) -> dict[str, JSON]:
        problems = []
        most = self.most_players(table_size)
        if not self.min_players <= players <= most:
            span = f"{self.min_players}" if self.min_players == most else f"{self.min_players} to {most}"
            problems.append(f"{self.title} is played by {span} players, not {players}")
        given = dict(options or {})
        revision = given.pop(RULES, self.rules_revision)
        if isinstance(revision, bool) or not isinstance(revision, int) or not 1 <= revision <= self.rules_revision:
            problems.append(f"option '{RULES}' (the rules revision) must be an integer from 1 to {self.rules_revision}")
        try:
            checked = check_options(self.options, given)
        except InvalidOptions as error:
            raise InvalidOptions(problems + error.problems) from None
        if self.rules_revision > 1:
            checked[RULES] = revision
        problems += self.check_options(checked, players)
        if problems:
            raise InvalidOptions(problems)
        return checked

    def check_options(self, options: Mapping[str, JSON], players: int) -> list[str]:
        """Game-specific problems with already type-checked options (none by default)."""
        return []

    def irreversible(self, event: GameEvent) -> bool:
        return event.type in self.irreversible_types

    def card_names(self, state: State) -> tuple[str, ...]:
        """Every distinct card (by the name a player knows it by) dealt into this game, for
        the per-card table of ``bench.balance``; none by default (no table)."""
        return ()

    def action_cards(self, state: State, seat: int, action: Action) -> tuple[str, ...]:
        """The cards (by name) that ``action`` plays or uses: a card played or bought, an
        ability of a card in play used. Names as ``card_names`` gives them."""
        return ()

    def view_schema(self) -> dict[str, Any] | None:
        """The view's JSON Schema, from the view module; none by default (an untyped view)."""
        return None

    def card_faces(self) -> dict[str, dict[str, JSON]]:
        """Every card of this kind as its face shows it, for the web client: keyed as the
        kind's client module looks a card up, each ``{"name", "type", "colour", "stats":
        [{"label", "value"}], "text"}`` (all but ``name`` optional). Public card data
        only: nothing here depends on a game's state. The faces module's, as the newest
        rules revision prints them; none without one."""
        if self.faces_module is None:
            return {}
        faces: dict[str, dict[str, JSON]] = self.faces_module.card_faces(self.rules_revision)
        return faces

    def draw(self, view: Mapping[str, JSON], sheet: Sheet) -> list[str]:
        """The board ``view`` shows as lines of text (``tablestream replay``): the drawing
        module's, or the view as a tree for a game without one or a view it cannot read."""
        drawing = None if self.drawing_module is None else self.drawing_module.draw
        return draw_board(self.key, drawing, view, sheet)

    def final_view(self, state: State, seat: int | None) -> dict[str, JSON]:
        """What anyone sees once the game is over: ``seat``'s view, with every seat's
        own part of the board (its hand) as that seat sees it. Works for views with a
        ``players`` list indexed by seat; a game whose view is shaped otherwise overrides it."""
        shown: dict[str, JSON] = self.view(state, seat)
        players = shown.get("players")
        if not isinstance(players, list):
            return shown
        merged: list[JSON] = []
        for index, part in enumerate(players):
            own = self.view(state, index).get("players")
            merged.append(own[index] if isinstance(own, list) and index < len(own) else part)
        return {**shown, "players": merged}

    def evaluate(self, state: State, seat: int) -> float:
        """Fallback from the outcome alone: a winner's share of the win (1 split among the
        winners), 0 for a loss, and 0.5 while the game is in play. Every game here overrides
        it with an evaluation of its own position."""
        result = self.outcome(state)
        if result is None:
            return 0.5
        if seat in result["winners"]:
            return 1.0 / len(result["winners"])
        return 0.0


# -- a copy with changes, for the fold's hot path --------------------------------------

_Value = TypeVar("_Value")
_FIELDS: dict[type, frozenset[str]] = {}
_SLOT_COPIERS: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}


def replace(value: _Value, /, **changes: Any) -> _Value:
    """``dataclasses.replace`` without re-running ``__init__`` and its per-call introspection.

    Folding is the hottest path there is (every load, every bot look-ahead), so states use
    this. It suits dataclasses without ``__post_init__``, ``InitVar`` or ``init=False``
    fields (the game states), with or without ``slots``; an unknown field is a TypeError.
    Values that ``functools.cached_property`` kept on the original are not copied.
    """
    cls = type(value)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS.setdefault(cls, frozenset(f.name for f in fields(cls)))  # type: ignore[arg-type]
    if not changes.keys() <= names:
        raise TypeError(f"{cls.__name__} has no fields {sorted(changes.keys() - names)}")
    if not hasattr(value, "__dict__"):
        copier = _SLOT_COPIERS.get(cls)
        if copier is None:
            copier = _SLOT_COPIERS.setdefault(cls, _slot_copier(cls))
        return cast(_Value, copier(value, changes))
    new = object.__new__(cls)
    held = value.__dict__
    if len(held) == len(names):
        new.__dict__.update(held)
    else:  # a cached_property's value sits beside the fields: the copy must not inherit it
        new.__dict__.update({name: held[name] for name in names})
    new.__dict__.update(changes)
    return new


def _slot_copier(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    """A copy function written out for one slotted dataclass: each field set through its
    slot, from ``changes`` or the original, with no loop and no test per field (a loop
    over the fields cost twice as much, and the bigger states have fifteen)."""
    names = [f.name for f in fields(cls)]
    scope: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    lines = ["def copy(value, changes):", "    new = _new(_cls)", "    get = changes.get"]
    for index, name in enumerate(names):
        scope[f"_set{index}"] = cls.__dict__[name].__set__
        lines.append(f"    _set{index}(new, get({name!r}, value.{name}))")
    lines.append("    return new")
    exec("\n".join(lines), scope)  # noqa: S102 - the text is made of the class's own field names
    return cast(Callable[[Any, dict[str, Any]], Any], scope["copy"])
