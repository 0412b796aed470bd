"""TC000 parse-error: the file does not parse as YAML or JSON, or breaks a loader limit."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import LoadContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc0_file.examples import GOOD
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC000",
    name="parse-error",
    severity=Severity.ERROR,
    summary="The file does not parse as YAML or JSON, or breaks a loader limit.",
    rationale=(
        "A descriptor that cannot be read is a contract nobody can check: the tool would reach a model "
        "unlinted, or not at all. Loader limits (5 MiB, 64 levels of nesting, 10,000 nodes from aliases) "
        "keep a hostile file from exhausting memory or time; a file over a limit is refused here instead. "
        "Only the YAML core schema's tags are read, and one document per file."
    ),
    examples=(
        Bad("toolcontract: 1\nname: weather_current\neffect: [read\n", line=4, column=1,
            message="while parsing a flow sequence", note="unclosed flow sequence"),
        Bad("toolcontract: 1\nname: !!python/object:os.system weather\n", line=2, column=7,
            message="unsupported YAML tag", note="non-core tag"),
        Good(GOOD),
    ),
    scope="load",
)


def check(ctx: LoadContext) -> Iterator[Hit]:
    error = ctx.error
    if error is not None:
        yield Hit(message=error.message, position=(error.line, error.column))
