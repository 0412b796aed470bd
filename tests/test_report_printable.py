"""`report.common.printable`: the shortcut for printable ASCII gives what the escaping regex gives."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from toolcontract.report.common import UNSAFE_CHARACTERS, printable

_PLAIN = re.compile(f"[{UNSAFE_CHARACTERS}]")


def reference(text: str, keep_newlines: bool) -> str:
    """printable() as it was: the regex over every text."""

    def escape(match: re.Match) -> str:
        char = match.group()
        if keep_newlines and char == "\n":
            return char
        code = ord(char)
        return f"\\x{code:02x}" if code < 0x100 else (f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")

    text = _PLAIN.sub(escape, text)
    return text if keep_newlines else text.replace("\n", "\\n")


@pytest.mark.long
@settings(max_examples=examples(500), deadline=None)
@given(st.text(alphabet=st.one_of(st.characters(max_codepoint=0x7f), st.characters()), max_size=40), st.booleans())
def test_printable_matches_the_regex_on_any_text(text, keep_newlines):
    assert printable(text, keep_newlines=keep_newlines) == reference(text, keep_newlines)


def test_escapes_terminal_controls_and_hidden_characters():
    assert printable("a\x1b[31mb\u202ec\U000e0041\n") == "a\\x1b[31mb\\u202ec\\U000e0041\\n"
    assert printable("line\nnext", keep_newlines=True) == "line\nnext"
    assert printable("plain text: ok") == "plain text: ok"
