"""TC003 tool-limit: a file holds more tools than lint checks in one file (2,000 by default)."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import MAX_TOOLS_CHECKED, ListContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC003",
    name="tool-limit",
    severity=Severity.WARNING,
    summary="A file holds more tools than lint checks in one file (2,000 by default).",
    rationale=(
        "Every per-tool rule costs a fraction of a millisecond, so a file of 100,000 tools (a 5 MiB list "
        "of tiny, generated or hostile entries) would take minutes. The largest real tool lists hold a few "
        "hundred (Gemini takes 512 declarations, OpenAI 128 tools). Past `max-tools-checked` tools of one "
        "file (config; default 2,000), lint still reads every tool, counts it, and runs the rules of the "
        "whole list (duplicate names, the list's limits and context cost) and the structure checks, but the "
        "per-tool rules see only the first ones: this finding says so, so a bounded run never looks complete."
    ),
    examples=(
        Bad("toolcontract: 1\ntools:\n  - {name: note_get, effect: read}\n  - {name: note_list, effect: read}\n"
            "  - {name: note_find, effect: read}\n", line=2, column=1, message="the file holds 3 tools",
            options={"max-tools-checked": 2}),
        Good("toolcontract: 1\ntools:\n  - {name: note_get, effect: read}\n  - {name: note_list, effect: read}\n",
             options={"max-tools-checked": 2}),
    ),
    scope="list",
)


def check(ctx: ListContext) -> Iterator[Hit]:
    tools = ctx.tools
    budget = ctx.option("max-tools-checked", MAX_TOOLS_CHECKED)
    if len(tools) > budget:
        yield Hit(ctx.list_path, f"the file holds {len(tools):,} tools; the first {budget:,} were checked by every "
                  f"rule, the other {len(tools) - budget:,} only for their structure, names and the rules of the "
                  "whole list (setting: max-tools-checked)")
