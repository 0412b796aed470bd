"""`toolcontract server`: the language server over stdio (toolcontract.server.lsp; docs/editor.md). Registered on
the Typer app by importing it (the last lines of toolcontract.cli.commands). pygls comes with the `server`
extra and is imported only when this command runs."""

from __future__ import annotations

import typer

from toolcontract.cli import UsageFailure
from toolcontract.cli.commands import app


@app.command("server")
def server_command(
    debounce: int = typer.Option(150, "--debounce", metavar="MS", min=0, max=10_000, help="Milliseconds to wait after the last change before linting the edited text (0: lint on every change)."),
) -> None:
    """Run the language server over stdio: lint findings as diagnostics as you type, quick fixes, hover (docs/editor.md)."""
    try:
        import pygls  # noqa: F401
        import lsprotocol  # noqa: F401
    except ImportError:
        raise UsageFailure("toolcontract: `server` needs pygls: pip install 'toolcontract-cli[server]'") from None
    from toolcontract.server.lsp import serve

    serve(debounce / 1000)
