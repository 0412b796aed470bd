"""Every model-facing string of a descriptor, with its path in native field names.

A model reads a tool's name, title and description (or the one built from
`purpose`, `when_to_use` and `non_goals`), its `limitations`, and the whole input
schema as JSON: property names, descriptions and titles, `enum`, `const`, `default`
and `examples` values, and any other string an author put there (unknown keywords,
`x-` extensions, a `type` or `required` entry that is really a sentence). Output
schemas, semantic rule messages (shown on a refusal), annotation titles, examples and
top-level `x-` extensions reach it too, and so do an MCP tool's `_meta` map and its own
`x-` members, which clients pass on as written (`shown` adds them from the provider
object). Strings that are structure rather than text
(`$ref`, `$schema`, `format`, valid `type` names) are left out; regular expressions
(`pattern` values, `patternProperties` keys) are passed as kind PATTERN, for TC607.
"""

from __future__ import annotations

from typing import Any, Callable

from toolcontract.core.schema import LIST, MAP, ONE
from toolcontract.core.descriptor import CARD_FORMAT, ToolView
from toolcontract.security.records import Record

# kinds
NAME = "name"  # the tool's name
PROPERTY = "property"  # a property name (a key in `properties`)
TEXT = "text"  # prose: description, title, purpose, property descriptions, messages
VALUE = "value"  # a value the model may send: enum, const, default, examples
OTHER = "other"  # any other string inside a schema or an extension
PATTERN = "pattern"  # a `pattern` or `patternProperties` key: a regular expression, not text
KINDS = (NAME, PROPERTY, TEXT, VALUE, OTHER, PATTERN)

TOP_TEXT = ("title", "description", "purpose", "when_to_use", "observation")
TOP_LISTS = ("non_goals", "limitations")
_VALUE_KEYWORDS = frozenset(("enum", "const", "default", "examples"))
_TEXT_KEYWORDS = frozenset(("description", "title", "$comment"))
_STRUCTURE = frozenset((
    "$ref", "$dynamicRef", "$schema", "$id", "$anchor", "$dynamicAnchor", "$vocabulary",
    "format", "contentEncoding", "contentMediaType",
))
_JSON_TYPES = frozenset(("array", "boolean", "integer", "null", "number", "object", "string"))
# the subschema keywords (core.schema's table). The walks below are their own, not core.schema.walk:
# they visit every string of a descriptor (keys and values, inside and outside subschemas) with
# the role each key gives it, which a walk of the subschemas alone does not see
_ONE = frozenset(ONE)
_MAP = frozenset(MAP)
_LIST = frozenset(LIST)
_MAX_DEPTH = 200


class Surface(Record):
    __slots__ = ("path", "text", "kind", "anchor")

    def __init__(self, path: tuple, text: str, kind: str, anchor: str = "value"):
        self.path = path  # native field names, as a Hit takes them
        self.text = text
        self.kind = kind
        self.anchor = anchor  # "key" for a property name

    @property
    def where(self) -> str:
        """A short label for messages: `description`, `property name 'city'`,
        `input_schema/properties/city/default` (input text in it made printable)."""
        from toolcontract.core.text import printable

        if self.kind == NAME:
            return "the tool name"
        if self.kind == PROPERTY:
            return f"property name '{printable(self.text)}'"
        return printable("/".join(str(p) for p in self.path))


# (parent path, last key, text, kind, anchor): a string found at (*parent, last)
Found = tuple


def surfaces(tool: ToolView) -> list[Surface]:
    """The model-facing strings of a tool, with their paths (the scan builds only the paths it reports)."""
    return [Surface((*parent, last), text, kind, anchor) for parent, last, text, kind, anchor in collect(shown(tool))]


_META = "_meta"
_SKILL_SHOWN = ("examples",)
_ANNOTATION_TITLE = "/annotations/title"


def shown(tool: ToolView) -> dict:
    """The data whose strings a client may show the model: the tool's native data, plus the
    members an MCP reader leaves in the provider object (`_meta`, a map of any JSON, and the
    tool's own `x-` members: ToolView.locate finds them there), minus the annotation title
    when the reader took it as the tool's title (one span, read once: as the title). The
    tool's data itself, for most tools (nothing to add or take away)."""
    data = tool.data
    if tool.format != "mcp":
        if tool.format == CARD_FORMAT and type(tool.raw) is dict and tool.pointer:  # an A2A skill: its examples
            extra = {key: tool.raw[key] for key in _SKILL_SHOWN if key in tool.raw}  # reach the caller's model
            return {**data, **extra} if extra else data
        return data
    raw = tool.raw
    extra = None
    if type(raw) is dict and not raw.keys() <= _MCP_READ:
        extra = {key: value for key, value in raw.items()
                 if type(key) is str and (key == _META or key.startswith("x-")) and key not in data}
    source = tool.sources.get("title")
    from_annotations = source is not None and source[1] == tool.pointer + _ANNOTATION_TITLE
    if not extra and not from_annotations:
        return data
    data = dict(data)
    if from_annotations and type(data.get("annotations")) is dict:
        data["annotations"] = {k: v for k, v in data["annotations"].items() if k != "title"}
    if extra:
        data.update(extra)
    return data


