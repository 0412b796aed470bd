"""`toolcontract server` end to end: pytest-lsp's LSP client starts the real server over stdio in a copy of
fixtures/demo (plus a few files made here), opens and edits files, and checks what comes back: diagnostics
(code, range, severity, link), quick fixes (applied, then linted), suppressions, hover, cross-file updates,
TC000 on broken text and the recovery. One server for the module (module-scoped client and event loop)."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

REPO = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.asyncio(loop_scope="module")
WAIT = 30  # seconds: a bound on a wait, not a measure (a loaded machine is slow)

TICKET = """\
toolcontract: 1
name: ticket_create
version: v1.2
purpose: Open a support ticket for the signed-in customer.
when_to_use: The customer reports a problem the assistant cannot solve.
non_goals: [Does not assign the ticket to an agent.]
effect: reversible_write
target: {id: /subject, version: /expected_revision}
observation: The new ticket is listed by ticket_list with the subject given.
input_schema:
  type: object
  properties:
    subject: {type: string, description: One line that says what is wrong.}
    expected_revision: {type: integer, description: The revision of the ticket list the customer saw.}
  required: [subject, expected_revision]
  additionalProperties: false
"""
# two findings on one line (TC403, TC404)
FLOW = """\
toolcontract: 1
name: note_search
version: 1.0.0
purpose: Find the notes whose text holds the words given.
when_to_use: The user asks for a note they wrote before.
non_goals: [Does not search other users' notes.]
effect: read
input_schema: {type: object, properties: {query: {type: string}}}
"""
# a non-ASCII line before the finding's column: the range is in UTF-16 code units
UNICODE = """\
toolcontract: 1
name: cafe_lookup
version: 1.0.0
purpose: Look up a café by name.
when_to_use: The user names a café and wants its address.
non_goals: [Does not book a table.]
effect: read
input_schema: {description: "☕ 😀 ünïcode", type: object, properties: {name: {type: string}}, additionalProperties: false}
"""


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("editor")
    shutil.copytree(REPO / "fixtures" / "demo", root, dirs_exist_ok=True)
    (root / "ticket_create.yaml").write_text(TICKET, encoding="utf-8")
    (root / "note_search.yaml").write_text(FLOW, encoding="utf-8")
    (root / "cafe_lookup.yaml").write_text(UNICODE, encoding="utf-8")
    (root / "package.json").write_text('{"name": "not-a-tool", "version": "1.0.0"}\n', encoding="utf-8")
    return root


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "toolcontract", "server", "--debounce", "20"]))
async def client(lsp_client: LanguageClient, workspace: Path):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=workspace.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name="editor")]))
    yield
    await lsp_client.shutdown_session()


def cli_findings(*paths: Path, cwd: Path) -> list[dict]:
    """What `toolcontract lint --format json` finds in these files (run in `cwd`, as a user would)."""
    run = subprocess.run([sys.executable, "-m", "toolcontract", "lint", "--format", "json", "--exit-zero",
                          *map(str, paths)], capture_output=True, text=True, cwd=cwd, check=True)
    return json.loads(run.stdout)["findings"]


async def published(client: LanguageClient, uri: str, test=lambda diagnostics: True) -> list[types.Diagnostic]:
    """The diagnostics of `uri` once a publication for it passes `test` (the latest one is checked first)."""
    async def wait():
        while True:
            if uri in client.diagnostics and test(client.diagnostics[uri]):
                return client.diagnostics[uri]
            await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return await asyncio.wait_for(wait(), WAIT)


def codes(diagnostics) -> list[str]:
    return sorted(d.code for d in diagnostics)


versions: dict[str, int] = {}


def open_file(client: LanguageClient, path: Path, text: str | None = None) -> str:
    uri = path.as_uri()
    client.diagnostics.pop(uri, None)
    versions[uri] = 1
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="json" if path.suffix == ".json" else "yaml", version=1,
        text=path.read_text(encoding="utf-8") if text is None else text)))
    return uri


def change(client: LanguageClient, uri: str, text: str) -> None:
    """A whole-text change (the server gets what the editor holds; nothing is written to disk)."""
    client.diagnostics.pop(uri, None)
    versions[uri] += 1
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=versions[uri]),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


def close(client: LanguageClient, uri: str) -> None:
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))


def apply(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP text edits (UTF-16 positions) to `text`, last first."""
    lines = text.splitlines(keepends=True) + [""]

    def offset(position: types.Position) -> int:
        line = lines[position.line]
        units = 0
        for index, char in enumerate(line):
            if units >= position.character:
                return sum(map(len, lines[:position.line])) + index
            units += len(char.encode("utf-16-le")) // 2
        return sum(map(len, lines[:position.line])) + len(line)

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[:offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


async def test_open_publishes_the_findings_of_lint_with_ranges_severity_and_links(client, workspace):
    uri = open_file(client, workspace / "shipment_track.yaml")
    diagnostics = await published(client, uri)
    assert [(d.code, d.severity, d.source) for d in diagnostics] == [
        ("TC403", types.DiagnosticSeverity.Warning, "toolcontract")]
    (found,) = cli_findings(workspace / "shipment_track.yaml", cwd=workspace)
    d = diagnostics[0]
    assert (d.range.start.line, d.range.start.character) == (found["line"] - 1, found["column"] - 1) == (9, 2)
    assert (d.range.end.line, d.range.end.character) == (9, 6)  # the key `type`
    assert d.message == found["message"]
    assert d.code_description.href.endswith("docs/rules.md#tc403-additional-properties-open")
    close(client, uri)


async def test_errors_of_a_json_provider_list_and_its_ranges(client, workspace):
    uri = open_file(client, workspace / "notes-server.json")
    diagnostics = await published(client, uri)
    assert codes(diagnostics) == ["TC401", "TC402", "TC418"]
    tc401 = next(d for d in diagnostics if d.code == "TC401")
    assert tc401.severity == types.DiagnosticSeverity.Error
    line = (workspace / "notes-server.json").read_text().splitlines()[tc401.range.start.line]
    assert line[tc401.range.start.character:tc401.range.end.character] == '"int"'
    close(client, uri)


async def test_ranges_count_utf16_code_units_on_non_ascii_lines(client, workspace):
    path = workspace / "cafe_lookup.yaml"
    uri = open_file(client, path)
    (d,) = await published(client, uri, lambda ds: codes(ds) == ["TC404"])
    (found,) = cli_findings(path, cwd=workspace)
    line = path.read_text(encoding="utf-8").splitlines()[found["line"] - 1]
    before = line[:found["column"] - 1]
    assert "😀" in before  # one code point, two UTF-16 units
    assert d.range.start.line == found["line"] - 1
    assert d.range.start.character == len(before.encode("utf-16-le")) // 2 == len(before) + 1
    assert line[found["column"] - 1:].startswith("{type: string}")  # the property's schema: a bracket, one unit
    assert (d.range.end.line, d.range.end.character) == (d.range.start.line, d.range.start.character + 1)
    close(client, uri)


async def test_change_lints_the_editor_text_not_the_disk(client, workspace):
    path = workspace / "shipment_track.yaml"
    uri = open_file(client, path)
    await published(client, uri, lambda ds: codes(ds) == ["TC403"])
    text = path.read_text(encoding="utf-8")
    closed = text.replace("  required: [tracking_number, carrier]\n",
                          "  required: [tracking_number, carrier]\n  additionalProperties: false\n")
    change(client, uri, closed)
    assert list(await published(client, uri)) == []
    assert path.read_text(encoding="utf-8") == text  # nothing written
    change(client, uri, text.replace(", description: Carrier tracking number from the shipping email.", ""))
    diagnostics = await published(client, uri, lambda ds: "TC404" in codes(ds))
    assert codes(diagnostics) == ["TC403", "TC404"]
    close(client, uri)


async def test_broken_text_is_one_tc000_and_the_server_recovers(client, workspace):
    path = workspace / "ticket_create.yaml"
    uri = open_file(client, path)
    await published(client, uri, lambda ds: "TC103" in codes(ds))
    text = path.read_text(encoding="utf-8")
    change(client, uri, text.replace("effect: reversible_write", "effect: [reversible_write"))
    diagnostics = await published(client, uri, lambda ds: "TC000" in codes(ds))
    assert codes(diagnostics) == ["TC000"]
    assert diagnostics[0].severity == types.DiagnosticSeverity.Error
    assert diagnostics[0].range.end != diagnostics[0].range.start  # a span the editor can underline
    change(client, uri, text)
    assert codes(await published(client, uri, lambda ds: "TC000" not in codes(ds))) == ["TC103"]
    close(client, uri)


async def test_files_that_are_no_descriptor_get_no_diagnostics(client, workspace):
    uri = open_file(client, workspace / "package.json")
    notes = open_file(client, workspace / "notes.txt", "name: x\nthis is: [not yaml\n")
    other = open_file(client, workspace / "shipment_track.yaml")  # a publication after both were opened
    await published(client, other)
    assert not client.diagnostics.get(uri)
    assert notes not in client.diagnostics
    for u in (uri, notes, other):
        close(client, u)


async def code_actions(client: LanguageClient, uri: str, diagnostic: types.Diagnostic) -> list[types.CodeAction]:
    return await asyncio.wait_for(client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=diagnostic.range,
        context=types.CodeActionContext(diagnostics=[diagnostic]))), WAIT)


