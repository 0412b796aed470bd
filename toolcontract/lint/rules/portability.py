"""TC5xx: portability — what each provider surface refuses, or reads differently, in a tool.

These rules run only for the surfaces `--target` names (openai, openai-strict, anthropic,
anthropic-strict, gemini, mcp) and are called as `check(tool, surfaces)` with the targeted
ones; every message names the surfaces it speaks for. A surface's hard refusal (a 400 at
request time) is an error; a SHOULD, or a keyword outside a subset the surface documents
only loosely, is a warning. The facts and their sources are in
`../shared/reference/tool-surfaces.md`; source keys (OA-SO, AN-SO, GM-SDK, MT, ...) refer to it.

Schemas are walked with TC4xx's walker: `$ref`s are not followed, so a limit that a
reference would push over is not seen, and nothing is ever fetched.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

from toolcontract.core.schema import SUBSCHEMA_KEYWORDS
from toolcontract.core.limits import (
    ANTHROPIC_MAX_OPTIONAL,
    ANTHROPIC_MAX_UNIONS,
    OPENAI_LARGE_ENUM,
    OPENAI_LARGE_ENUM_CHARS,
    OPENAI_MAX_DEPTH,
    OPENAI_MAX_ENUM_VALUES,
    OPENAI_MAX_PROPERTIES,
    OPENAI_MAX_STRING_BUDGET,
    STRICT_FORMATS,
)
from toolcontract.core.descriptor import ToolView
from toolcontract.lint.context import ToolContext, context
from toolcontract.core.rule import Bad, Good, Hit, rule
from toolcontract.lint.schema_walk import Node, Walk, resolve_ref
from toolcontract.core.model import Effect, Severity
from toolcontract.core.surfaces import NAME_RULES, name_problem, surface_family
from toolcontract.core.schema.validation import types_of
from toolcontract.core.pointer import join_pointer

STRICT = ("openai-strict", "anthropic-strict")


def _q(value: Any, limit: int = 60) -> str:
    """A value from the input, quoted for a message and cut to a readable length."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


def _key(key: str, limit: int = 60) -> str:
    """A key from the input, cut to a readable length."""
    return key if len(key) <= limit else key[: limit - 3] + "..."


def _where(path: tuple) -> str:
    return join_pointer("", *path) or "the root"


def _names(surfaces: tuple[str, ...] | list[str]) -> str:
    return ", ".join(surfaces)


def _s(surfaces: tuple[str, ...] | list[str]) -> str:
    """The verb ending for the surfaces as a subject: "openai refuses", "openai, gemini refuse"."""
    return "s" if len(surfaces) == 1 else ""


def _input_schema(tool: ToolView) -> dict | None:
    schema = tool.get("input_schema")
    return schema if isinstance(schema, dict) else None  # absent: no arguments; wrong type: TC002


def _spans(w: Walk) -> tuple[list[int], list[int]]:
    """Per node: its depth (subschema hops from the root) and the end of its subtree
    (nodes are in pre-order, so a node's descendants are the ones up to `end`)."""
    n = len(w.nodes)
    depth = [0] * n
    end = list(range(1, n + 1))
    for i, node in enumerate(w.nodes):
        if node.parent >= 0:
            depth[i] = depth[node.parent] + 1
    for i in range(n - 1, 0, -1):
        parent = w.nodes[i].parent
        if parent >= 0 and end[i] > end[parent]:
            end[parent] = end[i]
    return depth, end


def _inside(w: Walk, keywords: frozenset[str]) -> list[bool]:
    """Per node: whether it lies under one of `keywords` (reported there already)."""
    under = [False] * len(w.nodes)
    for i, node in enumerate(w.nodes):
        if node.parent >= 0:
            under[i] = under[node.parent] or node.via in keywords
    return under


def _object_nodes(w: Walk) -> Iterator[Node]:
    """Subschemas that describe an object a model writes: `type` includes object, or
    untyped with `properties`. Tests under `if`/`not` are left out (TC506 reports them)."""
    for node in w.nodes:
        s = node.schema
        if node.conditional:
            continue
        kinds = types_of(s)
        if "object" in kinds or (not kinds and "type" not in s and isinstance(s.get("properties"), dict)):
            yield node


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


def _with_property(line: str, required: str = "[city]") -> str:
    """_WEATHER with one more property line (line 8) and its `required`."""
    return _WEATHER.replace("  required: [city]\n", f"    {line}\n  required: {required}\n")


# ------------------------------------------------------------------ names

_NAME_RULES = NAME_RULES
_family = surface_family


def _name_problem(name: str, family: str) -> str:
    return name_problem(name, family)


@rule(
    id="TC501",
    name="name-refused-by-surface",
    severity=Severity.ERROR,
    summary="The tool name breaks a targeted surface's name rule (characters or length).",
    rationale=(
        "Each surface checks tool names its own way, and refuses the whole request over one bad name. "
        "OpenAI (Chat and Responses) takes `^[a-zA-Z0-9_-]+$` up to 64 characters, so a dot, slash or colon "
        "is a 400 (OA-API, o1); Anthropic takes `^[a-zA-Z0-9_-]{1,64}$` (AN-impl, o6); Gemini wants a letter "
        "or `_` first, then letters, digits, `_ . : -`, at most 128 (GM-SDK). MCP only says a name SHOULD be "
        "1-128 characters of `A-Za-z0-9_-.` (MT, TS), so a name that only MCP would object to is a warning. "
        "MCP servers often use dotted names (`github.get_issue`) that work there and fail on OpenAI and Anthropic."
    ),
    examples=(
        Bad(_WEATHER.replace("name: weather_current", "name: weather.current"), line=2,
            note="openai and anthropic refuse the dot; gemini and mcp accept it"),
        Bad(_WEATHER.replace("name: weather_current", "name: 2day_forecast"), line=2,
            note="gemini refuses a leading digit"),
        Bad(_WEATHER.replace("name: weather_current", "name: weather_" + "current_" * 8), line=2,
            note="72 characters: over 64"),
        Good(_WEATHER),
        Good(_WEATHER.replace("name: weather_current", "name: weather-current"), note="a hyphen is fine everywhere"),
    ),
    surfaces=("openai", "openai-strict", "anthropic", "anthropic-strict", "gemini", "mcp"),
)
def name_refused_by_surface(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    name = tool.get("name")
    if not isinstance(name, str):
        return  # TC002
    refusing: dict[str, list[str]] = {}  # problem -> surfaces
    for surface in surfaces:
        family = _family(surface)
        if not _NAME_RULES[family][0].match(name):
            refusing.setdefault(_name_problem(name, family), []).append(surface)
    if not refusing:
        return
    hard = [s for group in refusing.values() for s in group if s != "mcp"]
    parts = []
    for problem, group in refusing.items():
        verb = "is refused by" if group != ["mcp"] else "does not follow the naming guidance of"
        parts.append(f"{verb} {_names(group)}: {problem}")
    yield Hit(("name",), f"name {_q(name)} " + "; it ".join(parts),
              severity=None if hard else Severity.WARNING)


_GEMINI_PARAMETER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}\Z")


