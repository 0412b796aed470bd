"""Property tests: no input, however malformed, makes lint raise or the CLI leave 0/1/2.

Inputs: arbitrary text and bytes; arbitrary YAML-ish data dumped with PyYAML
(and then truncated or mutated); descriptor-shaped data whose fields hold values
of any type, including JSON Schema fragments, so every rule sees hostile shapes.
"""

from __future__ import annotations

import json
import os
import re

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conftest import EXPECTED_RULES, UNSAFE_OUTPUT, examples, render
from toolcontract.cli import app
from toolcontract.lint.engine import LintResult, lint_files, lint_text
from toolcontract.io.document import Limits, LoadError, load_bytes

# TOOLCONTRACT_PROPERTY_SCALE=20 runs twenty times as many examples (a slow, thorough run)
SCALE = max(1, int(os.environ.get("TOOLCONTRACT_PROPERTY_SCALE", "1")))
FAST = settings(max_examples=examples(150 * SCALE), deadline=None, suppress_health_check=[HealthCheck.too_slow])
CLI = settings(max_examples=examples(60 * SCALE), deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ---------------------------------------------------------------- strategies

KEYS = st.sampled_from(
    [
        "toolcontract", "tools", "name", "title", "version", "description", "purpose", "when_to_use", "non_goals",
        "effect", "limitations", "input_schema", "output_schema", "target", "semantic_rules", "approval",
        "observation", "annotations", "examples", "type", "properties", "required", "additionalProperties",
        "items", "$ref", "$defs", "pattern", "patternProperties", "enum", "const", "anyOf", "oneOf", "allOf",
        "if", "then", "else", "id", "message", "fields", "readOnlyHint", "destructiveHint", "openWorldHint",
        "$schema", "x-owner", "a/b", "m~n", "", " ",
    ]
) | st.text(max_size=12)

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=30)
    | st.sampled_from(
        [
            "pure", "read", "reversible_write", "irreversible_write", "open_world", "object", "string",
            "array", "integer", "required", "not_required", "1.0.0", "#/$defs/x", "#", "https://example.com/s",
            "/document_id", "/", "~", "([", "^[a-z]+$", "\x1b[31m", "[bold]", "\u202e", "no", "0x1F",
            "https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#",
        ]
    )
)

DATA = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(KEYS, children, max_size=6),
    max_leaves=40,
)

SCHEMA_TYPES = st.sampled_from(["object", "string", "integer", "number", "boolean", "array", "null", "dict", "any", ""])


def _schema_node(children):
    return st.fixed_dictionaries(
        {},
        optional={
            "type": SCHEMA_TYPES | st.lists(SCHEMA_TYPES, max_size=3) | SCALARS,
            "description": st.text(max_size=20) | SCALARS,
            "properties": st.dictionaries(KEYS, children, max_size=4) | DATA,
            "required": st.lists(KEYS, max_size=4) | SCALARS,
            "additionalProperties": st.booleans() | children,
            "items": children | st.lists(children, max_size=2),
            "$ref": st.sampled_from(["#", "#/$defs/a", "#/$defs/missing", "other.json", "https://x.invalid/s",
                                     "file:///etc/passwd", "#/properties/a", "#foo"]) | SCALARS,
            "$defs": st.dictionaries(st.sampled_from(["a", "b"]), children, max_size=2),
            "pattern": st.sampled_from(["^a$", "([", "(?<x>a)", "\\p{L}", "a{2,1}"]) | SCALARS,
            "patternProperties": st.dictionaries(st.sampled_from(["^x-", "([", ""]), children, max_size=2),
            "enum": st.lists(SCALARS, max_size=3) | SCALARS,
            "const": SCALARS,
            "anyOf": st.lists(children, max_size=2),
            "oneOf": st.lists(children, max_size=2) | SCALARS,
            "if": children,
            "then": children,
            "$schema": st.sampled_from(["https://json-schema.org/draft/2020-12/schema",
                                        "http://json-schema.org/draft-07/schema#", "nonsense"]) | SCALARS,
        },
    )


SCHEMAS = st.recursive(st.booleans() | st.just({}) | SCALARS, _schema_node, max_leaves=12)

