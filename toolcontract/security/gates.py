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
from typing import Any, Iterable

from toolcontract.security import ascii_control
from toolcontract.security.lazy import Lazy, lower_safe

# A text's words are its runs of a-z letters (what `[a-z]+` finds in the lower-cased text): found as
# bytes, every byte but a-z made a space (and every other character a `?` first), so split() gives them
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
        plain = low.isascii()  # then only the ASCII substrings can be in it
        for alternative in needs:
            for any_words, any_strings, ascii_strings, any_patterns in alternative:
                if not any_words.isdisjoint(words):
                    continue  # this requirement is met
                met = False
                for string in (ascii_strings if plain else any_strings):
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
    holds them), substrings and compiled-on-first-use expressions; each alternative's requirements
    cheapest first (all must be met: a text that lacks one is told by the fewest tests)."""
    return tuple(tuple(sorted(map(_requirement, alternative), key=_tests)) for alternative in alternatives)


def _tests(requirement: tuple) -> int:
    """What telling that a text lacks a requirement costs, roughly: a test for each substring, more for
    an expression (its words are one set operation)."""
    return len(requirement[1]) + 4 * len(requirement[3])


# requirements recur across filters (a list of verbs in each alternative of one): each is
# compiled once, and its expressions shared
@functools.cache
def _requirement(requirement: str) -> tuple[frozenset, tuple, tuple]:
    atoms = requirement.split()
    words = [a for a in atoms if a.isalpha() and a.islower()]
    others = [a for a in atoms if not (a.isalpha() and a.islower())]
    patterns = tuple(Lazy(a[3:]) for a in others if a.startswith("re:"))
    strings = tuple(a[1:] if a.startswith("=") else a for a in others if not a.startswith("re:"))
    assert all(s == s.lower() for s in strings), requirement
    return (frozenset(" ".join(words).encode("ascii").split()), strings, tuple(filter(str.isascii, strings)),
            patterns)


def filter_words(needs: Filter) -> frozenset:
    return frozenset(w.decode("ascii") for alternative in needs for words, *_ in alternative for w in words)


def words_of_filters(filters: Iterable[tuple[tuple[str, ...], ...]]) -> frozenset:
    """The words of filters not yet compiled: what filter_words finds in them once compiled
    (the gate table needs them all, and a run compiles few filters)."""
    atoms = set(" ".join(r for alternatives in filters for alternative in alternatives for r in alternative).split())
    return frozenset(filter(str.islower, filter(str.isalpha, atoms)))


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
        self.all_bytes = frozenset(_encoded(self.all_words))
        # the same tables keyed by bytes: open() reads an ASCII text's words as bytes (no
        # str made for each), and View.words holds them so
        self._word_gates = {w.encode("ascii"): ids for w, ids in self.words.items()}
        self._word_bytes = frozenset(self._word_gates)
        self._pairs = {w.encode("ascii"): tuple((gate_id, frozenset(_encoded(rest))) for gate_id, rest in p)
                       for w, p in self.pairs.items()}
        self._pair_bytes = frozenset(self._pairs)
        # the words that decide which gates open (a gate's, or either side of a pair's): a text's
        # others (a filter's) open none, so its gates are memoised on these
        self._gate_bytes = self._word_bytes.union(self._pair_bytes, *(r for p in self._pairs.values() for _, r in p))
        self._chunks: dict[tuple[frozenset, frozenset], frozenset] = {}  # (words, marks) -> gates opened
        # the substrings that start with punctuation or a digit: found by one scan (the regex
        # engine skips letters at once); a found one also opens the gates of those inside it (the
        # scan does not report matches that overlap an earlier one). Substrings that start with a
        # letter are few and tested with `in`.
        ordered = sorted((m for m in marks if not m[0].isalpha()), key=len, reverse=True)
        self._ordered = ordered
        self._mark_pattern: re.Pattern | None = None
        self._mark_scan: re.Pattern | None = None
        # every byte but the first characters of those substrings (ASCII)
        self.not_mark_starts = bytes(set(range(256)) - {ord(m[0]) for m in ordered})
        self.marks = {m: frozenset().union(*[marks[o] for o in ordered if o in m]) for m in ordered}
        # How open() finds them without the scan where it can, by first character: a lone one
        # (a substring by itself that starts no other and is inside none: `;`, `'`, `@`) is found
        # wherever it is, alone; one whose substrings are all longer (`/etc/`, `169.254.169.254`)
        # starts no match unless one of them is in the text. If every first character in a text
        # is one of these, or a full stop that ends a sentence (no substring starts with ". "),
        # the scan would find just the lone characters (no other match to overlap them).
        self._starts: dict[int, tuple[str, ...] | None] = {}  # character -> its substrings; None: lone
        singles = {m for m in ordered if len(m) == 1}
        for m in singles:
            if not any(m in o for o in ordered if o != m):
                self._starts[ord(m)] = None
        for m in ordered:
            if m[0] not in singles:
                self._starts[ord(m[0])] = self._starts.get(ord(m[0]), ()) + (m,)
        self._starts.pop(ord("."), None)  # full stops: read apart
        self._lone_starts: dict[bytes, Any] = {}  # a text's first characters -> what _lone makes of them
        # substrings that start with a letter, by the gates they open: `in` for each (quicker
        # than one regex for them all), and none once their gates are open; a character all of
        # a group's substrings have (not a letter) is looked for first
        by_gates: dict[frozenset, list[str]] = {}
        for m, ids in marks.items():
            if m[0].isalpha():
                by_gates.setdefault(frozenset(ids), []).append(m)
        self.letter_marks = tuple((ids, tuple(ms)) for ids, ms in by_gates.items())
        self._letter_marks = tuple(
            (ids, next(iter(sorted(c for c in set.intersection(*map(set, ms)) if not c.isalpha())), ""), tuple(ms))
            for ids, ms in by_gates.items())
        # the same by first character, for text not in ASCII (most such substrings are in other
        # scripts, and a text holds the first characters of few): only those it starts are tested
        by_first: dict[str, list[tuple[str, frozenset]]] = {}
        for ids, ms in by_gates.items():
            for m in ms:
                by_first.setdefault(m[0], []).append((m, ids))
        self._by_first = {c: tuple(ms) for c, ms in by_first.items()}
        self._firsts = frozenset(by_first)

    @property
    def mark_pattern(self) -> re.Pattern:
        """The substrings that start with punctuation or a digit as one alternation, longest
        first: what open() finds (it runs mark_scan, the same matches)."""
        if self._mark_pattern is None:
            self._mark_pattern = re.compile("|".join(map(re.escape, self._ordered)))
        return self._mark_pattern

    @property
    def mark_scan(self) -> re.Pattern:
        """mark_pattern with its alternatives grouped by first character (compiled on first
        use: most texts need no scan). At any position mark_pattern takes its first alternative
        that matches there, the longest substring starting there; so does this, whose groups
        keep that order, so both find the same matches. Each alternative starting with a
        literal lets the engine skip to a possible first character, and at one it tries a few
        alternatives rather than all."""
        if self._mark_scan is None:
            groups: dict[str, list[str]] = {}
            for mark in self._ordered:
                groups.setdefault(mark[0], []).append(mark)
            self._mark_scan = re.compile("|".join(
                re.escape(first) + ("" if group == [first] else
                                    "(?:" + "|".join(re.escape(m[1:]) for m in group) + ")")
                for first, group in groups.items()))
        return self._mark_scan

    def open(self, low: str) -> tuple[frozenset, frozenset]:
        """The gates a lower-cased text opens, and its words (bytes) that a gate or a filter names."""
        # a text of 160 characters or more is read as its lines and sentences, so a substring
        # ending with the full stop of ". " is not seen (as ever: gates decide the scan budget)
        read = low.replace(". ", "\n") if len(low) >= 160 else low
        if read.isascii():  # as bytes: split() in C instead of a match object per word
            data = read.encode("ascii")
            words = self.all_bytes.intersection(data.translate(_LETTERS_ONLY).split())
            # the scan for substrings costs far more than these str and bytes methods: skip it
            # when no substring can start anywhere but at a lone character (see __init__), most
            # often when the only one is a full stop that ends the text
            starts = data.translate(None, self.not_mark_starts)
            if not starts or (starts == b"." and read[-1] == "."):
                marks = _NONE
            else:
                marks = self._marks(read, starts)
        else:
            # each other character made one `?` (a non-letter): the same a-z runs, found in C
            words = self.all_bytes.intersection(read.encode("ascii", "replace").translate(_LETTERS_ONLY).split())
            marks = frozenset(self.mark_scan.findall(read))
        deciding = words & self._gate_bytes if words else words
        if deciding or marks:
            key = (deciding, marks)
            opened = self._chunks.get(key)  # texts share their few gate words: memoised on them
            if opened is None:
                opened = self._chunks[key] = self._opened(deciding, marks)
        else:
            opened = _NONE
        if read.isascii():
            for ids, hint, letter_marks in self._letter_marks:
                if not ids <= opened and (not hint or hint in low):
                    for mark in letter_marks:
                        if mark in low:
                            opened = opened | ids
                            break
        else:
            by_first = self._by_first
            for first in self._firsts.intersection(low):
                for mark, ids in by_first[first]:
                    if not ids <= opened and mark in low:
                        opened = opened | ids
        return opened, words

    def _marks(self, read: str, starts: bytes) -> frozenset:
        """What mark_scan.findall(read) finds, as a set, given the first characters of
        substrings in read (ASCII) in order: without the scan when those allow (see __init__)."""
        dots = starts.count(b".")
        if dots and (dots > 1 or read[-1] != ".") and \
                read.count(". ") + read.count(".\n") + read.endswith(".") != dots:
            return frozenset(self.mark_scan.findall(read))  # a full stop inside a sentence
        lone = self._lone_starts.get(starts)
        if lone is None:
            lone = self._lone(starts)
            if len(starts) <= 64:  # texts share their few first characters: memoised on them
                if len(self._lone_starts) > 256:
                    self._lone_starts.clear()
                self._lone_starts[starts] = lone
        if lone is False:
            return frozenset(self.mark_scan.findall(read))
        for substrings in lone[1]:
            for substring in substrings:
                if substring in read:
                    return frozenset(self.mark_scan.findall(read))
        return lone[0]

    def _lone(self, starts: bytes) -> Any:
        """For the first characters of a text's substrings (each full stop ending a sentence):
        the lone ones found, and the substrings to look for that start with the others (if one
        is there, the text needs the scan); False if one may start a match anyway."""
        found, longer = [], []
        for code in sorted(set(starts.replace(b".", b""))):
            if code not in self._starts:
                return False
            substrings = self._starts[code]
            if substrings is None:
                found.append(chr(code))
            else:
                longer.append(substrings)
        return frozenset(found), tuple(longer)

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


def words_of(low: str) -> frozenset:
    """The words (bytes: runs of a-z letters) of a lower-cased text, as View.words holds them, all
    of them (a filter reads any superset of the words a table names as it reads those)."""
    # other characters made one `?` each (a non-letter): the same runs
    return frozenset(low.encode("ascii", "replace").translate(_LETTERS_ONLY).split())


def _encoded(words: Iterable[str]) -> list[bytes]:
    """ASCII words as bytes, in one pass."""
    return " ".join(words).encode("ascii").split()


@functools.cache
def _table() -> GateTable:
    """The gates of every signal, payload and secret, built once, on first use."""
    from toolcontract.security import collection, intent, payloads, secrets, signals

    # the intent features' gates for ASCII text (security.intent reads other text apart, unfolded);
    # TC611's data words kept in each view's words, so that the scan tests its gate with them
    return GateTable({**signals.GATES, **payloads.GATES, **secrets.GATES, **intent.ascii_gates()},
                     words_of_filters((*signals.FILTERS.values(), *payloads.FILTERS.values(),
                                       *intent.FILTERS.values())).union(w.decode() for w in collection.GATE_ASCII))


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
        from toolcontract.security.unicode import normalized  # only such text needs the Unicode tables

        normal, where = normalized(text)
    low = normal.lower()
    opened, words = _table().open(low)
    return View(normal, where, opened, low if lower_safe(normal) else None, words)


def plain_view(text: str) -> View:
    """view() of an ASCII text without control characters (the caller knows it is one), not
    memoised: the scan reads each new string once and hands its view to every scorer."""
    low = text.lower()
    opened, words = _table().open(low)
    return View(text, None, opened, low, words)


def plain_reading(text: str) -> tuple[View | None, frozenset]:
    """plain_view(text) when the text opens a gate, else None (most texts open none: the scan then
    needs no view); and the text's words that the table names (View.words: those of every gate and
    filter, and TC611's data words, `collection.GATE_ASCII`, which open no gate)."""
    low = text.lower()
    opened, words = _table().open(low)
    return (View(text, None, opened, low, words) if opened else None), words
