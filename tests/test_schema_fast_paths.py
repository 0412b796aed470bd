"""The shortcuts the TC4xx rules take must give the answers of the slow paths they skip.

- schema_tools.accepts (TC406 checks examples by hand instead of compiling the schema): when it
  says "valid", the compiled validator says so too; and TC406's hits with the shortcut are the
  hits without it.
- the merged 2020-12 metaschema (is_valid_schema) is the published one, and accepts and refuses
  the same schemas.
- the walk's marks, lazily built index and declared properties, and the per-tool field list, are
  what a plain scan of the nodes finds.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import corpus_dir, examples
from toolcontract.core.descriptor import ToolView
from toolcontract.lint import schema_walk
from toolcontract.lint.context import context
from toolcontract.lint.rules.tc4_schema import properties, tc406_example_invalid
from toolcontract.core.schema.validation import (
    _META_FLAT,
    _flat_meta_validator,
    _meta_validator,
    accepts,
    compile_validator,
    instance_errors,
    is_valid_schema,
    linear_pattern,
)

# ------------------------------------------------------------------ strategies

NAMES = st.sampled_from(["a", "b", "c", "d"])
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([2**53 - 1, 2**53, 2**60, -(2**64), 2**70]),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.0, -0.0, 1.0, 2.5, 1e300]),
    st.sampled_from(["", "a", "ab", "abc", "x1", "1", "é", "\u2028"]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NAMES, inner, max_size=3),
                      max_leaves=8)
TYPES = ["string", "integer", "number", "object", "boolean", "array", "null"]
PATTERNS = ["^a", "b$", "^[0-9]+$", "^(a|b)*$", "\\d", "(?=a)", "^\\p{L}+$", "[", "^é$"]
LIMITS = st.one_of(st.integers(0, 3), st.sampled_from([2.0, 1.5, -1, 2**70]))
NUMBERS = st.one_of(st.integers(-3, 3), st.floats(-3, 3), st.sampled_from([2**53, 2**70, True]))


def _schema_keywords(child: st.SearchStrategy) -> dict[str, st.SearchStrategy]:
    """Values for each keyword: mostly valid, sometimes not (so both answers are exercised)."""
    return {
        "type": st.one_of(st.sampled_from(TYPES), st.lists(st.sampled_from(TYPES), min_size=1, max_size=3),
                          st.sampled_from(["text", 5, []])),
        "properties": st.dictionaries(NAMES, child, max_size=3),
        "required": st.one_of(st.lists(NAMES, max_size=3, unique=True), st.lists(NAMES, min_size=2, max_size=2)),
        "additionalProperties": st.one_of(st.booleans(), child),
        "items": child,
        "enum": st.lists(VALUES, max_size=4),
        "const": VALUES,
        "minimum": NUMBERS, "maximum": NUMBERS, "exclusiveMinimum": NUMBERS, "exclusiveMaximum": NUMBERS,
        "minLength": LIMITS, "maxLength": LIMITS, "minItems": LIMITS, "maxItems": LIMITS,
        "pattern": st.sampled_from(PATTERNS),
        "format": st.sampled_from(["email", "date", "uri"]),
        "description": st.sampled_from(["x", ""]),
        "default": VALUES,
        # not modelled by accepts: it must leave them to the validator
        "multipleOf": st.sampled_from([2, 0.5]),
        "allOf": st.lists(child, min_size=1, max_size=2),
        "not": child,
        "patternProperties": st.dictionaries(st.sampled_from(["^a", "(?=b)"]), child, max_size=1),
        "uniqueItems": st.booleans(),
        "$ref": st.just("#"),
        "x-extra": st.one_of(st.just(1), st.dictionaries(st.just("pattern"), st.sampled_from(PATTERNS), max_size=1)),
    }


def _schemas(depth: int = 2) -> st.SearchStrategy:
    child = st.booleans() if depth == 0 else _schemas(depth - 1)
    keywords = _schema_keywords(child)
    return st.lists(st.sampled_from(sorted(keywords)), max_size=4, unique=True).flatmap(
        lambda names: st.fixed_dictionaries({name: keywords[name] for name in names}))


SCHEMAS = _schemas()

# valid schemas of the keywords accepts models, so most draws reach it
LEAF_KEYWORDS = {
    "type": st.sampled_from(TYPES) | st.lists(st.sampled_from(TYPES), min_size=1, max_size=2, unique=True),
    "minimum": st.integers(-2, 2) | st.floats(-2, 2), "maximum": st.integers(-2, 2),
    "exclusiveMinimum": st.integers(-2, 2), "exclusiveMaximum": st.floats(-2, 2),
    "minLength": st.integers(0, 3), "maxLength": st.integers(0, 3) | st.just(2.0),
    "minItems": st.integers(0, 2), "maxItems": st.integers(0, 2),
    "pattern": st.sampled_from(["^a", "b$", "^[0-9]+$", "^(a|b)*$", "\\d", "^\\p{L}+$", "^é$"]),
    "enum": st.lists(SCALARS, min_size=1, max_size=3), "const": SCALARS,
    "format": st.just("email"), "description": st.just("x"),
}


def _valid(depth: int) -> st.SearchStrategy:
    keywords = dict(LEAF_KEYWORDS)
    if depth:
        child = _valid(depth - 1)
        keywords.update(properties=st.dictionaries(NAMES, child, max_size=3), items=child,
                        required=st.lists(NAMES, max_size=2, unique=True),
                        additionalProperties=st.booleans() | child)
    return st.lists(st.sampled_from(sorted(keywords)), max_size=3, unique=True).flatmap(
        lambda names: st.fixed_dictionaries({name: keywords[name] for name in names}))


VALID_SCHEMAS = _valid(2)


def _for(keywords: dict, instances: st.SearchStrategy) -> st.SearchStrategy:
    """(schema, instance): a schema of some of `keywords`, an instance of the kind they constrain."""
    schemas = st.lists(st.sampled_from(sorted(keywords)), min_size=1, max_size=3, unique=True).flatmap(
        lambda names: st.fixed_dictionaries({name: keywords[name] for name in names}))
    return st.tuples(schemas, instances)


TEXT = st.text(alphabet="ab1é٣\n", max_size=4)
NUMBER = st.integers(-3, 3) | st.floats(-3, 3) | st.sampled_from([0.5, -0.0, 2**53 - 1])
PAIRS = st.one_of(
    _for({k: LEAF_KEYWORDS[k] for k in ("type", "minLength", "maxLength", "pattern", "enum", "const", "format")}
         | {"enum": st.lists(TEXT, min_size=1, max_size=3), "const": TEXT}, TEXT),
    _for({k: LEAF_KEYWORDS[k] for k in ("type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")}
         | {"enum": st.lists(NUMBER | st.booleans(), min_size=1, max_size=3), "const": NUMBER | st.booleans()},
         NUMBER | st.booleans()),
    _for({"type": LEAF_KEYWORDS["type"], "items": _valid(0), "minItems": LEAF_KEYWORDS["minItems"],
          "maxItems": LEAF_KEYWORDS["maxItems"]}, st.lists(TEXT | NUMBER, max_size=3)),
    _for({"type": LEAF_KEYWORDS["type"], "properties": st.dictionaries(NAMES, _valid(0), max_size=3),
          "required": st.lists(NAMES, max_size=2, unique=True), "additionalProperties": st.booleans() | _valid(0)},
         st.dictionaries(NAMES, TEXT | NUMBER, max_size=3)),
    st.deferred(lambda: st.tuples(st.one_of(VALID_SCHEMAS, SCHEMAS, OBJECT_SCHEMAS), INSTANCES)),
)
INSTANCES = st.recursive(SCALARS | st.sampled_from(["a", "b", "ab", "aab", "12", "é", "٣"]),
                         lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NAMES, inner, max_size=3),
                         max_leaves=6)
OBJECT_SCHEMAS = st.fixed_dictionaries(
    {"type": st.just("object"), "properties": st.dictionaries(NAMES, _schemas(1), min_size=1, max_size=4)},
    optional={"required": st.lists(NAMES, max_size=3, unique=True), "additionalProperties": st.booleans()},
)


# ------------------------------------------------------------------ accepts


def _precondition(schema: dict) -> bool:
    """What TC406 checks before asking accepts: a valid schema, patterns for the linear engine."""
    if not is_valid_schema(schema):
        return False
    return tc406_example_invalid._patterns_linear(schema_walk.walk(schema), schema)


def _validator_says(schema: dict, instance: object) -> bool | None:
    try:
        validator = compile_validator(schema)
    except ValueError:
        return None  # does not compile: TC406 reports nothing either way
    try:
        return validator.is_valid(instance)
    except (ValueError, TypeError, OverflowError):
        return None  # a value JSON cannot hold: TC406 skips the example


@pytest.mark.long
@settings(max_examples=examples(250), deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(pair=PAIRS)
def test_accepts_only_what_the_validator_accepts(pair: tuple) -> None:
    schema, instance = pair
    if _precondition(schema) and accepts(schema, instance):
        assert _validator_says(schema, instance) in (True, None), (schema, instance)


@pytest.mark.long
@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema=OBJECT_SCHEMAS, data=st.data())
def test_accepts_valid_instances_of_simple_schemas(schema: dict, data: st.DataObject) -> None:
    """Not vacuous: for object schemas without the keywords it leaves alone, an instance the
    validator accepts is mostly accepted here too (ints and strings; floats as integers aside)."""
    instance = data.draw(st.dictionaries(NAMES, SCALARS | st.lists(SCALARS, max_size=2), max_size=4))
    if _precondition(schema) and _validator_says(schema, instance) and _modelled(schema):
        # numbers beyond exact comparison, NaN and floats written as integers go to the validator
        if not any(isinstance(v, float) or (isinstance(v, int) and abs(v) >= 2**53) for v in _leaves(instance)):
            if not any(isinstance(v, (list, dict)) for v in instance.values()):
                assert accepts(schema, instance), (schema, instance)


def _modelled(schema: object) -> bool:
    if not isinstance(schema, dict):
        return True
    unmodelled = {"multipleOf", "allOf", "not", "patternProperties", "uniqueItems", "$ref", "x-extra", "enum", "const"}
    return not (unmodelled & schema.keys()) and all(_modelled(v) for v in _subschemas(schema))


def _subschemas(schema: dict) -> list:
    subs = list(schema.get("properties", {}).values())
    for keyword in ("additionalProperties", "items"):
        if keyword in schema:
            subs.append(schema[keyword])
    return subs


def _leaves(value: object) -> list:
    if isinstance(value, dict):
        return [x for v in value.values() for x in _leaves(v)]
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v)]
    return [value]


def test_accepts_edge_cases() -> None:
    assert accepts({"type": "integer"}, 3)
    assert accepts({"type": ["string", "null"]}, None) and not accepts({"type": ["string", "null"]}, 1)
    assert not accepts({"type": "integer"}, 3.0)  # an integer to JSON Schema: the validator decides
    assert not accepts({"type": "integer"}, True)
    assert not accepts({"enum": [1]}, True) and not accepts({"enum": [True]}, 1) and not accepts({"const": 1}, 1.0)
    assert accepts({"enum": ["a", 1]}, "a") and accepts({"enum": [None]}, None) and accepts({"const": 2}, 2)
    assert not accepts({"enum": [[1]]}, [1])  # containers are left to the validator
    assert not accepts({"type": "number"}, math.nan) and not accepts({"type": "number"}, math.inf)
    assert not accepts({"type": "integer"}, 2**60)
    assert accepts({"format": "email", "type": "string"}, "not an address")
    assert not accepts({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False},
                       {"a": "x", "b": 1})
    subclass = type("S", (str,), {})
    assert not accepts({"type": "string"}, subclass("x")) and not accepts({"maxLength": 1}, subclass("ab"))
    assert not accepts({"maxLength": 1}, "ab") and accepts({"maxLength": 2.0}, "ab")
    assert not accepts({"allOf": [{}]}, 1) and not accepts(False, 1) and accepts(True, 1)


def test_format_is_an_annotation_for_the_compiled_validator() -> None:
    """accepts ignores `format` because compile_validator does: if jsonschema-rs starts asserting
    formats by default, this fails, and accepts must model them or leave them to the validator."""
    validator = compile_validator({"format": "email"})
    assert validator.is_valid("not an address") and validator.is_valid("x")
    assert compile_validator({"format": "date"}).is_valid("yesterday")


# ---------------------------------------------------------- TC406 with and without the shortcut


def _example_hits(schema: object, examples: list) -> list:
    tool = ToolView({"input_schema": schema, "examples": examples}, None, "")  # type: ignore[arg-type]
    return [(h.path, h.message) for h in tc406_example_invalid.check(context(tool))]


@pytest.mark.long
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema=st.one_of(VALID_SCHEMAS, OBJECT_SCHEMAS, SCHEMAS),
       examples=st.lists(st.dictionaries(NAMES, INSTANCES, max_size=4), min_size=1, max_size=2))
def test_example_invalid_is_the_same_without_the_shortcut(schema: dict, examples: list, monkeypatch_session) -> None:
    fast = _example_hits(schema, examples)
    with monkeypatch_session.context() as patch:
        patch.setattr(tc406_example_invalid, "_examples_accepted", lambda ctx, schema, examples: False)
        slow = _example_hits(schema, examples)
    assert fast == slow


@pytest.fixture(scope="module")
def monkeypatch_session():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def test_the_shortcut_is_taken_for_the_bench_shape() -> None:
    schema = {
        "type": "object", "additionalProperties": False, "required": ["account_id"],
        "properties": {
            "account_id": {"type": "string", "pattern": "^acct_[0-9]+$", "description": "Identifier."},
            "limit": {"type": "integer", "minimum": 1, "maximum": 200, "description": "Largest number."},
            "locale": {"type": "string", "enum": ["en", "de"], "description": "Language."},
            "token": {"type": "string", "maxLength": 200, "format": "byte", "description": "Token."},
        },
    }
    example = {"account_id": "acct_5521", "limit": 20, "locale": "en"}
    ctx = context(ToolView({"input_schema": schema}, None, ""))  # type: ignore[arg-type]
    assert tc406_example_invalid._examples_accepted(ctx, schema, [example])
    assert not tc406_example_invalid._examples_accepted(ctx, schema, [{**example, "limit": 0}])
    assert _example_hits(schema, [{**example, "limit": 0}]) != []


def test_patterns_outside_known_keywords_are_found() -> None:
    """jsonschema-rs compiles `dependencies` under 2020-12, which the walk does not descend into:
    a lookahead there makes compile_validator use the backtracking engine for every pattern."""
    schema = {"type": "object", "properties": {"a": {"type": "string", "pattern": "^a"}},
              "dependencies": {"a": {"properties": {"b": {"pattern": "(?=b)"}}}}}
    assert not tc406_example_invalid._patterns_linear(schema_walk.walk(schema), schema)
    schema["dependencies"]["a"]["properties"]["b"]["pattern"] = "b"
    assert tc406_example_invalid._patterns_linear(schema_walk.walk(schema), schema)
    referring = {"$defs": {"x": {}}, "$ref": "#/$defs/x"}
    assert not tc406_example_invalid._patterns_linear(schema_walk.walk(referring), {"$ref": "#/$defs/x"})


# ------------------------------------------------------------------ the merged metaschema


def _rebuild_flat_metaschema() -> dict:
    """_META_FLAT from the published 2020-12 documents, by the rules its comment states."""
    import jsonschema_specifications

    base = Path(jsonschema_specifications.__file__).parent / "schemas" / "draft202012"
    root = json.loads((base / "metaschema.json").read_text("utf-8"))
    assert [part["$ref"] for part in root["allOf"]] == [f"meta/{v}" for v in VOCABULARIES]

    def rewrite(value: object) -> object:
        if isinstance(value, dict):
            out = {}
            for key, item in value.items():
                if key == "$dynamicRef":
                    assert item == "#meta"
                    out["$ref"] = "#"
                elif key == "$ref":
                    assert item.startswith(("#/$defs/", "meta/")) and "/$defs/" in item
                    out["$ref"] = "#/$defs/" + item.rsplit("/$defs/", 1)[1]
                elif key not in ("$comment", "title", "default", "deprecated"):
                    out[key] = rewrite(item)
            return out
        if isinstance(value, list):
            return [rewrite(item) for item in value]
        return value

    properties: dict = {}
    defs: dict = {}
    for name in VOCABULARIES:
        vocabulary = json.loads((base / "vocabularies" / name).read_text("utf-8"))
        assert vocabulary["type"] == ["object", "boolean"] and vocabulary["$dynamicAnchor"] == "meta"
        assert set(vocabulary) <= {"$schema", "$id", "$vocabulary", "$dynamicAnchor", "title", "type", "properties",
                                   "$defs"}
        for key, sub in vocabulary["properties"].items():
            assert key not in properties
            properties[key] = rewrite(sub)
        for key, sub in vocabulary.get("$defs", {}).items():
            assert key not in defs
            defs[key] = rewrite(sub)
    for key, sub in root["properties"].items():
        assert key not in properties
        properties[key] = rewrite(sub)
    assert set(root) <= {"$schema", "$id", "$vocabulary", "$dynamicAnchor", "title", "allOf", "type", "$comment",
                         "properties"}
    return {"type": root["type"], "properties": properties, "$defs": defs}


VOCABULARIES = ["core", "applicator", "unevaluated", "validation", "meta-data", "format-annotation", "content"]


def test_merged_metaschema_is_the_published_one() -> None:
    assert _rebuild_flat_metaschema() == _META_FLAT


ANY_KEYWORD_VALUES = st.lists(st.sampled_from(("type", "properties", "required", "items", "enum", "minimum", "maxLength", "pattern", "$id",
                        "$anchor", "$ref", "$defs", "allOf", "anyOf", "dependentRequired", "$vocabulary", "dependencies",
                        "prefixItems", "uniqueItems", "format", "contentSchema", "description")), max_size=4, unique=True).flatmap(
    lambda names: st.fixed_dictionaries(dict.fromkeys(names, VALUES)))


@pytest.mark.long
@settings(max_examples=examples(250), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema=st.one_of(SCHEMAS, OBJECT_SCHEMAS, ANY_KEYWORD_VALUES, VALUES,
                        st.dictionaries(NAMES, ANY_KEYWORD_VALUES, max_size=2).map(lambda p: {"properties": p})))
def test_merged_metaschema_agrees_with_the_original(schema: object) -> None:
    assert _flat_meta_validator().is_valid(schema) == _meta_validator().is_valid(schema), schema


def _corpus_schemas() -> list:
    corpus = corpus_dir()
    found: list = []

    def collect(value: object) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in ("inputSchema", "outputSchema", "parameters", "input_schema") and isinstance(item, (dict, bool)):
                    found.append(item)
                collect(item)
        elif isinstance(value, list):
            for item in value:
                collect(item)

    for path in sorted(corpus.glob("**/*.json")) if corpus.is_dir() else ():
        try:
            collect(json.loads(path.read_text("utf-8")))
        except (ValueError, UnicodeDecodeError):
            continue
    return found


def test_merged_metaschema_agrees_on_the_corpus() -> None:
    schemas = _corpus_schemas()
    if not schemas:
        pytest.skip(f"no corpus at {corpus_dir()}")
    disagree = [s for s in schemas if _flat_meta_validator().is_valid(s) != _meta_validator().is_valid(s)]
    assert disagree == []
    valid = sum(map(is_valid_schema, schemas))
    assert valid > 100 and len(schemas) - valid > 100  # both answers are exercised


def test_is_valid_schema_takes_only_valid_from_the_merged_metaschema() -> None:
    assert is_valid_schema({"type": "object", "properties": {"a": {"type": "string", "pattern": "^a"}}})
    assert not is_valid_schema({"properties": {"a": {"type": "text"}}})
    assert not is_valid_schema({"required": "a"})
    assert is_valid_schema(True) and is_valid_schema({})


# ------------------------------------------------------------------ walks


@pytest.mark.long
@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema=st.one_of(SCHEMAS, OBJECT_SCHEMAS, ANY_KEYWORD_VALUES))
def test_walk_marks_and_index_are_a_scan_of_the_nodes(schema: dict) -> None:
    w = schema_walk.walk(schema)
    for keyword in schema_walk._MARKED:
        assert w.having(keyword) == [n for n in w.nodes if keyword in n.schema], keyword
    assert w.having("$ref", "pattern") == [n for n in w.nodes if "$ref" in n.schema or "pattern" in n.schema]
    index: dict = {}
    for i, node in enumerate(w.nodes):
        index.setdefault(id(node.schema), i)
    assert w.index == index
    assert properties.declared_properties(w) == _declared_by_scan(w)
    if not schema_walk.mentions(schema, schema_walk._OUTPUT_MARKS, 0):  # then an output_schema is not walked
        assert not schema_walk._OUTPUT_MARKS & w.marks.keys()
    assert w.foreign == any(k not in schema_walk._KNOWN_KEYWORDS and isinstance(v, (dict, list))
                            for n in w.nodes for k, v in n.schema.items())
    assert tc406_example_invalid._patterns_linear(w, schema) == _patterns_linear_by_scan(w, schema)


def _patterns_linear_by_scan(w: schema_walk.Walk, schema: dict) -> bool:
    """tc406_example_invalid._patterns_linear as it was before the walk noted foreign keywords: every node's keys."""
    if w.truncated or "$ref" in w.marks or "$dynamicRef" in w.marks:
        return False
    for node in w.nodes:
        for keyword, value in node.schema.items():
            if keyword not in schema_walk._KNOWN_KEYWORDS and isinstance(value, (dict, list)):
                return tc406_example_invalid._linear_everywhere(schema, 0)
    for node in w.nodes:
        pattern = node.schema.get("pattern")
        if "pattern" in node.schema and isinstance(pattern, str) and linear_pattern(pattern) is None:
            return False
        keys = node.schema.get("patternProperties")
        if isinstance(keys, dict) and any(isinstance(k, str) and linear_pattern(k) is None for k in keys):
            return False
    return True


