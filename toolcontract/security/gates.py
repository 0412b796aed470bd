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

from toolcontract.security.lazy import Lazy
from toolcontract.security.unicode import ascii_control, normalized

_WORDS = Lazy(r"[a-z]+")
# ASCII text as bytes: every byte but a-z made a space, so split() gives what _WORDS finds
_LETTERS_ONLY = bytes(c if 0x61 <= c <= 0x7A else 0x20 for c in range(256))


class View:
    """A text as the security patterns read it (made by `view`; never changed)."""

    __slots__ = ("text", "where", "opened", "low", "words")

    def __init__(self, text: str, where: list[int] | None, opened: frozenset, low: str | None = None,
                 words: frozenset = frozenset()):
        self.text = text  # as the model reads it (see unicode.normalized)
        self.where = where  # each character's index in the original, when it differs
        self.opened = opened  # ids of the patterns whose gate the text passes
        self.low = low  # `text` lower-cased, when that reads as case-insensitive matching does (see view)
        self.words = words  # the words (bytes) of the lower-cased text that a gate or a filter names

    def __repr__(self) -> str:
        return f"View({self.text!r}, opened={sorted(self.opened)})"

    def original(self, start: int, end: int) -> tuple[int, int]:
        """A span of `text` as a span of the original string."""
        where = self.where
        if where is None:
            return start, end
        if not where:
            return 0, 0
        last = len(where) - 1
        return where[min(start, last)], where[min(max(end - 1, start), last)] + 1

    def passes(self, needs: "Filter") -> bool:
        """Whether the text meets a filter (see `compile_filter`); always true when `low` is
        None (a text whose lower-cased form may not be what a case-insensitive match reads)."""
        low = self.low
        if low is None:
            return True
        words = self.words
        for alternative in needs:
            for any_words, any_strings, any_patterns in alternative:
                if not any_words.isdisjoint(words):
                    continue  # this requirement is met
                met = False
                for string in any_strings:
                    if string in low:
                        met = True
                        break
                if not met:
                    for pattern in any_patterns:
                        if pattern.pattern.search(low) is not None:
                            met = True
                            break
                if not met:
                    break  # the alternative fails
            else:
                return True
        return False


# A filter: a pattern (whose gate is open) runs only when the text meets one of the
# filter's alternatives, each a list of requirements "a b =c ; re:d\s*:": a word (letters), a
# substring (anything else, or letters after `=`) or a match of a regular expression (after
# `re:`, searched in the lower-cased text) of each requirement must be in the lower-cased
# text. Like a gate, a filter only has to be necessary for a match: write a word only where
# every match has it as a whole run of letters (`\bword\b`, `word\s+`), a substring
# otherwise. Unlike a gate, it does not count towards the scan budget, and it is checked
# only where the lower-cased text reads as case-insensitive matching does (see View.passes).
Filter = tuple  # tuple[tuple[tuple[frozenset[str], tuple[str, ...]], ...], ...]


def compile_filter(alternatives: tuple[tuple[str, ...], ...]) -> Filter:
    """A filter as View.passes reads it: per requirement, its words (as bytes, as View.words
    holds them), substrings and compiled-on-first-use expressions."""
    compiled = []
    for alternative in alternatives:
        requirements = []
        for requirement in alternative:
            atoms = requirement.split()
            words = frozenset(a for a in atoms if a.isalpha() and a.islower())
            patterns = tuple(Lazy(a[3:]) for a in atoms if a.startswith("re:"))
            strings = tuple(a[1:] if a.startswith("=") else a for a in atoms
                            if a not in words and not a.startswith("re:"))
            assert all(s == s.lower() for s in strings), requirement
            requirements.append((frozenset(w.encode("ascii") for w in words), strings, patterns))
        compiled.append(tuple(requirements))
    return tuple(compiled)


def filter_words(needs: Filter) -> frozenset:
    return frozenset(w.decode("ascii") for alternative in needs for words, _, _ in alternative for w in words)


