"""`main()` parses a plain `lint` call itself (no pydantic import); it must behave exactly
as Typer does, and leave everything else to Typer."""

from __future__ import annotations

import sys

import pytest

from conftest import BAD_DIR, GOOD_DIR, REPO
from toolcontract import cli

WARNING_ONLY = str(BAD_DIR / "TC103-version-missing.yaml")
ERROR_FILE = str(BAD_DIR / "TC101-name-format.yaml")
GOOD = str(GOOD_DIR)
BAD = str(BAD_DIR)


def _outcome(run, capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        run()
    captured = capsys.readouterr()
    return exit_info.value.code, captured.out, captured.err


def _both(argv: list[str], capsys, monkeypatch) -> tuple[tuple, tuple]:
    monkeypatch.setattr(sys, "argv", ["toolcontract", *argv])
    fast = _outcome(cli.main, capsys)
    typer_path = _outcome(lambda: cli.app(args=argv), capsys)
    return fast, typer_path


PLAIN = [
    ["lint", GOOD, "--format", "text"],
    ["lint", "--format", "json", GOOD],
    ["lint", "--format=json", ERROR_FILE, WARNING_ONLY],
    ["lint", ERROR_FILE],
    ["lint", ERROR_FILE, "--exit-zero", "--format", "text"],
    ["lint", WARNING_ONLY, "--fail-on", "warning", "--format", "text"],
    ["lint", WARNING_ONLY, "--fail-on=info", "--fail-on", "error", "--format", "text"],  # the last one counts
    ["lint", BAD, "--select", "TC1", "--select=TC3,TC201", "--ignore", "TC103", "--format", "json"],
    ["lint", BAD, "--ignore", "TC", "--format", "text"],
    ["lint", GOOD, "--format", "rich"],
    ["lint", GOOD, "--select", "TC9", "--format", "text"],  # selection error: one line, exit 2
    ["lint", "/no/such/dir", "--format", "text"],  # missing path: one line, exit 2
    ["lint", GOOD, ERROR_FILE, GOOD, "--format", "text"],
    ["lint", BAD, "--jobs", "2", "--format", "json"],
    ["lint", BAD, "-j", "1", "--format=text", "--jobs=3"],  # the last one counts
]


def _id(argv: list[str]) -> str:
    return " ".join(a.rsplit("/", 1)[-1] for a in argv) or "(none)"


@pytest.mark.parametrize("argv", PLAIN, ids=_id)
def test_plain_lint_calls_take_the_fast_path_and_match_typer(argv, capsys, monkeypatch):
    assert cli._plain_lint_arguments(argv) is not None
    fast, typer_path = _both(argv, capsys, monkeypatch)
    assert fast == typer_path


OTHERS = [
    [],
    ["--version"],
    ["rules"],
    ["lint"],
    ["lint", "--help"],
    ["lint", GOOD, "--format", "yaml"],
    ["lint", GOOD, "--format", "TEXT"],
    ["lint", GOOD, "--format"],
    ["lint", GOOD, "--fail-on", "fatal"],
    ["lint", GOOD, "--selct", "TC1"],
    ["lint", GOOD, "--select", "--format", "text"],
    ["lint", GOOD, "--select="],
    ["lint", GOOD, "--exit-zero=1"],
    ["lint", "--", GOOD],
    ["lint", "-x", GOOD],
    ["lint", GOOD, "--jobs", "two"],
    ["lint", GOOD, "-j", "-1"],
    ["lint", GOOD, "--jobs="],
    ["lint", GOOD, "-j=0"],  # click reads `-j=0` as -j "=0": a bad value, as Typer says
]


@pytest.mark.parametrize("argv", OTHERS, ids=_id)
def test_everything_else_is_left_to_typer(argv):
    assert cli._plain_lint_arguments(argv) is None


# ---------------------------------------------------------------- assess

INVOCATIONS = str(REPO / "fixtures" / "invocations")
LOGS = REPO / "fixtures" / "logs"
ONE_LOG = str(sorted(LOGS.glob("*.jsonl"))[0])
TRANSCRIPTS = str(REPO / "fixtures" / "transcripts")

PLAIN_ASSESS = [
    ["assess", INVOCATIONS, "--format", "json"],
    ["assess", INVOCATIONS, "--format=text", "-v"],
    ["assess", INVOCATIONS, "--format", "junit", "--fail-on", "effect_unknown", "--fail-on=blocked"],
    ["assess", INVOCATIONS, "--format", "text", "--fail-on", "effect_unknown,allowed"],
    ["assess", INVOCATIONS, "--format", "text", "--fail-on", "nonsense"],  # exit 2, one line
    ["assess", ONE_LOG, "--tools", str(REPO / "fixtures" / "descriptors" / "good"), "--format", "json"],
    ["assess", TRANSCRIPTS, "--format", "text", "--verbose"],
    ["assess", "/no/such/fixture.yaml", "--format", "text"],
    ["assess", INVOCATIONS, "--format", "sarif", "--fail-on", "blocked"],  # issue 17: assess in CI
    ["assess", TRANSCRIPTS, "--format", "github", "--select", "TC801", "--ignore", "TC812", "--exit-zero"],
]


@pytest.mark.parametrize("argv", PLAIN_ASSESS, ids=_id)
def test_plain_assess_calls_take_the_fast_path_and_match_typer(argv, capsys, monkeypatch):
    assert cli._plain_assess_arguments(argv) is not None
    fast, typer_path = _both(argv, capsys, monkeypatch)
    assert fast == typer_path


@pytest.mark.parametrize("argv", [
    ["assess"],
    ["assess", "--help"],
    ["assess", INVOCATIONS, "--format", "yaml"],
    ["assess", INVOCATIONS, "--context", "ctx.yaml"],
    ["assess", INVOCATIONS, "--max-rounds", "3"],
    ["assess", INVOCATIONS, "--tools"],
    ["assess", INVOCATIONS, "--fail-on="],
    ["assess", "--", INVOCATIONS],
    ["lint", INVOCATIONS, "-v"],
], ids=_id)
def test_other_assess_calls_are_left_to_typer(argv):
    assert cli._plain_assess_arguments(argv) is None
