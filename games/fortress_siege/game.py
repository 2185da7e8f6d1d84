"""Fortress as the registry lists it: the game object, with its title, player counts,
options, rules revision and the events undo never crosses, and the modules that hold the
contract's functions, which ``GameBase`` hands each function over to by name
(``games.base.HANDED_OVER``): ``rules`` (the deal, who acts, what may be done and the move
that does it, the turn passing, the outcome), ``evolve`` (the fold, as ``evolvers``),
``view`` (what a seat may see and believe), ``bot`` (the greedy bot's evaluation, ISMCTS's
budget), ``faces`` (the cards as the web client shows them) and ``drawing`` (the board as
text for the terminal).
"""

from __future__ import annotations

from games.base import TABLE_SIZE, GameBase, Option
from games.fortress_siege import bot, drawing, faces, rules, view
from games.fortress_siege.cards import MIN_PLAYERS
from games.fortress_siege.evolve import EVOLVE


class FortressSiege(GameBase):
    key = "fortress-siege"
    title = "Fortress"
    summary = (
        "Each player's own 54-card deck is both their draw pile and their Fortress. Deploy Jacks, "
        "Queens and Kings, armor and arm them with number cards, block with pairs and trios, and "
        "batter the other Fortresses down to their Tombstones: the last Fortress standing wins."
    )
    min_players = MIN_PLAYERS
    # "for 2 or more players": the rulebook sets no largest table, the service does.
    open_ended = True
    max_players = TABLE_SIZE
    rules_revision = 2
    """Revision 2: "The attacking player must declare a target for each attacking
    character": one attack move sends every armed character its player declares."""
    options: tuple[Option, ...] = (
        Option(
            "one_attacker_per_move",
            "boolean",
            False,
            "Our first reading: each attacking character is an attack move of its own, answered "
            "and resolved before the next. By default one attack move sends any number of armed "
            "characters, each with its own target, answered together and resolved in order.",
        ),
        Option(
            "winds_of_fate",
            "boolean",
            False,
            "Winds of Fate: one deck per two players, shuffled together and dealt equally; "
            "any Ace may be played as either Angel.",
        ),
        Option(
            "decks",
            "array",
            None,
            "Explicit Fortress orders for tutorials and tests: one list of card ids per seat, "
            "top card first, Tombstone last.",
            nullable=True,
        ),
        Option(
            "first_player",
            "integer",
            None,
            "Tutorials and tests: the seat that goes first, whatever the Tombstones show "
            "(otherwise the highest Tombstone, a tie settled by lot).",
            minimum=0,
            maximum=TABLE_SIZE - 1,
            nullable=True,
        ),
    )
    irreversible_types = frozenset(
        {
            "GameStarted",
            "FirstPlayerChosen",
            "CardDrawn",
            "TombstoneDrawn",
            "BarrageFired",
            "FortressBreached",
            # A card played from hand is seen by everyone: taking it back would not unsee it.
            "CharacterDeployed",
            "ArmorFitted",
            "WeaponFitted",
            "CardDiscarded",
            "AngelOfLifePlayed",
            "AngelOfDeathPlayed",
            "ShieldRaised",
            "PlayerDefeated",
        }
    )
    unfair_options = ("decks", "first_player")
    evolvers = EVOLVE

    rules_module = rules
    view_module = view
    bot_module = bot
    faces_module = faces
    drawing_module = drawing


GAME = FortressSiege()
