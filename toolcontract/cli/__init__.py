"""The command line: argv, files, console and exit codes — nothing else.

Exit codes: 0 clean; 1 findings at or above --fail-on; 2 the job could not be
done as asked (bad usage, a missing path), always one line on stderr.

This module is what the `toolcontract` command imports first, and it does not
import Typer: a plain `lint` call (the one pre-commit makes on every commit) is
parsed here and runs without Typer's start-up cost (Typer imports pydantic and
builds a validator per parameter, which costs more than linting a file). Every
other command line, and anything unusual in a `lint` one, goes to the Typer app
in `toolcontract.cli.commands`, which shares `run_lint` and the error handling below.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Iterator, List, Optional

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
DESCRIPTOR_SUFFIXES = (".yaml", ".yml", ".json")
FIXTURE_SUFFIXES = (".yaml", ".yml", ".json", ".jsonl")
SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "venv", "site-packages"})
FORMATS = ("rich", "text", "json")
FAIL_ON = ("error", "warning", "info")


class UsageFailure(Exception):
    """The job cannot be done as asked; the message is one line, `path:line:col: ...` when about a file."""


def one_line(text: str) -> str:
    return " ".join(text.split())


def _echo_err(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def exit_code(command) -> int:
    """Run a command; turn what it raises into a one-line message and an exit code.

    Typer's own exceptions (bad flags) are handled by the app, which calls this too.
    """
    try:
        code = command()
        code = code if isinstance(code, int) else EXIT_OK
    except UsageFailure as exc:
        _echo_err(one_line(str(exc)))
        code = EXIT_USAGE
    except KeyboardInterrupt:
        _echo_err("toolcontract: aborted")
        code = 130
    except BrokenPipeError:
        code = EXIT_OK  # e.g. `toolcontract lint . | head`
        sys.stdout = None  # type: ignore[assignment]  # silence the flush at exit
    return code


def split_codes(values: Optional[List[str]]) -> tuple[str, ...]:
    codes: list[str] = []
    for value in values or ():
        codes.extend(part.strip().upper() for part in value.split(",") if part.strip())
    return tuple(codes)


def discover(paths: list[str], suffixes: tuple[str, ...] = DESCRIPTOR_SUFFIXES) -> Iterator[str]:
    """Named files as given; folders walked for files with these suffixes (hidden ones skipped)."""
    for raw in paths:
        if raw == "-":
            yield raw
            continue
        path = Path(raw)
        if not path.exists():
            raise UsageFailure(f"{raw}:1:1: no such file or directory")
        if path.is_dir():
            found = []
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS)
                found.extend(
                    os.path.join(root, name) for name in files
                    if name.lower().endswith(suffixes) and not name.startswith(".")
                )
            yield from sorted(found)
        else:
            yield raw


def read_inputs(paths: list[str], max_bytes: int):
    """(path, bytes or LoadError) per file; a file over the size limit is not read at all."""
    from toolcontract.sources.document import LoadError

    seen: set[str] = set()
    for name in discover(paths):
        if name in seen:
            continue
        seen.add(name)
        if name == "-":
            data = sys.stdin.buffer.read(max_bytes + 1)
            yield "<stdin>", data if len(data) <= max_bytes else LoadError(f"input is over the {max_bytes:,}-byte limit")
            continue
        try:
            info = os.stat(name)
            if not stat.S_ISREG(info.st_mode):
                raise UsageFailure(f"{name}:1:1: not a regular file")
            if info.st_size > max_bytes:
                yield name, LoadError(f"file is {info.st_size:,} bytes, over the {max_bytes:,}-byte limit")
                continue
            with open(name, "rb") as handle:
                yield name, handle.read(max_bytes + 1)
        except OSError as exc:
            raise UsageFailure(f"{name}:1:1: cannot read: {exc.strerror or exc}") from None


def default_format() -> str:
    return "rich" if sys.stdout.isatty() else "text"


def run_lint(
    paths: List[str],
    select: Optional[List[str]] = None,
    ignore: Optional[List[str]] = None,
    fail_on: str = "error",
    output_format: Optional[str] = None,
    exit_zero: bool = False,
    target: Optional[List[str]] = None,
    input_format: Optional[str] = None,
) -> int:
    """`lint` after its arguments are parsed (by Typer, or by `_plain_lint_arguments`): the exit code."""
    from toolcontract.lint.engine import Selection, SelectionError, all_rules, lint_files
    from toolcontract.model import Severity
    from toolcontract.report import lint_reporter
    from toolcontract.sources.document import DEFAULT_LIMITS

    from toolcontract.sources.reader import FORMATS

    if input_format is not None and input_format not in FORMATS:
        raise UsageFailure(f"toolcontract: unknown --input-format {input_format!r} (expected any of {', '.join(FORMATS)})")
    targets = tuple(t.lower() for t in split_codes(target))
    selection = Selection(select=split_codes(select) or ("TC",), ignore=split_codes(ignore), targets=targets)
    try:
        selection.validate(all_rules())
    except SelectionError as exc:
        raise UsageFailure(f"toolcontract: {exc}") from None
    files = list(read_inputs(paths, DEFAULT_LIMITS.max_bytes))
    result = lint_files(files, selection, DEFAULT_LIMITS, input_format=input_format)
    lint_reporter(output_format or default_format())(result, sys.stdout)
    sys.stdout.flush()
    threshold = Severity.parse(fail_on)
    failed = any(f.severity >= threshold for f in result.findings)
    return EXIT_FINDINGS if failed and not exit_zero else EXIT_OK


# `lint` options the fast path parses: option -> (keyword, allowed values or None for any)
_LINT_OPTIONS = {
    "--select": ("select", None),
    "--ignore": ("ignore", None),
    "--target": ("target", None),
    "--input-format": ("input_format", None),
    "--fail-on": ("fail_on", frozenset(FAIL_ON)),
    "--format": ("output_format", frozenset(FORMATS)),
}


def _plain_lint_arguments(argv: list[str]) -> Optional[dict]:
    """`lint` arguments when argv is plain: `lint`, paths, and known options each with a
    valid value. Anything else (help, a bad or unknown flag, `--`, another command)
    is None, and Typer parses it.

    Typer builds a pydantic validator for every parameter it parses, and importing
    pydantic costs more than linting a file; a plain `lint` call does not need it.
    """
    if not argv or argv[0] != "lint" or os.name == "nt" or "_TOOLCONTRACT_COMPLETE" in os.environ:
        return None  # click expands wildcards on Windows and serves shell completion: let it
    parsed: dict = {"paths": [], "select": None, "ignore": None, "fail_on": "error",
                    "output_format": None, "exit_zero": False, "target": None, "input_format": None}
    tokens = iter(argv[1:])
    for token in tokens:
        if token == "--exit-zero":
            parsed["exit_zero"] = True
        elif token.startswith("-") and token != "-":
            name, equals, value = token.partition("=")
            if name not in _LINT_OPTIONS:
                return None
            if not equals:
                value = next(tokens, None)
                if value is None or (value.startswith("-") and value != "-"):
                    return None
            keyword, allowed = _LINT_OPTIONS[name]
            if not value or (allowed is not None and value not in allowed):
                return None
            if keyword == "input_format":
                parsed[keyword] = value
            elif allowed is None:
                parsed[keyword] = [*(parsed[keyword] or ()), value]
            else:
                parsed[keyword] = value
        else:
            parsed["paths"].append(token)
    return parsed if parsed["paths"] else None


def main() -> None:
    arguments = _plain_lint_arguments(sys.argv[1:])
    if arguments is None:
        from toolcontract.cli.commands import app

        app()
        return
    sys.exit(exit_code(lambda: run_lint(**arguments)))


def __getattr__(name: str):
    if name == "app":  # the Typer app, imported on first use
        from toolcontract.cli.commands import app

        return app
    raise AttributeError(f"module 'toolcontract.cli' has no attribute {name!r}")
