"""`toolcontract rules`: the rule catalogue, from the rules' own data."""

from __future__ import annotations

import json
import textwrap
from typing import TextIO

from toolcontract.core.rule import Bad, Rule, example_settings


def rule_as_dict(rule: Rule) -> dict:
    return {
        "id": rule.id,
        "name": rule.name,
        "severity": rule.severity.label,
        "summary": rule.summary,
        "rationale": rule.rationale,
        "fix": rule.fixable or None,
        "examples": [
            ({"kind": "bad", "line": e.line, "note": e.note, "text": e.text} if isinstance(e, Bad)
             else {"kind": "good", "note": e.note, "text": e.text}) | ({"before": e.before} if e.before else {})
            | ({"settings": dict(e.options)} if e.options else {})
            for e in rule.examples
        ],
    }


def render_rules(rules: list[Rule], stream: TextIO, fmt: str) -> None:
    if fmt == "json":
        json.dump([rule_as_dict(r) for r in rules], stream, indent=2)
        stream.write("\n")
        return
    if fmt == "rich":
        from rich.console import Console
        from rich.markup import escape
        from rich.table import Table

        table = Table(box=None, header_style="bold")
        for column in ("id", "name", "severity", "summary"):
            table.add_column(column, overflow="fold")
        for r in rules:  # a cell is read as markup: `[a-z]` in a summary would vanish unescaped
            table.add_row(*(escape(cell) for cell in (r.id, r.name, r.severity.label, r.summary)))
        Console(file=stream, highlight=False).print(table)
        return
    width = max(len(r.name) for r in rules)
    for r in rules:
        stream.write(f"{r.id}  {r.name:<{width}}  {r.severity.label:<7}  {r.summary}\n")


FIX_NOTES = {
    "safe": "Fix: safe, applied by `lint --fix` (it keeps what the contract means).",
    "unsafe": "Fix: unsafe, applied by `lint --fix --unsafe-fixes` (it changes what the contract accepts or "
              "claims: review it).",
}


def render_rule(rule: Rule, stream: TextIO, fmt: str) -> None:
    if fmt == "json":
        json.dump(rule_as_dict(rule), stream, indent=2)
        stream.write("\n")
        return
    out = [f"{rule.id} {rule.name} ({rule.severity.label})", "", rule.summary, ""]
    if rule.fixable:
        out += [FIX_NOTES[rule.fixable], ""]
    out += ["Why:"]
    out += textwrap.wrap(rule.rationale, 88, initial_indent="  ", subsequent_indent="  ")
    for example in rule.examples:
        if isinstance(example, Bad):
            head = f"Bad (hits line {example.line})"
        else:
            head = "Good"
        if example.options:
            head += f", with {example_settings(example)}"
        out += ["", f"{head}{': ' + example.note if example.note else ''}:"]
        if example.before:  # a change rule's example: the old version, then the new one
            out += ["  before:"] + [f"  {n:>3} | {line}" for n, line in enumerate(example.before.rstrip("\n").split("\n"), 1)]
            out += ["  after:"]
        out += [f"  {n:>3} | {line}" for n, line in enumerate(example.text.rstrip("\n").split("\n"), 1)]
    text = "\n".join(out) + "\n"
    if fmt == "rich":
        from rich.console import Console
        from rich.markup import escape

        Console(file=stream, highlight=False).print(escape(text), end="")
    else:
        stream.write(text)