class GateTable:
    def __init__(self, gates: dict[str, tuple[str, ...]], filter_words: frozenset = frozenset()):
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
        # every word a gate (or a filter, see View.passes) looks at: a text's other words are
        # dropped at once
        self.all_words = frozenset(self.words).union(self.pairs, *(r for p in self.pairs.values() for _, r in p),
                                                     filter_words)
        self.all_bytes = frozenset(w.encode("ascii") for w in self.all_words)
        # the same tables keyed by bytes: open() reads an ASCII text's words as bytes (no
        # str made for each), and View.words holds them so
        self._word_gates = {w.encode("ascii"): ids for w, ids in self.words.items()}
        self._word_bytes = frozenset(self._word_gates)
        self._pairs = {w.encode("ascii"): tuple((gate_id, frozenset(r.encode("ascii") for r in rest))
                                               for gate_id, rest in p) for w, p in self.pairs.items()}
        self._pair_bytes = frozenset(self._pairs)
        self._chunks: dict[tuple[frozenset, frozenset], frozenset] = {}  # (words, marks) -> gates opened
        # one scan for the substrings that start with punctuation or a digit (the regex engine
        # skips letters at once); a found one also opens the gates of those inside it (the scan
        # does not report matches that overlap an earlier one). Substrings that start with a
        # letter are few and tested with `in`.
        ordered = sorted((m for m in marks if not m[0].isalpha()), key=len, reverse=True)
        self.mark_pattern = re.compile("|".join(map(re.escape, ordered)))
        # every byte but the first characters of those substrings (ASCII)
        self.not_mark_starts = bytes(set(range(256)) - {ord(m[0]) for m in ordered})
        self.marks = {m: frozenset().union(*(marks[o] for o in ordered if o in m)) for m in ordered}
        # substrings that start with a letter, by the gates they open: `in` for each (quicker
        # than one regex for them all), and none once their gates are open
        by_gates: dict[frozenset, list[str]] = {}
        for m, ids in marks.items():
            if m[0].isalpha():
                by_gates.setdefault(frozenset(ids), []).append(m)
        self.letter_marks = tuple((ids, tuple(ms)) for ids, ms in by_gates.items())

    def open(self, low: str) -> tuple[frozenset, frozenset]:
        """The gates a lower-cased text opens, and its words (bytes) that a gate or a filter names."""
        # a text of 160 characters or more is read as its lines and sentences, so a substring
        # ending with the full stop of ". " is not seen (as ever: gates decide the scan budget)
        read = low.replace(". ", "\n") if len(low) >= 160 else low
        if read.isascii():  # as bytes: split() in C instead of a match object per word
            data = read.encode("ascii")
            words = self.all_bytes.intersection(data.translate(_LETTERS_ONLY).split())
            # the scan for substrings costs far more than these str and bytes methods: skip it
            # when no substring can start anywhere (no first character of one, or only full
            # stops that end a sentence)
            starts = data.translate(None, self.not_mark_starts)
            if not starts or (starts.count(b".") == len(starts) and read.count(".") == read.count(". ")
                              + read.count(".\n") + read.endswith(".")):
                marks = _NONE
            else:
                marks = frozenset(self.mark_pattern.findall(read))
        else:
            words = self.all_bytes.intersection([w.encode("ascii") for w in _WORDS.pattern.findall(read)])
            marks = frozenset(self.mark_pattern.findall(read))
        if words or marks:
            key = (words, marks)
            opened = self._chunks.get(key)  # texts share their few gate words: memoised on them
            if opened is None:
                opened = self._chunks[key] = self._opened(words, marks)
        else:
            opened = _NONE
        for ids, letter_marks in self.letter_marks:
            if not ids <= opened:
                for mark in letter_marks:
                    if mark in low:
                        opened = opened | ids
                        break
        return opened, words

    def _opened(self, words: frozenset, marks: frozenset) -> frozenset:
        if len(self._chunks) > 512:
            self._chunks.clear()
        found: set[str] = set()
        table = self._word_gates
        for word in words & self._word_bytes:
            found |= table[word]
        pairs = self._pairs
        for head in words & self._pair_bytes:
            for gate_id, rest in pairs[head]:
                if not rest.isdisjoint(words):
                    found.add(gate_id)
        for mark in marks:
            found |= self.marks[mark]
        return frozenset(found)


_NONE: frozenset = frozenset()


_TABLE: GateTable | None = None


def _table() -> GateTable:
    global _TABLE
    if _TABLE is None:
        from toolcontract.security import payloads, secrets, signals

        _TABLE = GateTable({**signals.GATES, **payloads.GATES, **secrets.GATES},
                           frozenset().union(*map(filter_words, (*signals.NEEDS.values(), *payloads.NEEDS.values()))))
    return _TABLE


# the only characters that a case-insensitive match of an ASCII letter accepts besides the
# letter's two cases (İ and K also lower-case to ASCII; İ is the only character whose lower
# case is longer than one character)
_NOT_LOWER_SAFE = Lazy("[\u0130\u0131\u017f\u212a]")


# a text's analysis asks for its view several times, and few texts are asked for later: a
# small cache (what it keeps lives long, and long-lived objects bring full garbage collections)
@functools.lru_cache(maxsize=512)
def view(text: str) -> View:
    """The text as a model reads it, and which gates it opens (memoised: texts recur).

    `low` is the lower-cased text when it keeps every index and a case-sensitive match of a
    lower-cased ASCII pattern on it finds what the case-insensitive one finds on the text:
    always for ASCII text, and for any other text without the four characters that
    case-insensitive matching folds to an ASCII letter (word, digit and space classes do
    not depend on case)."""
    if text.isascii() and (text.isprintable() or not ascii_control(text)):
        normal, where = text, None  # what normalized() returns for it, without the call
    else:
        normal, where = normalized(text)
    low = normal.lower()
    opened, words = (_TABLE or _table()).open(low)
    if not normal.isascii() and _NOT_LOWER_SAFE.pattern.search(normal) is not None:
        return View(normal, where, opened, None, words)
    return View(normal, where, opened, low, words)


def plain_view(text: str) -> View:
    """view() of an ASCII text without control characters (the caller knows it is one), not
    memoised: the scan reads each new string once and hands its view to every scorer."""
    low = text.lower()
    opened, words = (_TABLE or _table()).open(low)
    return View(text, None, opened, low, words)