# members of an MCP tool object with nothing to add (a tool with only these is its data as read)
_MCP_READ = frozenset(("name", "title", "description", "inputSchema", "outputSchema", "annotations", "icons",
                       "execution"))


def collect(data: dict) -> list[Found]:
    """Every model-facing string of native descriptor data, as (parent path, last key, text,
    kind, anchor): a caller builds a string's full path only when it needs it. A flat list
    (appends, no callbacks): this runs over every string of every tool."""
    out: list[Found] = []
    add = out.append
    name = data.get("name")
    if type(name) is str:
        add(((), "name", name, NAME, "value"))
    for key in TOP_TEXT:
        value = data.get(key)
        if type(value) is str:
            add(((), key, value, TEXT, "value"))
    for key in TOP_LISTS:
        value = data.get(key)
        if type(value) is list:
            for i, item in enumerate(value):
                if type(item) is str:
                    add(((key,), i, item, TEXT, "value"))
        elif type(value) is str:
            add(((), key, value, TEXT, "value"))
    annotations = data.get("annotations")
    if type(annotations) is dict:
        _strings(annotations, ("annotations",), OTHER, 0, add)
    for key in ("input_schema", "output_schema"):
        schema = data.get(key)
        if type(schema) is dict:
            _schema(schema, (key,), 0, add)
    rules = data.get("semantic_rules")
    if type(rules) is list:
        for i, entry in enumerate(rules):
            if type(entry) is dict and type(entry.get("message")) is str:
                add((("semantic_rules", i), "message", entry["message"], TEXT, "value"))
    examples = data.get("examples")
    if type(examples) is list:
        _strings(examples, ("examples",), VALUE, 0, add)
    for key, value in data.items():
        if type(key) is str and (key.startswith("x-") or key == _META):
            _strings(value, (key,), OTHER, 0, add)
    return out


def _strings(value: Any, path: tuple, kind: str, depth: int, add: Callable) -> None:
    """Strings inside a value; `path` is the value's own path."""
    if type(value) is str:
        add((path[:-1], path[-1], value, kind, "value"))
    elif depth > _MAX_DEPTH:
        return
    elif type(value) is dict:
        for key, item in value.items():
            if type(item) is str:
                add((path, key, item, kind, "value"))
            elif type(item) is dict or type(item) is list:
                _strings(item, (*path, key), kind, depth + 1, add)
    elif type(value) is list:
        for i, item in enumerate(value):
            if type(item) is str:
                add((path, i, item, kind, "value"))
            elif type(item) is dict or type(item) is list:
                _strings(item, (*path, i), kind, depth + 1, add)


# what each schema keyword holds (anything else: strings of an unknown keyword or extension)
_SUBSCHEMA_MAP, _SUBSCHEMA, _SUBSCHEMA_LIST, _PROSE, _VALUES, _SKIP, _TYPE, _REQUIRED, _PATTERN = range(9)
_KEYWORDS: dict[str, int] = {
    **{k: _SUBSCHEMA_MAP for k in _MAP}, **{k: _SUBSCHEMA for k in _ONE}, **{k: _SUBSCHEMA_LIST for k in _LIST},
    **{k: _PROSE for k in _TEXT_KEYWORDS}, **{k: _VALUES for k in _VALUE_KEYWORDS}, **{k: _SKIP for k in _STRUCTURE},
    "type": _TYPE, "required": _REQUIRED, "pattern": _PATTERN,
    # numbers and booleans: nothing to read
    **{k: _SKIP for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength",
                          "maxLength", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
                          "minContains", "maxContains", "readOnly", "writeOnly", "deprecated", "nullable")},
}


