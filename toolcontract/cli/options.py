"""The options of `lint` and `assess`, declared once.

Both parsers are built from these tables: the Typer commands (`toolcontract.cli.commands`, which
turns each `Option` into a `typer.Option`), and the fast parser below, which reads a plain call
without Typer's start-up (Typer 0.29 imports pydantic: about 300 ms, more than linting a file).
The fast parser takes only the options marked `fast`, each with a value it can check here; for
anything else (help, another option, a bad or missing value, `--`) it answers None and Typer
parses the command line, errors included, so the two never disagree on what they both accept.

No Typer here: this module is imported by every plain call.
"""

from __future__ import annotations

import math
import os
from typing import Any, Callable, Optional

from toolcontract.core.records import Record
from toolcontract.report import ASSESS_FORMATS, LINT_FORMATS

FAIL_ON = ("error", "warning", "info")
# --input-format's values, for the help: toolcontract.io.reader.FORMATS (not imported: it costs every plain call
# the descriptor model; tests/test_cli_polish_issue17.py checks the two are the same)
INPUT_FORMATS = ("native", "mcp", "openai-chat", "openai-responses", "anthropic", "gemini", "a2a-card")
INPUT_FORMATS = ("native", "mcp", "openai-chat", "openai-responses", "anthropic", "gemini", "a2a-card")  # io.reader.FORMATS  # lint's severities (toolcontract.core.model.Severity)


# --mcp-revision's values: toolcontract.core.descriptor.MCP_REVISIONS (not imported, as INPUT_FORMATS;
# tests/test_mcp_2026.py checks the two are the same)
MCP_REVISIONS = ("2025-11-25", "2026-07-28")
ENGINES = ("local", "dask")  # assess --engine (toolcontract.app.scale: dask)
def formats_help(formats) -> str:
    """`--format`'s help: the registry's formats, rich (the default on a terminal) first."""
    return f"rich (default on a terminal), {', '.join(name for name in formats if name != 'rich')}."


def mcp_timeout(value: Optional[float]) -> Optional[float]:
    """`--mcp-timeout`: a finite number of seconds, at least 0.1 (`inf` and `nan` parse as floats)."""
    if value is not None and not (math.isfinite(value) and value >= 0.1):
        raise ValueError(f"must be a finite number of seconds, at least 0.1, not {value:g}")
    return value


def http_headers(values):
    """`--header 'Name: value'`: each one splits (toolcontract.io.mcp_http.parse_header); the message never
    holds a value."""
    from toolcontract.io.mcp_http import parse_header

    for value in values or ():
        parse_header(value)
    return values


class Option(Record):
    """One parameter of a command, named by its keyword in the command's run function.

    kind: "paths" (the positional arguments), "flag" (a boolean switch), "text", "choice"
    (one of `choices`), "count" (an integer at least `minimum`) or "seconds" (a float).
    `multiple`: repeatable, the values in a list (None when absent). `check` raises ValueError
    for a value the type accepts but the command does not. `fast`: the fast parser reads it."""

    __slots__ = ("keyword", "flags", "kind", "help", "default", "multiple", "choices", "metavar", "minimum", "check",
                 "fast", "required")

    def __init__(self, keyword: str, flags: tuple[str, ...], kind: str, help: str, default: Any = None,
                 multiple: bool = False, choices: tuple[str, ...] = (), metavar: Optional[str] = None,
                 minimum: Optional[int] = None, check: Optional[Callable[[Any], Any]] = None, fast: bool = False,
                 required: bool = False):
        self.keyword, self.flags, self.kind, self.help, self.default = keyword, flags, kind, help, default
        self.multiple, self.choices, self.metavar, self.minimum = multiple, choices, metavar, minimum
        self.check, self.fast, self.required = check, fast, required


