"""TC4xx: input and output schemas — valid JSON Schema 2020-12 a model can fill in.

The rules read `input_schema`, `output_schema` and the `if`/`then`/`else` schemas of
`semantic_rules`. Values of the wrong type (a string where a schema belongs, a list of
properties) are TC002's; these rules skip them and check whatever else they can.
Nothing is ever fetched: `$ref`s are resolved inside the schema they are written in.
"""

from __future__ import annotations

import functools
import re
from itertools import repeat
from typing import Any, Iterator, NamedTuple

from toolcontract.core.schema import CONDITIONS, IN_PLACE, KEYWORDS
from toolcontract.core.descriptor import ToolView
from toolcontract.lint.context import ListContext, ToolContext, context
from toolcontract.core.rule import Bad, Good, Hit, rule
from toolcontract.core.model import Severity
from toolcontract.core.schema.validation import (
    META_2020_12,
    SchemaError,
    accepts,
    compile_validator,
    explain_errors,
    is_valid_schema,
    linear_pattern,
    types_of,
)
from toolcontract.core.pointer import join_pointer, resolve_pointer

JSON_TYPES = frozenset(("array", "boolean", "integer", "null", "number", "object", "string"))
DIALECTS_2020_12 = frozenset((META_2020_12, META_2020_12 + "#"))
KNOWN_DIALECTS = {
    "json-schema.org/draft-03/schema": "draft-03",
    "json-schema.org/draft-04/schema": "draft-04",
    "json-schema.org/draft-06/schema": "draft-06",
    "json-schema.org/draft-07/schema": "draft-07",
    "json-schema.org/draft/2019-09/schema": "2019-09",
    "json-schema.org/draft/2020-12/schema": "2020-12",
}

# which keywords hold subschemas, how they apply and to what instance location: core.schema's table
_KEYWORDS = KEYWORDS
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")


# ------------------------------------------------------------------ walking


class Node(NamedTuple):
    """One subschema (a mapping) and how it is reached.

    A named tuple, made with tuple.__new__: a walk makes one per subschema, and that costs
    a fraction of a dataclass's __init__ call. (Like the dataclass it replaces, it is compared
    by value and cannot be hashed; nothing compares nodes.)"""

    path: tuple  # from the schema's root, in the file's own keys
    schema: dict
    key: tuple  # the abstract instance location it applies to: ("args", "properties", "city")
    via: str | None  # the keyword it was reached by; None for the root
    parent: int  # index of the parent node, -1 for the root
    conditional: bool  # under `if` or `not`: a test, not a declaration
    base: str  # base URI (no fragment) of the resource it is in; "" when none is given


_new_node = tuple.__new__


class Walk:
    """Every subschema of one schema, in pre-order, and what the rules look up in them.

    `marks` lists, per keyword the rules look for (`$ref`, `pattern`, `required`, ...), the
    nodes that have it: most schemas have few of them, so a rule about `$schema` visits
    the one or two nodes that name one rather than every node."""

    __slots__ = ("nodes", "resources", "anchors", "marks", "truncated", "foreign", "_index", "_declared",
                 "_patterns_linear")

    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self.resources: dict[str, int] = {}  # base URI -> node index of its root
        self.anchors: set[tuple[str, str]] = set()  # (base URI, $anchor or $dynamicAnchor)
        self.marks: dict[str, list[int]] = {}  # keyword -> indices of the nodes that have it (see _MARKED)
        self.truncated = False  # deeper than the walk goes: some subschemas are not nodes
        # a node has a keyword the walk does not know (not in _KNOWN_KEYWORDS) whose value is a
        # mapping or a list: a validator may compile schemas in it that are not nodes
        self.foreign = False
        self._index: dict[int, int] | None = None
        self._declared: list[tuple[Node, str, Any]] | None = None  # see _declared_properties
        self._patterns_linear: bool | None = None  # see _patterns_linear

    @property
    def index(self) -> dict[int, int]:
        """id(schema) -> index of its first node; built when first asked for (rarely: `$ref`s)."""
        if self._index is None:
            index: dict[int, int] = {}
            for i, node in enumerate(self.nodes):
                index.setdefault(id(node.schema), i)
            self._index = index
        return self._index

    def having(self, *keywords: str) -> list[Node]:
        """The nodes that have any of `keywords`, in node order."""
        marks = self.marks
        if len(keywords) == 1:
            found = marks.get(keywords[0], ())
            if len(found) == 1:
                return [self.nodes[found[0]]]
        else:
            found = [i for k in keywords for i in marks.get(k, ())]
        if len(found) > 1:
            found = sorted(set(found))  # a parent's keyword can come after its children's
        return [self.nodes[i] for i in found]


# what _visit does with each keyword: descend into one subschema / a map / a list of them
# (with the instance-location token and whether the subschema is a test), note the node
# under the keyword (_MARKED), or record an anchor
_MARKED = ("$ref", "$dynamicRef", "pattern", "patternProperties", "properties", "$schema", "required")
_FORMS: dict[str, tuple[str, str | None, bool]] = {
    **{k: (shape, token, k in CONDITIONS) for k, (shape, token) in _KEYWORDS.items()},
    **{k: ("mark", None, False) for k in _MARKED if k not in _KEYWORDS},
    "$anchor": ("anchor", None, False), "$dynamicAnchor": ("anchor", None, False),
}
# a subschema with none of these keys is a leaf: _visit would only add its node
_NOT_LEAF = frozenset((*_FORMS, "$id"))

# 2020-12 keywords: the walk descends into every one whose value is a schema (_FORMS); the
# values of the others are never compiled as schemas (they are data, strings or numbers)
_KNOWN_KEYWORDS = frozenset((
    *_FORMS, "$id", "$vocabulary", "$comment", "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum",
    "minimum", "exclusiveMinimum", "maxLength", "minLength", "maxItems", "minItems", "uniqueItems", "maxContains",
    "minContains", "maxProperties", "minProperties", "dependentRequired", "format", "title", "description",
    "default", "deprecated", "readOnly", "writeOnly", "examples", "contentEncoding", "contentMediaType",
))
# a leaf all of whose keys are known: _visit would add its node and note nothing foreign
_PLAIN_LEAF = _KNOWN_KEYWORDS - _NOT_LEAF


def walk(schema: Any, root: str = "args") -> Walk:
    """Every subschema of `schema` once, with its instance location and base URI.

    Built on core.schema's keyword table, not its walker: the rules need more per node than
    (node, schema path, instance location) — the base URI of `$id` resources, anchors, whether
    a node is under a condition, its parent, and the nodes that carry the keywords rules look
    for (`marks`) — all gathered in the one pass, with a shortcut for leaf subschemas.

    `$ref`s are not followed, so a cyclic `$ref` cannot loop. A rule asks its tool's context
    (`context(tool).walk(schema)`), which walks each schema of the tool once for every rule.
    """
    result = Walk()
    if isinstance(schema, dict):
        _visit(result, schema, (), (root,), None, -1, False, "", 0)
    return result


def _visit(w: Walk, schema: dict, path: tuple, key: tuple, via: str | None, parent: int,
           conditional: bool, base: str, depth: int) -> None:
    if depth > 200:
        w.truncated = True
        return
    nodes = w.nodes
    index = len(nodes)
    own_id = schema.get("$id")
    if isinstance(own_id, str):
        base = _join(base, own_id).partition("#")[0]
        w.resources.setdefault(base, index)
    elif parent < 0:
        w.resources.setdefault(base, index)
    nodes.append(_new_node(Node, (path, schema, key, via, parent, conditional, base)))
    depth += 1
    for keyword, sub in schema.items():
        form = _FORMS.get(keyword)
        if form is None:
            if keyword not in _KNOWN_KEYWORDS and isinstance(sub, (dict, list)):
                w.foreign = True
            continue
        shape, token, test = form
        if shape == "map":
            if keyword == "properties" or keyword == "patternProperties":
                w.marks.setdefault(keyword, []).append(index)
            if not isinstance(sub, dict):
                continue
            for name, item in sub.items():
                if not isinstance(item, dict):
                    continue
                item_path = path + (keyword, name)
                if token == "$defs":
                    item_key = ("def",) + item_path  # reached only through a $ref: its own location
                else:
                    item_key = key if token is None else key + (token, name)
                if depth <= 200 and item.keys() <= _PLAIN_LEAF:  # what _visit would do, without the call
                    nodes.append(_new_node(Node, (item_path, item, item_key, keyword, index, conditional, base)))
                else:
                    _visit(w, item, item_path, item_key, keyword, index, conditional, base, depth)
        elif shape == "one":
            if isinstance(sub, dict):
                sub_key = key if token is None else key + (token,)
                _visit(w, sub, path + (keyword,), sub_key, keyword, index, conditional or test, base, depth)
            elif token == "[]" and isinstance(sub, list):  # draft-07 tuple form of items
                for i, item in enumerate(sub):
                    if isinstance(item, dict):
                        _visit(w, item, path + (keyword, i), key + (i,), keyword, index, conditional, base, depth)
        elif shape == "mark":
            w.marks.setdefault(keyword, []).append(index)
        elif shape == "list":
            if isinstance(sub, list):
                for i, item in enumerate(sub):
                    if isinstance(item, dict):
                        item_key = key if token is None else key + (i,)
                        _visit(w, item, path + (keyword, i), item_key, keyword, index, conditional, base, depth)
        elif isinstance(sub, str):  # an anchor
            w.anchors.add((base, sub))


