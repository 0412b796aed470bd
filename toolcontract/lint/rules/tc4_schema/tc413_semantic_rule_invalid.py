"""TC413 semantic-rule-invalid: A `semantic_rules` entry lacks `id`, `message`, `if` or `then`, repeats an id, or
has an invalid schema."""

from __future__ import annotations

from typing import Iterator

from toolcontract.core.descriptor import ToolView
from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc4_schema.examples import WEATHER
from toolcontract.lint.rules.tc4_schema.metaschema import meta_hits
from toolcontract.lint.rules.tc4_schema.quoting import quoted
from toolcontract.core.model import Severity


_SEMANTIC = WEATHER.replace(
    "  required",
    "    units: {type: string, enum: [metric, imperial], description: Unit system.}\n"
    "    country: {type: string, description: ISO 3166 code.}\n  required",
) + """\
semantic_rules:
  - id: imperial-needs-country
    message: Imperial units are only offered for US cities.
    if: {properties: {units: {const: imperial}}, required: [units]}
    then: {required: [country]}
"""


RULE = Rule(
    id="TC413",
    name="semantic-rule-invalid",
    severity=Severity.ERROR,
    summary="A `semantic_rules` entry lacks `id`, `message`, `if` or `then`, repeats an id, or has an invalid schema.",
    rationale=(
        "Semantic rules are the business rules the semantic gate applies before a call is admitted. A rule "
        "without `if` or `then` checks nothing, one without `message` refuses a call without telling the "
        "model what to fix, and one without a unique `id` cannot be named in a refusal or a log. An `if` or "
        "`then` that is not valid JSON Schema cannot be compiled, so the rule cannot be applied at all."
    ),
    examples=(
        Bad(_SEMANTIC.replace("    message: Imperial units are only offered for US cities.\n", ""),
            line=13, column=5, message="has no `message`",
            note="no message"),
        Bad(_SEMANTIC.replace("{required: [country]}", "{required: country}"),
            line=16, column=22, message="`then` is not valid JSON Schema"),
        Good(_SEMANTIC),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    rules = tool.get("semantic_rules")
    if not isinstance(rules, list):
        return
    first_at: dict[str, int] = {}
    for i, entry in enumerate(rules):
        if not isinstance(entry, dict):
            continue  # TC002
        at = ("semantic_rules", i)
        label = f"semantic rule {i + 1}"
        for key, why in (("id", "a refusal cannot name it"), ("message", "a refusal cannot say what to fix"),
                         ("if", "it never applies"), ("then", "it requires nothing")):
            if key not in entry:
                yield Hit(at, f"{label} has no `{key}`: {why}", anchor="value")
            elif key in ("id", "message") and isinstance(entry[key], str) and not entry[key].strip():
                yield Hit((*at, key), f"{label} has a blank `{key}`: {why}")
        rule_id = entry.get("id")
        if isinstance(rule_id, str) and rule_id.strip():
            if rule_id in first_at:
                line = _line_of(tool, ("semantic_rules", first_at[rule_id], "id"))
                yield Hit((*at, "id"), f"semantic rule id {quoted(rule_id)} is also used at line {line}")
            else:
                first_at[rule_id] = i
        for part in ("if", "then", "else"):
            value = entry.get(part)
            if isinstance(value, (dict, bool)):
                yield from meta_hits(ctx, (*at, part), value, f"{label}'s `{part}`")


def _line_of(tool: ToolView, path: tuple) -> int:
    document, pointer = tool.locate(path)
    return document.locate(pointer)[0]
