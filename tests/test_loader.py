"""The loader: positions for every key and value, duplicate keys, YAML 1.2 core
scalars, limits, hostile input. Everything bad is a LoadError with a position."""

from __future__ import annotations

import json
import math
import time

import pytest

from conftest import lint, rules_hit
from toolcontract.io.document import DEFAULT_LIMITS, Limits, LoadError, load_bytes, load_text
from toolcontract.core.pointer import escape_token, join_pointer, resolve_pointer, split_pointer

YAML_DOC = """\
toolcontract: 1
name: weather_current
input_schema:
  type: object
  properties:
    place: {type: string, description: Place name.}
    "a/b": {type: string}
    "m~n": {type: integer}
examples:
  - {place: Lyon}
  - place: Paris
"""

JSON_DOC = """\
{
  "toolcontract": 1,
  "name": "weather_current",
  "input_schema": {
    "type": "object",
    "properties": {"place": {"type": "string"}, "a/b": {"type": "string"}, "m~n": {"type": "integer"}}
  },
  "examples": [{"place": "Lyon"}, {"place": "Par\\u00eds"}],
  "x-note": "é \\"quoted\\" [1, 2]"
}
"""


def _at(text: str, position: tuple[int, int]) -> str:
    line, column = position
    return text.splitlines()[line - 1][column - 1 :]


# ------------------------------------------------------------------ positions


@pytest.mark.parametrize(
    ("pointer", "anchor", "expected"),
    [
        ("/name", "value", (2, 7)),
        ("/name", "key", (2, 1)),
        ("/name", "auto", (2, 7)),  # a scalar: its value
        ("/input_schema", "auto", (3, 1)),  # an object member: its key
        ("/input_schema", "value", (4, 3)),  # a block mapping starts at its first key
        ("/input_schema/properties/place", "key", (6, 5)),
        ("/input_schema/properties/place", "value", (6, 12)),
        ("/input_schema/properties/place/description", "value", (6, 40)),
        ("/input_schema/properties/a~1b", "key", (7, 5)),
        ("/input_schema/properties/m~0n/type", "value", (8, 19)),
        ("/examples", "key", (9, 1)),
        ("/examples/0", "value", (10, 5)),
        ("/examples/0/place", "value", (10, 13)),
        ("/examples/1/place", "key", (11, 5)),
        ("/examples/1/place", "value", (11, 12)),
        ("", "auto", (1, 1)),
    ],
)
def test_yaml_positions(pointer, anchor, expected):
    document = load_text(YAML_DOC, "weather.yaml")
    assert document.locate(pointer, anchor) == expected


def test_yaml_positions_point_at_the_text():
    document = load_text(YAML_DOC, "weather.yaml")
    assert _at(YAML_DOC, document.locate("/input_schema/properties/place/description", "value")) == "Place name.}"
    assert _at(YAML_DOC, document.locate("/input_schema/properties/a~1b", "key")).startswith('"a/b"')
    assert _at(YAML_DOC, document.locate("/input_schema/properties/m~0n", "key")).startswith('"m~n"')


@pytest.mark.parametrize(
    ("pointer", "anchor", "expected_text"),
    [
        ("/name", "value", '"weather_current"'),
        ("/name", "key", '"name"'),
        ("/input_schema", "key", '"input_schema"'),
        ("/input_schema", "value", "{"),
        ("/input_schema/properties/place/type", "value", '"string"'),
        ("/input_schema/properties/a~1b", "key", '"a/b"'),
        ("/input_schema/properties/m~0n", "key", '"m~n"'),
        ("/input_schema/properties/m~0n/type", "value", '"integer"'),
        ("/examples/1", "value", '{"place": "Par'),
        ("/examples/1/place", "value", '"Par\\u00eds"'),
        ("/x-note", "value", '"é \\"quoted\\" [1, 2]"'),
        ("/toolcontract", "value", "1,"),
    ],
)
def test_json_positions(pointer, anchor, expected_text):
    document = load_text(JSON_DOC, "weather.json")
    assert _at(JSON_DOC, document.locate(pointer, anchor)).startswith(expected_text)


def test_json_positions_count_characters_not_bytes():
    text = '{"é": "ü", "k": [1, "x"]}'
    document = load_text(text, "t.json")
    assert document.locate("/k/1", "value") == (1, 21)
    assert text[20] == '"'