async def test_a_safe_fix_is_a_quick_fix_whose_edit_lints_clean_of_its_rule(client, workspace, tmp_path):
    path = workspace / "ticket_create.yaml"
    uri = open_file(client, path)
    diagnostics = await published(client, uri, lambda ds: "TC103" in codes(ds))
    tc103 = next(d for d in diagnostics if d.code == "TC103")
    actions = await code_actions(client, uri, tc103)
    fix = next(a for a in actions if a.title.startswith("TC103"))
    assert fix.kind == types.CodeActionKind.QuickFix and fix.is_preferred
    fixed = apply(path.read_text(encoding="utf-8"), fix.edit.changes[uri])
    assert "version: 1.2.0\n" in fixed and fixed.replace("version: 1.2.0", "version: v1.2") == TICKET
    copy = tmp_path / "ticket_create.yaml"
    copy.write_text(fixed, encoding="utf-8")
    assert [f for f in cli_findings(copy, cwd=tmp_path) if f["rule"] == "TC103"] == []
    # what `lint --fix` writes is the same text
    subprocess.run([sys.executable, "-m", "toolcontract", "lint", "--fix", "--exit-zero", str(path)],
                   cwd=tmp_path, capture_output=True, check=True)
    try:
        assert path.read_text(encoding="utf-8") == fixed
    finally:
        path.write_text(TICKET, encoding="utf-8")
    # the edited text, given to the server: the finding is gone
    change(client, uri, fixed)
    assert "TC103" not in codes(await published(client, uri, lambda ds: "TC103" not in codes(ds)))
    close(client, uri)