DESCRIPTOR = st.fixed_dictionaries(
    {"toolcontract": st.just(1) | SCALARS, "name": st.sampled_from(["invoice_get", "Bad.Name", "update", ""]) | SCALARS},
    optional={
        "version": st.sampled_from(["1.0.0", "1.2", "v1"]) | SCALARS,
        "description": st.text(max_size=200) | SCALARS,
        "purpose": st.text(max_size=60) | SCALARS,
        "when_to_use": st.text(max_size=60) | SCALARS,
        "non_goals": st.lists(st.text(max_size=20), max_size=3) | DATA,
        "effect": st.sampled_from(["pure", "read", "reversible_write", "irreversible_write", "open_world", "write"]) | SCALARS,
        "limitations": st.lists(st.text(max_size=20), max_size=2) | DATA,
        "input_schema": SCHEMAS,
        "output_schema": SCHEMAS,
        "target": st.fixed_dictionaries({}, optional={"id": SCALARS, "version": SCALARS, "fields": SCALARS}) | DATA,
        "semantic_rules": st.lists(
            st.fixed_dictionaries({}, optional={"id": SCALARS, "message": SCALARS, "if": SCHEMAS, "then": SCHEMAS}),
            max_size=2,
        ) | DATA,
        "approval": st.sampled_from(["required", "not_required"]) | SCALARS,
        "observation": SCALARS,
        "annotations": st.dictionaries(st.sampled_from(["readOnlyHint", "destructiveHint", "openWorldHint", "title"]),
                                       SCALARS, max_size=4) | DATA,
        "examples": st.lists(DATA, max_size=3) | DATA,
    },
)

DESCRIPTOR_FILE = DESCRIPTOR | st.fixed_dictionaries(
    {"toolcontract": st.just(1), "tools": st.lists(DESCRIPTOR | DATA, max_size=3) | DATA}
)


def _dump_yaml(data) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


def _dump_json(data) -> str:
    return json.dumps(data, ensure_ascii=False)


@st.composite
def mutated(draw, documents):
    """A dumped document, then truncated, spliced or with random characters inserted."""
    text = draw(documents)
    action = draw(st.sampled_from(["keep", "truncate", "insert", "delete", "duplicate-line"]))
    if action == "keep" or not text:
        return text
    at = draw(st.integers(0, len(text)))
    if action == "truncate":
        return text[:at]
    if action == "insert":
        return text[:at] + draw(st.text(st.sampled_from(list("{}[]:,-&*!?|>'\"#%@`\t\n \\") + ["\x00", "\ufeff"]), max_size=4)) + text[at:]
    if action == "delete":
        return text[:at] + text[at + draw(st.integers(1, 10)):]
    lines = text.splitlines(keepends=True)
    index = min(at, len(lines) - 1)
    return "".join(lines[: index + 1] + lines[index:])


YAML_TEXT = mutated(st.one_of(DATA.map(_dump_yaml), DESCRIPTOR_FILE.map(_dump_yaml)))
JSON_TEXT = mutated(st.one_of(DATA.map(_dump_json), DESCRIPTOR_FILE.map(_dump_json)))

# ------------------------------------------------------------------ checks


def check(result: LintResult) -> None:
    """Invariants of any lint result."""
    assert result.files >= 1
    for finding in result.findings:
        assert finding.rule in EXPECTED_RULES, finding
        assert finding.line >= 1 and finding.column >= 1, finding
        assert finding.message, finding
        assert finding.pointer == "" or finding.pointer.startswith("/"), finding
    assert result.findings == sorted(result.findings)
    # every reporter takes every result; the terminal ones stay clean
    out = render(result, "text")
    assert not UNSAFE_OUTPUT.search(out), out
    # JSON is for machines: it escapes C0 controls, and must always parse
    out = render(result, "json")
    assert not re.search(r"[\x00-\x09\x0b-\x1f]", out), out
    json.loads(out)


@pytest.mark.long
@FAST
@given(st.text())
def test_any_text_as_yaml(text):
    check(lint_text(text, "any.yaml"))


@pytest.mark.long
@FAST
@given(st.text())
def test_any_text_as_json(text):
    check(lint_text(text, "any.json"))


@pytest.mark.long
@FAST
@given(st.binary(), st.sampled_from(["b.yaml", "b.json", "b"]))
def test_any_bytes(raw, path):
    check(lint_files([(path, raw)]))


@pytest.mark.long
@FAST
@given(st.binary(max_size=200))
def test_loader_raises_only_load_error(raw):
    for path in ("b.yaml", "b.json"):
        try:
            document = load_bytes(raw, path, Limits(max_bytes=150, max_depth=5, max_alias_nodes=20))
        except LoadError as error:
            assert error.line >= 1 and error.column >= 1
        else:
            document.locate("/a/0/b", "key")


@pytest.mark.long
@FAST
@given(YAML_TEXT)
def test_yaml_ish_data(text):
    check(lint_text(text, "data.yaml"))


@pytest.mark.long
@FAST
@given(JSON_TEXT)
def test_json_ish_data(text):
    check(lint_text(text, "data.json"))


@pytest.mark.long
@FAST
@given(DESCRIPTOR_FILE)
def test_descriptor_shaped_data_yaml_and_json_agree(data):
    """The same data read from YAML and from JSON gives the same findings (positions aside)."""
    # ASCII-only YAML: PyYAML writes NEL and other breaks raw, which YAML itself folds
    text = yaml.safe_dump(data, allow_unicode=False, sort_keys=False)
    # PyYAML writes YAML 1.1 and leaves strings like 0o17 unquoted, which 1.2 reads as numbers
    assume(load_bytes(text.encode(), "d.yaml").data == data)
    from_yaml = lint_text(text, "d.yaml")
    from_json = lint_text(_dump_json(data), "d.json")
    check(from_yaml)
    check(from_json)

    def key(result):
        # messages may name the other place (TC104, TC001): positions differ between the two texts
        return sorted(
            (f.rule, f.pointer, f.tool, re.sub(r"d\.(yaml|json):\d+|line \d+, column \d+", "@", f.message))
            for f in result.findings
        )

    assert key(from_yaml) == key(from_json)