def test_json_positions_across_lines():
    text = '[\n  1,\n  {\n    "a": [\n      true\n    ]\n  }\n]\n'
    document = load_text(text, "t.json")
    assert document.locate("/1/a/0", "value") == (5, 7)
    assert document.locate("/1/a", "key") == (4, 5)


def test_missing_member_falls_back_to_nearest_ancestor():
    document = load_text(YAML_DOC, "weather.yaml")
    assert document.locate("/input_schema/required", "value") == document.locate("/input_schema", "value")
    assert document.locate("/nope/deeper", "key") == (1, 1)


def test_positions_through_an_alias_fall_back_to_the_alias():
    document = load_text("base: &b {type: string}\nother: *b\n", "t.yaml")
    assert document.data["other"] == {"type": "string"}
    assert document.locate("/other/type", "value") == (2, 8)


def test_line_text():
    document = load_text(YAML_DOC, "weather.yaml")
    assert document.line_text(2) == "name: weather_current"
    assert document.line_text(0) == "" and document.line_text(999) == ""


# ------------------------------------------------------------ pointer escaping


@pytest.mark.parametrize(("token", "escaped"), [("a/b", "a~1b"), ("m~n", "m~0n"), ("~1", "~01"), ("/~", "~1~0"), (3, "3")])
def test_pointer_tokens_escape_and_round_trip(token, escaped):
    assert escape_token(token) == escaped
    assert list(split_pointer(join_pointer("", token))) == [str(token)]


def test_pointer_helpers():
    data = {"a/b": {"m~n": [10, 20]}, "": {"x": 1}}
    assert join_pointer("/root", "a/b", "m~n", 1) == "/root/a~1b/m~0n/1"
    assert resolve_pointer(data, "/a~1b/m~0n/1") == (True, 20)
    assert resolve_pointer(data, "//x") == (True, 1)
    assert resolve_pointer(data, "/a~1b/m~0n/2") == (False, None)
    assert resolve_pointer(data, "/a~1b/m~0n/-") == (False, None)
    assert list(split_pointer("")) == []
    assert list(split_pointer("/~01")) == ["~1"]  # ~01 is "~" then "1", never "/"


@pytest.mark.parametrize("path", ["t.yaml", "t.json"])
def test_escaped_keys_are_located(path):
    data = {"props": {"a/b": 1, "m~n": 2, "~1": 3}}
    text = json.dumps(data, indent=1) if path.endswith(".json") else "props:\n  a/b: 1\n  m~n: 2\n  ~1: 3\n"
    document = load_text(text, path)
    assert document.data == data
    for key, line in (("a/b", 3), ("m~n", 4), ("~1", 5)):
        position = document.locate(join_pointer("/props", key), "key")
        assert position[0] == (line if path.endswith(".json") else line - 1)
        assert key in _at(text, position)


# -------------------------------------------------------------- duplicate keys


def test_yaml_duplicate_keys_with_positions():
    document = load_text("a: 1\nb:\n  c: 1\n  c: 2\na: 3\n", "t.yaml")
    assert document.data == {"a": 3, "b": {"c": 2}}  # last one wins, as PyYAML
    found = {(d.pointer, d.key, d.line, d.column, d.first_line, d.first_column) for d in document.duplicates}
    assert found == {("/b/c", "c", 4, 3, 3, 3), ("/a", "a", 5, 1, 1, 1)}


def test_yaml_flow_duplicate_key():
    document = load_text("{a: 1, a: 2}", "t.yaml")
    (dup,) = document.duplicates
    assert (dup.line, dup.column, dup.first_column) == (1, 8, 2)


def test_json_duplicate_keys_with_positions():
    document = load_text('{\n  "a": 1,\n  "n": {"k": 1, "k": 2},\n  "a": 3\n}\n', "t.json")
    assert document.data == {"a": 3, "n": {"k": 2}}
    found = {(d.pointer, d.line, d.column, d.first_line, d.first_column) for d in document.duplicates}
    assert found == {("/n/k", 3, 17, 3, 9), ("/a", 4, 3, 2, 3)}


def test_duplicate_key_lints_as_tc001_at_the_repeated_key():
    result = lint("toolcontract: 1\nname: weather_current\neffect: read\neffect: open_world\n", select=("TC001",))
    (finding,) = result.findings
    assert (finding.rule, finding.line, finding.column, finding.pointer) == ("TC001", 4, 1, "/effect")
    assert "line 3" in finding.message