async def test_suppress_on_this_line_inserts_a_real_comment(client, workspace, tmp_path):
    path = workspace / "shipment_track.yaml"
    uri = open_file(client, path)
    (tc403,) = await published(client, uri, lambda ds: codes(ds) == ["TC403"])
    actions = await code_actions(client, uri, tc403)
    assert [a.title for a in actions] == ["Suppress TC403 on this line"]  # its fix is unsafe: not offered
    text = path.read_text(encoding="utf-8")
    suppressed = apply(text, actions[0].edit.changes[uri])
    lines = suppressed.splitlines()
    assert lines[tc403.range.start.line] == "  # toolcontract: ignore[TC403]"
    assert lines[tc403.range.start.line + 1] == "  type: object"
    copy = tmp_path / "shipment_track.yaml"
    copy.write_text(suppressed, encoding="utf-8")
    assert cli_findings(copy, cwd=tmp_path) == []  # suppressed, and the comment is used (no TC009)
    change(client, uri, suppressed)
    assert list(await published(client, uri)) == []
    close(client, uri)


async def test_a_second_suppression_for_a_line_joins_the_comment_above_it(client, workspace, tmp_path):
    path = workspace / "note_search.yaml"
    uri = open_file(client, path)
    diagnostics = await published(client, uri, lambda ds: codes(ds) == ["TC403", "TC404"])
    tc403 = next(d for d in diagnostics if d.code == "TC403")
    (action,) = [a for a in await code_actions(client, uri, tc403) if a.title == "Suppress TC403 on this line"]
    once = apply(FLOW, action.edit.changes[uri])
    change(client, uri, once)
    (tc404,) = await published(client, uri, lambda ds: codes(ds) == ["TC404"])
    assert tc404.range.start.line == tc403.range.start.line + 1
    (action,) = [a for a in await code_actions(client, uri, tc404) if a.title.startswith("Suppress")]
    both = apply(once, action.edit.changes[uri])
    assert both.splitlines()[tc403.range.start.line] == "# toolcontract: ignore[TC403, TC404]"
    copy = tmp_path / "note_search.yaml"
    copy.write_text(both, encoding="utf-8")
    assert cli_findings(copy, cwd=tmp_path) == []
    close(client, uri)