class Command(Record):
    """A command's name and its parameters, in the order its help lists them."""

    __slots__ = ("name", "options")

    def __init__(self, name: str, options: tuple[Option, ...]):
        self.name, self.options = name, options

    def __getitem__(self, keyword: str) -> Option:
        return next(option for option in self.options if option.keyword == keyword)


# lint and convert: the MCP revision MCP lists are judged by (or written in)
MCP_REVISION = Option("mcp_revision", ("--mcp-revision",), "choice", "Judge every MCP tool list as served under this "
                      f"MCP revision ({', '.join(MCP_REVISIONS)}) instead of the one the document says (ttlMs, "
                      "cacheScope, resultType or protocolVersion: 2026-07-28; nothing: 2025-11-25).",
                      choices=MCP_REVISIONS, fast=True, metavar="REV")

# the configuration options of every command that reads one (lint, diff, lock: cli.resolve_config)
CONFIG = Option("config", ("--config",), "text", "Use this configuration file (pyproject.toml or .toolcontract.yaml) "
                "instead of searching for one.", metavar="PATH")
NO_CONFIG = Option("no_config", ("--no-config",), "flag", "Ignore configuration files.", default=False)
# lint and diff: the folder SARIF paths are relative to (cli.sarif_root checks it)
ROOT = Option("root", ("--root",), "text", "SARIF: write paths relative to this folder, the %SRCROOT% of code "
              "scanning (default: the working directory; use the repository's top folder).", metavar="DIR",
              fast=True)

# the report controls of lint and diff (cli.report_lint)
OUTPUT = Option("output", ("--output", "-o"), "text", "Write the report to FILE too, in --format, else in the format "
                "its extension names (.sarif: sarif, .json: json, .xml: junit; otherwise json); the terminal gets "
                "the default format.", metavar="FILE")
QUIET = Option("quiet", ("--quiet", "-q"), "flag", "Print the findings only, one line each: no summary, no "
               "decoration.", default=False, fast=True)
STATISTICS = Option("statistics", ("--statistics",), "flag", "Print the number of findings per rule (most first) "
                    "instead of the findings; -o FILE still gets the whole report.", default=False, fast=True)
MAX_WARNINGS = Option("max_warnings", ("--max-warnings",), "count", "Exit 1 when there are more than N warnings "
                      "(errors fail by --fail-on).", minimum=0, metavar="N", fast=True)

# the HTTP options of every command that reads a live server (lint, convert, lock: toolcontract.io.mcp_http)
HEADER = Option("header", ("--header",), "text", "With --mcp-url: send this HTTP header, 'Name: value' (e.g. "
                "'Authorization: Bearer ...'). Repeatable. Values are never printed.", multiple=True, metavar="HEADER",
                check=http_headers)
ALLOW_INSECURE = Option("allow_insecure", ("--allow-insecure",), "flag", "With --mcp-url: allow http:// to an "
                        "address that is not loopback (headers then travel unencrypted).", default=False)

