"""The pieces the YAML fast path is built from read exactly what their plain forms read.

tests/test_yaml_fast_path.py compares whole documents with libyaml; this file checks the
parts that were made cheaper, each against a plain reference, on texts drawn to hit their
edges:

- `_resolve_plain` (shared with the libyaml path) against the core-schema regexes it
  replaced;
- `decode` against decoding with the codec its BOM names;
- the line regex against its readable form (optional groups, no possessive quantifiers);
- `common_flow` (one regex call per flow collection, or string methods) against the
  general flow reading (one regex call per member);
- the shallow read: the positions of the root and its members, and a Document that reads
  the rest only when a deeper pointer is looked up;
- the value classes without `dataclasses`, and what importing the loader costs.
"""

from __future__ import annotations

import pickle
import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples
from toolcontract.io import document, fastyaml
from toolcontract.io.document import (
    DEFAULT_LIMITS,
    Document,
    DuplicateKey,
    Limits,
    LoadError,
    decode,
    load_bytes,
    load_text,
)

EXAMPLES = settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------- plain scalars

_INT = re.compile(r"[-+]?[0-9]+\Z")
_OCT = re.compile(r"0o[0-7]+\Z")
_HEX = re.compile(r"0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z")
_INF = re.compile(r"[-+]?\.(inf|Inf|INF)\Z")
_NAN = re.compile(r"\.(nan|NaN|NAN)\Z")


def reference_resolve(value: str):
    """The YAML 1.2 core schema as the loader read it with one regex per type."""
    if value and value[0] not in document._MAYBE_TYPED:
        return value
    if value in ("", "~", "null", "Null", "NULL"):
        return None
    if value in ("true", "True", "TRUE"):
        return True
    if value in ("false", "False", "FALSE"):
        return False
    if _INT.match(value):
        return int(value)
    if _OCT.match(value) or _HEX.match(value):
        number = int(value[2:], 8 if value[1] == "o" else 16)
        if number.bit_length() > document._MAX_DIGITS * 3.32:
            raise ValueError
        return number
    if _FLOAT.match(value):
        return float(value)
    if _INF.match(value):
        return float("-inf") if value[0] == "-" else float("inf")
    if _NAN.match(value):
        return float("nan")
    return value


def outcome(read, value: str):
    try:
        result = read(value)
    except ValueError:
        return "ValueError"
    return type(result), repr(result)


SCALAR_PIECES = ["0", "1", "7", "9", "-", "+", ".", "e", "E", "o", "x", "a", "f", "F", "inf", "Inf", "INF", "nan",
                 "NaN", "NAN", "null", "true", "False", "~", " ", "\n", "_", "١", "²", "٣", "0o", "0x", "1e5"]


@pytest.mark.long
@EXAMPLES
@given(st.lists(st.sampled_from(SCALAR_PIECES), max_size=5).map("".join))
def test_resolve_plain_reads_the_core_schema_as_its_regexes_did(value):
    assert outcome(document._resolve_plain, value) == outcome(reference_resolve, value)


@pytest.mark.parametrize("value", ["", "~", "-", "+", "+1", "-0", "007", "1_000", "0o17", "0o8", "0x1F", "0x", "0xg",
                                   ".5", "1.", "+.5", "-.inf", "+.Inf", ".NaN", "-.nan", "1e5", "1E-5", "1.2.0", "٣",
                                   "²", "1\n", "12 ", "0o" + "7" * 5000, "9" * 5000])
def test_resolve_plain_edge_cases(value):
    assert outcome(document._resolve_plain, value) == outcome(reference_resolve, value)


# ------------------------------------------------------------------- bytes


def reference_decode(raw: bytes) -> str:
    if raw.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
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
        raise LoadError(f"invalid {codec.split('-sig')[0].upper()}: byte 0x{bad} cannot be decoded", line, column)


def decoded(read, raw: bytes):
    try:
        return read(raw)
    except LoadError as exc:
        return (exc.message, exc.line, exc.column)


BYTE_PIECES = [b"a", b"\n", b": ", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\x00", b"\x00\x00", b"\xff", b"\xfe",
               b"\xef", b"\xc3\xa9", b"\xc3", b"\xe2\x82\xac", b"\x80", b"\xf0\x9f\x92\xa5"]


@pytest.mark.long
@EXAMPLES
@given(st.lists(st.sampled_from(BYTE_PIECES), max_size=6).map(b"".join))
def test_decode_reads_what_the_codecs_read(raw):
    assert decoded(decode, raw) == decoded(reference_decode, raw)


# -------------------------------------------------------------------- lines