def _join(base: str, ref: str) -> str:
    """Resolve a URI reference against a base, without ever touching the network."""
    if ref.startswith("#"):
        return base + ref
    if _SCHEME.match(ref) or not base:
        return ref
    from urllib.parse import urljoin  # here: ~3 ms to import, and most schemas have no `$ref`

    try:
        return urljoin(base, ref)
    except ValueError:
        return ref


def _in_place_ancestors(w: Walk, index: int) -> Iterator[Node]:
    """The schemas that apply to the same instance and contain this one (allOf, then, ...)."""
    node = w.nodes[index]
    while node.via in IN_PLACE and node.parent >= 0:
        node = w.nodes[node.parent]
        yield node


def schema_fields(tool: ToolView) -> Iterator[tuple[tuple, Any]]:
    """Every schema of a descriptor that is a mapping or a boolean, with its path."""
    for name in ("input_schema", "output_schema"):
        value = tool.data.get(name)
        if isinstance(value, (dict, bool)):
            yield (name,), value
    rules = tool.data.get("semantic_rules")
    if isinstance(rules, list):
        for i, entry in enumerate(rules):
            if isinstance(entry, dict):
                for part in ("if", "then", "else"):
                    value = entry.get(part)
                    if isinstance(value, (dict, bool)):
                        yield ("semantic_rules", i, part), value


def _field_walks(tool: ToolView) -> list[tuple[tuple, Any, Walk]]:
    """schema_fields(tool), each with its walk, once per tool (five rules ask for them)."""
    return context(tool).field_walks()


def field_walks(ctx: ToolContext) -> list[tuple[tuple, Any, Walk]]:
    """schema_fields(ctx.tool), each with its walk (made by the tool's context)."""
    tool = ctx.tool
    data = tool.data
    if "semantic_rules" in data:
        return [(path, value, ctx.walk(value, "result" if path[0] == "output_schema" else "args"))
                for path, value in schema_fields(tool)]
    inputs, outputs = data.get("input_schema"), data.get("output_schema")
    found = []
    if isinstance(inputs, (dict, bool)):
        found.append((("input_schema",), inputs, ctx.walk(inputs, "args")))
    if isinstance(outputs, (dict, bool)):
        # only TC407, TC408, TC410 and TC412 look at output_schema, and only at subschemas with
        # these keywords: a schema that has none of them anywhere needs no walk
        plain = isinstance(outputs, bool) or not _mentions(outputs, _OUTPUT_MARKS, 0)
        found.append((("output_schema",), outputs, Walk() if plain else ctx.walk(outputs, "result")))
    return found


_OUTPUT_MARKS = frozenset(("$ref", "$dynamicRef", "pattern", "patternProperties", "$schema"))


def _mentions(value: Any, keys: frozenset[str], depth: int) -> bool:
    """Whether a mapping anywhere in `value` (a subschema or not) has one of `keys`; True when
    nested too deep to tell."""
    if depth > 200:
        return True
    if isinstance(value, dict):
        if not keys.isdisjoint(value):
            return True
        value = value.values()
    elif not isinstance(value, list):
        return False
    for item in value:
        if isinstance(item, dict):
            # what the call for it would answer, without the call: most mappings here are
            # subschemas of scalars (`{type: string, description: ...}`)
            if depth >= 200 or not keys.isdisjoint(item):
                return True
            for sub in item.values():
                if isinstance(sub, (dict, list)) and _mentions(sub, keys, depth + 2):
                    return True
        elif isinstance(item, list) and _mentions(item, keys, depth + 1):
            return True
    return False


# --------------------------------------------------------------- references

# a reference's fate: ("remote", uri) | ("ok", target) | ("missing", why)


def resolve_ref(w: Walk, node: Node, ref: str) -> tuple[str, Any]:
    target = _join(node.base, ref)
    document, _, fragment = target.partition("#")
    root = w.resources.get(document)
    if root is None:
        return "remote", target
    if not fragment:
        return "ok", w.nodes[root].schema
    if fragment.startswith("/"):
        from urllib.parse import unquote

        found, value = resolve_pointer(w.nodes[root].schema, unquote(fragment))
        if not found:
            return "missing", f"nothing at {unquote(fragment)}"
        if not isinstance(value, (dict, bool)):
            return "missing", f"{unquote(fragment)} is not a schema"
        return "ok", value
    if (document, fragment) in w.anchors:
        return "ok", _anchor_target(w, document, fragment)
    return "missing", f"no `$anchor: {fragment}` in the schema"


def _anchor_target(w: Walk, document: str, name: str) -> Any:
    for node in w.nodes:
        if node.base == document and name in (node.schema.get("$anchor"), node.schema.get("$dynamicAnchor")):
            return node.schema
    return True


def _refs(w: Walk) -> list[tuple[Node, str, str]]:
    found = []
    if "$ref" in w.marks or "$dynamicRef" in w.marks:
        for node in w.having("$ref", "$dynamicRef"):
            for keyword in ("$ref", "$dynamicRef"):
                ref = node.schema.get(keyword)
                if isinstance(ref, str):
                    found.append((node, keyword, ref))
    return found


# ------------------------------------------------------------------ helpers


def _closed(schema: dict) -> bool:
    """`additionalProperties: false`, `unevaluatedProperties: false`, or a typed map."""
    extra = schema.get("additionalProperties")
    return extra is False or isinstance(extra, dict) or schema.get("unevaluatedProperties") is False