def test_same_key_in_different_mappings_is_not_a_duplicate():
    document = load_text("a: {x: 1}\nb: {x: 2}\nc: [{x: 1}, {x: 2}]\n", "t.yaml")
    assert document.duplicates == []


# -------------------------------------------------------- YAML 1.2 core schema


@pytest.mark.parametrize(
    ("scalar", "value"),
    [
        ("no", "no"), ("yes", "yes"), ("on", "on"), ("off", "off"), ("y", "y"), ("NO", "NO"),
        ("1.2.0", "1.2.0"), ("2001-12-14", "2001-12-14"), ("1_000", "1_000"), ("12:30", "12:30"),
        ("0x1F", 31), ("0o17", 15), ("012", 12), ("-7", -7), ("+3", 3),
        ("1.5", 1.5), ("1e3", 1000.0), ("-.5", -0.5), (".inf", math.inf), ("-.INF", -math.inf),
        ("true", True), ("False", False), ("TRUE", True),
        ("null", None), ("~", None), ("", None),
        ('"7"', "7"), ("'1.5'", "1.5"), ('"true"', "true"), ("'null'", "null"), ('"0x1F"', "0x1F"),
        ("!!str 5", "5"), ("!!int '7'", 7), ("!!float 1", 1.0), ("!!bool true", True), ("!!null ''", None),
    ],
)
def test_yaml_core_schema_scalars(scalar, value):
    data = load_text(f"v: {scalar}\n", "t.yaml").data
    assert data["v"] == value and type(data["v"]) is type(value)


def test_yaml_nan():
    assert math.isnan(load_text("v: .nan\n", "t.yaml").data["v"])


def test_quoted_version_is_semver_but_unquoted_float_is_not():
    assert load_text("version: 1.2\n", "t.yaml").data["version"] == 1.2
    assert load_text('version: "1.2"\n', "t.yaml").data["version"] == "1.2"
    assert load_text("version: 1.2.0\n", "t.yaml").data["version"] == "1.2.0"


def test_yaml_merge_key_is_a_plain_key():
    # `<<` is YAML 1.1 only; under the 1.2 core schema it is an ordinary string key
    assert load_text("<<: {a: 1}\n", "t.yaml").data == {"<<": {"a": 1}}


# --------------------------------------------------------------------- limits


def test_file_size_limit():
    limits = Limits(max_bytes=100)
    load_bytes(b"a: " + b"x" * 97, "t.yaml", limits)
    with pytest.raises(LoadError, match="over the 100-byte limit"):
        load_bytes(b"a: " + b"x" * 98, "t.yaml", limits)


def test_default_size_limit_is_5_mib():
    assert DEFAULT_LIMITS.max_bytes == 5 * 1024 * 1024
    raw = b"a: " + b"x" * (5 * 1024 * 1024)
    with pytest.raises(LoadError) as info:
        load_bytes(raw, "big.yaml")
    assert (info.value.line, info.value.column) == (1, 1)


def test_oversized_file_is_tc000():
    result = lint_bytes_with_limits(b"a: " + b"x" * 200, Limits(max_bytes=100))
    assert [f.rule for f in result.findings] == ["TC000"]


def lint_bytes_with_limits(raw: bytes, limits: Limits):
    from toolcontract.lint.engine import lint_files

    return lint_files([("big.yaml", raw)], limits=limits)


@pytest.mark.parametrize("path", ["t.yaml", "t.json"])
def test_depth_64_is_allowed_65_is_not(path):
    assert DEFAULT_LIMITS.max_depth == 64
    load_text("[" * 64 + "]" * 64, path)
    with pytest.raises(LoadError, match="deeper than 64") as info:
        load_text("[" * 65 + "]" * 65, path)
    assert info.value.line == 1 and info.value.column == 65


def test_yaml_block_nesting_limit_has_the_position():
    text = "".join("  " * i + f"k{i}:\n" for i in range(70)) + "  " * 70 + "leaf\n"
    with pytest.raises(LoadError, match="deeper than 64") as info:
        load_text(text, "t.yaml")
    assert info.value.line == 65