@rule(
    id="TC502",
    name="parameter-name-refused",
    severity=Severity.ERROR,
    summary="A parameter name is not `^[A-Za-z_][A-Za-z0-9_]{0,63}$`, which Gemini requires.",
    rationale=(
        "Gemini reads the top-level properties of the parameters schema as the function's parameter names, "
        "and they must start with a letter or `_` and hold only letters, digits and `_`, at most 64 "
        "characters (GM-SDK, `FunctionDeclaration.parameters`). MCP and OpenAI accept names such as "
        "`repo-name`, `$filter` or `page.size`, so a schema written for them can be refused by Gemini. "
        "Only the top-level names are parameter names; nested property names are not checked."
    ),
    examples=(
        Bad(_WEATHER.replace("    city:", "    city-name:").replace("[city]", "[city-name]"), line=7),
        Good(_WEATHER),
    ),
    surfaces=("gemini",),
)
def parameter_name_refused(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = _input_schema(tool)
    properties = schema.get("properties") if schema else None
    if not isinstance(properties, dict):
        return
    for name in properties:
        if isinstance(name, str) and not _GEMINI_PARAMETER.match(name):
            yield Hit(("input_schema", "properties", name), f"parameter name {_q(name)} is refused by "
                      f"{_names(surfaces)}: start with a letter or _, then only A-Z a-z 0-9 _, at most 64",
                      anchor="key")


# ------------------------------------------------------------------ root

_ROOT_REFUSED = {  # keyword at the root -> surface families that refuse it
    "anyOf": ("openai", "anthropic"), "oneOf": ("openai", "anthropic"), "allOf": ("openai", "anthropic"),
    "enum": ("openai",), "not": ("openai",),
}


@rule(
    id="TC503",
    name="schema-root-combinator",
    severity=Severity.ERROR,
    summary="The root of `input_schema` uses `anyOf`/`oneOf`/`allOf` (or `enum`/`not`), which OpenAI and Anthropic refuse.",
    rationale=(
        "JSON Schema lets the arguments object be described as alternatives at the root (`anyOf: [{required: "
        "[id]}, {required: [email]}]`), and MCP accepts it. OpenAI refuses `oneOf`, `anyOf`, `allOf`, `enum` "
        "and `not` at the top level of `parameters` (o3: spring-ai-alibaba#4576, vscode#307515), strict or "
        "not (OA-SO: the root must be an object, not `anyOf`); Anthropic answers a top-level `oneOf`/`allOf`/"
        "`anyOf` with a 400 (o7: claude-code#5319, #40075). Describe one object and say in the description "
        "(or in `semantic_rules`) which combinations are valid."
    ),
    examples=(
        Bad(_with_property("postcode: {type: string, description: Postal code.}", "[]").replace(
            "  required: []\n", "  anyOf:\n    - required: [city]\n    - required: [postcode]\n"), line=9),
        Bad(_WEATHER.replace("  additionalProperties", "  not: {required: [country]}\n  additionalProperties"),
            line=9, note="`not` at the root: openai"),
        Good(_WEATHER),
    ),
    surfaces=("openai", "openai-strict", "anthropic", "anthropic-strict"),
)
def schema_root_combinator(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = _input_schema(tool)
    if not schema:
        return
    for keyword, families in _ROOT_REFUSED.items():
        if keyword in schema:
            refusing = [s for s in surfaces if _family(s) in families]
            if refusing:
                yield Hit(("input_schema", keyword), f"`{keyword}` at the root of input_schema is refused by "
                          f"{_names(refusing)}: describe one object and state the valid combinations in the "
                          "description", anchor="key")


# ------------------------------------------------------------------ strict mode


@rule(
    id="TC504",
    name="strict-object-open",
    severity=Severity.ERROR,
    summary="An object in `input_schema` lacks `additionalProperties: false`, which strict mode requires.",
    rationale=(
        "OpenAI's strict mode (`strict: true`, Structured Outputs) requires `additionalProperties: false` on "
        "every object, nested ones and those under `$defs` included (OA-SO, OA-FC), and so does Anthropic's "
        "(AN-SO); either refuses the tool otherwise. A typed map (`additionalProperties: {type: string}`) is "
        "refused too: write it as an array of `{key, value}` objects. TC403 says the same as advice for "
        "every surface; this rule is the hard requirement of the strict targets."
    ),
    examples=(
        Bad(_WEATHER.replace("  additionalProperties: false\n", ""), line=5),
        Bad(_WEATHER.replace("additionalProperties: false", "additionalProperties: true"), line=9),
        Bad(_with_property("labels: {type: object, additionalProperties: {type: string}, description: Tags.}"),
            line=8, note="a typed map"),
        Good(_WEATHER),
    ),
    surfaces=STRICT,
)
def strict_object_open(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = _input_schema(tool)
    if not schema:
        return
    for node in _object_nodes(context(tool).walk(schema)):
        s = node.schema
        extra = s.get("additionalProperties")
        if extra is False or ("$ref" in s and "properties" not in s):
            continue
        path = ("input_schema", *node.path)
        what = f"the object at {_where(node.path)}"
        if "additionalProperties" not in s:
            yield Hit(path, f"{what} does not set `additionalProperties: false`, which {_names(surfaces)} "
                      f"require{_s(surfaces)} on every object", anchor="value")
        elif isinstance(extra, dict):
            yield Hit((*path, "additionalProperties"), f"{what} is a typed map, which {_names(surfaces)} "
                      f"refuse{_s(surfaces)}: strict mode allows only `additionalProperties: false` (use an array of "
                      "{key, value} objects)")
        else:
            yield Hit((*path, "additionalProperties"), f"{what} allows extra properties; {_names(surfaces)} "
                      f"require{_s(surfaces)} `additionalProperties: false`")


_REFINING = frozenset(("allOf", "then", "else", "dependentSchemas"))


@rule(
    id="TC505",
    name="strict-property-optional",
    severity=Severity.ERROR,
    summary="A property is missing from `required`, which OpenAI's strict mode refuses.",
    rationale=(
        "In OpenAI's strict mode every property of every object must be listed in `required` (OA-SO, OA-FC); "
        "an optional argument is written as a required one that may be null, `type: [string, \"null\"]`, "
        "and the tool treats null as absent. Anthropic's strict mode allows optional properties (up to 24 "
        "per request, see TC509), so this rule speaks for openai-strict only."
    ),
    examples=(
        Bad(_with_property("units: {type: string, enum: [metric, imperial], description: Unit system.}"), line=8),
        Good(_with_property('units: {type: [string, "null"], enum: [metric, imperial, null], description: '
                            'Unit system; null for the default.}', "[city, units]")),
        Good(_WEATHER),
    ),
    surfaces=("openai-strict",),
)
def strict_property_optional(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = _input_schema(tool)
    if not schema:
        return
    for node in _object_nodes(context(tool).walk(schema)):
        if node.via in _REFINING:
            continue  # a branch that refines properties declared next to it (and allOf/then are TC506's)
        properties, required = node.schema.get("properties"), node.schema.get("required", [])
        if not isinstance(properties, dict) or not isinstance(required, list):
            continue  # a `required` of the wrong type is TC401's
        for name in properties:
            if name not in required:
                yield Hit(("input_schema", *node.path, "properties", name), f"property {_q(name)} is not in "
                          f"`required`, which {_names(surfaces)} refuse{_s(surfaces)}: list it, and allow null "
                          "(`type: [T, \"null\"]`) to keep it optional", anchor="key")


# keywords strict mode refuses (error), and keywords outside a surface's documented subset (warning)
_STRICT_REFUSED = {
    "openai-strict": frozenset((
        "allOf", "not", "oneOf", "dependentRequired", "dependentSchemas", "dependencies", "if", "then", "else",
    )),
    "anthropic-strict": frozenset((
        "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength",
        "maxItems", "oneOf", "not",
    )),
}
_STRICT_UNDOCUMENTED = {
    "openai-strict": frozenset(),
    "anthropic-strict": frozenset((
        "if", "then", "else", "dependentRequired", "dependentSchemas", "dependencies", "patternProperties",
        "propertyNames", "unevaluatedProperties", "unevaluatedItems", "uniqueItems", "contains", "minContains",
        "maxContains", "minProperties", "maxProperties", "prefixItems", "$dynamicRef",
    )),
}
_STRICT_ANY = frozenset().union(*_STRICT_REFUSED.values(), *_STRICT_UNDOCUMENTED.values())


def _strict_fix(keyword: str) -> str:
    if keyword == "oneOf":
        return "use `anyOf`"
    if keyword == "allOf":
        return "merge the branches into one schema"
    if keyword in ("not", "if", "then", "else", "dependentRequired", "dependentSchemas", "dependencies"):
        return "state the rule in the description (or `semantic_rules`) and check it in the tool"
    return "state the constraint in the description and check it in the tool"


@rule(
    id="TC506",
    name="strict-keyword-unsupported",
    severity=Severity.ERROR,
    summary="`input_schema` uses a keyword that a targeted strict mode does not support.",
    rationale=(
        "Strict mode compiles the schema into a grammar and refuses keywords it cannot compile. OpenAI's "
        "strict mode refuses `allOf`, `not`, `dependentRequired`, `dependentSchemas` and `if`/`then`/`else`, "
        "and supports only `anyOf` among the combinators, so `oneOf` is out too (OA-SO). Anthropic's strict "
        "mode refuses numeric bounds (`minimum`, `maximum`, `exclusive*`, `multipleOf`), `minLength`/"
        "`maxLength`, `maxItems`, `oneOf` and `not`, and `$ref` inside `allOf` (AN-SO; its SDK rewrites "
        "`oneOf` to `anyOf` and moves the rest into the description, AN-SDK). Keywords outside Anthropic's "
        "documented subset (`if`, `patternProperties`, `uniqueItems`, ...) are warnings: not documented "
        "either way. Move such constraints into the description and check them in the tool."
    ),
    examples=(
        Bad(_with_property("days: {type: integer, minimum: 1, maximum: 7, description: Days ahead.}", "[city, days]"),
            line=8, note="anthropic-strict: numeric bounds"),
        Bad(_with_property("day: {oneOf: [{type: string, format: date}, {type: 'null'}], description: Day.}",
                           "[city, day]"), line=8, note="both: oneOf"),
        Bad(_WEATHER.replace("  additionalProperties", "  if: {required: [city]}\n  then: {required: [city]}\n"
                             "  additionalProperties"), line=9, note="openai-strict: if/then"),
        Good(_WEATHER),
    ),
    surfaces=STRICT,
)
def strict_keyword_unsupported(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = _input_schema(tool)
    if not schema:
        return
    refused = {s: _STRICT_REFUSED[s] for s in surfaces}
    loose = {s: _STRICT_UNDOCUMENTED[s] for s in surfaces}
    w = context(tool).walk(schema)
    under = _inside(w, frozenset().union(*refused.values(), *loose.values()))
    for index, node in enumerate(w.nodes):
        if under[index]:
            continue  # inside a keyword already reported
        path = ("input_schema", *node.path)
        for keyword in node.schema:
            if keyword not in _STRICT_ANY:
                continue
            hard = [s for s in surfaces if keyword in refused[s]]
            soft = [s for s in surfaces if keyword in loose[s]]
            if hard:
                yield Hit((*path, keyword), f"`{keyword}` is not supported by {_names(hard)}: "
                          f"{_strict_fix(keyword)}", anchor="key")
            elif soft:
                yield Hit((*path, keyword), f"`{keyword}` is outside the documented strict subset of "
                          f"{_names(soft)} and may be refused: {_strict_fix(keyword)}", anchor="key",
                          severity=Severity.WARNING)
        if "anthropic-strict" in surfaces and node.via == "allOf" and "$ref" in node.schema:
            yield Hit((*path, "$ref"), "`$ref` inside `allOf` is not supported by anthropic-strict: inline "
                      "the referenced schema", anchor="key")


_STRICT_FORMATS = STRICT_FORMATS  # the limits module's (convert reads the same)


def pattern_feature(pattern: str) -> str | None:
    """The first regex feature Anthropic's strict mode cannot compile: a backreference, a
    lookaround or a word boundary (outside a character class, where `\\b` is a backspace)."""
    i, in_class, n = 0, False, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            if not in_class:
                if nxt in "bB":
                    return f"a word boundary (\\{nxt})"
                if nxt in "123456789":
                    return f"a backreference (\\{nxt})"
                if nxt == "k" and pattern.startswith("<", i + 2):
                    return "a named backreference (\\k<...>)"
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            if pattern.startswith("^", i + 1):
                i += 1
            if pattern.startswith("]", i + 1):  # a leading ] is literal
                i += 1
        elif c == "(" and pattern.startswith(("(?=", "(?!", "(?<=", "(?<!"), i):
            return "a lookaround"
        i += 1
    return None


@rule(
    id="TC507",
    name="strict-value-unsupported",
    severity=Severity.ERROR,
    summary="A `format`, `pattern`, `minItems` or `enum` value is outside a targeted strict mode's subset.",
    rationale=(
        "Strict mode accepts some keywords only with some values. OpenAI's supports the formats date-time, "
        "time, date, duration, email, hostname, ipv4, ipv6 and uuid (OA-SO); Anthropic's the same plus uri, "
        "a `pattern` without backreferences, lookarounds or `\\b`, `minItems` of 0 or 1 only, and `enum` "
        "values that are primitives (AN-SO, AN-SDK). Any other value is refused with a 400. Put the "
        "constraint into the description and check it in the tool."
    ),
    examples=(
        Bad(_with_property("source: {type: string, format: uri, description: Data source URL.}", "[city, source]"),
            line=8, note="openai-strict: no uri format"),
        Bad(_WEATHER.replace("{type: string, description", "{type: string, pattern: '\\bLisbon', description"),
            line=7, note="anthropic-strict: word boundary"),
        Bad(_with_property("days: {type: array, items: {type: string, format: date}, minItems: 2, description: "
                           "Days.}", "[city, days]"), line=8, note="anthropic-strict: minItems 2"),
        Good(_with_property("day: {type: string, format: date, description: Day of the report.}", "[city, day]")),
        Good(_WEATHER.replace("{type: string, description", "{type: string, pattern: '^[A-Z][a-z]+$', description")),
    ),
    surfaces=STRICT,
)
def strict_value_unsupported(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = _input_schema(tool)
    if not schema:
        return
    anthropic = "anthropic-strict" in surfaces
    for node in context(tool).walk(schema).nodes:
        s, path = node.schema, ("input_schema", *node.path)
        fmt = s.get("format")
        if isinstance(fmt, str):
            refusing = [x for x in surfaces if fmt not in _STRICT_FORMATS[x]]
            if refusing:
                yield Hit((*path, "format"), f"format {_q(fmt)} is not supported by {_names(refusing)} "
                          f"(supported: {', '.join(sorted(_STRICT_FORMATS[refusing[0]]))})")
        if not anthropic:
            continue
        pattern = s.get("pattern")
        if isinstance(pattern, str):
            feature = pattern_feature(pattern)
            if feature:
                yield Hit((*path, "pattern"), f"pattern {_q(pattern)} uses {feature}, which anthropic-strict "
                          "cannot compile")
        least = s.get("minItems")
        if isinstance(least, int) and not isinstance(least, bool) and least > 1:
            yield Hit((*path, "minItems"), f"minItems {least} is not supported by anthropic-strict (only 0 or 1)")
        values = s.get("enum")
        if isinstance(values, list):
            for i, value in enumerate(values):
                if isinstance(value, (dict, list)):
                    yield Hit((*path, "enum", i), f"enum value {i + 1} is an {'object' if isinstance(value, dict) else 'array'}"
                              "; anthropic-strict accepts only strings, numbers, booleans and null")
                    break


@rule(
    id="TC508",
    name="strict-recursion",
    severity=Severity.ERROR,
    summary="A `$ref` leads back to a schema that contains it, which Anthropic's strict mode refuses.",
    rationale=(
        "A recursive schema (a folder whose `children` are folders, a JSON-like value) cannot be compiled "
        "into Anthropic's strict-mode grammar: recursion is listed as unsupported (AN-SO). OpenAI's strict "
        "mode accepts it (OA-SO). Bound the depth explicitly (folder, subfolder, ...), or pass the nested "
        "part as a string the tool parses. Each `$ref` on a cycle is reported."
    ),
    examples=(
        Bad(_WEATHER.replace("name: weather_current", "name: folder_create").replace("read", "reversible_write").replace(
            "    city: {type: string, description: City name such as Lisbon.}\n  required: [city]\n",
            "    folder: {$ref: '#/$defs/folder'}\n  required: [folder]\n").replace(
            "  additionalProperties: false\n",
            "  additionalProperties: false\n  $defs:\n    folder:\n      type: object\n      properties:\n"
            "        name: {type: string, description: Folder name.}\n"
            "        children: {type: array, items: {$ref: '#/$defs/folder'}, description: Subfolders.}\n"
            "      required: [name, children]\n      additionalProperties: false\n"), line=15),
        Good(_WEATHER),
    ),
    surfaces=("anthropic-strict",),
)
def strict_recursion(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = _input_schema(tool)
    if not schema:
        return
    w = context(tool).walk(schema)
    refs: list[tuple[int, int]] = []  # (node with the $ref, node it refers to)
    for index, node in enumerate(w.nodes):
        ref = node.schema.get("$ref")
        if isinstance(ref, str):
            fate, target = resolve_ref(w, node, ref)
            if fate == "ok" and isinstance(target, dict) and id(target) in w.index:
                refs.append((index, w.index[id(target)]))
    if not refs or len(refs) > 2000:
        return
    _, end = _spans(w)
    for at, target in refs:
        seen, stack, cyclic = {target}, [target], False
        while stack and not cyclic:
            x = stack.pop()
            if x <= at < end[x]:
                cyclic = True
                break
            for m, u in refs:
                if x <= m < end[x] and u not in seen:
                    seen.add(u)
                    stack.append(u)
        if cyclic:
            node = w.nodes[at]
            yield Hit(("input_schema", *node.path, "$ref"), f"$ref {_q(node.schema['$ref'])} leads back to a "
                      f"schema that contains it: {_names(surfaces)} refuse{_s(surfaces)} recursive schemas")




def _openai_limits(w: Walk) -> Iterator[Hit]:
    depth, _ = _spans(w)
    deepest = max(range(len(w.nodes)), key=lambda i: depth[i])
    if depth[deepest] > OPENAI_MAX_DEPTH:
        first = next(i for i in range(len(w.nodes)) if depth[i] > OPENAI_MAX_DEPTH)
        reach = f" (input_schema reaches {depth[deepest]})" if depth[deepest] > depth[first] else ""
        yield Hit(("input_schema", *w.nodes[first].path), f"this subschema is nested {depth[first]} levels "
                  f"deep{reach}: openai-strict allows {OPENAI_MAX_DEPTH}")
    properties = enum_values = budget = 0
    for node in w.nodes:
        s = node.schema
        props = s.get("properties")
        if isinstance(props, dict):
            properties += len(props)
            budget += sum(len(k) for k in props if isinstance(k, str))
        for key in ("$defs", "definitions"):
            defs = s.get(key)
            if isinstance(defs, dict):
                budget += sum(len(k) for k in defs if isinstance(k, str))
        const = s.get("const")
        if isinstance(const, str):
            budget += len(const)
        values = s.get("enum")
        if isinstance(values, list):
            enum_values += len(values)
            chars = sum(len(v) for v in values if isinstance(v, str))
            budget += chars
            if len(values) > OPENAI_LARGE_ENUM and chars > OPENAI_LARGE_ENUM_CHARS:
                yield Hit(("input_schema", *node.path, "enum"), f"this enum has {len(values)} values of "
                          f"{chars} characters in all: openai-strict allows {OPENAI_LARGE_ENUM_CHARS} "
                          f"characters for an enum of more than {OPENAI_LARGE_ENUM} values", anchor="key")
    for count, limit, what in ((properties, OPENAI_MAX_PROPERTIES, "object properties"),
                               (enum_values, OPENAI_MAX_ENUM_VALUES, "enum values"),
                               (budget, OPENAI_MAX_STRING_BUDGET, "characters of property names, definition "
                                "names, enum and const values")):
        if count > limit:
            yield Hit(("input_schema",), f"input_schema has {count} {what}: openai-strict allows {limit}",
                      anchor="key")


def anthropic_strict_counts(w: Walk) -> tuple[int, int]:
    """What Anthropic's strict mode counts against its per-request limits in one schema: the
    optional properties (not in `required`, at every object level) and the union parameters
    (`anyOf`, or a `type` list of more than one type)."""
    optional = unions = 0
    for node in _object_nodes(w):
        props, required = node.schema.get("properties"), node.schema.get("required", [])
        if isinstance(props, dict):
            listed = {name for name in required if isinstance(name, str)} if isinstance(required, list) else set()
            optional += sum(1 for name in props if name not in listed)
    for node in w.nodes:
        kind = node.schema.get("type")
        if isinstance(node.schema.get("anyOf"), list) or (isinstance(kind, list) and len(kind) > 1):
            unions += 1
    return optional, unions


def _anthropic_limits(w: Walk) -> Iterator[Hit]:
    optional, unions = anthropic_strict_counts(w)
    for count, limit, what in ((optional, ANTHROPIC_MAX_OPTIONAL, "optional properties"),
                               (unions, ANTHROPIC_MAX_UNIONS, "union parameters (anyOf or a type list)")):
        if count > limit:
            yield Hit(("input_schema",), f"input_schema has {count} {what}: anthropic-strict allows {limit} "
                      "across all strict tools of a request", anchor="key")


def _nested(levels: int) -> str:
    text = "{type: string}"
    for level in range(levels, 0, -1):
        text = f"{{type: object, properties: {{l{level}: {text}}}}}"
    return text


@rule(
    id="TC509",
    name="strict-limit-exceeded",
    severity=Severity.ERROR,
    summary="`input_schema` exceeds a size or nesting limit of a targeted strict mode.",
    rationale=(
        "Strict mode caps what it compiles. OpenAI's: at most 10 levels of nesting, 5000 object properties, "
        "1000 enum values, 120,000 characters of property names, definition names, enum and const values, "
        "and 15,000 characters for one string enum of more than 250 values (OA-SO). Anthropic's: at most 24 "
        "optional properties and 16 union parameters (`anyOf` or a type list) across all strict tools of a "
        "request (AN-SO), so one tool over the limit is refused whatever else is sent. Depth counts every "
        "subschema step from the root, as OpenAI's SDK validator does; `$ref`s are not followed."
    ),
    examples=(
        Bad(_with_property(f"deep: {_nested(10)}", "[city, deep]"), line=8, note="openai-strict: 11 levels"),
        Bad(_WEATHER.replace("  required: [city]\n", "".join(
            f"    note{i}: {{type: string, description: Note {i}.}}\n" for i in range(25)) + "  required: [city]\n"),
            line=4, note="anthropic-strict: 25 optional properties"),
        Good(_WEATHER),
    ),
    surfaces=STRICT,
)
def strict_limit_exceeded(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = _input_schema(tool)
    if not schema:
        return
    w = context(tool).walk(schema)
    if "openai-strict" in surfaces:
        yield from _openai_limits(w)
    if "anthropic-strict" in surfaces:
        yield from _anthropic_limits(w)


# ------------------------------------------------------------------ gemini


def _gemini_json_form(tool: ToolView) -> bool:
    """Whether the tool came as a Gemini declaration with `parametersJsonSchema` (a JSON
    Schema) rather than `parameters` (the OpenAPI subset every other input is converted to)."""
    raw = tool.raw
    return isinstance(raw, dict) and ("parametersJsonSchema" in raw or "parameters_json_schema" in raw)


@rule(
    id="TC510",
    name="gemini-type-list",
    severity=Severity.ERROR,
    summary="`type` is a list, which Gemini's `parameters` schema cannot hold.",
    rationale=(
        "Gemini's `parameters` is an OpenAPI 3.0 Schema: `type` is one value, and a nullable value is "
        "written `type: string` with `nullable: true` (GM-SDK); a list such as `[string, \"null\"]` is "
        "refused (\"Proto field is not repeating, cannot start list\"). For several non-null types use "
        "`anyOf`. Declarations sent as `parametersJsonSchema` are not checked: that form is JSON Schema."
    ),
    examples=(
        Bad(_WEATHER.replace("{type: string, description", "{type: [string, 'null'], description"), line=7),
        Good(_WEATHER),
        Good(_WEATHER.replace("{type: string, description", "{type: string, nullable: true, description")),
    ),
    surfaces=("gemini",),
)
def gemini_type_list(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = _input_schema(tool)
    if not schema or _gemini_json_form(tool):
        return
    if tool.format == "gemini" and isinstance(tool.raw, dict) and isinstance(tool.raw.get("parameters"), dict):
        # the reader turned `nullable: true` into a type list; judge what the file wrote
        schema = tool.raw["parameters"]
    for node in context(tool).walk(schema).nodes:
        kind = node.schema.get("type")
        if not isinstance(kind, list):
            continue
        others = [k for k in kind if k != "null"]
        if len(others) == 1 and len(kind) == 2:
            fix = f"write `type: {others[0]}` with `nullable: true`"
        elif len(kind) == 1:
            fix = f"write `type: {kind[0]}`"
        else:
            fix = "use `anyOf` with one type per branch"
        yield Hit(("input_schema", *node.path, "type"), f"`type` is a list, which {_names(surfaces)} refuse{_s(surfaces)} "
                  f"(one type per schema): {fix}")


@rule(
    id="TC511",
    name="gemini-enum-not-string",
    severity=Severity.ERROR,
    summary="An `enum` holds a value that is not a string, which Gemini's `parameters` schema refuses.",
    rationale=(
        "In Gemini's OpenAPI `parameters` schema `enum` is a list of strings (GM-SDK); a number or boolean "
        "in it fails to parse and the request is refused. Write the values as strings with `type: string` "
        "and convert in the tool, or drop the enum and give the range in the description. With "
        "`parametersJsonSchema`, strings and numbers are documented (for response schemas, GM-JS), so "
        "other values there are a warning."
    ),
    examples=(
        Bad(_with_property("days: {type: integer, enum: [1, 3, 7], description: Days ahead.}", "[city, days]"),
            line=8),
        Good(_with_property("days: {type: string, enum: ['1', '3', '7'], description: Days ahead.}", "[city, days]")),
    ),
    surfaces=("gemini",),
)
def gemini_enum_not_string(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = _input_schema(tool)
    if not schema:
        return
    json_form = _gemini_json_form(tool)
    for node in context(tool).walk(schema).nodes:
        values = node.schema.get("enum")
        if not isinstance(values, list):
            continue
        for i, value in enumerate(values):
            if isinstance(value, str):
                continue
            number = isinstance(value, (int, float)) and not isinstance(value, bool)
            if json_form and number:
                continue
            yield Hit(("input_schema", *node.path, "enum", i),
                      f"enum value {_json(value)} is {_kind(value)}, not a string: {_names(surfaces)} "
                      + ("documents string and number enums only" if json_form else "accepts string enums only"),
                      severity=Severity.WARNING if json_form else None)
            break


def _json(value: Any) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:36] + " ..."


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return "an object" if isinstance(value, dict) else "an array"


# Gemini `parameters` (OpenAPI Schema subset, GM-SDK) and `parametersJsonSchema` (GM-SDK, GM-JS)
_GEMINI_KEYWORDS = frozenset((
    "type", "format", "title", "description", "enum", "items", "minItems", "maxItems", "minLength", "maxLength",
    "pattern", "minimum", "maximum", "properties", "required", "minProperties", "maxProperties",
    "propertyOrdering", "anyOf", "default", "example", "additionalProperties", "nullable", "$defs", "$ref",
))
_GEMINI_JSON_KEYWORDS = frozenset((
    "$id", "$defs", "$ref", "$anchor", "type", "format", "title", "description", "enum", "items", "prefixItems",
    "minItems", "maxItems", "minimum", "maximum", "anyOf", "oneOf", "properties", "additionalProperties",
    "required", "propertyOrdering",
    # annotations and comments: not in the documented list, but nothing a validator acts on
    "$schema", "$comment", "default", "examples", "deprecated", "readOnly", "writeOnly",
))


@rule(
    id="TC512",
    name="gemini-keyword-unsupported",
    severity=Severity.ERROR,
    summary="`input_schema` uses a keyword outside Gemini's schema subset.",
    rationale=(
        "Gemini's `parameters` accepts only an OpenAPI 3.0 Schema subset: type, format, title, description, "
        "enum, items, min/maxItems, min/maxLength, pattern, minimum, maximum, properties, required, "
        "min/maxProperties, propertyOrdering, anyOf, default, example, additionalProperties, nullable, and "
        "`$defs`/`$ref` with the definitions at the root (GM-SDK). Any other key, `$schema`, `const`, "
        "`oneOf`, `exclusiveMinimum` or an `x-` extension included, is a 400 \"Unknown name\" (o9: "
        "prism-php/prism#974), so schemas written for MCP (zod output carries `$schema`) are refused as "
        "they are. With `parametersJsonSchema` the documented subset is wider and documented for response "
        "schemas only (GM-JS), so keys outside it are warnings."
    ),
    examples=(
        Bad(_WEATHER.replace("{type: string, description", "{type: string, const: Lisbon, description"), line=7),
        Bad(_WEATHER.replace("  type: object\n", "  $schema: https://json-schema.org/draft/2020-12/schema\n"
                             "  type: object\n"), line=5),
        Good(_WEATHER),
    ),
    surfaces=("gemini",),
)
def gemini_keyword_unsupported(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = _input_schema(tool)
    if not schema:
        return
    json_form = _gemini_json_form(tool)
    allowed = _GEMINI_JSON_KEYWORDS if json_form else _GEMINI_KEYWORDS
    severity = Severity.WARNING if json_form else None
    surface = _names(surfaces) + (" (parametersJsonSchema)" if json_form else "")
    w = context(tool).walk(schema)
    refused = frozenset(k for k in _WALKED if k not in allowed)
    under = _inside(w, refused)
    for index, node in enumerate(w.nodes):
        if under[index]:
            continue
        path = ("input_schema", *node.path)
        for keyword in node.schema:
            if not isinstance(keyword, str):
                continue
            if keyword not in allowed:
                fate = "it may be refused" if json_form else "it is refused as an unknown field"
                yield Hit((*path, keyword), f"`{_key(keyword)}` is not in the schema subset of {surface}: {fate}",
                          anchor="key", severity=severity)
            elif keyword == "$defs" and index and not json_form:
                yield Hit((*path, keyword), f"`$defs` below the root is refused by {surface}: move the "
                          "definitions to the root of input_schema", anchor="key")
            elif keyword == "$ref" and not json_form:
                ref = node.schema[keyword]
                if isinstance(ref, str) and not ref.startswith("#/$defs/"):
                    yield Hit((*path, keyword), f"$ref {_q(ref)} is refused by {surface}: it may only name a "
                              "definition under the root's `$defs` (`#/$defs/...`)")


# every keyword the walker descends into: a refused one hides what lies under it
_WALKED = SUBSCHEMA_KEYWORDS
# the walked keywords outside Gemini's `parameters` subset (TC512 reports them)
_GEMINI_REFUSED_WALKED = frozenset(k for k in _WALKED if k not in _GEMINI_KEYWORDS)


def _gemini_nodes(tool: ToolView) -> Iterator[Node]:
    """The subschemas Gemini's `parameters` validates as written: not tests under `if`/`not`,
    nor anything under a keyword outside its subset (TC512 reports that keyword). None for a
    declaration sent as `parametersJsonSchema`, which is JSON Schema."""
    schema = _input_schema(tool)
    if not schema or _gemini_json_form(tool):
        return
    w = context(tool).walk(schema)
    under = _inside(w, _GEMINI_REFUSED_WALKED)
    for index, node in enumerate(w.nodes):
        if not under[index] and not node.conditional:
            yield node


@rule(
    id="TC514",
    name="gemini-array-items-missing",
    severity=Severity.ERROR,
    summary="An array schema has no `items`, which Gemini's `parameters` schema refuses.",
    rationale=(
        "Gemini's `parameters` schema lists `items` as the element schema of an ARRAY (GM-SDK), and the API "
        "checks that every ARRAY has one, refusing the whole request without it (obs): \"GenerateContentRequest.tools[0].function_declarations[3]."
        "parameters.properties[tags].items: missing field\" (kkrishnan90/gemini-desktop#7, cline#7339, "
        "jackmusick/bifrost#225, cognizant-ai-lab/neuro-san#1051). JSON Schema, MCP, OpenAI and Anthropic "
        "take a bare `type: array`, so schemas written for them (Python `list` without a type argument, "
        "LangChain's `*args`) fail only on Gemini. Say what the elements are, `items: {type: string}` at the "
        "least. Declarations sent as `parametersJsonSchema` are not checked: that form is JSON Schema."
    ),
    examples=(
        Bad(_with_property("tags: {type: array, description: Labels to filter by.}", "[city, tags]"), line=8),
        Good(_with_property("tags: {type: array, items: {type: string}, description: Labels to filter by.}",
                            "[city, tags]")),
    ),
    surfaces=("gemini",),
)
def gemini_array_items_missing(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    for node in _gemini_nodes(tool):
        s = node.schema
        if "items" not in s and "$ref" not in s and "array" in types_of(s):
            yield Hit(("input_schema", *node.path), f"the array at {_where(node.path)} has no `items`, which "
                      f"{_names(surfaces)} refuse{_s(surfaces)} (\"items: missing field\"): say what its elements "
                      "are, e.g. `items: {type: string}`", anchor="key")


@rule(
    id="TC515",
    name="gemini-object-properties-empty",
    severity=Severity.ERROR,
    summary="A nested object schema declares no `properties`, which Gemini's `parameters` schema refuses.",
    rationale=(
        "In Gemini's `parameters` schema an OBJECT names its members in `properties` (GM-SDK), and the API "
        "refuses one whose `properties` are missing or empty (obs): \"GenerateContent"
        "Request.tools[0].function_declarations[2].parameters.properties: should be non-empty for OBJECT "
        "type\" (agno#2112, lobehub#5002, langchain-google#416; nested: browser-use#3786). The request "
        "carries the schema as a protocol buffer, where an empty map and a missing one are the same, so "
        "`{type: object}` and `{type: object, properties: {}}` fail alike. A free-form map (`type: object` "
        "with only an `additionalProperties` schema) has been refused the same way; `additionalProperties` "
        "is in Gemini's subset now, so such a map is a warning. Declare the keys an object takes, or take "
        "an array of `{key, value}` objects or a JSON string. The root of a tool without arguments is not "
        "reported: for Gemini such a function is declared without `parameters` (the Google SDKs accept "
        "`parameters: None`), or with an empty object, which pydantic-ai sends so that mode ANY works "
        "(pydantic-ai#1998; earlier API versions refused that too). Declarations sent as "
        "`parametersJsonSchema` are not checked: that form is JSON Schema."
    ),
    examples=(
        Bad(_with_property("filters: {type: object, description: Extra filters.}", "[city, filters]"), line=8),
        Bad(_with_property("filters: {type: object, properties: {}, description: Extra filters.}",
                           "[city, filters]"), line=8, note="empty properties: the same to Gemini"),
        Good(_with_property("filters: {type: object, properties: {country: {type: string, description: ISO "
                            "code.}}, description: Extra filters.}", "[city, filters]")),
        Good("toolcontract: 1\nname: clock_now\neffect: read\ninput_schema: {type: object, additionalProperties: "
             "false}\n", note="the root of a tool without arguments"),
    ),
    surfaces=("gemini",),
)
def gemini_object_properties_empty(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    for node in _gemini_nodes(tool):
        s = node.schema
        if node.parent < 0 or "object" not in types_of(s) or any(k in s for k in ("$ref", "anyOf", "oneOf", "allOf")):
            continue  # the root: a tool without arguments; a $ref or its branches may hold the properties
        properties = s.get("properties")
        if properties is not None and properties != {}:
            continue
        what = "no `properties`" if properties is None else "empty `properties`"
        extra = s.get("additionalProperties")
        if isinstance(extra, dict) or extra is True:  # a map: Gemini documents additionalProperties now
            yield Hit(("input_schema", *node.path), f"the object at {_where(node.path)} has {what}, only "
                      f"`additionalProperties`: {_names(surfaces)} may refuse it (\"should be non-empty for OBJECT "
                      "type\"): declare the keys it takes, or take an array of {key, value} objects",
                      anchor="key", severity=Severity.WARNING)
        else:
            yield Hit(("input_schema", *node.path), f"the object at {_where(node.path)} has {what}, which "
                      f"{_names(surfaces)} refuse{_s(surfaces)} (\"should be non-empty for OBJECT type\"): "
                      "declare the keys it takes, or take an array of {key, value} objects", anchor="key")


# ------------------------------------------------------------------ mcp


@rule(
    id="TC513",
    name="mcp-annotations-missing",
    severity=Severity.WARNING,
    summary="A pure or read tool has no `readOnlyHint`, so MCP clients treat it as destructive.",
    rationale=(
        "MCP annotations are hints with defaults: a tool that says nothing is assumed readOnlyHint false, "
        "destructiveHint true and openWorldHint true (MS, MT). A client that asks before destructive calls "
        "then asks before every call of a harmless read tool, and users learn to click through the "
        "confirmation. For a pure or read tool write `annotations: {readOnlyHint: true}` (and "
        "`openWorldHint: false` when it touches nothing outside its own data). Clients must still treat "
        "annotations from an untrusted server as untrusted; the effect class is what toolcontract acts on. "
        "A tool with no effect class (a provider list without a contract overlay) is not checked."
    ),
    examples=(
        Bad(_WEATHER, line=1, note="no annotations at all"),
        Bad(_WEATHER + "annotations: {title: Current weather}\n", line=10),
        Good(_WEATHER + "annotations: {readOnlyHint: true, openWorldHint: true}\n"),
        Good(_WEATHER.replace("effect: read", "effect: reversible_write"), note="a write tool: the default is safe"),
    ),
    surfaces=("mcp",),
)
def mcp_annotations_missing(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    effect = tool.effect
    if effect not in (Effect.PURE, Effect.READ):
        return
    notes = tool.get("annotations")
    if isinstance(notes, dict) and "readOnlyHint" in notes:
        return  # a readOnlyHint: false is TC302's contradiction
    fix = "{readOnlyHint: true, openWorldHint: false}" if effect is Effect.PURE else "{readOnlyHint: true}"
    why = (f"{_names(surfaces)} clients assume readOnlyHint false, destructiveHint true and openWorldHint "
           f"true for this {effect.value} tool: add `annotations: {fix}`")
    if isinstance(notes, dict):
        yield Hit(("annotations",), f"annotations lack readOnlyHint, so {why}", anchor="key")
    elif "annotations" in tool.data:
        yield Hit(("annotations",), f"annotations are empty, so {why}")
    else:
        yield Hit((), f"no annotations, so {why}", anchor="value")
