"""Load YAML and JSON into plain data where every value knows its line and column.

YAML in the common block subset that descriptors are written in is read by a small
line-based reader (fastyaml.py), which builds exactly what the libyaml path builds and
declines everything else. The rest is read from the parser's event stream (libyaml's
C parser when present) and built straight into dicts and lists: PyYAML's composer
makes a Python node object per value and costs several times more. Scalars resolve
with the YAML 1.2 core schema, the one JSON Schema users and yaml-language-server
expect (`no` and `on` stay strings, `1.2.0` stays a string). JSON is parsed by the C `json` module; its
positions are found by a second scan only when a finding needs one. The fast YAML reader
records only the positions of the root and its members, and a Document reads the rest
when a deeper pointer is first looked up.

Importing this module brings in no more than the fast path needs: `re` and fastyaml.
PyYAML, `json` and `bisect` are imported where they are used, and the value classes are
plain slotted classes, not dataclasses (importing `dataclasses` costs more than loading
a descriptor).

Nothing here raises anything but `LoadError` on bad input, and every limit is
checked while reading, so a hostile file cannot exhaust memory or time.
"""

from __future__ import annotations

import functools
import re

from toolcontract.core.nesting import nests_deeper
from toolcontract.core.pointer import escape_token, parent_pointer, resolve_pointer, split_pointer
from toolcontract.core.records import FrozenRecord
from toolcontract.io import fastyaml

TYPE_CHECKING = False
if TYPE_CHECKING:  # not imported at run time: the fast path needs nothing from typing
    from typing import Any


@functools.cache
def _yaml():
    """PyYAML and its event parser, imported when a text first needs them: the fast path
    reads most descriptors alone, and importing PyYAML costs more than linting one."""
    import yaml

    try:  # libyaml binding: about ten times faster than the pure-Python parser
        from yaml.cyaml import CParser as parser
    except ImportError:  # pragma: no cover - depends on how PyYAML was built
        from yaml.parser import Parser
        from yaml.reader import Reader
        from yaml.scanner import Scanner

        class parser(Reader, Scanner, Parser):  # type: ignore[no-redef]
            def __init__(self, stream):
                Reader.__init__(self, stream)
                Scanner.__init__(self)
                Parser.__init__(self)

    return yaml, parser


class Limits(FrozenRecord):
    """Loader limits; over any of them is a load error, never a hang."""

    __slots__ = ("max_bytes", "max_depth", "max_alias_nodes", "max_yaml_nodes")

    def __init__(self, max_bytes: int = 5 * 1024 * 1024, max_depth: int = 64, max_alias_nodes: int = 10_000,
                 max_yaml_nodes: int = 250_000):
        setattr_ = object.__setattr__
        setattr_(self, "max_bytes", max_bytes)
        setattr_(self, "max_depth", max_depth)
        setattr_(self, "max_alias_nodes", max_alias_nodes)
        # YAML that the fast reader declines is read event by event, a few microseconds a node: a
        # 5 MiB file of `- - - - 0` lines holds 2.6 million of them. A descriptor has a few thousand.
        setattr_(self, "max_yaml_nodes", max_yaml_nodes)


DEFAULT_LIMITS = Limits()


class LoadError(Exception):
    """The file cannot be read as data. Positions are 1-based."""

    def __init__(self, message: str, line: int = 1, column: int = 1):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.message}"


class DuplicateKey(FrozenRecord):
    __slots__ = ("pointer", "key", "line", "column", "first_line", "first_column")

    def __init__(self, pointer: str, key: str, line: int, column: int, first_line: int, first_column: int):
        setattr_ = object.__setattr__
        setattr_(self, "pointer", pointer)  # the member whose key repeats
        setattr_(self, "key", key)
        setattr_(self, "line", line)  # of the repeated key
        setattr_(self, "column", column)
        setattr_(self, "first_line", first_line)
        setattr_(self, "first_column", first_column)


