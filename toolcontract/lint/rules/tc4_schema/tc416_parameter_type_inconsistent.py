"""TC416 parameter-type-inconsistent: A top-level parameter name has one type in most tools of a list and another
in a few."""

from __future__ import annotations

import functools
from typing import Any, Iterator

from toolcontract.core.descriptor import ToolView
from toolcontract.lint.context import ListContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc4_schema.quoting import quoted
from toolcontract.lint.rules.tc4_schema.type_names import TYPE_NAMES
from toolcontract.core.model import Severity


_OWNER = """\
tools:
  - name: repo_get
    description: Get one repository by its owner and name.
    inputSchema:
      type: object
      properties:
        owner: {type: string, description: Account that owns the repository.}
        repo: {type: string, description: Repository name.}
  - name: repo_list_issues
    description: List the open issues of one repository.
    inputSchema:
      type: object
      properties:
        owner: {type: string, description: Account that owns the repository.}
        repo: {type: string, description: Repository name.}
  - name: repo_list_branches
    description: List the branches of one repository.
    inputSchema:
      type: object
      properties:
        owner: {type: string, description: Account that owns the repository.}
        repo: {type: string, description: Repository name.}
  - name: repo_star
    description: Star one repository for the signed-in user.
    inputSchema:
      type: object
      properties:
        owner: {type: integer, description: Account that owns the repository.}
        repo: {type: string, description: Repository name.}
"""


RULE = Rule(
    id="TC416",
    name="parameter-type-inconsistent",
    severity=Severity.INFO,
    scope="list",
    summary="A top-level parameter name has one type in most tools of a list and another in a few.",
    rationale=(
        "A model learns a tool list as a whole: when `owner` is a string in forty tools it sends a string to "
        "the one tool that wants an integer, and that call is refused or misread. Reported only against a clear "
        "majority (one type used by at least three tools and three times as often as the deviating one), once "
        "per name and deviating type, at the first tool that deviates; names that mean different things in "
        "different tools (an `id` of a story and of a user) rarely have such a majority. Types are compared as "
        "sets, with `null` left out (an optional-or-null parameter is the same parameter); untyped properties "
        "are skipped. Use one type for one meaning, or give the odd parameter its own name."
    ),
    examples=(
        Bad(_OWNER, line=28, column=23, message="is integer here but string"),
        Good(_OWNER.replace("owner: {type: integer,", "owner: {type: [string, 'null'],")),
    ),
)


def check(ctx: ListContext) -> Iterator[Hit]:
    if len(ctx.tools) <= _MAJORITY:
        return  # a majority of three and one tool that deviates from it need four tools
    # name -> type set -> the tools that use it, in list order
    uses: dict[str, dict[frozenset[str], list[ToolView]]] = {}
    for tool in ctx.tools:
        schema = tool.data.get("input_schema")
        properties = schema.get("properties") if isinstance(schema, dict) else None
        if not isinstance(properties, dict):
            continue
        for name, sub in properties.items():
            if isinstance(sub, dict) and "type" in sub:
                kinds = _type_set(sub["type"])
                if kinds is not None:
                    uses.setdefault(name, {}).setdefault(kinds, []).append(tool)
    for name, by_type in uses.items():
        if len(by_type) < 2:
            continue
        ranked = sorted(by_type.items(), key=lambda item: -len(item[1]))
        (major, users), rest = ranked[0], ranked[1:]
        if len(rest[0][1]) == len(users) or len(users) < _MAJORITY:
            continue  # no majority
        for kinds, deviating in rest:
            if len(users) < _MAJORITY * len(deviating):
                continue
            example = users[0].name
            yield Hit(
                ("input_schema", "properties", name, "type"),
                f"parameter {quoted(name)} is {_type_label(kinds)} here but {_type_label(major)} in {len(users)} other "
                f"tools of this list (such as {quoted(example)}): use one type for one meaning, or another name",
                subject=deviating[0])


def _type_set(kind: Any) -> frozenset[str] | None:
    """A `type` as a set of JSON type names, spelled as JSON Schema does (`float` is number) and with
    `null` left out unless it is the only one (an optional-or-null parameter is the same parameter)."""
    if kind.__class__ is str:
        return _single_type_set(kind)
    elif not isinstance(kind, list) or not kind or not all(isinstance(k, str) for k in kind):
        return None
    names = frozenset(TYPE_NAMES.get(k.lower(), k.lower()) for k in kind)
    return (names - {"null"}) or names


@functools.lru_cache(maxsize=256)
def _single_type_set(kind: str) -> frozenset[str]:
    """_type_set of a single type name, once per name."""
    return frozenset((TYPE_NAMES.get(kind.lower(), kind.lower()),))


def _type_label(kinds: frozenset[str]) -> str:
    return " or ".join(sorted(kinds))


_MAJORITY = 3  # the majority type is used by at least this many tools, and this many times as often as another
