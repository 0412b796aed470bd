"""Regular expressions compiled on first use, each with a faster twin for ASCII text.

Compiling the security rules' expressions costs tens of milliseconds, and a lint run
needs only those whose gates some text opens (see `gates`), so nothing is compiled at
import. A case-insensitive expression is slow in Python's `re`: every literal is compared
case-insensitively and an alternation of words is tried branch by branch at every
position. On ASCII text the same expression with its letters lower-cased and without
the flag, run on the lower-cased text, finds exactly the same spans (lower-casing ASCII
keeps every index, and word, digit and space classes do not depend on case) and runs
several times faster; `Lazy.on(view)` picks it when the text allows (see gates.view for
when that is so of non-ASCII text).
"""

from __future__ import annotations

import re
from typing import Any, Callable


_RANGE = re.compile(r"(?<!\\)([A-Za-z0-9])-([A-Za-z0-9])")  # `A-Z` in a class (or a hyphen between two)


def lowered(source: str) -> str | None:
    """`source` with every letter outside an escape or a group name lower-cased, for use
    without IGNORECASE on lower-cased ASCII text; None when that would not be the same
    expression (a case-sensitive part, inline flags, a non-ASCII character, a named escape)."""
    if not source.isascii() or "\\N" in source or any(
            not (a.islower() and b.islower() or a.isupper() and b.isupper() or a.isdigit() and b.isdigit())
            for a, b in _RANGE.findall(source)):
        return None
    out: list[str] = []
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if c == "\\":  # an escape is kept as written: \S is not \s, \B not \b
            out.append(source[i : i + 2])
            i += 2
            continue
        if c == "(" and source.startswith("(?", i):
            kind = source[i + 2 : i + 3]
            if kind == "P":  # (?P<name>...) or (?P=name): the name as written
                close = source.find(">" if source.startswith("(?P<", i) else ")", i)
                if close < 0:
                    return None
                out.append(source[i : close + 1])
                i = close + 1
                continue
            if kind not in (":", "=", "!", "<"):  # inline flags such as (?-i:...) or (?s)
                return None
            if kind == "<" and source[i + 3 : i + 4] not in ("=", "!"):
                return None
        out.append(c.lower())
        i += 1
    return "".join(out)


class Lazy:
    """A regular expression compiled when first used (its source too may be made then)."""

    __slots__ = ("_source", "flags", "_pattern", "_fast")

    def __init__(self, source: str | Callable[[], str], flags: int = 0):
        self._source = source
        self.flags = flags
        self._pattern: re.Pattern | None = None
        self._fast: Any = False  # not made yet; None: there is none

    @property
    def source(self) -> str:
        source = self._source
        if not isinstance(source, str):
            source = self._source = source()
        return source

    @property
    def pattern(self) -> re.Pattern:
        pattern = self._pattern
        if pattern is None:
            pattern = self._pattern = re.compile(self.source, self.flags)
        return pattern

    @property
    def fast(self) -> re.Pattern | None:
        """The twin for lower-cased ASCII text (None if there is none: the expression is not
        case-insensitive, or cannot be rewritten)."""
        fast = self._fast
        if fast is False:
            source = lowered(self.source) if self.flags & re.IGNORECASE else None
            fast = self._fast = None if source is None else re.compile(source, self.flags & ~re.IGNORECASE)
        return fast

    def on(self, view: Any) -> tuple[re.Pattern, str]:
        """The expression and the text to run it on for a gates.View: the twin on the
        lower-cased text when the view has one, else the expression on the text. Spans are
        the same either way."""
        if view.low is not None:
            fast = self._fast
            if fast is False:
                fast = self.fast
            if fast is not None:
                return fast, view.low
        pattern = self._pattern
        return (pattern if pattern is not None else self.pattern), view.text

    def __repr__(self) -> str:
        return f"Lazy({self._source!r}, {self.flags!r})"
