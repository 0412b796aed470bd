"""The naming, documentation, effect and structure rules take shortcuts for speed; each must
decide exactly as the plain reading it replaces (kept here as the reference)."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import BAD_DIR, GOOD_DIR, examples
from toolcontract.core.descriptor import ToolView, model_description, name_words
from toolcontract.lint.context import context
from toolcontract.lint.rules.tc1_naming import tc102_name_vague
from toolcontract.lint.rules.tc1_naming.tc102_name_vague import GENERIC_WORDS
from toolcontract.lint.rules.tc3_effects import tc302_annotation_contradiction
from toolcontract.core.model import Effect
from toolcontract.core.schema.validation import compile_validator
from toolcontract.core.schema.bundled import load_schema
from toolcontract.io.document import Document, load_bytes, DEFAULT_LIMITS

_WORD_BREAK = r"[_\-.\s]+|(?<=[a-z])(?=[A-Z])"

# names: snake_case, camelCase, separators, digits of several scripts, generic words
_PIECES = st.sampled_from(sorted(GENERIC_WORDS)[:40] + ["invoice", "Data", "DO", "tool", "x", "ſ", "İ"])
_SEPARATORS = st.sampled_from(["_", "__", "-", ".", " ", "\n", "", "1", "٣", "²", "7_", "\t"])
NAMES = st.one_of(
    st.text(alphabet="abcXYZ_-. 0123٣²\n\tſİ", max_size=24),
    st.lists(st.tuples(_PIECES, _SEPARATORS), max_size=5).map(lambda parts: "".join(a + b for a, b in parts)),
    st.text(max_size=20),
)


def _tool(data: dict) -> ToolView:
    return ToolView(data, Document("t.yaml", "", data), "")


@pytest.mark.long
@settings(max_examples=examples(500), deadline=None)
@given(NAMES)
def test_name_words_split_as_the_expression_does(name):
    assert name_words(name) == [w for w in re.split(_WORD_BREAK, name) if w]


def _vague_reference(name: str) -> bool:
    stems = [re.sub(r"\d+$", "", w.lower()) for w in re.split(_WORD_BREAK, name) if w]
    stems = [s for s in stems if s]
    return bool(stems) and all(s in GENERIC_WORDS for s in stems)


@pytest.mark.long
@settings(max_examples=examples(500), deadline=None)
@given(NAMES)
def test_name_vague_decides_as_the_plain_reading(name):
    assert bool(list(tc102_name_vague.check(context(_tool({"name": name}))))) == _vague_reference(name)


@given(st.one_of(st.text(max_size=20), st.sampled_from([e.value for e in Effect]), st.integers(), st.none()))
def test_effect_of_reads_as_calling_the_enum(value):
    try:
        expected = Effect(value) if isinstance(value, str) else None
    except ValueError:
        expected = None
    assert Effect.of(value) is expected


def _contradictions_reference(effect: Effect, notes: dict) -> list[tuple[tuple, str]]:
    checks = (
        ("readOnlyHint", True, effect.consequential, f"readOnlyHint: true, but the effect {effect.value} changes the world"),
        ("readOnlyHint", False, not effect.consequential, f"readOnlyHint: false, but the effect is {effect.value}"),
        ("destructiveHint", False, effect is Effect.IRREVERSIBLE_WRITE,
         "destructiveHint: false, but the effect is irreversible_write"),
        ("openWorldHint", False, effect is Effect.OPEN_WORLD, "openWorldHint: false, but the effect is open_world"),
    )
    return [(("annotations", key), message) for key, value, applies, message in checks
            if applies and notes.get(key) is value]


def test_annotation_contradictions_as_the_table_says():
    values = (True, False, None, 0, "true")
    for effect in Effect:
        for read_only, destructive, open_world in itertools.product(values, repeat=3):
            notes = {k: v for k, v in (("readOnlyHint", read_only), ("destructiveHint", destructive),
                                       ("openWorldHint", open_world)) if v is not None}
            tool = _tool({"effect": effect.value, "annotations": notes})
            hits = [(h.path, h.message) for h in tc302_annotation_contradiction.check(context(tool))]
            assert hits == _contradictions_reference(effect, notes), (effect, notes)


def _fixture_documents() -> list[Document]:
    paths = sorted(GOOD_DIR.rglob("*.y*ml")) + sorted(BAD_DIR.rglob("*.y*ml")) + sorted(BAD_DIR.rglob("*.json"))
    documents = []
    for path in paths:
        try:
            documents.append(load_bytes(path.read_bytes(), str(path), DEFAULT_LIMITS))
        except Exception:  # noqa: BLE001 - TC000 fixtures
            continue
    return documents


def test_structure_validity_first_agrees_with_the_errors():
    documents = _fixture_documents()
    assert len(documents) > 40
    validator = compile_validator(load_schema("descriptor.schema.json"))  # what TC002 compiles
    invalid = 0
    for document in documents:
        if isinstance(document.data, dict):
            errors = list(validator.iter_errors(document.data))
            assert validator.is_valid(document.data) == (not errors), document.path
            invalid += bool(errors)
    assert invalid >= 3  # the fixtures hold structurally broken descriptors


def test_model_description_is_read_once_and_stays_the_same():
    data = {"purpose": "Report the weather.", "when_to_use": "Asked about weather", "non_goals": ["No forecasts"]}
    tool = _tool(data)
    first = model_description(tool)
    assert model_description(tool) is first  # built once per tool: a second build would be a new string
    assert model_description(_tool(dict(data))) == first and "Report the weather." in first


_FRAGMENTS = st.sampled_from(["#", " ", "  ", "\n", "\r\n", "\t", "\u00a0", "toolcontract:", "toolcontract", ":",
                              "ignore", "ignore-file", "[TC1]", "[TC403, TC404]", "x", "effect: read", "'#'"])


@pytest.mark.long
@settings(max_examples=examples(300), deadline=None)
@given(st.lists(_FRAGMENTS, max_size=14).map("".join))
def test_suppression_gate_never_hides_a_comment(text):
    from toolcontract.lint.suppression import _parse, parse_suppressions

    assert parse_suppressions(text) == _parse(text)


# ------------------------------------------------- SemVer and sentences without their big regexes

_VERSIONS = st.one_of(
    st.text(alphabet="0123456789.-+abZ٣²", max_size=14),
    st.lists(st.integers(0, 120).map(str) | st.sampled_from(["00", "01", "٣", "²", "", "1a"]), min_size=1,
             max_size=4).map(".".join),
    st.text(max_size=10),
)


@pytest.mark.long
@settings(max_examples=examples(800), deadline=None)
@given(_VERSIONS)
def test_is_semver_decides_as_the_published_expression(version):
    from toolcontract.lint.rules.tc1_naming.tc103_version_missing import SEMVER_SOURCE, is_semver

    assert is_semver(version) == (re.match(SEMVER_SOURCE, version) is not None)


_SENTENCE_END_FULL = r"[.!?。！？](?:[\"')\]]*)(?=\s|$)"


def _count_sentences_reference(text: str) -> int:
    text = text.strip()
    if not text:
        return 0
    ends = list(re.finditer(_SENTENCE_END_FULL, text))
    tail = text[ends[-1].end():].strip() if ends else text
    return len(ends) + (1 if tail else 0)


@pytest.mark.long
@settings(max_examples=examples(800), deadline=None)
@given(st.one_of(st.text(alphabet="ab .!?。！？\"')]\n\t\x1c\u3000", max_size=30), st.text(max_size=30)))
def test_count_sentences_counts_as_the_full_expression_does(text):
    from toolcontract.core.descriptor import count_sentences

    assert count_sentences(text) == _count_sentences_reference(text)