class Document:
    """A loaded file: its data and the positions of its values and keys."""

    __slots__ = ("path", "text", "data", "duplicates", "_values", "_keys", "_lines", "_partial", "_top",
                 "_scan", "__weakref__")

    def __init__(self, path: str, text: str, data: Any, duplicates: list[DuplicateKey] | None = None,
                 _values: dict[str, tuple[int, int]] | None = None, _keys: dict[str, tuple[int, int]] | None = None,
                 _lines: list[str] | None = None, _partial: Limits | None = None, _top: list[int] | None = None):
        self.path = path
        self.text = text
        self.data = data
        self.duplicates = [] if duplicates is None else duplicates
        # pointer -> (line, column), 1-based. JSON: None until a position is asked for.
        # YAML: filled while reading, except after the fast reader's shallow read: then
        # `_partial` holds the limits the text was read with, `_top` the positions of the
        # root and its members (see fastyaml.top_positions), which fill these on the first
        # look-up, and the rest is read on the first look-up of a deeper pointer.
        self._values = _values
        self._keys = _keys
        self._lines = _lines
        self._partial = _partial
        self._top = _top
        self._scan = None  # JSON: the position scan, resumed as far as the pointers asked for need

    def __repr__(self) -> str:
        return (f"Document(path={self.path!r}, text={self.text!r}, data={self.data!r}, "
                f"duplicates={self.duplicates!r}, _values={self._values!r}, _keys={self._keys!r})")

    def positions(self) -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]]]:
        """(values, keys): the (line, column) of every pointer's value and of its key,
        read now if they were not."""
        self._ensure_positions()
        assert self._values is not None and self._keys is not None
        return self._values, self._keys

    def _ensure_positions(self) -> None:
        if self._partial is not None:
            self._read_positions()
        elif self._values is None or self._scan is not None:
            self._scan_json_to(None)

    def _read_positions(self) -> None:
        """Every position of a YAML document the fast reader read shallowly: the same
        reader again, recording them all (the libyaml path if it should decline)."""
        limits = self._partial
        assert limits is not None
        result = fastyaml.parse(self.text, limits.max_depth, _resolve_plain, _MAYBE_TYPED)
        if result is not None:
            self._values, self._keys = result[1], result[2]
        else:  # pragma: no cover - the reader takes every text it took before
            try:
                loaded = _load_yaml_events(self.text, self.path, limits)
                self._values, self._keys = loaded._values, loaded._keys
            except LoadError:  # keep the shallow read's: a finding is placed at its nearest ancestor there
                if self._values is None:
                    self._values, self._keys = fastyaml.top_positions(self.data, self._top)
        self._partial = self._top = None

    def locate(self, pointer: str, anchor: str = "auto") -> tuple[int, int]:
        """Line and column for a pointer.

        `anchor` is "value" (where the value starts), "key" (the member's key) or
        "auto": the key for an object or array member, the value for a scalar. A
        pointer that names nothing in the file (a missing member, a value reached
        through an alias) falls back to the nearest ancestor that has a position.
        """
        if self._partial is not None:  # a shallow read
            if pointer.count("/") > 1:  # deeper than the root's members
                self._read_positions()
            elif self._values is None:
                self._values, self._keys = fastyaml.top_positions(self.data, self._top)
        elif self._values is None or self._scan is not None:
            self._scan_json_to(pointer)
        values, keys = self._values, self._keys
        assert values is not None and keys is not None
        return _probe(self.data, values, keys, pointer, anchor)

    def _scan_json_to(self, pointer: str | None) -> None:
        """Scan a JSON text's positions as far as `pointer` (its deepest part the data has), or to the end
        (None): a 5 MiB list whose findings are all on its first entries is not scanned whole."""
        if self._values is None:
            self._values, self._keys = {}, {}
            self._scan = _json_position_stream(self.text, self._values, self._keys, [])
        scan = self._scan
        if scan is None:
            return
        if pointer is not None:
            pointer = _existing_part(self.data, pointer)
            if pointer in self._values:
                return
        for reached in scan:
            if reached == pointer:
                return
        self._scan = None

    def line_text(self, line: int) -> str:
        # split once, and at the parser's own line breaks: JSON positions count only "\n"
        # (U+2028 or NEL inside a JSON string is no break); libyaml also breaks at \r, NEL, U+2028/9
        if self._lines is None:
            json_text = looks_like_json(self.path, self.text)
            self._lines = self.text.split("\n") if json_text else self.text.splitlines()
        lines = self._lines
        return lines[line - 1].removesuffix("\r") if 0 < line <= len(lines) else ""


