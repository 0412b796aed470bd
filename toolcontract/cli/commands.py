"""The Typer app: every command, its flags and help. Shares `run_lint`, file
discovery and error handling with the light entry point in `toolcontract.cli`."""

from __future__ import annotations

import os
import sys
from enum import Enum
from typing import List, Optional

import typer

try:  # typer >= 0.20 vendors click as typer._click; older releases use click itself
    from typer._click import exceptions as click_errors
    from typer._click import echo
except ImportError:  # pragma: no cover - depends on the installed typer
    from click import echo
    from click import exceptions as click_errors
from typer.core import TyperGroup

from toolcontract import __version__
from toolcontract.cli import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    FIXTURE_SUFFIXES,
    UsageFailure,
    default_format,
    discover,
    exit_code,
    one_line,
    read_inputs,
    run_lint,
    split_codes,
)


class OneLineErrors(TyperGroup):
    """Click prints usage blocks for bad flags; we print one line and exit 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        parent_main = super().main
        code = exit_code(lambda: _click_errors_to_exit(lambda: parent_main(args, prog_name, complete_var,
                                                                          standalone_mode=False, **extra)))
        if standalone_mode:
            sys.exit(code)
        return code


def _click_errors_to_exit(command):
    """Typer's exceptions (bad flags, --help, Exit) as one line and an exit code."""
    try:
        return command()
    except typer.Exit as exc:
        return exc.exit_code
    except click_errors.UsageError as exc:
        message = one_line(exc.format_message())
        if message:  # no_args_is_help raises with an empty message after printing the help
            echo(f"toolcontract: {message}", err=True)
        return EXIT_USAGE
    except click_errors.ClickException as exc:
        echo(f"toolcontract: {one_line(exc.format_message())}", err=True)
        return exc.exit_code
    except typer.Abort:
        raise KeyboardInterrupt from None


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







@app.command()
def lint(
    paths: List[str] = typer.Argument(..., help="Descriptor files or folders (folders: *.yaml, *.yml, *.json). '-' reads stdin."),
    select: Optional[List[str]] = typer.Option(None, "--select", help="Rule ids or prefixes to run (e.g. TC4,TC101). Default: all."),
    ignore: Optional[List[str]] = typer.Option(None, "--ignore", help="Rule ids or prefixes to skip."),
    fail_on: FailOn = typer.Option(FailOn.error, "--fail-on", help="Exit 1 when a finding has at least this severity."),
    output_format: Optional[Format] = typer.Option(None, "--format", help="rich (default on a terminal), text, json."),
    exit_zero: bool = typer.Option(False, "--exit-zero", help="Exit 0 even when findings reach --fail-on."),
    target: Optional[List[str]] = typer.Option(None, "--target", help="Surfaces to check portability for: openai, openai-strict, anthropic, anthropic-strict, gemini, mcp (comma-separated or repeated)."),
    input_format: Optional[str] = typer.Option(None, "--input-format", help="Read every file in this format instead of detecting it."),
) -> None:
    """Lint tool descriptors: report what makes a contract unclear, unportable or unsafe."""
    code = run_lint(paths, select, ignore, fail_on.value, output_format.value if output_format else None, exit_zero,
                    target, input_format)
    raise typer.Exit(code)


@app.command()
def rules(
    rule_id: Optional[str] = typer.Argument(None, metavar="[RULE]", help="A rule id (TC403) or name (additional-properties-open)."),
    output_format: Optional[Format] = typer.Option(None, "--format", help="rich (default on a terminal), text, json."),
) -> None:
    """List every rule, or show one rule's summary, rationale and examples."""
    from toolcontract.lint.engine import all_rules
    from toolcontract.report.rules import render_rule, render_rules

    catalog = all_rules()
    fmt = (output_format.value if output_format else default_format())
    if rule_id is None:
        render_rules(list(catalog.values()), sys.stdout, fmt)
        return
    chosen = catalog.get(rule_id.upper()) or next((r for r in catalog.values() if r.name == rule_id.lower()), None)
    if chosen is None:
        raise click_errors.UsageError(f"no rule {rule_id!r}: `toolcontract rules` lists them")
    render_rule(chosen, sys.stdout, fmt)


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
            cache[name] = [view.data for view in read_tools(document).tools]
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

    failing = set(split_codes(fail_on))
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

    reporter = assess_reporter((output_format.value if output_format else default_format()), sys.stdout, verbose)
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
