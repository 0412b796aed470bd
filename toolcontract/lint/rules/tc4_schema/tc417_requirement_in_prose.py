"""TC417 requirement-in-prose: A property's description says it is required, but the schema leaves it optional."""

from __future__ import annotations

import re
from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc4_schema.examples import DEFAULTS
from toolcontract.lint.rules.tc4_schema.properties import declared_properties
from toolcontract.lint.rules.tc4_schema.quoting import quoted
from toolcontract.lint.schema_walk import Node, Walk
from toolcontract.core.model import Severity


_PASSWORD = DEFAULTS.replace(
    "{type: string, description: Report to export.}",
    "{type: string, description: Report to export.}\n"
    "    password: {type: string, description: Password of the PDF. Required when format is pdf.}",
)


RULE = Rule(
    id="TC417",
    name="requirement-in-prose",
    severity=Severity.INFO,
    summary="A property's description says it is required, but the schema leaves it optional.",
    rationale=(
        "\"Required for 'create'\", \"required when state is duplicate\" or \"(required)\" in a description is "
        "read by the model, but no validator enforces it: a call without the property passes the schema and "
        "fails in the tool. Say it in the schema: put an unconditional requirement in the object's `required`, "
        "and a conditional one in `if`/`then`, `dependentRequired` or `oneOf` branches with `required` (any of "
        "which mentioning the property silences this rule). Phrases such as \"not required\", \"if required\" "
        "or \"the permissions required\" are not claims about the property; an unconditional claim in a "
        "description that also calls the property optional is left alone."
    ),
    examples=(
        Bad(_PASSWORD, line=8, column=43, message="but the schema leaves it optional"),
        Good(_PASSWORD.replace("  additionalProperties", "  if: {properties: {format: {const: pdf}}, "
                               "required: [format]}\n  then: {required: [password]}\n  additionalProperties"),
             note="the condition is encoded"),
        Good(DEFAULTS.replace("Report to export.}", "Report to export. Not required when a draft exists.}")),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    schema = tool.get("input_schema")
    if not isinstance(schema, dict):
        return
    w = ctx.walk(schema)
    if "properties" not in w.marks:
        return
    groups: dict[tuple, list[Node]] | None = None
    for node, name, sub in declared_properties(w):
        if not isinstance(sub, dict) or not isinstance(name, str):
            continue
        text = sub.get("description")
        if text.__class__ is not str or not _maybe_claim(text):
            continue
        claim = _claim(name, text)
        if claim is None:
            continue
        phrase, conditional = claim
        if not conditional and re.search(_OPTIONAL_SOURCE, text, _I):
            continue  # "Optional. ... required": the description contradicts itself, not the schema
        if groups is None:
            groups = {}
            for n in w.nodes:
                groups.setdefault(n.key, []).append(n)
        if name in _encoded_names(w, node.key, groups):
            continue
        yield Hit(("input_schema", *node.path, "properties", name, "description"),
                  f"property {quoted(name)} says {quoted(phrase, 70)} but the schema leaves it optional: add it to "
                  "`required`, or encode when it is (if/then, dependentRequired, or oneOf branches with `required`)")


# a claim that the property is required, at the start of a sentence or clause ("Required for 'create'.",
# "(required)", "This field is required", "Must be provided with ..."), and what may follow it: the end,
# punctuation, or a word that states a condition or a reason (not a noun: "Required scopes: ...").
# Sources, not compiled patterns: re compiles them on first use (few descriptions say "required") and caches them.
_FOLLOW_SOURCE = (
    r"(?=\s*(?:$|[.,;:)\]!*'\"`\-\u2013\u2014]|(?:for|when|whenever|if|unless|except|with|without|in|only|on|once|"
    r"while|after|before|during|depending|to|by|and|but|so|because|field|parameter|argument|value|property)\b))"
)
_CLAIM_SOURCE = (
    r"(?:^|(?<=[.;:!?,(\[\n*])|(?<=\s[-\u2013\u2014]))[ \t]*"  # not \s*: a run of newlines would be read n^2 times
    r"(?:(?:this|the) (?:field|parameter|param|argument|value|property|option|input|key) (?:is|are) |it is |this is )?"
    r"(?:required|mandatory|must be (?:provided|specified|supplied|given|included|passed|present))" + _FOLLOW_SOURCE
)
# what follows the property's own name in "`sha` is required when ...", "name must be provided"
_NAMED_CLAIM_SOURCE = (
    r"[`'\"]? (?:(?:is|are|becomes) (?:required|mandatory)|must be (?:provided|specified|supplied|given|included|"
    r"passed))\b"
)
_CONDITION_SOURCE = (r"[\s,]*(?:for|when|whenever|if|unless|except|with|without|in|only|on|once|while|after|before|"
                     r"during|depending)\b")
_OPTIONAL_SOURCE = r"(?<!not )\boptional\b"
_CLAUSE_END_SOURCE = r"[.;\n]\s|[.;\n]?$|\)"
_I = re.IGNORECASE


def _claim(name: str, text: str) -> tuple[str, bool] | None:
    """The phrase of a description that says the property is required, and whether it states a condition."""
    match = re.search(_CLAIM_SOURCE, text, _I)
    start = 0
    if match is not None:
        start = match.start() + len(match.group(0)) - len(match.group(0).lstrip())
    else:  # "`sha` is required ...": the tail is rare, so look for it and then for the name before it
        wanted = name.lower()
        for tail in re.finditer(_NAMED_CLAIM_SOURCE, text, _I):
            at = tail.start() - len(wanted)
            if at >= 0 and text[at:tail.start()].lower() == wanted:
                if at > 0 and text[at - 1] in "`'\"":
                    at -= 1
                if at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_"):
                    # quoted from the start of its sentence: "Exactly one of a or b is required"
                    match, start = tail, 0
                    for separator in (". ", "; ", "\n"):
                        found = text.rfind(separator, 0, at)
                        if found >= 0:
                            start = max(start, found + len(separator))
                    break
        if match is None:
            return None
    conditional = re.compile(_CONDITION_SOURCE, _I).match(text, match.end()) is not None
    end = re.compile(_CLAUSE_END_SOURCE).search(text, match.end())
    phrase = text[start:end.start() if end else len(text)].strip()
    return phrase, conditional


def _encoded_names(w: Walk, key: tuple, groups: dict[tuple, list[Node]]) -> set[str]:
    """Every name a `required`, `dependentRequired` or `dependencies` of a schema applying to `key` mentions."""
    names: set[str] = set()
    for node in groups.get(key, ()):
        s = node.schema
        required = s.get("required")
        if isinstance(required, list):
            names.update(r for r in required if isinstance(r, str))
        for keyword in ("dependentRequired", "dependencies"):
            mapping = s.get(keyword)
            if isinstance(mapping, dict):
                for trigger, value in mapping.items():
                    names.add(trigger)
                    if isinstance(value, list):
                        names.update(v for v in value if isinstance(v, str))
                    elif isinstance(value, dict) and isinstance(value.get("required"), list):
                        names.update(v for v in value["required"] if isinstance(v, str))
    return names


def _maybe_claim(text: str) -> bool:
    """A cheap first test of a description: whether _claim could find anything in it (in any case)."""
    if "equired" in text or "andatory" in text or "ust be" in text:
        return True
    return "EQUIRED" in text or "ANDATORY" in text or "UST BE" in text or "ust Be" in text
