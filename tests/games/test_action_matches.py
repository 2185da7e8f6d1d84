"""``games.base.action_matches``: how ``decide`` compares an action with the listed ones."""

from __future__ import annotations

from games.base import action_matches


def test_a_listed_action_matches_only_itself_and_strictly_only_as_the_same_json() -> None:
    """``decide`` of a game that lists every action accepts exactly what ``legal_actions``
    lists: no field more or less, and (``strict_json``) ``true`` is not ``1``, nor ``1.0``."""
    legal = [{"type": "pick", "card": 1, "face_up": True}, {"type": "pass"}]
    assert action_matches({"type": "pass"}, legal, strict=True)
    assert action_matches({"type": "pick", "card": 1, "face_up": True}, legal, strict=True)
    for near in (
        {"type": "pick", "card": 1, "face_up": 1},
        {"type": "pick", "card": 1.0, "face_up": True},
        {"type": "pick", "card": True, "face_up": True},
        {"type": "pick", "card": 1},
        {"type": "pick", "card": 1, "face_up": True, "extra": None},
    ):
        assert not action_matches(near, legal, strict=True), near
    assert action_matches({"type": "pick", "card": 1, "face_up": 1}, legal), "without strict, Python's == decides"
