"""TC1xx: names and versions — what clients and logs key on must be stable and specific."""

from __future__ import annotations

import re
from typing import Iterator

from toolcontract.core.descriptor import ToolView, name_words
from toolcontract.lint.context import SetContext, ToolContext
from toolcontract.core.rule import Bad, Good, Hit, rule
from toolcontract.core.model import Severity
from toolcontract.core.surfaces import FAMILY_LABEL, FORMAT_FAMILY, NAME_RULES, PORTABLE_NAME, name_problem

NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,63}\Z")
# SemVer 2.0.0, the regular expression published at semver.org; compiled on the first version that
# is not plain MAJOR.MINOR.PATCH (see is_semver), as it costs ~0.6 ms of every run to compile
SEMVER_SOURCE = (
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?\Z"
)


def is_semver(version: str) -> bool:
    """Whether `version` is SemVer 2.0.0 (the published expression; `1.2.0` and the like without it)."""
    parts = version.split(".")
    if len(parts) == 3 and all(p.isascii() and p.isdigit() and (p[0] != "0" or p == "0") for p in parts):
        return True
    return re.match(SEMVER_SOURCE, version) is not None  # compiled on first use, then re's cache


# Verbs and nouns that say nothing about what a tool acts on. A name made only of
# these (and digits) names no object.
_TRAILING_DIGITS = re.compile(r"\d+$")
GENERIC_WORDS = frozenset(
    """
    do run execute exec process handle call invoke perform apply go start trigger dispatch
    update change modify set get fetch make manage use work act operate
    tool tools func function fn method action actions command cmd task job op operation request
    helper util utils utility misc thing stuff item data info input main default generic
    test tmp temp foo bar baz qux example sample my new the it
    """.split()
)


# Words that stand for "whatever there is": with nothing but verbs and generic words around them, a
# name says it acts on anything (`delete_everything`, `handle_all`).
CATCH_ALL_WORDS = frozenset("all everything anything something whatever stuff things any every".split())


def _base(tool: ToolView) -> str:
    return f"{tool.name!r}"


