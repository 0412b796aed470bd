"""docs/rules.md: the rule catalogue as Markdown, from the rules' own data (what `toolcontract rules
RULE` shows). `python docs/generate.py` writes it; tests/test_docs.py fails when it is stale."""

from __future__ import annotations

from toolcontract.core import owasp
from toolcontract.core.rule import Bad, Good, Rule, example_settings

FAMILIES = {
    "TC0": "file", "TC1": "names", "TC2": "documentation", "TC3": "effects", "TC4": "schemas",
    "TC5": "portability (with `--target`)", "TC6": "security", "TC7": "changes (`diff`, `lint --locked`)",
    "TC8": "conversations (`assess`)", "TC9": "A2A Agent Cards",
}

HEADER = """\
<!-- Generated from the rules' data by `python docs/generate.py`; do not edit by hand. -->
# Rules

Every rule of `toolcontract lint`, `diff`, `lint --locked` and `assess`, with its id, name, default
severity, summary, rationale and examples. `toolcontract rules` lists them in the terminal and
`toolcontract rules TC403` (or `toolcontract rules additional-properties-open`) shows one. Each bad
example is checked by the test suite to hit its rule at the line stated, each good one to be clean.
`--select` / `--ignore` take ids or prefixes (`TC4`); `severity = {TC403 = "error"}` in the
configuration changes a rule's severity.
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _anchor(rule: Rule) -> str:
    """GitHub's heading anchor for `## TC403 additional-properties-open`."""
    return f"{rule.id.lower()}-{rule.name}"


# where docs/rules.md is read on the web: the link an editor shows beside a finding's rule id (`toolcontract
# server`'s codeDescription); OWNER as in the README's GitHub Action and pre-commit snippets
RULES_URL = "https://github.com/OWNER/toolcontract/blob/main/docs/rules.md"


def rule_url(rule_id: str, name: str) -> str:
    """The link to the section of docs/rules.md of the rule `rule_id` named `name` (its heading's anchor)."""
    return f"{RULES_URL}#{rule_id.lower()}-{name}"


def _fence(text: str) -> list[str]:
    body = text.rstrip("\n")
    language = "json" if body.lstrip()[:1] in "{[" else "yaml"
    ticks = "````" if "```" in body else "```"
    return [f"{ticks}{language}", *body.split("\n"), ticks]


def _example(example: Bad | Good) -> list[str]:
    if isinstance(example, Bad):
        head = f"Bad (hits line {example.line}"
        head += f", column {example.column})" if example.column else ")"
    else:
        head = "Good"
    if example.options:
        head += f", with {example_settings(example)}"
    out = [f"**{head}**{': ' + example.note if example.note else ''}", ""]
    if example.before:
        out += ["before:", "", *_fence(example.before), "", "after:", ""]
    out += _fence(example.text)
    if isinstance(example, Bad) and example.message:
        out += ["", f"The message includes: {example.message}"]
    return out + [""]


def render_rules_markdown(rules: list[Rule]) -> str:
    rules = sorted(rules, key=lambda r: r.id)
    out = [HEADER]
    for prefix, family in FAMILIES.items():
        members = [r for r in rules if r.id.startswith(prefix)]
        if not members:
            continue
        out += [f"## {prefix}xx {family}", "", "| rule | name | severity | summary |", "|---|---|---|---|"]
        out += [f"| [{r.id}](#{_anchor(r)}) | {r.name} | {r.severity.label} | {_cell(r.summary)} |" for r in members]
        out.append("")
    for rule in rules:
        out += [f"## {rule.id} {rule.name}", "", f"Severity: **{rule.severity.label}**. {rule.summary}", "",
                rule.rationale, ""]
        if rule.owasp:
            out += [f"{owasp.NAME} ({owasp.VERSION}): " + "; ".join(owasp.label(c) for c in rule.owasp) + ".", ""]
        for example in rule.examples:
            out += _example(example)
    return "\n".join(out).rstrip("\n") + "\n"
