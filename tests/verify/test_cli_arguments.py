"""``tablestream verify``'s options take values that begin with "-": a seat token does one
time in 64 (URL-safe base64), and argparse alone reads ``--token -Abc`` as two options."""

from __future__ import annotations

import argparse

import pytest

from service.cli import main
from service.verifier import add_arguments, attached


def test_a_token_that_begins_with_a_dash_is_read_as_the_token() -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(attached(["record.json", "--token", "-Abc_12", "--log-key", "-k", "--json"]))
    assert (args.token, args.log_key, args.json, args.source) == ("-Abc_12", "-k", True, "record.json")
    with pytest.raises(SystemExit):
        parser.parse_args(["record.json", "--token", "-Abc_12"])  # what argparse does alone


def test_the_command_line_reads_it_too(capsys: pytest.CaptureFixture[str]) -> None:
    missing = "/nonexistent/record.json"
    assert main(["verify", missing, "--token", "-Abc_12"]) == 2, "read as the token: the file is what fails"
    said = capsys.readouterr()
    assert "record.json" in said.err + said.out
