"""Regular expressions compiled on first use, then kept (compiled once per process).

Compiling the security rules' expressions costs tens of milliseconds, and a lint run
needs only those whose gates some text opens (see `gates`), so nothing is compiled at
import. Compiling twice (two threads at once) gives equal patterns, so the one kept does
not matter.
"""

from __future__ import annotations

import re
from typing import Callable


class Lazy:
    """A regular expression compiled when first used (its source too may be made then)."""

    __slots__ = ("_source", "flags", "_pattern")

    def __init__(self, source: str | Callable[[], str], flags: int = 0):
        self._source = source
        self.flags = flags
        self._pattern: re.Pattern | None = None

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

    def __repr__(self) -> str:
        return f"Lazy({self._source!r}, {self.flags!r})"
