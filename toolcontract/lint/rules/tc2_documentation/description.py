"""Where a finding about the model-facing description points (TC203, TC204)."""

from __future__ import annotations

from toolcontract.core.descriptor import ToolView


def description_path(tool: ToolView) -> tuple:
    """`description`, or the first field the description is built from, or the descriptor itself."""
    if "description" in tool.data:
        return ("description",)
    for key in ("purpose", "when_to_use", "non_goals"):
        if key in tool.data:
            return (key,)
    return ()
