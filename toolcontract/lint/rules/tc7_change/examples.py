"""The TC7xx rules' examples, and how one is run (`example_findings`).

An example of a change rule carries the old version in `before` (for lock rules: the file as it was
when locked); `text` is the file now.
"""

from __future__ import annotations


WEATHER_V1 = """\
toolcontract: 1
name: weather_current
version: 1.2.0
effect: read
input_schema:
  type: object
  properties:
    city: {type: string, description: City name.}
    units: {type: string, enum: [metric, imperial], description: Unit system.}
  required: [city]
"""


def weather(version: str = "1.2.0", units: str = "[metric, imperial]", extra: str = "") -> str:
    text = WEATHER_V1.replace("version: 1.2.0", f"version: {version}").replace("[metric, imperial]", units)
    return text.replace("  required: [city]\n", extra + "  required: [city]\n")


LANG = "    lang: {type: string, description: Language of the summary.}\n"


TWO_TOOLS = """\
toolcontract: 1
tools:
  - name: weather_current
    version: 1.2.0
    effect: read
  - name: weather_forecast
    version: 1.0.0
    effect: read
"""


LOCKED = """\
toolcontract: 1
name: weather_current
version: 1.2.0
description: Current weather for a city. Read-only.
effect: read
"""


LOCKED_TWO = TWO_TOOLS


def example_findings(rule_id: str, before: str, text: str, path: str = "descriptor.yaml"):
    """Findings of one change rule on an example: `before` is the old version (diff rules)
    or the file when it was locked (lock rules); `text` is the file now. The old version is
    read as `before.yaml`, the lockfile as `toolcontract.lock`."""
    from toolcontract.diff import diff_findings, diff_tools
    from toolcontract.lint.engine import Selection, all_rules
    from toolcontract.lock import compare_lock, entries_for, lock_findings, lock_text, parse_lock
    from toolcontract.sources.document import load_text
    from toolcontract.sources.reader import read_tools

    selection = Selection(select=(rule_id,))
    old = read_tools(load_text(before, "before.yaml")).tools
    new = read_tools(load_text(text, path)).tools
    if all_rules()[rule_id].scope == "diff":
        return diff_findings(diff_tools(old, new), selection)
    entries, _ = entries_for((tool, path) for tool in old)
    lock_document = load_text(lock_text(entries), "toolcontract.lock")
    drifts = compare_lock(parse_lock(lock_document.data), [(tool, path) for tool in new])
    return lock_findings(drifts, lock_document, selection)
