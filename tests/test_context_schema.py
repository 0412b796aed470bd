"""schemas/context.schema.json, the `assess --context FILE` format, agrees with the loader
(io/transcripts.py `load_context`): every context fixture validates, and on good and bad files the
schema and the real `toolcontract assess --context` accept and refuse the same ones."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from conftest import REPO, assert_one_line_error, run_cli
from toolcontract.io.document import load_text

SCHEMA = json.loads((REPO / "schemas" / "context.schema.json").read_text("utf-8"))
FIXTURE_SCHEMA = json.loads((REPO / "schemas" / "fixture.schema.json").read_text("utf-8"))
TRANSCRIPT = REPO / "fixtures" / "transcripts" / "good" / "anthropic_messages.yaml"


def _read(text: str) -> object:
    """As the tool reads YAML: the 1.2 core schema (`yes` stays a string)."""
    return load_text(text, "context.yaml").data


def _valid(data: object) -> bool:
    return jsonschema.Draft202012Validator(SCHEMA).is_valid(data)


def test_schema_is_2020_12_and_shares_the_fixture_schemas_context() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    for name in ("context", "approval", "id", "timestamp"):
        assert SCHEMA["$defs"][name] == FIXTURE_SCHEMA["$defs"][name], name


def _fixture_contexts() -> list[tuple[str, object]]:
    found = [("fixtures/transcript-support/context.yaml",
              _read((REPO / "fixtures" / "transcript-support" / "context.yaml").read_text()))]
    for path in sorted((REPO / "fixtures" / "invocations").glob("*.yaml")):
        for case in _read(path.read_text()).get("cases", []):
            if "context" in case:  # a fixture case's context is a --context file's content
                found.append((f"{path.relative_to(REPO)}#{case['id']}", case["context"]))
    return found


def test_every_context_fixture_validates() -> None:
    contexts = _fixture_contexts()
    assert len(contexts) > 10
    bad = [name for name, data in contexts if not _valid(data)]
    assert bad == []


GOOD = [
    "now: '2026-11-29T10:00:00Z'\nenvironment: {id: staging, allows: [read]}\n",
    "context: {now: '2026-11-29T10:00:00Z', approval: {ref: A1, tool: t, expires: '2026-12-01T00:00:00Z'}}\n"
    "targets: [{id: doc-1, exists: true, version: '7'}]\n",
    "{}\n",
    "context: {}\n",
    "environment: null\napproval: null\ntarget: null\nuntrusted_input: true\nsensitive_data: false\n",
    '{"approvals": [{"ref": 1, "fields": ["status"]}], "targets": []}\n',
]

BAD = [
    ("now: 5\n", "1:6: 5 is not of type \"string\""),
    ("environment: {allows: [write]}\n", "1:24:"),
    ("environment: {id: x, zone: eu}\n", "1:"),
    ("approvals: [{ref: A, when: today}]\n", "1:"),
    ("untrusted_input: yes\n", "1:18:"),
    ("targets: {id: 1}\n", "1:1: `targets` must be a list of target snapshots"),
    ("targets: [{id: 1, exists: maybe}]\n", "1:27: targets entry 1:"),
    ("targets: [7]\n", "1:11: targets entry 1: a target snapshot must be a mapping"),
    ("context: {now: x}\nextra: 1\n", "1:"),
    ("context: 5\n", "1:"),
    ("- now\n", "1:1: expected a mapping of context fields"),
    ("colour: blue\n", "1:"),
]


@pytest.mark.parametrize("text", GOOD)
def test_a_file_the_schema_accepts_the_loader_accepts(tmp_path: Path, text: str) -> None:
    assert _valid(_read(text))
    path = tmp_path / "context.yaml"
    path.write_text(text)
    done = run_cli("assess", TRANSCRIPT, "--context", path, "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["cases"]


@pytest.mark.parametrize(("text", "where"), BAD)
def test_a_file_the_schema_refuses_the_loader_refuses_with_a_position(tmp_path: Path, text: str, where: str) -> None:
    assert not _valid(_read(text))
    path = tmp_path / "context.yaml"
    path.write_text(text)
    done = run_cli("assess", TRANSCRIPT, "--context", path, "--format", "json")
    assert done.returncode == 2, done.stdout
    assert_one_line_error(done.stderr)
    assert done.stderr.startswith(f"{path}:{where}"), done.stderr
    assert done.stdout == ""