@pytest.mark.parametrize("path", ["t.yaml", "t.json"])
def test_very_deep_nesting_is_an_error_not_a_crash(path):
    started = time.perf_counter()
    with pytest.raises(LoadError):
        load_text("[" * 200_000 + "]" * 200_000, path)
    assert time.perf_counter() - started < 5


def test_custom_depth_limit():
    with pytest.raises(LoadError):
        load_text("a: {b: {c: 1}}\n", "t.yaml", Limits(max_depth=2))
    assert load_text("a: {b: 1}\n", "t.yaml", Limits(max_depth=2)).data == {"a": {"b": 1}}


BILLION_LAUGHS = "".join(
    [
        'a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n',
        *(f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi")),
    ]
)


def test_alias_bomb_fails_fast_at_the_alias():
    started = time.perf_counter()
    with pytest.raises(LoadError, match="alias") as info:
        load_text(BILLION_LAUGHS, "bomb.yaml")
    assert time.perf_counter() - started < 1
    # the first alias that crosses 10,000 expanded nodes: the first `*d` on line 5
    assert (info.value.line, info.value.column) == (5, 8)
    assert BILLION_LAUGHS.splitlines()[info.value.line - 1][info.value.column - 1 :].startswith("*d")


def test_alias_bomb_lints_as_tc000():
    started = time.perf_counter()
    result = lint(BILLION_LAUGHS, "bomb.yaml")
    assert time.perf_counter() - started < 2
    assert [(f.rule, f.line) for f in result.findings] == [("TC000", 5)]


def test_aliases_under_the_limit_expand():
    data = load_text("base: &b {type: string}\nx: *b\ny: *b\n", "t.yaml").data
    assert data["x"] == data["y"] == {"type": "string"}


def test_alias_limit_is_configurable():
    text = "a: &a [1, 2, 3]\nb: [*a, *a]\n"
    assert load_text(text, "t.yaml", Limits(max_alias_nodes=20)).data["b"] == [[1, 2, 3], [1, 2, 3]]
    with pytest.raises(LoadError, match="over 4 nodes") as info:
        load_text(text, "t.yaml", Limits(max_alias_nodes=4))
    assert (info.value.line, info.value.column) == (2, 9)  # the second alias crosses the limit


@pytest.mark.parametrize("text", ["a: &a [*a]\n", "a: &a {b: *a}\n", "&r\n- x\n- *r\n"])
def test_recursive_alias(text):
    with pytest.raises(LoadError, match="recursive alias"):
        load_text(text, "t.yaml")


def test_undefined_alias():
    with pytest.raises(LoadError, match="no anchor") as info:
        load_text("a: 1\nb: *nope\n", "t.yaml")
    assert (info.value.line, info.value.column) == (2, 4)


# ------------------------------------------------------------ hostile content


@pytest.mark.parametrize(
    "text",
    [
        "name: !!python/object:os.system x\n",
        "name: !!python/object/apply:os.system [echo hi]\n",
        "name: !!python/name:os.system ''\n",
        "name: !!binary aGk=\n",
        "name: !!timestamp 2001-12-14\n",
        "name: !!set {a}\n",
        "name: !custom x\n",
        "name: !<tag:example.com,2000:x> y\n",
    ],
)
def test_unsupported_tags_are_refused_at_the_tag(text):
    with pytest.raises(LoadError, match="unsupported YAML tag") as info:
        load_text(text, "t.yaml")
    assert (info.value.line, info.value.column) == (1, 7)


def test_invalid_core_tag_value():
    with pytest.raises(LoadError, match="not a valid !!int"):
        load_text("a: !!int abc\n", "t.yaml")


def test_multiple_documents():
    with pytest.raises(LoadError, match="more than one YAML document") as info:
        load_text("name: a\n---\nname: b\n", "t.yaml")
    assert info.value.line == 2


def test_one_explicit_document_is_fine():
    assert load_text("---\nname: a\n...\n", "t.yaml").data == {"name": "a"}


def test_collection_keys_are_refused():
    with pytest.raises(LoadError, match="mapping keys"):
        load_text("? [a, b]\n: c\n", "t.yaml")


@pytest.mark.parametrize("path", ["t.yaml", "t.json"])
def test_invalid_utf8(path):
    with pytest.raises(LoadError, match="invalid UTF-8") as info:
        load_bytes(b'{"a": 1,\n "b": "x\xff"}', path)
    assert (info.value.line, info.value.column) == (2, 9)


@pytest.mark.parametrize(("raw", "path"), [(b"\xef\xbb\xbfname: a\n", "t.yaml"), (b'\xef\xbb\xbf{"name": "a"}', "t.json")])
def test_utf8_bom_is_accepted(raw, path):
    document = load_bytes(raw, path)
    assert document.data == {"name": "a"}
    assert document.locate("/name", "key") == (1, 1 if path.endswith("yaml") else 2)


@pytest.mark.parametrize("codec", ["utf-16", "utf-32"])
def test_utf16_and_utf32_with_bom(codec):
    assert load_bytes("name: a\n".encode(codec), "t.yaml").data == {"name": "a"}


@pytest.mark.parametrize(("raw", "path"), [(b"name: a\x00b\n", "t.yaml"), (b'{"name": "a\x00b"}', "t.json"),
                                           (b'name: "a\x00"\n', "t.yaml"), (b"\x00", "t.yaml")])
def test_nul_bytes(raw, path):
    with pytest.raises(LoadError) as info:
        load_bytes(raw, path)
    assert info.value.line == 1 and info.value.column >= 1


def test_nul_escape_in_json_string_is_data():
    assert load_bytes(b'{"name": "a\\u0000b"}', "t.json").data == {"name": "a\x00b"}


@pytest.mark.parametrize("text", ["", "\n", "   \n# only a comment\n"])
def test_empty_yaml_is_null(text):
    assert load_text(text, "t.yaml").data is None


def test_empty_yaml_lints_as_a_structure_finding_not_a_crash():
    result = lint("", "empty.yaml")
    assert rules_hit(result) == {"TC002"}
    assert result.findings[0].line == 1


def test_empty_json_is_a_load_error():
    with pytest.raises(LoadError, match="JSON"):
        load_text("", "t.json")


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [('{"a": 1,}', 1, 9), ('{"a": 1} {"b": 2}', 1, 10), ('{\n  "a": tru\n}', 2, 8), ('[1, 2', 1, 6)],
)
def test_json_syntax_errors_have_positions(text, line, column):
    with pytest.raises(LoadError) as info:
        load_text(text, "t.json")
    assert (info.value.line, info.value.column) == (line, column)


