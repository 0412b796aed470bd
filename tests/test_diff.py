"""`toolcontract diff`: the classification of changes (pure core), version bumps, and the
command on real git repositories made in a temporary folder (`--git-base REV`), and on
two files or folders."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import TEXT_LINE, TEXT_SUMMARY, TEXT_TALLY, assert_one_line_error, examples
from toolcontract.cli.commands import app
from toolcontract.lint.diff import Area, Bump, Level, compare_tool, diff_tools, version_bump
from toolcontract.io.document import load_text
from toolcontract.io.reader import read_tools

ROOT = Path(__file__).resolve().parents[1]
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

WEATHER = """\
toolcontract: 1
name: weather_current
version: 1.2.0
description: Current weather for a city.
purpose: Report the current weather in one city.
effect: read
input_schema:
  type: object
  properties:
    city: {type: [string, "null"], description: City name.}
    units: {type: string, enum: [metric, imperial], description: Unit system.}
    days: {type: number, minimum: 0, maximum: 7, description: Days ahead.}
    address:
      type: object
      properties:
        street: {type: string, description: Street.}
        zip: {type: string, description: Postal code.}
      description: Where exactly.
    tags: {type: array, items: {type: string}, description: Labels.}
  required: [city]
output_schema:
  type: object
  properties:
    temperature: {type: number, description: Degrees.}
    sky: {type: string, enum: [clear, cloudy], description: Sky.}
  required: [temperature]
"""

SEARCH = """\
toolcontract: 1
tools:
  - name: orders_search
    version: 2.0.0
    description: Search orders.
    effect: read
  - name: orders_count
    version: 1.0.0
    description: Count orders.
    effect: read
