"""The fast YAML reader (toolcontract/sources/fastyaml.py) loads exactly what libyaml loads.

Whenever the fast reader takes a text, its result must equal the libyaml event path's
Document: the data with its types (1, 1.0 and True differ; so do dict key orders), the
value and key position of every pointer (in the same order), the duplicate-key records,
the exact strings. It may decline anything (the libyaml path then runs and reports
every error), but it must take the descriptors people write, or it is no use.

Evidence, each over every accepted text:
- every YAML file in fixtures/ and tests/, also with CRLF breaks and without the final
  newline;
- YAML files under ../shared/corpus (read in place; none there today: it is all JSON),
  and the corpus's real tool definitions dumped as YAML by PyYAML in three styles,
  in memory;
- descriptors from the benchmark's generator (bench/run.py), and /tmp/b1000 if present;
- documents drawn from a grammar of the subset with its near misses
  (tests/yaml_subset_grammar.py), plain and randomly mutated (tabs, quotes, colons,
  `#`, `-`, unicode, indentation, trailing spaces, CRLF, BOM), by hypothesis and in
  seeded bulk runs;
- a table of the subtle cases, and of texts that must be declined.

TOOLCONTRACT_PROPERTY_SCALE=20 runs twenty times as many generated examples.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, examples
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
from yaml_subset_grammar import Generator

SCALE = max(1, int(os.environ.get("TOOLCONTRACT_PROPERTY_SCALE", "1")))
EXAMPLES = settings(max_examples=examples(100 * SCALE), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                            HealthCheck.large_base_example])
BULK = examples(4000 * SCALE)  # seeded documents per grammar mode
CORPUS = REPO.parent / "shared" / "corpus"
BENCH_FILES = Path("/tmp/b1000/n1000/descriptors")


# ------------------------------------------------------------------ the check


def same(a, b) -> bool:
    """Equal data with equal types: 1, 1.0 and True differ, dict key order counts, NaN is NaN."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return repr(a) == repr(b)  # nan == nan, and -0.0 is not 0.0
    return a == b


def fast(text: str, limits: Limits = DEFAULT_LIMITS, shallow: bool = False):
    """The fast reader's result, or None when it declines; a reader bug raises here
    (the loader itself declines on one, see test_a_reader_bug_only_declines)."""
    return fastyaml.read(text, limits.max_depth, document._resolve_plain, document._MAYBE_TYPED, shallow)


def depth(pointer: str) -> int:
    return pointer.count("/")


def check(text: str, limits: Limits = DEFAULT_LIMITS, path: str = "t.yaml") -> bool:
    """True when the fast reader takes `text`, after asserting that what it built equals
    the libyaml path's Document in every part; False when it declines.

    Both of its reads are checked: the complete one (every position) and the shallow one
    the loader makes (only the positions of depth 0 and 1; the rest when a finding asks),
    and so is the loaded Document's `locate` before and after it reads the rest."""
    result = fast(text, limits)
    shallow = fast(text, limits, shallow=True)
    if result is None:
        assert shallow is None, f"only the shallow read took {text!r}"
        return False
    assert shallow is not None, f"only the complete read took {text!r}"
    try:
        slow = document._load_yaml_events(text, path, limits)
    except LoadError as exc:
        pytest.fail(f"the fast reader took a text libyaml rejects ({exc}):\n{text!r}")
    data, values, keys, duplicates, top = result
    assert top is None
    assert same(data, slow.data), f"data differs for {text!r}:\n{data!r}\n{slow.data!r}"
    assert list(values.items()) == list(slow._values.items()), f"value positions differ for {text!r}"
    assert list(keys.items()) == list(slow._keys.items()), f"key positions differ for {text!r}"
    assert [DuplicateKey(*d) for d in duplicates] == slow.duplicates, f"duplicates differ for {text!r}"

    data, values, keys, duplicates, top = shallow
    assert same(data, slow.data), f"shallow data differs for {text!r}"
    assert [DuplicateKey(*d) for d in duplicates] == slow.duplicates, f"shallow duplicates differ for {text!r}"
    if top is None:  # a repeated key: read in full
        assert values == slow._values and keys == slow._keys
    else:
        assert values is None and keys is None and not duplicates
        values, keys = fastyaml.top_positions(data, top)
        assert values == {p: v for p, v in slow._values.items() if depth(p) <= 1}, f"shallow values for {text!r}"
        assert keys == {p: v for p, v in slow._keys.items() if depth(p) <= 1}, f"shallow keys for {text!r}"

    loaded = load_text(text, path, limits)  # the wired loader: the same Document
    assert loaded.text == text and loaded.path == path
    assert same(loaded.data, slow.data) and loaded.duplicates == slow.duplicates
    if len(slow._values) <= 300:  # (the hostile texts hold up to 100,000 nodes)
        pointers = list(slow._values) + [p + "/missing" for p in list(slow._values)[:20]]
        # locate answers from the shallow positions while it can, then reads the rest
        for pointer in sorted(pointers, key=depth):
            for anchor in ("auto", "key", "value"):
                assert loaded.locate(pointer, anchor) == slow.locate(pointer, anchor), (text, pointer, anchor)
    assert loaded.positions() == (slow._values, slow._keys)
    return True