_NF = fastyaml._NOT_FIRST
READABLE_LINE = re.compile(  # the line regex as it was first written
    rf"^( *)(- +|-$)?(?:([^{_NF}~/][^: #\n~/]{{0,998}})(:(?: +|$)))?(?:([^{_NF}][^:#\n]*(?<! ))$)?(.*)$",
    re.MULTILINE,
)
LINE_PIECES = [" ", "  ", "-", "- ", ":", ": ", "#", " #", "a", "b", "~", "/", "'", '"', "[", "]", "{", "}", ",", "?",
               "é", "x y", "\n", "1", ".", "|", ">", "!", "&", "*", "%", "@", "`", "key", "- key: ", "...", "---"]


@pytest.mark.long
@EXAMPLES
@given(st.lists(st.sampled_from(LINE_PIECES), max_size=14).map("".join))
def test_the_line_regex_cuts_lines_as_its_readable_form(text):
    assert fastyaml._LINE.findall(text) == READABLE_LINE.findall(text)


@pytest.mark.long
@EXAMPLES
@given(st.lists(st.sampled_from(LINE_PIECES + ["\n\n", "\r\n"]), max_size=14).map("".join))
def test_the_line_regex_gives_one_row_a_line(text):
    """`read` relies on it rather than counting the lines."""
    rows = fastyaml._LINE.findall(text)
    assert len(rows) == text.count("\n") + 1
    assert ["".join(row) for row in rows] == text.split("\n")