# ------------------------------------------------------------------- comments

_YAML_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # the line breaks libyaml counts


def yaml_comments(text: str) -> list[tuple[int, int, str, bool]]:
    """The comments of a YAML text, as the scanner sees them: (line, column, text from `#` to the end
    of the line, whether something precedes it on its line), 1-based.

    PyYAML's scanner drops comments, but every other character of the text belongs to a token
    (scalars with their quotes and block-scalar bodies, indicators, keys) or is white space; so
    a `#` outside every token's span is a comment, and one inside a scalar (quoted, block or
    plain: `a#b`) is text. A text the scanner cannot read has no comments."""
    yaml, _ = _yaml()
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    spans: list[tuple[int, int]] = []
    try:
        for token in yaml.scan(text, Loader=loader):
            start, end = token.start_mark.index, token.end_mark.index
            if end > start:
                spans.append((start, end))
    except yaml.YAMLError:
        return []
    found: list[tuple[int, int, str, bool]] = []
    line_starts = [0] + [m.end() for m in _YAML_BREAK.finditer(text)]
    cursor = 0  # spans come in text order
    position = text.find("#")
    while position != -1:
        while cursor < len(spans) and spans[cursor][1] <= position:
            cursor += 1
        inside = cursor < len(spans) and spans[cursor][0] <= position < spans[cursor][1]
        if inside:
            position = text.find("#", spans[cursor][1])
            continue
        import bisect

        line = bisect.bisect_right(line_starts, position)
        start = line_starts[line - 1]
        end_match = _YAML_BREAK.search(text, position)
        end = end_match.start() if end_match else len(text)
        found.append((line, position - start + 1, text[position:end], bool(text[start:position].strip())))
        position = text.find("#", end)
    return found


def _probe(data: Any, values: dict, keys: dict, pointer: str, anchor: str) -> tuple[int, int]:
    """`Document.locate` on position tables: the key or the value, else the nearest ancestor's."""
    if anchor == "auto":
        found, value = resolve_pointer(data, pointer)
        anchor = "key" if found and isinstance(value, (dict, list)) else "value"
    probe = pointer
    while True:
        if anchor == "key" and probe in keys:
            return keys[probe]
        if probe in values:
            return values[probe]
        if not probe:
            return (1, 1)
        probe = parent_pointer(probe)
        anchor = "value"


# --------------------------------------------------------------------- reading


_BOM_FIRST_BYTES = frozenset(b"\xff\xfe\x00\xef")


def decode(raw: bytes) -> str:
    """Bytes to text: UTF-8 (a BOM is accepted), or UTF-16/32 with a BOM."""
    if not raw or raw[0] not in _BOM_FIRST_BYTES:
        codec = "utf-8"  # what utf-8-sig does without a BOM, with no codec look-up
    elif raw.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        codec = "utf-32"
    elif raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        codec = "utf-16"
    else:
        codec = "utf-8-sig"
    try:
        return raw.decode(codec)
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        bad = raw[exc.start : exc.start + 1].hex()
        raise LoadError(f"invalid {codec.split('-sig')[0].upper()}: byte 0x{bad} cannot be decoded", line, column) from None


def looks_like_json(path: str, text: str) -> bool:
    if path.endswith((".yaml", ".yml")):  # the common case, before lowering the path
        return False
    lowered = path.lower()
    if lowered.endswith((".json", ".jsonl")):
        return True
    if lowered.endswith((".yaml", ".yml")):
        return False
    return text.lstrip()[:1] in ("{", "[")


def load_bytes(raw: bytes, path: str, limits: Limits = DEFAULT_LIMITS) -> Document:
    if len(raw) > limits.max_bytes:
        raise LoadError(f"file is {len(raw):,} bytes, over the {limits.max_bytes:,}-byte limit")
    return load_text(decode(raw), path, limits)


def load_text(text: str, path: str, limits: Limits = DEFAULT_LIMITS) -> Document:
    if len(text) > limits.max_bytes:
        raise LoadError(f"text is {len(text):,} characters, over the {limits.max_bytes:,} limit")
    if looks_like_json(path, text):
        return _load_json(text, path, limits)
    document = _load_yaml_fast(text, path, limits)
    return document if document is not None else _load_yaml_events(text, path, limits)


