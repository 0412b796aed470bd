"""A fast reader for the plain block YAML that tool descriptors are written in.

libyaml's event stream plus the Python loop that builds data from it costs about
300 µs for a 45-line descriptor, most of it per-event overhead. This module cuts the
whole text into lines and their parts with one regex call (`findall`) and builds, from
those parts, exactly what `document._load_yaml_events` builds: the same data (YAML 1.2
core schema, through the same `resolve_plain`), the same value and key position for
every JSON pointer, the same duplicate-key records, in the same order.

Positions cost more to record than the data costs to build, and a lint asks for few of
them (one per finding). So the loader reads shallowly (`parse(..., shallow=True)`): it
keeps only the positions of the root and its members, which a lint run in several
processes asks for every file, as a flat list (`top_positions` turns it into pointers);
`Document.locate` reads the text again, recording every position, on the first look-up of
a deeper pointer. A key repeated below the root makes the shallow read start over and
record everything (a duplicate's record needs the first occurrence's position).

The lines come in a few common shapes, each with its own short branch of the reading
loop: the next entry of the open mapping, a mapping that starts as the value of the
`key:` above it, an entry after a nested collection ends. Flow collections of the
common kind (plain scalars without `:` or `#`, quoted ones without escapes, a mapping's
flow sequences) are read with one regex call each (`common_flow`); the rest with one a
member. Regexes only some texts need are compiled on first use.

The subset: block mappings with plain or quoted keys; block sequences, also compact
(`- key: value`) and indentless (`key:` then `- item` at the key's column); plain
scalars, also over several lines; single- and double-quoted scalars, also over several
lines; literal and folded block scalars with any chomping; flow sequences and mappings
that close on the line they open; comments; one leading `---`.

Anything else is declined: `parse` returns None and the caller runs the libyaml path,
which also produces every error message. The reader decides nothing it is not sure
of: tabs, anchors, aliases, tags, `?` keys, directives, document markers after the
start, flow collections over several lines, explicit indentation indicators, empty
block scalars, characters libyaml rejects, line breaks other than LF and CRLF, a byte
order mark, nesting near the depth limit, and every malformed text decline (so do a
few valid rarities, e.g. `:` inside a plain scalar in a flow collection).
tests/test_yaml_fast_path.py holds the evidence that an accepted text loads exactly as
libyaml loads it, in both reads; tests/test_yaml_fast_parts.py checks the cheaper
pieces against their plain forms.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time: it costs more than this module
    from typing import Any, Callable

__all__ = ["LazyPatterns", "parse", "read", "top_positions"]


class _Decline(Exception):
    """The text is outside the subset, or might be: leave it to libyaml."""


class _Again(Exception):
    """A key repeats: read the text again, recording every position (a duplicate's record
    holds the position of the key's first occurrence)."""


class LazyPatterns:
    """Regexes that only some texts need, compiled on first use: compiling one costs up to
    half a millisecond, more than reading a descriptor."""

    def __init__(self, **patterns: str):
        self._patterns = patterns

    def __getattr__(self, name: str) -> re.Pattern:
        try:
            source = self.__dict__["_patterns"][name]
        except KeyError:
            raise AttributeError(name) from None
        pattern = re.compile(source)
        setattr(self, name, pattern)  # later lookups find it without this method
        return pattern


_PRINTABLE_ASCII = bytes(range(0x20, 0x7F)) + b"\n\r"

_DQ = r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
_SQ = r"'[^'\n]*(?:''[^'\n]*)*'"
# the characters that cannot start a plain scalar (`-` can, when no space follows)
_NOT_FIRST = r" \n\-?:,\[\]{}#&*!|>'\"%@`"
# A plain key in block context: `:` only when no space follows, `#` only when no
# space precedes (else it starts a comment). Trailing spaces are part of the match.
_PLAIN_KEY = rf"(?:[^{_NOT_FIRST}]|-(?=[^ \n]))[^:#\n]*(?:(?::(?=[^ \n])|(?<! )#)[^:#\n]*)*"
# A plain scalar in a flow collection: it ends at `,[]{}`, at any `:` and before ` #`,
# and not with a space.
_FLOW_PLAIN = rf"(?:[^{_NOT_FIRST}]|-(?=[^ \n,\[\]{{}}]))[^,\[\]{{}}:#\n]*(?:(?<! )#[^,\[\]{{}}:#\n]*)*(?<! )"

# Every line as its parts, which join to the line again:
#   indentation, `-` and its spaces, key, `:` and its spaces, plain value, the rest.
# The key here is plain, without spaces, `:`, `#`, `~` or `/` (so it is its own name
# and pointer token) and under 1,000 characters; any other key is found by _KEY in the
# rest. The plain value is the common easy one: it holds no `:` or `#` and ends the
# line without trailing spaces; any other value is in the rest.
# (Written for the regex engine's speed: an optional part is an alternative with an empty
# branch, not `(...)?`, which costs a memory allocation per line; and nothing that cannot
# match shorter gives characters back.)
_LINE = re.compile(
    rf"^( *+)(- ++|-$|)(?:([^{_NOT_FIRST}~/][^: #\n~/]{{0,998}}+)(:(?: ++|$))|)"
    rf"(?:([^{_NOT_FIRST}][^:#\n]*+)(?<! )$|)(.*+)",
    re.MULTILINE,
)

_SCALAR = rf"(?:{_DQ}|{_SQ}|{_FLOW_PLAIN})"
# A flow mapping member: (spaces, key, `:` and spaces, scalar value, spaces and `,` or
# `}`). With no value and no separator, a collection value starts after the `:`; with
# no value but a separator, the value is empty (`{key}`, `{key: }`).
_FLOW_MEMBER = rf"( *)({_SCALAR})(?:( *: +)(?:({_SCALAR})|(?=[\[{{,}}]))|)(?:( *[,}}])|)"
# A flow sequence item: (spaces, scalar, spaces and `,` or `]`); with no scalar, a
# collection starts after the spaces.
_FLOW_ITEM = rf"( *)(?:({_SCALAR})( *[,\]])|(?=[\[{{]))"
_DOUBLE = re.compile(_DQ)
_SINGLE = re.compile(_SQ)
# what may follow a scalar or flow collection on its line: nothing, or a comment
_TAIL = re.compile(r" +#| *$")
# a block scalar header without an explicit indentation indicator
_BLOCK_HEADERS = frozenset(("|", ">", "|-", ">-", "|+", ">+"))
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_MARKERS = ("---", "...")

_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r", "e": "\x1b",
    " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
}
_MOST_LINES = 20_000  # a longer text goes to libyaml: this reader holds every line's parts at once
_MOST_ESCAPES = 20_000  # more backslashes than this: libyaml decodes them faster than a regex callback
_LONGEST_KEY = 1000  # libyaml refuses an implicit key over 1024 characters; leave those to it

