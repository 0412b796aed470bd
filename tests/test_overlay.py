"""Contract overlays: `X.contract.yaml` adds our contract fields to the tools of provider file X."""

from __future__ import annotations

import json

import pytest

from conftest import REPO
from toolcontract.cli import app
from toolcontract.lint.engine import LintResult, Selection, lint_files
from toolcontract.io.document import load_bytes, load_text
from toolcontract.io.overlay import OVERLAY_FIELDS, OVERLAY_ONLY, is_overlay, pair_overlays
from toolcontract.io.reader import read_tools

PROVIDERS = REPO / "fixtures" / "providers"
GOOD = PROVIDERS / "good"
ORPHAN = PROVIDERS / "orphan"
SCHEMAS = REPO / "schemas"

MCP = """{
  "tools": [
    {
      "name": "get_weather",
      "description": "Report the current weather at one named place. Use it for conditions right now. It does not forecast.",
      "inputSchema": {
        "type": "object",
        "properties": {"place": {"type": "string", "description": "Place name."}},
        "required": ["place"],
        "additionalProperties": false
      },
      "annotations": {"readOnlyHint": true}
    }
  ]
}
"""
MCP_NO_HINTS = MCP.replace('"annotations": {"readOnlyHint": true}', '"annotations": null')
OVERLAY = """\
toolcontract: 1
tools:
  get_weather:
    version: 1.0.0
    non_goals: [Does not forecast.]
    effect: read
"""


def lint_pair(provider: str = MCP, overlay: str = OVERLAY, select=None, provider_path: str = "tools.json",
              overlay_path: str = "tools.contract.yaml") -> LintResult:
    selection = Selection(select=select) if select else Selection()
    return lint_files([(provider_path, provider.encode())], selection,
                      overlays={provider_path: (overlay_path, overlay.encode())})


