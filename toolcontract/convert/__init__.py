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

from dataclasses import dataclass, field
from typing import Any, Callable

from toolcontract.convert import anthropic, gemini, mcp, openai
from toolcontract.convert.mcp import mcp_annotations
from toolcontract.core.descriptor import MCP_DEFAULT_REVISION, MCP_REVISIONS
from toolcontract.convert.native import native_document
from toolcontract.convert.openai import openai_strict_compatible
from toolcontract.convert.text import render
from toolcontract.convert.tool import LABELS, ConversionWarning, ToolWriter
from toolcontract.core.descriptor import ToolView

__all__ = ["LABELS", "TARGETS", "Conversion", "ConversionWarning", "convert", "mcp_annotations", "native_document",
           "openai_strict_compatible", "render", "unread_fields"]

TARGETS = ("mcp", "openai-chat", "openai-responses", "anthropic", "gemini", "native")


@dataclass
class Conversion:
    document: Any  # JSON-able
    warnings: list[ConversionWarning] = field(default_factory=list)


def convert(tools: list[dict[str, Any]], to: str, mcp_revision: str | None = None) -> Conversion:
    """The tools (native-named descriptor data) as a document of format `to`.

    `mcp_revision`: the MCP revision `to="mcp"` writes (MCP_REVISIONS; default 2025-11-25). From
    2026-07-28 on an output schema may have any root, and the tools/list result says `resultType`."""
    if to not in TARGETS:
        raise ValueError(f"unknown target {to!r} (expected one of {', '.join(TARGETS)})")
    if to == "native":
        return Conversion(native_document(tools))
    revision = mcp_revision or MCP_DEFAULT_REVISION
    if revision not in MCP_REVISIONS:
        raise ValueError(f"unknown MCP revision {revision!r} (expected one of {', '.join(MCP_REVISIONS)})")
    warnings: list[ConversionWarning] = []
    items = []
    for index, data in enumerate(tools):
        tool = ToolWriter(data, index, to)
        items.append(mcp.write(tool, revision) if to == "mcp" else WRITERS[to](tool))
        tool.finish()
        warnings.extend(tool.warnings)
    document = _WRAPPERS[to](items)
    if to == "mcp" and revision >= "2026-07-28":
        # the members this revision requires: a complete result, and the most cautious caching (none,
        # private): a converted file says nothing of how long or how widely its list may be cached
        document = {"resultType": "complete", **document, "ttlMs": 0, "cacheScope": "private"}
    return Conversion(document, warnings)


# one writer per target: the provider's tool object for one tool
WRITERS: dict[str, Callable[[ToolWriter], dict[str, Any]]] = {
    "mcp": mcp.write,
    "openai-chat": openai.write_chat,
    "openai-responses": openai.write_responses,
    "anthropic": anthropic.write,
    "gemini": gemini.write,
}

# the document each target's tools go in: what its API or protocol takes
_WRAPPERS: dict[str, Callable[[list], Any]] = {
    "mcp": lambda items: {"tools": items},  # a tools/list result
    "openai-chat": lambda items: items,  # the request's `tools`
    "openai-responses": lambda items: items,
    "anthropic": lambda items: items,
    "gemini": lambda items: {"functionDeclarations": items},  # one Gemini Tool
}


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
