"""The ``type=`` checks of the ``tablestream`` command's arguments: each turns the text
given into the value the command needs, or refuses it with a sentence saying what is
possible, which argparse prints before it exits with status 2."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

SEATS_NOTE = "Seats are numbered from 0, as in the API's URLs and JSON (seat 0 is the first seat)."
"""How every command numbers seats, in what it reads and in what it prints."""


def whole_number(text: str, what: str) -> int:
    """``text`` as an integer; ``what`` names it in the refusal ("a port")."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} is a whole number, not {text!r}") from None


def port(text: str) -> int:
    """A TCP port to listen on: 1 to 65535."""
    value = whole_number(text, "a port")
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, not {value}")
    return value


def count(text: str) -> int:
    """How many of something there are to be: at least one."""
    value = whole_number(text, "a count")
    if value < 1:
        raise argparse.ArgumentTypeError(f"a count is at least 1, not {value}")
    return value


def version(text: str) -> int:
    """A version of a game's log: its first event is version 1."""
    value = whole_number(text, "a version")
    if value < 1:
        raise argparse.ArgumentTypeError(f"a game's versions start at 1, not {value}")
    return value


def seat(text: str) -> int:
    """A seat's number, counted from 0 as the API counts it (whether the game has that
    seat is known only once the game is read)."""
    value = whole_number(text, "a seat")
    if value < 0:
        raise argparse.ArgumentTypeError(f"seats are numbered from 0, so {value} is no seat")
    return value


def seconds(text: str) -> float:
    """A duration in seconds: zero or more, and finite."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a duration is a number of seconds, not {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"a duration is 0 seconds or more, not {text}")
    return value


def readable_file(text: str) -> Path:
    """A file that exists and is a file."""
    path = Path(text)
    if not path.exists():
        raise argparse.ArgumentTypeError(f"no such file: {text}")
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"{text} is not a file")
    return path


def input_file(text: str) -> str:
    """``-`` for stdin, else a file that exists (``readable_file``)."""
    return text if text == "-" else str(readable_file(text))


def output_file(text: str) -> str:
    """``-`` for stdout, else a path whose folder exists and that is not a folder itself."""
    if text == "-":
        return text
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder, not a file")
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"no such folder: {path.parent}")
    return text


def state_file(text: str) -> Path:
    """A file kept from run to run: made on the first, so only its folder must exist."""
    output_file(text)
    if text == "-":
        raise argparse.ArgumentTypeError("a state file is a path, not -")
    return Path(text)


def web_address(text: str) -> str:
    """An ``http://`` or ``https://`` address with a host."""
    from urllib.parse import urlsplit

    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise argparse.ArgumentTypeError(f"an address is http:// or https:// and a host, not {text!r}")
    return text