def _schema(schema: dict, path: tuple, depth: int, add: Callable) -> None:
    if depth > _MAX_DEPTH:
        return
    keywords = _KEYWORDS
    for key, value in schema.items():
        role = keywords.get(key)
        if role is None:  # an unknown keyword or an `x-` extension
            if type(value) is str:
                add((path, key, value, OTHER, "value"))
            elif type(value) is dict or type(value) is list:
                _strings(value, (*path, key), OTHER, depth, add)
        elif role == _PROSE:
            if type(value) is str:
                add((path, key, value, TEXT, "value"))
        elif role == _SUBSCHEMA_MAP:
            if type(value) is dict:
                at = (*path, key)
                for name, sub in value.items():
                    if type(name) is str:
                        if key == "properties":
                            add((at, name, name, PROPERTY, "key"))
                        elif key == "patternProperties":
                            add((at, name, name, PATTERN, "key"))
                    if type(sub) is dict:
                        _schema(sub, (*at, name), depth + 1, add)
        elif role == _SUBSCHEMA:
            if type(value) is dict:
                _schema(value, (*path, key), depth + 1, add)
            elif key == "items" and type(value) is list:
                for i, sub in enumerate(value):
                    if type(sub) is dict:
                        _schema(sub, (*path, key, i), depth + 1, add)
        elif role == _SUBSCHEMA_LIST:
            if type(value) is list:
                for i, sub in enumerate(value):
                    if type(sub) is dict:
                        _schema(sub, (*path, key, i), depth + 1, add)
        elif role == _VALUES:
            if type(value) is str:
                add((path, key, value, VALUE, "value"))
            elif type(value) is dict or type(value) is list:
                _strings(value, (*path, key), VALUE, depth, add)
        elif role == _PATTERN:
            if type(value) is str:
                add((path, key, value, PATTERN, "value"))
        elif role == _TYPE:
            if type(value) is str:
                if value not in _JSON_TYPES:
                    add((path, key, value, OTHER, "value"))
            elif type(value) is list:
                for i, item in enumerate(value):
                    if type(item) is str and item not in _JSON_TYPES:
                        add(((*path, key), i, item, OTHER, "value"))
        elif role == _REQUIRED:
            # property names; a sentence here is a hidden instruction, not a name
            if type(value) is list:
                properties = schema.get("properties")
                declared = properties if type(properties) is dict else {}
                for i, item in enumerate(value):
                    if type(item) is str and item not in declared and not _plain_name(item):
                        add(((*path, key), i, item, OTHER, "value"))
        # _SKIP: structure, numbers and booleans


def texts(data: dict) -> list[tuple[str, str]]:
    """The (text, kind) of every string `collect` finds, in the same order, without paths:
    the scan reads these, and builds paths (with `collect`) only for a tool with something
    to report. Keep the two walks in step (tests/test_security_speed.py compares them)."""
    out: list[tuple[str, str]] = []
    add = out.append
    get = data.get
    name = get("name")
    if type(name) is str:
        add((name, NAME))
    for value in map(get, TOP_TEXT):
        if type(value) is str:
            add((value, TEXT))
    for key in TOP_LISTS:
        value = get(key)
        if type(value) is list:
            for item in value:
                if type(item) is str:
                    add((item, TEXT))
        elif type(value) is str:
            add((value, TEXT))
    annotations = get("annotations")
    if type(annotations) is dict:  # _bare_strings(annotations, OTHER, 0, add), inline: most are flags
        for item in annotations.values():
            kind_of = type(item)
            if kind_of is str:
                add((item, OTHER))
            elif kind_of is dict or kind_of is list:
                _bare_strings(item, OTHER, 1, add)
    schema = get("input_schema")
    if type(schema) is dict:
        _bare_schema(schema, 0, add)
    schema = get("output_schema")
    if type(schema) is dict:
        _bare_schema(schema, 0, add)
    rules = get("semantic_rules")
    if type(rules) is list:
        for entry in rules:
            if type(entry) is dict and type(entry.get("message")) is str:
                add((entry["message"], TEXT))
    examples = get("examples")
    if type(examples) is list:  # _bare_strings(examples, VALUE, 0, add), its first two levels inline
        for example in examples:
            kind_of = type(example)
            if kind_of is str:
                add((example, VALUE))
            elif kind_of is dict:
                for item in example.values():
                    kind_of = type(item)
                    if kind_of is str:
                        add((item, VALUE))
                    elif kind_of is dict or kind_of is list:
                        _bare_strings(item, VALUE, 2, add)
            elif kind_of is list:
                _bare_strings(example, VALUE, 1, add)
    if not data.keys() <= _TOP_KEYS:  # an `x-` key, `_meta`, or another one: in the order of the keys
        for key, value in data.items():
            if type(key) is str and (key.startswith("x-") or key == _META):
                _bare_strings(value, OTHER, 0, add)
    return out


# keys of a descriptor that are not `x-` extensions (the others are looked for only when a
# descriptor has a key outside these)
_TOP_KEYS = frozenset(("toolcontract", "name", "version", "title", "description", "purpose", "when_to_use",
                       "non_goals", "effect", "limitations", "input_schema", "output_schema", "target",
                       "semantic_rules", "approval", "observation", "annotations", "examples"))


