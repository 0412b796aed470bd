"""`toolcontract init`: a starter configuration, or a contract overlay skeleton for a provider tool list
(a file, or a live MCP server's list, saved first). What is written comes from toolcontract.app.init;
this module reads the list, writes the files and never replaces one (exit 2 with one line when a target
exists). Registered on the Typer app by importing it (the last lines of toolcontract.cli.commands)."""

from __future__ import annotations

import os
import sys
from typing import Optional

import typer

from toolcontract.cli import UsageFailure, write_whole
from toolcontract.cli.commands import app, click_errors, mcp_timeout_seconds
from toolcontract.report.common import line_start, printable


def write_new(path: str, text: str) -> None:
    """Create `path` with `text`; exit 2 when it exists (O_EXCL: not even a file made a moment ago is replaced)."""
    try:
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        raise UsageFailure(f"{path}:1:1: already exists; init never overwrites a file") from None
    except OSError as exc:
        raise UsageFailure(f"{path}:1:1: cannot write: {exc.strerror or exc}") from None
    with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
        stream.write(text)


def _said(path: str, what: str) -> None:
    sys.stdout.write(f"{line_start(printable(path))}: {what}\n")
    sys.stdout.flush()


@app.command("init")
def init_command(
    overlay: Optional[str] = typer.Option(None, "--overlay", metavar="LIST", help="Instead of a configuration: write the contract overlay skeleton of this provider tool list (MCP, OpenAI, Anthropic, Gemini), X.contract.yaml beside X.json: every tool, its effect where its annotations give one, TODO for purpose and non-goals."),
    mcp_stdio: Optional[str] = typer.Option(None, "--mcp-stdio", metavar="COMMAND", help="Instead of a configuration: start this MCP server over stdio, save the tools it lists in --list-file and write their overlay skeleton beside it (it never calls a tool)."),
    list_file: str = typer.Option("tools.json", "--list-file", metavar="PATH", help="With --mcp-stdio: where the server's tool list is saved (as `convert --mcp-stdio -o` saves it)."),
    timeout: Optional[float] = typer.Option(None, "--mcp-timeout", metavar="SECONDS", callback=mcp_timeout_seconds, help="Seconds the MCP server gets to start and list its tools (with --mcp-stdio; default 20)."),
    input_format: Optional[str] = typer.Option(None, "--input-format", metavar="FORMAT", help="Read LIST in this format instead of detecting it."),
) -> None:
    """Write a starter configuration ([tool.toolcontract] in pyproject.toml, else .toolcontract.yaml), or a
    contract overlay skeleton for a provider tool list. Never overwrites a file."""
    from toolcontract.app.init import overlay_skeleton, starter_config
    from toolcontract.io.document import DEFAULT_LIMITS, LoadError, load_bytes, load_text
    from toolcontract.io.reader import FORMATS

    if overlay is not None and mcp_stdio is not None:
        raise click_errors.UsageError("init takes one tool list: --overlay LIST or --mcp-stdio COMMAND")
    if (timeout is not None or list_file != "tools.json") and mcp_stdio is None:
        raise click_errors.UsageError("--mcp-timeout and --list-file go with --mcp-stdio")
    if input_format is not None and (overlay is None or input_format not in FORMATS):
        raise UsageFailure(f"toolcontract: --input-format goes with --overlay LIST, and is one of {', '.join(FORMATS)}")
    if overlay is None and mcp_stdio is None:
        path, text, appended = starter_config(".")
        if appended:
            with open(path, "rb") as handle:  # appended to the file as read: nothing else of it changes
                if not text.encode("utf-8").startswith(handle.read()):
                    raise UsageFailure(f"{path}:1:1: changed while init ran; run it again")
            write_whole(path, text)
            _said(path, "[tool.toolcontract] appended (every key, each with a comment)")
        else:
            write_new(path, text)
            _said(path, "written (every key, each with a comment)")
        return
    if overlay is not None:
        from toolcontract.io.overlay import default_overlays
        from toolcontract.io.inputs import read_inputs

        if os.path.isdir(overlay):
            raise UsageFailure(f"{overlay}:1:1: is a folder; name the tool list file")
        (name, content), = read_inputs([overlay], DEFAULT_LIMITS.max_bytes)
        target = default_overlays(name)[0]
        if os.path.lexists(target):  # said before the list is read: nothing to do either way
            raise UsageFailure(f"{target}:1:1: already exists; init never overwrites a file")
        try:
            if isinstance(content, LoadError):
                raise content
            document = load_bytes(content, name, DEFAULT_LIMITS)
        except LoadError as error:
            raise UsageFailure(f"{name}:{error.line}:{error.column}: {error.message}") from None
        path, text = overlay_skeleton(name, document, input_format)
        write_new(path, text)
        tools = text.count("\n    purpose: ")
        _said(path, f"written: {tools} tool{'s' * (tools != 1)} of {os.path.basename(name)}, TODO for purpose and "
                    "non-goals")
        return
    from toolcontract.io import mcp_live
    from toolcontract.io.overlay import default_overlays

    target = default_overlays(list_file)[0]
    for path in (list_file, target):
        if os.path.lexists(path):
            raise UsageFailure(f"{path}:1:1: already exists; init never overwrites a file")
    try:
        live = mcp_live.fetch_tools(mcp_stdio, mcp_live.DEFAULT_TIMEOUT if timeout is None else timeout)
    except mcp_live.McpFetchError as exc:
        raise UsageFailure(exc.line) from None
    try:
        document = load_text(live.json_text, list_file, DEFAULT_LIMITS)
    except LoadError as error:
        raise UsageFailure(f"{live.label}:{error.line}:{error.column}: {error.message}") from None
    path, text = overlay_skeleton(list_file, document, "mcp")
    write_new(list_file, live.json_text)
    try:
        write_new(path, text)
    except UsageFailure:
        os.unlink(list_file)  # both or neither
        raise
    _said(list_file, f"the tools of {live.label}, as `convert --mcp-stdio -o` saves them")
    _said(path, f"written: {len(live.tools)} tools, TODO for purpose and non-goals")