def cli(runner, *args):
    result = runner.invoke(app, ["lint", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    return result


def position_of(text: str, needle: str) -> tuple[int, int]:
    offset = text.index(needle)
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


# --------------------------------------------------------------- merging


def test_overlay_fields_are_merged_with_their_positions_in_the_overlay():
    result = lint_pair()
    assert not result.findings, [(f.rule, f.message) for f in result.findings]
    (tool,) = result.tool_views
    assert tool.format == "mcp"
    assert (tool.data["effect"], tool.data["version"]) == ("read", "1.0.0")
    overlay = result.documents["tools.contract.yaml"]
    assert tool.sources["effect"] == (overlay, "/tools/get_weather/effect")
    assert tool.locate(("non_goals", 0)) == (overlay, "/tools/get_weather/non_goals/0")
    assert tool.locate(("input_schema", "properties", "place"))[1] == "/tools/0/inputSchema/properties/place"
    assert result.files == 2


def test_findings_about_overlay_fields_point_into_the_overlay():
    overlay = OVERLAY.replace("effect: read", "effect: reversible_write").replace("version: 1.0.0", "version: v1")
    result = lint_pair(overlay=overlay, select=("TC103", "TC302", "TC304"))
    found = {f.rule: f for f in result.findings}
    assert found["TC103"].path == "tools.contract.yaml"
    assert found["TC103"].pointer == "/tools/get_weather/version"
    assert (found["TC103"].line, found["TC103"].column) == position_of(overlay, "v1")
    # the annotation that contradicts the effect is in the provider file
    assert found["TC302"].path == "tools.json"
    assert found["TC302"].pointer == "/tools/0/annotations/readOnlyHint"
    line, column = position_of(MCP, '"readOnlyHint": true')
    assert (found["TC302"].line, found["TC302"].column) == (line, column + len('"readOnlyHint": '))
    # a field missing from both is reported at the tool object in the provider file
    assert (found["TC304"].path, found["TC304"].pointer, found["TC304"].line) == ("tools.json", "/tools/0", 3)


def test_an_invalid_effect_in_the_overlay_is_tc301_there():
    overlay = OVERLAY.replace("effect: read", "effect: write")
    result = lint_pair(overlay=overlay)
    assert [(f.rule, f.path, f.line) for f in result.findings] == [("TC301", "tools.contract.yaml", 6)]


def test_overlay_examples_are_checked_against_the_provider_schema():
    overlay = OVERLAY + "    examples:\n      - {place: 3}\n"
    result = lint_pair(overlay=overlay)
    assert [(f.rule, f.path, f.line) for f in result.findings] == [("TC406", "tools.contract.yaml", 8)]


def test_overlay_target_pointers_are_checked_against_the_provider_schema():
    overlay = OVERLAY + "    target: {id: /city}\n"
    result = lint_pair(overlay=overlay, select=("TC307",))
    assert [(f.rule, f.path, f.pointer) for f in result.findings] == [
        ("TC307", "tools.contract.yaml", "/tools/get_weather/target/id")
    ]


# ------------------------------------------------------- overlay problems


def test_an_orphan_entry_is_a_structure_finding_at_the_entry():
    overlay = OVERLAY + "  get_wether:\n    effect: read\n"
    result = lint_pair(overlay=overlay)
    assert [(f.rule, f.path, f.line, f.column, f.pointer, f.message) for f in result.findings] == [
        ("TC002", "tools.contract.yaml", 7, 3, "/tools/get_wether",
         "overlay entry 'get_wether' names no tool in tools.json (did you mean 'get_weather'?)")
    ]


def test_the_orphan_fixture(runner):
    result = cli(runner, ORPHAN, "--format", "text")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{ORPHAN / 'tools.contract.yaml'}:9:3: error TC002 overlay entry 'get_wether' names no tool in tools.json "
        "(did you mean 'get_weather'?)",
        "by rule: TC002 descriptor-structure 1",
        "2 files, 1 tool: 1 error, 0 warnings, 0 info",
    ]


@pytest.mark.parametrize(
    "field, message",
    [
        ("description: Better words.", "'description' is the provider file's own: an overlay adds contract fields only"),
        ("inputSchema: {type: object}", "'inputSchema' is the provider file's own"),
        ("annotations: {readOnlyHint: true}", "'annotations' is the provider file's own"),
        ("efect: read", "unknown field 'efect' (did you mean 'effect'?)"),
        ("nongoals: [x]", "unknown field 'nongoals' (did you mean 'non_goals'?)"),
    ],
)
def test_fields_an_overlay_may_not_give_are_reported_where_they_are(field, message):
    overlay = OVERLAY + f"    {field}\n"
    result = lint_pair(overlay=overlay, select=("TC002",))
    assert [(f.path, f.line, f.column) for f in result.findings] == [("tools.contract.yaml", 7, 5)]
    assert result.findings[0].message.startswith(message)
    assert result.tool_views[0].data.get("description", "").startswith("Report")


def test_a_field_the_provider_already_gives_cannot_be_given_again():
    anthropic = json.dumps([{"name": "get_weather", "input_schema": {"type": "object"},
                             "input_examples": [{}]}], indent=2)
    overlay = OVERLAY + "    examples:\n      - {}\n"
    result = lint_pair(provider=anthropic, overlay=overlay, select=("TC002",))
    assert [(f.path, f.pointer, f.message) for f in result.findings] == [
        ("tools.contract.yaml", "/tools/get_weather/examples",
         "tool 'get_weather' already gives `input_examples` in tools.json: an overlay cannot replace it")
    ]
    assert result.tool_views[0].data["examples"] == [{}]


@pytest.mark.parametrize(
    "overlay, pointer, message",
    [
        (OVERLAY.replace("non_goals: [Does not forecast.]", "non_goals: Does not forecast."),
         "/tools/get_weather/non_goals", '"Does not forecast." is not of type "array"'),
        (OVERLAY.replace("toolcontract: 1", "toolcontract: 2"), "/toolcontract",
         "`toolcontract` must be 1 (the format version), found 2"),
        (OVERLAY + "owner: me\n", "/owner", "unknown field 'owner'"),
        ("toolcontract: 1\noverlay: tools.json\ntools: [get_weather]\n", "/tools",
         "`tools` must map tool names to their contract fields"),
        (OVERLAY + "overlay: tools.txt\n", "/overlay", "`overlay` must name a .json, .yaml or .yml file"),
        (OVERLAY + "overlay: other.json\n", "/overlay", "this overlay names 'other.json' but was applied to 'tools.json'"),
    ],
    ids=["non_goals a string", "toolcontract 2", "unknown top-level field", "tools a list", "overlay not a tool file",
         "overlay names another file"],
)
def test_overlay_structure_findings(overlay, pointer, message):
    result = lint_pair(overlay=overlay, select=("TC002",))
    assert [f.pointer for f in result.findings] == [pointer]
    assert result.findings[0].message.startswith(message), result.findings[0].message
    assert result.findings[0].path == "tools.contract.yaml"


def test_an_overlay_that_does_not_parse_is_tc000_and_the_provider_is_still_linted():
    result = lint_pair(MCP_NO_HINTS, overlay="toolcontract: 1\ntools: {get_weather: [\n")
    rules = {(f.rule, f.path) for f in result.findings}
    assert ("TC000", "tools.contract.yaml") in rules
    assert ("TC418", "tools.json") in rules  # get_weather without readOnlyHint
    assert result.tools == 1


def test_repeated_keys_in_an_overlay_are_tc001():
    result = lint_pair(overlay=OVERLAY + "    effect: pure\n", select=("TC001",))
    assert [(f.rule, f.path, f.line) for f in result.findings] == [("TC001", "tools.contract.yaml", 7)]


def test_an_overlay_for_a_native_file_is_refused():
    native = "toolcontract: 1\nname: get_weather\neffect: read\n"
    result = lint_pair(provider=native, provider_path="tools.yaml", select=("TC002",))
    assert [(f.path, f.pointer) for f in result.findings] == [("tools.contract.yaml", "")]
    assert "is a native descriptor file" in result.findings[0].message
    assert "version" not in result.tool_views[0].data


def test_an_overlay_also_given_as_a_file_is_linted_once():
    result = lint_files([("tools.json", MCP.encode()), ("tools.contract.yaml", OVERLAY.encode())],
                        overlays={"tools.json": ("tools.contract.yaml", OVERLAY.encode())})
    assert not result.findings and result.files == 2 and result.tools == 1


# ---------------------------------------------------------- on its own


def test_an_overlay_is_recognised_and_never_linted_as_a_descriptor():
    document = load_text(OVERLAY, "tools.contract.yaml")
    assert is_overlay(document.data, "tools.contract.yaml")
    result = read_tools(document)
    assert (result.format, result.tools) == ("overlay", [])


def test_tools_as_a_mapping_elsewhere_is_a_native_mistake_not_an_overlay():
    result = lint_files([("weather.yaml", OVERLAY.encode())], Selection(select=("TC002",)))
    assert [f.pointer for f in result.findings] == ["/tools"]
    assert "overlay" not in result.findings[0].message


def test_an_overlay_without_its_provider_file_is_one_finding(tmp_path, runner):
    overlay = tmp_path / "tools.contract.yaml"
    overlay.write_text(OVERLAY)
    result = cli(runner, overlay, "--format", "json")
    assert result.exit_code == 1
    findings = json.loads(result.stdout)["findings"]
    assert [(f["rule"], f["line"], f["pointer"]) for f in findings] == [("TC002", 1, "")]
    assert findings[0]["message"] == ("contract overlay without its provider file: 'tools.json' or 'tools.yaml' or "
                                      "'tools.yml' is not there, and an overlay is linted together with the tool "
                                      "list it applies to")


def test_an_overlay_naming_an_absent_provider_is_one_finding_at_overlay(tmp_path, runner):
    overlay = tmp_path / "weather.contract.yaml"
    overlay.write_text(OVERLAY.replace("tools:\n", "overlay: api/tools.json\ntools:\n"))
    result = cli(runner, overlay, "--format", "json")
    findings = json.loads(result.stdout)["findings"]
    assert [(f["rule"], f["line"], f["pointer"]) for f in findings] == [("TC002", 2, "/overlay")]
    assert "'tools.json' is not there" in findings[0]["message"]


def test_an_overlay_may_not_climb_out_of_its_folder(tmp_path, runner):
    (tmp_path / "tools.json").write_text(MCP)
    sub = tmp_path / "contracts"
    sub.mkdir()
    overlay = sub / "tools.contract.yaml"
    overlay.write_text(OVERLAY.replace("tools:\n", "overlay: ../tools.json\ntools:\n"))
    result = cli(runner, overlay, "--format", "json")
    findings = json.loads(result.stdout)["findings"]
    assert [(f["rule"], f["pointer"]) for f in findings] == [("TC002", "/overlay")]
    assert "without `..`" in findings[0]["message"]


# ------------------------------------------------------------------ CLI


@pytest.fixture
def pair_dir(tmp_path):
    (tmp_path / "tools.json").write_text(MCP)
    (tmp_path / "tools.contract.yaml").write_text(OVERLAY)
    return tmp_path


def test_cli_finds_the_overlay_next_to_a_named_provider_file(runner, pair_dir):
    result = cli(runner, pair_dir / "tools.json", "--format", "text")
    assert result.stdout == "2 files, 1 tool: 0 errors, 0 warnings, 0 info\n"
    assert result.exit_code == 0


def test_cli_pairs_overlay_and_provider_found_in_a_folder(runner, pair_dir):
    result = cli(runner, pair_dir, "--format", "text")
    assert (result.exit_code, result.stdout) == (0, "2 files, 1 tool: 0 errors, 0 warnings, 0 info\n")


def test_cli_lints_the_provider_of_a_named_overlay(runner, pair_dir):
    (pair_dir / "tools.contract.yaml").write_text(OVERLAY.replace("effect: read", "effect: wrote"))
    result = cli(runner, pair_dir / "tools.contract.yaml", "--format", "text")
    lines = result.stdout.splitlines()
    assert lines[0] == (f"{pair_dir / 'tools.contract.yaml'}:6:13: error TC301 [get_weather] effect 'wrote' is not one "
                        "of pure, read, reversible_write, irreversible_write, open_world")
    assert lines[-1] == "2 files, 1 tool: 1 error, 0 warnings, 0 info"


def test_cli_without_the_overlay_judges_the_tool_by_what_mcp_can_hold(runner, pair_dir):
    (pair_dir / "tools.contract.yaml").unlink()
    # readOnlyHint gives the effect class; version and non-goals are asked for only with an overlay
    result = cli(runner, pair_dir, "--format", "text")
    assert (result.exit_code, result.stdout) == (0, "1 file, 1 tool: 0 errors, 0 warnings, 0 info\n")
    (pair_dir / "tools.json").write_text(MCP_NO_HINTS)
    result = cli(runner, pair_dir, "--format", "text")
    assert result.exit_code == 0
    # `get_weather` reads as a read: TC418 names the hint to set (TC301 stays quiet: one fix, one finding)
    (read_hint,) = result.stdout.splitlines()[:-2]
    assert result.stdout.splitlines()[-2] == "by rule: TC418 read-tool-not-read-only 1"
    assert " warning TC418 [get_weather] " in read_hint and "readOnlyHint: true" in read_hint
    (pair_dir / "tools.json").write_text(MCP_NO_HINTS.replace('"get_weather"', '"weather_alert_subscribe"'))
    result = cli(runner, pair_dir, "--format", "text")
    (line,) = result.stdout.splitlines()[:-2]
    assert " warning TC301 [weather_alert_subscribe] " in line and "annotations.readOnlyHint" in line
    assert "tools.contract.yaml" in line


def test_contracts_required_asks_every_provider_tool_for_the_whole_contract(pair_dir):
    (pair_dir / "tools.contract.yaml").unlink()
    path = pair_dir / "tools.json"
    result = lint_files([(str(path), path.read_bytes())], Selection(contracts_required=True))
    assert {(f.rule, f.severity.label) for f in result.findings} == {("TC103", "warning"), ("TC202", "warning")}
    path.write_text(MCP_NO_HINTS)
    result = lint_files([(str(path), path.read_bytes())], Selection(contracts_required=True))
    assert {(f.rule, f.severity.label) for f in result.findings} == {
        ("TC103", "warning"), ("TC202", "warning"), ("TC301", "error"), ("TC418", "warning")}


def test_an_overlay_entry_holds_its_tool_to_the_contract_fields_as_warnings_at_most():
    overlay = "toolcontract: 1\ntools:\n  get_weather:\n    effect: irreversible_write\n"
    result = lint_pair(MCP.replace('{"readOnlyHint": true}', '{"readOnlyHint": false}'), overlay=overlay)
    found = {(f.rule, f.severity.label) for f in result.findings}
    # non-goals are an error for an irreversible write in a native descriptor; on an overlay entry a warning
    assert {("TC103", "warning"), ("TC202", "warning"), ("TC304", "warning"), ("TC305", "warning")} <= found


def test_cli_follows_overlay_key_to_another_name(runner, tmp_path):
    (tmp_path / "api.json").write_text(MCP)
    (tmp_path / "weather.contract.yaml").write_text(OVERLAY.replace("tools:\n", "overlay: api.json\ntools:\n"))
    result = cli(runner, tmp_path, "--format", "text")
    assert (result.exit_code, result.stdout) == (0, "2 files, 1 tool: 0 errors, 0 warnings, 0 info\n")


def test_a_sibling_overlay_naming_another_file_is_not_applied(runner, tmp_path):
    (tmp_path / "tools.json").write_text(MCP_NO_HINTS)
    (tmp_path / "tools.contract.yaml").write_text(OVERLAY.replace("tools:\n", "overlay: other.json\ntools:\n"))
    result = cli(runner, tmp_path / "tools.json", "--format", "text")
    assert "TC418" in result.stdout  # get_weather without hints: no overlay applies
    assert result.stdout.endswith("1 file, 1 tool: 0 errors, 1 warning, 0 info\n")


def test_cli_good_provider_fixtures_lint_clean_with_their_overlays(runner):
    result = cli(runner, GOOD, "--format", "text")
    assert (result.exit_code, result.stdout) == (0, "10 files, 10 tools: 0 errors, 0 warnings, 0 info\n")


@pytest.mark.parametrize("path", sorted(GOOD.glob("*.json")), ids=lambda p: p.name)
def test_each_good_provider_fixture_is_clean_with_its_overlay(runner, path):
    result = cli(runner, path, "--format", "text")
    assert (result.exit_code, result.stdout) == (0, "2 files, 2 tools: 0 errors, 0 warnings, 0 info\n")
    assert (path.parent / (path.stem + ".contract.yaml")).is_file()


@pytest.mark.parametrize("path", sorted(GOOD.glob("*.json")), ids=lambda p: p.name)
def test_each_good_provider_fixture_lacks_only_its_effect_class_on_its_own(tmp_path, path):
    result = lint_files([(path.name, path.read_bytes())])
    # MCP hints give the effect class; the formats that cannot hold one get an `info` naming the overlay
    expected = set() if path.name == "mcp.json" else {("TC301", "info")}
    assert {(f.rule, f.severity.label) for f in result.findings} == expected
    assert all("contract.yaml" in f.message for f in result.findings)
    assert result.tools == 2


def test_overlay_fixtures_name_the_overlay_schema_for_editors():
    for path in [*GOOD.glob("*.contract.yaml"), *ORPHAN.glob("*.contract.yaml")]:
        assert path.read_text("utf-8").splitlines()[0] == "# yaml-language-server: $schema=../../../schemas/overlay.schema.json"


# ------------------------------------------------------------- pairing


def test_pairing_keeps_native_files_and_stdin_untouched(tmp_path):
    native = tmp_path / "a.yaml"
    native.write_text("toolcontract: 1\nname: a\n")
    files = [(str(native), native.read_bytes()), ("<stdin>", b"{}")]
    assert pair_overlays(files) == (files, {})


def test_pairing_with_explicit_names_comes_first(tmp_path):
    (tmp_path / "api.json").write_text(MCP)
    (tmp_path / "contracts.yaml").write_text(OVERLAY)
    files = [(str(tmp_path / "api.json"), MCP.encode())]
    kept, overlays = pair_overlays(files, named={str(tmp_path / "api.json"): str(tmp_path / "contracts.yaml")})
    assert kept == files
    assert overlays == {str(tmp_path / "api.json"): (str(tmp_path / "contracts.yaml"), OVERLAY.encode())}
    result = lint_files(kept, overlays=overlays)
    assert not result.findings


def test_pairing_a_named_overlay_in_the_set_pulls_in_its_provider(tmp_path):
    (tmp_path / "tools.json").write_text(MCP)
    (tmp_path / "tools.contract.yaml").write_text(OVERLAY)
    overlay = str(tmp_path / "tools.contract.yaml")
    kept, overlays = pair_overlays([(overlay, OVERLAY.encode())])
    provider = str(tmp_path / "tools.json")
    assert kept == [(provider, MCP.encode())]
    assert overlays == {provider: (overlay, OVERLAY.encode())}


def test_an_oversized_sibling_overlay_is_a_load_finding(tmp_path):
    from toolcontract.io.document import Limits

    (tmp_path / "tools.json").write_text(MCP)
    (tmp_path / "tools.contract.yaml").write_text(OVERLAY + "# " + "x" * 400 + "\n")
    limits = Limits(max_bytes=len(MCP) + 10)
    kept, overlays = pair_overlays([(str(tmp_path / "tools.json"), MCP.encode())], limits)
    result = lint_files(kept, limits=limits, overlays=overlays)
    assert [(f.rule, f.path) for f in result.findings if f.rule == "TC000"] == [
        ("TC000", str(tmp_path / "tools.contract.yaml"))
    ]


# ------------------------------------------------------------- schema


def test_overlay_schema_is_valid_and_shares_the_descriptor_field_definitions():
    import jsonschema

    overlay = json.loads((SCHEMAS / "overlay.schema.json").read_text("utf-8"))
    descriptor = json.loads((SCHEMAS / "descriptor.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(overlay)
    assert overlay["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    entry = overlay["$defs"]["entry"]["properties"]
    assert tuple(entry) == OVERLAY_FIELDS + OVERLAY_ONLY  # issue 17: `ignore`, an overlay's own
    for field, definition in entry.items():
        if field in OVERLAY_ONLY:
            continue
        assert definition == descriptor["$defs"]["descriptor"]["properties"][field], field
    for name in ("text", "textList", "pointer", "schemaObject", "formatVersion"):
        assert overlay["$defs"][name] == descriptor["$defs"][name], name


def test_fixture_overlays_validate_against_the_published_schema():
    import jsonschema
    import referencing

    schema = json.loads((SCHEMAS / "overlay.schema.json").read_text("utf-8"))
    validator = jsonschema.Draft202012Validator(schema, registry=referencing.Registry())
    for path in [*GOOD.glob("*.contract.yaml"), *ORPHAN.glob("*.contract.yaml")]:
        data = load_bytes(path.read_bytes(), str(path)).data
        assert not [e.message for e in validator.iter_errors(data)], path