def _bare_strings(value: Any, kind: str, depth: int, add: Callable) -> None:
    """_strings without paths."""
    if type(value) is str:
        add((value, kind))
    elif depth > _MAX_DEPTH:
        return
    elif type(value) is dict:
        for item in value.values():
            if type(item) is str:
                add((item, kind))
            elif type(item) is dict or type(item) is list:
                _bare_strings(item, kind, depth + 1, add)
    elif type(value) is list:
        for item in value:
            if type(item) is str:
                add((item, kind))
            elif type(item) is dict or type(item) is list:
                _bare_strings(item, kind, depth + 1, add)


# _bare_schema reads a string value by its keyword in one look-up: the kind it is read as, None
# for a keyword whose string is not text (structure, or a string where a schema or a number
# belongs), _TYPE_NAME for `type` (read unless a JSON type); any other keyword's is OTHER
_TYPE_NAME = "type name"
_STRING_KINDS: dict[str, str | None] = {
    **{k: None for k in _KEYWORDS}, **{k: TEXT for k in _TEXT_KEYWORDS}, **{k: VALUE for k in _VALUE_KEYWORDS},
    "pattern": PATTERN, "type": _TYPE_NAME,
}


def _bare_schema(schema: dict, depth: int, add: Callable) -> None:
    """_schema without paths (the same cases: a string value by its keyword at once, numbers
    and booleans skipped, then the keywords that hold schemas or lists)."""
    if depth > _MAX_DEPTH:
        return
    string_kinds = _STRING_KINDS
    for key, value in schema.items():
        if type(value) is str:
            kind = string_kinds.get(key, OTHER)
            if kind is None:
                continue
            if kind is _TYPE_NAME:
                if value not in _JSON_TYPES:
                    add((value, OTHER))
            else:
                add((value, kind))
        elif type(value) is dict or type(value) is list:
            _bare_keyword(schema, key, value, depth, add)
        # a number, a boolean, null: nothing to read


def _bare_keyword(schema: dict, key: Any, value: dict | list, depth: int, add: Callable) -> None:
    """A keyword of a schema whose value is a dict or a list."""
    role = _KEYWORDS.get(key, _UNKNOWN)
    if role == _SUBSCHEMA_MAP:
        if type(value) is dict:
            if key == "properties":
                if depth + 1 > _MAX_DEPTH:
                    for name in value:
                        if type(name) is str:
                            add((name, PROPERTY))
                    return
                string_kinds = _STRING_KINDS
                for name, sub in value.items():
                    if type(name) is str:
                        add((name, PROPERTY))
                    if type(sub) is dict:  # _bare_schema(sub, depth + 1, add), inline: most are leaves
                        for k, v in sub.items():
                            kind_of = type(v)
                            if kind_of is str:
                                kind = string_kinds.get(k, OTHER)
                                if kind is None:
                                    continue
                                if kind is _TYPE_NAME:
                                    if v not in _JSON_TYPES:
                                        add((v, OTHER))
                                else:
                                    add((v, kind))
                            elif kind_of is list and string_kinds.get(k) is VALUE:
                                # an enum or examples: _bare_keyword -> _bare_strings, inline
                                for item in v:
                                    kind_of = type(item)
                                    if kind_of is str:
                                        add((item, VALUE))
                                    elif kind_of is dict or kind_of is list:
                                        _bare_strings(item, VALUE, depth + 2, add)
                            elif kind_of is dict or kind_of is list:
                                _bare_keyword(sub, k, v, depth + 1, add)
            else:
                patterns = key == "patternProperties"
                for name, sub in value.items():
                    if patterns and type(name) is str:
                        add((name, PATTERN))
                    if type(sub) is dict:
                        _bare_schema(sub, depth + 1, add)
    elif role == _VALUES:
        _bare_strings(value, VALUE, depth, add)
    elif role == _UNKNOWN:  # an unknown keyword or an `x-` extension
        _bare_strings(value, OTHER, depth, add)
    elif role == _REQUIRED:
        if type(value) is list:
            properties = schema.get("properties")
            declared = properties if type(properties) is dict else {}
            for item in value:
                if type(item) is str and item not in declared and not _plain_name(item):
                    add((item, OTHER))
    elif role == _TYPE:
        if type(value) is list:
            for item in value:
                if type(item) is str and item not in _JSON_TYPES:
                    add((item, OTHER))
    elif role == _SUBSCHEMA:
        if type(value) is dict:
            _bare_schema(value, depth + 1, add)
        elif key == "items":
            for sub in value:
                if type(sub) is dict:
                    _bare_schema(sub, depth + 1, add)
    elif role == _SUBSCHEMA_LIST:
        if type(value) is list:
            for sub in value:
                if type(sub) is dict:
                    _bare_schema(sub, depth + 1, add)
    # _SKIP, _PROSE and _PATTERN with a list or a dict: nothing to read


_UNKNOWN = -1


def _plain_name(text: str) -> bool:
    return len(text) <= 64 and text.isascii() and " " not in text
