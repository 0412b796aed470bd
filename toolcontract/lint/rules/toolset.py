"""TC516-TC517: the size of one tool list, as a provider takes it and as a model reads it.

List rules: they see the tools of one tool list (a file, a live server) together. TC516
speaks for the surfaces `--target` names and reports a list over a hard limit of theirs;
TC517 runs by default and estimates what the list costs in a model's context.
"""

from __future__ import annotations

import json
from typing import Any, Iterator

from toolcontract.core.descriptor import ToolView, model_description
from toolcontract.lint.context import ListContext, context
from toolcontract.core.rule import Bad, Good, Hit, rule
from toolcontract.core.limits import (
    ANTHROPIC_MAX_OPTIONAL,
    ANTHROPIC_MAX_STRICT_TOOLS,
    ANTHROPIC_MAX_UNIONS,
    GEMINI_MAX_DECLARATIONS,
    OPENAI_MAX_TOOLS,
)
from toolcontract.lint.rules.portability import _s, anthropic_strict_counts
from toolcontract.core.model import Severity

# Bytes of a tool's model view (see `model_view`) per token, measured with real tokenizers
# on the corpus's real tool lists by bench/token_cost.py (figures in TC517's rationale).
BYTES_PER_TOKEN = 4.3


def model_view(tool: ToolView) -> bytes:
    """A tool as a model receives it: name, description and input schema, as compact JSON
    (UTF-8, non-ASCII unescaped, no spaces), the way a provider's request carries it. Never raises."""
    name = tool.get("name")
    view: dict[str, Any] = {"name": name if isinstance(name, str) else ""}
    description = model_description(tool)
    if description:
        view["description"] = description
    schema = tool.get("input_schema")
    if isinstance(schema, dict):
        view["input_schema"] = schema
    return compact_json(view)


def compact_json(value: Any) -> bytes:
    """`value` as compact UTF-8 JSON; whatever it holds (non-string keys, huge integers, dates),
    a length close to what a client would send."""
    try:
        import orjson

        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except (ImportError, TypeError, ValueError):  # orjson.JSONEncodeError is a TypeError
        pass
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str).encode("utf-8", "replace")
    except (TypeError, ValueError, RecursionError):  # nesting deeper than the encoders go, a 5,000-digit number
        return b" " * _approximate_size(value)


