"""TC301 effect-missing: no `effect`, or not one of the five classes."""

from __future__ import annotations

from typing import Iterator

from toolcontract.core.descriptor import effect_from_annotations
from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc3_effects.verbs import reads_as_read
from toolcontract.core.model import Effect, Severity
from toolcontract.core.descriptor import FORMAT_LABELS


EFFECTS = ", ".join(e.value for e in Effect)


_MCP_TOOL = """\
tools:
  - name: weather_current
    description: Report the current weather at one named place.
    inputSchema: {type: object, properties: {city: {type: string}}}
"""


RULE = Rule(
    id="TC301",
    name="effect-missing",
    severity=Severity.ERROR,
    summary=f"No `effect`, or not one of the five classes ({EFFECTS}).",
    rationale=(
        "The effect class decides everything downstream: whether a call needs approval, whether a "
        "timeout may be retried, whether a success must be read back. A tool without one can only be "
        "treated as the worst case, and usually is treated as the best.\n\n"
        "A provider tool takes its effect class from its contract overlay (`X.contract.yaml` beside "
        "`X.json`) or, without one there, from its MCP annotations, reading absent hints with MCP's "
        "defaults (readOnlyHint false, destructiveHint true, openWorldHint true):\n\n"
        "| annotations | effect |\n"
        "|---|---|\n"
        "| `readOnlyHint: true` | read |\n"
        "| otherwise, `openWorldHint: true` written | open_world |\n"
        "| otherwise, `destructiveHint: false` written | reversible_write |\n"
        "| otherwise (any hint written) | irreversible_write |\n\n"
        "Findings that depend on a derived effect say so (`read (from readOnlyHint)`). Without an effect "
        "from any source, the rule is judged by what the file's format can hold: an error in a native "
        "descriptor, in a provider file that has an overlay, and everywhere when the configuration says "
        "`contracts = \"required\"`; a warning in an MCP list (which can hold the hints); information "
        "in OpenAI, Anthropic and Gemini lists, which have no place for an effect."
    ),
    examples=(
        Bad("toolcontract: 1\nname: weather_current\n", line=1, column=1, message="no `effect`: classify the tool"),
        Bad("toolcontract: 1\nname: weather_current\neffect: write\n", line=3, column=9,
            message="effect 'write' is not one of"),
        Bad(_MCP_TOOL, line=2, column=5, message="no effect class and no MCP hint",
            note="an MCP tool without hints: a warning"),
        Good("toolcontract: 1\nname: weather_current\neffect: read\n"),
        Good(_MCP_TOOL + "    annotations: {readOnlyHint: true}\n", note="read, derived from readOnlyHint"),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    if "effect" in tool.data:
        value = tool.get("effect")
        if isinstance(value, str) and Effect.of(value) is None:
            yield Hit(("effect",), f"effect {value!r} is not one of {EFFECTS}")
        return
    if tool.format == "native":
        implied = effect_from_annotations(tool.get("annotations"))
        hint = ""
        if implied is not None:
            hint = (f" (its annotations imply {implied[0].value}: write `effect: {implied[0].value}`; a native "
                    "descriptor declares its effect class)")
        yield Hit((), f"no `effect`: classify the tool as one of {EFFECTS}{hint}", anchor="value")
        return
    overlay = overlay_name(tool.document.path)
    level = tool.contracts
    if level == "listed":
        yield Hit((), f"no `effect`: the tool has no entry in {overlay}; add one with its effect class "
                  f"({EFFECTS})", anchor="value")
    elif level in ("full", "entry"):
        yield Hit((), f"no `effect`: give the tool's effect class ({EFFECTS}) in its entry in {overlay}",
                  anchor="value")
    elif tool.format == "mcp":
        if reads_as_read(tool) is not None:
            return  # TC418 names the hint to set (readOnlyHint: true): one finding for one fix
        yield Hit((), f"no effect class and no MCP hint to derive one from: set `annotations.readOnlyHint: true` "
                  "for a tool that changes nothing (or `destructiveHint` / `openWorldHint` for one that does), "
                  f"or give `effect:` in an entry in {overlay}", anchor="value", severity=Severity.WARNING)
    else:
        label = FORMAT_LABELS.get(tool.format, tool.format)
        yield Hit((), f"no effect class: {label} tools have no place for one; give `effect:` in an entry in "
                  f"{overlay} so that approval and assess can tell reads from writes", anchor="value",
                  severity=Severity.INFO)


def overlay_name(path: str) -> str:
    """How a message names the contract overlay of a provider file: `tools.contract.yaml`."""
    import os

    base = os.path.basename(path)
    stem, suffix = os.path.splitext(base)
    if suffix.lower() in (".json", ".yaml", ".yml") and stem:
        return f"`{stem}.contract.yaml` (a contract overlay beside {base})"
    return "a contract overlay (save the list with `toolcontract convert ... -o X.json`, then write X.contract.yaml beside it)"
