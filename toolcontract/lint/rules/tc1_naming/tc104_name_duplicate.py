"""TC104 name-duplicate: two tools of one tool list (or two native descriptors) share a name."""

from __future__ import annotations

from typing import Iterator

from toolcontract.core.descriptor import CARD_FORMAT, ToolView
from toolcontract.lint.context import SetContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC104",
    name="name-duplicate",
    severity=Severity.ERROR,
    summary="Two tools of one tool list (or two native descriptors) share a name.",
    rationale=(
        "Calls are routed by name. Two tools with one name in one tool list (a provider file with its "
        "overlay, a live server, a native `tools:` file) or among a project's native descriptors means a "
        "model's call reaches whichever the client registered last, and an allow-list entry admits both: an "
        "error at every place the name is used. The same name in two different tool lists (two servers) is "
        "information: a client that loads both sees two tools of that name, and MCP asks aggregators to "
        "disambiguate them. Each message names the first other place and how many more there are."
    ),
    examples=(
        Bad("toolcontract: 1\ntools:\n  - name: weather_current\n    effect: read\n"
            "  - name: weather_current\n    effect: open_world\n", line=5, column=11,
            message="is also defined at descriptor.yaml:3"),
        Good(
            "toolcontract: 1\ntools:\n  - name: weather_current\n    effect: read\n"
            "  - name: weather_forecast\n    effect: read\n"
        ),
    ),
    scope="set",
    reads=("name",),
)


def check(ctx: SetContext) -> Iterator[Hit]:
    tools = ctx.tools
    by_name: dict[str, list[ToolView]] = {}
    for tool in tools:
        # an Agent Card and its skills are no tools of a shared list: a skill is named within its agent
        # (two agents may both offer "Currency conversion"); a repeated skill id is TC903's
        if tool.name is not None and tool.format != CARD_FORMAT:
            by_name.setdefault(tool.name, []).append(tool)
    for name, group in by_name.items():
        if len(group) < 2:
            continue
        lists: dict[str, list[ToolView]] = {}
        for tool in group:
            lists.setdefault(_list_key(tool), []).append(tool)
        for members in lists.values():  # within one list: calls reach one of them
            if len(members) < 2:
                continue
            for index, tool in enumerate(members):
                other = members[1] if index == 0 else members[0]
                yield Hit(("name",), f"tool name {name!r} is also defined at {_also([other], len(members) - 1)}"
                          ": a call by this name reaches only one of them", subject=tool)
        if len(lists) > 1:  # across servers or files: one note per name, at its first place in the second list
            firsts = [members[0] for members in lists.values()]
            yield Hit(("name",), f"tool name {name!r} is also defined in another tool list at "
                      f"{_also([firsts[0]], len(firsts) - 1)}: a client that loads both sees two {name!r} tools",
                      severity=Severity.INFO, subject=firsts[1])


def _list_key(tool: ToolView) -> str:
    """The tool list a tool belongs to: its provider file (with its overlay) or live server; every
    native descriptor of the run together (a project's own tools are one set)."""
    return "" if tool.format == "native" else tool.document.path


def _name_line(tool: ToolView) -> str:
    document, pointer = tool.locate(("name",))
    return f"{document.path}:{document.locate(pointer)[0]}"


def _also(places: list[ToolView], count: int) -> str:
    """`a.yaml:4`, `a.yaml:4 and 1 more`: the first other place and how many more; never the whole list."""
    more = count - 1
    return _name_line(places[0]) + (f" and {more} more" if more else "")
