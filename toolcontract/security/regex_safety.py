"""Regular expressions prone to catastrophic (exponential) backtracking.

JSON Schema `pattern`s are ECMA-262 expressions, and most validators run them on a
backtracking engine (JavaScript, Python's `re`, PCRE, .NET): a pattern that can match
the same text in many ways takes time exponential in the input's length when a match
fails. toolcontract itself evaluates patterns with a linear-time engine (jsonschema-rs
with the `regex` crate), so this is about every other client of the schema.

The heuristic, applied to each group repeated without a small bound (`*`, `+`,
`{n,}`, or `{n,m}` with m > 10) — `R = (B)*`:

1. **nested quantifier**: B holds a repeated element `I` (`x+`, `x*`, `x{2,}`) and every
   other element B requires can be made of characters `I` takes too: `(a+)+`,
   `(\\w+\\s?)*`, `(.*,)*`, `(\\d+\\d)*`, `(([a-z])+.)+`. A run of those characters
   then splits between the inner and the outer repetition in many ways, and a failing
   match tries every split. `([a-z]+,)*` is fine: each round must end with a comma.
2. **overlapping alternatives**: B holds an alternation with two branches that can
   match the same text, or one spelled by repeating the other: `(a|a)*`, `(\\w|\\d)+`,
   `(.|\\s)*`, `(\\d+|\\w+)*`, `(a|aa)+`.
3. **adjacent quantifiers**: B holds two repeated elements, with only optional ones
   between them, that can consume a common character: `(\\d+\\d+x)*`.

Character sets are compared over a sample alphabet (printable ASCII, a few non-ASCII
letters and spaces, and every character the pattern names), so `\\p{L}`, negated
classes and `.` are approximated. Patterns that only need polynomial time
(`^\\d+\\d+$`, `.*a.*b`) are not reported; patterns that do not parse are TC410's.
"""

from __future__ import annotations

import functools

from toolcontract.security.records import Record

_MAX_LENGTH = 20_000
_MAX_DEPTH = 200
_BIG = 10  # an upper bound above this counts as unbounded
_EXTRA = "\t\n\r\u00a0\u2028\ufeff\u00e9\u0430\u4e2d"


class _Unsupported(Exception):
    pass


class Node:
    """A node of a parsed pattern (a plain class: a dataclass costs a millisecond to create, at the
    first pattern a lint run reads)."""

    __slots__ = ("kind", "start", "end", "chars", "items", "lo", "hi")

    def __init__(self, kind: str, start: int, end: int, chars: frozenset = frozenset(), items: list | None = None,
                 lo: int = 0, hi: int | None = None):
        self.kind = kind  # char | seq | alt | repeat | group | look | empty | backref
        self.start = start
        self.end = end
        self.chars = chars  # for char
        self.items = [] if items is None else items  # seq / alt children; repeat / group / look: one child
        self.lo = lo
        self.hi = hi  # None: unbounded


