"""The Typer app: every command, its flags and help. Shares `run_lint`, file
discovery and error handling with the light entry point in `toolcontract.cli`."""

from __future__ import annotations

import inspect
import os
import sys
from enum import Enum
from typing import Callable, List, Optional

import typer

try:  # typer >= 0.20 vendors click as typer._click; older releases use click itself
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - depends on the installed typer
    from click import exceptions as click_errors
from typer.core import TyperGroup

from toolcontract import __version__
from toolcontract.cli import options
from toolcontract.report import RULES_FORMATS
from toolcontract.cli import (
    _echo_err,
    write_whole,
    EXIT_USAGE,
    UsageFailure,
    default_format,
    exit_code,
    one_line,
    run_lint,
)
from toolcontract.io.inputs import read_inputs


class OneLineErrors(TyperGroup):
    """Click prints usage blocks for bad flags; we print one line and exit 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        for command in self.commands.values():
            for param in command.params:
                if param.param_type_name == "argument":
                    # the metavar says what the argument is; Typer would add its annotation, `<list[str]>`
                    param.display_type_rich = lambda ctx: None
                elif param.metavar is None and not param.is_flag:  # an option not built from the table
                    described = getattr(param, "type_descriptor", None)
                    choices = [getattr(c, "value", c) for c in described.choices or ()] \
                        if described is not None and described.is_choice else []
                    param.metavar = f"[{'|'.join(map(str, choices))}]" if choices else param.name.upper()
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
    except click_errors.NoArgsIsHelpError as exc:  # `toolcontract` alone: the help, on stdout
        sys.stdout.write(exc.format_message() + "\n")
        return EXIT_USAGE
    except click_errors.UsageError as exc:
        message = one_line(exc.format_message())
        if message:  # no_args_is_help raises with an empty message after printing the help
            _echo_err(f"toolcontract: {message}")
        return EXIT_USAGE
    except click_errors.ClickException as exc:
        _echo_err(f"toolcontract: {one_line(exc.format_message())}")
        return exc.exit_code
    except typer.Abort:
        raise KeyboardInterrupt from None


app = typer.Typer(
    cls=OneLineErrors,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # click's plain help: flags without a metavar, choices as [a|b|c], no <str>
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


def choice_enum(name: str, values) -> type[Enum]:
    """The Enum Typer offers as a choice of `values` (in their order)."""
    return Enum(name, {value.replace("-", "_"): value for value in values}, type=str)


Format = choice_enum("Format", RULES_FORMATS)
LintFormat = choice_enum("LintFormat", options.LINT["output_format"].choices)
AssessFormat = choice_enum("AssessFormat", options.ASSESS["output_format"].choices)
FailOn = choice_enum("FailOn", options.FAIL_ON)
McpRevision = choice_enum("McpRevision", options.MCP_REVISIONS)
Engine = choice_enum("Engine", options.ENGINES)


def typer_check(check: Callable):
    """A Typer callback of an option's check: its ValueError is Typer's bad parameter (exit 2)."""
    def callback(value):
        try:
            return check(value)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None

    return callback


mcp_timeout_seconds = typer_check(options.mcp_timeout)


def help_metavar(option: options.Option) -> str:
    """What --help shows after an option: nothing for a flag (it takes no value: `--exit-zero true`
    is a flag and a path), the choices as `[a|b|c]`, else the declared name (never Typer's `<str>`)."""
    if option.kind == "flag":
        return ""
    if option.kind == "choice":
        return f"[{'|'.join(option.choices)}]"
    return option.metavar or {"count": "N", "seconds": "SECONDS"}.get(option.kind, "TEXT")


def typer_option(option: options.Option):
    """The `typer.Option` of a declared option (the default of a command function's parameter)."""
    return typer.Option(option.default, *option.flags, help=option.help, metavar=help_metavar(option),
                        min=option.minimum, callback=typer_check(option.check) if option.check is not None else None)


def _typer_parameter(option: options.Option, enums: dict) -> inspect.Parameter:
    """One parameter of a command function, declared for Typer as the table declares it."""
    if option.kind == "paths":
        annotation = List[str] if option.required else Optional[List[str]]
        default = typer.Argument(... if option.required else None, help=option.help, metavar="PATHS")
    else:
        annotation = {"flag": bool, "count": int, "seconds": float,
                      "text": List[str] if option.multiple else str,
                      "choice": enums.get(option.choices)}[option.kind]
        if option.default is None:
            annotation = Optional[annotation]
        default = typer_option(option)
    return inspect.Parameter(option.keyword, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default,
                             annotation=annotation)


def table_command(command: options.Command, run: Callable[[], Callable[..., int]], doc: str) -> Callable:
    """Register `command` with Typer, its parameters built from the table; the function Typer
    calls passes them, choices as their values, to `run()` (looked up at call time)."""
    enums = {tuple(item.value for item in enum): enum for enum in (LintFormat, AssessFormat, FailOn, Format,
                                                                             McpRevision, Engine)}
    parameters = [_typer_parameter(option, enums) for option in command.options]

    def function(**values) -> None:
        raise typer.Exit(run()(**{name: value.value if isinstance(value, Enum) else value
                                  for name, value in values.items()}))

    function.__name__ = function.__qualname__ = command.name
    function.__doc__ = doc
    function.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    function.__annotations__ = {parameter.name: parameter.annotation for parameter in parameters}
    return app.command(command.name)(function)


def _run_assess():
    from toolcontract.cli.assess_run import run_assess

    return run_assess


lint = table_command(options.LINT, lambda: run_lint,
                     "Lint tool descriptors: report what makes a contract unclear, unportable or unsafe.")


@app.command()
def rules(
    rule_id: Optional[str] = typer.Argument(None, metavar="RULE", help="A rule id (TC403), a family (TC4, TC8) or a name (additional-properties-open)."),
    output_format: Optional[Format] = typer.Option(None, "--format", help=options.formats_help(RULES_FORMATS)),
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
    if chosen is not None:
        render_rule(chosen, sys.stdout, fmt)
        return
    family = [r for r in catalog.values() if r.id.startswith(rule_id.upper())] if rule_id.upper().startswith("TC") \
        else []
    if family:  # a prefix (TC8, TC40): the rules of that family, as the whole list is shown
        render_rules(family, sys.stdout, fmt)
        return
    from toolcontract.lint.engine import did_you_mean

    raise click_errors.UsageError(f"no rule {rule_id!r}{did_you_mean(rule_id) or ''} "
                                  "(`toolcontract rules` lists them)")


assess = table_command(options.ASSESS, _run_assess,
                       "Replay recorded tool calls through the admission gates and classify what the evidence proves.")


class ConvertTarget(str, Enum):
    mcp = "mcp"
    openai_chat = "openai-chat"
    openai_responses = "openai-responses"
    anthropic = "anthropic"
    gemini = "gemini"
    native = "native"


@app.command("convert")
def convert_command(
    path: Optional[str] = typer.Argument(None, metavar="IN", help="A tool file in any format lint reads ('-' reads stdin); a provider file's contract overlay (X.contract.yaml beside X.json) is merged in, as lint does."),
    to: ConvertTarget = typer.Option(ConvertTarget.mcp, "--to", help="The format to write."),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="OUT", help="Write here (replaced whole, never in part) instead of stdout. For --to native, a .yaml/.yml name gets YAML."),
    input_format: Optional[str] = typer.Option(None, "--input-format", help="Read IN in this format instead of detecting it."),
    mcp_revision: Optional[McpRevision] = typer.Option(None, "--mcp-revision", metavar=help_metavar(options.MCP_REVISION), help="Read an MCP IN as served under this revision, and write --to mcp in it (default: the revision IN says, else 2025-11-25)."),
    mcp_stdio: Optional[str] = typer.Option(None, "--mcp-stdio", metavar="COMMAND", help="Instead of IN: start this MCP server over stdio and convert the tools it lists (it never calls one)."),
    mcp_url: Optional[str] = typer.Option(None, "--mcp-url", metavar="URL", help="Instead of IN: connect to this MCP server over Streamable HTTP (https://, or http:// to a loopback address) and convert the tools it lists (it never calls one)."),
    header: Optional[List[str]] = typer_option(options.HEADER),
    allow_insecure: bool = typer_option(options.ALLOW_INSECURE),
    timeout: Optional[float] = typer.Option(None, "--mcp-timeout", metavar="SECONDS", callback=mcp_timeout_seconds, help="Seconds the MCP server gets to start and list its tools (with --mcp-stdio or --mcp-url; default 20)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Do not list what the target cannot hold."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="List what the target cannot hold field by field, each with why."),
) -> None:
    """Write tools in another format (MCP, OpenAI Chat or Responses, Anthropic, Gemini, toolcontract).

    Whatever the target cannot express is a warning on stderr, one line per tool naming the fields
    (field by field with -v, none with -q), never part of the output.
    """
    from toolcontract.convert import LABELS, convert, render, unread_fields
    from toolcontract.report.common import line_start, printable

    if [path, mcp_stdio, mcp_url].count(None) != 2:
        raise click_errors.UsageError("convert takes one input: a file IN, --mcp-stdio COMMAND or --mcp-url URL")
    if timeout is not None and mcp_stdio is None and mcp_url is None:
        raise click_errors.UsageError("--mcp-timeout goes with --mcp-stdio or --mcp-url")
    if (header or allow_insecure) and mcp_url is None:
        raise click_errors.UsageError("--header and --allow-insecure go with --mcp-url")
    label, document, overlay = _convert_input(path, mcp_stdio, timeout, mcp_url, list(header or ()), allow_insecure)
    revision = mcp_revision.value if mcp_revision is not None else None
    live = mcp_stdio is not None or mcp_url is not None
    if live and input_format is None:  # a server's tools/list answer is MCP, even when empty
        input_format = "mcp"
    if live and to is ConvertTarget.mcp and revision is None:
        # the server's own tools/list answer is MCP already: saved as fetched, every field kept
        text, notes, warnings = document.text, [], []
    else:
        views, notes = _convert_read(label, document, overlay, input_format, revision)
        # an effect derived from MCP hints is written as an effect class in our format; other targets
        # keep the hints it came from as they are (deriving hints back from it would invent some)
        result = convert([view.data if to is ConvertTarget.native or view.effect_origin is None
                          else {k: v for k, v in view.data.items() if k != "effect"} for view in views], to.value,
                         mcp_revision=revision or _written_revision(views))
        warnings = [w for index, view in enumerate(views) for w in unread_fields(view, index)] + result.warnings
        as_yaml = to is ConvertTarget.native and output is not None and output.lower().endswith((".yaml", ".yml"))
        try:
            text = render(result.document, as_yaml=as_yaml)
        except ValueError as exc:
            raise UsageFailure(f"{label}:1:1: cannot write {'YAML' if as_yaml else 'JSON'}: {exc}") from None
    if output is None or output == "-":
        stream = getattr(sys.stdout, "buffer", None)
        if stream is not None:  # UTF-8 whatever the locale says
            sys.stdout.flush()
            stream.write(text.encode("utf-8"))
            stream.flush()
        else:
            sys.stdout.write(text)
            sys.stdout.flush()
    else:
        _write_whole(output, text)
    shown = line_start(printable(label))
    for note in notes:
        sys.stderr.write(line_start(printable(note)) + "\n")
    if verbose:
        for warning in warnings:
            sys.stderr.write(f"{shown}: warning: tool {printable(warning.tool)}: field {printable(warning.field)}: "
                             f"{printable(warning.message)}\n")
    elif not quiet:
        for tool, fields in _fields_by_tool(warnings).items():
            sys.stderr.write(f"{shown}: warning: tool {printable(tool)}: {LABELS.get(to.value, to.value)} cannot hold "
                             f"{len(fields)} field{'s' * (len(fields) != 1)} as given: "
                             f"{', '.join(map(printable, fields))} (-v says why, field by field)\n")
    sys.stderr.flush()


def _fields_by_tool(warnings) -> dict[str, list[str]]:
    """The fields each tool's warnings name, in the order they came, once each."""
    found: dict[str, dict[str, None]] = {}
    for warning in warnings:
        found.setdefault(warning.tool, {})[warning.field] = None
    return {tool: list(fields) for tool, fields in found.items()}


def _convert_input(path: Optional[str], mcp_stdio: Optional[str], timeout: Optional[float],
                   mcp_url: Optional[str] = None, header: Optional[List[str]] = None, allow_insecure: bool = False):
    """(label, Document, overlay Document or None) of the one input; exit 2 when either cannot be read."""
    from toolcontract.io.document import DEFAULT_LIMITS, LoadError, load_bytes, load_text

    if mcp_stdio is not None or mcp_url is not None:
        from toolcontract.io import mcp_live

        seconds = mcp_live.DEFAULT_TIMEOUT if timeout is None else timeout
        try:
            if mcp_url is not None:
                from toolcontract.app.lint import http_options
                from toolcontract.io.mcp_http import fetch_tools_http

                headers = http_options([mcp_url], header, allow_insecure)
                live = fetch_tools_http(mcp_url, headers, seconds, allow_insecure)
            else:
                live = mcp_live.fetch_tools(mcp_stdio, seconds)
            label, text = live.label, live.json_text
        except mcp_live.McpFetchError as exc:
            raise UsageFailure(exc.line) from None
        try:
            return label, load_text(text, label + ".json", DEFAULT_LIMITS), None
        except LoadError as error:
            raise UsageFailure(f"{label}:{error.line}:{error.column}: {error.message}") from None
    assert path is not None
    if path != "-" and os.path.isdir(path):
        raise UsageFailure(f"{path}:1:1: is a folder; convert takes one file")
    from toolcontract.io.overlay import pair_overlays

    # X.contract.yaml beside X.json is merged into it; an overlay given as IN converts its provider file
    files, overlays = pair_overlays(list(read_inputs([path], DEFAULT_LIMITS.max_bytes)), DEFAULT_LIMITS)
    (name, content), = files

    def load(name: str, content) -> object:
        try:
            if isinstance(content, LoadError):
                raise content
            return load_bytes(content, name, DEFAULT_LIMITS)
        except LoadError as error:
            raise UsageFailure(f"{name}:{error.line}:{error.column}: {error.message}") from None

    overlay = load(*overlays[name]) if name in overlays else None
    return name, load(name, content), overlay


def _written_revision(views) -> Optional[str]:
    """The MCP revision `--to mcp` writes without --mcp-revision: the one an MCP input was read in
    (so MCP to MCP keeps its revision), else None (convert's default, 2025-11-25)."""
    revisions = {view.mcp_revision for view in views if view.mcp_revision is not None}
    return revisions.pop() if len(revisions) == 1 else None


def _convert_read(label: str, document, overlay, input_format: Optional[str], mcp_revision: Optional[str] = None):
    """The tools read (ToolViews), and `path:line:col: warning: ...` notes for what reading
    left out or found amiss. Exit 2 when no reader can place the document."""
    from toolcontract.convert import LABELS
    from toolcontract.core.pointer import join_pointer
    from toolcontract.io.reader import FORMATS, read_tools

    if input_format is not None and input_format not in FORMATS:
        raise UsageFailure(f"toolcontract: unknown --input-format {input_format!r} (expected any of {', '.join(FORMATS)})")
    read = read_tools(document, input_format, overlay, mcp_revision=mcp_revision)

    def at(doc, pointer: str) -> str:
        line, column = doc.locate(pointer)
        return f"{doc.path}:{line}:{column}"

    if read.format is None or read.format == "overlay":
        if read.problems:
            doc, pointer, message = read.problems[0]
            raise UsageFailure(f"{at(doc, pointer)}: {message}")
        raise UsageFailure(f"{label}:1:1: no reader recognizes this file")
    if read.format == "a2a-card":  # skills are delegated to by message, not called with arguments
        raise UsageFailure(f"{label}:1:1: an A2A Agent Card lists skills, not tool definitions: there is nothing to "
                           "convert (lint, diff and lock read cards)")
    data = document.data
    if read.format == "native":  # what the native reader passes over without a word (lint: TC002)
        if not isinstance(data, dict):
            found = "an empty file" if data is None else f"a {type(data).__name__}"
            raise UsageFailure(f"{label}:1:1: expected a descriptor or `tools: [...]`, found {found}")
        if "tools" in data and not isinstance(data["tools"], list):
            raise UsageFailure(f"{at(document, '/tools')}: `tools` must be a list of descriptors")
    notes = [f"{at(doc, pointer)}: warning: {message}" for doc, pointer, message in read.problems]
    # entries of a tool list that became no tool and no problem: built-in tools, native non-mappings
    # the entries (pointers of tool-list members) that became a tool or hold a problem: a set of every
    # prefix, so each entry is looked up once (linear in the tools, however many there are)
    covered: set[str] = set()
    for pointer in [view.pointer for view in read.tools] + [p for doc, p, _ in read.problems if doc is document]:
        tokens = pointer.split("/")
        covered.update("/".join(tokens[:end]) for end in range(1, len(tokens) + 1))
    lists = [("", data)] if isinstance(data, list) else []
    if isinstance(data, dict):
        lists += [(join_pointer("", key), data[key]) for key in ("tools", "functionDeclarations", "function_declarations")
                  if isinstance(data.get(key), list)]
        if isinstance(data.get("result"), dict) and isinstance(data["result"].get("tools"), list):
            lists.append(("/result/tools", data["result"]["tools"]))
    for base, entries in lists:
        for index in range(len(entries)):
            pointer = join_pointer(base, index)
            if pointer not in covered:
                what = "a descriptor" if read.format == "native" else f"{LABELS[read.format]} function tool (built in?)"
                notes.append(f"{at(document, pointer)}: warning: entry {index + 1} of the tool list is not {what}; "
                             "not converted")
    for doc in (document, overlay):
        for dup in (doc.duplicates if doc is not None else ()):
            notes.append(f"{doc.path}:{dup.line}:{dup.column}: warning: key {dup.key!r} repeats the one at line "
                         f"{dup.first_line}, column {dup.first_column}; only the last value is converted")
    return read.tools, notes


_write_whole = write_whole  # shared with `lint -o` (toolcontract.cli)


from toolcontract.cli import gate  # noqa: E402,F401  (registers diff and lock)
from toolcontract.cli import init  # noqa: E402,F401  (registers init)
from toolcontract.cli import server  # noqa: E402,F401  (registers server)