@pytest.mark.long
@CLI
@given(st.lists(DESCRIPTOR_FILE, min_size=1, max_size=3))
def test_many_files_at_once(datas):
    files = [(f"f{i}.{'json' if i % 2 else 'yaml'}", (_dump_json if i % 2 else _dump_yaml)(d).encode()) for i, d in enumerate(datas)]
    check(lint_files(files))


@pytest.mark.long
@FAST
@given(DATA)
def test_positions_point_into_the_file(data):
    """Every finding's line exists in the file, and its column is within the line (or just past it)."""
    text = _dump_yaml(data)
    result = lint_text(text, "p.yaml")
    lines = text.splitlines() or [""]
    for finding in result.findings:
        if finding.rule == "TC000":
            continue
        assert finding.line <= len(lines), finding
        assert finding.column <= len(lines[finding.line - 1]) + 1, finding


# --------------------------------------------------------------------- CLI


def _invoke(raw: bytes, fmt: str):
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["lint", "-", "--format", fmt], input=raw)
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output
    return result


@pytest.mark.long
@CLI
@given(st.binary(max_size=500), st.sampled_from(["text", "json", "rich"]))
def test_cli_any_bytes(raw, fmt):
    _invoke(raw, fmt)


@pytest.mark.long
@CLI
@given(YAML_TEXT, st.sampled_from(["text", "json", "rich"]))
def test_cli_yaml_ish(text, fmt):
    result = _invoke(text.encode("utf-8", "surrogatepass"), fmt)
    if fmt in ("text", "rich"):
        assert not UNSAFE_OUTPUT.search(result.stdout)
    elif result.exit_code == 2:  # no tool in it at all (`tools: []`): one line on stderr, nothing on stdout
        assert result.stdout == "" and "no tool descriptors found" in result.stderr
    else:
        json.loads(result.stdout)


@pytest.mark.long
@CLI
@given(st.lists(st.sampled_from(["--select", "--ignore", "--fail-on", "--format", "--exit-zero", "TC", "TC4", "TC1,TC2",
                                  "XX", "error", "info", "json", "text", "rich", "", "-", "--", "--bogus", "ALL"]),
                max_size=6))
def test_cli_any_flags(args):
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["lint", *args], input=b"toolcontract: 1\nname: x\n")
    assert result.exit_code in (0, 1, 2), (args, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exc_info)
    if result.exit_code == 2:
        assert len(result.stderr.strip().splitlines()) == 1, (args, result.stderr)


# ------------------------------------------------- shapes that once crashed

HOSTILE_SHAPES = [
    "non_goals: 1\n",  # TypeError in model_description (found by test_positions_point_into_the_file)
    "non_goals: Does not forecast.\n",
    "non_goals: {a: 1}\n",
    "purpose: 3\nwhen_to_use: [x]\n",
    "target: 3\n",
    "target: {id: 3, version: [/a], fields: {}}\n",
    "target: {id: '', version: /, fields: '~'}\n",
    "semantic_rules: {a: 1}\n",
    "semantic_rules: [1, null, {if: 3, then: [x]}]\n",
    "input_schema: []\n",
    "input_schema: null\n",
    "input_schema: {properties: [a, b], required: {a: 1}}\n",
    "input_schema: {type: object, properties: {a: 1, b: null, c: true}}\n",
    "input_schema: {$ref: '#'}\n",
    "input_schema: {$ref: 5, $defs: 3}\n",
    "input_schema: {type: object, properties: {a: {pattern: 5}}, patternProperties: {'([': {}}}\n",
    "annotations: [readOnlyHint]\n",
    "annotations: {readOnlyHint: 'true'}\n",
    "examples: 3\n",
    "examples: [1, [2], null]\n",
    "output_schema: 'x'\n",
    "name: 3\n",
    "name: null\n",
    "version: 1.2\n",
    "effect: [read]\n",
    "approval: 1\n",
]


@pytest.mark.parametrize("body", HOSTILE_SHAPES)
@pytest.mark.parametrize("effect", ["read", "irreversible_write"])
def test_hostile_shapes(body, effect):
    text = f"toolcontract: 1\nname: weather_current\neffect: {effect}\n{body}"
    for path, content in (("h.yaml", text), ("h.json", json.dumps(yaml.safe_load(text)))):
        check(lint_text(content, path))
    check(lint_text(f"toolcontract: 1\ntools:\n  - {body.strip()}\n  - name: x\n", "h.yaml"))