class _Parser:
    def __init__(self, pattern: str):
        self.p = pattern
        self.i = 0
        self.depth = 0
        self.alphabet = frozenset(chr(c) for c in range(0x20, 0x7F)) | frozenset(_EXTRA) | frozenset(pattern)
        self.digit = frozenset("0123456789")
        self.word = frozenset(c for c in self.alphabet if c.isascii() and (c.isalnum() or c == "_"))
        self.space = frozenset(c for c in self.alphabet if c.isspace() or c == "\ufeff")
        self.letter = frozenset(c for c in self.alphabet if c.isalpha())
        self.any = self.alphabet - frozenset("\n\r\u2028\u2029")

    def parse(self) -> Node:
        node = self.alternation()
        if self.i != len(self.p):
            raise _Unsupported
        return node

    def alternation(self) -> Node:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise _Unsupported
        start = self.i
        options = [self.sequence()]
        while self.i < len(self.p) and self.p[self.i] == "|":
            self.i += 1
            options.append(self.sequence())
        self.depth -= 1
        return options[0] if len(options) == 1 else Node("alt", start, self.i, items=options)

    def sequence(self) -> Node:
        start = self.i
        items: list[Node] = []
        while self.i < len(self.p) and self.p[self.i] not in "|)":
            atom = self.atom()
            items.append(self.quantified(atom))
        return Node("seq", start, self.i, items=items)

    def quantified(self, atom: Node) -> Node:
        p = self.p
        while self.i < len(p):
            c = p[self.i]
            if c in "*+?":
                lo, hi = {"*": (0, None), "+": (1, None), "?": (0, 1)}[c]
                self.i += 1
            elif c == "{" and self._brace():
                lo, hi = self._brace_value()
            else:
                break
            if self.i < len(p) and p[self.i] in "?+":  # lazy (ECMA) or possessive (elsewhere)
                self.i += 1
            atom = Node("repeat", atom.start, self.i, items=[atom], lo=lo, hi=hi)
        return atom

    def _brace(self) -> bool:
        j = self.p.find("}", self.i)
        body = self.p[self.i + 1 : j] if j > 0 else ""
        parts = body.split(",")
        return j > 0 and 1 <= len(parts) <= 2 and parts[0].isdigit() and all(x.isdigit() or x == "" for x in parts[1:])

    def _brace_value(self) -> tuple[int, int | None]:
        j = self.p.find("}", self.i)
        parts = self.p[self.i + 1 : j].split(",")
        self.i = j + 1
        lo = min(int(parts[0][:6]), 10**6)
        if len(parts) == 1:
            return lo, lo
        return lo, (min(int(parts[1][:6]), 10**6) if parts[1] else None)

    def atom(self) -> Node:
        p, start = self.p, self.i
        c = p[self.i]
        if c == "(":
            self.i += 1
            kind = "group"
            if p.startswith("?:", self.i):
                self.i += 2
            elif p.startswith(("?=", "?!"), self.i):
                self.i += 2
                kind = "look"
            elif p.startswith(("?<=", "?<!"), self.i):
                self.i += 3
                kind = "look"
            elif p.startswith(("?<", "?P<"), self.i):
                close = p.find(">", self.i)
                if close < 0:
                    raise _Unsupported
                self.i = close + 1
            elif p.startswith("?", self.i):
                raise _Unsupported
            inner = self.alternation()
            if self.i >= len(p) or p[self.i] != ")":
                raise _Unsupported
            self.i += 1
            return Node(kind, start, self.i, items=[inner])
        if c == "[":
            return self.char_class()
        if c == "\\":
            return self.escape(in_class=False)
        if c in "^$":
            self.i += 1
            return Node("empty", start, self.i)
        if c == ".":
            self.i += 1
            return Node("char", start, self.i, chars=self.any)
        if c in ")":
            raise _Unsupported
        self.i += 1
        return Node("char", start, self.i, chars=frozenset(c))

    def escape(self, in_class: bool) -> Node:
        p, start = self.p, self.i
        self.i += 1
        if self.i >= len(p):
            raise _Unsupported
        c = p[self.i]
        self.i += 1
        classes = {"d": self.digit, "w": self.word, "s": self.space}
        if c in classes:
            return Node("char", start, self.i, chars=classes[c])
        if c.lower() in classes:
            return Node("char", start, self.i, chars=self.alphabet - classes[c.lower()])
        if c in "pP" and self.i < len(p) and p[self.i] == "{":
            close = p.find("}", self.i)
            if close < 0:
                raise _Unsupported
            self.i = close + 1
            chars = self.letter | self.digit
            return Node("char", start, self.i, chars=chars if c == "p" else self.alphabet - chars)
        if c in "bB" and not in_class:
            return Node("empty", start, self.i)
        if c.isdigit() and c != "0" and not in_class:
            while self.i < len(p) and p[self.i].isdigit():
                self.i += 1
            return Node("backref", start, self.i)
        if c == "k" and not in_class and self.i < len(p) and p[self.i] == "<":
            close = p.find(">", self.i)
            self.i = close + 1 if close > 0 else len(p)
            return Node("backref", start, self.i)
        if c in "ux":
            width = 4 if c == "u" else 2
            if c == "u" and self.i < len(p) and p[self.i] == "{":
                close = p.find("}", self.i)
                digits = p[self.i + 1 : close] if close > 0 else ""
                self.i = close + 1 if close > 0 else len(p)
            else:
                digits = p[self.i : self.i + width]
                self.i += len(digits)
            try:
                char = chr(int(digits, 16))
            except (ValueError, OverflowError):
                char = c
            return Node("char", start, self.i, chars=frozenset(char) & self.alphabet or frozenset(char))
        if c == "c" and self.i < len(p):
            self.i += 1
            return Node("char", start, self.i, chars=frozenset("\x01"))
        simple = {"n": "\n", "r": "\r", "t": "\t", "f": "\f", "v": "\v", "0": "\0"}
        return Node("char", start, self.i, chars=frozenset(simple.get(c, c)))

    def char_class(self) -> Node:
        p, start = self.p, self.i
        self.i += 1
        negate = self.i < len(p) and p[self.i] == "^"
        if negate:
            self.i += 1
        chars: set[str] = set()
        while self.i < len(p) and p[self.i] != "]":
            if p[self.i] == "\\":
                piece = self.escape(in_class=True).chars
                low = next(iter(piece)) if len(piece) == 1 else None
            else:
                low = p[self.i]
                piece = frozenset(low)
                self.i += 1
            if low is not None and self.i + 1 < len(p) and p[self.i] == "-" and p[self.i + 1] != "]":
                self.i += 1
                if p[self.i] == "\\":
                    high_piece = self.escape(in_class=True).chars
                    high = next(iter(high_piece)) if len(high_piece) == 1 else low
                else:
                    high = p[self.i]
                    self.i += 1
                piece = frozenset(x for x in self.alphabet if low <= x <= high) | {low, high}
            chars |= piece
        if self.i >= len(p):
            raise _Unsupported
        self.i += 1
        result = frozenset(chars) & self.alphabet | (frozenset(chars) - self.alphabet)
        return Node("char", start, self.i, chars=(self.alphabet - result) if negate else result)


