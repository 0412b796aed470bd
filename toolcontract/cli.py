"""The command line: argv, files, console and exit codes — nothing else.

Exit codes: 0 clean; 1 findings at or above --fail-on; 2 the job could not be
done as asked (bad usage, a missing path), always one line on stderr.
"""

from __future__ import annotations

import os
import stat
import sys
from enum import Enum
from pathlib import Path
from typing import Iterator, List, Optional

import typer

try:  # typer >= 0.20 vendors click as typer._click; older releases use click itself
    from typer._click import exceptions as click_errors
    from typer._click import echo
except ImportError:  # pragma: no cover - depends on the installed typer
    from click import echo
    from click import exceptions as click_errors
from typer.core import TyperGroup

from toolcontract import __version__

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
DESCRIPTOR_SUFFIXES = (".yaml", ".yml", ".json")
SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "venv", "site-packages"})


class UsageFailure(Exception):
    """The job cannot be done as asked; the message is one line, `path:line:col: ...` when about a file."""


class OneLineErrors(TyperGroup):
    """Click prints usage blocks for bad flags; we print one line and exit 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        parent_main = super().main
        code = _exit_code(lambda: parent_main(args, prog_name, complete_var, standalone_mode=False, **extra))
        if standalone_mode:
            sys.exit(code)
        return code


def _exit_code(command) -> int:
    """Run a command; turn what it raises into a one-line message and an exit code."""
    try:
        code = command()
        code = code if isinstance(code, int) else EXIT_OK
    except typer.Exit as exc:
        code = exc.exit_code
    except click_errors.UsageError as exc:
        echo(f"toolcontract: {_one_line(exc.format_message())}", err=True)
        code = EXIT_USAGE
    except click_errors.ClickException as exc:
        echo(f"toolcontract: {_one_line(exc.format_message())}", err=True)
        code = exc.exit_code
    except UsageFailure as exc:
        echo(_one_line(str(exc)), err=True)
        code = EXIT_USAGE
    except (typer.Abort, KeyboardInterrupt):
        echo("toolcontract: aborted", err=True)
        code = 130
    except BrokenPipeError:
        code = EXIT_OK  # e.g. `toolcontract lint . | head`
        sys.stdout = None  # type: ignore[assignment]  # silence the flush at exit
    return code


def _one_line(text: str) -> str:
    return " ".join(text.split())


app = typer.Typer(
    cls=OneLineErrors,
    add_completion=False,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
    help="Lint LLM tool-calling contracts and assess recorded tool calls. Offline and deterministic.",
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"toolcontract {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
) -> None:
    """Lint LLM tool-calling contracts and assess recorded tool calls."""


class Format(str, Enum):
    rich = "rich"
    text = "text"
    json = "json"


class FailOn(str, Enum):
    error = "error"
    warning = "warning"
    info = "info"


def _split_codes(values: Optional[List[str]]) -> tuple[str, ...]:
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


def _default_format() -> Format:
    return Format.rich if sys.stdout.isatty() else Format.text


@app.command()
def lint(
    paths: List[str] = typer.Argument(..., help="Descriptor files or folders (folders: *.yaml, *.yml, *.json). '-' reads stdin."),
    select: Optional[List[str]] = typer.Option(None, "--select", help="Rule ids or prefixes to run (e.g. TC4,TC101). Default: all."),
    ignore: Optional[List[str]] = typer.Option(None, "--ignore", help="Rule ids or prefixes to skip."),
    fail_on: FailOn = typer.Option(FailOn.error, "--fail-on", help="Exit 1 when a finding has at least this severity."),
    output_format: Optional[Format] = typer.Option(None, "--format", help="rich (default on a terminal), text, json."),
    exit_zero: bool = typer.Option(False, "--exit-zero", help="Exit 0 even when findings reach --fail-on."),
) -> None:
    """Lint tool descriptors: report what makes a contract unclear, unportable or unsafe."""
    code = run_lint(paths, select, ignore, fail_on.value, output_format.value if output_format else None, exit_zero)
    raise typer.Exit(code)


def run_lint(
    paths: List[str],
    select: Optional[List[str]],
    ignore: Optional[List[str]],
    fail_on: str,
    output_format: Optional[str],
    exit_zero: bool,
) -> int:
    """`lint` after its arguments are parsed (by Typer, or by `_plain_lint_arguments`): the exit code."""
    from toolcontract.lint.engine import Selection, SelectionError, all_rules, lint_files
    from toolcontract.model import Severity
    from toolcontract.report import lint_reporter
    from toolcontract.sources.document import DEFAULT_LIMITS

    selection = Selection(select=_split_codes(select) or ("TC",), ignore=_split_codes(ignore))
    try:
        selection.validate(all_rules())
    except SelectionError as exc:
        raise click_errors.UsageError(str(exc)) from None
    files = list(read_inputs(paths, DEFAULT_LIMITS.max_bytes))
    result = lint_files(files, selection, DEFAULT_LIMITS)
    lint_reporter(output_format or _default_format().value)(result, sys.stdout)
    sys.stdout.flush()
    threshold = Severity.parse(fail_on)
    failed = any(f.severity >= threshold for f in result.findings)
    return EXIT_FINDINGS if failed and not exit_zero else EXIT_OK


@app.command()
def rules(
    rule_id: Optional[str] = typer.Argument(None, metavar="[RULE]", help="A rule id (TC403) or name (additional-properties-open)."),
    output_format: Optional[Format] = typer.Option(None, "--format", help="rich (default on a terminal), text, json."),
) -> None:
    """List every rule, or show one rule's summary, rationale and examples."""
    from toolcontract.lint.engine import all_rules
    from toolcontract.report.rules import render_rule, render_rules

    catalog = all_rules()
    fmt = (output_format or _default_format()).value
    if rule_id is None:
        render_rules(list(catalog.values()), sys.stdout, fmt)
        return
    chosen = catalog.get(rule_id.upper()) or next((r for r in catalog.values() if r.name == rule_id.lower()), None)
    if chosen is None:
        raise click_errors.UsageError(f"no rule {rule_id!r}: `toolcontract rules` lists them")
    render_rule(chosen, sys.stdout, fmt)