LINT = Command("lint", (
    Option("paths", (), "paths", "Descriptor files or folders (folders: *.yaml, *.yml, *.json that .gitignore does not "
           "ignore; files that are no tool list are skipped). '-' reads stdin.", multiple=True, fast=True),
    Option("select", ("--select",), "text", "Rules to run: ids, prefixes or names (e.g. TC4,TC101,"
           "additional-properties-open). Default: all.", multiple=True, fast=True, metavar="CODES"),
    Option("ignore", ("--ignore",), "text", "Rules to skip: ids, prefixes or names.", multiple=True, fast=True,
           metavar="CODES"),
    Option("fail_on", ("--fail-on",), "choice", "Exit 1 when a finding has at least this severity (default: the "
           "config's fail-on, else error).", choices=FAIL_ON, fast=True),
    Option("output_format", ("--format",), "choice", formats_help(LINT_FORMATS),
           choices=tuple(LINT_FORMATS), fast=True),
    Option("exit_zero", ("--exit-zero",), "flag", "Exit 0 even when findings reach --fail-on.", default=False,
           fast=True),
    Option("target", ("--target",), "text", "Surfaces to check portability for: openai, openai-strict, anthropic, "
           "anthropic-strict, gemini, mcp (comma-separated or repeated).", multiple=True, fast=True,
           metavar="SURFACES"),
    Option("input_format", ("--input-format",), "text", "Read every file in this format instead of detecting it: "
           f"{', '.join(INPUT_FORMATS)}.", fast=True, metavar="FORMAT"),
    MCP_REVISION,
    Option("mcp_stdio", ("--mcp-stdio",), "text", "Start this MCP server over stdio (a command line, quoted), list "
           "its tools and lint them; never calls a tool. Repeatable; paths are then optional.", multiple=True,
           metavar="COMMAND"),
    Option("mcp_url", ("--mcp-url",), "text", "Connect to this MCP server over Streamable HTTP (https://, or http:// "
           "to a loopback address), list its tools and lint them; never calls a tool. Repeatable; paths are then "
           "optional.", multiple=True, metavar="URL"),
    HEADER,
    ALLOW_INSECURE,
    Option("mcp_timeout", ("--mcp-timeout",), "seconds", "Time a --mcp-stdio or --mcp-url server has to start, "
           "initialize and list all its tools.", default=20.0, metavar="SECONDS", check=mcp_timeout),
    Option("locked", ("--locked",), "flag", "Also check the tools against toolcontract.lock (see `toolcontract "
           "lock`): changed under the same version, added, removed.", default=False),
    Option("lock_file", ("--lock-file",), "text", "The lockfile for --locked (default: toolcontract.lock here); "
           "implies --locked.", metavar="PATH"),
    CONFIG,
    NO_CONFIG,
    OUTPUT,
    QUIET,
    STATISTICS,
    MAX_WARNINGS,
    Option("jobs", ("--jobs", "-j"), "count", "Processes to lint in: 0 (default) uses every core when there are "
           "enough files, 1 lints in one process.", default=0, minimum=0, metavar="N", fast=True),
    Option("no_cache", ("--no-cache",), "flag", "Neither read nor write the lint cache (.toolcontract_cache, or "
           "the config's cache-dir, or $TOOLCONTRACT_CACHE_DIR).", default=False, fast=True),
    ROOT,
    Option("fix", ("--fix",), "flag", "Apply the safe fixes to the files (see `toolcontract rules`: which rules have "
           "one), then report what remains.", default=False, fast=True),
    Option("unsafe_fixes", ("--unsafe-fixes",), "flag", "With --fix or --diff: also the fixes that change what the "
           "contract accepts or claims (additionalProperties: false, required-and-nullable, readOnlyHint).",
           default=False, fast=True),
    Option("diff", ("--diff",), "flag", "Print a unified diff of what --fix would change and write nothing; exit 1 "
           "when something would change, else 0.", default=False, fast=True),
))

