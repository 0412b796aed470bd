"""Real third-party data (../shared/corpus, read in place, never copied into the repo).

Provider-format readers come in a later issue; until then MCP and BFCL tools are
converted to native descriptors in memory and linted as JSON (and YAML) text.
Set TOOLCONTRACT_CORPUS to point at another copy of the corpus.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
import yaml

from conftest import (EXPECTED_RULES, TEXT_LINE, TEXT_MORE, TEXT_SUMMARY, TEXT_TALLY, UNSAFE_OUTPUT, corpus_dir, has_module,
                      render)
from toolcontract.lint.engine import LintResult, lint_files
from toolcontract.io.document import DEFAULT_LIMITS, load_bytes
from toolcontract.core.pointer import join_pointer, resolve_pointer

CORPUS = corpus_dir()
pytestmark = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"no corpus at {CORPUS} (set TOOLCONTRACT_CORPUS to a copy of shared/corpus)"
)


def _read(relative: str):
    path = CORPUS / relative
    if not path.is_file():
        pytest.skip(f"{relative} is not in the corpus at {CORPUS}")
    return json.loads(path.read_text("utf-8"))


# ------------------------------------------------------------ MCP -> native


def native(tool: dict) -> dict:
    """An MCP tool as a native descriptor: only the fields both formats share."""
    descriptor = {"name": tool.get("name"), "description": tool.get("description"), "input_schema": tool.get("inputSchema")}
    if isinstance(tool.get("annotations"), dict):
        descriptor["annotations"] = tool["annotations"]
    return {key: value for key, value in descriptor.items() if value is not None}


def livemcpbench_tools() -> list[dict]:
    data = _read("mcp/livemcpbench.tools.json")
    tools = []
    for server in data["servers"]:
        for entry in (server.get("tools") or {}).values():
            tools.extend(t for t in entry.get("tools") or () if isinstance(t, dict))
    return tools


def github_tools() -> list[dict]:
    return [entry["tool"] for entry in _read("mcp/github-mcp-server.tools.head.json")["tools"]]


SOURCES = {"livemcpbench": livemcpbench_tools, "github-mcp-server": github_tools}


@functools.cache
def _lint_source(source: str, fmt: str) -> tuple[list[dict], LintResult]:
    tools = [native(t) for t in SOURCES[source]()]
    data = {"toolcontract": 1, "tools": tools}
    if fmt == "json":
        text = json.dumps(data, ensure_ascii=False, indent=2)
    else:
        dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
        text = yaml.dump(data, Dumper=dumper, allow_unicode=False, sort_keys=False, width=1 << 20)
    return tools, lint_files([(f"{source}.{fmt}", text.encode("utf-8"))])


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_mcp_tools_lint_without_crashing(source):
    tools, result = _lint_source(source, "json")
    assert len(tools) > 50
    assert result.tools == len(tools)
    document = result.documents[f"{source}.json"]
    lines = document.text.count("\n") + 1
    for finding in result.findings:
        assert finding.rule in EXPECTED_RULES, finding
        assert 1 <= finding.line <= lines and finding.column >= 1, finding
        assert finding.message
        found, _ = resolve_pointer(document.data, finding.pointer)
        assert found, f"{finding.rule} pointer {finding.pointer!r} names nothing in the file"
    # real tools have no effect class or purpose: every one of them says so
    for rule in ("TC201", "TC301"):
        assert sum(f.rule == rule for f in result.findings) == len(tools)


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_mcp_names_with_dash_or_dot_get_tc101(source):
    tools, result = _lint_source(source, "json")
    flagged = {f.tool for f in result.findings if f.rule == "TC101"}
    unportable = {t["name"] for t in tools if isinstance(t.get("name"), str) and ("-" in t["name"] or "." in t["name"])}
    if source == "livemcpbench":
        assert unportable, "the corpus is known to hold names with '-'"
    assert unportable <= flagged
    portable = {t["name"] for t in tools if isinstance(t.get("name"), str) and t["name"].isidentifier() and t["name"].islower()
                and len(t["name"]) <= 64 and t["name"][0].isalpha() and t["name"].isascii()}
    assert not (portable & flagged)


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_mcp_findings_point_at_the_offending_text(source):
    tools, result = _lint_source(source, "json")
    document = result.documents[f"{source}.json"]
    for finding in result.findings:
        if finding.rule == "TC101":
            line = document.line_text(finding.line)
            assert line[finding.column - 1 :].startswith(json.dumps(finding.tool, ensure_ascii=False)), line


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_mcp_tools_as_yaml_give_the_same_findings(source):
    _, from_json = _lint_source(source, "json")
    _, from_yaml = _lint_source(source, "yaml")

    def key(result):
        return sorted((f.rule, f.pointer, f.tool) for f in result.findings)

    assert key(from_yaml) == key(from_json)


def assert_text_lines(lines: list[str], findings: int) -> None:
    """A text report: finding lines and counts of the rest (past 10 of a rule in a file) account for
    every finding; then the tally by rule (when there are findings) and the summary."""
    assert TEXT_SUMMARY.match(lines[-1]), lines[-1]
    if not findings:
        assert lines == lines[-1:]
        return
    assert TEXT_TALLY.match(lines[-2]), lines[-2]
    shown = sum(1 for line in lines[:-2] if TEXT_LINE.match(line))
    more = [TEXT_MORE.match(line) for line in lines[:-2] if not TEXT_LINE.match(line)]
    assert all(more), [line for line in lines[:-2] if not TEXT_LINE.match(line)][:3]
    assert shown + sum(int(m["count"]) for m in more) == findings


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_mcp_reports_render(source):
    _, result = _lint_source(source, "json")
    text = render(result, "text")
    assert not UNSAFE_OUTPUT.search(text)
    assert_text_lines(text.splitlines(), len(result.findings))
    json.loads(render(result, "json"))


def test_bfcl_functions_lint_without_crashing():
    functions = [entry["function"] for entry in _read("bfcl/functions_unique.json")[:800]]
    tools = [
        {key: value for key, value in {"name": f.get("name"), "description": f.get("description"),
                                        "input_schema": f.get("parameters")}.items() if value is not None}
        for f in functions
    ]
    result = lint_files([("bfcl.json", json.dumps({"toolcontract": 1, "tools": tools}).encode())])
    assert result.tools == len(tools)
    assert all(f.rule in EXPECTED_RULES and f.line >= 1 for f in result.findings)
    dotted = {t["name"] for t in tools if "." in t["name"]}
    assert dotted and dotted <= {f.tool for f in result.findings if f.rule == "TC101"}


# --------------------------------------------- every corpus JSON file, positions


def _json_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*.json") if p.stat().st_size < DEFAULT_LIMITS.max_bytes)


def _pointers(data, limit: int = 400) -> list[str]:
    """A deterministic spread of pointers: every node's, thinned to about `limit`, plus the deepest."""
    every: list[str] = []
    stack = [("", data)]
    while stack:
        pointer, node = stack.pop()
        every.append(pointer)
        if isinstance(node, dict):
            stack.extend((join_pointer(pointer, k), v) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((join_pointer(pointer, i), v) for i, v in reversed(list(enumerate(node))))
    step = max(1, len(every) // limit)
    chosen = every[::step]
    chosen.extend(sorted(every, key=lambda p: p.count("/"))[-20:])
    return chosen


def _offsets(text: str):
    """(line, column) -> character offset in `text`."""
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    return lambda position: starts[position[0] - 1] + position[1] - 1


@pytest.mark.parametrize("path", _json_files(), ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_json_loads_with_exact_positions(path):
    raw = path.read_bytes()
    document = load_bytes(raw, str(path))
    assert document.data == json.loads(raw)
    decoder = json.JSONDecoder()
    text = document.text
    offset = _offsets(text)
    for pointer in _pointers(document.data):
        found, value = resolve_pointer(document.data, pointer)
        assert found
        start = offset(document.locate(pointer, "value"))
        decoded, _ = decoder.raw_decode(text, start)
        assert decoded == value, f"{pointer}: position {document.locate(pointer, 'value')} holds {decoded!r:.80}"
        if pointer:
            _, parent = resolve_pointer(document.data, pointer[: pointer.rfind("/")])
            if isinstance(parent, dict):
                key_start = offset(document.locate(pointer, "key"))
                key, _ = decoder.raw_decode(text, key_start)
                assert join_pointer("", key) == pointer[pointer.rfind("/"):], pointer


def test_corpus_has_json_files():
    assert len(_json_files()) >= 10


# ------------------------------------------------------------------ poisoned


def poisoned_tools() -> list[dict]:
    """Every tool-shaped record of poisoned/, plus the loose description texts as tools."""
    tools: list[dict] = []
    for item in _read("poisoned/all_labeled.json")["items"]:
        if isinstance(item.get("tool"), dict):
            tools.append(item["tool"])
        elif isinstance(item.get("text"), str):
            tools.append({"name": "poisoned_text", "description": item["text"]})
    fixtures = _read("poisoned/tool-scan.conftest_fixtures.json")["fixtures"]
    tools.extend(f["tool"] for f in fixtures if isinstance(f.get("tool"), dict))
    return tools


def _hostile_variants(tools: list[dict]) -> list[dict]:
    """Natives, plus the payload moved into places that reach finding messages (names, property names)."""
    out = []
    for index, tool in enumerate(tools):
        descriptor = native(tool)
        out.append(descriptor)
        text = tool.get("description") if isinstance(tool.get("description"), str) else ""
        if text:
            out.append({"name": text[:80], "effect": text[:40], "version": text[:20],
                        "input_schema": {"type": "object", "properties": {text[:40]: {}}, "required": [text[:30]]},
                        f"{text[:30]}": 1})
        out.append({**descriptor, "name": f"tool_{index}"})
    return out


@functools.cache
def _poisoned_result() -> LintResult:
    data = {"toolcontract": 1, "tools": _hostile_variants(poisoned_tools())}
    files = [
        ("poisoned.json", json.dumps(data, ensure_ascii=False, indent=2).encode("utf-8")),
        ("poisoned.yaml", yaml.safe_dump(data, allow_unicode=True, sort_keys=False).encode("utf-8")),
    ]
    for path in sorted((CORPUS / "poisoned").glob("*.json")):
        files.append((f"poisoned/{path.name}", path.read_bytes()))
    return lint_files(files)


def test_poisoned_input_reaches_the_reporters():
    result = _poisoned_result()
    assert result.findings
    assert any("\u200b" in f.message or "\\u200b" in f.message or "\u200e" in f.message or "\\u200e" in f.message
               for f in result.findings), "the payload characters should reach some messages (escaped or not)"


def test_poisoned_text_output_has_no_raw_control_or_bidi_characters():
    text = render(_poisoned_result(), "text")
    bad = sorted({hex(ord(m.group())) for m in UNSAFE_OUTPUT.finditer(text)})
    assert not bad, f"raw characters in the text report: {bad}"
    lines = text.split("\n")
    assert lines[-1] == ""  # the final newline
    assert_text_lines(lines[:-1], len(_poisoned_result().findings))


@pytest.mark.skipif(not has_module("toolcontract.report.rich"), reason="toolcontract/report/rich.py not written yet")
def test_poisoned_rich_output_has_no_raw_control_or_bidi_characters():
    # the rich console costs about 1 ms a finding: a spread of 1,500 of them keeps this test fast
    full = _poisoned_result()
    step = max(1, len(full.findings) // 1500)
    out = render(LintResult(full.findings[::step], full.files, full.tools, full.documents), "rich")
    bad = sorted({hex(ord(m.group())) for m in UNSAFE_OUTPUT.finditer(out)})
    assert not bad, f"raw characters in the rich report: {bad}"


def test_poisoned_files_load():
    for path in sorted((CORPUS / "poisoned").glob("*.json")):
        document = load_bytes(path.read_bytes(), str(path))
        assert document.data is not None