# ------------------------------------------------------------------------ YAML

_CORE_NULL = frozenset(("", "~", "null", "Null", "NULL"))
_CORE_TRUE = frozenset(("true", "True", "TRUE"))
_CORE_FALSE = frozenset(("false", "False", "FALSE"))
_CORE_INF = frozenset(sign + dot_inf for sign in ("", "-", "+") for dot_inf in (".inf", ".Inf", ".INF"))
_CORE_NAN = frozenset((".nan", ".NaN", ".NAN"))
# compiled on first use (a plain scalar that starts like a number and is not an integer)
_core = fastyaml.LazyPatterns(
    octal=r"0o[0-7]+\Z",
    hexadecimal=r"0x[0-9a-fA-F]+\Z",
    float=r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z",
)
_MAYBE_TYPED = frozenset("-+.0123456789~nNtTfF")
_TAG = "tag:yaml.org,2002:"
_COLLECTION_TAGS = frozenset(("!", _TAG + "map", _TAG + "seq", _TAG + "omap"))


def _resolve_plain(value: str) -> Any:
    """A plain scalar under the YAML 1.2 core schema."""
    if value and value[0] not in _MAYBE_TYPED:
        return value
    if value in _CORE_NULL:
        return None
    if value in _CORE_TRUE:
        return True
    if value in _CORE_FALSE:
        return False
    digits = value[1:] if value[0] == "-" or value[0] == "+" else value
    if digits.isdigit() and digits.isascii():  # [-+]?[0-9]+
        return int(value)
    if value.startswith(("0o", "0x")) and (_core.octal.match(value) or _core.hexadecimal.match(value)):
        number = int(value[2:], 8 if value[1] == "o" else 16)
        if number.bit_length() > _MAX_DIGITS * 3.32:  # would not convert back to decimal
            raise ValueError(_LONG_NUMBER)
        return number
    if _core.float.match(value):
        return float(value)
    if value in _CORE_INF:
        return float("-inf") if value[0] == "-" else float("inf")
    if value in _CORE_NAN:
        return float("nan")
    return value


def _tagged(tag: str, value: str, mark) -> Any:
    kind = tag[len(_TAG) :] if tag.startswith(_TAG) else None
    try:
        if kind == "str":
            return value
        if kind == "null":
            return None
        if kind == "bool":
            if value in _CORE_TRUE:
                return True
            if value in _CORE_FALSE:
                return False
            raise ValueError
        if kind == "int":
            return int(value, 0)
        if kind == "float":
            return float(value)
    except ValueError:
        shown = value if len(value) <= 40 else value[:40] + "…"
        raise LoadError(f"{shown!r} is not a valid !!{kind}", mark.line + 1, mark.column + 1) from None
    raise LoadError(f"unsupported YAML tag {tag!r}: only the core schema's tags are read", mark.line + 1, mark.column + 1)


def _yaml_error(exc: Exception, text: str) -> LoadError:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    message = f"{context}: {problem}" if context and problem else problem
    if mark is not None:
        return LoadError(f"YAML: {message}", mark.line + 1, mark.column + 1)
    position = getattr(exc, "position", None)
    if isinstance(position, int):  # ReaderError: a character offset
        line = text.count("\n", 0, position) + 1
        column = position - (text.rfind("\n", 0, position) + 1) + 1
        reason = getattr(exc, "reason", "unacceptable character")
        char = getattr(exc, "character", None)
        what = f" #x{ord(char):04x}" if isinstance(char, str) else ""
        return LoadError(f"YAML: {reason}{what}", line, column)
    return LoadError(f"YAML: {message}")


def _load_yaml_fast(text: str, path: str, limits: Limits) -> Document | None:
    """The common block-YAML subset read without libyaml (see fastyaml); None when the
    text is outside it, and for every error, which only the event path reports."""
    result = fastyaml.parse(text, limits.max_depth, _resolve_plain, _MAYBE_TYPED, True)
    if result is None:
        return None
    data, values, keys, duplicates, top = result
    return Document(path, text, data, [DuplicateKey(*d) for d in duplicates] if duplicates else [],
                    values, keys, None, None if top is None else limits, top)


