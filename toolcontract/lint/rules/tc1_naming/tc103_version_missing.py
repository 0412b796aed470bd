"""TC103 version-missing: the descriptor has no `version`, or it is not SemVer."""

from __future__ import annotations

import re
from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Edit, Fix, Good, Hit, Rule
from toolcontract.core.model import Severity


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


RULE = Rule(
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
        Bad("toolcontract: 1\nname: weather_current\neffect: read\n", line=1, column=1,
            message="no `version`: give the contract", note="no version"),
        Bad("toolcontract: 1\nname: weather_current\nversion: 1.2\neffect: read\n", line=3, column=10,
            message="version 1.2 is not SemVer"),
        Good("toolcontract: 1\nname: weather_current\nversion: 1.2.0\neffect: read\n"),
    ),
    contract=True,
    fixable="safe",
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    if "version" not in tool.data:
        yield Hit((), "no `version`: give the contract a SemVer version such as 1.0.0", anchor="value")
        return
    version = tool.get("version")
    if not isinstance(version, str) or not is_semver(version):
        normal = normalised(version)
        fix = None if normal is None else Fix((Edit("replace", ("version",), value=normal),), True,
                                              f"write the version as {normal}")
        yield Hit(("version",), f"version {version!r} is not SemVer (MAJOR.MINOR.PATCH, e.g. 1.2.0)", fix=fix)


_SHORT = re.compile(r"[vV]?(0|[1-9][0-9]*)(?:\.(0|[1-9][0-9]*))?(?:\.(0|[1-9][0-9]*))?\Z")


def normalised(version) -> str | None:
    """`v1.2` -> `1.2.0`, `1` -> `1.0.0`, `v1.2.3` -> `1.2.3`; None for what is not one of these
    (a float such as 1.10 has lost its text: `1.1` or `1.10` cannot be told apart, so it is left)."""
    if isinstance(version, bool) or not isinstance(version, (str, int)):
        return None
    found = _SHORT.match(str(version).strip())
    if found is None:
        return None
    return ".".join(part or "0" for part in found.groups())
