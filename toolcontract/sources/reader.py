"""Turn a loaded document into the descriptors it holds.

Only our native format for now; provider formats (MCP, OpenAI, Anthropic,
Gemini) plug in here by detection.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from toolcontract.descriptor import ToolView
from toolcontract.sources.document import Document

FORMATS = ("native",)


@dataclass
class ReadResult:
    """What a document holds: its format (None when no reader could place it), its tools,
    and structural problems as (document, pointer, message), reported as TC002."""

    format: str | None
    tools: list[ToolView] = field(default_factory=list)
    problems: list[tuple[Document, str, str]] = field(default_factory=list)


def read_tools(document: Document, input_format: str | None = None, overlay: Document | None = None) -> ReadResult:
    """The tools of a document, in `input_format` or the detected one, merged with an overlay."""
    return ReadResult("native", read_native(document))


def read_native(document: Document) -> list[ToolView]:
    """Descriptors of a native file: the root itself, or each mapping in `tools:`.

    Entries of the wrong shape are skipped here; TC002 reports them.
    """
    data = document.data
    if not isinstance(data, dict):
        return []
    if "tools" in data:
        tools = data["tools"]
        if not isinstance(tools, list):
            return []
        return [
            ToolView(item, document, f"/tools/{index}")
            for index, item in enumerate(tools)
            if isinstance(item, dict)
        ]
    return [ToolView(data, document, "")]
