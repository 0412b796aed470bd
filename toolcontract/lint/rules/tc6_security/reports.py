"""What the TC6xx rules share: the scan's reports of a tool, the surface kinds, and how a finding
quotes a span and says where it starts.

Everything a model reads of a tool (name, title, description or the one built from
purpose/when_to_use/non_goals, limitations, property names and descriptions, enum,
const, default and example values, `x-` extensions, an MCP tool's `_meta` and own `x-`
members, output schema, semantic rule messages, overlay text; see
`toolcontract.security.surfaces`) is checked offline. A finding quotes
the span, made visible (code points named), and says where in the string it starts
("character 27"); the position is the string's value (or the property's key).
The signal tables and their weights are in `toolcontract.security.signals`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolcontract.core.descriptor import ToolView
from toolcontract.lint.context import context
from toolcontract.core.rule import Hit
from toolcontract.core.model import Severity
from toolcontract.security import signals

if TYPE_CHECKING:
    from toolcontract.lint.context import ToolContext
    from toolcontract.security.surfaces import Surface


# surface kinds (toolcontract.security.surfaces)
NAME, PROPERTY = "name", "property"


# The scan and the modules it reads with (gates, Unicode tables, secrets, payloads, surfaces)
# cost milliseconds to import, and a lint run that selects no TC6 rule needs none of them: the
# tool's context imports them on the first call.
def reports(tool: ToolView) -> tuple:
    """The tool's strings with something to report (the scan, once per tool)."""
    return context(tool).scan.found


def scanned(ctx: "ToolContext") -> bool:
    """Whether the security scan has something for the TC6 rules in this tool: a string with something to
    report, or the file's reading stopped here (TC609). The rules share it as their Rule.when, so a lint
    asks it once per tool and skips them all for most tools, which have neither."""
    scan = ctx.scan
    return bool(scan.found) or scan.budget.stopped_on(ctx.tool)


def reported(tool: ToolView, field: str) -> list[tuple["Surface", str, tuple]] | tuple:
    """(surface, text, what) for each of the tool's strings whose report holds something in `field`
    (a TextReport field: `addresses`, `collected`); an empty tuple for most tools, made at once."""
    found = reports(tool)
    if not found:
        return ()
    return [(item.surface, item.text, getattr(item.report, field)) for item in found if getattr(item.report, field)]


def quote(text: str, limit: int = 60) -> str:
    """Input text for a message: quoted, shortened, every control or hidden character escaped."""
    from toolcontract.core.text import printable

    text = printable(text)
    return "'" + (text if len(text) <= limit else text[: limit - 1] + "…") + "'"


def at(surface: "Surface", index: int) -> str:
    return f"at character {index + 1} of {surface.where}"


def hit(surface: "Surface", message: str, severity: Severity | None = None) -> Hit:
    return Hit(surface.path, message, anchor=surface.anchor, severity=severity)


def explain(score: signals.Score, surface: "Surface") -> str:
    parts = []
    for m in score.matches:
        span = surface.text[m.start : m.end]
        parts.append(f"{quote(span, 50)} ({m.signal.meaning}, +{m.weight}) {at(surface, m.start)}")
    return "; ".join(parts)
