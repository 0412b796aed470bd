"""`lint --statistics`: the findings counted per rule, most first, then by id (ruff's `--statistics`):

      12  TC403  additional-properties-open
       3  TC201  purpose-missing

Counts are right-aligned to the widest; a run without findings prints nothing. Not a `--format`:
it stands in for the report on the terminal (`-o FILE` still gets the whole report).
"""

from __future__ import annotations

from typing import TextIO

from toolcontract.report.common import rule_tally


def render_statistics(result, stream: TextIO) -> None:
    tally = rule_tally(result.findings)
    width = max((len(str(count)) for _, _, count, _ in tally), default=0)
    idw = max((len(rule) for rule, _, _, _ in tally), default=0)
    for rule, name, count, _ in tally:
        stream.write(f"  {count:>{width}}  {rule:<{idw}}  {name}\n")
