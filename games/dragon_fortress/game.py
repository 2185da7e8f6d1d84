"""Dragon Fortress as the registry lists it: the game object, with its title, player
counts, options, rules revision and the events undo never crosses, and the modules that
hold the contract's functions, which ``GameBase`` hands each function over to by name
(``games.base.HANDED_OVER``): ``rules`` (the options and the deal, who acts, what may be
done and the move that does it, refusals, the outcome), ``evolve`` (the fold, as
``evolvers``), ``view`` (what a seat may see and believe), ``bot`` (the greedy bot's
evaluation, ISMCTS's budget), ``faces`` (the cards as the web client shows them) and
``drawing`` (the board as text for the terminal).
"""

from __future__ import annotations

from games.base import GameBase, Option
from games.dragon_fortress import bot, drawing, faces, rules, view
from games.dragon_fortress.evolve import EVOLVE


class DragonFortress(GameBase):
    key = "dragon-fortress"
    title = "Dragon Fortress"
    summary = (
        "Plant crops, build towers and defeat dragons: each player grows an Estate Line of "
        "estate, gold and tower cards while dragons called from the common supply march "
        "through it razing what they pass. The strongest Estate in victory and bonus points "
        "wins when the Shadow Terror falls or a player plays the last card from hand."
    )
    min_players = 3
    max_players = 4
    options: tuple[Option, ...] = (
        Option(
            "deck",
            "array",
            None,
            "Scenario and tutorial deals only: common supply card ids in the order to stack "
            "them (top first, dealt round-robin before the supply); unlisted cards follow "
            "in manifest order. A game started with it is not a fair deal.",
            nullable=True,
        ),
        Option(
            "flee_home",
            "boolean",
            False,
            "Rules revision 2 only: a fleeing dragon that finds every other Estate Line "
            "holding a dragon goes back to the Front Line of the player it left, instead of "
            "leaving the game (revision 1's reading).",
        ),
        Option(
            "purchases_carry_over",
            "boolean",
            False,
            "Rules revision 2 only: a purchase of a type not made in one phase may be made "
            "in a later one (two Barns in Meadow if none was bought in Fallow), within the "
            "caps (revision 1's reading).",
        ),
        Option(
            "gold_kept",
            "boolean",
            False,
            "Rules revision 2 only: gold in the Estate Line is a requirement for a purchase "
            "and is never spent (revision 1's reading).",
        ),
    )
    rules_revision = 2
    irreversible_types = frozenset({"GameSetUp", "CommonCardDrawn", "DragonCalled"})
    evolvers = EVOLVE
    unfair_options = ("deck",)

    rules_module = rules
    view_module = view
    bot_module = bot
    faces_module = faces
    drawing_module = drawing


GAME = DragonFortress()