_MAP, _SEQ, _ROOT = 0, 1, 2  # what a pending value belongs to

# What `common_flow` reads: flow collections whose members are plain scalars with no `:`,
# `#` or bracket, or quoted ones without escapes; a mapping's keys are plain, and its
# values may also be flow sequences of those. (Compiled on first use: they are large.)
_COMMON_PLAIN = rf"[^{_NOT_FIRST}][^,:\[\]{{}}#\n]*(?<! )"
_COMMON_SCALAR = rf"""{_COMMON_PLAIN}|"[^"\\\n]*"|'[^'\n]*'"""
_COMMON_VALUE = rf"""{_COMMON_SCALAR}|\[[^\[\]{{}}"'#\n]*\]"""
_SHORT_ITEM = rf" *({_COMMON_SCALAR}) *"
_SHORT_MEMBER = rf" *({_COMMON_PLAIN}) *: +({_COMMON_VALUE}) *"
_common = LazyPatterns(
    # up to four members, in one match: one call, where `findall` costs about one a member
    short_sequence=rf"\[{_SHORT_ITEM}(?:,{_SHORT_ITEM}(?:,{_SHORT_ITEM}(?:,{_SHORT_ITEM}|)|)|)\]",
    short_mapping=rf"\{{{_SHORT_MEMBER}(?:,{_SHORT_MEMBER}(?:,{_SHORT_MEMBER}(?:,{_SHORT_MEMBER}|)|)|)\}}",
    # more, with `findall`: each member with its `,` (none for the last); anything else,
    # also the empty match at the end, matches the last group, which takes the rest: so the
    # matches cover the text, with no search for the next one (quadratic on a long line)
    item=rf" *({_COMMON_SCALAR}) *(,|$)|(.*)",
    member=rf" *({_COMMON_PLAIN}) *: +({_COMMON_VALUE}) *(,|$)|(.*)",
)

# The general reading of flow collections: the common ones take `common_flow`, but every
# position is recorded here (compiled on first use)
_flow = LazyPatterns(
    member=_FLOW_MEMBER,
    item=_FLOW_ITEM,
    next=r" *([,\]}]?)",
    empty_sequence_end=r" *\]",
    empty_mapping_end=r" *\}",
)

_rare = LazyPatterns(
    # Characters libyaml does not read as printable, plus the ones left to it: tab
    # (indentation and separation rules), NEL and U+2028/9 (line breaks in YAML 1.1), a
    # byte order mark, DEL and surrogates; looked for in texts that are not all ASCII. A
    # lone CR is checked separately. (Written as the characters it finds: the complement,
    # with its astral range, takes 15 ms to compile.)
    unsupported="[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]",
    # a key that _LINE does not take (quoted, or with spaces, `:`, `#`, `~` or `/`); atomic:
    # the key is as long as it can be, and a failed match does not try it shorter (that
    # would be quadratic on a long line of spaces)
    key=rf"((?>{_DQ}|{_SQ}|{_PLAIN_KEY}))( *:(?: +|$))",
    escape=r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)",
    # quoted scalars over several lines
    double_body=r'[^"\\]*(?:\\.[^"\\]*)*',
    single_body=r"[^']*(?:''[^']*)*",
    odd_backslashes=r"(?<!\\)(?:\\\\)*\\$",
    # a block scalar header with a comment or trailing spaces
    block_header=r"([|>])([+-]?)(?: +#| *$)",
)


def _escape(m: re.Match) -> str:
    code = m.group(1)
    if len(code) == 1:
        char = _ESCAPES.get(code)
        if char is None:
            raise _Decline
        return char
    point = int(code[1:], 16)
    if 0xD800 <= point <= 0xDFFF or point > 0x10FFFF:
        raise _Decline
    return chr(point)


def _quoted(raw: str) -> str:
    """The value of a quoted scalar, given with its quotes."""
    body = raw[1:-1]
    if raw[0] == "'":
        return body.replace("''", "'")
    return _rare.escape.sub(_escape, body) if "\\" in body else body


def _pointer(base: str, key: str) -> str:
    if "~" in key or "/" in key:
        return f"{base}/{key.replace('~', '~0').replace('/', '~1')}"
    return f"{base}/{key}"


def parse(text: str, max_depth: int, resolve_plain: Callable[[str], Any], maybe_typed: frozenset,
          shallow: bool = False):
    """(data, values, keys, duplicates, top) as `_load_yaml_events` builds them, or None to
    decline.

    `resolve_plain` reads a plain scalar; it is called only for scalars that start with
    one of `maybe_typed`. `duplicates` holds (pointer, key, line, column, first_line,
    first_column) tuples. `values` and `keys` map a pointer to its position; `top` is None.
    With `shallow`, which costs less, they may be None instead, and `top` a list from which
    `top_positions` gives those of the root and its members (pointers of depth 0 and 1).
    A text with a key repeated below the root is read in full.
    """
    try:
        return read(text, max_depth, resolve_plain, maybe_typed, shallow)
    except Exception:  # noqa: BLE001 - a reader bug must not fail a load: libyaml reads it instead
        return None