@rule(
    id="TC101",
    name="name-format",
    severity=Severity.ERROR,
    summary="A native descriptor's name is not snake_case; a provider tool's name breaks its own surface's rule.",
    rationale=(
        "Every provider restricts tool names, and not in the same way: OpenAI and Anthropic accept "
        "^[a-zA-Z0-9_-]{1,64}$, Gemini wants a letter or `_` first and allows `. : -` up to 128, MCP allows "
        "`A-Za-z0-9_-.` up to 128. A native descriptor is ours: its name is the portable, log-stable "
        "snake_case ^[a-z][a-z0-9_]{0,63}$, which passes everywhere. A tool in a provider file is judged by "
        "that file's own surface: an error when the surface refuses the name (a dot in an OpenAI tool name is "
        "a 400 from the API), a warning when the surface accepts it but another surface would not (a dotted "
        "MCP name that an OpenAI or Anthropic client cannot pass on; the portable subset is "
        "^[A-Za-z_][A-Za-z0-9_-]{0,63}$). camelCase and hyphens are never findings in provider files: every "
        "surface accepts them."
    ),
    examples=(
        Bad("toolcontract: 1\nname: Weather.Current\neffect: read\n", line=2),
        Bad("toolcontract: 1\neffect: read\nname: weather-current\n", line=3),
        Bad("tools:\n  - type: function\n    function: {name: weather.current, parameters: {type: object}}\n",
            line=3, note="OpenAI refuses a dot: an error"),
        Bad("tools:\n  - name: weather.current\n    inputSchema: {type: object}\n", line=2,
            note="MCP accepts a dot, OpenAI and Anthropic do not: a warning"),
        Good("toolcontract: 1\nname: weather_current\neffect: read\n"),
        Good("tools:\n  - name: getWeather-current\n    inputSchema: {type: object}\n",
             note="camelCase and hyphens in a provider file"),
    ),
)
def name_format(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    name = tool.get("name")
    if not isinstance(name, str):
        return  # TC002 reports a missing or non-string name
    family = FORMAT_FAMILY.get(tool.format)
    if family is not None:
        pattern, _ = NAME_RULES[family]
        label = FAMILY_LABEL[family]
        if not pattern.match(name):
            yield Hit(("name",), f"name {name!r} is refused by {label}: {name_problem(name, family)}")
        elif not PORTABLE_NAME.match(name):
            yield Hit(("name",), f"name {name!r} works on {label} but not on every surface: "
                      f"{name_problem(name, 'portable')}", severity=Severity.WARNING)
        return
    if not NAME_PATTERN.match(name):
        reasons = []
        if not name:
            reasons.append("it is empty")
        else:
            if len(name) > 64:
                reasons.append(f"it is {len(name)} characters long (at most 64)")
            if not ("a" <= name[0] <= "z"):
                reasons.append("it does not start with a lower-case letter")
            bad = sorted({c for c in name if not (c.isascii() and (c.islower() or c.isdigit() or c == "_"))})
            if bad:
                reasons.append("it contains " + ", ".join(repr(c) for c in bad[:8]))
        yield Hit(("name",), f"name {name!r} is not portable snake_case: {'; '.join(reasons)}")


@rule(
    id="TC102",
    name="name-vague",
    severity=Severity.WARNING,
    summary="The tool name is a bare generic verb or placeholder, or a catch-all, that names no object.",
    rationale=(
        "Models choose tools by name first. `update`, `run`, `process_data` or `tool1` say what kind of "
        "action happens but not to what, so a model cannot tell them apart from the next tool, and a log "
        "line naming them says nothing. A catch-all (`do_everything`, `delete_all`, `manage_all_things`: "
        "verbs with everything, all, anything, stuff, things or whatever) promises to act on anything, "
        "so a model reaches for it whatever the request; `list_all_issues` names its object and is fine. "
        "Name the object and the action: `invoice_mark_paid`, `document_update_metadata`."
    ),
    examples=(
        Bad("toolcontract: 1\nname: update\neffect: reversible_write\n", line=2),
        Bad("toolcontract: 1\nname: process_data\neffect: pure\n", line=2),
        Bad("toolcontract: 1\nname: func1\neffect: pure\n", line=2),
        Bad("toolcontract: 1\neffect: irreversible_write\nname: delete_everything\n", line=3, note="catch-all"),
        Bad("toolcontract: 1\nname: manage_all_things\neffect: reversible_write\n", line=2, note="catch-all"),
        Bad("tools:\n  - name: doEverything\n    inputSchema: {type: object}\n", line=2, note="catch-all, MCP"),
        Good("toolcontract: 1\nname: document_update_metadata\neffect: reversible_write\n"),
        Good("toolcontract: 1\nname: list_all_issues\neffect: read\n", note="`all` with an object"),
        Good("toolcontract: 1\nname: delete_all_completed_todos\neffect: irreversible_write\n"),
    ),
)
def name_vague(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    name = tool.name
    if not name:
        return
    from toolcontract.lint.rules.effects import READ_VERBS, WRITE_VERBS

    generic, verb, catch_all = False, False, ""
    for word in name_words(name):
        stem = word.lower()
        if stem[-1].isdecimal():  # as `\d` does, str.isdecimal reads any Unicode decimal digit
            stem = _TRAILING_DIGITS.sub("", stem)
        if not stem:
            continue
        if stem in CATCH_ALL_WORDS:
            catch_all = catch_all or stem
        elif stem in GENERIC_WORDS:
            generic = True
        elif stem in WRITE_VERBS or stem in READ_VERBS:
            verb = True
        else:
            return  # one word that names something is enough
    if catch_all:
        yield Hit(("name",), f"name {name!r} is a catch-all: {catch_all!r} names no object; say what it acts on "
                  "(e.g. delete_completed_todos), or split it into one tool per object")
    elif generic and not verb:
        yield Hit(("name",), f"name {name!r} names no object: say what it acts on (e.g. invoice_mark_paid)")


@rule(
    id="TC103",
    name="version-missing",
    severity=Severity.WARNING,
    summary="The descriptor has no `version`, or it is not SemVer.",
    rationale=(
        "A contract changes: properties are added, enums narrowed, effects reclassified. Without a SemVer "
        "version, approvals and recorded calls cannot say which contract they were made against, and a "
        "breaking change cannot be told from a compatible one. Quote it in YAML (`version: \"1.2\"` is not "
        "SemVer; `1.2` unquoted is a number)."
    ),
    examples=(
        Bad("toolcontract: 1\nname: weather_current\neffect: read\n", line=1, note="no version"),
        Bad("toolcontract: 1\nname: weather_current\nversion: 1.2\neffect: read\n", line=3),
        Good("toolcontract: 1\nname: weather_current\nversion: 1.2.0\neffect: read\n"),
    ),
    contract=True,
)
def version_missing(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    if "version" not in tool.data:
        yield Hit((), "no `version`: give the contract a SemVer version such as 1.0.0", anchor="value")
        return
    version = tool.get("version")
    if not isinstance(version, str) or not is_semver(version):
        yield Hit(("version",), f"version {version!r} is not SemVer (MAJOR.MINOR.PATCH, e.g. 1.2.0)")


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


def _name_duplicates(ctx: SetContext) -> Iterator[Hit]:
    tools = ctx.tools
    by_name: dict[str, list[ToolView]] = {}
    for tool in tools:
        if tool.name is not None:
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
                                            f"{_also([firsts[0]], len(firsts) - 1)}: a client that loads both sees "
                                            f"two {name!r} tools",
                                 severity=Severity.INFO, subject=firsts[1])


rule(
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
        Bad(
            "toolcontract: 1\ntools:\n  - name: weather_current\n    effect: read\n"
            "  - name: weather_current\n    effect: open_world\n",
            line=5,
        ),
        Good(
            "toolcontract: 1\ntools:\n  - name: weather_current\n    effect: read\n"
            "  - name: weather_forecast\n    effect: read\n"
        ),
    ),
    scope="set",
    reads=("name",),
)(_name_duplicates)
