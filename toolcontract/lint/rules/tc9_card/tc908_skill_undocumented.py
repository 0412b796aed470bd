"""TC908 skill-undocumented: a skill of an Agent Card without examples, or whose description is short."""

from __future__ import annotations

from typing import Iterator

from toolcontract.core.model import Severity
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.context import ToolContext
from toolcontract.lint.rules.tc9_card.card import card_of, example, skills

MIN_DESCRIPTION = 80

RULE = Rule(
    id="TC908",
    name="skill-undocumented",
    severity=Severity.WARNING,
    summary="A skill of an Agent Card has no examples, or a description under 80 characters.",
    rationale=(
        "A calling agent picks a skill from its description and examples alone. A one-line description "
        "says what the skill is called, not what it does, takes and returns; without example requests the "
        "caller guesses how to phrase one. Describe the skill in a few sentences and give examples."
    ),
    examples=(
        Bad(example(("    examples: [Find a vegetarian curry with chickpeas]\n", "")), line=12, column=5,
            message="skill 'recipe_search' has no examples"),
        Bad(example(("Finds recipes that use the given ingredients, filtered by cuisine and cooking time, with steps.",
                     "Finds recipes.")), line=14, column=18,
            message="description of skill 'recipe_search' is 14 characters"),
        Bad(example(("    examples: [Find a vegetarian curry with chickpeas]\n", ""),
                    ("Finds recipes that use the given ingredients, filtered by cuisine and cooking time, with steps.",
                     "Finds recipes.")), line=12, column=5,
            message="skill 'recipe_search' has no examples and a description of 14 characters",
            note="both: one finding"),
        Good(example()),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    card = card_of(ctx.tool)
    if card is None:
        return
    minimum = MIN_DESCRIPTION
    for index, skill in skills(card):
        name = skill.get("id") if isinstance(skill.get("id"), str) else skill.get("name")
        examples = skill.get("examples")
        bare = not (isinstance(examples, list) and any(isinstance(e, str) and e.strip() for e in examples))
        description = skill.get("description")
        size = len(description.strip()) if isinstance(description, str) else None
        short = size is not None and size < minimum
        if bare and short:  # one skill, one finding: what it lacks, together
            yield Hit(("skills", index), f"skill {name!r} has no examples and a description of {size} characters "
                      f"(under {minimum}): say what the skill does, what it needs and what it returns, and give a "
                      "few requests it answers (`examples`)")
        elif bare:
            yield Hit(("skills", index), f"skill {name!r} has no examples: give a few requests it answers "
                      "(`examples`), so a caller knows how to ask")
        elif short:
            yield Hit(("skills", index, "description"), f"description of skill {name!r} is {size} characters "
                      f"(under {minimum}): say what the skill does, what it needs and what it returns")
