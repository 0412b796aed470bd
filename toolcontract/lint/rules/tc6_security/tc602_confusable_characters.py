"""TC602 confusable-characters: A tool or property name, or a word of its text, uses look-alike letters or mixes
scripts."""

from __future__ import annotations

from typing import Iterable, Iterator

from toolcontract.core.descriptor import ToolView
from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc6_security.examples import WEATHER, with_description
from toolcontract.lint.rules.tc6_security.reports import NAME, PROPERTY, at, hit, quote, reports, scanned
from toolcontract.core.model import Severity

RULE = Rule(
    id="TC602",
    name="confusable-characters",
    severity=Severity.ERROR,
    owasp=("MCP03",),
    when=scanned,  # the rules run on the tools whose scan found something
    summary="A tool or property name, or a word of its text, uses look-alike letters or mixes scripts.",
    rationale=(
        "`send_emаil` with a Cyrillic `а` is a different name from `send_email` that looks the same: a "
        "client, an allow-list or a reviewer keyed on the name is fooled, and a look-alike word in a "
        "description slips past phrase filters. Names are checked as UTS #39 suggests: a compatibility "
        "character (fullwidth, mathematical letters; NFKC changes it), a letter of another script that "
        "looks like a Latin one in a Latin name, or a name wholly made of look-alikes, is an error; other "
        "mixes of scripts are a warning. A name in one script (`城市`, `μήκος`) is fine, and so is "
        "Han with kana or Hangul. In text, a word that mixes Latin letters with a look-alike from another "
        "script (`Sуstem`) is reported. Look-alikes come from Unicode's confusables data."
    ),
    examples=(
        Bad(WEATHER.replace("name: weather_current", 'name: "weather_\\u0441urrent"'),
            line=2, column=7, message="in a Latin name: it reads as 'weather_current'", note="Cyrillic es"),
        Bad(WEATHER.replace("    city: {", '    "\\u0441ity": {'),
            line=8, column=5, message="in a Latin name: it reads as 'city'", note="a property name"),
        Bad(with_description('"Current weather for one \\u0441ity."'),
            line=4, column=14, message="look-alike letters at character 25", note="a word in the description"),
        Good(WEATHER),
        Good(WEATHER.replace("    city: {", '    "\\u57ce\\u5e02": {').replace("required: [city]",
                                                                          'required: ["\\u57ce\\u5e02"]'),
             note="a name in one script"),
    ),
)


def check(ctx: ToolContext) -> Iterable[Hit]:
    tool = ctx.tool
    found = reports(tool)  # most tools: nothing
    return _confusable_characters(found, tool) if found else ()


def _confusable_characters(found: list, tool: ToolView) -> Iterator[Hit]:
    for item in found:
        confusion = item.report.confusion
        if confusion is None:
            continue
        surface = item.surface
        if surface.kind in (NAME, PROPERTY):
            what = "tool name" if surface.kind == NAME else "property name"
            yield hit(surface, f"{what} {quote(surface.text)}: {confusion.message}",
                      None if confusion.severe else Severity.WARNING)
        else:
            yield hit(surface, f"look-alike letters {at(surface, confusion.index)}: {confusion.message}")
