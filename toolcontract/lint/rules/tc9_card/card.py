"""What the card rules (TC9xx) share: the card of a view, its version, its security parts, and the
card their examples vary.

Cards are checked against the requirements of the A2A proto (a2a-v1.0.1.proto, `AgentCard` in
ProtoJSON: camelCase members) and the v0.3 JSON schema (a2a-v0.3.0.schema.json), written out here:
a few field checks do not need the a2a-sdk and its protobuf and pydantic dependencies.
"""

from __future__ import annotations

from typing import Any, Iterator

from toolcontract.core.descriptor import ToolView, is_card_view

V1 = "1.0"
V03 = "0.3"


def card_of(tool: ToolView) -> dict | None:
    """The whole card, when `tool` is a card's own view; None for any other view."""
    if not is_card_view(tool) or not isinstance(tool.raw, dict):
        return None
    return tool.raw


def version_of(card: dict) -> str:
    """"0.3" for a card written in v0.3's shape (a root `url`, `preferredTransport` or `protocolVersion`,
    no `supportedInterfaces`), else "1.0"."""
    if "supportedInterfaces" not in card and not {"url", "preferredTransport", "protocolVersion",
                                                  "additionalInterfaces"}.isdisjoint(card):
        return V03
    return V1


def skills(card: dict) -> Iterator[tuple[int, dict]]:
    """Each skill object of the card, with its index."""
    value = card.get("skills")
    if isinstance(value, list):
        for index, skill in enumerate(value):
            if isinstance(skill, dict):
                yield index, skill


def requirement_lists(card: dict) -> Iterator[tuple[tuple, Any]]:
    """Each security requirement list of the card and its skills: (path, the list): v1.0's
    `securityRequirements`, v0.3's `security`."""
    for key in ("securityRequirements", "security"):
        if key in card:
            yield (key,), card[key]
    for index, skill in skills(card):
        for key in ("securityRequirements", "security"):
            if key in skill:
                yield ("skills", index, key), skill[key]


def requirement_names(requirement: Any) -> Iterator[tuple[tuple, str]]:
    """The scheme names one requirement uses, with their path inside it: v1.0 `{"schemes": {name:
    {"list": [...]}}}`, v0.3 `{name: [scopes]}`."""
    if not isinstance(requirement, dict):
        return
    if "schemes" in requirement:  # v1.0 (anything but a mapping there says nothing)
        schemes = requirement["schemes"]
        if isinstance(schemes, dict):
            for name in schemes:
                yield ("schemes", name), name
        return
    for name in requirement:
        yield (name,), name


def kind(value: Any) -> str:
    if value is None:
        return "null"
    return {dict: "a mapping", list: "a list", str: "a string", bool: "a boolean", int: "a number",
            float: "a number"}.get(type(value), type(value).__name__)


# The card the examples vary (a v1.0 card modelled on the proto's comments; lines in the comments)
EXAMPLE = """\
name: Recipe Agent
description: Finds recipes by ingredient and cuisine, and answers questions about cooking times.
version: 1.0.0
supportedInterfaces:
  - url: https://agent.example.com/a2a/v1
    protocolBinding: JSONRPC
    protocolVersion: "1.0"
capabilities: {streaming: true}
defaultInputModes: [text/plain]
defaultOutputModes: [text/plain, application/json]
skills:
  - id: recipe_search
    name: Recipe search
    description: Finds recipes that use the given ingredients, filtered by cuisine and cooking time, with steps.
    tags: [cooking]
    examples: [Find a vegetarian curry with chickpeas]
"""


def example(*changes: tuple[str, str]) -> str:
    """EXAMPLE with each (old, new) text replaced once (each old text must be in it)."""
    text = EXAMPLE
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text
