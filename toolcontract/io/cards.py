"""A2A Agent Cards (v1.0: the proto's `AgentCard` in ProtoJSON, camelCase; v0.3: the JSON schema's),
read into ToolViews with positions.

A card becomes one view for the card itself (pointer "", its `name` and `description`) and one per
skill (pointer `/skills/N`, the skill's `name` and `description`): the names and descriptions a
client shows a model, judged by the naming, documentation and security rules. The card view keeps
the whole card as `raw`, and places every other member of the card where it is written (its
`sources`), so the card rules (TC9xx) read the card from it and report positions in the file.
Nothing here judges the card: a missing or mistyped field is TC901's to report.
"""

from __future__ import annotations

from typing import Any

from toolcontract.core.descriptor import CARD_FORMAT as FORMAT
from toolcontract.core.descriptor import ToolView
from toolcontract.io.document import Document

# keys only an Agent Card has beside its `skills` (v1.0 and v0.3)
_CARD_KEYS = frozenset(("supportedInterfaces", "defaultInputModes", "defaultOutputModes", "capabilities",
                        "preferredTransport", "protocolVersion", "additionalInterfaces", "securitySchemes"))


def is_card(data: Any) -> bool:
    """Whether a mapping is an Agent Card: `skills` beside one of the keys only cards have."""
    return type(data) is dict and "skills" in data and not _CARD_KEYS.isdisjoint(data)


def card_problem(data: Any) -> str | None:
    """What `--input-format a2a-card` on a document that is no card gives (TC002), or None for a card."""
    if is_card(data):
        return None
    found = "a mapping without `skills` or without any key only cards have" if isinstance(data, dict) else \
        f"{type(data).__name__ if data is not None else 'an empty file'}"
    return ("not an A2A Agent Card: expected a mapping with `skills` and `supportedInterfaces` (v1.0) or "
            f"`url` and `protocolVersion` (v0.3); found {found}")


def read_card(document: Document) -> list[ToolView]:
    """The card's view, then one view per skill object (other entries are TC901's)."""
    card = document.data
    if not isinstance(card, dict):
        return []
    data = {key: card[key] for key in ("name", "description") if key in card}
    sources = {key: (document, "/" + key.replace("~", "~0").replace("/", "~1"))
               for key in card if key not in data}  # `version` among them
    version = card.get("version")
    if isinstance(version, str):  # a skill is versioned by its card: `diff` and `lock` judge changes by it
        data["version"] = version
    views = [ToolView(data, document, "", sources, FORMAT, card)]
    skills = card.get("skills")
    if isinstance(skills, list):
        for index, skill in enumerate(skills):
            if isinstance(skill, dict):
                skill_data = {key: skill[key] for key in ("name", "description") if key in skill}
                skill_sources = {key: (document, f"/skills/{index}/" + key.replace("~", "~0").replace("/", "~1"))
                                 for key in skill if key not in skill_data}  # examples, tags: where they are
                if isinstance(version, str):
                    skill_data["version"] = version
                    skill_sources["version"] = (document, "/version")
                views.append(ToolView(skill_data, document, f"/skills/{index}", skill_sources, FORMAT, skill))
    return views

