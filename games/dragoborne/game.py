"""Dragoborne -Rise To Supremacy- as the registry lists it: the game object, with its
title, player count, options, rules revision and the events undo never crosses, and the
modules that hold the contract's functions, which ``GameBase`` hands each function over to
by name (``games.base.HANDED_OVER``): ``rules`` (the deal, who acts, what may be done and
what it causes, the outcome), ``evolve`` (the fold, as ``evolvers``), ``view`` (what a
seat may see and believe), ``bot`` (the greedy bot's evaluation, ISMCTS's budget),
``faces`` (the cards as the web client shows them) and ``drawing`` (the board as text for
the terminal).
"""

from __future__ import annotations

from games.base import GameBase, Option
from games.dragoborne import bot, drawing, faces, rules, view
from games.dragoborne.cards import DECKS
from games.dragoborne.evolve import EVOLVE
from games.dragoborne.rules import PLAYERS


class Dragoborne(GameBase):
    key = "dragoborne"
    title = "Dragoborne"
    summary = (
        "A two-player duel of creatures holding three forts. Each turn your dice become "
        "Dragoshields that guard a fort or Dragocrosses that empower a creature; every unblocked "
        "attack breaks a face-down barrier, and the player who loses all three forts loses."
    )
    min_players = PLAYERS
    max_players = PLAYERS
    options: tuple[Option, ...] = (
        Option(
            "decks",
            "array",
            ["emberguard", "tidecrypt"],
            "The deck of each seat: a pre-built deck name ("
            + ", ".join(sorted(DECKS))
            + ") or a custom list {cards: {name: copies}, banners: [three banner names], "
            "dice: [three colours]}.",
        ),
        Option(
            "deck",
            "array",
            None,
            "Scenario and tutorial use: for each seat, the exact deck order as card names, top card first "
            "(no shuffle). Banners and dice still come from 'decks'.",
            nullable=True,
        ),
        Option(
            "first_player",
            "integer",
            None,
            "Scenario and tutorial use: the seat that goes first (otherwise chosen at random).",
            minimum=0,
            maximum=PLAYERS - 1,
            nullable=True,
        ),
        Option(
            "second_player_extra_card",
            "boolean",
            False,
            "Variant, not in the rulebook: the player going second opens with six cards instead of five. "
            "Off by default, so a game follows the rulebook ('draw 5 cards from the deck').",
        ),
        Option(
            "shields_match_banners",
            "boolean",
            False,
            "Rules revision 3 only: a die set as a Dragoshield goes only before a fort whose banner "
            "has the die's colour (revision 2's reading). Off, it goes before any standing fort of "
            "its owner, as the rulebook says Dragoshields 'are placed in front of forts'.",
        ),
    )
    rules_revision = 4
    """Revision 2: the player chooses the resources and the die that pay a cost,
    a switch only moves creatures between forts that stand, and the pool of
    ``revision2.json``. Revision 3 (revision 2's pool): creatures move and switch
    with no limit a turn, and a Dragoshield goes before any standing fort of its
    owner, one a fort (option ``shields_match_banners``: revision 2's reading).
    Revision 4 (revision 3's rules): the pool of ``revision4.json``, stronger Fort
    Bursts for the player behind. A game of revision 1, 2 or 3 plays exactly as before."""
    irreversible_types = frozenset(
        {
            "GameStarted",
            "CardsDrawn",
            "HandMulliganed",
            "BarriersPlaced",
            "DiceRolled",
            "ResourcePlaced",
            "BarrierBroken",
            "FortBurst",
            "BarrierAdded",
            "DieRerolled",
            "CardSearched",
            "DeckShuffled",
        }
    )
    unfair_options = ("deck", "first_player")
    evolvers = EVOLVE

    rules_module = rules
    view_module = view
    bot_module = bot
    faces_module = faces
    drawing_module = drawing


GAME = Dragoborne()