_TOO_MANY_NODES = "YAML: more than {:,} values (a descriptor holds a few thousand): not read"


def _load_yaml_events(text: str, path: str, limits: Limits) -> Document:
    # One pass over libyaml's events. This loop runs once per node of every file,
    # so it keeps state in locals: the open container, its pointer, whether it is
    # a mapping, and the pending key (its pointer and position) of that mapping.
    values: dict[str, tuple[int, int]] = {}
    keys: dict[str, tuple[int, int]] = {}
    duplicates: list[DuplicateKey] = []
    anchors: dict[str, tuple[Any, int]] = {}  # name -> (value, node count)
    pending: set[str] = set()  # anchors whose node is still open (recursion)
    # saved frames of the enclosing containers:
    # (container, pointer, is_map, key_pointer, anchor, start_count)
    stack: list[tuple] = []
    container: Any = None  # the open container; None at the top level
    base = ""  # its pointer
    is_map = False
    key_pointer: str | None = None  # in a mapping: the pointer of the member whose key was just read
    key_name: Any = None
    key_pos: tuple[int, int] = (1, 1)
    frame_anchor: str | None = None
    frame_start = 0
    nodes = 0
    expanded = 0
    documents = 0
    root: Any = None
    max_depth = limits.max_depth
    max_alias_nodes = limits.max_alias_nodes
    max_nodes = limits.max_yaml_nodes
    yaml, event_parser = _yaml()
    scalar_event, alias_event = yaml.ScalarEvent, yaml.AliasEvent
    mapping_start, sequence_start = yaml.MappingStartEvent, yaml.SequenceStartEvent
    mapping_end, sequence_end = yaml.MappingEndEvent, yaml.SequenceEndEvent
    maybe_typed, resolve_plain = _MAYBE_TYPED, _resolve_plain

    parser = None
    try:
        parser = event_parser(text)
        get_event = parser.get_event
        while True:
            event = get_event()
            if event is None:
                break
            cls = type(event)
            if cls is mapping_end or cls is sequence_end:
                if frame_anchor is not None:
                    anchors[frame_anchor] = (container, nodes - frame_start)
                    pending.discard(frame_anchor)
                container, base, is_map, key_pointer, frame_anchor, frame_start = stack.pop()
                continue
            if cls is not scalar_event and cls is not alias_event and cls is not mapping_start \
                    and cls is not sequence_start:
                if cls is yaml.DocumentStartEvent:
                    documents += 1
                    if documents > 1:
                        m = event.start_mark
                        raise LoadError("more than one YAML document in the file; put one per file", m.line + 1, m.column + 1)
                continue  # stream start and end, document end

            mark = event.start_mark
            pos = (mark.line + 1, mark.column + 1)
            # the slot this event fills: mapping key, mapping value or sequence item
            if is_map:
                if key_pointer is None:  # a mapping key
                    if cls is not scalar_event:
                        raise LoadError("mapping keys must be plain scalars, not collections or aliases", *pos)
                    key_name = event.value
                    key_pointer = f"{base}/{key_name.replace('~', '~0').replace('/', '~1')}" \
                        if ("~" in key_name or "/" in key_name) else f"{base}/{key_name}"
                    if key_name in container:  # every earlier key already has its value
                        first = keys[key_pointer]
                        duplicates.append(DuplicateKey(key_pointer, key_name, pos[0], pos[1], first[0], first[1]))
                    key_pos = pos
                    continue
                pointer = key_pointer
                keys[pointer] = key_pos
            elif container is not None:
                pointer = f"{base}/{len(container)}"
                keys[pointer] = pos
            else:
                pointer = ""

            if cls is scalar_event:
                tag = event.tag
                if tag is None:
                    value = event.value
                    if event.implicit[0] and (not value or value[0] in maybe_typed):  # a plain scalar
                        try:
                            value = resolve_plain(value)
                        except ValueError:  # an integer too long to convert
                            raise LoadError(_LONG_NUMBER, *pos) from None
                elif tag == "!":
                    value = event.value
                else:
                    value = _tagged(tag, event.value, mark)
                nodes += 1
                if nodes > max_nodes:
                    raise LoadError(_TOO_MANY_NODES.format(max_nodes), *pos)
                if event.anchor is not None:
                    anchors[event.anchor] = (value, 1)
                values[pointer] = pos
                if is_map:
                    container[key_name] = value
                    key_pointer = None
                elif container is not None:
                    container.append(value)
                else:
                    root = value
                continue

            if cls is alias_event:
                name = event.anchor
                if name in pending:
                    raise LoadError(f"alias *{name} refers to a node that contains it (recursive alias)", *pos)
                if name not in anchors:
                    raise LoadError(f"alias *{name} names no anchor defined before it", *pos)
                value, size = anchors[name]
                expanded += size
                nodes += size
                if expanded > max_alias_nodes:
                    raise LoadError(f"aliases expand to over {max_alias_nodes:,} nodes (alias bomb?)", *pos)
                values[pointer] = pos
                if is_map:
                    container[key_name] = value
                    key_pointer = None
                elif container is not None:
                    container.append(value)
                else:
                    root = value
                continue

            # a mapping or sequence starts
            tag = event.tag
            if tag is not None and tag not in _COLLECTION_TAGS:
                raise LoadError(f"unsupported YAML tag {tag!r}: only the core schema's tags are read", *pos)
            if len(stack) >= max_depth:
                raise LoadError(f"nesting is deeper than {max_depth} levels", *pos)
            nodes += 1
            if nodes > max_nodes:
                raise LoadError(_TOO_MANY_NODES.format(max_nodes), *pos)
            value = {} if cls is mapping_start else []
            anchor = event.anchor
            if anchor is not None:
                pending.add(anchor)
            values[pointer] = pos
            if is_map:
                container[key_name] = value
                key_pointer = None
            elif container is not None:
                container.append(value)
            else:
                root = value
            stack.append((container, base, is_map, key_pointer, frame_anchor, frame_start))
            container, base, is_map, key_pointer, frame_anchor, frame_start = (
                value, pointer, cls is mapping_start, None, anchor, nodes
            )
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, text) from None
    except RecursionError:  # pragma: no cover - the depth limit comes first
        raise LoadError(f"nesting is deeper than {max_depth} levels") from None
    finally:
        dispose = getattr(parser, "dispose", None)
        if dispose is not None and parser is not None:
            dispose()
    return Document(path=path, text=text, data=root, duplicates=duplicates, _values=values, _keys=keys)