def top_positions(data: Any, top: list[int]) -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]]]:
    """(values, keys): the positions of the root and of its members, from a shallow read's
    data and `top`: the root's value line and column, then each member's key line and
    column and value line and column, in the order of the members."""
    if not top:
        return {}, {}
    values = {"": (top[0], top[1])}
    keys = {}
    at = 2
    for member in data if type(data) is dict else range(len(data)):
        pointer = _pointer("", member) if type(member) is str else f"/{member}"
        keys[pointer] = (top[at], top[at + 1])
        values[pointer] = (top[at + 2], top[at + 3])
        at += 4
    assert at == len(top), "one position record per member"
    return values, keys


def read(text: str, max_depth: int, resolve_plain: Callable[[str], Any], maybe_typed: frozenset,
         shallow: bool = False):
    """`parse` without the safety net: an unexpected exception propagates (for the tests)."""
    if text.isascii():
        if text.encode().translate(None, _PRINTABLE_ASCII):  # a control character or tab
            return None
    elif _rare.unsupported.search(text):
        return None
    # (a text shorter than a limit cannot reach it: the common text skips both counts)
    if len(text) > _MOST_ESCAPES and text.count("\\") > _MOST_ESCAPES:
        return None
    if "\r" in text:
        if text.count("\r") != text.count("\r\n"):
            return None
        text = text.replace("\r\n", "\n")  # libyaml reads CRLF as one break; columns are unchanged
    if len(text) >= _MOST_LINES and text.count("\n") >= _MOST_LINES:
        return None
    rows = _LINE.findall(text)  # one row a line: every line matches, and only at its start
    reader = _Reader(rows, text.endswith("\n"), max_depth, resolve_plain, maybe_typed)
    try:
        if shallow:
            try:
                data, _, _, duplicates = reader.read(False)
                return data, None, None, duplicates, reader.top
            except _Again:
                pass  # read again, recording every position
        return (*reader.read(True), None)
    except (_Decline, ValueError):  # ValueError: an integer too long to convert
        return None


class _Resolved(dict):
    """Plain scalars as the core schema reads them, remembered: the reading is pure and
    its results (numbers, booleans, None) are immutable, while `true`, `false` and small
    numbers recur in every descriptor. A hit is one C-level lookup, not a call."""

    __slots__ = ("read",)

    def __init__(self, read: Callable[[str], Any]):
        super().__init__()
        self.read = read

    def __missing__(self, text: str) -> Any:
        value = self.read(text)  # ValueError (a number too long) propagates: the reader declines
        if len(text) <= 64:
            if len(self) >= 4096:
                self.clear()
            self[text] = value
        return value


_RESOLVED: dict[Callable, _Resolved] = {}


def _is_blank(row: tuple) -> bool:
    return not (row[1] or row[2] or row[4] or row[5])


