"""The README is a map: it shows a screenshot of every kind's table (made by that kind's
browser test), links how to play every kind, and stays short. Neither it nor any document
under ``docs/`` links outside the repository, to a missing file, or to a missing heading."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from games import registry

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
KINDS = [k for k in registry.keys() if k != "tiny"]
# "Run it" and "Test it": each command is one line, to be copied whole (tests/tooling/test_lock.py).
COMMAND = "python3 -m venv .venv && "


def without_code_blocks(text: str) -> str:
    return re.sub(r"^ *```.*?^ *```", "", text, flags=re.MULTILINE | re.DOTALL)


def prose(text: str) -> str:
    """The text without its code blocks and code spans, where a `](` is not a link."""
    return re.sub(r"`[^`\n]*`", "", without_code_blocks(text))


def links(text: str) -> list[str]:
    """Every target of an inline link or image, and of a reference definition."""
    text = prose(text)
    inline = re.findall(r"\]\(([^)\s]+)\)", text)
    defined = re.findall(r"^\[[^\]]+\]:\s*(\S+)", text, re.MULTILINE)
    return inline + defined


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives a document's headings: lower case, punctuation dropped,
    spaces as hyphens, a repeated one numbered."""
    seen: Counter[str] = Counter()
    found = set()
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", without_code_blocks(text), re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        found.add(slug if not seen[slug] else f"{slug}-{seen[slug]}")
        seen[slug] += 1
    return found


def test_every_kind_has_a_screenshot_of_its_table_in_the_readme() -> None:
    for kind in KINDS:
        image = f"docs/tables/{kind}.png"
        assert f"]({image})" in README, f"README shows no {image}"
        data = (ROOT / image).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 20_000, f"{image} is not a screenshot"


def test_the_readme_links_how_to_play_every_kind() -> None:
    targets = links(README)
    for kind in KINDS:
        target = f"games/{kind.replace('-', '_')}/README.md#how-to-play"
        assert target in targets, f"README's table of games does not link {target}"


def test_every_link_of_the_readme_and_the_documents_resolves_in_the_repository() -> None:
    assert len(DOCUMENTS) > 8, [d.name for d in DOCUMENTS]
    for document in DOCUMENTS:
        name = document.relative_to(ROOT)
        text = document.read_text()
        for target in links(text):
            if target.startswith(("http://", "https://")):
                continue
            path, _, anchor = target.partition("#")
            resolved = (document.parent / path).resolve() if path else document
            assert resolved.is_relative_to(ROOT), f"{name} links outside the repository: {target}"
            assert resolved.exists(), f"{name} links to a missing file: {target}"
            if anchor and resolved.suffix == ".md":
                assert anchor in anchors(resolved.read_text()), f"{name} links to a missing heading: {target}"


def test_the_readme_stays_a_map_under_150_lines_of_at_most_120_characters() -> None:
    lines = README.splitlines()
    assert len(lines) < 150, f"README has {len(lines)} lines"
    commands = [line for line in lines if line.startswith(COMMAND)]
    assert len(commands) == 2, commands
    long = [(number, len(line)) for number, line in enumerate(lines, 1) if len(line) > 120 and line not in commands]
    assert not long, f"README lines over 120 characters (line, length): {long}"


def test_every_kinds_readme_starts_with_how_to_play() -> None:
    for kind in KINDS:
        readme = (ROOT / "games" / kind.replace("-", "_") / "README.md").read_text()
        assert "\n## How to play\n" in readme, f"{kind}'s README has no How to play"
        assert "shared/rules" not in readme, f"{kind}'s README points outside the repository"
