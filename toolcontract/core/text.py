"""Text made safe to show: input-derived strings (a file name, a server's description, a message that
quotes either) never reach a terminal or a CI log as control sequences. Pure: reporters, the security
rules and the readers all escape through here."""

from __future__ import annotations

import re

# C0/C1 controls (terminal escapes), plus invisible format characters that could
# reorder or hide text on a terminal (bidi controls, zero-width characters, tags).
UNSAFE_CHARACTERS = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 (but tab and newline) and C1 controls: terminal escapes
    "\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb"  # invisible, bidi
    "\U000e0000-\U000e007f"  # tag characters (hidden ASCII)
    "\ud800-\udfff\ufffe\uffff"  # no characters: lone surrogates (a file name's undecodable bytes), non-characters
)
_UNSAFE = f"[{UNSAFE_CHARACTERS}]"  # compiled by re (and cached there) on the first text that needs it (~0.5 ms)


def printable(text: str, *, keep_newlines: bool = False) -> str:
    """Input-derived text made safe for a terminal: unsafe characters become visible escapes."""
    if text.isascii() and text.isprintable():  # no control character, no newline: nothing to escape
        return text

    def escape(match: re.Match) -> str:
        char = match.group()
        if keep_newlines and char == "\n":
            return char
        code = ord(char)
        if 0xDC80 <= code <= 0xDCFF:  # a byte of a file name that is not UTF-8 (surrogateescape): that byte
            return f"\\x{code - 0xDC00:02x}"
        return f"\\x{code:02x}" if code < 0x100 else (f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")

    text = re.sub(_UNSAFE, escape, text)
    if not keep_newlines:
        text = text.replace("\n", "\\n")
    return text


def line_start(text: str) -> str:
    """A printable text that begins a line of output: never a GitHub workflow command (`::add-mask::`,
    `::error ...::`), which the Actions runner acts on in any step's output; its first `:` is escaped."""
    stripped = text.lstrip()
    if stripped.startswith("::"):
        at = len(text) - len(stripped)
        return text[:at] + "\\x3a" + text[at + 1:]
    return text
