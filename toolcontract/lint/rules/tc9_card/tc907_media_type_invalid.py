"""TC907 media-type-invalid: an input or output mode of an Agent Card is not a media type (`type/subtype`)."""

from __future__ import annotations

import re
from typing import Iterator

from toolcontract.core.model import Severity
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.context import ToolContext
from toolcontract.lint.rules.tc9_card.card import card_of, example, skills

RULE = Rule(
    id="TC907",
    name="media-type-invalid",
    severity=Severity.WARNING,
    summary="An input or output mode of an Agent Card is not a media type (`type/subtype`).",
    rationale=(
        "A2A's modes are media types: a client matches them against what it can send and show. A mode "
        "such as `text` or `json` matches nothing a client knows, so it either guesses or drops the agent. "
        "Write `text/plain`, `application/json`, `image/png`."
    ),
    examples=(
        Bad(example(("defaultInputModes: [text/plain]", "defaultInputModes: [text]")), line=9, column=21,
            message="mode 'text' is not a media type"),
        Bad(example(("    examples: [Find", "    outputModes: [json]\n    examples: [Find")), line=16, column=19,
            message="mode 'json' is not a media type", note="a skill's mode"),
        Good(example(("[text/plain, application/json]", "[text/plain, application/vnd.api+json; charset=utf-8]"))),
    ),
)

# RFC 9110 media type: token "/" token, then any parameters
_TOKEN = r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+"
MEDIA_TYPE = re.compile(rf"{_TOKEN}/{_TOKEN}(\s*;.*)?\Z", re.S)

# the bare words early A2A samples wrote, and the media type each means
# (A2A's data parts are JSON); a word that names no one type (image, file) gets the general advice
_KNOWN = {"text": "text/plain", "json": "application/json", "data": "application/json",
          "markdown": "text/markdown", "html": "text/html"}


def _modes(value: object, path: tuple) -> Iterator[Hit]:
    if not isinstance(value, list):
        return  # TC901's
    for index, mode in enumerate(value):
        if isinstance(mode, str) and not MEDIA_TYPE.match(mode.strip()):
            known = _KNOWN.get(mode.strip().lower())
            advice = f"write {known!r}" if known else "e.g. text/plain, application/json"
            yield Hit((*path, index), f"mode {mode!r} is not a media type (type/subtype): clients match modes "
                      f"against media types ({advice})")


def check(ctx: ToolContext) -> Iterator[Hit]:
    card = card_of(ctx.tool)
    if card is None:
        return
    for key in ("defaultInputModes", "defaultOutputModes"):
        yield from _modes(card.get(key), (key,))
    for index, skill in skills(card):
        for key in ("inputModes", "outputModes"):
            yield from _modes(skill.get(key), ("skills", index, key))
