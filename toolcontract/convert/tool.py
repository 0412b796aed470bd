"""One tool being written to a target: the fields each writer takes, and a warning for every other one."""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from typing import Any

from toolcontract.core.descriptor import CONTRACT_FIELDS, ToolView, model_description

LABELS = {
    "mcp": "MCP",
    "openai-chat": "OpenAI Chat",
    "openai-responses": "OpenAI Responses",
    "anthropic": "Anthropic",
    "gemini": "Gemini",
    "native": "toolcontract",
}


# name rules each surface enforces (MCP's is a SHOULD); see tool-surfaces.md
NAME_RULES = {
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


class ToolWriter:
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
        pattern, verb = NAME_RULES[self.target]
        if not pattern.fullmatch(name):
            self.warn("name", f"{name!r} {verb} {self.label}'s name rule {pattern.pattern}; written unchanged")
        return name

    def description(self) -> str | None:
        view = ToolView(self.data, None, "")  # type: ignore[arg-type]  # data only: nothing is located
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


def name_and_description(tool: ToolWriter) -> dict[str, Any]:
    """The `name` and `description` members every non-MCP target starts with."""
    out: dict[str, Any] = {}
    name = tool.name()
    if name is not None:
        out["name"] = name
    description = tool.description()
    if description:
        out["description"] = description
    return out


def as_json(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)
