"""TC517 toolset-context-cost: The tool list costs more context than `max-toolset-tokens` (20,000 by default), as a model reads it."""

from __future__ import annotations

import json
from typing import Any, Iterator

from toolcontract.core.descriptor import ToolView, model_description
from toolcontract.lint.context import ListContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.core.model import Severity


# Bytes of a tool's model view (see `model_view`) per token, measured with real tokenizers
# on the corpus's real tool lists by bench/token_cost.py (figures in TC517's rationale).
BYTES_PER_TOKEN = 4.3

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


RULE = Rule(
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
        Bad(_INVOICE_TOOLS, line=2, column=1, message="over max-toolset-tokens 100",
            options={"max-toolset-tokens": 100}, note="about 150 tokens in two tools"),
        Good(_INVOICE_TOOLS, note="the same list under the default threshold"),
    ),
    scope="list",
)


def check(ctx: ListContext) -> Iterator[Hit]:
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
