"""Provider tool lists: detect the format, and read each tool into a ToolView in native names.

Formats (FORMATS in `reader`): MCP `tools/list` results, OpenAI Chat and Responses
tools, Anthropic tools and Gemini function declarations. Each tool becomes a
`ToolView` whose `data` uses our field names (`input_schema`, `examples`, ...) and
whose `sources` say where each field is written in the provider file
(`/tools/3/inputSchema`, `/0/function/description`), so findings point into the
file in its own key names.

Detection looks at keys only (never at values deeper than a list's entries), and
is never reached for a native file (`toolcontract:` at the root). Structural
problems are returned as (pointer, message) and reported as TC002; nothing here
raises on any input.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from toolcontract.core.descriptor import FORMAT_LABELS, MCP_DEFAULT_REVISION, MCP_REVISIONS, ToolView, written_hints
from toolcontract.core.schema import LIST as SCHEMA_LIST_KEYWORDS
from toolcontract.core.schema import MAP as SCHEMA_MAP_KEYWORDS
from toolcontract.core.schema import ONE as SCHEMA_KEYWORDS
from toolcontract.io.document import Document
from toolcontract.core.pointer import join_pointer

PROVIDER_FORMATS = ("mcp", "openai-chat", "openai-responses", "anthropic", "gemini")


# Top-level keys only our native format has: an entry carrying one is a native descriptor.
NATIVE_MARKERS = frozenset((
    "toolcontract", "version", "purpose", "when_to_use", "non_goals", "effect", "limitations",
    "target", "semantic_rules", "approval", "observation",
))
_DECLARATIONS = ("functionDeclarations", "function_declarations")
_JSON_SCHEMA_PARAMS = ("parametersJsonSchema", "parameters_json_schema")
_JSON_SCHEMA_RESPONSE = ("responseJsonSchema", "response_json_schema")
_GEMINI_ONLY = frozenset((*_JSON_SCHEMA_PARAMS, *_JSON_SCHEMA_RESPONSE))

Problem = tuple[str, str]  # (pointer, message) in the provider document


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {dict: "a mapping", list: "a list", str: "a string", bool: "a boolean", int: "a number",
            float: "a number"}.get(type(value), type(value).__name__)


# ------------------------------------------------------------------ detection


def classify(item: Any) -> str | None:
    """The format one tool entry is written in, from its keys; None when nothing tells."""
    if not isinstance(item, dict):
        return None
    if "inputSchema" in item:
        return "mcp"
    if item.get("type") == "function":
        if "function" in item:
            return "openai-chat"
        return "openai-responses" if "name" in item or "parameters" in item else None
    if _DECLARATIONS[0] in item or _DECLARATIONS[1] in item:
        return "gemini"  # a Gemini Tool holding declarations
    if not NATIVE_MARKERS.isdisjoint(item):
        return "native"
    if "input_schema" in item or "input_examples" in item:
        return "anthropic"
    if "parameters" in item or not _GEMINI_ONLY.isdisjoint(item):
        return "gemini"
    return None


def _majority(items: list) -> str | None:
    """The format most entries of a list are written in (ties: the first seen)."""
    counts: Counter[str] = Counter()
    for item in items:
        if item.__class__ is not dict or not item:
            continue  # no tool object (what classify says of it, without the call: a list may hold millions)
        kind = classify(item)
        if kind is not None:
            counts[kind] += 1
    if not counts:
        return None
    return counts.most_common(1)[0][0]  # most_common keeps insertion order among ties


def detect(data: Any, path: str | None = None) -> str | None:
    """The format of a whole document: "native", a provider format, "overlay", or None.

    Deterministic and cheap: each check looks for keys only one format uses, in a
    fixed order, and a list goes by what most of its entries are (the others are then
    reported as entries of another format). Request bodies work too: an OpenAI or
    Anthropic request is read through its `tools`.
    """
    if isinstance(data, dict):
        if "toolcontract" in data:
            from toolcontract.io.overlay import is_overlay

            return "overlay" if is_overlay(data, path) else "native"
        if "skills" in data:
            from toolcontract.io.cards import is_card

            if is_card(data):
                return "a2a-card"
        result = data.get("result")
        if isinstance(result, dict) and "tools" in result:
            return "mcp"  # a JSON-RPC response to tools/list
        if _DECLARATIONS[0] in data or _DECLARATIONS[1] in data:
            return "gemini"
        if "tools" in data:
            tools = data["tools"]
            if isinstance(tools, list):
                kind = _majority(tools)
                if kind is not None:
                    return kind
                if not tools or "nextCursor" in data:
                    return "mcp"  # the shape of a tools/list result, with nothing else to go by
                if any(isinstance(t, dict) and "name" in t for t in tools):
                    return "native"  # `tools:` without `toolcontract:`: TC002 says what is missing
                return None  # a collection of something else
        kind = classify(data)
        if kind is not None:
            return kind  # one tool object on its own
        return "native" if "name" in data or not NATIVE_MARKERS.isdisjoint(data) else None
    if isinstance(data, list):
        kind = _majority(data)
        return None if kind == "native" else kind
    return None


def undetected_message(data: Any, tried: Iterable[str]) -> str:
    """The one finding for a document no reader can place: what was tried, and what was found."""
    if data is None:
        found = "an empty file"
    elif isinstance(data, dict) and "jsonrpc" in data and "error" in data:
        found = "a JSON-RPC error response"
    elif isinstance(data, dict):
        keys = ", ".join(repr(k) for k in list(data)[:5]) + (", ..." if len(data) > 5 else "")
        found = (f"a mapping with keys {keys}" if data else "an empty mapping") + \
            " (a native descriptor starts with `toolcontract: 1`)"
    elif isinstance(data, list):
        found = "an empty list" if not data else "a list whose entries are no tool objects"
    else:
        found = _kind(data)
    return f"not a tool list: tried {', '.join(tried)}; found {found}"


# ------------------------------------------------------------------ placement


def _entries_of(container: Any, base: str, fmt: str) -> tuple[list[tuple[str, Any]], list[Problem]]:
    """The tool entries of a document in a given format: (pointer, entry) and problems."""
    label = FORMAT_LABELS[fmt]
    if fmt == "gemini":
        return _gemini_entries(container, base)
    if isinstance(container, list):
        return [(join_pointer(base, i), item) for i, item in enumerate(container)], []
    if isinstance(container, dict):
        if "tools" in container:
            tools = container["tools"]
            where = join_pointer(base, "tools")
            if not isinstance(tools, list):
                return [], [(where, f"`tools` must be a list of {label} tool objects, found {_kind(tools)}")]
            return [(join_pointer(where, i), item) for i, item in enumerate(tools)], []
        if fmt == "mcp" and isinstance(container.get("result"), dict):
            return _entries_of(container["result"], join_pointer(base, "result"), fmt)
        if "name" in container or classify(container) == fmt:
            return [(base, container)], []  # a single tool object
    return [], [(base, f"not {_article(label)} tool list: {_shapes(fmt)}; found {_kind(container)}")]


def _article(label: str) -> str:
    return f"an {label}" if label[0] in "AEIOUM" else f"a {label}"


def _shapes(fmt: str) -> str:
    return {
        "mcp": 'expected a tools/list result ({"tools": [...]}), a JSON-RPC response with result.tools, '
               "or a list of Tool objects",
        "openai-chat": 'expected a list of {"type": "function", "function": {...}} objects, or {"tools": [...]}',
        "openai-responses": 'expected a list of {"type": "function", "name": ..., "parameters": ...} objects, '
                            'or {"tools": [...]}',
        "anthropic": 'expected a list of {"name", "description", "input_schema"} objects, or {"tools": [...]}',
        "gemini": 'expected {"functionDeclarations": [...]}, {"tools": [{"functionDeclarations": [...]}]}, '
                  "or a list of function declarations",
    }[fmt]


def _declarations(group: dict, base: str) -> tuple[list[tuple[str, Any]], list[Problem]]:
    for key in _DECLARATIONS:
        if key in group:
            declarations = group[key]
            where = join_pointer(base, key)
            if not isinstance(declarations, list):
                return [], [(where, f"`{key}` must be a list of function declarations, found {_kind(declarations)}")]
            return [(join_pointer(where, i), item) for i, item in enumerate(declarations)], []
    return [], []


def _gemini_entries(container: Any, base: str) -> tuple[list[tuple[str, Any]], list[Problem]]:
    if isinstance(container, dict):
        if _DECLARATIONS[0] in container or _DECLARATIONS[1] in container:
            return _declarations(container, base)
        if "tools" in container:
            tools = container["tools"]
            where = join_pointer(base, "tools")
            if not isinstance(tools, list):
                return [], [(where, f"`tools` must be a list of Gemini Tool objects, found {_kind(tools)}")]
            return _gemini_list(tools, where)
        if "name" in container or classify(container) == "gemini":
            return [(base, container)], []
    elif isinstance(container, list):
        return _gemini_list(container, base)
    return [], [(base, f"not a Gemini tool list: {_shapes('gemini')}; found {_kind(container)}")]


def _gemini_list(items: list, base: str) -> tuple[list[tuple[str, Any]], list[Problem]]:
    """Entries that are Tools holding declarations, or declarations themselves; other
    Tools (googleSearch, codeExecution, ...) have no declarations to lint and are skipped."""
    entries: list[tuple[str, Any]] = []
    problems: list[Problem] = []
    for index, item in enumerate(items):
        pointer = join_pointer(base, index)
        if isinstance(item, dict) and (_DECLARATIONS[0] in item or _DECLARATIONS[1] in item):
            more, issues = _declarations(item, pointer)
            entries.extend(more)
            problems.extend(issues)
        elif isinstance(item, dict) and "name" not in item and classify(item) is None:
            continue  # a built-in Tool such as {"googleSearch": {}}
        else:
            entries.append((pointer, item))
    return entries, problems


# ------------------------------------------------------------------ reading


# members of a tools/list result that only MCP 2026-07-28 (and later) has
_REVISION_2026_MARKERS = ("ttlMs", "cacheScope", "resultType")


def mcp_revision_of(data: Any) -> str | None:
    """The MCP revision a document says it was served under, None when it does not say.

    A `protocolVersion` at the root (or in a JSON-RPC `result`) that is a known revision names it;
    a tools/list result with `ttlMs`, `cacheScope` or `resultType` is 2026-07-28 (only that
    revision has them). Keys at the root and in `result` only, as detection."""
    for container in (data, data.get("result") if isinstance(data, dict) else None):
        if not isinstance(container, dict):
            continue
        version = container.get("protocolVersion")
        if isinstance(version, str) and version in MCP_REVISIONS:
            return version
        if any(key in container for key in _REVISION_2026_MARKERS):
            return "2026-07-28"
    return None


def read_provider(document: Document, fmt: str, mcp_revision: str | None = None) -> tuple[list[ToolView], list[Problem]]:
    """Every tool of a document in provider format `fmt`, and its structural problems.

    An MCP tool keeps the revision it is judged by: `mcp_revision` when given (--mcp-revision),
    else the one the document says (`mcp_revision_of`), else MCP_DEFAULT_REVISION."""
    entries, problems = _entries_of(document.data, "", fmt)
    revision = None
    if fmt == "mcp":
        revision = mcp_revision or mcp_revision_of(document.data) or MCP_DEFAULT_REVISION
    reader = _READERS[fmt]
    tools: list[ToolView] = []
    for pointer, item in entries:
        if not isinstance(item, dict):
            problems.append((pointer, f"expected {_article(FORMAT_LABELS[fmt])} tool object, found {_kind(item)}"))
            continue
        kind = classify(item)
        if kind is not None and kind != fmt:
            what = "a native descriptor" if kind == "native" else f"{_article(FORMAT_LABELS[kind])} tool"
            problems.append((pointer, f"this entry looks like {what}, but the file reads as {FORMAT_LABELS[fmt]}: "
                                      "one file holds one format"))
            continue
        view = reader(document, pointer, item, problems)
        if view is not None:
            view.mcp_revision = revision
            tools.append(view)
    return tools, problems


class _Builder:
    """Collects the native-named fields of one provider tool and where each is written."""

    def __init__(self, document: Document, pointer: str, item: dict, fmt: str, problems: list[Problem]):
        self.document, self.pointer, self.item, self.fmt, self.problems = document, pointer, item, fmt, problems
        self.data: dict[str, Any] = {}
        self.sources: dict[str, tuple[Document, str]] = {}

    def at(self, *path: str | int) -> str:
        return join_pointer(self.pointer, *path)

    def problem(self, message: str, *path: str | int) -> None:
        self.problems.append((self.at(*path), message))

    def take(self, native: str, container: dict, *path: str, expect: type | None = None,
             required: bool = False, what: str = "") -> Any:
        """Copy `container[path[-1]]` into data[native]; null counts as absent."""
        key = path[-1]
        if key not in container or (container[key] is None and not required):
            if required:
                self.problem(f"{FORMAT_LABELS[self.fmt]} tool without `{key}`{what}", *path[:-1])
            return None
        value = container[key]
        if expect is not None and not isinstance(value, expect):
            self.problem(f"`{key}` must be {_WANTED[expect]}{what}, found {_kind(value)}", *path)
        self.data[native] = value
        # the path is made of this module's own field names (no `~` or `/` to escape)
        self.sources[native] = (self.document, f"{self.pointer}/{'/'.join(path)}")
        return value

    def view(self) -> ToolView:
        return ToolView(self.data, self.document, self.pointer, self.sources, self.fmt, self.item)


_SCHEMA_WHAT = " (a JSON Schema with `type: object`)"
_WANTED = {str: "a string", dict: "an object", list: "a list"}


def _read_mcp(document: Document, pointer: str, item: dict, problems: list[Problem]) -> ToolView:
    b = _Builder(document, pointer, item, "mcp", problems)
    b.take("name", item, "name", expect=str, required=True)
    annotations = item.get("annotations")
    if item.get("title") is not None:
        b.take("title", item, "title", expect=str)
    elif isinstance(annotations, dict) and annotations.get("title") is not None:  # display-name fallback
        b.take("title", annotations, "annotations", "title", expect=str)
    b.take("description", item, "description", expect=str)
    b.take("input_schema", item, "inputSchema", expect=dict, required=True, what=_SCHEMA_WHAT)
    b.take("output_schema", item, "outputSchema", expect=dict, what=_SCHEMA_WHAT)
    annotations = b.take("annotations", item, "annotations", expect=dict)
    if isinstance(annotations, dict):
        for key, value in written_hints(annotations).items():
            if not isinstance(value, bool):  # a hint of the wrong type says nothing: no effect is derived
                b.problem(f"`{key}` must be true or false, found {_kind(value)}: no effect class is derived "
                          "from these annotations", "annotations", key)
    return b.view()


def _read_openai_chat(document: Document, pointer: str, item: dict, problems: list[Problem]) -> ToolView | None:
    b = _Builder(document, pointer, item, "openai-chat", problems)
    kind = item.get("type")
    if isinstance(kind, str) and kind != "function":
        return None  # a tool of another type (custom, ...): no function to lint
    if kind is None:
        b.problem("OpenAI Chat tool without `type: function`")
    function = item.get("function")
    if not isinstance(function, dict):
        if "function" not in item:
            b.problem("OpenAI Chat tool without `function` (the object with name, description and parameters)")
        else:
            b.problem(f"`function` must be an object, found {_kind(function)}", "function")
        return None
    b.take("name", function, "function", "name", expect=str, required=True)
    b.take("description", function, "function", "description", expect=str)
    b.take("input_schema", function, "function", "parameters", expect=dict, what=_SCHEMA_WHAT)
    _check_bool(b, function, "function", "strict")
    return b.view()


def _read_openai_responses(document: Document, pointer: str, item: dict, problems: list[Problem]) -> ToolView | None:
    b = _Builder(document, pointer, item, "openai-responses", problems)
    kind = item.get("type")
    if isinstance(kind, str) and kind != "function":
        return None  # a built-in tool (web_search, file_search, mcp, ...): not a function
    if kind is None:
        b.problem("OpenAI Responses tool without `type: function`")
    b.take("name", item, "name", expect=str, required=True)
    b.take("description", item, "description", expect=str)
    b.take("input_schema", item, "parameters", expect=dict, what=_SCHEMA_WHAT)
    b.take("output_schema", item, "output_schema", expect=dict, what=" (a JSON Schema)")
    _check_bool(b, item, "strict")
    return b.view()


def _read_anthropic(document: Document, pointer: str, item: dict, problems: list[Problem]) -> ToolView | None:
    b = _Builder(document, pointer, item, "anthropic", problems)
    kind = item.get("type")
    if isinstance(kind, str) and kind != "custom" and "input_schema" not in item:
        return None  # a server tool (web_search_20250305, bash_..., ...): defined by Anthropic
    b.take("name", item, "name", expect=str, required=True)
    b.take("description", item, "description", expect=str)
    b.take("input_schema", item, "input_schema", expect=dict, required=True, what=_SCHEMA_WHAT)
    examples = b.take("examples", item, "input_examples", expect=list)
    if isinstance(examples, list):
        for index, example in enumerate(examples):
            if not isinstance(example, dict):
                b.problem(f"each of `input_examples` must be an object of arguments, found {_kind(example)}",
                          "input_examples", index)
    _check_bool(b, item, "strict")
    return b.view()


def _read_gemini(document: Document, pointer: str, item: dict, problems: list[Problem]) -> ToolView:
    b = _Builder(document, pointer, item, "gemini", problems)
    b.take("name", item, "name", expect=str, required=True)
    b.take("description", item, "description", expect=str)
    given = [k for k in ("parameters", *_JSON_SCHEMA_PARAMS) if k in item and item[k] is not None]
    if len(given) > 1:
        b.problem(f"`{given[0]}` and `{given[1]}` cannot be combined: give one", given[1])
    if given:
        key = given[0]
        value = b.take("input_schema", item, key, expect=dict, what=_SCHEMA_WHAT)
        if key == "parameters" and isinstance(value, dict):
            b.data["input_schema"] = openapi_to_json_schema(value)
    given = [k for k in ("response", *_JSON_SCHEMA_RESPONSE) if k in item and item[k] is not None]
    if len(given) > 1:
        b.problem(f"`{given[0]}` and `{given[1]}` cannot be combined: give one", given[1])
    if given:
        key = given[0]
        value = b.take("output_schema", item, key, expect=dict, what=" (a JSON Schema)")
        if key == "response" and isinstance(value, dict):
            b.data["output_schema"] = openapi_to_json_schema(value)
    return b.view()


def _check_bool(b: _Builder, container: dict, *path: str) -> None:
    value = container.get(path[-1])
    if path[-1] in container and value is not None and not isinstance(value, bool):
        b.problem(f"`{path[-1]}` must be true or false, found {_kind(value)}", *path)


_READERS = {
    "mcp": _read_mcp,
    "openai-chat": _read_openai_chat,
    "openai-responses": _read_openai_responses,
    "anthropic": _read_anthropic,
    "gemini": _read_gemini,
}


# ------------------------------------------------------------ Gemini schemas

_OPENAPI_TYPES = {
    "STRING": "string", "NUMBER": "number", "INTEGER": "integer", "BOOLEAN": "boolean",
    "ARRAY": "array", "OBJECT": "object", "NULL": "null",
}


def openapi_to_json_schema(schema: Any, depth: int = 0) -> Any:
    """Gemini's OpenAPI-subset `parameters` as the equivalent JSON Schema, keeping the shape.

    Upper-case types become JSON Schema types (`STRING` -> `string`), and `nullable: true`
    next to a single type becomes a type list with "null" (the `nullable` key is then
    dropped). Every other key stays where it was, so a JSON pointer into the result names
    the same place in the file. Type names that are not Gemini's are left as written,
    for TC401 to report.
    """
    if not isinstance(schema, dict) or depth > 200:
        return schema
    converted: dict[str, Any] = {}
    for key, value in schema.items():
        if key in SCHEMA_MAP_KEYWORDS and isinstance(value, dict):
            value = {name: openapi_to_json_schema(sub, depth + 1) for name, sub in value.items()}
        elif key in SCHEMA_LIST_KEYWORDS and isinstance(value, list):
            value = [openapi_to_json_schema(sub, depth + 1) for sub in value]
        elif key in SCHEMA_KEYWORDS:
            value = openapi_to_json_schema(value, depth + 1)
        elif key == "type" and isinstance(value, str):
            value = _OPENAPI_TYPES.get(value, value)
        converted[key] = value
    if schema.get("nullable") is True and isinstance(converted.get("type"), str):
        if converted["type"] != "null":
            converted["type"] = [converted["type"], "null"]
        del converted["nullable"]
    return converted
