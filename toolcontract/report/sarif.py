"""`sarif`: SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.

Every rule appears in `tool.driver.rules` with its summary, and its rationale and
examples as help; results point at file, line and column, with the JSON pointer
as a logical location. Positions are 1-based Unicode code points.
"""

from __future__ import annotations

import os

from pathlib import PurePath
from typing import TextIO
from urllib.parse import quote

from toolcontract import __version__
from toolcontract.core import jsoncodec
from toolcontract.lint.engine import all_rules
from toolcontract.core.rule import Bad, example_settings
from toolcontract.core.model import Severity

LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"


def _uri(path: str) -> str:
    # the file system's bytes, percent-encoded: a name that is not UTF-8 keeps its exact bytes (%FF)
    return quote(os.fsencode(PurePath(path).as_posix()), safe="/:")


def _help(rule) -> tuple[str, str]:
    text = [rule.rationale]
    markdown = [rule.rationale]
    for example in rule.examples:
        head = f"Bad (hits line {example.line})" if isinstance(example, Bad) else "Good"
        if example.options:
            head += f", with {example_settings(example)}"
        if example.before:  # a change rule's example: the old version, then the new one
            text.append(f"{head}, before:\n{example.before}")
            markdown.append(f"**{head}**, before:\n\n```yaml\n{example.before}```")
            head = "after"
        text.append(f"{head}:\n{example.text}")
        markdown.append(f"**{head}**\n\n```yaml\n{example.text}```")
    return "\n\n".join(text), "\n\n".join(markdown)


def rule_descriptors() -> list[dict]:
    descriptors = []
    for rule in all_rules().values():
        text, markdown = _help(rule)
        descriptor = {
            "id": rule.id,
            "name": rule.name,
            "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": rule.rationale},
            "help": {"text": text, "markdown": markdown},
            "defaultConfiguration": {"level": LEVEL[rule.severity]},
            "properties": {"tags": ["toolcontract", rule.id[:3] + "xx"]},
        }
        if rule.surfaces:
            descriptor["properties"]["surfaces"] = list(rule.surfaces)
        descriptors.append(descriptor)
    return descriptors


def sarif_document(findings, extra_properties: dict | None = None) -> dict:
    rules = rule_descriptors()
    index = {r["id"]: i for i, r in enumerate(rules)}
    results = []
    for f in findings:
        result = {
            "ruleId": f.rule,
            "ruleIndex": index.get(f.rule, -1),
            "level": LEVEL[f.severity],
            "message": {"text": f.message},
            "locations": [{
                "physicalLocation": {
                    "artifactLocation": {"uri": _uri(f.path)},
                    "region": {"startLine": max(f.line, 1), "startColumn": max(f.column, 1)},
                },
            }],
        }
        if f.pointer or f.tool:
            name = f.pointer or "/"
            result["locations"][0]["logicalLocations"] = [{"fullyQualifiedName": name, "kind": "member"}]
            result["properties"] = {"tool": f.tool, "pointer": f.pointer}
        if result["ruleIndex"] < 0:
            del result["ruleIndex"]
        results.append(result)
    run = {
        "tool": {"driver": {"name": "toolcontract", "version": __version__, "semanticVersion": __version__,
                            "rules": rules}},
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    if extra_properties:
        run["properties"] = extra_properties
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def render_lint(result, stream: TextIO) -> None:
    from toolcontract.report.common import lint_summary

    stream.write(jsoncodec.dumps(sarif_document(result.findings, {"summary": lint_summary(result)}), indent=2) + "\n")
