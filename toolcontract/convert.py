"""Write tool descriptors in a provider's format, or in ours.

`convert(tools, to)` takes native-named descriptor data (what every reader puts in
`ToolView.data`, whatever format the file was in) and returns a JSON-able document
in the target format plus one warning per thing the target cannot carry. Nothing
is dropped silently: every field a writer does not consume is reported.

Pure: no files, no terminal, no network.

Targets and where each native field goes (anything not listed is a warning):

| native          | mcp            | openai-chat          | openai-responses | anthropic        | gemini                 |
|-----------------|----------------|----------------------|------------------|------------------|------------------------|
| name            | name           | function.name        | name             | name             | name                   |
| title           | title          | -                    | -                | -                | -                      |
| description (1) | description    | function.description | description      | description      | description            |
| input_schema    | inputSchema    | function.parameters  | parameters       | input_schema     | parametersJsonSchema   |
| output_schema   | outputSchema(2)| -                    | output_schema    | -                | responseJsonSchema     |
| effect          | annotations (3)| -                    | -                | -                | -                      |
| annotations     | annotations (3)| -                    | -                | -                | -                      |
| examples        | -              | -                    | -                | input_examples(4)| -                      |
| (strict)        |                | strict: true (5)     | strict (5)       |                  |                        |

(1) `description` as written; when absent, built from purpose, when_to_use and
    non_goals (`descriptor.model_description`), which are then carried by it.
(2) MCP 2025-11-25 restricts `outputSchema` to a root `type: object`; another root is a warning.
(3) See `mcp_annotations`.
(4) Examples that do not validate against the input schema are left out with a
    warning: Anthropic rejects the whole request for one of them.
(5) Written `strict: true` only when the schema meets OpenAI's strict-mode rules
    (`openai_strict_compatible`); otherwise Chat omits `strict` (its default is
    false) and Responses writes `strict: false`, because a Responses tool without
    `strict` is made strict when the server can, which changes what an optional
    property means.

Gemini gets `parametersJsonSchema` (plain JSON Schema), never `parameters`: the
OpenAPI subset of `parameters` cannot say type lists, `const` or non-string enums, so
translating into it would lose or change constraints; `parametersJsonSchema` keeps
the schema exactly and round-trips.

Always written as a warning: version, limitations, target, semantic_rules, approval,
observation, `x-` extension fields and unknown fields (no target has a place for
them), and purpose / when_to_use / non_goals when a `description` is given (it is
written as is, they are not folded in). Schema keywords a surface does not support
inside a schema are the portability rules' business (`toolcontract lint --target`);
here only what makes a tool unsendable is warned about (name pattern, a root that is
not an object, a root `anyOf`/`oneOf`/`allOf` on OpenAI and Anthropic).

Provider input: the readers (`sources.providers`) put a provider tool's fields under
native names; `unread_fields` lists the members of the provider's tool object that no
native field came from (MCP `icons`, OpenAI `strict`, Gemini `behavior`, ...), so that
a conversion from a provider file warns about those too. `render` turns a document into
JSON, or YAML for our format.

The `native` target writes `{"toolcontract": 1, ...}` for one tool and
`{"toolcontract": 1, "tools": [...]}` otherwise, fields in the format's order; it
carries everything, so it never warns.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from toolcontract.core import limits
from toolcontract.core.descriptor import CONTRACT_FIELDS, ToolView, model_description
from toolcontract.core.model import Effect
from toolcontract.io.document import Document

TARGETS = ("mcp", "openai-chat", "openai-responses", "anthropic", "gemini", "native")

LABELS = {
    "mcp": "MCP",
    "openai-chat": "OpenAI Chat",
    "openai-responses": "OpenAI Responses",
    "anthropic": "Anthropic",
    "gemini": "Gemini",
    "native": "toolcontract",
}

# name rules each surface enforces (MCP's is a SHOULD); see tool-surfaces.md
_NAME_RULES = {
    "mcp": (re.compile(r"[A-Za-z0-9._-]{1,128}"), "should match"),
    "openai-chat": (re.compile(r"[A-Za-z0-9_-]{1,64}"), "must match"),
    "openai-responses": (re.compile(r"[A-Za-z0-9_-]{1,64}"), "must match"),
    "anthropic": (re.compile(r"[A-Za-z0-9_-]{1,64}"), "must match"),
    "gemini": (re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]{0,127}"), "must match"),
}

# where fields that only some targets carry are carried; a field absent here goes nowhere
_CARRIED_BY = {
    "title": "MCP's title",
    "effect": "MCP annotations",
    "annotations": "MCP annotations",
    "output_schema": "the output schema of MCP, OpenAI Responses and Gemini",
    "examples": "Anthropic's input_examples",
}

_DESCRIPTION_PARTS = ("purpose", "when_to_use", "non_goals")


@dataclass(frozen=True)
class ConversionWarning:
    """Something of one tool the target cannot carry, or had to fill in."""

    tool: str  # the tool's name, or `#N` (1-based position) when it has none
    field: str  # native field name; `annotations.readOnlyHint`, `examples.2` for a part of one
    message: str


@dataclass
class Conversion:
    document: Any  # JSON-able
    warnings: list[ConversionWarning] = field(default_factory=list)


def convert(tools: list[dict[str, Any]], to: str) -> Conversion:
    """The tools (native-named descriptor data) as a document of format `to`."""
    if to not in TARGETS:
        raise ValueError(f"unknown target {to!r} (expected one of {', '.join(TARGETS)})")
    if to == "native":
        return Conversion(native_document(tools))
    warnings: list[ConversionWarning] = []
    items = []
    for index, data in enumerate(tools):
        tool = _Tool(data, index, to)
        items.append(_WRITERS[to](tool))
        tool.finish()
        warnings.extend(tool.warnings)
    return Conversion(_WRAPPERS[to](items), warnings)


# ---------------------------------------------------------- provider input


# keys a provider format uses for its own structure, not for a tool field
_STRUCTURAL = {"openai-chat": {"type"}, "openai-responses": {"type"}, "anthropic": {"type"}}


def unread_fields(view: ToolView, index: int = 0) -> list[ConversionWarning]:
    """What a reader left behind in one provider tool: every member of the tool object as
    the provider wrote it (`view.raw`) that no native field was read from (MCP `icons`,
    `execution`, `_meta`; OpenAI and Anthropic `strict`; Gemini `behavior`; ...). A native
    tool leaves nothing behind."""
    if view.format == "native" or not isinstance(view.raw, dict):
        return []
    read = [pointer for document, pointer in view.sources.values() if document is view.document]
    name = view.name or f"#{index + 1}"
    label = LABELS.get(view.format, view.format)
    skip = _STRUCTURAL.get(view.format, set())
    found: list[ConversionWarning] = []

    def walk(node: dict, pointer: str, path: tuple[str, ...]) -> None:
        for key, value in node.items():
            here = f"{pointer}/{str(key).replace('~', '~0').replace('/', '~1')}"
            if here in read or (not path and key in skip):
                continue
            if any(p.startswith(here + "/") for p in read) and isinstance(value, dict):
                walk(value, here, (*path, str(key)))  # partly read (OpenAI Chat's `function`)
                continue
            where = ".".join((*path, str(key)))
            why = " (OpenAI targets get `strict` from the schema)" if key == "strict" else ""
            found.append(ConversionWarning(name, where, f"the {label} member `{where}` has no toolcontract field; "
                                                        f"not converted{why}"))

    walk(view.raw, view.pointer, ())
    return found


# ---------------------------------------------------------------------- native


def native_document(tools: list[dict[str, Any]]) -> dict[str, Any]:
    """Our format: one descriptor, or `tools: [...]` for any other count."""
    ordered = [_native_order(data) for data in tools]
    if len(ordered) == 1 and isinstance(ordered[0], dict):
        return {"toolcontract": 1, **ordered[0]}
    return {"toolcontract": 1, "tools": ordered}


def _native_order(data: Any) -> Any:
    if not isinstance(data, dict):
        return copy.deepcopy(data)
    out = {key: copy.deepcopy(data[key]) for key in CONTRACT_FIELDS if key in data}
    for key, value in data.items():
        if key not in out and key != "toolcontract":
            out[key] = copy.deepcopy(value)
    return out


# ------------------------------------------------------------ writing one tool


class _Tool:
    """One tool being written: the fields a writer takes, and a warning for every other one."""

    def __init__(self, data: dict[str, Any], index: int, target: str):
        self.data = data if isinstance(data, dict) else {}
        self.target = target
        self.label = LABELS[target]
        name = self.data.get("name")
        self.label_name = name if isinstance(name, str) and name else f"#{index + 1}"
        self.taken: set[str] = {"toolcontract"}
        self.warnings: list[ConversionWarning] = []

    def has(self, key: str) -> bool:
        return key in self.data

    def take(self, key: str) -> Any:
        self.taken.add(key)
        return copy.deepcopy(self.data.get(key))

    def warn(self, field: str, message: str) -> None:
        self.warnings.append(ConversionWarning(self.label_name, field, message))

    # -- fields every target has

    def name(self) -> str | None:
        name = self.take("name")
        if not isinstance(name, str) or not name:
            what = "no name" if name is None else f"name {name!r} is not a string"
            self.warn("name", f"{what}; {self.label} requires one, so the tool is written without it")
            return None
        pattern, verb = _NAME_RULES[self.target]
        if not pattern.fullmatch(name):
            self.warn("name", f"{name!r} {verb} {self.label}'s name rule {pattern.pattern}; written unchanged")
        return name

    def description(self) -> str | None:
        view = ToolView(self.data, Document("<convert>", "", self.data), "")
        text = model_description(view)
        if view.text("description") is None:  # built: purpose, when_to_use and non_goals are in it
            self.taken.update(_DESCRIPTION_PARTS)
            if "description" in self.data:
                self.taken.add("description")
                instead = "one built from purpose, when_to_use and non_goals is written" if text else "none is written"
                self.warn("description", f"blank or not a string; {instead}")
        else:
            self.taken.add("description")
        return text or None

    def input_schema(self, required: bool, no_root_combinators: bool) -> Any:
        if not self.has("input_schema"):
            self.taken.add("input_schema")
            if required:
                self.warn("input_schema", f'absent; {self.label} requires one, so {{"type": "object"}} '
                          "(any arguments) is written")
                return {"type": "object"}
            return None
        schema = self.take("input_schema")
        if not (isinstance(schema, dict) and schema.get("type") == "object"):
            self.warn("input_schema", f"the root is not `type: object`, which {self.label} requires; written unchanged")
        elif no_root_combinators:
            for keyword in ("anyOf", "oneOf", "allOf"):
                if keyword in schema:
                    self.warn("input_schema", f"`{keyword}` at the root is rejected by {self.label}; written unchanged")
        return schema

    def output_schema(self, object_root_only: bool = False) -> Any:
        if not self.has("output_schema"):
            return None
        schema = self.take("output_schema")
        if object_root_only and not (isinstance(schema, dict) and schema.get("type") == "object"):
            self.warn("output_schema", f"{self.label} allows only a root `type: object` output schema; not written")
            return None
        return schema

    def finish(self) -> None:
        """A warning for every field no writer took."""
        described = "description" in self.data and isinstance(self.data.get("description"), str) \
            and bool(self.data["description"].strip())
        for key in self.data:
            if key in self.taken:
                continue
            if key in _DESCRIPTION_PARTS and described:
                reason = "not written: `description` is given and written as is (purpose, when_to_use and " \
                         "non_goals are folded in only when it is absent)"
            elif key in _CARRIED_BY:
                reason = f"{self.label} has no place for it; not written (it converts to {_CARRIED_BY[key]})"
            elif key.startswith("x-"):
                reason = f"extension field; {self.label} has no place for it; not written"
            elif key in CONTRACT_FIELDS:
                reason = f"{self.label} has no place for it; not written"
            else:
                reason = "not a descriptor field; not written"
            self.warn(key, reason)


# ------------------------------------------------------------------ MCP


_HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")

# hints an effect class decides (an annotation written against them is replaced, with a warning)
_DECIDED: dict[Effect, dict[str, bool]] = {
    Effect.PURE: {"readOnlyHint": True, "openWorldHint": False},
    Effect.READ: {"readOnlyHint": True},
    Effect.REVERSIBLE_WRITE: {"readOnlyHint": False},
    Effect.IRREVERSIBLE_WRITE: {"readOnlyHint": False, "destructiveHint": True},
    Effect.OPEN_WORLD: {"readOnlyHint": False, "openWorldHint": True},
}
# hints an effect class suggests (an annotation written in the file wins)
_SUGGESTED: dict[Effect, dict[str, bool]] = {
    Effect.PURE: {"destructiveHint": False, "idempotentHint": True},
    Effect.READ: {"destructiveHint": False, "idempotentHint": True, "openWorldHint": False},
    Effect.REVERSIBLE_WRITE: {"destructiveHint": False, "openWorldHint": False},
    Effect.IRREVERSIBLE_WRITE: {"openWorldHint": False},
    Effect.OPEN_WORLD: {"destructiveHint": True},
}


def mcp_annotations(effect: Any, written: Any) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """MCP annotations for an effect class and the annotations written in the descriptor,
    with (field, message) for each written hint the effect class overrode.

    The effect class decides readOnlyHint (pure/read: true, the rest: false),
    destructiveHint for irreversible_write (true) and openWorldHint for pure (false)
    and open_world (true); those are the contradictions TC302 reports, and the effect
    class wins. It suggests the rest: destructiveHint false for pure, read and
    reversible_write, true for open_world; idempotentHint true for pure and read (a
    tool that changes nothing has no additional effect when repeated), and for writes
    only when written (a write is not known to be idempotent); openWorldHint false
    for read and the two writes (a read tool that reaches the open web says so in
    its annotations). Written hints win over suggestions, and other written members
    (title, unknown keys) are kept. With no effect class, the written annotations
    are kept as they are.
    """
    notes: dict[str, Any] = dict(written) if isinstance(written, dict) else {}
    problems: list[tuple[str, str]] = []
    kind = Effect.of(effect)
    if kind is not None:
        for key, value in _DECIDED[kind].items():
            if key in notes and notes[key] != value:
                problems.append((f"annotations.{key}", f"written {_json(notes[key])}, but the effect {kind.value} means "
                                 f"{_json(value)}; {_json(value)} is written"))
            notes[key] = value
        for key, value in _SUGGESTED[kind].items():
            notes.setdefault(key, value)
    ordered = {key: notes[key] for key in ("title", *_HINTS) if key in notes}
    ordered.update((key, value) for key, value in notes.items() if key not in ordered)
    return ordered, problems


def _json(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _write_mcp(tool: _Tool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    name = tool.name()
    if name is not None:
        out["name"] = name
    if tool.has("title"):
        title = tool.take("title")
        if isinstance(title, str):
            out["title"] = title
        else:
            tool.warn("title", "not a string; not written")
    description = tool.description()
    if description:
        out["description"] = description
    out["inputSchema"] = tool.input_schema(required=True, no_root_combinators=False)
    output = tool.output_schema(object_root_only=True)
    if output is not None:
        out["outputSchema"] = output
    effect = tool.take("effect") if tool.has("effect") else None
    if effect is not None and Effect.of(effect) is None:
        tool.warn("effect", f"{effect!r} is not an effect class; no annotations derived from it")
    written = tool.take("annotations") if tool.has("annotations") else None
    if written is not None and not isinstance(written, dict):
        tool.warn("annotations", "not a mapping; not written")
    annotations, problems = mcp_annotations(effect, written)
    for where, message in problems:
        tool.warn(where, message)
    if annotations:
        out["annotations"] = annotations
    return out


# --------------------------------------------------------------- OpenAI


_STRICT_KEYWORDS = limits.OPENAI_STRICT_KEYWORDS
_STRICT_TYPES = limits.STRICT_TYPES
_STRICT_FORMATS = limits.STRICT_FORMATS["openai-strict"]


def openai_strict_compatible(schema: Any) -> bool:
    """Whether a schema meets OpenAI's strict-mode rules, judged conservatively: a root
    object; every object closed (`additionalProperties: false`) with every property
    required; only the documented keywords, types and formats; local `$ref`s; at most
    10 levels of nesting, 5,000 properties and 1,000 enum values. Any doubt is False."""
    if not isinstance(schema, dict) or schema.get("type") != "object" or "anyOf" in schema:
        return False
    budget = {"properties": limits.OPENAI_MAX_PROPERTIES, "enum": limits.OPENAI_MAX_ENUM_VALUES}

    # not core.schema.walk: the walk stops at the first doubt, and a subschema strict mode does
    # not allow (under `not`, `oneOf`, ...) is refused by the keyword allow-list before it is reached
    def ok(node: Any, depth: int) -> bool:
        if not isinstance(node, dict) or depth > limits.OPENAI_MAX_DEPTH or not set(node) <= _STRICT_KEYWORDS:
            return False
        kinds = node.get("type")
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if kinds is not None and not (isinstance(kinds, list) and kinds and set(kinds) <= _STRICT_TYPES
                                      and all(isinstance(k, str) for k in kinds)):
            return False
        if "format" in node and node["format"] not in _STRICT_FORMATS:
            return False
        ref = node.get("$ref")
        if ref is not None and not (isinstance(ref, str) and ref.startswith("#")):
            return False
        if "enum" in node:
            if not isinstance(node["enum"], list):
                return False
            budget["enum"] -= len(node["enum"])
        properties = node.get("properties")
        is_object = (kinds is not None and "object" in kinds) or properties is not None
        if is_object:
            if properties is None:
                properties = {}
            if not isinstance(properties, dict) or node.get("additionalProperties") is not False:
                return False
            required = node.get("required", [])
            if not isinstance(required, list) or set(required) != set(properties) or len(required) != len(properties):
                return False
            budget["properties"] -= len(properties)
            if not all(ok(sub, depth + 1) for sub in properties.values()):
                return False
        elif "additionalProperties" in node or "required" in node:
            return False
        if "items" in node and not ok(node["items"], depth + 1):
            return False
        if "anyOf" in node and not (isinstance(node["anyOf"], list) and all(ok(s, depth + 1) for s in node["anyOf"])):
            return False
        for keyword in ("$defs", "definitions"):
            if keyword in node:
                defs = node[keyword]
                if not isinstance(defs, dict) or not all(ok(s, depth + 1) for s in defs.values()):
                    return False
        return budget["properties"] >= 0 and budget["enum"] >= 0

    try:
        return ok(schema, 1)
    except (TypeError, RecursionError):  # unhashable values in `required` and the like
        return False


def _name_and_description(tool: _Tool) -> dict[str, Any]:
    """The `name` and `description` members every non-MCP target starts with."""
    out: dict[str, Any] = {}
    name = tool.name()
    if name is not None:
        out["name"] = name
    description = tool.description()
    if description:
        out["description"] = description
    return out


def _openai_function(tool: _Tool) -> tuple[dict[str, Any], bool]:
    out = _name_and_description(tool)
    required = tool.target == "openai-responses"  # Responses requires `parameters` (null allowed)
    schema = tool.input_schema(required=required, no_root_combinators=True)
    if schema is not None:
        out["parameters"] = schema
    return out, openai_strict_compatible(schema)


def _write_openai_chat(tool: _Tool) -> dict[str, Any]:
    function, strict = _openai_function(tool)
    if strict:
        function["strict"] = True
    return {"type": "function", "function": function}


def _write_openai_responses(tool: _Tool) -> dict[str, Any]:
    function, strict = _openai_function(tool)
    out = {"type": "function", **function, "strict": strict}
    output = tool.output_schema()
    if output is not None:
        out["output_schema"] = output
    return out


# ------------------------------------------------------------ Anthropic


def _write_anthropic(tool: _Tool) -> dict[str, Any]:
    out = _name_and_description(tool)
    schema = tool.input_schema(required=True, no_root_combinators=True)
    out["input_schema"] = schema
    if tool.has("examples"):
        examples = tool.take("examples")
        if not isinstance(examples, list):
            tool.warn("examples", "not a list; not written")
        else:
            kept = _valid_examples(tool, examples, schema)
            if kept:
                out["input_examples"] = kept
    return out


def _valid_examples(tool: _Tool, examples: list, schema: Any) -> list:
    """The examples Anthropic accepts: objects valid against the input schema."""
    from toolcontract.core.schema.validation import compile_validator, is_valid_schema

    check: Callable[[Any], bool] | None = None
    if isinstance(schema, (dict, bool)) and is_valid_schema(schema):
        try:
            check = compile_validator(schema).is_valid
        except ValueError:
            check = None
    kept = []
    for index, example in enumerate(examples):
        if not isinstance(example, dict):
            tool.warn(f"examples.{index}", "not an object; not written")
            continue
        if check is None:
            tool.warn(f"examples.{index}", "the input schema cannot be compiled, so the example cannot be "
                      "checked; Anthropic rejects an invalid one; not written")
            continue
        try:
            valid = check(example)
        except (ValueError, TypeError, OverflowError):
            valid = False
        if not valid:
            tool.warn(f"examples.{index}", "does not validate against input_schema, and Anthropic rejects a "
                      "request with such an example; not written")
            continue
        kept.append(example)
    return kept


# --------------------------------------------------------------- Gemini


def _write_gemini(tool: _Tool) -> dict[str, Any]:
    out = _name_and_description(tool)
    schema = tool.input_schema(required=False, no_root_combinators=False)
    if schema is not None:
        out["parametersJsonSchema"] = schema
    output = tool.output_schema()
    if output is not None:
        out["responseJsonSchema"] = output
    return out


_WRITERS: dict[str, Callable[[_Tool], dict[str, Any]]] = {
    "mcp": _write_mcp,
    "openai-chat": _write_openai_chat,
    "openai-responses": _write_openai_responses,
    "anthropic": _write_anthropic,
    "gemini": _write_gemini,
}

# the document each target's tools go in: what its API or protocol takes
_WRAPPERS: dict[str, Callable[[list], Any]] = {
    "mcp": lambda items: {"tools": items},  # a tools/list result
    "openai-chat": lambda items: items,  # the request's `tools`
    "openai-responses": lambda items: items,
    "anthropic": lambda items: items,
    "gemini": lambda items: {"functionDeclarations": items},  # one Gemini Tool
}


# ------------------------------------------------------------------ text


def render(document: Any, as_yaml: bool = False) -> str:
    """The document as text: JSON (indented by two, UTF-8 kept), or YAML for our format.

    Raises ValueError for a value the format cannot hold (NaN or infinity in JSON, a
    lone surrogate in YAML); the text always encodes as UTF-8. The YAML quotes
    every string our loader (YAML 1.2 core schema) or a YAML 1.1 reader would take
    for something else, so it reads back as the same data.
    """
    if not as_yaml:
        text = json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
        if _encodable(text):
            return text
        # a lone surrogate (JSON input may hold one as an escape): only an escape can carry it
        return json.dumps(document, indent=2, ensure_ascii=True, allow_nan=False) + "\n"
    import yaml

    if not _encodable(json.dumps(document, ensure_ascii=False)):  # PyYAML would write an escape no reader takes
        raise ValueError("a string holds a lone surrogate, which YAML cannot carry; write JSON instead")
    return yaml.dump(document, Dumper=_yaml_dumper(), sort_keys=False, allow_unicode=True,
                     default_flow_style=False, width=100)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@functools.cache
def _yaml_dumper() -> type:
    import yaml

    from toolcontract.io.document import _resolve_plain

    class Dumper(yaml.SafeDumper):
        def ignore_aliases(self, data: Any) -> bool:  # a shared subschema is written out, never as an alias
            return True

    def represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
        style = None
        if any(char in value for char in "\r\x85\u2028\u2029"):  # line breaks a quoted or block scalar would fold
            style = '"'
        elif "\n" in value:
            style = "|"  # the emitter falls back to quotes when a block cannot hold the text
        else:
            resolved = _resolve_plain(value)
            if not (isinstance(resolved, str) and resolved == value):
                style = "'"
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    Dumper.add_representer(str, represent_str)
    return Dumper