def _approximate_size(value: Any) -> int:
    """About the length of `value` as compact JSON, walked without recursion."""
    size, stack = 0, [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            size += 1 + len(item)  # braces, colons and commas
            for key, sub in item.items():
                stack.append(str(key))
                stack.append(sub)
        elif isinstance(item, (list, tuple)):
            size += 1 + len(item)
            stack.extend(item)
        elif isinstance(item, str):
            size += len(item.encode("utf-8", "replace")) + 2
        elif isinstance(item, int) and not isinstance(item, bool):
            size += item.bit_length() * 30103 // 100000 + 1  # its digits, without converting a huge number
        else:
            size += 5
    return size


def estimate_tokens(size: int) -> int:
    """Tokens for `size` bytes of a model view, rounded up."""
    return -(-size * 10 // round(BYTES_PER_TOKEN * 10))


def _label(tool: ToolView, index: int) -> str:
    name = tool.name
    if not name:
        return f"tool #{index + 1}"
    return name if len(name) <= 60 else name[:57] + "..."


# ------------------------------------------------------------------ TC516



def _written_strict(tool: ToolView) -> bool | None:
    """The `strict` flag a provider tool writes (True/False), None when it writes none."""
    raw = tool.raw
    if isinstance(raw, dict) and tool.format == "openai-chat":
        raw = raw.get("function")
    if not isinstance(raw, dict):
        return None
    value = raw.get("strict")
    return value if isinstance(value, bool) else None


def _anthropic_tools(count: int, optional: int = 0) -> str:
    """An Anthropic tool list in YAML: `count` tools, each with `optional` optional properties."""
    lines = []
    for i in range(1, count + 1):
        props = ", ".join(f"p{k}: {{type: string}}" for k in range(1, optional + 1))
        schema = f"{{type: object, properties: {{{props}}}, additionalProperties: false}}" if optional else (
            "{type: object, additionalProperties: false}")
        lines.append(f"  - {{name: report_{i:02d}, description: Report number {i}., input_schema: {schema}}}")
    return "tools:\n" + "\n".join(lines) + "\n"


@rule(
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
        Bad(_anthropic_tools(21), line=1, note="anthropic-strict: 21 strict tools"),
        Bad(_anthropic_tools(2, optional=13), line=1, note="anthropic-strict: 26 optional parameters in two tools"),
        Good(_anthropic_tools(3, optional=8)),
    ),
    scope="list",
    surfaces=("openai", "openai-strict", "anthropic-strict", "gemini"),
)
def toolset_over_limit(ctx: ListContext) -> Iterator[Hit]:
    tools, surfaces = ctx.tools, ctx.surfaces
    count = len(tools)
    advice = "split the list by task across agents or requests, or load tools on demand (tool search, deferred loading)"
    openai = [s for s in surfaces if s in ("openai", "openai-strict")]
    if openai and count > OPENAI_MAX_TOOLS:
        yield Hit(ctx.list_path, f"this list has {count} tools; {', '.join(openai)} take{_s(openai)} at most "
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


# ------------------------------------------------------------------ TC517

DEFAULT_MAX_TOOLSET_TOKENS = 20_000


_INVOICE_TOOLS = """\
toolcontract: 1
tools:
  - name: invoice_search
    effect: read
    description: Search invoices by customer, status and issue date; up to 50 matches, newest first.
    input_schema:
      type: object
      properties:
        customer: {type: string, description: Customer id or name.}
        status: {type: string, enum: [draft, open, paid, void], description: Invoice status.}
        since: {type: string, format: date, description: Earliest issue date.}
      required: [customer]
  - name: invoice_read
    effect: read
    description: Read one invoice with its lines, payments and balance.
    input_schema:
      type: object
      properties:
        id: {type: string, description: Invoice id.}
      required: [id]
"""


@rule(
    id="TC517",
    name="toolset-context-cost",
    severity=Severity.WARNING,
    summary="The tool list costs more context than `max-toolset-tokens` (20,000 by default), as a model reads it.",
    rationale=(
        "Every tool offered is sent with every request: its name, description and input schema take the "
        "model's context before the user has said anything, cost money on every turn, and a long list makes "
        "the right tool harder to pick (OpenAI advises fewer than 20 tools at a time, OA-FC). This rule "
        "estimates the tokens of one list (a file, a live server) from the bytes of each tool's model view, "
        "the name, description and input schema as compact JSON, the way a request carries them, at "
        f"{BYTES_PER_TOKEN} bytes per token. That figure is measured (bench/token_cost.py) on the 674 tools "
        "of the real lists of the corpus (GitHub's MCP server, 70 LiveMCPBench servers, tau-bench) with "
        "OpenAI's o200k_base tokenizer (GPT-4o to GPT-5), run by tiktoken from its verified rank files: "
        "4.34 bytes per token pooled (cl100k_base 4.37; Anthropic's legacy tokenizer 4.10, about 6% more "
        "tokens; current Claude models use an unpublished one). Per list the estimate is within -29% to "
        "+27% of o200k_base, median +3%. Providers add framing of their own (a system prompt around the "
        "tools, another rendering of the schema), so treat it as the size of the definitions. GitHub's "
        "MCP server (117 tools) is about 26,400 tokens by this estimate (25,087 with o200k_base). Set the "
        "threshold with `max-toolset-tokens` in the configuration. Offer fewer tools per request (split by "
        "task, or load them on demand with tool search or deferred loading), and shorten the longest "
        "descriptions and schemas first."
    ),
    examples=(
        Bad(_INVOICE_TOOLS, line=2, options={"max-toolset-tokens": 100}, note="about 150 tokens in two tools"),
        Good(_INVOICE_TOOLS, note="the same list under the default threshold"),
    ),
    scope="list",
)
def toolset_context_cost(ctx: ListContext) -> Iterator[Hit]:
    threshold = ctx.option("max-toolset-tokens", DEFAULT_MAX_TOOLSET_TOKENS)
    if not isinstance(threshold, int) or isinstance(threshold, bool) or threshold < 1:
        threshold = DEFAULT_MAX_TOOLSET_TOKENS  # the config schema refuses these; a library caller may not
    sizes = [len(model_view(tool)) for tool in ctx.tools]
    total = estimate_tokens(sum(sizes))
    if total <= threshold:
        return
    top = sorted(range(len(sizes)), key=lambda i: (-sizes[i], i))[:5]
    largest = ", ".join(f"{_label(ctx.tools[i], i)} (~{estimate_tokens(sizes[i]):,})" for i in top)
    count = len(sizes)
    yield Hit(ctx.list_path, f"the {count} tool{'s' if count != 1 else ''} of this list take about {total:,} "
                    f"tokens of a model's context (name, description and input schema, estimated at "
                    f"{BYTES_PER_TOKEN} bytes per token), over max-toolset-tokens {threshold:,}; the largest: "
                    f"{largest}; offer fewer tools per request (split by task, or load them on demand) and shorten "
                    "the longest descriptions and schemas", anchor="key")
