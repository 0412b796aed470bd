"""Our own format: what every reader read, fields in the format's order; it carries everything."""

from __future__ import annotations

import copy
from typing import Any

from toolcontract.core.descriptor import CONTRACT_FIELDS

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
