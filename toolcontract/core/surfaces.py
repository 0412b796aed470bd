"""What each provider surface accepts, in one place: tool name rules and the portable subset.

Facts from `tool-surfaces.md` (the project's digest of the providers' documentation and real API
errors): OpenAI (Chat and Responses) and Anthropic take `^[a-zA-Z0-9_-]{1,64}$`; Gemini a letter or
`_` first, then letters, digits and `_ . : -`, at most 128; MCP 1 to 128 characters of
`A-Za-z0-9_-.`. The portable subset every one of them accepts is `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`.
"""

from __future__ import annotations

import re

# surface family -> (pattern, what it allows); Anthropic and OpenAI read names the same way
NAME_RULES: dict[str, tuple[re.Pattern, str]] = {
    "openai": (re.compile(r"[A-Za-z0-9_-]{1,64}\Z"), "A-Z a-z 0-9 _ - only, 1 to 64 characters"),
    "anthropic": (re.compile(r"[A-Za-z0-9_-]{1,64}\Z"), "A-Z a-z 0-9 _ - only, 1 to 64 characters"),
    "gemini": (re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]{0,127}\Z"),
               "a letter or _ first, then A-Z a-z 0-9 _ . : -, at most 128 characters"),
    "mcp": (re.compile(r"[A-Za-z0-9_.-]{1,128}\Z"), "A-Z a-z 0-9 _ - . only, 1 to 128 characters (a SHOULD)"),
}
PORTABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}\Z")
PORTABLE_NAME_TEXT = "a letter or _ first, then A-Z a-z 0-9 _ -, at most 64 characters"

# the surface family whose rules a provider file's own format follows
FORMAT_FAMILY = {"mcp": "mcp", "openai-chat": "openai", "openai-responses": "openai", "anthropic": "anthropic",
                 "gemini": "gemini"}
FAMILY_LABEL = {"openai": "OpenAI", "anthropic": "Anthropic", "gemini": "Gemini", "mcp": "MCP"}


def surface_family(surface: str) -> str:
    """`openai-strict` -> `openai`: strict modes name tools as their surface does."""
    return surface.removesuffix("-strict")


def name_problem(name: str, family: str, allowed: str | None = None) -> str:
    """Why `name` breaks a family's name rule (or, with `family` "portable", the portable subset)."""
    if family == "portable":
        limit, charset, first_letter = 64, "_-", True
        allowed = allowed or PORTABLE_NAME_TEXT
    else:
        limit = 128 if family in ("gemini", "mcp") else 64
        charset = {"openai": "_-", "anthropic": "_-", "gemini": "_.:-", "mcp": "_.-"}[family]
        first_letter = family == "gemini"
        allowed = allowed or NAME_RULES[family][1]
    reasons = []
    if not name:
        reasons.append("it is empty")
    if len(name) > limit:
        reasons.append(f"it is {len(name)} characters long")
    if first_letter and name and not (name[0].isascii() and (name[0].isalpha() or name[0] == "_")):
        reasons.append(f"it starts with {name[0]!r}")
    bad = sorted({c for c in name if not (c.isascii() and (c.isalnum() or c in charset))})
    if bad:
        reasons.append("it contains " + ", ".join(repr(c) for c in bad[:8]))
    return f"{' and '.join(reasons) or 'it does not match'} (allowed: {allowed})"
