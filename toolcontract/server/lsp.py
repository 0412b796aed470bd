"""The protocol shell of `toolcontract server`: pygls over stdio (docs/editor.md). What is linted and how
is toolcontract.server.workspace's; this module turns the editor's messages into its calls and its answers
into messages. pygls (the `server` extra) is imported here only, when the command runs.

- textDocument/didOpen, didSave: lint now; didChange: lint when the typing pauses (`debounce` seconds after
  the last change), on the editor's text. Diagnostics are published for the changed file, and for every other
  file whose diagnostics the change altered (a duplicate name in another file, an overlay's provider list).
- didClose: the file is linted as it is on disk again; its own diagnostics are cleared (as ruff's server
  does), the others' published where that changed them.
- Saving a configuration file (`.toolcontract.yaml`, `pyproject.toml`) reads it again; a configuration that
  does not load is shown as an error message, and the defaults hold until it does.
- workspace/didChangeWatchedFiles (when the client sends it): the folder is walked again.
- textDocument/codeAction: the quick fixes (safe fixes, suppressions); textDocument/hover: rule texts.

A bug met while linting is logged (window/logMessage) and the server goes on.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from toolcontract import __version__

DEBOUNCE = 0.15  # seconds between the last change and the lint
CONFIG_FILES = (".toolcontract.yaml", ".toolcontract.yml", "pyproject.toml")


def build_server(debounce: float = DEBOUNCE):
    """The language server, its features registered (not started)."""
    from lsprotocol import types
    from pygls.lsp.server import LanguageServer
    from pygls.uris import from_fs_path, to_fs_path

    from toolcontract.core.model import Severity
    from toolcontract.report.rules_md import rule_url
    from toolcontract.server.workspace import Session

    server = LanguageServer("toolcontract", __version__)
    state: dict[str, Any] = {"session": None, "pending": {}, "shown": {}, "computed": {}}
    severities = {Severity.ERROR: types.DiagnosticSeverity.Error, Severity.WARNING: types.DiagnosticSeverity.Warning,
                  Severity.INFO: types.DiagnosticSeverity.Information}

    def session() -> Session:
        if state["session"] is None:  # a client that sent no root: the folders of the files it opens
            state["session"] = Session([], _encoding(server))
        return state["session"]

    def path_of(uri: str) -> str | None:
        if not uri.startswith("file:"):
            return None  # an untitled buffer, a diff view: no file lint could read
        path = to_fs_path(uri)
        return os.path.abspath(path) if path else None

    def position(at: tuple[int, int]):
        return types.Position(line=at[0], character=at[1])

    def lsp_range(start: tuple[int, int], end: tuple[int, int]):
        return types.Range(start=position(start), end=position(end))

    def lsp_diagnostic(d):
        return types.Diagnostic(
            range=lsp_range(d.start, d.end), message=d.message, severity=severities[d.severity], code=d.rule,
            code_description=types.CodeDescription(href=rule_url(d.rule, d.name)), source="toolcontract")

    def publish(path: str, diagnostics: list) -> None:
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=from_fs_path(path), diagnostics=[lsp_diagnostic(d) for d in diagnostics]))
        state["shown"][path] = tuple(d.shown() for d in diagnostics)

    def lint(workspace, trigger: str | None) -> None:
        """Lint the workspace and publish: the trigger's diagnostics, the open files' that changed, and those
        of any other file whose diagnostics this lint changed."""
        try:
            found = workspace.lint()
        except Exception as exc:  # noqa: BLE001 - a bug: said in the log, and the server keeps running
            server.window_log_message(types.LogMessageParams(
                type=types.MessageType.Error, message=f"toolcontract: lint failed: {type(exc).__name__}: {exc}"))
            return
        shown, computed = state["shown"], state["computed"]
        for path, diagnostics in found.items():
            now = tuple(d.shown() for d in diagnostics)
            before = computed.get(path)
            computed[path] = now
            if path == trigger or (path in workspace.open and shown.get(path) != now):
                publish(path, diagnostics)
            elif before is not None and before != now or path in shown and shown[path] != now:
                publish(path, diagnostics)  # another file this change affected
        gone = [p for p in shown if p not in found and (p == trigger or workspace.holds(p) and p not in workspace.open)]
        for path in gone:  # no longer linted (deleted, skipped, no longer a tool list)
            if shown[path]:
                publish(path, [])
            computed.pop(path, None)

    def tell_config(workspace) -> None:
        if workspace.config_error:
            server.window_show_message(types.ShowMessageParams(
                type=types.MessageType.Error,
                message=f"{workspace.config_error} (toolcontract lints with the defaults until it loads)"))

    def later(workspace, path: str) -> None:
        pending = state["pending"]
        task = pending.get(workspace.root)
        if task is not None:
            task.cancel()

        async def run() -> None:
            if debounce > 0:
                await asyncio.sleep(debounce)
            pending.pop(workspace.root, None)
            lint(workspace, path)

        pending[workspace.root] = asyncio.get_running_loop().create_task(run())

    def now(workspace, path: str | None) -> None:
        task = state["pending"].pop(workspace.root, None)
        if task is not None:
            task.cancel()
        lint(workspace, path)

    @server.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        roots = [to_fs_path(f.uri) for f in params.workspace_folders or () if f.uri.startswith("file:")]
        if not roots and params.root_uri and params.root_uri.startswith("file:"):
            roots = [to_fs_path(params.root_uri)]
        elif not roots and params.root_path:
            roots = [params.root_path]
        state["session"] = Session([r for r in roots if r], _encoding(server))
        for workspace in state["session"].all():
            tell_config(workspace)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(params: types.DidOpenTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if path is None:
            return
        workspace = session().workspace_for(path)
        workspace.open[path] = params.text_document.text
        if workspace.walk and path not in workspace.paths and os.path.exists(path):
            workspace.rewalk()  # created since the last walk?
        if workspace.linted(path):
            now(workspace, path)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(params: types.DidChangeTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if path is None:
            return
        workspace = session().workspace_for(path)
        workspace.open[path] = server.workspace.get_text_document(params.text_document.uri).source
        if workspace.linted(path):
            later(workspace, path)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    async def did_save(params: types.DidSaveTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if path is None:
            return
        if os.path.basename(path) in CONFIG_FILES:
            for workspace in session().all():
                workspace.reload()
                tell_config(workspace)
                now(workspace, None)
            return
        workspace = session().workspace_for(path)
        if workspace.walk and path not in workspace.paths:
            workspace.rewalk()
        if workspace.linted(path):
            now(workspace, path)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(params: types.DidCloseTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if path is None:
            return
        workspace = session().workspace_for(path)
        workspace.open.pop(path, None)
        now(workspace, None)
        if state["shown"].get(path):
            publish(path, [])
        # from now on published only when a change elsewhere alters its findings (as any file not open)
        state["shown"].pop(path, None)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def watched(params: types.DidChangeWatchedFilesParams) -> None:
        paths = [p for p in (path_of(change.uri) for change in params.changes) if p]
        configs = any(os.path.basename(p) in CONFIG_FILES for p in paths)
        for workspace in session().all():
            if configs:
                workspace.reload()
                tell_config(workspace)
            else:
                workspace.rewalk()
            now(workspace, None)

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    def code_action(params: types.CodeActionParams) -> list | None:
        only = params.context.only
        if only and not any(kind == types.CodeActionKind.QuickFix or str(kind).startswith("quickfix")
                            for kind in only):
            return None
        path = path_of(params.text_document.uri)
        if path is None:
            return None
        workspace = session().workspace_for(path)
        if path not in workspace.diagnostics:
            return None
        r = params.range
        out = []
        for action in workspace.actions(path, (r.start.line, r.start.character), (r.end.line, r.end.character)):
            changes = {from_fs_path(file): [types.TextEdit(range=lsp_range(start, end), new_text=text)
                                            for start, end, text in edits]
                       for file, edits in action.edits.items()}
            out.append(types.CodeAction(
                title=action.title, kind=types.CodeActionKind.QuickFix,
                diagnostics=[lsp_diagnostic(action.diagnostic)] if action.diagnostic is not None else None,
                edit=types.WorkspaceEdit(changes=changes), is_preferred=action.preferred or None))
        return out

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(params: types.HoverParams) -> types.Hover | None:
        path = path_of(params.text_document.uri)
        if path is None:
            return None
        workspace = session().workspace_for(path)
        if not workspace.linted(path):
            return None
        found = workspace.hover(path, params.position.line, params.position.character)
        if found is None:
            return None
        text, start, end = found
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
                           range=lsp_range(start, end))

    return server


def _encoding(server) -> str:
    """The position encoding pygls agreed with the client ("utf-16" unless the client offered another first)."""
    try:
        encoding = server.workspace.position_encoding
    except RuntimeError:  # no workspace yet (before initialize)
        return "utf-16"
    return str(getattr(encoding, "value", encoding) or "utf-16")


def serve(debounce: float = DEBOUNCE) -> None:
    """Run the server over stdin and stdout until the client ends it."""
    build_server(debounce).start_io()