# -------------------------------------------------------------------- analysis


class _Analysis:
    def __init__(self) -> None:
        self._nullable: dict[int, bool] = {}
        self._chars: dict[int, frozenset] = {}
        self._first: dict[int, frozenset] = {}

    def nullable(self, n: Node) -> bool:
        key = id(n)
        if key not in self._nullable:
            if n.kind == "char":
                value = False
            elif n.kind == "seq":
                value = all(self.nullable(i) for i in n.items)
            elif n.kind == "alt":
                value = any(self.nullable(i) for i in n.items)
            elif n.kind == "repeat":
                value = n.lo == 0 or self.nullable(n.items[0])
            elif n.kind == "group":
                value = self.nullable(n.items[0])
            else:  # empty, look, backref (a backref may match the empty string)
                value = True
            self._nullable[key] = value
        return self._nullable[key]

    def chars(self, n: Node) -> frozenset:
        key = id(n)
        if key not in self._chars:
            if n.kind == "char":
                value = n.chars
            elif n.kind in ("seq", "alt", "repeat", "group"):
                value = frozenset().union(*(self.chars(i) for i in n.items)) if n.items else frozenset()
            else:
                value = frozenset()
            self._chars[key] = value
        return self._chars[key]

    def first(self, n: Node) -> frozenset:
        key = id(n)
        if key not in self._first:
            if n.kind == "char":
                value = n.chars
            elif n.kind == "seq":
                acc: set = set()
                for item in n.items:
                    acc |= self.first(item)
                    if not self.nullable(item):
                        break
                value = frozenset(acc)
            elif n.kind in ("alt",):
                value = frozenset().union(*(self.first(i) for i in n.items)) if n.items else frozenset()
            elif n.kind in ("repeat", "group"):
                value = self.first(n.items[0])
            else:
                value = frozenset()
            self._first[key] = value
        return self._first[key]

    def fixed(self, n: Node) -> list[frozenset] | None:
        """The character set of each position, when `n` matches only strings of one length."""
        if n.kind == "char":
            return [n.chars]
        if n.kind in ("empty", "look"):
            return []
        if n.kind == "group":
            return self.fixed(n.items[0])
        if n.kind == "seq":
            out: list[frozenset] = []
            for item in n.items:
                part = self.fixed(item)
                if part is None:
                    return None
                out.extend(part)
            return out
        if n.kind == "repeat" and n.hi == n.lo and n.lo <= 20:
            part = self.fixed(n.items[0])
            return None if part is None else part * n.lo
        return None


