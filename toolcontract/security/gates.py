"""Cheap tests that decide which patterns are worth running on a text.

Every pattern of the security rules (phrase signals, payloads, secret formats) has a
gate: words or substrings one of which each of its matches contains. A text is read
once — its normalised form, its words, and which gate strings it holds — and only the
patterns whose gate is open run. Most strings open none, so most strings cost a few
set operations. A gate only has to be necessary for a match, never sufficient.

Gate entries: a plain word must appear as a word (a run of letters), `a|b & c|d` needs
a word of each side, `=text` and anything not made of letters is a substring of the
lower-cased text.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from toolcontract.security.unicode import normalized

_WORDS = re.compile(r"[a-z]+")
_PIECES = re.compile(r"\n|\. ")


@dataclass(frozen=True, slots=True)
class View:
    text: str  # as the model reads it (see unicode.normalized)
    where: list[int] | None  # each character's index in the original, when it differs
    opened: frozenset  # ids of the patterns whose gate the text passes

    def original(self, start: int, end: int) -> tuple[int, int]:
        """A span of `text` as a span of the original string."""
        where = self.where
        if where is None:
            return start, end
        if not where:
            return 0, 0
        last = len(where) - 1
        return where[min(start, last)], where[min(max(end - 1, start), last)] + 1


class GateTable:
    def __init__(self, gates: dict[str, tuple[str, ...]]):
        words: dict[str, set[str]] = {}
        pairs: dict[str, dict[str, set[str]]] = {}  # word -> gate -> words one of which must be there too
        marks: dict[str, set[str]] = {}
        for gate_id, entries in gates.items():
            for entry in entries:
                if " & " in entry:  # "a|b & c|d": one word of each side
                    left, right = (side.strip().split("|") for side in entry.split(" & "))
                    for head in left:
                        pairs.setdefault(head, {}).setdefault(gate_id, set()).update(right)
                elif entry.startswith("="):
                    marks.setdefault(entry[1:], set()).add(gate_id)
                elif entry.isalpha():
                    words.setdefault(entry, set()).add(gate_id)
                else:
                    marks.setdefault(entry, set()).add(gate_id)
        self.words = {w: frozenset(ids) for w, ids in words.items()}
        self.word_set = frozenset(self.words)
        self.pairs = {w: tuple((gate_id, frozenset(rest)) for gate_id, rest in p.items()) for w, p in pairs.items()}
        self.pair_heads = frozenset(self.pairs)
        # every word a gate looks at: a text's other words are dropped at once
        self.all_words = frozenset(self.words).union(self.pairs, *(r for p in self.pairs.values() for _, r in p))
        self._chunks: dict[str, tuple[frozenset, frozenset]] = {}
        # one scan for the substrings that start with punctuation or a digit (the regex engine
        # skips letters at once); a found one also opens the gates of those inside it (the scan
        # does not report matches that overlap an earlier one). Substrings that start with a
        # letter are few and tested with `in`.
        ordered = sorted((m for m in marks if not m[0].isalpha()), key=len, reverse=True)
        self.mark_pattern = re.compile("|".join(map(re.escape, ordered)))
        self.marks = {m: frozenset().union(*(marks[o] for o in ordered if o in m)) for m in ordered}
        self.letter_marks = tuple((m, frozenset(ids)) for m, ids in marks.items() if m[0].isalpha())

    def _chunk(self, low: str) -> tuple[frozenset, frozenset]:
        """The gate words and the marks of a piece of text (memoised)."""
        found = self._chunks.get(low)
        if found is None:
            if len(self._chunks) > 100_000:
                self._chunks.clear()
            words = self.all_words.intersection(_WORDS.findall(low))
            found = self._chunks[low] = (words, frozenset(self.mark_pattern.findall(low)))
        return found

    def open(self, low: str) -> frozenset:
        if len(low) < 160:
            words, marks = self._chunk(low)
        else:
            # long texts are read by line and sentence: versions of a description share most of
            # them, and neither a word nor a gate substring spans a line break or ". "
            words, marks = set(), set()
            for piece in _PIECES.split(low):
                w, m = self._chunk(piece)
                words |= w
                marks |= m
        opened: set[str] = set()
        for word in words & self.word_set:
            opened |= self.words[word]
        for head in words & self.pair_heads:
            for gate_id, rest in self.pairs[head]:
                if not rest.isdisjoint(words):
                    opened.add(gate_id)
        for mark in marks:
            opened |= self.marks[mark]
        for mark, ids in self.letter_marks:
            if mark in low:
                opened |= ids
        return frozenset(opened)


_TABLE: GateTable | None = None


def _table() -> GateTable:
    global _TABLE
    if _TABLE is None:
        from toolcontract.security import payloads, secrets, signals

        _TABLE = GateTable({**signals.GATES, **payloads.GATES, **secrets.GATES})
    return _TABLE


@functools.lru_cache(maxsize=32768)
def view(text: str) -> View:
    """The text as a model reads it, and which gates it opens (memoised: texts recur)."""
    normal, where = normalized(text)
    return View(normal, where, _table().open(normal.lower()))
