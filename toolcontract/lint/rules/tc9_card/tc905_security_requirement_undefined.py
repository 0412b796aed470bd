"""TC905 security-requirement-undefined: a security requirement of an Agent Card names a scheme that
`securitySchemes` does not define."""

from __future__ import annotations

from typing import Iterator

from toolcontract.core.model import Severity
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.context import ToolContext
from toolcontract.lint.rules.tc9_card.card import card_of, example, requirement_lists, requirement_names

_SCHEMES = "securitySchemes:\n  key:\n    apiKeySecurityScheme: {location: header, name: X-API-Key}\n"

RULE = Rule(
    id="TC905",
    name="security-requirement-undefined",
    severity=Severity.ERROR,
    summary="A security requirement of an Agent Card names a scheme that `securitySchemes` does not define.",
    rationale=(
        "A requirement says which of the card's schemes a client must satisfy. One naming a scheme the card "
        "does not define cannot be satisfied: clients fail to authenticate, or skip the requirement and "
        "call without credentials."
    ),
    examples=(
        Bad(example(("skills:\n", _SCHEMES + "securityRequirements:\n  - schemes: {oauth: {list: [read]}}\nskills:\n")),
            line=15, column=15, message="security requirement names scheme 'oauth'"),
        Bad(example(("    tags: [cooking]\n", "    tags: [cooking]\n    securityRequirements:\n"
                     "      - schemes: {key2: {}}\n")), line=17, column=19,
            message="names scheme 'key2', which `securitySchemes` does not define", note="a skill's requirement"),
        Good(example(("skills:\n", _SCHEMES + "securityRequirements:\n  - schemes: {key: {list: []}}\nskills:\n"))),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    card = card_of(ctx.tool)
    if card is None:
        return
    schemes = card.get("securitySchemes")
    defined = set(schemes) if isinstance(schemes, dict) else set()
    for path, requirements in requirement_lists(card):
        if not isinstance(requirements, list):
            continue
        for index, requirement in enumerate(requirements):
            for inner, name in requirement_names(requirement):
                if name not in defined:
                    known = ", ".join(sorted(map(str, defined))) or "none"
                    yield Hit((*path, index, *inner), f"security requirement names scheme {name!r}, which "
                              f"`securitySchemes` does not define (defined: {known})", anchor="key")