def _mentions_by_recursion(value: object, keys: frozenset, depth: int) -> bool:
    """schema_walk.mentions as first written: one call per mapping and list."""
    if depth > 200:
        return True
    if isinstance(value, dict):
        if not keys.isdisjoint(value):
            return True
        value = value.values()
    elif not isinstance(value, list):
        return False
    return any(isinstance(item, (dict, list)) and _mentions_by_recursion(item, keys, depth + 1) for item in value)


def _nested(depth: int, inner: object) -> object:
    for i in range(depth):
        inner = {"properties": {"a": inner}} if i % 3 else [inner] if i % 3 == 1 else {"items": inner}
    return inner


@pytest.mark.long
@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=st.one_of(SCHEMAS, OBJECT_SCHEMAS, ANY_KEYWORD_VALUES, VALUES,
                       st.builds(_nested, st.integers(190, 215), st.one_of(VALUES, ANY_KEYWORD_VALUES))),
       start=st.sampled_from([0, 1, 198, 199, 200, 201]))
def test_mentions_is_the_recursive_scan(value: object, start: int) -> None:
    for keys in (schema_walk._OUTPUT_MARKS, frozenset(("type",)), frozenset(("a", "pattern"))):
        assert schema_walk.mentions(value, keys, start) == _mentions_by_recursion(value, keys, start)


