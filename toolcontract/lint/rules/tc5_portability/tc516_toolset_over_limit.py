"""TC516 toolset-over-limit: The tool list is longer than a targeted surface takes in one request (tools, or strict-mode budgets)."""

from __future__ import annotations

from typing import Iterator

from toolcontract.core.limits import (
    ANTHROPIC_MAX_OPTIONAL,
    ANTHROPIC_MAX_STRICT_TOOLS,
    ANTHROPIC_MAX_UNIONS,
    GEMINI_MAX_DECLARATIONS,
    OPENAI_MAX_TOOLS,
)
from toolcontract.core.descriptor import ToolView
from toolcontract.lint.context import ListContext, context
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc5_portability.messages import verb_s
from toolcontract.lint.rules.tc5_portability.strict import anthropic_strict_counts
from toolcontract.core.model import Severity


def _anthropic_tools(count: int, optional: int = 0) -> str:
    """An Anthropic tool list in YAML: `count` tools, each with `optional` optional properties."""
    lines = []
    for i in range(1, count + 1):
        props = ", ".join(f"p{k}: {{type: string}}" for k in range(1, optional + 1))
        schema = f"{{type: object, properties: {{{props}}}, additionalProperties: false}}" if optional else (
            "{type: object, additionalProperties: false}")
        lines.append(f"  - {{name: report_{i:02d}, description: Report number {i}., input_schema: {schema}}}")
    return "tools:\n" + "\n".join(lines) + "\n"


RULE = Rule(
    id="TC516",
    name="toolset-over-limit",
    severity=Severity.ERROR,
    summary="The tool list is longer than a targeted surface takes in one request (tools, or strict-mode budgets).",
    rationale=(
        "Providers cap what one request may carry, and refuse the whole request over the cap: OpenAI takes at "
        "most 128 tools (400 `array_above_max_length`, \"Invalid 'tools': array too long. Expected an array "
        "with maximum length 128\"; observed from 2024 to late 2025, GPT-5, GPT-5-mini and GPT-5.1 "
        "included: zed#42393, claude-code-router#686, opencode#4909; tool-surfaces.md notes the cap as "
        "documented only for the legacy APIs), Gemini 512 function declarations (GM-SDK), and "
        "Anthropic's strict mode 20 strict tools, 24 optional parameters and 16 union parameters (`anyOf` or "
        "a type list) across all strict schemas of a request (AN-SO). A list is one file or one live server; "
        "clients that merge several servers reach the caps sooner. Anthropic counts the tools sent with "
        "`strict: true`: where a list writes `strict` on its tools those are counted, otherwise every tool "
        "(as `--target anthropic-strict` assumes). Optional parameters are properties not in `required`, at "
        "every object level; one tool over a strict budget on its own is TC509's, so the budgets are summed "
        "here only for lists of two or more strict tools. Split the list by task across agents or requests, "
        "load tools on demand (tool search, `defer_loading`), or send `strict: true` only where exact "
        "arguments matter."
    ),
    examples=(
        Bad(_anthropic_tools(21),
            line=1, column=1, message="21 strict tools", note="anthropic-strict: 21 strict tools"),
        Bad(_anthropic_tools(2, optional=13),
            line=1, column=1, message="26 optional parameters across the 2 strict schemas",
            note="anthropic-strict: 26 optional parameters in two tools"),
        Good(_anthropic_tools(3, optional=8)),
    ),
    scope="list",
    surfaces=("openai", "openai-strict", "anthropic-strict", "gemini"),
)


def check(ctx: ListContext) -> Iterator[Hit]:
    tools, surfaces = ctx.tools, ctx.surfaces
    count = len(tools)
    advice = "split the list by task across agents or requests, or load tools on demand (tool search, deferred loading)"
    openai = [s for s in surfaces if s in ("openai", "openai-strict")]
    if openai and count > OPENAI_MAX_TOOLS:
        yield Hit(ctx.list_path, f"this list has {count} tools; {', '.join(openai)} take{verb_s(openai)} at most "
                        f"{OPENAI_MAX_TOOLS} in one request (400 array_above_max_length): {advice}", anchor="key")
    if "gemini" in surfaces and count > GEMINI_MAX_DECLARATIONS:
        yield Hit(ctx.list_path, f"this list has {count} function declarations; gemini takes at most "
                        f"{GEMINI_MAX_DECLARATIONS} in one request: {advice}", anchor="key")
    if "anthropic-strict" in surfaces:
        written = [_written_strict(t) for t in tools]
        if any(flag is not None for flag in written):
            strict = [t for t, flag in zip(tools, written) if flag is True]
            which = "tools with `strict: true`"
        else:
            strict = list(tools)
            which = "strict tools (every tool of the list, as --target anthropic-strict assumes)"
        over = []
        if len(strict) > ANTHROPIC_MAX_STRICT_TOOLS:
            over.append(f"{len(strict)} {which}, over the {ANTHROPIC_MAX_STRICT_TOOLS} allowed")
        if len(strict) > 1:
            optional = unions = 0
            for tool in strict:
                schema = tool.get("input_schema")
                if isinstance(schema, dict):
                    more_optional, more_unions = anthropic_strict_counts(context(tool).walk(schema))
                    optional += more_optional
                    unions += more_unions
            if optional > ANTHROPIC_MAX_OPTIONAL:
                over.append(f"{optional} optional parameters across the {len(strict)} strict schemas, over the "
                            f"{ANTHROPIC_MAX_OPTIONAL} allowed")
            if unions > ANTHROPIC_MAX_UNIONS:
                over.append(f"{unions} union parameters (anyOf or a type list) across the {len(strict)} strict "
                            f"schemas, over the {ANTHROPIC_MAX_UNIONS} allowed")
        if over:
            yield Hit(ctx.list_path, f"anthropic-strict refuses a request with this list: {'; '.join(over)}; "
                            "send `strict: true` only on the tools whose arguments must be exact, or split the "
                            "list across requests", anchor="key")


def _written_strict(tool: ToolView) -> bool | None:
    """The `strict` flag a provider tool writes (True/False), None when it writes none."""
    raw = tool.raw
    if isinstance(raw, dict) and tool.format == "openai-chat":
        raw = raw.get("function")
    if not isinstance(raw, dict):
        return None
    value = raw.get("strict")
    return value if isinstance(value, bool) else None
