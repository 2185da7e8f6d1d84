"""Given a fork written before the state class was renamed (``Table`` -> ``State``),
when its encoded state is read back, then it decodes to the same state."""

from __future__ import annotations

import json
import random

from games.codec import decode, encode
from games.dragon_fortress import GAME
from games.play import new_game


def test_a_state_encoded_under_its_old_class_name_still_decodes() -> None:
    state = new_game(GAME, 3, None, random.Random(1)).state
    written = json.dumps(encode(state))
    assert "games.dragon_fortress.state:State" in written
    old = json.loads(written.replace("games.dragon_fortress.state:State", "games.dragon_fortress.state:Table"))
    assert decode(old) == state
