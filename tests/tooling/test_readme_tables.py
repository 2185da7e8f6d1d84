"""The README shows a screenshot of every kind's table (made by that kind's browser
test), names how to play every kind, and links nothing outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

from games import registry

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
KINDS = [k for k in registry.keys() if k != "tiny"]


def test_every_kind_has_a_screenshot_of_its_table_in_the_readme() -> None:
    for kind in KINDS:
        image = f"docs/tables/{kind}.png"
        assert f"]({image})" in README, f"README shows no {image}"
        data = (ROOT / image).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 20_000, f"{image} is not a screenshot"


def test_every_link_of_the_readme_stays_in_the_repository() -> None:
    for target in re.findall(r"\]\(([^)\s]+)\)", README):
        if target.startswith(("http://", "https://", "#")):
            continue
        path = target.split("#")[0]
        assert not path.startswith(".."), f"README links outside the repository: {target}"
        assert (ROOT / path).exists(), f"README links to a missing file: {target}"


def test_every_kinds_readme_starts_with_how_to_play() -> None:
    for kind in KINDS:
        readme = (ROOT / "games" / kind.replace("-", "_") / "README.md").read_text()
        assert "\n## How to play\n" in readme, f"{kind}'s README has no How to play"
        assert "shared/rules" not in readme, f"{kind}'s README points outside the repository"