async def test_no_suppression_is_offered_in_json(client, workspace):
    uri = open_file(client, workspace / "notes-server.json")
    diagnostics = await published(client, uri, lambda ds: "TC402" in codes(ds))
    tc402 = next(d for d in diagnostics if d.code == "TC402")
    assert list(await code_actions(client, uri, tc402)) == []
    close(client, uri)


async def hover(client: LanguageClient, uri: str, line: int, character: int) -> types.Hover | None:
    return await asyncio.wait_for(client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=line, character=character))), WAIT)


async def test_hover_on_a_suppression_code_and_on_a_finding(client, workspace):
    from toolcontract.lint.engine import all_rules

    rules = all_rules(files_only=True)
    path = workspace / "shipment_track.yaml"
    text = path.read_text(encoding="utf-8").replace(
        "effect: read\n", "effect: read  # toolcontract: ignore[TC303, TC4O3]\n")
    uri = open_file(client, path, text)
    diagnostics = await published(client, uri, lambda ds: "TC403" in codes(ds))
    line = text.splitlines().index("effect: read  # toolcontract: ignore[TC303, TC4O3]")
    column = text.splitlines()[line].index("TC303") + 2
    shown = await hover(client, uri, line, column)
    assert rules["TC303"].summary in shown.contents.value
    assert (shown.range.start.character, shown.range.end.character) == (column - 2, column + 3)
    typo = await hover(client, uri, line, text.splitlines()[line].index("TC4O3") + 1)
    assert "names no rule" in typo.contents.value and "TC403" in typo.contents.value
    tc403 = next(d for d in diagnostics if d.code == "TC403")
    on_finding = await hover(client, uri, tc403.range.start.line, tc403.range.start.character + 1)
    assert rules["TC403"].rationale in on_finding.contents.value
    assert await hover(client, uri, 0, 0) is None  # a comment with no finding and no suppression
    close(client, uri)


