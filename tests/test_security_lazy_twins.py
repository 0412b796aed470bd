"""The security rules run a case-insensitive expression as its lower-cased twin on
lower-cased text (toolcontract.security.lazy). The twin must find exactly the spans the
expression finds, on any text `gates.view` allows it for."""

from __future__ import annotations

import gc
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from toolcontract.security import gates, lazy, payloads, scan, secrets, signals, surfaces, unicode  # noqa: F401


def _all_lazies() -> list[lazy.Lazy]:
    return [obj for obj in gc.get_objects() if isinstance(obj, lazy.Lazy)]


LAZIES = sorted((x for x in _all_lazies() if x.flags & re.IGNORECASE and x.fast is not None), key=repr)


def test_most_case_insensitive_expressions_have_a_twin():
    assert len(LAZIES) >= 5


def _words(source: str) -> list[str]:
    return sorted(set(re.findall(r"[A-Za-z]{2,}", source)))[:200] or ["a"]


# characters case-insensitive matching treats specially, and other non-ASCII letters
ODD = "ſKİıÉéßΣσςÅåǅ\u200b\u00a0"


@pytest.mark.parametrize("expression", LAZIES, ids=lambda x: repr(x)[:60])
@pytest.mark.long
@settings(max_examples=examples(30), deadline=None)
@given(data=st.data())
def test_twin_finds_the_same_spans(expression, data):
    words = _words(expression.source)
    piece = st.one_of(
        st.sampled_from(words).map(lambda w: data.draw(st.sampled_from([w, w.upper(), w.title()]))),
        st.text(alphabet=" \n\t.,:;!?-_/'\"<>()[]{}0123456789" + ODD, max_size=3),
        st.text(alphabet="abcxyzABCXYZ", max_size=4),
    )
    text = "".join(data.draw(st.lists(piece, max_size=12)))
    view = gates.view(text)
    pattern, subject = expression.on(view)
    expected = [m.span() for m in expression.pattern.finditer(view.text)]
    assert [m.span() for m in pattern.finditer(subject)] == expected