ASSESS = Command("assess", (
    Option("paths", (), "paths", "Fixture files or folders (.yaml, .yml, .json, .jsonl), or transcripts (Anthropic "
           "Messages, OpenAI Chat or Responses; JSON, YAML or JSONL of requests).", multiple=True, required=True,
           fast=True),
    Option("tools", ("--tools",), "text", "Descriptor files or folders to add to every fixture's registry (JSONL "
           "logs get theirs this way). For transcripts they win over the transcript's own tools of the same name.",
           multiple=True, fast=True, metavar="PATHS"),
    Option("output_format", ("--format",), "choice", formats_help(ASSESS_FORMATS), choices=tuple(ASSESS_FORMATS), fast=True),
    Option("fail_on", ("--fail-on",), "text", "Outcomes that make the run exit 1 (e.g. effect_unknown,blocked); a "
           "severity (error, warning, info) sets which transcript findings do (default: the config's assess "
           "fail-on, else error).", multiple=True, fast=True, metavar="OUTCOMES"),
    Option("select", ("--select",), "text", "Transcripts: conversation rule ids or prefixes to run (e.g. TC801,TC81). "
           "Default: all (TC8xx).", multiple=True, fast=True, metavar="CODES"),
    Option("ignore", ("--ignore",), "text", "Transcripts: conversation rule ids or prefixes to skip.", multiple=True,
           fast=True),
    Option("exit_zero", ("--exit-zero",), "flag", "Exit 0 even when expectations are unmet, outcomes or findings reach "
           "--fail-on.", default=False, fast=True),
    Option("output", ("--output", "-o"), "text", "Write the report to FILE in --format, else the format its extension "
           "names (.sarif, .json, .xml for junit; otherwise json); the terminal gets the default format.",
           metavar="FILE", fast=True),
    Option("verbose", ("--verbose", "-v"), "flag", "Show each case's reasons and what the model is shown (the full "
           "evidence is in --format json).", default=False, fast=True),
    Option("context_file", ("--context",), "text", "Transcripts: a YAML/JSON file of context fields (now, "
           "environment, approvals, target, targets, untrusted_input, sensitive_data) for every call.",
           metavar="FILE"),
    Option("max_rounds", ("--max-rounds",), "count", "Transcripts: more tool rounds than this in one conversation "
           "is TC809 (default: the config's assess max-rounds, else 20).", minimum=1, metavar="N"),
    Option("engine", ("--engine",), "choice", "local (default): this process; dask: Parquet or JSON lines inputs "
           "(files, folders, globs, URIs) assessed on a Dask cluster, the envelopes written as Parquet parts to "
           "-o OUT/ (needs the scale extra: pip install 'toolcontract-cli[scale]').", choices=ENGINES,
           default="local"),
    Option("scheduler", ("--scheduler",), "text", "With --engine dask: the scheduler to use (tcp://HOST:PORT); "
           "default: a LocalCluster on this machine's cores.", metavar="ADDRESS"),
    CONFIG,
    NO_CONFIG,
))

COMMANDS = {command.name: command for command in (LINT, ASSESS)}


def plain_arguments(command: Command, argv: list[str]) -> Optional[dict]:
    """The keyword arguments of `command`'s run function when argv (without the command's name)
    holds at least one path and only the command's `fast` options, each with a value checked
    here; else None, and Typer parses argv. Options not given get their declared defaults."""
    if os.name == "nt" or "_TOOLCONTRACT_COMPLETE" in os.environ:
        return None  # click expands wildcards on Windows and serves shell completion: let it
    if os.environ.get("TOOLCONTRACT_FAST_CLI", "") == "0":
        return None  # the switch: every command line through Typer
    by_flag = {flag: option for option in command.options if option.fast for flag in option.flags}
    parsed = {option.keyword: option.default for option in command.options}
    paths: list[str] = []
    tokens = iter(argv)
    for token in tokens:
        if not token.startswith("-") or token == "-":
            paths.append(token)
            continue
        # `--name=value`; a short flag takes no `=` (click reads `-j=2` as `-j` with the value "=2")
        name, equals, value = token.partition("=") if token.startswith("--") else (token, "", "")
        option = by_flag.get(name)
        if option is None:
            return None
        if option.kind == "flag":
            if equals:
                return None  # `--exit-zero=yes`: Typer says what is wrong with it
            parsed[option.keyword] = True
            continue
        if not equals:
            value = next(tokens, None)
            if value is None or (value.startswith("-") and value != "-"):
                return None
        if option.kind == "count":
            if not (value.isascii() and value.isdigit()) or int(value) < (option.minimum or 0):
                return None
            parsed[option.keyword] = int(value)
        elif not value or (option.kind == "choice" and value not in option.choices):
            return None
        elif option.multiple:
            parsed[option.keyword] = [*(parsed[option.keyword] or ()), value]
        else:
            parsed[option.keyword] = value
    if not paths:
        return None
    parsed["paths"] = paths
    return parsed