# ------------------------------------------------------------------------ JSON


class _Duplicate(Exception):
    pass


def _strict_pairs(pairs: list[tuple[str, Any]]) -> dict:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _Duplicate
    return result


def _load_json(text: str, path: str, limits: Limits) -> Document:
    import json  # here: YAML descriptors, the common case, never need it

    duplicates: list[DuplicateKey] = []
    try:
        try:
            data = json.loads(text, object_pairs_hook=_strict_pairs)
            values = keys = None
        except _Duplicate:  # a repeated key comes before any syntax error the text may have further on
            data = json.loads(text)  # last one wins, as in every JSON parser
            values, keys, duplicates = _scan_json_positions(text)
    except json.JSONDecodeError as exc:
        raise LoadError(f"JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except RecursionError:
        raise LoadError(f"nesting is deeper than {limits.max_depth} levels") from None
    except ValueError:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        raise LoadError(_LONG_NUMBER, *_offset_position(text, _long_number_at(text))) from None
    if nests_deeper(data, limits.max_depth):
        values, keys, _ = _scan_json_positions(text, limits.max_depth)
        raise LoadError(f"nesting is deeper than {limits.max_depth} levels", *_deepest_position(values, limits.max_depth))
    from toolcontract.core.jsoncodec import LONE_SURROGATE, lone_surrogate_offset

    offset = lone_surrogate_offset(text, data)
    if offset is not None:
        raise LoadError(LONE_SURROGATE, *_offset_position(text, offset))
    return Document(path=path, text=text, data=data, duplicates=duplicates, _values=values, _keys=keys)


_MAX_DIGITS = 4300  # Python's default limit on int <-> str conversion, which keeps it from taking quadratic time
_LONG_NUMBER = f"a number has more than {_MAX_DIGITS:,} digits"


def _long_number_at(text: str) -> int:
    m = re.search(r"\d{%d,}" % (_MAX_DIGITS + 1), text)
    return m.start() if m else 0


def _offset_position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _deepest_position(values: dict[str, tuple[int, int]], limit: int) -> tuple[int, int]:
    for pointer, pos in values.items():
        if pointer.count("/") >= limit:
            return pos
    return (1, 1)


@functools.cache
def _json_patterns() -> tuple[re.Pattern, re.Pattern]:
    """White space, and a number or literal: compiled when a JSON position is first asked for."""
    return re.compile(r"[ \t\n\r]*"), re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")


def _existing_part(data: Any, pointer: str) -> str:
    """The longest prefix of `pointer` that names something in `data` (what a scan can reach)."""
    found = ""
    node = data
    for token in split_pointer(pointer):
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            break
        found = f"{found}/{escape_token(token)}"
    return found


def _scan_json_positions(text: str, depth_cap: int | None = None):
    """Positions of every value and member key of a JSON text already known to parse.
    Returns (values, keys, duplicates)."""
    values: dict[str, tuple[int, int]] = {}
    keys: dict[str, tuple[int, int]] = {}
    duplicates: list[DuplicateKey] = []
    for _ in _json_position_stream(text, values, keys, duplicates):
        pass
    return values, keys, duplicates


def _json_position_stream(text: str, values: dict, keys: dict, duplicates: list):
    """Fill `values`, `keys` and `duplicates` with the positions of a JSON text already known to
    parse, in text order, yielding each value's pointer once its position is recorded (so a caller
    can stop at the one it needs and resume later).

    Iterative, so depth is no concern; string bodies are skipped with the C `scanstring`."""
    import bisect
    from json.decoder import scanstring

    ws, atom = _json_patterns()
    line_starts = [0]
    line_starts.extend(m.end() for m in re.finditer("\n", text))

    def where(offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(line_starts, offset)
        return (line, offset - line_starts[line - 1] + 1)

    stack: list[list] = []  # [is_object, pointer, next index | seen keys]
    n = len(text)
    i = ws.match(text, 1 if text.startswith("\ufeff") else 0).end()
    pointer = ""

    def next_slot(i: int) -> tuple[int, str]:
        i = ws.match(text, i).end()
        frame = stack[-1]
        if not frame[0]:
            pointer = f"{frame[1]}/{frame[2]}"
            frame[2] += 1
            keys[pointer] = where(i)
            return i, pointer
        key_pos = where(i)
        key, i = scanstring(text, i + 1)
        pointer = f"{frame[1]}/{escape_token(key)}"
        seen = frame[2]
        if key in seen:
            first = seen[key]
            duplicates.append(DuplicateKey(pointer, key, key_pos[0], key_pos[1], first[0], first[1]))
        seen[key] = key_pos
        keys[pointer] = key_pos
        i = ws.match(text, i).end() + 1  # past the colon
        return ws.match(text, i).end(), pointer

    while i < n:
        values[pointer] = where(i)
        yield pointer
        ch = text[i]
        if ch == "{" or ch == "[":
            stack.append([ch == "{", pointer, {} if ch == "{" else 0])
            j = ws.match(text, i + 1).end()
            if j < n and text[j] not in "}]":
                i, pointer = next_slot(j)
                continue
            i = j  # empty container: its closing bracket is handled below
        elif ch == '"':
            _, i = scanstring(text, i + 1)
        else:
            m = atom.match(text, i)
            i = m.end() if m else i + 1
        # after a value: close finished containers, or move to the next slot
        while True:
            i = ws.match(text, i).end()
            if not stack or i >= n:
                return
            if text[i] == ",":
                i, pointer = next_slot(i + 1)
                break
            stack.pop()  # "}" or "]"
            i += 1


def lone_surrogate_at(document: Document) -> tuple[int, int] | None:
    """Where a lone surrogate escape is in a document (see lone_surrogate_offset), or None."""
    from toolcontract.core.jsoncodec import lone_surrogate_offset

    offset = lone_surrogate_offset(document.text, document.data)
    return None if offset is None else _offset_position(document.text, offset)