def _declared_by_scan(w: schema_walk.Walk) -> list:
    """The declared properties as the rules found them before the walk kept marks."""
    found = []
    for index, node in enumerate(w.nodes):
        properties = node.schema.get("properties")
        if node.conditional or not isinstance(properties, dict):
            continue
        outer = [a.schema.get("properties") for a in schema_walk.in_place_ancestors(w, index)]
        for name, sub in properties.items():
            if any(isinstance(p, dict) and name in p for p in outer):
                continue
            found.append((node, name, sub))
    return found


def test_declared_properties_skip_refinements() -> None:
    schema = {"type": "object", "properties": {"city": {"type": "string"}},
              "allOf": [{"properties": {"city": {"maxLength": 40}, "zip": {"type": "string"}}}]}
    w = schema_walk.walk(schema)
    assert [name for _, name, _ in properties.declared_properties(w)] == ["city", "zip"]
    assert properties.declared_properties(w) == _declared_by_scan(w)


def _tool(data: dict) -> ToolView:
    return ToolView(data, None, "")  # type: ignore[arg-type]


def test_field_walks_are_the_tools_schemas_walked_once_by_its_context() -> None:
    tool = _tool({"input_schema": {"type": "object"}, "output_schema": True})
    assert [(p, s) for p, s, _ in context(tool).field_walks()] == list(schema_walk.schema_fields(tool))
    second = {"type": "object", "properties": {"a": {"$ref": "#/nowhere"}}}
    tool = _tool({"input_schema": second, "output_schema": True})
    assert [(p, s) for p, s, _ in context(tool).field_walks()] == list(schema_walk.schema_fields(tool))
    assert context(tool).field_walks()[0][2] is context(tool).walk(second)  # one walk for every rule
    assert [n.path for n in context(tool).walk(second).nodes] == [n.path for n in schema_walk.walk(second).nodes]
    output = {"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}}, "$defs": {"a": {}}}
    tool = _tool({"input_schema": second, "output_schema": output})
    assert context(tool).field_walks()[1][2] is context(tool).walk(output, "result")
    tool = _tool({"output_schema": {"type": "object", "properties": {"a": {"enum": [{"pattern": 1}]}}}})
    assert context(tool).field_walks()[0][2].nodes  # data counts too: the test is conservative
    tool = _tool({"output_schema": {"type": "object", "properties": {"a": {"type": "string"}}}})
    assert context(tool).field_walks()[0][2].nodes == []  # no keyword a rule reads: no walk
    tool = _tool({"input_schema": second, "semantic_rules": [{"if": {"required": ["a"]}, "then": False}]})
    assert [(p, s) for p, s, _ in context(tool).field_walks()] == list(schema_walk.schema_fields(tool))


def test_instance_errors_still_explain_a_failing_example() -> None:
    validator = compile_validator({"type": "object", "properties": {"a": {"type": "string"}}})
    assert instance_errors(validator, {"a": 1}) == [(("a",), '1 is not of type "string"')]