def _unbounded(n: Node) -> bool:
    return n.kind == "repeat" and (n.hi is None or n.hi > _BIG) and n.hi != 0


def _unwrap(n: Node) -> Node:
    while n.kind == "group" or (n.kind == "seq" and len(n.items) == 1):
        n = n.items[0]
    return n


def _sequence(n: Node) -> list[Node]:
    """The elements of `n` in order, with groups and nested sequences flattened."""
    n = _unwrap(n)
    if n.kind != "seq":
        return [n]
    out: list[Node] = []
    for item in n.items:
        out.extend(_sequence(item) if _unwrap(item).kind == "seq" else [item])
    return out


class Backtracking(Record):
    __slots__ = ("start", "end", "why")

    def __init__(self, start: int, end: int, why: str):
        self.start = start  # the span of the repeated group, in the pattern
        self.end = end
        self.why = why


def _overlapping_alternatives(a: _Analysis, alt: Node) -> tuple[Node, Node] | None:
    options = alt.items
    for x in range(len(options)):
        for y in range(x + 1, len(options)):
            o1, o2 = options[x], options[y]
            f1, f2 = a.fixed(o1), a.fixed(o2)
            if f1 is not None and f2 is not None:
                short, long = (f1, f2) if len(f1) <= len(f2) else (f2, f1)
                # the same text, or the longer one spelled by repeating the shorter: (a|a), (a|aa)
                if (len(short) == len(long) or (short and len(long) % len(short) == 0)) and \
                        all(long[j] & short[j % len(short)] for j in range(len(long))) if short else not long:
                    return o1, o2
                continue
            c1, c2 = a.chars(o1), a.chars(o2)
            if a.first(o1) & a.first(o2) and c1 and c2 and (c1 <= c2 or c2 <= c1):
                return o1, o2
    return None


def _body_problem(a: _Analysis, body: Node, pattern: str) -> str | None:
    """Why the body of an unbounded repetition can match one text in many ways, or None."""
    options = _unwrap(body).items if _unwrap(body).kind == "alt" else [body]
    for option in options:
        items = _sequence(option)
        for k, item in enumerate(items):
            inner = _unwrap(item)
            if not _unbounded(inner):
                continue
            own = a.chars(inner.items[0])
            # every element the body needs besides `inner` can be made of characters `inner` takes too:
            # a run of those characters then splits between the two repetitions in many ways
            if all(a.nullable(x) or a.chars(x) & own for j, x in enumerate(items) if j != k):
                return f"nested quantifier: {pattern[inner.start:inner.end]!r} repeats inside the repeated group"
            for m in range(k + 1, len(items)):
                other = _unwrap(items[m])
                if _unbounded(other) and own & a.chars(other.items[0]):
                    return (f"adjacent quantifiers {pattern[inner.start:inner.end]!r} and "
                            f"{pattern[other.start:other.end]!r} can take the same characters")
                if not a.nullable(items[m]):
                    break
    stack = [body]
    while stack:  # an ambiguous alternation anywhere in the body (not in lookarounds)
        n = stack.pop()
        if n.kind == "look":
            continue
        if n.kind == "alt":
            pair = _overlapping_alternatives(a, n)
            if pair:
                return (f"overlapping alternatives {pattern[pair[0].start:pair[0].end]!r} and "
                        f"{pattern[pair[1].start:pair[1].end]!r} can match the same text")
        stack.extend(n.items)
    return None


@functools.lru_cache(maxsize=4096)
def backtracking_risk(pattern: str) -> Backtracking | None:
    """The first repeated group of `pattern` that makes backtracking exponential, or None."""
    if len(pattern) > _MAX_LENGTH or not any(c in pattern for c in "*+{"):
        return None
    try:
        tree = _Parser(pattern).parse()
    except (_Unsupported, IndexError, RecursionError, ValueError):
        return None
    a = _Analysis()
    stack = [tree]
    try:
        while stack:
            n = stack.pop()
            if _unbounded(n):
                why = _body_problem(a, n.items[0], pattern)
                if why:
                    return Backtracking(n.start, n.end, why)
            stack.extend(reversed(n.items))
    except RecursionError:
        return None
    return None