FIXTURE_SUFFIXES = (".yaml", ".yml", ".json", ".jsonl")


def _load_descriptor_dicts(paths: list[str], cache: dict[str, list[dict]]) -> list[dict]:
    """Native-named descriptor dicts from descriptor files or folders (exit 2 on a file that does not load)."""
    from toolcontract.sources.document import DEFAULT_LIMITS, LoadError, load_bytes
    from toolcontract.sources.reader import read_tools

    found: list[dict] = []
    for name, content in read_inputs(paths, DEFAULT_LIMITS.max_bytes):
        if name not in cache:
            try:
                if isinstance(content, LoadError):
                    raise content
                document = load_bytes(content, name, DEFAULT_LIMITS)
            except LoadError as error:
                raise UsageFailure(f"{name}:{error.line}:{error.column}: {error.message}") from None
            cache[name] = [view.data for view in read_tools(document)]
        found.extend(cache[name])
    return found


@app.command()
def assess(
    paths: List[str] = typer.Argument(..., help="Fixture files or folders (.yaml, .yml, .json, .jsonl)."),
    tools: Optional[List[str]] = typer.Option(None, "--tools", help="Descriptor files or folders to add to every fixture's registry (JSONL logs get theirs this way)."),
    output_format: Optional[Format] = typer.Option(None, "--format", help="rich (default on a terminal), text, json."),
    fail_on: Optional[List[str]] = typer.Option(None, "--fail-on", help="Outcomes that make the run exit 1 (e.g. effect_unknown,blocked)."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show reasons and evidence for every case."),
) -> None:
    """Replay recorded tool calls through the admission gates and classify what the evidence proves."""
    from toolcontract.assess.envelope import assess as assess_case
    from toolcontract.assess.registry import Registry
    from toolcontract.model import Outcome
    from toolcontract.report import assess_reporter
    from toolcontract.sources.document import DEFAULT_LIMITS
    from toolcontract.sources.fixtures import FixtureError, read_fixture_bytes, read_jsonl

    failing = set(_split_codes(fail_on))
    known = {o.value.upper() for o in Outcome}
    for outcome in failing:
        if outcome not in known:
            raise click_errors.UsageError(f"--fail-on: {outcome.lower()!r} is not an outcome ({', '.join(o.value for o in Outcome)})")
    fixture_files = list(discover(paths, FIXTURE_SUFFIXES))
    descriptor_cache: dict[str, list[dict]] = {}
    shared = _load_descriptor_dicts(list(tools or ()), descriptor_cache)
    registries: dict[tuple, Registry] = {}

    def registry_for(extra: list[str]) -> Registry:
        key = tuple(extra)
        if key not in registries:
            registries[key] = Registry.from_descriptors(shared + _load_descriptor_dicts(extra, descriptor_cache))
        return registries[key]

    reporter = assess_reporter((output_format or _default_format()).value, sys.stdout, verbose)
    failed = False
    error: str | None = None
    try:
        for path in fixture_files:
            reporter.begin_file(path)
            try:
                if path.lower().endswith(".jsonl"):
                    with open(path, "rb") as stream:
                        registry = registry_for([])
                        for case in read_jsonl(stream, path, DEFAULT_LIMITS):
                            envelope = assess_case(case, registry)
                            failed |= not envelope.expect_met or envelope.outcome.value.upper() in failing
                            reporter.case(envelope)
                else:
                    raw = _read_fixture(path, DEFAULT_LIMITS.max_bytes)
                    fixture = read_fixture_bytes(raw, path, DEFAULT_LIMITS)
                    base = os.path.dirname(path)
                    extra = []
                    for index, entry in enumerate(fixture.tools):
                        resolved = os.path.normpath(os.path.join(base, entry))
                        if not os.path.exists(resolved):
                            line, column = fixture.locate(f"/tools/{index}")
                            raise FixtureError(path, line, column, f"tools entry {entry!r} does not exist ({resolved})")
                        extra.append(resolved)
                    registry = registry_for(extra)
                    for case in fixture.cases:
                        envelope = assess_case(case, registry)
                        failed |= not envelope.expect_met or envelope.outcome.value.upper() in failing
                        reporter.case(envelope)
            finally:
                reporter.end_file(path)
    except FixtureError as exc:
        error = str(exc)
    except OSError as exc:
        error = f"{getattr(exc, 'filename', None) or '-'}:1:1: cannot read: {exc.strerror or exc}"
    except UsageFailure as exc:
        error = str(exc)
    reporter.finish(error)
    sys.stdout.flush()
    if error is not None:
        raise UsageFailure(error)
    raise typer.Exit(EXIT_FINDINGS if failed else EXIT_OK)


def _read_fixture(path: str, max_bytes: int) -> bytes:
    from toolcontract.sources.fixtures import FixtureError

    size = os.stat(path).st_size
    if size > max_bytes:
        raise FixtureError(path, 1, 1, f"file is {size:,} bytes, over the {max_bytes:,}-byte limit")
    with open(path, "rb") as handle:
        return handle.read(max_bytes + 1)


# `lint` options the fast path parses: option -> (keyword, allowed values or None for any)
_LINT_OPTIONS = {
    "--select": ("select", None),
    "--ignore": ("ignore", None),
    "--fail-on": ("fail_on", frozenset(f.value for f in FailOn)),
    "--format": ("output_format", frozenset(f.value for f in Format)),
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
    parsed: dict = {"paths": [], "select": None, "ignore": None, "fail_on": FailOn.error.value,
                    "output_format": None, "exit_zero": False}
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
            if allowed is None:
                parsed[keyword] = [*(parsed[keyword] or ()), value]
            else:
                parsed[keyword] = value
        else:
            parsed["paths"].append(token)
    return parsed if parsed["paths"] else None


def main() -> None:
    arguments = _plain_lint_arguments(sys.argv[1:])
    if arguments is None:
        app()
        return
    sys.exit(_exit_code(lambda: run_lint(**arguments)))