async def test_a_duplicate_name_in_one_file_republishes_the_other(client, workspace):
    other = (workspace / "shipment_track.yaml").as_uri()
    path = workspace / "ticket_create.yaml"
    uri = open_file(client, path)
    await published(client, uri, lambda ds: "TC103" in codes(ds))
    client.diagnostics.pop(other, None)
    change(client, uri, TICKET.replace("name: ticket_create", "name: shipment_track"))
    mine = await published(client, uri, lambda ds: "TC104" in codes(ds))
    theirs = await published(client, other, lambda ds: "TC104" in codes(ds))  # not open: published all the same
    assert "TC104" in codes(mine) and codes(theirs) == ["TC104", "TC403"]
    change(client, uri, TICKET)
    assert codes(await published(client, other, lambda ds: "TC104" not in codes(ds))) == ["TC403"]
    close(client, uri)


async def test_editing_a_provider_list_updates_its_overlay(client, workspace):
    provider = workspace / "notes-server.json"
    overlay = (workspace / "notes-server.contract.yaml").as_uri()
    uri = open_file(client, provider)
    await published(client, uri, lambda ds: "TC401" in codes(ds))
    change(client, uri, provider.read_text(encoding="utf-8").replace('"search_notes"', '"find_notes"'))
    (entry,) = await published(client, overlay, lambda ds: "TC002" in codes(ds))
    assert "overlay entry 'search_notes' names no tool in notes-server.json" in entry.message
    assert entry.range.start.line == 6
    change(client, uri, provider.read_text(encoding="utf-8"))
    assert list(await published(client, overlay, lambda ds: not ds)) == []
    close(client, uri)


async def test_a_fixture_gets_no_descriptor_findings_and_the_descriptors_it_names_are_linted(
        client, workspace, tmp_path):
    outside = tmp_path / "elsewhere" / "shipment_copy.yaml"  # outside the workspace folder: not in its walk
    outside.parent.mkdir()
    outside.write_text((workspace / "shipment_track.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    fixture = workspace / "cases.yaml"
    fixture.write_text(f"""toolcontract: 1
tools:
  - ticket_create.yaml
  - {outside}
cases:
  - id: open-a-ticket
    candidate: {{id: call_1, name: ticket_create, arguments: {{subject: The app crashes, expected_revision: 3}}}}
    expect: {{outcome: allowed}}
""", encoding="utf-8")
    assert {f["rule"] for f in cli_findings(fixture, cwd=workspace)} == {"TC002"}  # lint reads it as a descriptor
    other = (workspace / "shipment_track.yaml").as_uri()
    client.diagnostics.pop(other, None)
    uri = open_file(client, fixture)
    # the copy outside names shipment_track too: the one in the folder now has a duplicate
    assert codes(await published(client, other, lambda ds: "TC104" in codes(ds))) == ["TC104", "TC403"]
    assert not client.diagnostics.get(uri)  # nothing about the fixture itself
    close(client, uri)
    fixture.unlink()
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=fixture.as_uri(), type=types.FileChangeType.Deleted)]))
    assert codes(await published(client, other, lambda ds: "TC104" not in codes(ds))) == ["TC403"]


async def test_bad_configuration_is_said_and_the_server_keeps_linting(client, workspace):
    config = workspace / ".toolcontract.yaml"
    config.write_text("select: [TC4]\n", encoding="utf-8")
    uri = open_file(client, config)
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    shipment = open_file(client, workspace / "ticket_create.yaml", TICKET.replace("additionalProperties: false\n", ""))
    # the configuration selects TC4 only: TC103 is gone, TC403 stays
    assert codes(await published(client, shipment, lambda ds: "TC403" in codes(ds))) == ["TC403"]
    config.write_text("select: [TC4O3]\n", encoding="utf-8")
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    message = await asyncio.wait_for(client.wait_for_notification(types.WINDOW_SHOW_MESSAGE), WAIT)
    assert "TC4O3" in message.message and message.type == types.MessageType.Error
    assert "TC103" in codes(await published(client, shipment, lambda ds: "TC103" in codes(ds)))  # the defaults
    config.unlink()
    close(client, uri)
    close(client, shipment)