"""


# ------------------------------------------------------------------- helpers


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.email=t@example.invalid", "-c", "user.name=t", "-c",
                           "commit.gpgsign=false", *args], cwd=cwd, check=True, capture_output=True, text=True)
    return done.stdout


@pytest.fixture
def repo(tmp_path, monkeypatch) -> Path:
    """A git repository with tools/weather.yaml and tools/search.yaml committed and tagged v1,
    as the working folder."""
    git(tmp_path, "init", "-q")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "weather.yaml").write_text(WEATHER)
    (tmp_path / "tools" / "search.yaml").write_text(SEARCH)
    (tmp_path / "package.json").write_text('{"name": "site", "version": "1.0.0", "description": "x"}\n')
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "v1")
    git(tmp_path, "tag", "v1")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def commit(repo: Path, message: str = "change") -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def edit(repo: Path, name: str, *pairs: tuple[str, str]) -> None:
    path = repo / "tools" / name
    text = path.read_text()
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new)
    path.write_text(text)


def run(*args: str):
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output
    return result


def findings(*args: str) -> tuple[int, list[dict]]:
    result = run("diff", *args, "--format", "json")
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)["findings"]


def only(found: list[dict], rule: str) -> list[dict]:
    return [f for f in found if f["rule"] == rule]


def changes(old: str, new: str):
    a = read_tools(load_text(old, "old.yaml")).tools
    b = read_tools(load_text(new, "new.yaml")).tools
    return diff_tools(a, b)


def kinds(old_data: dict, new_data: dict) -> set[tuple[str, Level]]:
    return {(c.kind, c.level) for c in compare_tool(old_data, new_data)}


# --------------------------------------------------------- classification


def _schema(properties: dict, required=(), **extra) -> dict:
    return {"input_schema": {"type": "object", "properties": properties, "required": list(required), **extra}}


S = {"type": "string"}
B, C = Level.BREAKING, Level.COMPATIBLE


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        pytest.param(_schema({"a": S, "b": S}), _schema({"a": S}), ("property-removed", B), id="property removed"),
        pytest.param(_schema({"a": S}), _schema({"a": S, "b": S}), ("property-added", C), id="optional added"),
        pytest.param(_schema({"a": S}), _schema({"a": S, "b": S}, ["b"]), ("required-property-added", B),
                     id="required property added"),
        pytest.param(_schema({"a": S}), _schema({"a": S}, ["a"]), ("newly-required", B), id="newly required"),
        pytest.param(_schema({"a": S}, ["a"]), _schema({"a": S}), ("no-longer-required", C), id="no longer required"),
        pytest.param(_schema({"a": {"type": ["string", "null"]}}), _schema({"a": S}), ("type-narrowed", B),
                     id="type narrowed: null dropped"),
        pytest.param(_schema({"a": {"type": "number"}}), _schema({"a": {"type": "integer"}}), ("type-narrowed", B),
                     id="type narrowed: number to integer"),
        pytest.param(_schema({"a": {"type": "integer"}}), _schema({"a": {"type": "number"}}), ("type-widened", C),
                     id="type widened"),
        pytest.param(_schema({"a": S}), _schema({"a": {"type": "number"}}), ("type-changed", B), id="type changed"),
        pytest.param(_schema({"a": {}}), _schema({"a": S}), ("type-narrowed", B), id="type added"),
        pytest.param(_schema({"a": {"type": ["number", "integer"]}}), _schema({"a": {"type": "number"}}), None,
                     id="same types spelled differently"),
        pytest.param(_schema({"a": {**S, "enum": ["x", "y"]}}), _schema({"a": {**S, "enum": ["x"]}}),
                     ("enum-value-removed", B), id="enum value removed"),
        pytest.param(_schema({"a": {**S, "enum": ["x"]}}), _schema({"a": {**S, "enum": ["x", "y"]}}),
                     ("enum-value-added", C), id="enum value added"),
        pytest.param(_schema({"a": S}), _schema({"a": {**S, "enum": ["x"]}}), ("enum-added", B), id="enum added"),
        pytest.param(_schema({"a": {**S, "const": "x"}}), _schema({"a": {**S, "const": "y"}}), ("const-changed", B),
                     id="const changed"),
        pytest.param(_schema({"a": {**S, "maxLength": 10}}), _schema({"a": {**S, "maxLength": 5}}),
                     ("constraint-tightened", B), id="maxLength tightened"),
        pytest.param(_schema({"a": {**S, "maxLength": 5}}), _schema({"a": {**S, "maxLength": 10}}),
                     ("constraint-relaxed", C), id="maxLength relaxed"),
        pytest.param(_schema({"a": {"type": "number", "minimum": 0}}), _schema({"a": {"type": "number", "minimum": 1}}),
                     ("constraint-tightened", B), id="minimum raised"),
        pytest.param(_schema({"a": S}), _schema({"a": {**S, "pattern": "^x"}}), ("constraint-tightened", B),
                     id="pattern added"),
        pytest.param(_schema({"a": {**S, "pattern": "^x"}}), _schema({"a": {**S, "pattern": "^y"}}),
                     ("constraint-changed", B), id="pattern replaced"),
        pytest.param(_schema({"a": {**S, "pattern": "^x"}}), _schema({"a": S}), ("constraint-relaxed", C),
                     id="pattern removed"),
        pytest.param(_schema({"a": S}), _schema({"a": S}, additionalProperties=False),
                     ("additional-properties-closed", B), id="additionalProperties closed"),
        pytest.param(_schema({"a": S}, additionalProperties=True), _schema({"a": S}, additionalProperties=False),
                     ("additional-properties-closed", B), id="additionalProperties true to false"),
        pytest.param(_schema({"a": S}, additionalProperties=False), _schema({"a": S}),
                     ("additional-properties-opened", C), id="additionalProperties opened"),
        pytest.param(_schema({"a": {"$ref": "#/$defs/x"}}), _schema({"a": {"$ref": "#/$defs/y"}}),
                     ("reference-changed", B), id="ref changed"),
        pytest.param(_schema({"a": {"anyOf": [S, {"type": "number"}]}}), _schema({"a": {"anyOf": [S]}}),
                     ("anyOf-member-removed", B), id="anyOf alternative removed"),
        pytest.param(_schema({"a": {"anyOf": [S]}}), _schema({"a": {"anyOf": [S, {"type": "number"}]}}),
                     ("anyOf-member-added", C), id="anyOf alternative added"),
        pytest.param(_schema({"a": {**S, "default": "x"}}), _schema({"a": {**S, "default": "y"}}),
                     ("default-changed", B), id="default changed"),
        pytest.param(_schema({"a": {**S, "description": "One."}}), _schema({"a": {**S, "description": "Two."}}),
                     ("description-changed", C), id="property description changed"),
    ],
)
def test_input_schema_changes_are_classified(old, new, expected):
    found = kinds(old, new)
    if expected is None:
        assert not found
    else:
        assert expected in found, found


def test_nested_properties_and_array_items_are_compared():
    old = _schema({"address": {"type": "object", "properties": {"street": S, "zip": S}},
                   "tags": {"type": "array", "items": {"type": ["string", "null"]}}})
    new = _schema({"address": {"type": "object", "properties": {"street": S}},
                   "tags": {"type": "array", "items": S}})
    found = compare_tool(old, new)
    removed = [c for c in found if c.kind == "property-removed"]
    assert removed and "'address.zip'" in removed[0].message
    assert removed[0].path == ("input_schema", "properties", "address", "properties")
    narrowed = [c for c in found if c.kind == "type-narrowed"]
    assert narrowed and "'tags[]'" in narrowed[0].message
    assert narrowed[0].path == ("input_schema", "properties", "tags", "items", "type")


def test_a_rename_is_a_removal_and_an_addition():
    found = kinds(_schema({"city": S}, ["city"]), _schema({"town": S}, ["town"]))
    assert ("property-removed", B) in found and ("required-property-added", B) in found


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        pytest.param({"properties": {"a": S, "b": S}}, {"properties": {"a": S}}, ("property-removed", B),
                     id="returned property removed"),
        pytest.param({"properties": {"a": S}}, {"properties": {"a": S, "b": S}}, ("property-added", C),
                     id="returned property added"),
        pytest.param({"properties": {"a": S}, "required": ["a"]}, {"properties": {"a": S}}, ("no-longer-required", B),
                     id="no longer always returned"),
        pytest.param({"properties": {"a": {"type": "integer"}}}, {"properties": {"a": {"type": "number"}}},
                     ("type-widened", B), id="returned type widened"),
        pytest.param({"properties": {"a": {"type": "number"}}}, {"properties": {"a": {"type": "integer"}}},
                     ("type-narrowed", C), id="returned type narrowed"),
        pytest.param({"properties": {"a": {**S, "enum": ["x", "y"]}}}, {"properties": {"a": {**S, "enum": ["x"]}}},
                     ("enum-value-removed", C), id="returned enum value removed"),
        pytest.param({"properties": {"a": {**S, "enum": ["x"]}}}, {"properties": {"a": {**S, "enum": ["x", "y"]}}},
                     ("enum-value-added", B), id="returned enum value added"),
        pytest.param({"properties": {"a": S}}, {"properties": {"a": S}, "additionalProperties": False},
                     ("additional-properties-closed", C), id="returned object closed"),
    ],
)
def test_output_schema_direction_is_reversed(old, new, expected):
    found = kinds({"output_schema": {"type": "object", **old}}, {"output_schema": {"type": "object", **new}})
    assert expected in found, found


def test_output_schema_removed_is_breaking_and_added_compatible():
    schema = {"output_schema": {"type": "object"}}
    assert ("output-schema-removed", B) in kinds(schema, {})
    assert ("output-schema-added", C) in kinds({}, schema)


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ({"effect": "read"}, {"effect": "reversible_write"}, ("effect-more-consequential", B)),
        ({"effect": "reversible_write"}, {"effect": "irreversible_write"}, ("effect-more-consequential", B)),
        ({"effect": "irreversible_write"}, {"effect": "open_world"}, ("effect-more-consequential", B)),
        ({"effect": "pure"}, {"effect": "read"}, ("effect-more-consequential", B)),
        ({"effect": "irreversible_write"}, {"effect": "reversible_write"}, ("effect-less-consequential", C)),
        ({"effect": "read"}, {}, ("effect-undeclared", B)),
        ({}, {"effect": "read"}, ("effect-declared", C)),
        ({"effect": "reversible_write", "approval": "required"}, {"effect": "reversible_write", "approval": "not_required"},
         ("approval-relaxed", B)),
        ({"effect": "reversible_write"}, {"effect": "reversible_write", "approval": "not_required"},
         ("approval-relaxed", B)),
        ({"effect": "read", "approval": "required"}, {"effect": "read"}, ("approval-relaxed", B)),
        ({"effect": "read"}, {"effect": "read", "approval": "required"}, ("approval-tightened", C)),
        ({"annotations": {"readOnlyHint": True}}, {"annotations": {"readOnlyHint": False}}, ("annotation-riskier", B)),
        ({"annotations": {"destructiveHint": False}}, {"annotations": {}}, ("annotation-riskier", B)),
        ({"annotations": {"openWorldHint": True}}, {"annotations": {"openWorldHint": False}}, ("annotation-safer", C)),
        ({"description": "Old."}, {"description": "New."}, ("description-changed", C)),
    ],
)
def test_tool_level_changes_are_classified(old, new, expected):
    assert expected in kinds(old, new)


def test_approval_that_follows_a_less_consequential_effect_is_not_a_relaxation():
    found = kinds({"effect": "reversible_write"}, {"effect": "read"})
    assert found == {("effect-less-consequential", C)}


def test_documentation_changes_need_no_version_and_schema_changes_do():
    by_kind = {c.kind: c for c in compare_tool({"description": "a", "input_schema": {"type": "object"}},
                                               {"description": "b", "input_schema": {"type": "object",
                                                                                     "properties": {"x": S}}})}
    assert by_kind["description-changed"].area is Area.DOCUMENTATION
    assert by_kind["property-added"].area is Area.SCHEMA and by_kind["property-added"].area.contract


def test_unchanged_tools_have_no_changes_and_reordering_is_no_change():
    reordered = SEARCH.replace("  - name: orders_search\n    version: 2.0.0\n    description: Search orders.\n"
                               "    effect: read\n", "") + ("  - name: orders_search\n    version: 2.0.0\n"
                                                           "    description: Search orders.\n    effect: read\n")
    assert all(not d.changes for d in changes(SEARCH, reordered))
    assert all(d.level is None for d in changes(WEATHER, WEATHER))


@pytest.mark.parametrize(
    ("old", "new", "bump"),
    [
        ("1.2.0", "1.2.0", Bump.NONE),
        ("1.2.0", "v1.2.0", Bump.NONE),
        (None, None, Bump.NONE),
        ("1.2.0", "1.2.1", Bump.PATCH),
        ("1.2.0", "1.3.0", Bump.MINOR),
        ("1.2.0", "2.0.0", Bump.MAJOR),
        ("1.2.0", "2.0.0-rc.1", Bump.MAJOR),
        ("2.0.0-rc.1", "2.0.0", Bump.MAJOR),
        ("0.3.1", "0.4.0", Bump.MAJOR),  # Cargo's reading of 0.x
        ("0.3.1", "0.3.2", Bump.MINOR),
        ("0.0.3", "0.0.4", Bump.MAJOR),
        ("1.2", "1.3", Bump.MINOR),
        (1.2, 2, Bump.MAJOR),  # YAML may read versions as numbers
        ("2.0.0", "1.9.0", Bump.OTHER),
        ("1.2.0", None, Bump.OTHER),
        ("2024-05", "2024-06", Bump.OTHER),
    ],
)
def test_version_bumps(old, new, bump):
    assert version_bump(old, new) is bump


# ------------------------------------------------------------ git: categories

BREAKING_EDITS = {
    "property removed": [("    days: {type: number, minimum: 0, maximum: 7, description: Days ahead.}\n", "")],
    "property renamed": [("    city: {type", "    town: {type"), ("required: [city]", "required: [town]")],
    "newly required": [("required: [city]", "required: [city, units]")],
    "type narrowed": [('city: {type: [string, "null"]', "city: {type: string")],
    "number to integer": [("days: {type: number", "days: {type: integer")],
    "enum value removed": [("enum: [metric, imperial]", "enum: [metric]")],
    "additionalProperties closed": [("  required: [city]\n", "  required: [city]\n  additionalProperties: false\n")],
    "effect more consequential": [("effect: read", "effect: reversible_write\napproval: required")],
    "approval relaxed": [("effect: read", "effect: reversible_write\napproval: required")],
    "nested property removed": [("        zip: {type: string, description: Postal code.}\n", "")],
    "array items narrowed": [("items: {type: string}", "items: {type: string, maxLength: 20}")],
    "constraint tightened": [("maximum: 7", "maximum: 3")],
    "returned property removed": [("    sky: {type: string, enum: [clear, cloudy], description: Sky.}\n", "")],
}
MESSAGES = {
    "property removed": "property 'days' removed",
    "property renamed": "property 'city' removed",
    "newly required": "'units' is newly required",
    "type narrowed": 'type narrowed: ["string", "null"] → "string"',
    "number to integer": 'type narrowed: "number" → "integer"',
    "enum value removed": 'enum value "imperial" removed',
    "additionalProperties closed": "additionalProperties closed: absent → false",
    "effect more consequential": "effect more consequential: read → reversible_write",
    "approval relaxed": "approval relaxed: required → not_required",
    "nested property removed": "property 'address.zip' removed",
    "array items narrowed": "'tags[]': maxLength added",
    "constraint tightened": "maximum tightened: 7 → 3",
    "returned property removed": "output_schema: property 'sky' removed",
}


@needs_git
@pytest.mark.parametrize("case", list(BREAKING_EDITS))
def test_breaking_change_without_major_bump_is_an_error(repo, case):
    if case == "approval relaxed":  # base: a write that needs approval; then the approval is waived
        edit(repo, "weather.yaml", *BREAKING_EDITS[case])
        commit(repo, "write tool")
        edit(repo, "weather.yaml", ("approval: required", "approval: not_required"))
    else:
        edit(repo, "weather.yaml", *BREAKING_EDITS[case])
    code, found = findings("--git-base", "HEAD")
    errors = only(found, "TC701")
    assert code == 1
    assert any(MESSAGES[case] in f["message"] for f in errors), [f["message"] for f in found]
    assert all(f["path"] == "tools/weather.yaml" and f["severity"] == "error" and f["tool"] == "weather_current"
               for f in errors)
    assert all("1.2.0 unchanged" in f["message"] for f in errors)


@needs_git
@pytest.mark.parametrize("case", list(BREAKING_EDITS))
def test_breaking_change_with_major_bump_is_listed_not_failed(repo, case):
    if case == "approval relaxed":
        edit(repo, "weather.yaml", *BREAKING_EDITS[case])
        commit(repo, "write tool")
        edit(repo, "weather.yaml", ("approval: required", "approval: not_required"))
    else:
        edit(repo, "weather.yaml", *BREAKING_EDITS[case])
    edit(repo, "weather.yaml", ("version: 1.2.0", "version: 2.0.0"))
    code, found = findings("--git-base", "HEAD")
    assert code == 0
    assert not only(found, "TC701") and not only(found, "TC702")
    listed = only(found, "TC703")
    assert any(f["message"].startswith("breaking: ") and MESSAGES[case] in f["message"] for f in listed)
    assert all(f["severity"] == "info" and "1.2.0 → 2.0.0" in f["message"] for f in listed)


COMPATIBLE_EDITS = {
    "optional property added": ([("  required: [city]\n", "")], "optional property 'lang' added", True),
    "enum value added": ([("enum: [metric, imperial]", "enum: [metric, imperial, kelvin]")],
                         'enum value "kelvin" added', True),
    "type widened": ([("days: {type: number", "days: {type: [number, string]")], "type widened", True),
    "constraint relaxed": ([("maximum: 7", "maximum: 14")], "maximum relaxed: 7 → 14", True),
    "effect less consequential": ([("effect: read", "effect: pure")], "effect less consequential: read → pure", True),
    "description changed": ([("Current weather for a city.", "The weather now, in one city.")],
                            "description changed", False),
}


def _compatible_edit(repo: Path, case: str) -> None:
    pairs, _, _ = COMPATIBLE_EDITS[case]
    if case == "optional property added":
        pairs = [("    tags:", "    lang: {type: string, description: Language.}\n    tags:")]
    edit(repo, "weather.yaml", *pairs)


@needs_git
@pytest.mark.parametrize("case", list(COMPATIBLE_EDITS))
def test_compatible_change_without_bump_warns_when_it_touches_the_contract(repo, case):
    _, message, contract = COMPATIBLE_EDITS[case]
    _compatible_edit(repo, case)
    code, found = findings("--git-base", "HEAD")
    assert code == 0 and not only(found, "TC701")
    if contract:
        warned = only(found, "TC702")
        assert any(message in f["message"] for f in warned), found
        assert all(f["severity"] == "warning" for f in warned)
        assert run("diff", "--git-base", "HEAD", "--fail-on", "warning", "--format", "text").exit_code == 1
    else:
        assert not only(found, "TC702")
        assert any(message in f["message"] and f["message"].startswith("compatible: ") for f in only(found, "TC703"))


@needs_git
@pytest.mark.parametrize("case", list(COMPATIBLE_EDITS))
def test_compatible_change_with_minor_bump_is_clean(repo, case):
    _, message, _ = COMPATIBLE_EDITS[case]
    _compatible_edit(repo, case)
    edit(repo, "weather.yaml", ("version: 1.2.0", "version: 1.3.0"))
    code, found = findings("--git-base", "HEAD")
    assert code == 0
    assert {f["rule"] for f in found} == {"TC703"}
    assert any(message in f["message"] for f in found)


@needs_git
def test_patch_bump_is_not_enough_for_a_contract_change(repo):
    _compatible_edit(repo, "enum value added")
    edit(repo, "weather.yaml", ("version: 1.2.0", "version: 1.2.1"))
    _, found = findings("--git-base", "HEAD")
    assert [f["message"] for f in only(found, "TC702")][0].endswith(
        "1.2.0 → 1.2.1 is a patch bump: a change to the contract needs at least a minor one")


@needs_git
def test_minor_bump_is_not_enough_for_a_breaking_change(repo):
    edit(repo, "weather.yaml", *BREAKING_EDITS["enum value removed"], ("version: 1.2.0", "version: 1.3.0"))
    code, found = findings("--git-base", "HEAD")
    assert code == 1
    assert "version 1.2.0 → 1.3.0 is a minor bump: a breaking change needs a major one" in only(found, "TC701")[0]["message"]


@needs_git
def test_unchanged_repository_is_clean(repo):
    result = run("diff", "--git-base", "HEAD", "--format", "text")
    assert result.exit_code == 0
    # two files at each side; package.json is no descriptor file
    assert result.stdout.splitlines() == ["4 files, 3 tools: 0 errors, 0 warnings, 0 info"]


# ------------------------------------------------------- git: tools and files


@needs_git
def test_removed_tool_is_an_error_in_the_old_file(repo):
    edit(repo, "search.yaml", ("  - name: orders_count\n    version: 1.0.0\n    description: Count orders.\n"
                               "    effect: read\n", ""))
    code, found = findings("--git-base", "v1")
    assert code == 1
    (removed,) = only(found, "TC704")
    assert removed["path"] == "v1:tools/search.yaml" and removed["line"] == 7 and removed["tool"] == "orders_count"
    assert "removed (was version 1.0.0)" in removed["message"]


@needs_git
def test_added_tool_is_listed(repo):
    (repo / "tools" / "new.yaml").write_text("toolcontract: 1\nname: orders_export\nversion: 1.0.0\neffect: read\n")
    code, found = findings("--git-base", "HEAD")
    assert code == 0
    (added,) = found
    assert added["rule"] == "TC703" and added["path"] == "tools/new.yaml" and added["line"] == 2
    assert added["message"] == "compatible: tool added (version 1.0.0)"


@needs_git
def test_deleted_file_means_its_tools_are_removed(repo):
    (repo / "tools" / "search.yaml").unlink()
    code, found = findings("--git-base", "HEAD")
    assert code == 1
    assert {(f["tool"], f["path"]) for f in only(found, "TC704")} == {
        ("orders_search", "HEAD:tools/search.yaml"), ("orders_count", "HEAD:tools/search.yaml")}


@needs_git
def test_deleted_file_named_as_a_path_is_read_at_the_base(repo):
    (repo / "tools" / "search.yaml").unlink()
    code, found = findings("--git-base", "HEAD", "tools/search.yaml")
    assert code == 1 and len(only(found, "TC704")) == 2
    result = run("diff", "--git-base", "HEAD", "tools/nowhere.yaml")
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert "no such file or directory, here or at HEAD" in result.stderr


@needs_git
def test_a_tool_moved_to_another_file_is_the_same_tool(repo):
    text = (repo / "tools" / "search.yaml").read_text()
    (repo / "tools" / "search.yaml").unlink()
    (repo / "tools" / "orders").mkdir()
    (repo / "tools" / "orders" / "all.yaml").write_text(text)
    code, found = findings("--git-base", "HEAD")
    assert code == 0 and found == []


@needs_git
def test_base_can_be_a_tag_or_an_ancestor_and_paths_narrow_it(repo):
    edit(repo, "weather.yaml", *BREAKING_EDITS["enum value removed"])
    commit(repo, "narrow units")
    edit(repo, "search.yaml", ("Search orders.", "Search the orders."))
    commit(repo, "describe")
    _, from_tag = findings("--git-base", "v1")
    _, from_parent = findings("--git-base", "HEAD~1")
    _, narrowed = findings("--git-base", "v1", "tools/search.yaml")
    assert {f["rule"] for f in from_tag} == {"TC701", "TC703"}
    assert {f["rule"] for f in from_parent} == {"TC703"}
    assert {f["tool"] for f in narrowed} == {"orders_search"}


@needs_git
def test_works_from_a_subfolder(repo, monkeypatch):
    edit(repo, "weather.yaml", *BREAKING_EDITS["enum value removed"])
    monkeypatch.chdir(repo / "tools")
    _, found = findings("--git-base", "HEAD")
    assert {f["path"] for f in found} == {"weather.yaml"}
    _, named = findings("--git-base", "HEAD", ".")
    assert named == found


@needs_git
def test_the_checkout_is_never_touched(repo):
    edit(repo, "weather.yaml", *BREAKING_EDITS["enum value removed"])
    (repo / "tools" / "search.yaml").unlink()
    (repo / "untracked.yaml").write_text("toolcontract: 1\nname: scratch_tool\neffect: read\n")
    before = (git(repo, "status", "--porcelain", "--untracked-files=all"), git(repo, "rev-parse", "HEAD"),
              git(repo, "stash", "list"), (repo / "tools" / "weather.yaml").read_bytes())
    findings("--git-base", "v1")
    after = (git(repo, "status", "--porcelain", "--untracked-files=all"), git(repo, "rev-parse", "HEAD"),
             git(repo, "stash", "list"), (repo / "tools" / "weather.yaml").read_bytes())
    assert before == after


@needs_git
def test_config_include_and_exclude_choose_the_files(repo):
    (repo / "legacy").mkdir()
    (repo / "legacy" / "old.yaml").write_text("toolcontract: 1\nname: legacy_tool\nversion: 1.0.0\neffect: read\n")
    commit(repo, "legacy")
    (repo / "legacy" / "old.yaml").unlink()
    (repo / ".toolcontract.yaml").write_text("exclude: [legacy/]\n")
    code, found = findings("--git-base", "HEAD")
    assert code == 0 and found == []
    (repo / ".toolcontract.yaml").unlink()
    code, found = findings("--git-base", "HEAD")
    assert code == 1 and [f["tool"] for f in only(found, "TC704")] == ["legacy_tool"]


@needs_git
def test_a_named_file_that_does_not_parse_is_a_finding(repo):
    (repo / "tools" / "weather.yaml").write_text("toolcontract: 1\nname: [unclosed\n")
    code, found = findings("--git-base", "HEAD", "tools/weather.yaml")
    assert code == 1 and only(found, "TC000")[0]["path"] == "tools/weather.yaml"


@needs_git
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--git-base", "no-such-rev"], "unknown revision 'no-such-rev'"),
        (["--git-base", "--upload-pack=x"], "is not a revision"),
        (["only-one.yaml"], "diff takes OLD and NEW"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(repo, args, expected):
    result = run("diff", *args)
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert expected in result.stderr


@needs_git
def test_outside_a_repository_is_exit_2(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    result = run("diff", "--git-base", "HEAD")
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert "needs a git repository" in result.stderr


# --------------------------------------------------------------- positions


def test_positions_point_at_the_change_in_the_new_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("old.yaml").write_text(WEATHER)
    Path("new.yaml").write_text(WEATHER.replace("    units: {type: string, enum: [metric, imperial], "
                                                "description: Unit system.}\n", ""))
    code, found = findings("old.yaml", "new.yaml")
    (removed,) = only(found, "TC701")
    # a removed property: at its parent object (the `properties` key) in the new file
    assert (removed["path"], removed["line"], removed["column"]) == ("new.yaml", 9, 3)
    assert removed["pointer"] == "/input_schema/properties"


# ----------------------------------------------------------- files, folders


def test_two_folders_of_fixtures(tmp_path):
    old, new = ROOT / "fixtures" / "diff" / "old", ROOT / "fixtures" / "diff" / "new"
    code, found = findings(str(old), str(new))
    assert code == 1
    rules = {f["rule"] for f in found}
    assert {"TC701", "TC702", "TC703", "TC704"} <= rules
    assert all(f["path"].startswith(str(new)) for f in found if f["rule"] != "TC704")
    assert all(f["path"].startswith(str(old)) for f in only(found, "TC704"))


def test_select_ignore_and_exit_zero(tmp_path):
    old, new = ROOT / "fixtures" / "diff" / "old", ROOT / "fixtures" / "diff" / "new"
    assert run("diff", old, new, "--exit-zero", "--format", "text").exit_code == 0
    _, found = findings(str(old), str(new), "--ignore", "TC703")
    assert "TC703" not in {f["rule"] for f in found}
    _, found = findings(str(old), str(new), "--select", "TC704")
    assert {f["rule"] for f in found} == {"TC704"}
    result = run("diff", old, new, "--select", "TC799")
    assert result.exit_code == 2 and "matches no rule" in result.stderr


# ------------------------------------------------------------------ formats


def _fixture_pair() -> list[str]:
    return [str(ROOT / "fixtures" / "diff" / "old"), str(ROOT / "fixtures" / "diff" / "new")]


def test_text_format_lines():
    result = run("diff", *_fixture_pair(), "--format", "text")
    lines = result.stdout.splitlines()
    assert all(TEXT_LINE.match(line) for line in lines[:-2]), lines
    assert TEXT_TALLY.match(lines[-2])
    assert TEXT_SUMMARY.match(lines[-1])


def test_rich_format_shows_source_lines_of_both_versions():
    result = run("diff", *_fixture_pair(), "--format", "rich")
    assert result.exit_code == 1
    assert "TC704" in result.stdout and "TC701" in result.stdout
    assert "- name: orders_count" in result.stdout  # the removed tool's line, from the old version


def test_sarif_format_is_valid():
    import jsonschema
    import referencing

    schema = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    result = run("diff", *_fixture_pair(), "--format", "sarif")
    document = json.loads(result.stdout)
    errors = list(jsonschema.Draft7Validator(schema, registry=referencing.Registry()).iter_errors(document))
    assert not errors, [e.message for e in errors[:3]]
    run_ = document["runs"][0]
    assert {r["ruleId"] for r in run_["results"]} >= {"TC701", "TC704"}
    rules = {r["id"]: r for r in run_["tool"]["driver"]["rules"]}
    assert "before:" in rules["TC701"]["help"]["text"]


@needs_git
def test_sarif_from_git_base_is_valid(repo):
    import jsonschema
    import referencing

    (repo / "tools" / "search.yaml").unlink()
    schema = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    document = json.loads(run("diff", "--git-base", "HEAD", "--format", "sarif").stdout)
    assert not list(jsonschema.Draft7Validator(schema, registry=referencing.Registry()).iter_errors(document))


def test_github_format():
    result = run("diff", *_fixture_pair(), "--format", "github")
    lines = result.stdout.splitlines()
    assert lines and all(line.startswith(("::error file=", "::warning file=", "::notice file=")) for line in lines)
    assert any("title=TC704 tool-removed [orders_count]::" in line for line in lines)  # names the removed tool
    assert all("→" in line for line in lines if "TC701" in line)


def test_junit_format():
    result = run("diff", *_fixture_pair(), "--format", "junit")
    root = ET.fromstring(result.stdout)
    cases = root.findall(".//testcase")
    assert cases and int(root.get("failures")) >= 2


def test_json_format_summary():
    result = run("diff", *_fixture_pair(), "--format", "json")
    document = json.loads(result.stdout)
    assert document["version"] == 1 and document["summary"]["error"] >= 2


def test_every_reporter_takes_a_diff_result():
    from toolcontract.lint.diff import diff_findings
    from toolcontract.lint.engine import LintResult
    from toolcontract.report import LINT_FORMATS, lint_reporter

    old = load_text(WEATHER, "old.yaml")
    new = load_text(WEATHER.replace("enum: [metric, imperial]", "enum: [metric]"), "new.yaml")
    diffs = diff_tools(read_tools(old).tools, read_tools(new).tools)
    result = LintResult(diff_findings(diffs), 2, len(diffs), {"old.yaml": old, "new.yaml": new})
    for fmt in LINT_FORMATS:
        stream = io.StringIO()
        lint_reporter(fmt)(result, stream)
        assert stream.getvalue()


@needs_git
def test_ci_against_origin_main_in_a_clone(repo, tmp_path_factory, monkeypatch):
    """As in CI: a clone on a feature branch, compared with the upstream branch it came from."""
    git(repo, "branch", "-M", "main")
    clone = tmp_path_factory.mktemp("ci") / "checkout"
    git(repo.parent, "clone", "-q", str(repo), str(clone))
    git(clone, "checkout", "-q", "-b", "feature")
    monkeypatch.chdir(clone)
    edit(clone, "weather.yaml", *BREAKING_EDITS["newly required"])
    commit(clone, "require units")
    code, found = findings("--git-base", "origin/main")
    assert code == 1 and [f["rule"] for f in found] == ["TC701"]
    assert found[0]["path"] == "tools/weather.yaml"


def test_the_cores_are_pure():
    """diff.py and lock.py take data and give data: no files, processes, terminal or environment."""
    import ast

    for name in ("diff.py", "lock.py"):
        tree = ast.parse((ROOT / "toolcontract" / "lint" / name).read_text(encoding="utf-8"))
        imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                    for alias in node.names if isinstance(node, ast.Import)}
        imported |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        assert not imported & {"os", "sys", "subprocess", "pathlib", "shutil", "io", "tempfile", "typer", "rich"}, name
        calls = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
        assert not calls & {"open", "print", "input"}, name


# --------------------------------------------------------------- robustness

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_KEYWORDS = st.sampled_from([
    "type", "enum", "const", "properties", "required", "additionalProperties", "items", "prefixItems", "anyOf",
    "oneOf", "allOf", "minimum", "maximum", "exclusiveMinimum", "maxLength", "multipleOf", "pattern", "$ref", "$defs",
    "default", "description", "uniqueItems", "nullable", "patternProperties", "not", "x-vendor",
]) | st.text(max_size=6)
_SCALARS = (st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=True, allow_infinity=True)
            | st.sampled_from(["string", "number", "integer", "object", "null", "{}", "{0}", "a"]))
_JSONISH = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYWORDS, inner, max_size=4),
                        max_leaves=20)
_TOOL = st.fixed_dictionaries({}, optional={
    "version": _SCALARS, "effect": st.sampled_from(["pure", "read", "reversible_write", "open_world", "x"]) | _SCALARS,
    "approval": st.sampled_from(["required", "not_required", "maybe"]), "input_schema": _JSONISH,
    "output_schema": _JSONISH, "annotations": _JSONISH, "semantic_rules": _JSONISH, "target": _JSONISH,
    "description": _SCALARS | st.text(max_size=20),
})


@pytest.mark.long
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_TOOL, _TOOL)
def test_any_two_descriptors_compare_without_crashing(old, new):
    found = compare_tool(old, new)
    assert all(c.message and isinstance(c.path, tuple) for c in found)
    assert compare_tool(new, new) == []


@pytest.mark.long
@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_TOOL, _TOOL)
def test_any_diff_renders_in_every_format(old, new):
    from toolcontract.lint.diff import diff_findings
    from toolcontract.lint.engine import LintResult
    from toolcontract.report import LINT_FORMATS, lint_reporter

    old_doc = load_text(json.dumps({"toolcontract": 1, "name": "a_tool", **old}, default=str), "old.json")
    new_doc = load_text(json.dumps({"toolcontract": 1, "name": "a_tool", **new}, default=str), "new.json")
    diffs = diff_tools(read_tools(old_doc).tools, read_tools(new_doc).tools)
    result = LintResult(diff_findings(diffs), 2, 1, {"old.json": old_doc, "new.json": new_doc})
    for fmt in LINT_FORMATS:
        lint_reporter(fmt)(result, io.StringIO())
