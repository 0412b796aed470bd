"""TC601 hidden-characters: Model-facing text contains invisible characters: zero-width, bidi controls, tag
characters, controls."""

from __future__ import annotations

from typing import Iterable, Iterator

from toolcontract.core.descriptor import ToolView
from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc6_security.examples import WEATHER, with_description
from toolcontract.lint.rules.tc6_security.reports import at, hit, reports, scanned
from toolcontract.core.model import Severity

RULE = Rule(
    id="TC601",
    name="hidden-characters",
    severity=Severity.ERROR,
    owasp=("MCP03",),
    when=scanned,  # the rules run on the tools whose scan found something
    summary="Model-facing text contains invisible characters: zero-width, bidi controls, tag characters, controls.",
    rationale=(
        "A reviewer reads a tool's text in an editor or a UI; a model reads every code point. Zero-width "
        "and other invisible format characters, bidirectional controls (which reorder what is shown, "
        "'Trojan Source'), Unicode tag characters (U+E0000–U+E007F: an invisible copy of ASCII that models "
        "read as text), variation selectors outside emoji and ideographs, runs of left-to-right or "
        "right-to-left marks, and C0/C1 control characters hide instructions or make two names look "
        "equal. Ordinary uses are not reported: a joiner inside an emoji sequence or between letters of a "
        "script that joins (Arabic, Indic), a variation selector after an emoji, a single direction mark "
        "in right-to-left text, a tag sequence that spells a subdivision flag. The finding names each "
        "character (U+200B ZERO WIDTH SPACE) and decodes tag characters."
    ),
    examples=(
        Bad(with_description('"Current weather for one\\u200b city."'),
            line=4, column=14, message="U+200B ZERO WIDTH SPACE"),
        Bad(with_description('"Current weather.\\U000E0049\\U000E0067\\U000E006E\\U000E006F\\U000E0072\\U000E0065"'),
            line=4, column=14, message="TAG characters (invisible copies of ASCII)",
            note="tag characters spelling 'Ignore'"),
        Bad(WEATHER.replace("    city: {", '    "ci\\u200dty": {'),
            line=8, column=5, message="U+200D ZERO WIDTH JOINER", note="in a property name"),
        Good(with_description('"Current weather for one city. \\u2600\\ufe0f"'), note="an emoji with its selector"),
        Good(with_description('"Forecast in Hebrew: \\u05de\\u05d6\\u05d2 \\u05d0\\u05d5\\u05d5\\u05d9\\u200f (2 days)"'),
             note="a direction mark in right-to-left text"),
    ),
)


def check(ctx: ToolContext) -> Iterable[Hit]:
    tool = ctx.tool
    found = reports(tool)  # most tools: nothing
    return _hidden_characters(found, tool) if found else ()


def _hidden_characters(found: list, tool: ToolView) -> Iterator[Hit]:
    for item in found:
        spans = item.report.hidden
        if not spans:
            continue
        surface = item.surface
        first = min(spans, key=lambda span: _SPAN_ORDER.index(span.kind))  # the most telling one
        more = f" (and {len(spans) - 1} more span{'s' if len(spans) > 2 else ''})" if len(spans) > 1 else ""
        yield hit(surface, f"hidden characters {at(surface, first.start)}: {first.describe()}{more}")


_SPAN_ORDER = ("tag", "bidi", "control", "marks", "invisible", "variation")