@pytest.mark.parametrize(
    ("text", "line"),
    [("name: [a\nb: 1\n", 2), ("a: b: c\n", 1), ("a:\n\tb: 1\n", 2), ('a: "unterminated\n', 2)],
)
def test_yaml_syntax_errors_have_positions(text, line):
    with pytest.raises(LoadError, match="YAML") as info:
        load_text(text, "t.yaml")
    assert info.value.line == line


def test_load_error_str_has_the_position():
    assert str(LoadError("bad", 3, 4)) == "3:4: bad"


@pytest.mark.parametrize(("path", "text", "kind"), [("x.txt", '{"a": 1}', "json"), ("x.txt", "a: 1", "yaml"),
                                                    ("x.yml", '{"a": 1}', "yaml"), ("X.JSON", '{"a": 1}', "json")])
def test_format_detection(path, text, kind):
    document = load_text(text, path)
    assert document.data == {"a": 1}
    # JSON positions are computed on demand; YAML ones while reading, those below the root's
    # members (after the fast reader's shallow read) on demand too
    assert (document._values is None and document._partial is None) == (kind == "json")
    assert document.locate("/a") == ((1, 4) if text == "a: 1" else (1, 7))


# ------------------------------------------------------ source lines for reporters


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('{"toolcontract": 1,\n "description": "a\u2028b\u2029c\x85d\\r",\n "name": "Bad.Name"}\n', "t.json"),
        ('{"toolcontract": 1,\r\n "description": "a\u2028b",\r\n "name": "Bad.Name"}\r\n', "t.json"),
        ('toolcontract: 1\ndescription: "a\u2028b"\nname: Bad.Name\n', "t.yaml"),
        ("toolcontract: 1\r\ndescription: x\r\nname: Bad.Name\r\n", "t.yaml"),
    ],
)
def test_line_text_is_the_line_the_position_counts(text, path):
    """Reporters show line_text(finding.line): it must split where the parser counts lines."""
    document = load_text(text, path)
    line, column = document.locate("/name", "value")
    shown = document.line_text(line)
    assert shown[column - 1 :].lstrip('"').startswith("Bad.Name"), (line, column, shown)
    assert not shown.endswith("\r")
