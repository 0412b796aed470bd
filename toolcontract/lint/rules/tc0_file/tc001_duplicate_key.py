"""TC001 duplicate-key: a mapping repeats a key."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import LoadContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc0_file.examples import GOOD
from toolcontract.core.model import Severity
from toolcontract.core.pointer import split_pointer


RULE = Rule(
    id="TC001",
    name="duplicate-key",
    severity=Severity.ERROR,
    summary="A mapping repeats a key.",
    rationale=(
        "YAML and JSON parsers silently keep one of the repeated values (PyYAML and most JSON parsers the "
        "last one), so what a reviewer reads is not what a client loads. A repeated `effect:` or schema "
        "property is a contract that says two things."
    ),
    examples=(
        Bad("toolcontract: 1\nname: weather_current\neffect: read\neffect: open_world\n", line=4, column=1,
            message="repeats the one at line 3"),
        Good(GOOD),
    ),
    scope="load",
)


def check(ctx: LoadContext) -> Iterator[Hit]:
    document = ctx.document
    if document is None:
        return
    for dup in document.duplicates:
        yield Hit(split_pointer(dup.pointer) if dup.pointer else (),
                  f"key {dup.key!r} repeats the one at line {dup.first_line}, column {dup.first_column}; "
                  "only the last value is used", position=(dup.line, dup.column))