def variants(text: str) -> list[str]:
    """The text, with CRLF breaks, and without its final newline."""
    return [text, text.replace("\r\n", "\n").replace("\n", "\r\n"), text.rstrip("\r\n")]


def yaml_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


# --------------------------------------------------------- the repository's files


REPOSITORY_FILES = yaml_files(REPO / "fixtures") + yaml_files(REPO / "tests")


@pytest.mark.parametrize("path", REPOSITORY_FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_repository_yaml_files(path: Path):
    try:
        text = decode(path.read_bytes())
    except LoadError:
        return  # not text: the loader stops before either path
    for variant in variants(text):
        check(variant, path=path.name)


def test_share_of_repository_files_taken():
    loadable = taken = 0
    for path in REPOSITORY_FILES:
        try:
            text = decode(path.read_bytes())
            document._load_yaml_events(text, path.name, DEFAULT_LIMITS)
        except LoadError:
            continue
        loadable += 1
        taken += check(text)
    print(f"fast reader took {taken} of {loadable} loadable YAML files in fixtures/ and tests/")
    assert taken >= 0.8 * loadable


@pytest.mark.parametrize("path", sorted((REPO / "fixtures" / "descriptors" / "good").glob("*.yaml")),
                         ids=lambda p: p.name)
def test_good_descriptors_are_taken(path: Path):
    text = decode(path.read_bytes())
    for variant in variants(text):
        assert check(variant), f"the fast reader declined {path.name}"


def _bench_generator():
    spec = importlib.util.spec_from_file_location("bench_run", REPO / "bench" / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_benchmark_descriptors_are_taken():
    bench = _bench_generator()
    rng, used = random.Random(7), set()
    for index in range(300):
        text, _ = bench.make_descriptor(index, rng, used)
        assert check(text), f"the fast reader declined generated descriptor {index}:\n{text}"


@pytest.mark.skipif(not BENCH_FILES.is_dir(), reason=f"{BENCH_FILES} is absent (bench/run.py --keep makes it)")
def test_kept_benchmark_files_are_taken():
    paths = sorted(BENCH_FILES.glob("*.yaml"))
    for path in paths:
        assert check(decode(path.read_bytes()), path=path.name), f"the fast reader declined {path}"


# ------------------------------------------------------------------- the corpus


def test_shared_corpus_yaml_files():
    if not CORPUS.is_dir():
        pytest.skip(f"{CORPUS} is absent")
    paths = yaml_files(CORPUS)
    if not paths:
        pytest.skip(f"{CORPUS} holds no YAML files (only JSON); "
                    "test_corpus_tool_definitions_as_yaml reads its tool definitions as YAML")
    taken = 0
    for path in paths:
        try:
            text = decode(path.read_bytes())
        except LoadError:
            continue
        taken += check(text, path=path.name)
    print(f"fast reader took {taken} of {len(paths)} corpus YAML files")


def _tool_definitions(node, out: list) -> None:
    if isinstance(node, dict):
        if "name" in node and any(k in node for k in ("description", "parameters", "inputSchema", "input_schema")):
            out.append(node)
            return
        for value in node.values():
            _tool_definitions(value, out)
    elif isinstance(node, list):
        for value in node:
            _tool_definitions(value, out)


@pytest.mark.long
def test_corpus_tool_definitions_as_yaml():
    """Real third-party tool definitions (descriptions with every kind of punctuation,
    unicode, long lines, newlines), dumped by PyYAML in memory: block style, flow
    leaves, and narrow lines (multi-line plain and quoted scalars)."""
    if not CORPUS.is_dir():
        pytest.skip(f"{CORPUS} is absent")
    tools: list = []
    for path in sorted(CORPUS.rglob("*.json")):
        try:
            _tool_definitions(json.loads(path.read_text(encoding="utf-8")), tools)
        except ValueError:
            continue
    if not tools:
        pytest.skip("no tool definitions in the corpus")
    sample = random.Random(0).sample(tools, min(len(tools), examples(400 * SCALE)))
    styles = {
        "block": dict(default_flow_style=False, allow_unicode=True),
        "flow leaves": dict(default_flow_style=None, allow_unicode=True, width=100_000),
        "narrow": dict(default_flow_style=False, allow_unicode=False, width=40, indent=4),
    }
    taken = {style: 0 for style in styles}
    for tool in sample:
        for style, options in styles.items():
            taken[style] += check(yaml.safe_dump(tool, sort_keys=False, **options))
    print(f"fast reader took, of {len(sample)} corpus tool definitions dumped as YAML: {taken}")
    for style, count in taken.items():
        assert count >= 0.95 * len(sample), (style, count)


# ------------------------------------------------------------ generated documents


def _hypothesis_generator(data, loose: bool) -> Generator:
    return Generator(lambda n: data.draw(st.integers(0, n - 1)) if n > 1 else 0, loose=loose)


@pytest.mark.long
@EXAMPLES
@given(st.data())
def test_grammar_documents(data):
    check(_hypothesis_generator(data, loose=False).document())


@pytest.mark.long
@EXAMPLES
@given(st.data())
def test_near_miss_documents(data):
    check(_hypothesis_generator(data, loose=True).document())


@pytest.mark.long
@EXAMPLES
@given(st.data())
def test_mutated_documents(data):
    generator = _hypothesis_generator(data, loose=data.draw(st.booleans()))
    check(generator.mutate(generator.document()))


@pytest.mark.long
@pytest.mark.parametrize("mode", ["subset", "near misses", "mutated"])
def test_seeded_documents_in_bulk(mode):
    taken = 0
    for seed in range(BULK):
        generator = Generator(random.Random(f"{mode}-{seed}").randrange, loose=mode == "near misses")
        text = generator.document()
        if mode == "mutated":
            text = generator.mutate(text)
        taken += check(text)
    print(f"{mode}: fast reader took {taken} of {BULK} generated documents")
    if mode == "subset":
        assert taken >= 0.7 * BULK  # the grammar's valid documents are mostly within the reader's subset
    else:
        assert taken >= 0.05 * BULK


# ------------------------------------------------------------------ subtle cases


SUBTLE = [
    # scalars: the core schema, on the key's line and as sequence items
    "a: 1\nb: 1.0\nc: true\nd: True\ne: ~\nf: null\ng: yes\nh: no\ni: on\nj: 0o17\nk: 0x1F\nl: .inf\nm: -.Inf\n"
    "n: .nan\no: 1e3\np: 1.2.0\nq: +12\nr: 007\ns: -0\nt: 0.0\nu: -\"1\"\n",
    "- 1\n- -1\n- true\n- \"true\"\n- 'null'\n- ''\n- \"\"\n",
    # empty values: after the `:` or `-`
    "a:\nb:   # comment\nc:\n",
    "-\n- \n-   # c\n- x\n",
    "a:\n  -\n  - b:\n",
    # comments: ` #` starts one, `#` inside a word does not
    "a: b #c\nd: e#f\ng: 'h' # i\nj: \"k#l\"\n# m\nn: o  #p\n",
    # keys: quoted, with spaces, colons, hashes, slashes and tildes, space before the colon
    "\"a: b\": 1\n'it''s': 2\na b: 3\na:b: 4\na#b: 5\na/b: 6\nm~n: 7\nk : 8\n\"\": 9\n-k: 10\n1: 11\n",
    # duplicate keys, also three times and nested under a repeated key
    "a: 1\nb: 2\na: 3\na:\n  x: 1\n  x: 2\n",
    "k: {a: 1, a: 2}\nk: [1]\n",
    # block sequences: compact, indentless, nested, a mapping under a dash on its own line
    "k:\n- a\n- b: 1\n  c: 2\n-\n  d: 3\nz: 0\n",
    "- a:\n  - x\n  b: 1\n-   c: 2\n    d:\n    - 3\n",
    "root:\n    deep:\n        - a\n        -   b: c\n            d: e\n    back: 1\n",
    # plain scalars over several lines, with blank lines between
    "a: b\n  c\n\n  d\nx: y\n",
    "a:\n  one\n  two\nb:\n  - three\n    four\nc: 1\n  2\n",
    # quoted scalars over several lines, escaped breaks, blank lines
    "a: \"one\n  two\\\n  three\n\n  four\"\nb: 'x\n  y'\n",
    # block scalars: literal and folded, every chomping, blank and more indented lines
    "a: |\n  x\n   y\n\n  z\nb: >\n  p\n  q\n\n  r\n   s\n  t\nc: |-\n  u\nd: >+\n  v\n\ne: |+\n  w\n",
    "k: >-\n\n  a\n  b\n\n\nz: 1\n",
    "- |\n  x\n- >-\n  y\n  z\n",
    # flow collections: spacing, quotes, nesting, keys without values, empty ones
    "a: [x, 'y', \"z\", 1, [], {}]\nb: {k: v, q: [1, 2], r: {s: t}}\nc: { k , l: }\nd: [ a , b ]\ne: {}\n",
    "a: {type: string, description: Payment per month, rounded to cents.}\n",
    "- [a, [b, [c]]]\n- {a: {b: {c: d}}}\n",
    # escapes in double quotes
    "a: \"\\n\\t\\\\\\\"\\/\\x41\\u00e9\\U0001F600\\N\\_\\L\\P\\e\\0\\ \"\n",
    # unicode, document start, comments before it, no final newline, CRLF
    "# c\n---\nname: é 日本語 💥\n",
    "a: 1\r\nb:\r\n  - c\r\n  - |\r\n    d\r\n",
    "a: |\n  x",
    "a: b",
    # nothing at all, or only comments
    "",
    "# only a comment\n",
    "\n\n",
]


@pytest.mark.parametrize("text", SUBTLE)
def test_subtle_cases_are_taken_and_equal(text):
    for variant in variants(text):
        if variant.strip(" \r\n#") or variant == text:
            assert check(variant), f"the fast reader declined {variant!r}"


DECLINED = [
    "a:\tb\n",  # a tab
    "a: &x 1\nb: *x\n",  # anchors and aliases
    "a: !!str 1\n",  # a tag
    "? a\n: b\n",  # a complex key
    "%YAML 1.2\n---\na: 1\n",  # a directive
    "a: 1\n---\nb: 2\n",  # a second document
    "a: 1\n...\n",  # a document end
    "a: [1,\n  2]\n",  # a flow collection over two lines
    "a: {b: 1\n",  # never closed
    "a: |2\n   x\n",  # an explicit indentation indicator
    "\ufeffa: 1\n",  # a byte order mark
    "a: 1\rb: 2\n",  # a lone CR
    "a: x\u2028y\n",  # a line separator (a break for libyaml)
    "a: b: c\n",  # a mapping value where none may be
    "a:\n  b: 1\n c: 2\n",  # unusual indentation
    "- a\nb: 1\n",  # a mapping after a root sequence
    "a: \"\\q\"\n",  # an unknown escape
    "a: \"\\ud800\"\n",  # a surrogate
    "a: 'open\n",  # a quote never closed
    "just a scalar\n",  # a root scalar
    "a: [b]#c\n",
    "a: " + "9" * 5000 + "\n",  # an integer Python will not convert
    "a" + " " * 1100 + ": b\n",  # a key over 1,024 characters from its `:`
    "k: {a" + " " * 1100 + ": b}\n",
]


@pytest.mark.parametrize("text", DECLINED)
def test_texts_outside_the_subset_are_declined(text):
    """Each of these is left to libyaml, which reads it or reports its error."""
    assert fast(text) is None


# ------------------------------------------------------------------- limits, errors


def test_depth_limit_is_left_to_libyaml():
    deep = "".join(" " * i + f"k{i}:\n" for i in range(70)) + " " * 70 + "x: 1\n"
    assert fast(deep) is None
    with pytest.raises(LoadError, match="nesting is deeper than 64 levels"):
        load_text(deep, "t.yaml")
    flow = "a: " + "[" * 70 + "]" * 70 + "\n"
    assert fast(flow) is None
    with pytest.raises(LoadError, match="nesting is deeper than 64 levels"):
        load_text(flow, "t.yaml")


@pytest.mark.parametrize("depth", range(1, 7))
def test_small_depth_limits_load_as_libyaml_does(depth):
    limits = Limits(max_depth=depth)
    for text in SUBTLE + [
        "a:\n  b:\n    c:\n      d: [1, {e: [2]}]\n",
        "- - - - x\n",
        "- a:\n    - b:\n        - c\n",
    ]:
        try:
            expected = document._load_yaml_events(text, "t.yaml", limits)
        except LoadError as exc:
            with pytest.raises(LoadError) as info:
                load_text(text, "t.yaml", limits)
            assert (info.value.message, info.value.line, info.value.column) == (exc.message, exc.line, exc.column)
            continue
        loaded = load_text(text, "t.yaml", limits)
        assert same(loaded.data, expected.data) and loaded.positions() == expected.positions()


@pytest.mark.parametrize("text", DECLINED + [
    "a: b\n c\nd:\n",
    "a:\n- b\n c: 1\n",
    "a: {b: 1, c}\n",
])
def test_errors_and_their_positions_are_libyaml_s(text):
    try:
        expected = document._load_yaml_events(text, "t.yaml", DEFAULT_LIMITS)
    except LoadError as exc:
        with pytest.raises(LoadError) as info:
            load_text(text, "t.yaml")
        assert (info.value.message, info.value.line, info.value.column) == (exc.message, exc.line, exc.column)
    else:
        loaded = load_text(text, "t.yaml")
        assert same(loaded.data, expected.data) and loaded.positions() == expected.positions()


HOSTILE = {
    "spaces before a colon": "a" + " " * 200_000 + "x:y\n",
    "spaces in an item": "- a" + " " * 200_000 + "x:y\n",
    "a key too far from its colon": "a" + " " * 200_000 + ":\n",
    "just too far": "a" + " " * 1100 + ": b\n",
    "colons": "k: " + "a:" * 200_000 + "\n",
    "hashes": "k: " + "a#" * 200_000 + "\n",
    "a flow never closed": "k: {" + "a" * 200_000 + "\n",
    "a flow of spaces": "k: [" + " " * 200_000 + "a]\n",
    "a long flow": "k: {" + ", ".join(f"k{i}: v" for i in range(20_000)) + "}\n",
    "a flow failing late": "k: [" + "a " * 100_000 + ":b]\n",
    "escapes": 'k: "' + 'a\\"' * 100_000 + '"\n',
    "a quote never closed": "k: '" + "a''" * 100_000 + "\n",
    "blank lines": "a: 1\n" + "\n" * 1_000_000,
    "many keys": "".join(f"k{i}: v\n" for i in range(100_000)),
    "a long plain scalar": "k: a\n" + "  b\n" * 50_000,
    "a long block scalar": "k: |\n" + "  line\n" * 100_000,
}


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_texts_take_linear_time(name):
    """No regex here backtracks quadratically, and huge texts go to libyaml at once."""
    text = HOSTILE[name]
    start = time.perf_counter()
    taken = fast(text) is not None
    assert time.perf_counter() - start < 2.0, name  # each is well under 0.1 s on the 2-core machine
    if taken:
        check(text)


def test_load_text_uses_the_fast_reader(monkeypatch):
    text = (REPO / "fixtures" / "descriptors" / "good" / "refund_order.yaml").read_text(encoding="utf-8")
    expected = load_text(text, "refund_order.yaml")

    def refuse(*args):
        raise AssertionError("the libyaml path ran")

    monkeypatch.setattr(document, "_load_yaml_events", refuse)
    loaded = load_bytes(text.encode(), "refund_order.yaml")
    assert isinstance(loaded, Document)
    assert same(loaded.data, expected.data) and loaded.positions() == expected.positions()


def test_a_reader_bug_only_declines(monkeypatch):
    def broken(self, record):
        raise RuntimeError("a bug")

    monkeypatch.setattr(fastyaml._Reader, "read", broken)
    assert fastyaml.parse("a: 1\n", 64, document._resolve_plain, document._MAYBE_TYPED) is None
    assert load_text("a: 1\n", "t.yaml").data == {"a": 1}
