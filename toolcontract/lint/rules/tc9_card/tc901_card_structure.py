"""TC901 card-structure: a required field of the card's A2A version is missing or has the wrong type."""

from __future__ import annotations

import json
from typing import Iterator

from toolcontract.core.model import Severity
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.context import ToolContext
from toolcontract.lint.rules.tc9_card.card import V03, card_of, example, kind, skills, version_of

RULE = Rule(
    id="TC901",
    name="card-structure",
    severity=Severity.ERROR,
    summary="A required field of the Agent Card's A2A version is missing or has the wrong type.",
    rationale=(
        "A client reads a card to learn where the agent is, how to talk to it and what it can do. A card "
        "without its interfaces, modes or skills (or `{}`, which a client once accepted) leaves the client "
        "guessing or failing at the first call. The required fields are the proto's (v1.0: name, "
        "description, supportedInterfaces with url, protocolBinding and protocolVersion, version, "
        "capabilities, defaultInputModes, defaultOutputModes, skills with id, name, description and tags) "
        "or the v0.3 schema's (url and protocolVersion in place of supportedInterfaces). A v0.3 card "
        "without `protocolVersion` is not a finding: the schema gives it the default `0.3.0`, which the "
        "SDKs fill in (a type other than a string still is). A v1.0 interface without `protocolVersion` "
        "is, also when the card's root carries v0.3's `protocolVersion`: v1.0 reads the version of each "
        "interface, never the root's."
    ),
    examples=(
        Bad(example(("version: 1.0.0\n", "")), line=1, column=1,
            message="A2A v1.0 card without `version` (a string)"),
        Bad(example(("    protocolBinding: JSONRPC\n", "")), line=5, column=5,
            message="interface without `protocolBinding`"),
        Bad(example(("tags: [cooking]", "tags: cooking")), line=15, column=11,
            message="`tags` must be a list of strings, found a string"),
        Bad(example(("capabilities: {streaming: true}", "capabilities: []")), line=8, column=15,
            message="`capabilities` must be a mapping"),
        Bad(example(("version: 1.0.0\n", 'version: 1.0.0\nprotocolVersion: "1.0"\n'),
                    ('    protocolVersion: "1.0"\n', "")), line=6, column=5,
            message="move the root `protocolVersion` into each interface",
            note="v0.3's root protocolVersion, v1.0's interfaces"),
        Good(example(), note="a complete v1.0 card"),
    ),
)

_STR, _LIST, _MAP, _STRINGS = "a string", "a list", "a mapping", "a list of strings"
CARD_FIELDS = {
    "1.0": (("name", _STR), ("description", _STR), ("supportedInterfaces", _LIST), ("version", _STR),
            ("capabilities", _MAP), ("defaultInputModes", _STRINGS), ("defaultOutputModes", _STRINGS),
            ("skills", _LIST)),
    "0.3": (("name", _STR), ("description", _STR), ("url", _STR), ("protocolVersion", _STR), ("version", _STR),
            ("capabilities", _MAP), ("defaultInputModes", _STRINGS), ("defaultOutputModes", _STRINGS),
            ("skills", _LIST)),
}
INTERFACE_FIELDS = {"1.0": (("url", _STR), ("protocolBinding", _STR), ("protocolVersion", _STR)),
                    "0.3": (("url", _STR), ("transport", _STR))}
SKILL_FIELDS = (("id", _STR), ("name", _STR), ("description", _STR), ("tags", _STRINGS))
# required by the v0.3 schema but with a default there (the SDKs fill it in): absent is no defect
DEFAULTED = {"0.3": frozenset(("protocolVersion",)), "1.0": frozenset()}


def _fits(value: object, wanted: str) -> bool:
    if wanted == _STR:
        return isinstance(value, str)
    if wanted == _MAP:
        return isinstance(value, dict)
    if wanted == _LIST:
        return isinstance(value, list)
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _fields(obj: dict, fields: tuple, path: tuple, what: str, defaulted: frozenset = frozenset(),
            advice: dict | None = None) -> Iterator[Hit]:
    for key, wanted in fields:
        if key not in obj:
            if key not in defaulted:
                yield Hit(path, f"{what} without `{key}` ({wanted}){(advice or {}).get(key, '')}")
        elif not _fits(obj[key], wanted):
            yield Hit((*path, key), f"`{key}` must be {wanted}, found {kind(obj[key])}", anchor="value")


def check(ctx: ToolContext) -> Iterator[Hit]:
    card = card_of(ctx.tool)
    if card is None:
        return
    version = version_of(card)
    yield from _fields(card, CARD_FIELDS[version], (), f"A2A v{version} card", DEFAULTED[version])
    key = "additionalInterfaces" if version == V03 else "supportedInterfaces"
    advice = None
    if version != V03 and isinstance(card.get("protocolVersion"), str):
        written = json.dumps(card["protocolVersion"])
        advice = {"protocolVersion": ": move the root `protocolVersion` into each interface "
                                     f"(`\"protocolVersion\": {written}`); v1.0 reads it there only"}
    interfaces = card.get(key)
    if isinstance(interfaces, list):
        for index, interface in enumerate(interfaces):
            if not isinstance(interface, dict):
                yield Hit((key, index), f"each of `{key}` must be an interface mapping, found {kind(interface)}")
            else:
                yield from _fields(interface, INTERFACE_FIELDS[version], (key, index), "interface", advice=advice)
    if isinstance(card.get("skills"), list):
        for index, skill in enumerate(card["skills"]):
            if not isinstance(skill, dict):
                yield Hit(("skills", index), f"each of `skills` must be a skill mapping, found {kind(skill)}")
    for index, skill in skills(card):
        yield from _fields(skill, SKILL_FIELDS, ("skills", index), "skill")
