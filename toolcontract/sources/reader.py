"""Turn a loaded document into the descriptors it holds.

Only our native format for now; provider formats (MCP, OpenAI, Anthropic,
Gemini) plug in here by detection.
"""

from __future__ import annotations

from toolcontract.descriptor import ToolView
from toolcontract.sources.document import Document


def read_tools(document: Document) -> list[ToolView]:
    return read_native(document)


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