def _effectively_closed(schema: Any, depth: int = 0) -> bool:
    """Closed itself, or by its in-place branches: every anyOf/oneOf branch, or one allOf branch."""
    if schema is False:
        return True
    if not isinstance(schema, dict) or depth > 50:
        return False
    if _closed(schema):
        return True
    for keyword in ("anyOf", "oneOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list) and branches and all(_effectively_closed(b, depth + 1) for b in branches):
            return True
    branches = schema.get("allOf")
    return isinstance(branches, list) and any(_effectively_closed(b, depth + 1) for b in branches)


def _declares_object(schema: dict) -> bool:
    kind = schema.get("type")
    if isinstance(kind, str):
        return kind == "object"
    if isinstance(kind, list):  # the same as `"object" in types_of(schema)`: only a string equals "object"
        return "object" in kind
    return "type" not in schema and ("properties" in schema or "patternProperties" in schema)


def _typed(schema: Any, depth: int = 0) -> bool:
    """Whether a schema tells a model what kind of value to write."""
    if isinstance(schema, bool):
        return not schema
    if not isinstance(schema, dict) or depth > 50:
        return False
    if "type" in schema or "enum" in schema or "const" in schema or "$ref" in schema or "$dynamicRef" in schema:
        return True
    if "not" in schema and schema["not"] in ({}, True):  # matches nothing, like `false`
        return True
    if "anyOf" not in schema and "oneOf" not in schema and "allOf" not in schema:
        return False
    for keyword in ("anyOf", "oneOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list) and branches and all(_typed(b, depth + 1) for b in branches):
            return True
    branches = schema.get("allOf")
    return isinstance(branches, list) and any(_typed(b, depth + 1) for b in branches)


def _declared_properties(w: Walk) -> list[tuple[Node, str, Any]]:
    """(parent node, name, schema) for each property a schema declares for a model to fill.

    Properties under `if`/`not` are tests, not declarations; a property an enclosing
    schema already declares (`allOf: [{properties: {city: {maxLength: 40}}}]`) is a refinement.
    Computed once per walk (TC404 and TC411 read it).
    """
    declared = w._declared
    if declared is not None:
        return declared
    declared = []
    marked = w.marks.get("properties", ())
    if len(marked) > 1:
        marked = sorted(set(marked))  # node order (see Walk.having)
    for index in marked:
        node = w.nodes[index]
        properties = node.schema["properties"]
        if node.conditional or not isinstance(properties, dict):
            continue
        if node.via in IN_PLACE and node.parent >= 0:
            outer = [a.schema.get("properties") for a in _in_place_ancestors(w, index)]
            outer = [p for p in outer if isinstance(p, dict)]
            for name, sub in properties.items():
                if not any(name in p for p in outer):
                    declared.append((node, name, sub))
        else:  # the common case: nothing encloses it in place
            declared.extend(zip(repeat(node), properties, properties.values()))
    w._declared = declared
    return declared


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _q(value: Any, limit: int = 80) -> str:
    """A value from the input, quoted for a message and cut to a readable length."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


def _qv(value: Any, limit: int = 80) -> str:
    """A value from the input as JSON (`null`, `false`, `[1, 2]`), or quoted as _q does for a string."""
    if isinstance(value, str):
        return _q(value, limit)
    try:
        text = _json(value)
    except (TypeError, ValueError):
        return _q(value, limit)
    return text if len(text) <= limit else text[: limit - 4] + " ..."


def _where(path: tuple) -> str:
    return join_pointer("", *path) or "the root"


_TYPE_NAMES = {  # what other languages and older formats call the JSON types
    "dict": "object", "map": "object", "hash": "object", "float": "number", "double": "number",
    "decimal": "number", "int": "integer", "long": "integer", "str": "string", "text": "string",
    "list": "array", "tuple": "array", "bool": "boolean", "none": "null",
}


def _schema_error_message(error: SchemaError) -> str:
    at_type = error.path[-1:] == ("type",) or (len(error.path) > 1 and error.path[-2] == "type")
    if at_type and error.keyword in ("enum", "anyOf"):
        value = error.instance
        if isinstance(value, str):
            better = value.lower() if value.lower() in JSON_TYPES else _TYPE_NAMES.get(value.lower())
            if value.lower() == "any":
                return '"any" is not a JSON Schema type: leave `type` out, or list the types allowed'
            hint = f': use "{better}"' if better else f" (one of {', '.join(sorted(JSON_TYPES))})"
            return f"{_json(value)} is not a JSON Schema type{hint}"
        if isinstance(value, list) and len(set(map(_json, value))) < len(value):
            return f"`type` {_json(value)} repeats a type"
        if value == []:
            return "`type` is an empty list"
        return f"`type` must be one of {', '.join(sorted(JSON_TYPES))}, or a list of them"
    message = error.message  # it quotes the offending value, which can be large
    return message if len(message) <= 240 else f"{message[:180]} ... {message[-50:]}"


def _meta_hits(ctx: ToolContext, path: tuple, schema: Any, what: str) -> Iterator[Hit]:
    for error in ctx.meta_errors(schema):
        where = _where(error.path)
        yield Hit((*path, *error.path), f"{what} is not valid JSON Schema 2020-12 at {where}: "
                  f"{_schema_error_message(error)}")


def _line_of(tool: ToolView, path: tuple) -> int:
    document, pointer = tool.locate(path)
    return document.locate(pointer)[0]


_WEATHER = """\
toolcontract: 1
name: weather_current
effect: read
input_schema:
  type: object
  properties:
    city: {type: string, description: City name such as Lisbon.}
  required: [city]
  additionalProperties: false
"""


# -------------------------------------------------------------------- rules


@rule(
    id="TC401",
    name="schema-invalid",
    severity=Severity.ERROR,
    summary="`input_schema` is not valid JSON Schema 2020-12.",
    rationale=(
        "Providers that check tool schemas reject the whole request over one invalid keyword, and MCP "
        "requires a schema to be valid for its dialect. Those that do not check hand the schema to the model "
        "as text, where `type: text` or `required: city` means nothing, and the arguments are never "
        "validated. Each distinct problem is reported once, at its keyword."
    ),
    examples=(
        Bad(_WEATHER.replace("{type: string,", "{type: text,"), line=7, note="not a JSON type"),
        Bad(_WEATHER.replace("required: [city]", "required: city"), line=8, note="required must be a list"),
        Good(_WEATHER),
    ),
)
def schema_invalid(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    schema = tool.get("input_schema")
    if isinstance(schema, (dict, bool)):
        yield from _meta_hits(context(tool), ("input_schema",), schema, "input_schema")


@rule(
    id="TC402",
    name="schema-root-not-object",
    severity=Severity.ERROR,
    summary="The root of `input_schema` is not `type: object`.",
    rationale=(
        "Tool arguments are always a JSON object: MCP, OpenAI and Anthropic require the parameters schema "
        "to say `type: object` at its root (a `$ref` or `anyOf` that leads to one is not enough), and refuse "
        "anything else. A tool without parameters writes `{type: object, additionalProperties: false}`. A "
        "descriptor with no `input_schema` is not reported by this rule: that is a missing field, not a wrong root."
    ),
    examples=(
        Bad(_WEATHER.replace("  type: object\n", "  type: [object, 'null']\n"), line=5),
        Bad(_WEATHER.replace("  type: object\n", ""), line=5, note="no type at the root"),
        Good(_WEATHER),
        Good("toolcontract: 1\nname: clock_now\neffect: read\n"
             "input_schema: {type: object, additionalProperties: false}\n", note="a tool without parameters"),
    ),
)
def schema_root_not_object(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    schema = tool.get("input_schema")
    if isinstance(schema, bool):
        yield Hit(("input_schema",), f"input_schema is `{str(schema).lower()}`: write `type: object` with "
                  "the properties the tool takes")
        return
    if not isinstance(schema, dict):
        return  # absent (not a finding) or of the wrong type (TC002)
    kind = schema.get("type")
    if "type" not in schema:
        yield Hit(("input_schema",), "the root of input_schema has no `type: object`: tool arguments are "
                  "always an object", anchor="value")
    elif kind == "object" or kind == ["object"]:
        return
    elif isinstance(kind, (str, list)) and not (types_of(schema) - JSON_TYPES):  # bad names are TC401's
        why = "never null" if "null" in types_of(schema) else "always an object"
        yield Hit(("input_schema", "type"), f"the root of input_schema is type {_json(kind)}, not object: "
                  f"tool arguments are {why}")


def _json(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)


@rule(
    id="TC403",
    name="additional-properties-open",
    severity=Severity.WARNING,
    summary="An object in `input_schema` does not set `additionalProperties: false`.",
    rationale=(
        "JSON Schema accepts any property a schema does not mention, so an argument a model invents "
        "(`force: true`, a misspelled `cty`) passes validation and the tool silently ignores it, or worse, "
        "uses it. OpenAI's and Anthropic's strict modes require `additionalProperties: false` on every object. "
        "`unevaluatedProperties: false` closes an object too; an `additionalProperties` that is a schema "
        "(a typed map such as labels) is deliberate and not reported."
    ),
    examples=(
        Bad(_WEATHER.replace("  additionalProperties: false\n", ""), line=5),
        Bad(_WEATHER.replace("  additionalProperties: false\n", "  additionalProperties: true\n"), line=9),
        Good(_WEATHER),
        Good(_WEATHER.replace("  required", "    labels:\n      type: object\n      additionalProperties: "
                              "{type: string}\n      description: Free-form labels for the request.\n  required"),
             note="a typed map"),
    ),
    once_per_copy=True,
)
def additional_properties_open(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    schema = tool.get("input_schema")
    if not isinstance(schema, dict):
        return
    w = context(tool).walk(schema)
    for index, node in enumerate(w.nodes):
        s = node.schema
        kind = s.get("type")
        if kind.__class__ is str:  # most subschemas: _declares_object without the call
            if kind != "object":
                continue
        elif not _declares_object(s):
            continue
        if node.conditional or _effectively_closed(s):
            continue
        if node.via in IN_PLACE and "type" not in s:
            continue  # a branch that adds properties: the object that combines it is reported
        if ("$ref" in s or "$dynamicRef" in s) and "properties" not in s:
            continue  # the referenced schema decides
        if any(k in s and not isinstance(s[k], bool) for k in ("additionalProperties", "unevaluatedProperties")):
            continue  # of the wrong type: TC401
        if any(_closed(a.schema) for a in _in_place_ancestors(w, index)):
            continue
        path = ("input_schema", *node.path)
        what = f"the object at {_where(node.path)}"
        if "additionalProperties" in s:
            yield Hit((*path, "additionalProperties"), f"{what} allows any extra property: set "
                      "`additionalProperties: false` (or a schema, for a map)")
        elif "unevaluatedProperties" in s:
            yield Hit((*path, "unevaluatedProperties"), f"{what} allows any extra property: set "
                      "`unevaluatedProperties: false`")
        else:
            yield Hit(path, f"{what} does not set `additionalProperties: false`: any extra property a model "
                      "invents is accepted", anchor="value")


@rule(
    id="TC404",
    name="property-undocumented",
    severity=Severity.WARNING,
    summary="A property of `input_schema` has no `description`.",
    rationale=(
        "The property descriptions are the only documentation a model reads for each argument: without "
        "one it guesses formats, units and meaning from the name (is `date` ISO 8601? is `limit` a count "
        "or bytes?). A property that is only a `$ref` is documented when the schema it refers to has a "
        "description. A `title` does not count: it is a display label, not an explanation."
    ),
    examples=(
        Bad(_WEATHER.replace("{type: string, description: City name such as Lisbon.}", "{type: string}"), line=7),
        Good(_WEATHER),
    ),
    once_per_copy=True,
)
def property_undocumented(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    schema = tool.get("input_schema")
    if not isinstance(schema, dict):
        return
    w = context(tool).walk(schema)
    for node, name, sub in _declared_properties(w):
        if not isinstance(sub, dict):
            continue
        description = sub.get("description")
        if isinstance(description, str):
            if description.strip():
                continue
        elif "description" in sub:
            continue  # not a string: TC401's
        ref = sub.get("$ref")
        if isinstance(ref, str):
            fate, target = resolve_ref(w, node, ref)
            if fate != "ok" or (isinstance(target, dict) and _text(target.get("description"))):
                continue  # TC407/TC408 report a ref that does not resolve
        yield Hit(("input_schema", *node.path, "properties", name),
                  f"property {_q(name)} has no description: say what it means, its format and units", anchor="value")


@rule(
    id="TC405",
    name="required-undefined",
    severity=Severity.ERROR,
    summary="`required` names a property that `properties` does not define.",
    rationale=(
        "A required property with no schema is one the model has never been told about: it cannot know to "
        "send it, every call fails validation, and with `additionalProperties: false` no call can succeed "
        "at all. Usually it is a typo or a property renamed in one place only. Names matched by "
        "`patternProperties` or typed by a map's `additionalProperties` schema are defined; the `required` of "
        "`semantic_rules` is checked against `input_schema` too."
    ),
    examples=(
        Bad(_WEATHER.replace("required: [city]", "required: [city, country]"), line=8),
        Good(_WEATHER),
    ),
)
def required_undefined(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    schema = tool.get("input_schema")
    if not isinstance(schema, dict):
        return
    w = context(tool).walk(schema)
    defined: _Definitions | None = None  # built only when a name is not defined next to it
    for path, value, sw in _field_walks(tool):
        if path[0] == "output_schema":
            continue
        if path == ("input_schema",):
            sw = w  # the same walk (kept by identity); `is w` below tells input_schema's nodes apart
        if "required" not in sw.marks:
            continue
        for node in sw.having("required"):
            required = node.schema.get("required")
            if not isinstance(required, list):
                continue
            own = node.schema.get("properties")
            if sw is w and isinstance(own, dict):
                for name in required:
                    if isinstance(name, str) and name not in own:
                        break
                else:
                    continue  # every name is defined next to it
            if defined is None:
                defined = _Definitions(w)
            known = defined.get(node.key)
            if known is None:
                continue  # a location input_schema does not describe: nothing to compare with
            if known.unknown:
                continue
            for i, name in enumerate(required):
                if isinstance(name, str) and name not in known.names and not known.matches(name):
                    hint = _suggest(name, known.names)
                    yield Hit((*path, *node.path, "required", i),
                              f"required property {_q(name)} is not defined in `properties`{hint}")


class _Defined:
    """The property names and patterns a location defines; `unknown`: a `$ref` that does not
    resolve, a typed map, or properties of the wrong type make the list incomplete."""

    __slots__ = ("names", "patterns", "unknown")

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.patterns: list[str] = []
        self.unknown = False

    def matches(self, name: str) -> bool:
        return any(_search(p, name) for p in self.patterns)


class _Definitions:
    """What each instance location of input_schema defines, over every schema that applies to it
    (the location's own schema, its allOf/anyOf/then/... branches, and what their `$ref`s lead to)."""

    def __init__(self, w: Walk):
        self.walk = w
        self.groups: dict[tuple, list[Node]] = {}
        for node in w.nodes:
            self.groups.setdefault(node.key, []).append(node)
        self.done: dict[tuple, _Defined] = {}

    def get(self, key: tuple) -> _Defined | None:
        if key not in self.groups:
            return None
        if key not in self.done:
            found = _Defined()
            self._collect(key, found, set())
            self.done[key] = found
        return self.done[key]

    def _collect(self, key: tuple, into: _Defined, seen: set) -> None:
        if key in seen:
            return
        seen.add(key)
        for node in self.groups.get(key, ()):
            s = node.schema
            properties, patterns = s.get("properties"), s.get("patternProperties")
            if isinstance(properties, dict):
                into.names.update(k for k in properties if isinstance(k, str))
            elif properties is not None:
                into.unknown = True
            if isinstance(patterns, dict):
                into.patterns.extend(k for k in patterns if isinstance(k, str))
            if isinstance(s.get("additionalProperties"), dict):
                into.unknown = True
            for keyword in ("$ref", "$dynamicRef"):
                ref = s.get(keyword)
                if not isinstance(ref, str):
                    continue
                fate, target = resolve_ref(self.walk, node, ref)
                index = self.walk.index.get(id(target)) if fate == "ok" else None
                if index is None:
                    into.unknown = True
                else:
                    self._collect(self.walk.nodes[index].key, into, seen)


def _search(pattern: str, name: str) -> bool:
    # a linear-time engine: the pattern is untrusted (Python's `re` can backtrack for hours);
    # a pattern that cannot be evaluated may match
    from toolcontract.core.schema.validation import pattern_matches

    return pattern_matches(pattern, name) is not False


def _suggest(name: str, names: set[str]) -> str:
    import difflib

    close = difflib.get_close_matches(name, sorted(names), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


_FORECAST = """\
toolcontract: 1
name: weather_forecast
effect: read
input_schema:
  type: object
  properties:
    city: {type: string, description: City name such as Lisbon.}
    days: {type: integer, minimum: 1, maximum: 7, description: Number of days to forecast.}
  required: [city]
  additionalProperties: false
examples:
  - {city: Lisbon, days: 3}
"""


@rule(
    id="TC406",
    name="example-invalid",
    severity=Severity.ERROR,
    summary="An entry of `examples` does not validate against `input_schema`.",
    rationale=(
        "A model imitates examples closely and people copy them, so an invalid example teaches calls the "
        "schema then refuses; Anthropic rejects a request (400) whose `input_examples` do not validate. An "
        "example that fails is also the quickest sign that the schema says less, or more, than the author "
        "meant. Checked only when `input_schema` is valid and compiles; every error is reported with its place."
    ),
    examples=(
        Bad(_FORECAST + "  - {city: Lisbon, days: 10}\n", line=13),
        Bad(_FORECAST + "  - {days: 2}\n", line=13, note="a required property is missing"),
        Good(_FORECAST),
    ),
)
def example_invalid(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    examples, schema = tool.get("examples"), tool.get("input_schema")
    if not isinstance(examples, list) or not examples or not isinstance(schema, (dict, bool)):
        return
    ctx = context(tool)
    if ctx.meta_errors(schema):
        return  # TC401
    if _examples_accepted(ctx, schema, examples):
        return  # every example is certainly valid: no need to compile the schema
    try:
        validator = compile_validator(schema)
    except ValueError:
        return  # a remote or dangling $ref, a bad pattern: TC407, TC408, TC410
    for i, example in enumerate(examples):
        if not isinstance(example, dict):
            continue  # TC002
        try:
            errors = explain_errors(validator, example)  # bounded: at most 20, never quadratic
        except (ValueError, TypeError, OverflowError):
            continue  # a value JSON cannot hold
        for n, (at, message) in enumerate(errors, 1):
            where = join_pointer("", *at) or "the root"
            note = f" ({errors.note})" if errors.note and n == len(errors) else ""
            yield Hit(("examples", i), f"example {i + 1} fails input_schema at {where}: {message}{note}")


def _examples_accepted(ctx: ToolContext, schema: Any, examples: list) -> bool:
    """Whether schema_tools.accepts vouches for every example (`schema` is metaschema-valid)."""
    if isinstance(schema, dict):
        w = ctx.walk(schema)
        if w._patterns_linear is None:
            w._patterns_linear = _patterns_linear(w, schema)
        if not w._patterns_linear:
            return False
    try:
        return all(accepts(schema, example) for example in examples if isinstance(example, dict))
    except RecursionError:
        return False


def _patterns_linear(w: Walk, schema: dict) -> bool:
    """What accepts() asks of a schema: no `$ref` (nothing outside the walk's nodes is compiled),
    and every `pattern` and `patternProperties` key compiles with the linear-time engine (so
    compile_validator would compile the whole schema with it, the engine `accepts` matches with).

    The walk's marks find them in every subschema under a keyword it knows; a keyword it does not
    know (`dependencies`, which jsonschema-rs compiles, or any other) whose value is a mapping or a
    list sends the question to _linear_everywhere, which looks at every key at any depth."""
    marks = w.marks
    if w.truncated or "$ref" in marks or "$dynamicRef" in marks:
        return False
    nodes = w.nodes
    if w.foreign:
        return _linear_everywhere(schema, 0)
    for i in marks.get("pattern", ()):
        pattern = nodes[i].schema["pattern"]
        if isinstance(pattern, str) and linear_pattern(pattern) is None:
            return False
    for i in marks.get("patternProperties", ()):
        keys = nodes[i].schema["patternProperties"]
        if isinstance(keys, dict) and any(isinstance(k, str) and linear_pattern(k) is None for k in keys):
            return False
    return True


def _linear_everywhere(value: Any, depth: int) -> bool:
    """No `$ref` anywhere in `value`, and every `pattern` and `patternProperties` key in it
    compiles with the linear-time engine: then compile_validator would compile the schema with
    that engine, the one `accepts` matches patterns with. Every key at any depth counts, not only
    those the walk knows as keywords: whatever a validator might compile is covered."""
    if depth > 200:
        return False
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "pattern":
                if isinstance(item, str) and linear_pattern(item) is None:
                    return False
            elif key == "patternProperties":
                if isinstance(item, dict) and any(isinstance(k, str) and linear_pattern(k) is None for k in item):
                    return False
            elif key == "$ref" or key == "$dynamicRef":
                return False
            if isinstance(item, (dict, list)) and not _linear_everywhere(item, depth + 1):
                return False
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, (dict, list)) and not _linear_everywhere(item, depth + 1):
                return False
    return True


_ADDRESS = """\
toolcontract: 1
name: parcel_quote
effect: read
input_schema:
  type: object
  properties:
    to: {$ref: "#/$defs/address"}
  required: [to]
  additionalProperties: false
  $defs:
    address:
      type: object
      description: Delivery address.
      properties:
        postcode: {type: string, description: Postal code.}
      additionalProperties: false
"""


@rule(
    id="TC407",
    name="ref-remote",
    severity=Severity.ERROR,
    summary="A `$ref` or `$dynamicRef` points outside the document.",
    rationale=(
        "A reference outside the schema is either not resolved (the MCP draft and Anthropic's strict mode "
        "refuse external references, and a client that skips it leaves the property unchecked) or fetched: "
        "python-jsonschema fetches `http` and `file` references by default, so validating one argument can "
        "make a request or read a local file. toolcontract never fetches it; put the definition under "
        "`$defs` and refer to it with `#/$defs/...`."
    ),
    examples=(
        Bad(_ADDRESS.replace('"#/$defs/address"', '"https://example.com/schemas/address.json"'), line=7),
        Bad(_ADDRESS.replace('"#/$defs/address"', '"address.json#/address"'), line=7, note="a relative file"),
        Good(_ADDRESS),
    ),
)
def ref_remote(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    for path, schema, w in _field_walks(tool):
        for node, keyword, ref in _refs(w):
            fate, target = resolve_ref(w, node, ref)
            if fate == "remote":
                yield Hit((*path, *node.path, keyword), f"{keyword} {_q(ref)} points outside the schema and is "
                          "never fetched: define it under `$defs` and use `#/$defs/...`")


@rule(
    id="TC408",
    name="ref-unresolvable",
    severity=Severity.ERROR,
    summary="A local `$ref` (`#...`) does not resolve within its schema.",
    rationale=(
        "A dangling reference makes the schema uncompilable: validators refuse it, so a client either "
        "rejects the tool or validates nothing. A common cause is a schema converted from draft-07 that "
        "still points at `#/definitions/...` after the definitions moved to `$defs`. Each schema (input, "
        "output, each semantic rule's `if`/`then`) resolves on its own; `#name` needs a matching `$anchor`."
    ),
    examples=(
        Bad(_ADDRESS.replace('"#/$defs/address"', '"#/definitions/address"'), line=7),
        Good(_ADDRESS),
    ),
)
def ref_unresolvable(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    for path, schema, w in _field_walks(tool):
        for node, keyword, ref in _refs(w):
            fate, why = resolve_ref(w, node, ref)
            if fate == "missing":
                yield Hit((*path, *node.path, keyword), f"{keyword} {_q(ref)} does not resolve: {why}")


@rule(
    id="TC409",
    name="output-schema-invalid",
    severity=Severity.ERROR,
    summary="`output_schema` is not valid JSON Schema 2020-12, or its root is not an object.",
    rationale=(
        "MCP 2025-11-25 requires `outputSchema` to be `type: object`, servers must return `structuredContent` "
        "that conforms, and clients should validate results against it, so an invalid or non-object schema "
        "makes every result suspect. The assess step uses it too: a result that does not match is a failed "
        "call, which an unusable schema turns into noise."
    ),
    examples=(
        Bad(_WEATHER + "output_schema:\n  type: array\n  items: {type: number}\n", line=11),
        Bad(_WEATHER + "output_schema:\n  type: object\n  properties:\n    temperature: {type: float}\n", line=13),
        Good(_WEATHER + "output_schema:\n  type: object\n  properties:\n    temperature_c: {type: number}\n"),
    ),
)
def output_schema_invalid(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    schema = tool.get("output_schema")
    if not isinstance(schema, (dict, bool)):
        return
    errors = list(_meta_hits(context(tool), ("output_schema",), schema, "output_schema"))
    yield from errors
    if isinstance(schema, bool):
        yield Hit(("output_schema",), f"output_schema is `{str(schema).lower()}`: write `type: object` with "
                  "the fields the tool returns")
    elif "type" not in schema:
        yield Hit(("output_schema",), "the root of output_schema has no `type: object`", anchor="value")
    elif not any(h.path == ("output_schema", "type") for h in errors) and types_of(schema) != {"object"}:
        yield Hit(("output_schema", "type"), f"the root of output_schema is type {_json(schema['type'])}, "
                  "not object: MCP structured results are objects (return the value in a field)")


@functools.lru_cache(maxsize=4096)
def regex_problem(pattern: str) -> str | None:
    """Why `pattern` is not an ECMA-262 regular expression as validators read it, or None."""
    from toolcontract.core.schema.validation import jsonschema_rs

    try:
        jsonschema_rs.validator_for({"pattern": pattern})
    except jsonschema_rs.ValidationError:
        try:
            re.compile(pattern)
        except (re.error, RecursionError, OverflowError) as exc:
            return str(exc)
        return "not valid in ECMA-262 syntax"
    return None


@rule(
    id="TC410",
    name="pattern-invalid",
    severity=Severity.ERROR,
    summary="A `pattern` or `patternProperties` key is not a valid regular expression.",
    rationale=(
        "A broken regular expression makes the schema uncompilable (the metaschema says `format: regex`, "
        "and checkers such as python-jsonschema's `check_schema` assert it), so a client either rejects the "
        "tool or accepts any string. JSON Schema patterns are ECMA-262 (JavaScript) expressions: "
        "`(?<name>...)` and `\\p{L}` are fine although Python's `re` rejects them; an unclosed group is not."
    ),
    examples=(
        Bad(_WEATHER.replace("City name such as Lisbon.}", "City name.}\n    country: {type: string, "
                             "pattern: '^([A-Z]{2}$', description: ISO 3166 code.}"), line=8),
        Good(_WEATHER.replace("City name such as Lisbon.}", "City name.}\n    country: {type: string, "
                              "pattern: '^(?<code>[A-Z]{2})$', description: ISO 3166 code.}")),
        Good(_WEATHER.replace("{type: string, description", "{type: string, pattern: '^\\p{L}+$', description")),
    ),
)
def pattern_invalid(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    for path, schema, w in _field_walks(tool):
        if "pattern" not in w.marks and "patternProperties" not in w.marks:
            continue
        for node in w.having("pattern", "patternProperties"):
            pattern = node.schema.get("pattern")
            if isinstance(pattern, str):
                problem = regex_problem(pattern)
                if problem:
                    yield Hit((*path, *node.path, "pattern"), f"pattern {_q(pattern)} is not a valid regular "
                              f"expression: {problem}")
            patterns = node.schema.get("patternProperties")
            if isinstance(patterns, dict):
                for key in patterns:
                    problem = regex_problem(key) if isinstance(key, str) else None
                    if problem:
                        yield Hit((*path, *node.path, "patternProperties", key), f"patternProperties key {_q(key)} "
                                  f"is not a valid regular expression: {problem}", anchor="key")


@rule(
    id="TC411",
    name="property-untyped",
    severity=Severity.WARNING,
    summary="A property of `input_schema` says nothing about its type.",
    rationale=(
        "A property with no `type`, `enum`, `const`, `$ref` or typed `anyOf`/`oneOf`/`allOf` accepts any "
        "JSON value, so a model may send a number, a string or an object for it and every one validates; "
        "the tool finds out at run time. `allOf` counts when one of its branches is typed, `anyOf`/`oneOf` "
        "when all are; a property schema `true` is untyped, `false` (a forbidden property) is not reported."
    ),
    examples=(
        Bad(_WEATHER.replace("{type: string, description", "{description"), line=7),
        Good(_WEATHER),
        Good(_WEATHER.replace("{type: string, description", "{anyOf: [{type: string}, {type: integer}], description"),
             note="every branch is typed"),
    ),
    once_per_copy=True,
)
def property_untyped(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    schema = tool.get("input_schema")
    if not isinstance(schema, dict):
        return
    for node, name, sub in _declared_properties(context(tool).walk(schema)):
        if sub is True or (isinstance(sub, dict) and "type" not in sub and not _typed(sub)):
            yield Hit(("input_schema", *node.path, "properties", name),
                      f"property {_q(name)} has no type: it accepts any value (give it `type`, `enum` or `const`)",
                      anchor="value")


# the drafts before 2020-12, by the name KNOWN_DIALECTS gives them
_DRAFTS = ("draft-03", "draft-04", "draft-06", "draft-07", "2019-09")
_UP_TO_07 = frozenset(("draft-03", "draft-04", "draft-06", "draft-07"))
_UP_TO_04 = frozenset(("draft-03", "draft-04"))
# what MCP and toolcontract read a schema without `$schema` as; "http://json-schema.org/schema#" is the latest
# draft, which jsonschema-rs reads as 2020-12
_AS_2020_12 = frozenset(("2020-12", "latest"))
# keywords that assert or apply subschemas in draft-07 and earlier: next to a `$ref` those drafts ignore them,
# 2020-12 applies them (annotations such as description or default change nothing that validates)
_REF_IGNORED_SIBLINGS = (
    "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
    "maxLength", "minLength", "pattern", "items", "additionalItems", "maxItems", "minItems", "uniqueItems",
    "contains", "maxProperties", "minProperties", "required", "properties", "patternProperties",
    "additionalProperties", "dependencies", "propertyNames", "if", "then", "else", "allOf", "anyOf", "oneOf", "not",
    "extends", "disallow", "divisibleBy",
)


def dialect_name(uri: str) -> str | None:
    """The dialect a `$schema` URI names (`draft-07`, `2020-12`, `latest`), or None for one no validator knows.
    The scheme and an empty fragment do not matter (validators accept `http`, `https`, `#` and none)."""
    key = uri.strip().split("://", 1)[-1].rstrip("#")
    if key == "json-schema.org/schema":
        return "latest"
    return KNOWN_DIALECTS.get(key)


@rule(
    id="TC412",
    name="dialect-unsupported",
    severity=Severity.WARNING,
    summary=("`$schema` names an earlier draft that reads a keyword of the schema otherwise than 2020-12, "
             "or no known dialect."),
    rationale=(
        "MCP reads a schema without `$schema` as JSON Schema 2020-12, and toolcontract reads every schema so, "
        "while validators such as python-jsonschema and jsonschema-rs pick their rules from `$schema`. Naming "
        "draft-07 is harmless in itself (zod-to-json-schema does it for many TypeScript servers): it matters "
        "only where the drafts disagree on a keyword the schema uses, because then two clients accept "
        "different arguments for the same tool. Those keywords are an `items` list (a tuple up to 2019-09, "
        "`prefixItems` in 2020-12), `dependencies` (up to draft-07; `dependentRequired`/`dependentSchemas` "
        "since), `$recursiveRef` and `$recursiveAnchor` (2019-09 only), a boolean `exclusiveMinimum`/"
        "`exclusiveMaximum` and `id` as the base URI of `$ref`s (draft-04), assertions beside a `$ref` (ignored "
        "up to draft-07, applied in 2020-12; annotations there change nothing), and draft-03's boolean "
        "`required`, `extends`, `disallow` and `divisibleBy`. A `$schema` no validator knows is reported too: "
        "jsonschema-rs refuses to build a validator for it. Convert the keyword to 2020-12 and name "
        "https://json-schema.org/draft/2020-12/schema (or drop `$schema`)."
    ),
    examples=(
        Bad(_WEATHER.replace("  type: object\n", "  $schema: http://json-schema.org/draft-07/schema#\n  type: object\n")
            .replace("{type: string, description: City name such as Lisbon.}",
                     "{$ref: '#/definitions/city', maxLength: 40}\n  definitions:\n"
                     "    city: {type: string, description: City name such as Lisbon.}"), line=8,
            note="draft-07 ignores maxLength beside $ref; 2020-12 applies it"),
        Bad(_WEATHER.replace("  type: object\n", "  $schema: http://json-schema.org/draft-07/schema#\n  type: object\n")
            .replace("  required", "    at:\n      type: array\n      description: Latitude and longitude.\n"
                     "      items: [{type: number}, {type: number}]\n  required"), line=12, note="tuple items"),
        Good(_WEATHER.replace("  type: object\n", "  $schema: http://json-schema.org/draft-07/schema#\n"
                              "  type: object\n"), note="draft-07 named, but nothing in the schema reads differently"),
        Good(_WEATHER.replace("  type: object\n", "  $schema: https://json-schema.org/draft/2020-12/schema\n"
                              "  type: object\n")),
    ),
)
def dialect_unsupported(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    for path, schema, w in _field_walks(tool):
        if "$schema" not in w.marks:
            continue
        declared = w.having("$schema")
        earlier = False
        for node in declared:
            dialect = node.schema.get("$schema")
            if not isinstance(dialect, str) or dialect in DIALECTS_2020_12:
                continue
            name = dialect_name(dialect)
            if name is None:
                yield Hit((*path, *node.path, "$schema"), f"$schema {_q(dialect)} is not a JSON Schema dialect "
                          "validators know (jsonschema-rs refuses to build a validator for it): name "
                          f"{_q(META_2020_12)} or drop it")
            elif name not in _AS_2020_12:
                earlier = True
        if earlier:
            yield from _dialect_differences(path, w)


def _dialect_differences(path: tuple, w: Walk) -> Iterator[Hit]:
    """The keywords of nodes under an earlier draft's `$schema` that the draft reads otherwise than 2020-12."""
    nodes = w.nodes
    names: list[str | None] = [None] * len(nodes)  # the dialect each node is read with, by its nearest `$schema`
    has_ref = "$ref" in w.marks
    for i, node in enumerate(nodes):
        own = node.schema.get("$schema")
        if isinstance(own, str):
            names[i] = dialect_name(own) if own not in DIALECTS_2020_12 else "2020-12"
        elif node.parent >= 0:
            names[i] = names[node.parent]
        name = names[i]
        if name is None or name not in _DRAFTS:
            continue
        s = node.schema
        at = (*path, *node.path)
        where = _where(node.path)
        if isinstance(s.get("items"), list):
            yield Hit((*at, "items"), f"`items` at {where} is a list: {name} checks the n-th item against the n-th "
                      "schema (a tuple), 2020-12 (how MCP reads schemas) has no list form and uses `prefixItems` "
                      "for it: write `prefixItems` and name 2020-12 in `$schema`")
        if name in _UP_TO_07 and isinstance(s.get("dependencies"), dict):
            yield Hit((*at, "dependencies"), f"`dependencies` at {where}: {name} requires the listed properties (or "
                      "applies the schema) when a property is present, 2020-12 has no `dependencies` and validators "
                      "that follow it ignore it: write `dependentRequired` (lists) or `dependentSchemas` (schemas)")
        if name == "2019-09":
            for keyword in ("$recursiveRef", "$recursiveAnchor"):
                if keyword in s:
                    yield Hit((*at, keyword), f"`{keyword}` at {where} is 2019-09's dynamic recursion; 2020-12 "
                              "ignores it (it has `$dynamicRef`/`$dynamicAnchor`), so the recursion is lost: "
                              "convert it to `$dynamicRef`/`$dynamicAnchor`")
        if name in _UP_TO_04:
            for keyword, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
                flag = s.get(keyword)
                if isinstance(flag, bool):
                    value = s.get(bound)
                    numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
                    fix = (f"write `{keyword}: {_json(value)}` without `{bound}`" if flag and numeric
                           else f"write `{keyword}` as the bound itself, or drop it")
                    yield Hit((*at, keyword), f"`{keyword}: {_json(flag)}` at {where} makes `{bound}` exclusive in "
                              f"{name}; in 2020-12 `{keyword}` is the bound itself and must be a number: {fix}")
            ident = s.get("id")
            if has_ref and isinstance(ident, str):
                yield Hit((*at, "id"), f"`id` {_q(ident)} at {where} is the base URI `$ref`s resolve against in "
                          f"{name}; 2020-12 ignores `id` (it reads `$id`), so references may resolve elsewhere: "
                          "rename it `$id`")
        if name == "draft-03":
            if isinstance(s.get("required"), bool):
                yield Hit((*at, "required"), f"`required: {_json(s['required'])}` at {where} marks the property "
                          "required in draft-03; 2020-12 lists required names on the object: move it to the "
                          "object's `required` list")
            for keyword, instead in (("extends", "allOf"), ("disallow", "not"), ("divisibleBy", "multipleOf")):
                if keyword in s:
                    yield Hit((*at, keyword), f"`{keyword}` at {where} is draft-03's; 2020-12 ignores it: "
                              f"write `{instead}`")
        if name in _UP_TO_07 and isinstance(s.get("$ref"), str):
            ignored = [k for k in _REF_IGNORED_SIBLINGS if k in s]
            if ignored:
                listed = ", ".join(f"`{k}`" for k in ignored[:4]) + (" ..." if len(ignored) > 4 else "")
                yield Hit((*at, "$ref"), f"`$ref` at {where} has {listed} beside it: {name} ignores every keyword "
                          "next to `$ref`, 2020-12 applies them too, so clients accept different values: put the "
                          "`$ref` in an `allOf` with them, or drop them")


_SEMANTIC = _WEATHER.replace(
    "  required",
    "    units: {type: string, enum: [metric, imperial], description: Unit system.}\n"
    "    country: {type: string, description: ISO 3166 code.}\n  required",
) + """\
semantic_rules:
  - id: imperial-needs-country
    message: Imperial units are only offered for US cities.
    if: {properties: {units: {const: imperial}}, required: [units]}
    then: {required: [country]}
"""


@rule(
    id="TC413",
    name="semantic-rule-invalid",
    severity=Severity.ERROR,
    summary="A `semantic_rules` entry lacks `id`, `message`, `if` or `then`, repeats an id, or has an invalid schema.",
    rationale=(
        "Semantic rules are the business rules the semantic gate applies before a call is admitted. A rule "
        "without `if` or `then` checks nothing, one without `message` refuses a call without telling the "
        "model what to fix, and one without a unique `id` cannot be named in a refusal or a log. An `if` or "
        "`then` that is not valid JSON Schema cannot be compiled, so the rule cannot be applied at all."
    ),
    examples=(
        Bad(_SEMANTIC.replace("    message: Imperial units are only offered for US cities.\n", ""), line=13,
            note="no message"),
        Bad(_SEMANTIC.replace("{required: [country]}", "{required: country}"), line=16),
        Good(_SEMANTIC),
    ),
)
def semantic_rule_invalid(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    rules = tool.get("semantic_rules")
    if not isinstance(rules, list):
        return
    first_at: dict[str, int] = {}
    for i, entry in enumerate(rules):
        if not isinstance(entry, dict):
            continue  # TC002
        at = ("semantic_rules", i)
        label = f"semantic rule {i + 1}"
        for key, why in (("id", "a refusal cannot name it"), ("message", "a refusal cannot say what to fix"),
                         ("if", "it never applies"), ("then", "it requires nothing")):
            if key not in entry:
                yield Hit(at, f"{label} has no `{key}`: {why}", anchor="value")
            elif key in ("id", "message") and isinstance(entry[key], str) and not entry[key].strip():
                yield Hit((*at, key), f"{label} has a blank `{key}`: {why}")
        rule_id = entry.get("id")
        if isinstance(rule_id, str) and rule_id.strip():
            if rule_id in first_at:
                line = _line_of(tool, ("semantic_rules", first_at[rule_id], "id"))
                yield Hit((*at, "id"), f"semantic rule id {_q(rule_id)} is also used at line {line}")
            else:
                first_at[rule_id] = i
        for part in ("if", "then", "else"):
            value = entry.get(part)
            if isinstance(value, (dict, bool)):
                yield from _meta_hits(context(tool), (*at, part), value, f"{label}'s `{part}`")


# ------------------------------------------------------------ defaults (TC414, TC415)

_REF_KEYS = frozenset(("$ref", "$dynamicRef"))
_DEF_KEYS = ("$defs", "definitions")


def _ref_values(value: Any, into: list, depth: int = 0) -> bool:
    """Collect every `$ref` string anywhere in `value`; False when it cannot be told (too deep, a `$ref`
    that is not a string, a `$dynamicRef`)."""
    if depth > 200:
        return False
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "$ref":
                if not isinstance(item, str):
                    return False
                into.append(item)
            elif key == "$dynamicRef":
                return False
            if isinstance(item, (dict, list)) and not _ref_values(item, into, depth + 1):
                return False
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, (dict, list)) and not _ref_values(item, into, depth + 1):
                return False
    return True


def _standalone(w: Walk, root: dict, schema: dict) -> dict | None:
    """`schema` without its `default`, as a schema of its own; None when its meaning depends on what it cannot
    carry along. `$ref`s are kept only when they point into the root's `$defs`/`definitions` (copied in, so they
    resolve to the same schemas), in a schema without other resources (`$id`s)."""
    sub = {k: v for k, v in schema.items() if k != "default"}
    if not _mentions(sub, _REF_KEYS, 0):
        return sub
    if len(w.resources) > 1 or w.truncated or any(k in sub for k in (*_DEF_KEYS, "$id")):
        return None
    carried = {k: root[k] for k in _DEF_KEYS if isinstance(root.get(k), dict)}
    refs: list[str] = []
    if not carried or not _ref_values(sub, refs) or not _ref_values(list(carried.values()), refs):
        return None
    for ref in refs:
        head, _, rest = ref.partition("/")
        if head != "#" or rest.split("/", 1)[0] not in carried:
            return None  # `#`, `#/properties/...`, an anchor or another document: not carried
    sub.update(carried)
    return sub


# TC414 validates each default against its whole subschema, so nested defaults check the same parts again: at most
# this many keys and values (see _subtree_weights) are checked per tool. Real schemas use a few hundred.
_DEFAULT_BUDGET = 100_000
_SUBSCHEMA_FORMS = frozenset(k for k, form in _FORMS.items() if form[0] in ("one", "map", "list"))


def _subtree_weights(w: Walk) -> list[int]:
    """For each node, the keys and data values (enum members, consts, defaults, unknown keywords, at any depth)
    of its subschema, its subschemas' included: a measure of what validating against it reads."""
    nodes = w.nodes
    weights = [0] * len(nodes)
    cap = _DEFAULT_BUDGET + 1
    for i, node in enumerate(nodes):
        total = 0
        for key, value in node.schema.items():
            total += 1
            if value.__class__ is dict or value.__class__ is list:
                # a keyword's subschemas are nodes of their own (counted there); anything else is data
                total += len(value) if key in _SUBSCHEMA_FORMS else _size(value, cap)
        weights[i] = total
    for i in range(len(nodes) - 1, 0, -1):
        weights[nodes[i].parent] += weights[i]
    return weights


def _size(value: Any, cap: int) -> int:
    """The members of a JSON value at every depth, counting stopped past `cap`."""
    count, stack = 0, [value]
    while stack and count <= cap:
        item = stack.pop()
        if item.__class__ is dict:
            count += len(item)
            stack.extend(v for v in item.values() if v.__class__ is dict or v.__class__ is list)
        elif item.__class__ is list:
            count += len(item)
            stack.extend(v for v in item if v.__class__ is dict or v.__class__ is list)
    return count


def _default_error(w: Walk, root: dict, schema: dict) -> tuple[tuple, str] | None:
    """The first error of `schema`'s own `default` against `schema` without it, or None (valid, or not
    checkable: a schema that is not valid 2020-12, does not compile, or depends on what it cannot carry)."""
    sub = _standalone(w, root, schema)
    if not sub:
        return None  # a bare default: anything goes
    value = schema["default"]
    if not is_valid_schema(sub):
        return None  # TC401's
    try:
        if accepts(sub, value):
            return None
    except RecursionError:
        pass
    try:
        validator = compile_validator(sub)
        errors = explain_errors(validator, value)  # bounded
    except (ValueError, TypeError, OverflowError, RecursionError):
        return None  # a bad pattern (TC410), a dangling $ref (TC408), a value JSON cannot hold
    return errors[0] if errors else None


_DEFAULTS = """\
toolcontract: 1
name: report_export
effect: read
input_schema:
  type: object
  properties:
    report_id: {type: string, description: Report to export.}
    format: {type: string, enum: [csv, pdf], default: csv, description: File format.}
  required: [report_id]
  additionalProperties: false
"""


@rule(
    id="TC414",
    name="default-invalid",
    severity=Severity.WARNING,
    summary="A `default` in `input_schema` is rejected by its own schema.",
    rationale=(
        "A default is what the tool uses when the argument is left out, and models copy it when they fill the "
        "argument in. One the schema rejects (a value outside its `enum`, `\"false\"` for a boolean, `null` for a "
        "type that does not allow null, a number beyond `maximum`) either never happens, or gets every call that "
        "copies it refused by a validating client; either way schema and tool disagree about the argument. The "
        "default is checked against its own subschema without it; subschemas that are not valid 2020-12 (TC401), "
        "or whose `$ref`s lead outside the schema's `$defs`, are skipped."
    ),
    examples=(
        Bad(_DEFAULTS.replace("default: csv", "default: xlsx"), line=8, note="not in the enum"),
        Bad(_DEFAULTS.replace("    format", "    gzip: {type: boolean, default: 'false', description: Compress.}\n"
                              "    format"), line=8, note="a string for a boolean"),
        Good(_DEFAULTS),
        Good(_DEFAULTS.replace("{type: string, enum: [csv, pdf], default: csv,",
                               "{type: [string, 'null'], enum: [csv, pdf, null], default: null,"), note="null allowed"),
    ),
)
def default_invalid(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    schema = tool.get("input_schema")
    if not isinstance(schema, dict):
        return
    w = context(tool).walk(schema)
    checked = [i for i, node in enumerate(w.nodes) if "default" in node.schema and not node.conditional]
    if not checked or w.truncated:
        return
    weights = _subtree_weights(w)
    budget = _DEFAULT_BUDGET
    for i in checked:
        if weights[i] > budget:
            continue  # each default is checked against its whole subschema: cap the work on hostile input
        budget -= weights[i]
        node = w.nodes[i]
        s = node.schema
        error = _default_error(w, schema, s)
        if error is None:
            continue
        at, reason = error
        value = s["default"]
        where = f" at {join_pointer('', *at)}" if at else ""
        if len(reason) > 160:
            reason = reason[:150] + " ..."
        kinds = types_of(s)
        if value is None and kinds and "null" not in kinds:
            fix = "allow null in `type` if null means 'not given', or drop the default"
        elif isinstance(s.get("enum"), list) and "is not one of" in reason:
            fix = "make it one of the enum values, or drop it"
        else:
            fix = "change the default or the schema"
        yield Hit(("input_schema", *node.path, "default"),
                  f"default {_qv(value)} fails its own schema{where}: {reason}; {fix}")


@rule(
    id="TC415",
    name="required-with-default",
    severity=Severity.WARNING,
    summary="A property listed in `required` also declares a `default`.",
    rationale=(
        "A default applies only when the argument is left out, and a required argument never is: either the "
        "default is dead, or the property is meant to be optional and every call is made to send it anyway "
        "(models do, when the schema says required). Drop the default, or take the property out of `required`. "
        "Only the `required` of the object that declares the property counts; a requirement under `then` or a "
        "`oneOf` branch still leaves room for the default."
    ),
    examples=(
        Bad(_DEFAULTS.replace("required: [report_id]", "required: [report_id, format]"), line=8),
        Good(_DEFAULTS),
    ),
)
def required_with_default(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    schema = tool.get("input_schema")
    if not isinstance(schema, dict):
        return
    w = context(tool).walk(schema)
    if "required" not in w.marks:
        return
    for node in w.having("required"):
        required, properties = node.schema.get("required"), node.schema.get("properties")
        if node.conditional or not isinstance(required, list) or not isinstance(properties, dict):
            continue
        reported: set[str] = set()
        for name in required:
            sub = properties.get(name) if name.__class__ is str else None
            if sub.__class__ is dict and "default" in sub and name not in reported:
                reported.add(name)
                yield Hit(("input_schema", *node.path, "properties", name, "default"),
                          f"property {_q(name)} is required, so its default {_qv(sub['default'])} never applies: "
                          f"drop the default, or take {_q(name)} out of `required` if callers may leave it out")


# ------------------------------------------------------ parameter types across a list (TC416)


def _type_set(kind: Any) -> frozenset[str] | None:
    """A `type` as a set of JSON type names, spelled as JSON Schema does (`float` is number) and with
    `null` left out unless it is the only one (an optional-or-null parameter is the same parameter)."""
    if kind.__class__ is str:
        return _single_type_set(kind)
    elif not isinstance(kind, list) or not kind or not all(isinstance(k, str) for k in kind):
        return None
    names = frozenset(_TYPE_NAMES.get(k.lower(), k.lower()) for k in kind)
    return (names - {"null"}) or names


@functools.lru_cache(maxsize=256)
def _single_type_set(kind: str) -> frozenset[str]:
    """_type_set of a single type name, once per name."""
    return frozenset((_TYPE_NAMES.get(kind.lower(), kind.lower()),))


def _type_label(kinds: frozenset[str]) -> str:
    return " or ".join(sorted(kinds))


_MAJORITY = 3  # the majority type is used by at least this many tools, and this many times as often as another


_OWNER = """\
tools:
  - name: repo_get
    description: Get one repository by its owner and name.
    inputSchema:
      type: object
      properties:
        owner: {type: string, description: Account that owns the repository.}
        repo: {type: string, description: Repository name.}
  - name: repo_list_issues
    description: List the open issues of one repository.
    inputSchema:
      type: object
      properties:
        owner: {type: string, description: Account that owns the repository.}
        repo: {type: string, description: Repository name.}
  - name: repo_list_branches
    description: List the branches of one repository.
    inputSchema:
      type: object
      properties:
        owner: {type: string, description: Account that owns the repository.}
        repo: {type: string, description: Repository name.}
  - name: repo_star
    description: Star one repository for the signed-in user.
    inputSchema:
      type: object
      properties:
        owner: {type: integer, description: Account that owns the repository.}
        repo: {type: string, description: Repository name.}
"""


@rule(
    id="TC416",
    name="parameter-type-inconsistent",
    severity=Severity.INFO,
    scope="list",
    summary="A top-level parameter name has one type in most tools of a list and another in a few.",
    rationale=(
        "A model learns a tool list as a whole: when `owner` is a string in forty tools it sends a string to "
        "the one tool that wants an integer, and that call is refused or misread. Reported only against a clear "
        "majority (one type used by at least three tools and three times as often as the deviating one), once "
        "per name and deviating type, at the first tool that deviates; names that mean different things in "
        "different tools (an `id` of a story and of a user) rarely have such a majority. Types are compared as "
        "sets, with `null` left out (an optional-or-null parameter is the same parameter); untyped properties "
        "are skipped. Use one type for one meaning, or give the odd parameter its own name."
    ),
    examples=(
        Bad(_OWNER, line=28),
        Good(_OWNER.replace("owner: {type: integer,", "owner: {type: [string, 'null'],")),
    ),
)
def parameter_type_inconsistent(ctx: Any) -> Iterator[Hit]:
    if len(ctx.tools) <= _MAJORITY:
        return  # a majority of three and one tool that deviates from it need four tools
    # name -> type set -> the tools that use it, in list order
    uses: dict[str, dict[frozenset[str], list[ToolView]]] = {}
    for tool in ctx.tools:
        schema = tool.data.get("input_schema")
        properties = schema.get("properties") if isinstance(schema, dict) else None
        if not isinstance(properties, dict):
            continue
        for name, sub in properties.items():
            if isinstance(sub, dict) and "type" in sub:
                kinds = _type_set(sub["type"])
                if kinds is not None:
                    uses.setdefault(name, {}).setdefault(kinds, []).append(tool)
    for name, by_type in uses.items():
        if len(by_type) < 2:
            continue
        ranked = sorted(by_type.items(), key=lambda item: -len(item[1]))
        (major, users), rest = ranked[0], ranked[1:]
        if len(rest[0][1]) == len(users) or len(users) < _MAJORITY:
            continue  # no majority
        for kinds, deviating in rest:
            if len(users) < _MAJORITY * len(deviating):
                continue
            example = users[0].name
            yield Hit(
                ("input_schema", "properties", name, "type"),
                f"parameter {_q(name)} is {_type_label(kinds)} here but {_type_label(major)} in {len(users)} other "
                f"tools of this list (such as {_q(example)}): use one type for one meaning, or another name", subject=deviating[0])


# ----------------------------------------------------------- requirements in prose (TC417)

# a claim that the property is required, at the start of a sentence or clause ("Required for 'create'.",
# "(required)", "This field is required", "Must be provided with ..."), and what may follow it: the end,
# punctuation, or a word that states a condition or a reason (not a noun: "Required scopes: ...").
# Sources, not compiled patterns: re compiles them on first use (few descriptions say "required") and caches them.
_FOLLOW_SOURCE = (
    r"(?=\s*(?:$|[.,;:)\]!*'\"`\-\u2013\u2014]|(?:for|when|whenever|if|unless|except|with|without|in|only|on|once|"
    r"while|after|before|during|depending|to|by|and|but|so|because|field|parameter|argument|value|property)\b))"
)
_CLAIM_SOURCE = (
    r"(?:^|(?<=[.;:!?,(\[\n*])|(?<=\s[-\u2013\u2014]))[ \t]*"  # not \s*: a run of newlines would be read n^2 times
    r"(?:(?:this|the) (?:field|parameter|param|argument|value|property|option|input|key) (?:is|are) |it is |this is )?"
    r"(?:required|mandatory|must be (?:provided|specified|supplied|given|included|passed|present))" + _FOLLOW_SOURCE
)
# what follows the property's own name in "`sha` is required when ...", "name must be provided"
_NAMED_CLAIM_SOURCE = (
    r"[`'\"]? (?:(?:is|are|becomes) (?:required|mandatory)|must be (?:provided|specified|supplied|given|included|"
    r"passed))\b"
)
_CONDITION_SOURCE = (r"[\s,]*(?:for|when|whenever|if|unless|except|with|without|in|only|on|once|while|after|before|"
                     r"during|depending)\b")
_OPTIONAL_SOURCE = r"(?<!not )\boptional\b"
_CLAUSE_END_SOURCE = r"[.;\n]\s|[.;\n]?$|\)"
_I = re.IGNORECASE


def _claim(name: str, text: str) -> tuple[str, bool] | None:
    """The phrase of a description that says the property is required, and whether it states a condition."""
    match = re.search(_CLAIM_SOURCE, text, _I)
    start = 0
    if match is not None:
        start = match.start() + len(match.group(0)) - len(match.group(0).lstrip())
    else:  # "`sha` is required ...": the tail is rare, so look for it and then for the name before it
        wanted = name.lower()
        for tail in re.finditer(_NAMED_CLAIM_SOURCE, text, _I):
            at = tail.start() - len(wanted)
            if at >= 0 and text[at:tail.start()].lower() == wanted:
                if at > 0 and text[at - 1] in "`'\"":
                    at -= 1
                if at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_"):
                    # quoted from the start of its sentence: "Exactly one of a or b is required"
                    match, start = tail, 0
                    for separator in (". ", "; ", "\n"):
                        found = text.rfind(separator, 0, at)
                        if found >= 0:
                            start = max(start, found + len(separator))
                    break
        if match is None:
            return None
    conditional = re.compile(_CONDITION_SOURCE, _I).match(text, match.end()) is not None
    end = re.compile(_CLAUSE_END_SOURCE).search(text, match.end())
    phrase = text[start:end.start() if end else len(text)].strip()
    return phrase, conditional


def _encoded_names(w: Walk, key: tuple, groups: dict[tuple, list[Node]]) -> set[str]:
    """Every name a `required`, `dependentRequired` or `dependencies` of a schema applying to `key` mentions."""
    names: set[str] = set()
    for node in groups.get(key, ()):
        s = node.schema
        required = s.get("required")
        if isinstance(required, list):
            names.update(r for r in required if isinstance(r, str))
        for keyword in ("dependentRequired", "dependencies"):
            mapping = s.get(keyword)
            if isinstance(mapping, dict):
                for trigger, value in mapping.items():
                    names.add(trigger)
                    if isinstance(value, list):
                        names.update(v for v in value if isinstance(v, str))
                    elif isinstance(value, dict) and isinstance(value.get("required"), list):
                        names.update(v for v in value["required"] if isinstance(v, str))
    return names


_PASSWORD = _DEFAULTS.replace(
    "{type: string, description: Report to export.}",
    "{type: string, description: Report to export.}\n"
    "    password: {type: string, description: Password of the PDF. Required when format is pdf.}",
)


@rule(
    id="TC417",
    name="requirement-in-prose",
    severity=Severity.INFO,
    summary="A property's description says it is required, but the schema leaves it optional.",
    rationale=(
        "\"Required for 'create'\", \"required when state is duplicate\" or \"(required)\" in a description is "
        "read by the model, but no validator enforces it: a call without the property passes the schema and "
        "fails in the tool. Say it in the schema: put an unconditional requirement in the object's `required`, "
        "and a conditional one in `if`/`then`, `dependentRequired` or `oneOf` branches with `required` (any of "
        "which mentioning the property silences this rule). Phrases such as \"not required\", \"if required\" "
        "or \"the permissions required\" are not claims about the property; an unconditional claim in a "
        "description that also calls the property optional is left alone."
    ),
    examples=(
        Bad(_PASSWORD, line=8),
        Good(_PASSWORD.replace("  additionalProperties", "  if: {properties: {format: {const: pdf}}, "
                               "required: [format]}\n  then: {required: [password]}\n  additionalProperties"),
             note="the condition is encoded"),
        Good(_DEFAULTS.replace("Report to export.}", "Report to export. Not required when a draft exists.}")),
    ),
)
def requirement_in_prose(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    schema = tool.get("input_schema")
    if not isinstance(schema, dict):
        return
    w = context(tool).walk(schema)
    if "properties" not in w.marks:
        return
    groups: dict[tuple, list[Node]] | None = None
    for node, name, sub in _declared_properties(w):
        if not isinstance(sub, dict) or not isinstance(name, str):
            continue
        text = sub.get("description")
        if text.__class__ is not str or not _maybe_claim(text):
            continue
        claim = _claim(name, text)
        if claim is None:
            continue
        phrase, conditional = claim
        if not conditional and re.search(_OPTIONAL_SOURCE, text, _I):
            continue  # "Optional. ... required": the description contradicts itself, not the schema
        if groups is None:
            groups = {}
            for n in w.nodes:
                groups.setdefault(n.key, []).append(n)
        if name in _encoded_names(w, node.key, groups):
            continue
        yield Hit(("input_schema", *node.path, "properties", name, "description"),
                  f"property {_q(name)} says {_q(phrase, 70)} but the schema leaves it optional: add it to "
                  "`required`, or encode when it is (if/then, dependentRequired, or oneOf branches with `required`)")


def _maybe_claim(text: str) -> bool:
    """A cheap first test of a description: whether _claim could find anything in it (in any case)."""
    if "equired" in text or "andatory" in text or "ust be" in text:
        return True
    return "EQUIRED" in text or "ANDATORY" in text or "UST BE" in text or "ust Be" in text