@pytest.mark.parametrize("text, taken", [
    ("a: b\n" * (fastyaml._MOST_LINES - 1), True),
    ("a: b\n" * (fastyaml._MOST_LINES - 1) + "a: b", True),
    ("a: b\n" * fastyaml._MOST_LINES, False),  # one line more: the empty one after the last break
    ("\n" * fastyaml._MOST_LINES, False),
    ("\n" * (fastyaml._MOST_LINES - 1), True),
    ('a: "' + "\\t" * fastyaml._MOST_ESCAPES + '"\n', True),
    ('a: "' + "\\t" * (fastyaml._MOST_ESCAPES // 2) + '"\nb: "' + "\\t" * (fastyaml._MOST_ESCAPES // 2 + 1) + '"\n',
     False),
])
def test_the_size_limits_hold_without_counting_short_texts(text, taken):
    result = fastyaml.read(text, 64, document._resolve_plain, document._MAYBE_TYPED, True)
    assert (result is not None) == taken
    if result is not None and "a: b" in text:
        assert result[4] is None  # repeated keys: read in full
        assert len(result[3]) == text.count("a: b") - 1


# --------------------------------------------------------------------- flow


def reader() -> fastyaml._Reader:
    return fastyaml._Reader([("", "", "", "", "", "")], False, DEFAULT_LIMITS.max_depth, document._resolve_plain,
                            document._MAYBE_TYPED)


def general_flow(text: str):
    """The general reading of a flow collection that must fill `text`: its value, or the
    exception that stops it."""
    try:
        value, end = reader().flow_data(text, 0, 1)
    except (fastyaml._Decline, fastyaml._Again, ValueError) as exc:
        return type(exc)
    return value if end == len(text) else "shorter"


def common_flow(text: str):
    try:
        return reader().common_flow(text, 1)
    except (fastyaml._Decline, fastyaml._Again, ValueError) as exc:
        return type(exc)


COMMON_PIECES = ["a", "b c", "type", "string", "1", "007", "1.5", "true", "null", "~", "é", "a-b", "/id", "it's",
                 '"q"', '"a, b"', '"a]b"', '"}"', "'q'", "'a, b'", "''", '""', "[]", "[ ]", "[a, b]", "[1, x y]"]
OTHER_PIECES = ["-1", "a#b", '"\\n"', "'it''s'", "[a: b]", "{}", "{a: b}", "-", "?x", "&a", "a:b", "a: b", "a #b",
                "  ", " ", "[-1]", "[[a]]", "['a']"]


@st.composite
def flows(draw):
    """Flow collections, mostly of the kind `common_flow` reads, with a near miss now and then."""
    def piece():
        return draw(st.sampled_from(OTHER_PIECES)) if draw(st.integers(0, 9)) == 0 else draw(st.sampled_from(COMMON_PIECES))

    def rarely(common, *other):
        return draw(st.sampled_from(other)) if draw(st.integers(0, 9)) == 0 else common

    comma = rarely(", ", ",", " , ", ",  ", ",,")
    count = draw(st.integers(0, 7))
    if draw(st.booleans()):
        text = "[" + rarely("", " ") + comma.join(piece() for _ in range(count)) + rarely("", " ", ",") + "]"
    else:
        members = []
        for _ in range(count):
            key = rarely(draw(st.sampled_from(["a", "type", "description", "b", "k", "x y", "1"])), "'k'", '"k"', "-k")
            members.append(key + rarely(": ", ":  ", " : ", ":", "") + piece())
        text = "{" + rarely("", " ") + comma.join(members) + rarely("", " ", ",") + "}"
    return text + rarely("", " ", " # c", "x")


@pytest.mark.long
@settings(max_examples=examples(2000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(flows())
def test_common_flow_reads_what_the_general_reading_reads(text):
    """Where the common reading answers, the general one answers the same (a repeated key
    included); where it declines (None), the general one reads the text."""
    common = common_flow(text)
    if common is not None:
        assert common == general_flow(text), text
        assert common is not fastyaml._Decline, text  # it declines by answering None


@pytest.mark.parametrize("text", [
    "{type: string, description: Identifier of the user account.}",
    '{type: string, pattern: "^acct_[0-9]+$", description: Identifier of the user account.}',
    "{type: string, enum: [en, de, fr, ja, zh], description: Language of the returned text.}",
    "{a: 1, b: 2, c: 3, d: 4, e: 5, f: [x, y], g: 'h'}",
    "[a, b, c, d, e, f]",
    "['a, b', \"c]\", 1, true, null]",
    "{a: 1, a: 2}",
    "{a: 1, b: 2, c: 3, d: 4, a: 5}",
])
def test_common_flows_are_taken(text):
    assert common_flow(text) is not None
    assert common_flow(text) == general_flow(text)


@pytest.mark.parametrize("text", ["{}", "[]", "{ }", "[a,]", "{a: b,}", "{a}", "{a: }", "{'a': b}", "{a: [b, [c]]}",
                                  "{a: {b: c}}", "[a: b]", "[-1]", "{a: -1}", "{a: b c: d}", '{a: "\\n"}', "{a: b #c}",
                                  "{a: b} x", "{a:b}"])
def test_other_flows_are_left_to_the_general_reading(text):
    assert common_flow(text) is None


def test_common_flow_keeps_the_depth_limit():
    shallow = fastyaml._Reader([("", "", "", "", "", "")], False, 3, document._resolve_plain, document._MAYBE_TYPED)
    assert shallow.common_flow("{a: [b]}", 0) == {"a": ["b"]}
    assert shallow.common_flow("{a: [b]}", 1) is None  # the sequence would be at the limit: the general reading declines


@pytest.mark.parametrize("text", [
    "k: {" + ", ".join(f"k{i}: v" for i in range(5)) + ", x" + " " * 100_000 + "}\n",
    "k: {a: " + "b " * 100_000 + ":}\n",
    "k: [" + "a " * 100_000 + ",]\n",
    "k: {a: [" + "b, " * 50_000 + "c}\n",
    "k: {a: b, c: d, e: f, g: " + "h" * 200_000 + ":}\n",
])
def test_common_flow_takes_linear_time(text):
    start = time.perf_counter()
    fastyaml.parse(text, 64, document._resolve_plain, document._MAYBE_TYPED, True)
    assert time.perf_counter() - start < 2.0


# ------------------------------------------------------------- shallow read

DESCRIPTOR = """\
# a comment
name: search_orders
version: 1.2.0
when_to_use: >-
  The task names
  an order.
non_goals:
  - Does not refund.
limitations: [One order per call., Results lag.]
input_schema:
  type: object
  properties:
    order_id: {type: string, pattern: "^ord_[0-9]+$", description: The order.}
    limit:
      type: integer
  required: [order_id]
target:
empty: ~
"""


def test_shallow_read_records_the_root_and_its_members():
    data, values, keys, duplicates, top = fastyaml.read(DESCRIPTOR, 64, document._resolve_plain,
                                                        document._MAYBE_TYPED, True)
    assert values is None and keys is None and duplicates == [] and top is not None
    full = document._load_yaml_events(DESCRIPTOR, "t.yaml", DEFAULT_LIMITS)
    assert fastyaml.top_positions(data, top) == (
        {p: v for p, v in full._values.items() if p.count("/") <= 1},
        {p: v for p, v in full._keys.items() if p.count("/") <= 1},
    )


def test_a_key_repeated_below_the_root_makes_the_read_complete():
    text = "a:\n  b: 1\n  b: 2\n"
    data, values, keys, duplicates, top = fastyaml.read(text, 64, document._resolve_plain, document._MAYBE_TYPED, True)
    assert top is None and duplicates == [("/a/b", "b", 3, 3, 2, 3)]
    assert keys["/a/b"] == (3, 3)  # the last one, as libyaml's path records it


def test_a_document_reads_deeper_positions_only_when_asked():
    loaded = load_bytes(DESCRIPTOR.encode(), "t.yaml")
    full = document._load_yaml_events(DESCRIPTOR, "t.yaml", DEFAULT_LIMITS)
    assert loaded._partial is not None and loaded._values is None
    for pointer in ("", "/name", "/input_schema", "/limitations", "/missing", "/target"):
        for anchor in ("auto", "key", "value"):
            assert loaded.locate(pointer, anchor) == full.locate(pointer, anchor)
    assert loaded._partial is not None  # still shallow: those were answered from the root's members
    deep = "/input_schema/properties/order_id/pattern"
    assert loaded.locate(deep) == full.locate(deep) == (13, 39)
    assert loaded._partial is None  # now complete
    assert loaded.positions() == full.positions()
    for pointer in list(full._values) + ["/input_schema/missing/deeper"]:
        for anchor in ("auto", "key", "value"):
            assert loaded.locate(pointer, anchor) == full.locate(pointer, anchor)


def test_a_shallow_document_lists_every_position_on_request():
    loaded = load_text(DESCRIPTOR, "t.yaml")
    values, keys = loaded.positions()
    full = document._load_yaml_events(DESCRIPTOR, "t.yaml", DEFAULT_LIMITS)
    assert list(values.items()) == list(full._values.items()) and list(keys.items()) == list(full._keys.items())


def test_deeper_positions_keep_the_limits_the_text_was_read_with():
    deep = "".join(" " * (2 * i) + f"k{i}:\n" for i in range(70)) + " " * 140 + "x: 1\n"
    limits = Limits(max_depth=100)
    loaded = load_text(deep, "t.yaml", limits)
    assert loaded._partial is limits
    assert loaded.locate("/k0/k1/k2") == (3, 5)


def test_empty_and_comment_only_documents():
    for text in ("", "# only\n", "\n\n", "---\n# c\n"):
        loaded = load_text(text, "t.yaml")
        full = document._load_yaml_events(text, "t.yaml", DEFAULT_LIMITS)
        assert loaded.data is None and loaded.positions() == full.positions()
        assert loaded.locate("/a") == full.locate("/a")


# ----------------------------------------------------------- value classes


def test_limits_behave_as_a_frozen_value():
    assert Limits() == DEFAULT_LIMITS and hash(Limits()) == hash(DEFAULT_LIMITS)
    assert Limits(max_depth=3) != DEFAULT_LIMITS and Limits(max_depth=3).max_depth == 3
    assert repr(Limits(max_bytes=1)) == "Limits(max_bytes=1, max_depth=64, max_alias_nodes=10000, max_yaml_nodes=250000)"
    with pytest.raises(AttributeError):
        DEFAULT_LIMITS.max_depth = 3  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(Limits(max_depth=5))) == Limits(max_depth=5)


def test_duplicate_keys_behave_as_a_frozen_value():
    record = DuplicateKey("/a", "a", 3, 1, 1, 1)
    assert record == DuplicateKey(*("/a", "a", 3, 1, 1, 1)) and record != DuplicateKey("/a", "a", 3, 1, 1, 2)
    assert {record: 1}[DuplicateKey("/a", "a", 3, 1, 1, 1)] == 1
    assert (record.pointer, record.key, record.line, record.column, record.first_line, record.first_column) == (
        "/a", "a", 3, 1, 1, 1)
    assert repr(record) == "DuplicateKey(pointer='/a', key='a', line=3, column=1, first_line=1, first_column=1)"
    with pytest.raises(AttributeError):
        record.line = 4  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(record)) == record


def test_document_compares_by_identity_and_subclasses_like_lint_parallel():
    a, b = Document("p", "t", {"a": 1}), Document("p", "t", {"a": 1})
    assert a != b and a == a and a.duplicates == [] and len({a, b}) == 2

    class Light(Document):
        def __init__(self, path, text, data=None, positions=None):
            super().__init__(path, text, data)
            self.positions = positions or {}

    light = Light("a.yaml", "name: x\n", positions={("/name", "value"): (1, 7)})
    assert light.positions[("/name", "value")] == (1, 7) and light.line_text(1) == "name: x"
    assert "path='p'" in repr(a)


# ------------------------------------------------------------------- import



def test_lazy_patterns_compile_once_and_know_only_their_names():
    pool = fastyaml.LazyPatterns(word=r"\w+")
    assert not hasattr(pool, "other") and getattr(pool, "other", None) is None
    first = pool.word
    assert first.pattern == r"\w+" and pool.word is first and "word" in vars(pool)
