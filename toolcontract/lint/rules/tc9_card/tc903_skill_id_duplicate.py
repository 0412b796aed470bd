"""TC903 skill-id-duplicate: two skills of one Agent Card have the same id."""

from __future__ import annotations

from typing import Iterator

from toolcontract.core.model import Severity
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.context import ToolContext
from toolcontract.lint.rules.tc9_card.card import card_of, example, skills

_SECOND = """\
  - id: recipe_search
    name: Recipe scaling
    description: Scales a recipe to a number of servings, converting units and rounding to kitchen measures.
    tags: [cooking]
    examples: [Scale this recipe to eight servings]
"""

RULE = Rule(
    id="TC903",
    name="skill-id-duplicate",
    severity=Severity.ERROR,
    summary="Two skills of one Agent Card have the same id.",
    rationale=(
        "A skill's id is how a client and a caller name it. Two skills with one id make every reference to "
        "it ambiguous: a client keeps one of them, or the wrong one is invoked."
    ),
    examples=(
        Bad(example(("    examples: [Find a vegetarian curry with chickpeas]\n",
                     "    examples: [Find a vegetarian curry with chickpeas]\n" + _SECOND)),
            line=17, column=9, message="skill id 'recipe_search' is also the id of skill 1 (line 12)"),
        Good(example(("    examples: [Find a vegetarian curry with chickpeas]\n",
                      "    examples: [Find a vegetarian curry with chickpeas]\n"
                      + _SECOND.replace("id: recipe_search", "id: recipe_scale")))),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    card = card_of(ctx.tool)
    if card is None:
        return
    seen: dict[str, int] = {}
    document = ctx.tool.document
    for index, skill in skills(card):
        skill_id = skill.get("id")
        if not isinstance(skill_id, str):
            continue
        if skill_id in seen:
            first = seen[skill_id]
            line = document.locate(f"/skills/{first}/id")[0]
            yield Hit(("skills", index, "id"), f"skill id {skill_id!r} is also the id of skill {first + 1} "
                      f"(line {line}): give each skill its own id")
        else:
            seen[skill_id] = index
