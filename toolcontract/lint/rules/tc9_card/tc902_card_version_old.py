"""TC902 card-version-old: an A2A v0.3 Agent Card (or v0.3 security schemes), with what to change for v1.0."""

from __future__ import annotations

from typing import Iterator

from toolcontract.core.model import Severity
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.context import ToolContext
from toolcontract.lint.rules.tc9_card.card import V03, card_of, example, version_of

V03_CARD = """\
name: Recipe Agent
description: Finds recipes by ingredient and cuisine, and answers questions about cooking times.
url: https://agent.example.com/a2a/v1
preferredTransport: JSONRPC
protocolVersion: 0.3.0
version: 1.0.0
capabilities: {streaming: true}
defaultInputModes: [text/plain]
defaultOutputModes: [text/plain]
skills:
  - id: recipe_search
    name: Recipe search
    description: Finds recipes that use the given ingredients, filtered by cuisine and cooking time, with steps.
    tags: [cooking]
    examples: [Find a vegetarian curry with chickpeas]
"""

RULE = Rule(
    id="TC902",
    name="card-version-old",
    severity=Severity.WARNING,
    summary="An A2A v0.3 Agent Card, or v0.3-style security schemes: what to change for v1.0.",
    rationale=(
        "A2A v1.0 (2026) moved the card's endpoint into `supportedInterfaces` (each with url, "
        "protocolBinding and protocolVersion), replaced the OpenAPI-style security schemes (`type`, `in`) "
        "by one member per kind (`apiKeySecurityScheme` with `location`, `oauth2SecurityScheme`, ...) and "
        "`security` by `securityRequirements`. A v1.0 client reads a v0.3 card wrongly or not at all."
    ),
    examples=(
        Bad(V03_CARD, line=3, column=1, message="an A2A v0.3 card: for v1.0, move `url`"),
        Bad(example(("skills:\n", "securitySchemes:\n  key: {type: apiKey, in: header, name: X-API-Key}\nskills:\n")),
            line=12, column=15, message="security scheme 'key' is written as in v0.3"),
        Good(example(("skills:\n", "securitySchemes:\n  key:\n    apiKeySecurityScheme: {location: header, name: X-API-Key}\n"
                      "skills:\n")), note="a v1.0 API key scheme"),
    ),
)

_V1_KINDS = {"apiKey": "apiKeySecurityScheme (with `location` for `in`, and `name`)",
             "http": "httpAuthSecurityScheme (with `scheme`)", "oauth2": "oauth2SecurityScheme (with `flows`)",
             "openIdConnect": "openIdConnectSecurityScheme (with `openIdConnectUrl`)",
             "mutualTLS": "mtlsSecurityScheme"}


def check(ctx: ToolContext) -> Iterator[Hit]:
    card = card_of(ctx.tool)
    if card is None:
        return
    if version_of(card) == V03:
        at = next(key for key in ("url", "preferredTransport", "protocolVersion", "additionalInterfaces") if key in card)
        changes = ["move `url` and `preferredTransport` (and `additionalInterfaces`) into `supportedInterfaces` "
                   "entries with `url`, `protocolBinding` and `protocolVersion: \"1.0\"`"]
        if "security" in card:
            changes.append("rename `security` to `securityRequirements` ({\"schemes\": {name: {\"list\": scopes}}})")
        if "supportsAuthenticatedExtendedCard" in card:
            changes.append("move `supportsAuthenticatedExtendedCard` to `capabilities.extendedAgentCard`")
        yield Hit((at,), f"an A2A v0.3 card: for v1.0, {'; '.join(changes)}", anchor="key")
    schemes = card.get("securitySchemes")
    if isinstance(schemes, dict):
        for name, scheme in schemes.items():
            if isinstance(scheme, dict) and isinstance(scheme.get("type"), str):
                v1 = _V1_KINDS.get(scheme["type"], "one member per kind (apiKeySecurityScheme, ...)")
                yield Hit(("securitySchemes", name, "type"), f"security scheme {name!r} is written as in v0.3 "
                          f"(`type: {scheme['type']}`): v1.0 writes it as {v1}")