class _Reader:
    def __init__(self, rows: list[tuple], final_newline: bool, max_depth: int,
                 resolve_plain: Callable[[str], Any], maybe_typed: frozenset):
        if final_newline:
            rows.pop()  # the empty "line" after the last break
        self.rows = rows
        self.final_newline = final_newline
        self.max_depth = max_depth - 1  # one short of the limit: the libyaml path reports the limit itself
        resolved = _RESOLVED.get(resolve_plain)
        if resolved is None:
            resolved = _RESOLVED.setdefault(resolve_plain, _Resolved(resolve_plain))
        self.resolve = resolved.__getitem__
        self.typed = maybe_typed
        self.special = maybe_typed | {'"', "'", "["}  # what may start a flow scalar that is not a plain string
        self.top: list[int] = []
        self.values: dict[str, tuple[int, int]] = {}
        self.keys: dict[str, tuple[int, int]] = {}
        self.duplicates: list[tuple] = []

    # ----------------------------------------------------------------- blocks

    def start(self) -> int:
        """The index of the first row with a node, past comments, blank lines and at most
        one `---`; len(rows) when there is none."""
        rows = self.rows
        n = len(rows)
        i = 0
        started = False
        while i < n:
            indentation, dash, key, sep, plain, rest = rows[i]
            if dash or key or plain or (rest and rest[0] != "#"):
                if indentation or dash or key or plain or rest[:3] not in _MARKERS:
                    break
                if started or rest.rstrip(" ") != "---":
                    raise _Decline
                started = True
            i += 1
        if i == n and started:
            raise _Decline
        return i

    def read(self, record: bool):
        """(data, values, keys, duplicates). With `record`, `values` and `keys` hold the
        position of every node. Without, they stay empty, `top` holds those of the root and
        its members (see `top_positions`), and a repeated key raises _Again."""
        rows = self.rows
        n = len(rows)
        self.values = values = {}
        self.keys = keys = {}
        self.duplicates = duplicates = []
        self.top = top = []
        resolve, typed = self.resolve, self.typed
        max_depth = self.max_depth

        i = self.start()
        if i == n:
            return None, values, keys, duplicates

        root: Any = None
        # the open block collection, and the saved frames of the ones around it
        container: Any = None
        base = ""  # its pointer
        is_map = False
        indent = -1  # the column of its entries
        pad = None  # their indentation
        stack: list[tuple] = []
        # Without `record`: is the open collection the root (or is the root's value pending),
        # so that the positions of its members go to `top`? Each adds (key line, key column,
        # value line, value column); the root, (value line, value column).
        at_root = not record
        pointer = ""
        # a `key:` or `-` with nothing after it on its line, whose value starts on a later line:
        # (pointer, kind, key position, position of an empty value, key); the pointer and the
        # positions are None where they are not recorded
        pending: tuple | None = ("", _ROOT, None, None, None)
        ready = False  # is_map and pending is None: the next entry of a mapping may follow
        last = None  # the key of the last easy plain value, which more lines may continue
        last_row = -1  # and its line number

        while i < n:
            indentation, dash, key, sep, plain, rest = rows[i]
            i += 1  # from here on, the number of this line
            if ready and key and indentation == pad and not dash:
                # the common case: the next entry of the open mapping
                if record:
                    pointer = f"{base}/{key}"
                    if key in container:
                        first = keys[pointer]
                        duplicates.append((pointer, key, i, indent + 1, first[0], first[1]))
                elif key in container:
                    raise _Again
                if plain:
                    container[key] = resolve(plain) if plain[0] in typed else plain
                    if record:
                        keys[pointer] = (i, indent + 1)
                        values[pointer] = (i, indent + len(key) + len(sep) + 1)
                    elif at_root:
                        top += (i, indent + 1, i, indent + len(key) + len(sep) + 1)
                    last = key
                    last_row = i
                    continue
                column = indent
                name = key
            elif key and not dash and pending is not None and len(indentation) > indent >= 0:
                # the next common case: a mapping starts on this line, the value of the `key:`
                # or `-` before it (what the general branch below does, in fewer steps)
                pointer, kind, key_pos, empty_pos, name = pending
                pending = None
                if len(stack) >= max_depth:
                    raise _Decline
                value = {}
                column = len(indentation)
                if kind == _MAP:
                    container[name] = value
                else:
                    container.append(value)
                if record:
                    pos = (i, column + 1)
                    keys[pointer] = key_pos if kind == _MAP else pos
                    values[pointer] = pos
                elif at_root:
                    pos = (i, column + 1)
                    top += (key_pos if kind == _MAP else pos) + pos
                stack.append((container, base, is_map, indent, pad, at_root))
                container, base, is_map, indent, pad, at_root = value, pointer, True, column, indentation, False
                ready = True
                last_row = -1
                name = key  # a key _LINE found: plain, with no `~` or `/`
                if record:
                    pointer = f"{base}/{key}"
                if plain:
                    container[key] = resolve(plain) if plain[0] in typed else plain
                    if record:
                        keys[pointer] = (i, column + 1)
                        values[pointer] = (i, column + len(key) + len(sep) + 1)
                    last = key
                    last_row = i
                    continue
            elif key and not dash and pending is None and len(indentation) < indent:
                # and a third: the next entry of a mapping around the open collection (again
                # what the general branch does)
                column = len(indentation)
                while column < indent:
                    container, base, is_map, indent, pad, at_root = stack.pop()
                if column != indent:
                    raise _Decline
                if not is_map:  # an indentless sequence ends, or a key stands where an item belongs
                    if stack and stack[-1][2] and stack[-1][3] == indent:
                        container, base, is_map, indent, pad, at_root = stack.pop()
                    else:
                        raise _Decline
                if not column and (key[:3] in _MARKERS or (plain or rest)[:3] in _MARKERS):
                    raise _Decline
                ready = True
                last_row = -1
                name = key  # a key _LINE found: plain, with no `~` or `/`
                if record:
                    pointer = f"{base}/{key}"
                    if key in container:
                        first = keys[pointer]
                        duplicates.append((pointer, key, i, column + 1, first[0], first[1]))
                elif key in container:
                    raise _Again
                if plain:
                    container[key] = resolve(plain) if plain[0] in typed else plain
                    if record:
                        keys[pointer] = (i, column + 1)
                        values[pointer] = (i, column + len(key) + len(sep) + 1)
                    elif at_root:
                        top += (i, column + 1, i, column + len(key) + len(sep) + 1)
                    last = key
                    last_row = i
                    continue
            else:
                if not key and not dash and not plain and (not rest or rest[0] == "#"):
                    continue  # blank or comment
                column = len(indentation)
                if column > indent and pending is None:  # more lines of the last plain value
                    i = self.continuation(container, is_map, last, last_row, i, indent)
                    last_row = -1
                    continue
                last_row = -1
                if not key and ":" in rest:  # a key with spaces, `:`, `#`, `~` or `/`, or quoted?
                    m = _rare.key.match(rest)
                    if m is not None:
                        key, sep = m.groups()
                        if key[-1] == " ":
                            stripped = key.rstrip(" ")
                            sep = " " * (len(key) - len(stripped)) + sep
                            key = stripped
                        rest = rest[m.end():]
                        if len(key) + sep.index(":") > _LONGEST_KEY:  # from the key to its `:`
                            raise _Decline
                if not column and not dash and (key[:3] in _MARKERS or (plain or rest)[:3] in _MARKERS):
                    raise _Decline

                if pending is not None:
                    pointer, kind, key_pos, empty_pos, name = pending
                    pending = None
                    if column > indent or (column == indent and is_map and dash):
                        if dash or key:  # a block collection starts on this line
                            if len(stack) >= max_depth:
                                raise _Decline
                            value = [] if dash else {}
                            if kind == _MAP:
                                container[name] = value
                            elif kind == _SEQ:
                                container.append(value)
                            else:
                                root = value
                            if record:
                                pos = (i, column + 1)
                                if kind != _ROOT:
                                    keys[pointer] = key_pos if kind == _MAP else pos
                                values[pointer] = pos
                            elif at_root:
                                pos = (i, column + 1)
                                top += pos if kind == _ROOT else (key_pos if kind == _MAP else pos) + pos
                            stack.append((container, base, is_map, indent, pad, at_root))
                            container, base, is_map, indent, pad = value, pointer, not dash, column, indentation
                            at_root = kind == _ROOT and not record
                        else:  # a scalar on a line of its own
                            if kind == _ROOT:
                                raise _Decline
                            if record:
                                value, i = self.scalar(i, column, plain or rest, indent, pointer, kind, key_pos,
                                                       len(stack))
                            else:
                                if at_root:
                                    pos = (i, column + 1)
                                    top += (key_pos if kind == _MAP else pos) + pos
                                value, i = self.value(i, plain or rest, indent, len(stack))
                            if kind == _MAP:
                                container[name] = value
                            else:
                                container.append(value)
                            ready = is_map
                            continue
                    else:  # nothing more indented follows: the value is empty
                        if kind == _MAP:
                            container[name] = None
                        else:
                            container.append(None)
                        if record:
                            keys[pointer] = key_pos if kind == _MAP else empty_pos
                            values[pointer] = empty_pos
                        elif at_root:
                            top += (key_pos if kind == _MAP else empty_pos) + empty_pos

                while column < indent:
                    container, base, is_map, indent, pad, at_root = stack.pop()
                if column != indent:
                    raise _Decline

                if is_map:
                    if dash or not key:
                        raise _Decline
                elif not dash:
                    if key and stack and stack[-1][2] and stack[-1][3] == indent:  # an indentless sequence ends
                        container, base, is_map, indent, pad, at_root = stack.pop()
                    else:
                        raise _Decline
                else:
                    at = column + len(dash)
                    if record:
                        pointer = f"{base}/{len(container)}"
                    if not key:
                        if plain:
                            if record:
                                keys[pointer] = values[pointer] = (i, at + 1)
                            elif at_root:
                                top += (i, at + 1, i, at + 1)
                            container.append(resolve(plain) if plain[0] in typed else plain)
                            last_row = i
                            ready = False
                            continue
                        if not rest or rest[0] == "#":
                            if record or at_root:
                                pending = (pointer, _SEQ, None, (i, column + 2), None)
                            else:
                                pending = (None, _SEQ, None, None, None)
                            ready = False
                            continue
                        if record:
                            value, i = self.scalar(i, at, rest, indent, pointer, _SEQ, None, len(stack))
                        else:
                            if at_root:
                                top += (i, at + 1, i, at + 1)
                            value, i = self.value(i, rest, indent, len(stack))
                        container.append(value)
                        ready = False
                        continue
                    # a compact mapping: `- key: value`
                    if len(stack) >= max_depth:
                        raise _Decline
                    value = {}
                    if record:
                        keys[pointer] = values[pointer] = (i, at + 1)
                    elif at_root:
                        top += (i, at + 1, i, at + 1)
                    container.append(value)
                    stack.append((container, base, is_map, indent, pad, at_root))
                    container, base, is_map, indent, pad, at_root = value, pointer, True, at, " " * at, False
                    column = at
                ready = True

                # a mapping entry whose key starts at `column`
                c = key[0]
                if c == '"' or c == "'":
                    name = _quoted(key)
                    if record:
                        pointer = _pointer(base, name)
                else:
                    name = key
                    if record:
                        pointer = f"{base}/{key}" if "~" not in key and "/" not in key else _pointer(base, key)
                if name in container:
                    if not record:
                        raise _Again
                    first = keys[pointer]
                    duplicates.append((pointer, name, i, column + 1, first[0], first[1]))
                if plain:
                    container[name] = resolve(plain) if plain[0] in typed else plain
                    if record:
                        keys[pointer] = (i, column + 1)
                        values[pointer] = (i, column + len(key) + len(sep) + 1)
                    elif at_root:
                        top += (i, column + 1, i, column + len(key) + len(sep) + 1)
                    last = name
                    last_row = i
                    continue

            # the value of the mapping entry `name` at `column`, when it is not an easy plain scalar
            if not rest or rest[0] == "#":
                if record or at_root:
                    pending = (pointer, _MAP, (i, column + 1), (i, column + len(key) + sep.index(":") + 2), name)
                else:
                    pending = (None, _MAP, None, None, name)
                ready = False
                continue
            last_row = -1
            c = rest[0]
            if c == "{" or c == "[":  # a flow collection: on this line, most often with scalars only
                if record:
                    keys[pointer] = (i, column + 1)
                    value, end = self.flow(rest, 0, column + len(key) + len(sep), i, pointer, len(stack))
                    if end != len(rest) and not _TAIL.match(rest, end):
                        raise _Decline
                    container[name] = value
                    continue
                if at_root:
                    top += (i, column + 1, i, column + len(key) + len(sep) + 1)
                depth = len(stack)
                if depth < max_depth and len(rest) <= _LONGEST_KEY:
                    value = self.common_flow(rest, depth)
                    if value is not None:
                        container[name] = value
                        continue
                value, end = self.flow_data(rest, 0, depth)
                if end != len(rest) and not _TAIL.match(rest, end):
                    raise _Decline
                container[name] = value
                continue
            if record:
                container[name], i = self.scalar(i, column + len(key) + len(sep), rest, indent, pointer, _MAP,
                                                 (i, column + 1), len(stack))
            else:
                if at_root:
                    top += (i, column + 1, i, column + len(key) + len(sep) + 1)
                container[name], i = self.value(i, rest, indent, len(stack))

        if pending is not None:
            pointer, kind, key_pos, empty_pos, name = pending
            if kind == _MAP:
                container[name] = None
            else:
                container.append(None)
            if record:
                keys[pointer] = key_pos if kind == _MAP else empty_pos
                values[pointer] = empty_pos
            elif at_root:
                top += (key_pos if kind == _MAP else empty_pos) + empty_pos
        return root, values, keys, duplicates

    def continuation(self, container, is_map: bool, last, last_row: int, i: int, indent: int) -> int:
        """Line i (1-based) is more indented than the entries of its collection: it can only
        continue the easy plain scalar of line `last_row`, with nothing but blank lines
        between. Replaces that value; returns the number of the last line it takes."""
        if last_row < 0:
            raise _Decline
        text, after = self.continued(self.rows[last_row - 1][4], last_row, indent)
        if after < i:  # a comment or other line comes between: an error for libyaml
            raise _Decline
        value = self.resolve(text) if text[0] in self.typed else text
        if is_map:
            container[last] = value
        else:
            container[-1] = value
        return after

    def scalar(self, number: int, at: int, rest: str, indent: int, pointer: str, kind: int, key_pos, depth: int):
        """The value that starts at column `at` of line `number` (`rest` is the line from
        there), in a block collection whose entries are at column `indent`.

        Records its positions, and those of everything in it; returns it and the number of
        its last line. (Reading with `record` only.)
        """
        pos = (number, at + 1)
        self.keys[pointer] = key_pos if kind == _MAP else pos
        c = rest[0]
        if c == "[" or c == "{":
            value, end = self.flow(rest, 0, at, number, pointer, depth)
            if not _TAIL.match(rest, end):
                raise _Decline
            return value, number
        self.values[pointer] = pos
        return self.value(number, rest, indent, depth)

    def value(self, number: int, rest: str, indent: int, depth: int):
        """`scalar` without positions: the value that starts `rest`, on line `number`;
        returns it and the number of its last line."""
        c = rest[0]
        if c == "[" or c == "{":
            if depth < self.max_depth and len(rest) <= _LONGEST_KEY:
                value = self.common_flow(rest, depth)
                if value is not None:
                    return value, number
            value, end = self.flow_data(rest, 0, depth)
            if not _TAIL.match(rest, end):
                raise _Decline
            return value, number
        if c == '"' or c == "'":
            m = (_DOUBLE if c == '"' else _SINGLE).match(rest)
            if m is None or not _TAIL.match(rest, m.end()):  # it goes on to a later line, or is bad
                return self.quoted_lines(number, rest, indent)
            return _quoted(m.group()), number
        if c == "|" or c == ">":
            return self.block_scalar(number, rest, indent)
        if c in _INDICATORS and (c != "-" or len(rest) == 1 or rest[1] == " "):
            raise _Decline
        cut = rest.find(" #")
        if cut >= 0:
            rest = rest[:cut]
        rest = rest.rstrip(" ")
        if ": " in rest or rest[-1] == ":":
            raise _Decline
        after = number
        if cut < 0:
            rest, after = self.continued(rest, after, indent)
        return (self.resolve(rest) if rest[0] in self.typed else rest), after

    def quoted_lines(self, number: int, rest: str, indent: int) -> tuple[str, int]:
        """A quoted scalar that opens on line `number` (`rest` is that line from the quote)
        and closes on a later one; returns it and the index of the line after it."""
        rows = self.rows
        double = rest[0] == '"'
        body = _rare.double_body if double else _rare.single_body
        lines = [rest[1:]]
        j = number  # the index of the next line
        while True:
            line = lines[-1]
            end = body.match(line).end()
            if end < len(line) and line[end] != "\\":  # the closing quote (not an escaped break)
                if not _TAIL.match(line, end + 1):
                    raise _Decline
                lines[-1] = line[:end]
                break
            if j == len(rows):
                raise _Decline  # never closed: an error for libyaml
            row = rows[j]
            if len(row[0]) <= indent and not _is_blank(row):
                raise _Decline  # at or left of its collection's column (libyaml is lenient there)
            lines.append("".join(row))
            j += 1
        # fold the lines as libyaml does: a break and the spaces around it become one space,
        # or one newline per blank line after it; an escaped break (a `\` ending the line)
        # becomes nothing, or those newlines
        quote = rest[0]
        parts = []
        escaped = False
        blank = 0
        last = len(lines) - 1
        for index, line in enumerate(lines):
            if index:
                line = line.lstrip(" ")
                if not line and index < last:
                    blank += 1
                    continue
                parts.append("\n" * blank if blank or escaped else " ")
                blank = 0
            if index < last:  # a break follows
                if double and _rare.odd_backslashes.search(line):
                    line = line[:-1]
                    escaped = True
                    if index and not line:
                        raise _Decline  # a line holding only an escaped break
                else:
                    stripped = line.rstrip(" ")
                    if double and stripped != line and _rare.odd_backslashes.search(stripped):
                        raise _Decline  # an escaped space before the break
                    line = stripped
                    escaped = False
            parts.append(_quoted(quote + line + quote))
        return "".join(parts), j

    def continued(self, text: str, i: int, indent: int) -> tuple[str, int]:
        """A plain scalar's text with the lines from index i that continue it (more indented
        than its collection's entries, not comments); returns it and the index after them."""
        rows = self.rows
        n = len(rows)
        parts = None
        blank = 0
        after = i
        while i < n:
            indentation, dash, key, sep, plain, rest = rows[i]
            if not dash and not key and not plain and not rest:
                blank += 1
                i += 1
                continue
            if len(indentation) <= indent:
                break
            if key:  # `key: value` inside a plain scalar: an error for libyaml
                raise _Decline
            content = dash + plain + rest
            if content[0] == "#":
                break
            if " #" in content:
                raise _Decline
            content = content.rstrip(" ")
            if ": " in content or content[-1] == ":":
                raise _Decline
            if parts is None:
                parts = [text]
            parts.append("\n" * blank if blank else " ")
            parts.append(content)
            blank = 0
            i += 1
            after = i
        return ("".join(parts) if parts else text), after

    def block_scalar(self, number: int, header: str, indent: int) -> tuple[str, int]:
        """A literal or folded block scalar whose header (`header` onwards) is on line `number`."""
        rows = self.rows
        n = len(rows)
        if header in _BLOCK_HEADERS:  # the common headers, without a comment
            literal = header[0] == "|"
            chomping = header[1:]
        else:
            m = _rare.block_header.match(header)
            if m is None:
                raise _Decline
            literal = m.group(1) == "|"
            chomping = m.group(2)
        j = number
        widest = 0
        while j < n and _is_blank(rows[j]):
            widest = max(widest, len(rows[j][0]))
            j += 1
        if j == n:
            raise _Decline  # empty: leave it to libyaml
        width = len(rows[j][0])
        if width <= indent or widest > width:
            raise _Decline
        body = [""] * (j - number)
        even = not body  # no blank line, and no line more indented than the first: folding joins with spaces
        trailing = 0
        while j < n:
            row = rows[j]
            if not (row[1] or row[2] or row[4] or row[5]):  # blank
                if len(row[0]) > width:  # a line of spaces only, as content: leave it to libyaml
                    raise _Decline
                trailing += 1
            elif len(row[0]) < width:
                break
            else:
                if trailing:
                    body.extend([""] * trailing)
                    trailing = 0
                    even = False
                elif len(row[0]) > width:
                    even = False
                body.append("".join(row)[width:])
            j += 1
        if j == n and not self.final_newline:
            if trailing:
                raise _Decline
            end = ""
        else:
            end = "\n"
        if literal:
            text = "\n".join(body)
        elif even:
            text = " ".join(body)
        else:
            parts = []
            previous = None
            blank = 0
            for part in body:
                if not part:
                    blank += 1
                    continue
                if previous is None:
                    parts.append("\n" * blank)
                elif previous[0] != " " and part[0] != " ":
                    parts.append("\n" * blank if blank else " ")
                else:
                    parts.append("\n" * (blank + 1))
                parts.append(part)
                previous = part
                blank = 0
            text = "".join(parts)
        if chomping == "-":
            return text, j
        if chomping == "+":
            return text + end + "\n" * trailing, j
        return text + end, j

    # ------------------------------------------------------------------ flow

    def flow(self, s: str, at: int, offset: int, number: int, pointer: str, depth: int) -> tuple[Any, int]:
        """The flow collection opening at index `at` of `s`, which must close in `s`.

        `s` starts at column `offset` of line `number`. Records the positions of the
        collection and its members; returns it and the index after it.
        """
        if depth >= self.max_depth:
            raise _Decline
        self.values[pointer] = (number, offset + at + 1)
        if s[at] == "[":
            return self.sequence(s, at + 1, offset, number, pointer, depth)
        return self.mapping(s, at + 1, offset, number, pointer, depth)

    def mapping(self, s: str, at: int, offset: int, number: int, pointer: str, depth: int) -> tuple[dict, int]:
        """The members of a flow mapping from index `at` of `s` (after its `{`) to its `}`."""
        values, keys = self.values, self.keys
        resolve, typed = self.resolve, self.typed
        match = _flow.member.match
        plain_tokens = "~" not in s and "/" not in s  # so no plain key needs escaping in a pointer
        long_keys = len(s) > _LONGEST_KEY  # so a key may be too far from its `:`
        mapping: dict = {}
        while True:
            m = match(s, at)
            if m is None:
                if not mapping:
                    m = _flow.empty_mapping_end.match(s, at)
                    if m is not None:
                        return mapping, m.end()
                raise _Decline
            spaces, raw, colon, value, tail = m.groups()
            at += len(spaces)  # the key's index
            if raw[0] in "\"'":
                name = _quoted(raw)
                member = _pointer(pointer, name)
            else:
                name = raw
                member = f"{pointer}/{raw}" if plain_tokens else _pointer(pointer, raw)
            if name in mapping:
                first = keys[member]
                self.duplicates.append((member, name, number, offset + at + 1, first[0], first[1]))
            keys[member] = (number, offset + at + 1)
            if long_keys and len(raw) + (colon.find(":") if colon else 0) > _LONGEST_KEY:  # from the key to its `:`
                raise _Decline
            if value is not None:  # a scalar
                at += len(raw) + len(colon)
                values[member] = (number, offset + at + 1)
                c = value[0]
                if c in typed:
                    mapping[name] = resolve(value)
                elif c == '"' or c == "'":
                    mapping[name] = _quoted(value)
                else:
                    mapping[name] = value
                at = m.end()
            elif tail is not None:  # `{key}` or `{key: }`: the empty value is placed at the token after it
                at = m.end()
                values[member] = (number, offset + at)
                mapping[name] = None
            elif colon is not None:  # a collection
                mapping[name], at = self.flow(s, m.end(), offset, number, member, depth + 1)
                m = _flow.next.match(s, at)
                at = m.end()
                tail = m.group(1)
            else:
                raise _Decline
            if not tail:  # something else follows the member
                raise _Decline
            if tail[-1] != ",":
                if tail[-1] == "}":
                    return mapping, at
                raise _Decline

    def sequence(self, s: str, at: int, offset: int, number: int, pointer: str, depth: int) -> tuple[list, int]:
        """The items of a flow sequence from index `at` of `s` (after its `[`) to its `]`."""
        values, keys = self.values, self.keys
        resolve, typed = self.resolve, self.typed
        match = _flow.item.match
        items: list = []
        while True:
            m = match(s, at)
            if m is None:
                if not items:
                    m = _flow.empty_sequence_end.match(s, at)
                    if m is not None:
                        return items, m.end()
                raise _Decline
            spaces, raw, tail = m.groups()
            at += len(spaces)
            item = f"{pointer}/{len(items)}"
            pos = (number, offset + at + 1)
            keys[item] = pos
            if raw is not None:  # a scalar
                values[item] = pos
                c = raw[0]
                if c in typed:
                    items.append(resolve(raw))
                elif c == '"' or c == "'":
                    items.append(_quoted(raw))
                else:
                    items.append(raw)
                at = m.end()
            else:  # a collection
                value, at = self.flow(s, at, offset, number, item, depth + 1)
                items.append(value)
                m = _flow.next.match(s, at)
                at = m.end()
                tail = m.group(1)
            if not tail:  # something else follows the member
                raise _Decline
            if tail[-1] != ",":
                if tail[-1] == "]":
                    return items, at
                raise _Decline

    # ------------------------------------------------------- flow, data only

    def flow_data(self, s: str, at: int, depth: int) -> tuple[Any, int]:
        """`flow` without positions: the flow collection opening at index `at` of `s`, and
        the index after it. A repeated key raises _Again."""
        if depth >= self.max_depth:
            raise _Decline
        if s[at] == "[":
            return self.sequence_data(s, at + 1, depth)
        return self.mapping_data(s, at + 1, depth)

    def common_flow(self, s: str, depth: int) -> Any:
        """The flow collection `s` when it is of the common kind, read with one regex call
        rather than one per member; None for anything else, which `mapping_data` and
        `sequence_data` read.

        `s` must be the collection and nothing more. Its members are plain scalars with no
        `:`, `#` or bracket and no indicator first (`-1` included), quoted scalars without
        escapes, and in a mapping, flow sequences of such plain scalars; its keys are plain.
        """
        resolve, typed = self.resolve, self.typed
        if s[0] == "[":
            m = _common.short_sequence.fullmatch(s)
            if m is not None:
                found: Any = m.groups()  # the items, then None for the ones it could have had more
            else:  # more items, or not the common kind
                if s[-1] != "]":
                    return None
                found = []
                closed = False  # the last item was read
                for item, comma, _ in _common.item.findall(s, 1, len(s) - 1):
                    if not item:  # something else, or the end
                        if not closed:
                            return None
                        break
                    found.append(item)
                    closed = not comma
            items = []
            special = self.special
            for item in found:
                if item is None:
                    break
                if item[0] not in special:  # the common case: a plain string
                    items.append(item)
                elif item[0] in typed:
                    items.append(resolve(item))
                else:  # quoted
                    items.append(item[1:-1])
            return items
        m = _common.short_mapping.fullmatch(s)
        if m is not None:
            found = m.groups()  # key, value, key, value, ...; None for the members it could have had more
        else:
            if s[-1] != "}":
                return None
            found = []
            closed = False
            for key, value, comma, _ in _common.member.findall(s, 1, len(s) - 1):
                if not key:
                    if not closed:
                        return None
                    break
                found.append(key)
                found.append(value)
                closed = not comma
        mapping = {}
        count = 0
        special = self.special
        members = iter(found)
        for key, value in zip(members, members):
            if key is None:
                break
            count += 1
            c = value[0]
            if c not in special:  # the common case: a plain string
                mapping[key] = value
            elif c in typed:
                mapping[key] = resolve(value)
            elif c != "[":  # quoted
                mapping[key] = value[1:-1]
            elif depth + 1 >= self.max_depth:
                return None
            else:  # a flow sequence of plain scalars
                items = []
                body = value[1:-1]
                if body.strip(" "):
                    for item in body.split(","):
                        item = item.strip(" ")
                        if not item or item[0] in _INDICATORS or ":" in item:
                            return None
                        items.append(resolve(item) if item[0] in typed else item)
                mapping[key] = items
        if len(mapping) != count:  # a key repeats
            raise _Again
        return mapping

    def mapping_data(self, s: str, at: int, depth: int) -> tuple[dict, int]:
        """`mapping` without positions."""
        resolve, typed = self.resolve, self.typed
        match = _flow.member.match
        long_keys = len(s) > _LONGEST_KEY  # so a key may be too far from its `:`
        mapping: dict = {}
        while True:
            m = match(s, at)
            if m is None:
                if not mapping:
                    m = _flow.empty_mapping_end.match(s, at)
                    if m is not None:
                        return mapping, m.end()
                raise _Decline
            _, raw, colon, value, tail = m.groups()
            name = _quoted(raw) if raw[0] == '"' or raw[0] == "'" else raw
            if name in mapping:
                raise _Again
            if long_keys and len(raw) + (colon.find(":") if colon else 0) > _LONGEST_KEY:  # from the key to its `:`
                raise _Decline
            if value is not None:  # a scalar
                c = value[0]
                if c in typed:
                    mapping[name] = resolve(value)
                elif c == '"' or c == "'":
                    mapping[name] = _quoted(value)
                else:
                    mapping[name] = value
                at = m.end()
            elif tail is not None:  # `{key}` or `{key: }`
                at = m.end()
                mapping[name] = None
            elif colon is not None:  # a collection
                mapping[name], at = self.flow_data(s, m.end(), depth + 1)
                m = _flow.next.match(s, at)
                at = m.end()
                tail = m.group(1)
            else:
                raise _Decline
            if not tail:  # something else follows the member
                raise _Decline
            if tail[-1] != ",":
                if tail[-1] == "}":
                    return mapping, at
                raise _Decline

    def sequence_data(self, s: str, at: int, depth: int) -> tuple[list, int]:
        """`sequence` without positions."""
        resolve, typed = self.resolve, self.typed
        match = _flow.item.match
        items: list = []
        while True:
            m = match(s, at)
            if m is None:
                if not items:
                    m = _flow.empty_sequence_end.match(s, at)
                    if m is not None:
                        return items, m.end()
                raise _Decline
            _, raw, tail = m.groups()
            if raw is not None:  # a scalar
                c = raw[0]
                if c in typed:
                    items.append(resolve(raw))
                elif c == '"' or c == "'":
                    items.append(_quoted(raw))
                else:
                    items.append(raw)
                at = m.end()
            else:  # a collection
                value, at = self.flow_data(s, m.end(), depth + 1)
                items.append(value)
                m = _flow.next.match(s, at)
                at = m.end()
                tail = m.group(1)
            if not tail:  # something else follows the member
                raise _Decline
            if tail[-1] != ",":
                if tail[-1] == "]":
                    return items, at
                raise _Decline
