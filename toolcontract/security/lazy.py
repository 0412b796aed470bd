"""Regular expressions compiled on first use, then kept (compiled once per process).

Compiling the security rules' expressions costs tens of milliseconds, and a lint run
needs only those whose gates some text opens (see `gates`), so nothing is compiled at
import. Compiling twice (two threads at once) gives equal patterns, so the one kept does
not matter.
"""

from __future__ import annotations

import re
from typing import Callable, Iterator


# what a source must not hold to be searched lower-cased without IGNORECASE (see Lazy.lowered): an
# inline flag, or an escape that names a character by its code (which may be a capital letter)
_NOT_LOWERABLE = re.compile(r"\(\?[a-zA-Z-]*[iLau]|\\[xuUN0-7]")
# escapes and group names, whose letters are not literal characters
_NOT_LITERAL = re.compile(r"\\.|\(\?P[<=][^>)]*[>)]")
_UNSET = object()


def lower_safe(text: str) -> bool:
    """Whether `text.lower()` keeps every index and a case-sensitive match of a lower-case expression
    there finds what the case-insensitive one finds in the text (see Lazy.lowered): always for ASCII
    text, and for any other text without the four characters that fold to an ASCII letter. Those are
    the only characters a case-insensitive match of an ASCII letter accepts besides its two cases (İ
    and K also lower-case to ASCII; İ is the only character whose lower case is longer than one); each
    is looked for alone (four searches for one character are quicker than a class or a set)."""
    return text.isascii() or not ("\u0130" in text or "\u0131" in text or "\u017f" in text or "\u212a" in text)


def _simple_case(character: str) -> bool:
    """Whether case-insensitive matching of a (lower-case) character accepts just it and its one
    capital: ASCII, and the Latin letters of Latin-1 and Latin Extended-A (`é`, `ö`, `ç`, `ł`) but
    the dotless i, kra and ŉ; not Greek or Cyrillic, whose letters fold in more ways (σ, ς, Σ)."""
    return character.isascii() or ("\u00e0" <= character <= "\u00fe" and character != "\u00f7") or (
        "\u0100" <= character <= "\u017e" and character not in "\u0131\u0138\u0149")


class Lazy:
    """A regular expression compiled when first used (its source too may be made then)."""

    __slots__ = ("_source", "flags", "_pattern", "_lowered")

    def __init__(self, source: str | Callable[[], str], flags: int = 0):
        self._source = source
        self.flags = flags
        self._pattern: re.Pattern | None = None
        self._lowered: object = _UNSET

    @property
    def lowered(self) -> "Lazy | None":
        """This expression without IGNORECASE, for a text lower-cased as gates.View.low is (each index
        kept, none of the characters that fold to an ASCII letter), when it finds there the matches
        this one finds in the text: a case-insensitive source with no capital letter (outside escapes
        and group names), no letter that folds in more than two ways (_simple_case), no inline flag
        and no character named by its code. None otherwise.
        Compiling and matching without IGNORECASE cost less (no case folding of every literal)."""
        lowered = self._lowered
        if lowered is _UNSET:
            source, flags = self.source, self.flags
            lowered = None
            if flags & re.IGNORECASE and _NOT_LOWERABLE.search(source) is None:
                literal = _NOT_LITERAL.sub("", source)
                if literal == literal.lower() and all(map(_simple_case, set(literal))):
                    lowered = Lazy(source, flags & ~re.IGNORECASE)
            self._lowered = lowered
        return lowered  # type: ignore[return-value]

    def pattern_for(self, lower_cased: bool) -> re.Pattern:
        """The compiled expression to search a text with: for a lower-cased one (lower_safe), `lowered`'s,
        or this one where there is none (a case-insensitive expression finds the same there, unless it
        turns case-sensitivity back on inside); for the text as written, this one."""
        return (self.lowered or self).pattern if lower_cased else self.pattern

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


def led_finditer(pattern: re.Pattern, text: str, lead: re.Pattern, where: str | None = None) -> Iterator[re.Match]:
    """pattern.finditer(text), trying the expression only where `lead` is found in `where` (the text, or a
    text with the same indices, such as its lower case): the same matches, when every match of the
    expression begins where the lead's does (a try at a place is the search's try there). Quicker for an
    expression the engine cannot skip through (a case-insensitive one, or one led by a lookbehind or a
    word boundary) when its lead is a few literal words."""
    find, match, position = lead.search, pattern.match, 0
    where = text if where is None else where
    while True:
        candidate = find(where, position)
        if candidate is None:
            return
        start = candidate.start()
        found = match(text, start)
        if found is None:
            position = start + 1
            continue
        yield found
        position = found.end() if found.end() > start else start + 1


def led_search(pattern: re.Pattern, text: str, lead: re.Pattern, where: str | None = None) -> re.Match | None:
    """pattern.search(text) by led_finditer's rule: its first match."""
    return next(led_finditer(pattern, text, lead, where), None)
