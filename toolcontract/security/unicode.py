"""Hidden characters, scripts and look-alike letters, from Python's `unicodedata` plus a
compact table generated from Unicode's confusables (see `build_confusables.py`).

Hidden characters are the ones a reader of a tool's text does not see but a model
reads: zero-width and other invisible format characters, bidirectional controls,
Unicode tag characters (an invisible copy of ASCII), variation selectors outside
emoji and ideographs, runs of direction marks, and C0/C1 controls. Each is named by
its code point and Unicode name, e.g. "U+200B ZERO WIDTH SPACE".
"""

from __future__ import annotations

import functools
import re
import unicodedata

from toolcontract.security import ascii_control
from toolcontract.security.confusables_data import LOOKALIKES_BY_ASCII, NFKC_CHANGING_BMP
from toolcontract.security.lazy import Lazy
from toolcontract.security.records import Record

# ASCII letter or digit each look-alike stands for
LOOKALIKE: dict[str, str] = {char: ascii_char for ascii_char, chars in LOOKALIKES_BY_ASCII.items() for char in chars}

# Characters that may be hidden; each is then judged in its context (see `hidden_spans`).
_CANDIDATES = Lazy(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"  # C0 (but tab, newline, carriage return), DEL, C1
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb"
    "\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_DIRECTION_MARKS = frozenset("\u200e\u200f\u061c")
_JOINERS = frozenset("\u200c\u200d")
_RTL = Lazy("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
_CONTROL_NAMES = {
    0x00: "NULL", 0x01: "START OF HEADING", 0x02: "START OF TEXT", 0x03: "END OF TEXT", 0x04: "END OF TRANSMISSION",
    0x05: "ENQUIRY", 0x06: "ACKNOWLEDGE", 0x07: "BELL", 0x08: "BACKSPACE", 0x0B: "LINE TABULATION",
    0x0C: "FORM FEED", 0x0E: "SHIFT OUT", 0x0F: "SHIFT IN", 0x1B: "ESCAPE", 0x7F: "DELETE",
    0x85: "NEXT LINE", 0x9B: "CONTROL SEQUENCE INTRODUCER", 0x9D: "OPERATING SYSTEM COMMAND",
}
# scripts whose letters join: ZWJ/ZWNJ between two of their letters is spelling, not hiding
_NON_JOINING_SCRIPTS = frozenset(("LATIN", "GREEK", "CYRILLIC", "ARMENIAN", "HAN", "HIRAGANA", "KATAKANA", "HANGUL"))


def char_name(char: str) -> str:
    """`U+200B ZERO WIDTH SPACE`: the code point and its Unicode name."""
    code = ord(char)
    name = unicodedata.name(char, None) or _CONTROL_NAMES.get(code) or (
        "<control>" if code < 0xA0 else "<unassigned>")
    return f"U+{code:04X} {name}"


@functools.lru_cache(maxsize=8192)
def script_of(char: str) -> str | None:
    """The script of a letter, from its Unicode name (CYRILLIC, GREEK, HAN, ...); None for
    anything that is not a letter (digits, marks, punctuation belong to every script)."""
    if char.isascii():
        return "LATIN" if char.isalpha() else None
    if unicodedata.category(char)[0] != "L":
        return None
    folded = unicodedata.normalize("NFKC", char)
    if folded != char and len(folded) == 1:  # fullwidth, mathematical and letterlike forms
        return script_of(folded)
    first = unicodedata.name(char, "").split(" ", 1)[0]
    if first in ("CJK", "IDEOGRAPHIC"):
        return "HAN"
    if first == "KATAKANA-HIRAGANA":
        return "KATAKANA"
    if first in ("MODIFIER", "") or not first.isalpha():
        return None
    return first


def _emoji_like(char: str) -> bool:
    return unicodedata.category(char) in ("So", "Sk", "Sm") or "\U0001f000" <= char <= "\U0001faff" \
        or char in "#*0123456789\ufe0f\u20e3"


class HiddenSpan(Record):
    __slots__ = ("start", "end", "chars", "kind")

    def __init__(self, start: int, end: int, chars: str, kind: str):
        self.start = start  # index of the first hidden character in the string
        self.end = end
        self.chars = chars  # the hidden characters of the span (without the whitespace between them)
        self.kind = kind  # tag | bidi | marks | control | invisible | variation

    def describe(self) -> str:
        if self.kind == "tag":
            decoded = "".join(chr(ord(c) - 0xE0000) if 0xE0020 <= ord(c) <= 0xE007E else "" for c in self.chars)
            spelled = f" spelling {_quote(decoded)}" if decoded.strip() else ""
            return f"{len(self.chars)} Unicode TAG characters (invisible copies of ASCII){spelled}"
        counts: dict[str, int] = {}
        for c in self.chars:
            counts[c] = counts.get(c, 0) + 1
        parts = [char_name(c) + (f" ×{n}" if n > 1 else "") for c, n in counts.items()]
        if len(parts) > 4:
            parts = parts[:4] + [f"{len(parts) - 4} more"]
        return ", ".join(parts)


def _quote(text: str, limit: int = 80) -> str:
    from toolcontract.core.text import printable

    text = printable(text)
    return "'" + (text if len(text) <= limit else text[: limit - 1] + "…") + "'"


def _kind(char: str) -> str:
    code = ord(char)
    if 0xE0000 <= code <= 0xE007F:
        return "tag"
    if char in _BIDI_CONTROLS:
        return "bidi"
    if char in _DIRECTION_MARKS:
        return "marks"
    if code < 0x20 or 0x7F <= code <= 0x9F:
        return "control"
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF or 0x180B <= code <= 0x180D:
        return "variation"
    return "invisible"


def _allowed(text: str, index: int, char: str, kind: str, has_rtl: bool) -> bool:
    """Whether a candidate is ordinary spelling in its context rather than hidden text."""
    before = text[index - 1] if index > 0 else ""
    after = text[index + 1] if index + 1 < len(text) else ""
    if kind == "variation":
        if ord(char) >= 0xE0100:  # ideographic variation sequences follow a Han character
            return bool(before) and script_of(before) == "HAN"
        return bool(before) and (_emoji_like(before) or script_of(before) == "HAN")
    if char in _JOINERS:
        if char == "\u200d" and before and after and _emoji_like(before) and _emoji_like(after):
            return True  # an emoji sequence (family, profession, flag)
        left, right = script_of(before) if before else None, script_of(after) if after else None
        return left is not None and left == right and left not in _NON_JOINING_SCRIPTS
    if kind == "marks":
        return has_rtl  # judged again as a run in hidden_spans
    return False


def _tag_flag(text: str, start: int, end: int) -> bool:
    """A subdivision flag: U+1F3F4 then tag letters then U+E007F CANCEL TAG (e.g. Scotland)."""
    return start > 0 and text[start - 1] == "\U0001f3f4" and text[end - 1] == "\U000e007f"


@functools.lru_cache(maxsize=16384)
def hidden_spans(text: str) -> tuple[HiddenSpan, ...]:
    """Hidden characters of a text, grouped into spans (whitespace between two hidden
    characters joins them: padding such as `\\u200e \\u200e \\u200e` is one span)."""
    if text.isascii() and not _has_ascii_control(text):
        return ()
    matches = [(m.start(), m.group()) for m in _CANDIDATES.pattern.finditer(text)]
    if not matches:
        return ()
    has_rtl = _RTL.pattern.search(text) is not None
    groups: list[list[tuple[int, str]]] = []
    for index, char in matches:
        if groups and text[groups[-1][-1][0] + 1 : index].strip(" \t") == "" and \
                _kind(groups[-1][-1][1]) == _kind(char):
            groups[-1].append((index, char))
        else:
            groups.append([(index, char)])
    spans: list[HiddenSpan] = []
    for group in groups:
        start, end = group[0][0], group[-1][0] + 1
        kind = _kind(group[0][1])
        chars = "".join(c for _, c in group)
        if kind == "tag" and _tag_flag(text, start, end):
            continue
        if kind == "marks" and len(group) == 1 and has_rtl:
            continue  # one direction mark in right-to-left text is ordinary
        if kind != "marks" and all(_allowed(text, i, c, kind, has_rtl) for i, c in group):
            continue
        spans.append(HiddenSpan(start, end, chars, kind))
    return tuple(spans)


_ASCII_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _has_ascii_control(text: str) -> bool:
    if text.isascii():
        return ascii_control(text)
    return _ASCII_CONTROL.search(text) is not None


# ------------------------------------------------------------------ look-alikes


class Confusion(Record):
    __slots__ = ("index", "text", "message", "severe")

    def __init__(self, index: int, text: str, message: str, severe: bool):
        self.index = index  # in the string
        self.text = text  # the identifier or word
        self.message = message
        self.severe = severe  # a look-alike (error) rather than only mixed scripts (warning)


def _describe_char(char: str) -> str:
    ascii_char = _lookalike_of(char)
    looks = f" (looks like {ascii_char!r})" if ascii_char else ""
    return f"{char_name(char)}{looks}"


def _lookalike_of(char: str) -> str | None:
    """The ASCII letter or digit a non-ASCII character passes for, if any."""
    if char.isascii():
        return None
    folded = unicodedata.normalize("NFKC", char)
    if folded.isascii():
        return folded if folded.isalnum() else None
    return LOOKALIKE.get(char)


# script sets a single identifier may combine (UTS #39, "highly restrictive")
_ALLOWED_MIXES = (
    frozenset(("LATIN", "HAN", "HIRAGANA", "KATAKANA")),
    frozenset(("LATIN", "HAN", "BOPOMOFO")),
    frozenset(("LATIN", "HAN", "HANGUL")),
)


def identifier_confusion(name: str) -> Confusion | None:
    """Why an identifier (a tool or property name) can pass for another, or None.

    Look-alike: a compatibility character (fullwidth, mathematical; NFKC changes it), a
    letter from another script that looks like an ASCII one inside a Latin name, a
    non-ASCII Latin look-alike (`ɑ`, `ı`), or a whole name in another script made only of
    look-alikes (Cyrillic `рау` for `pay`). Mixed scripts without a look-alike are reported
    too, as a warning. A name in one non-Latin script (`城市`, `μήκος`) is fine.
    """
    if name.isascii():
        return None
    letters = [(i, c, script_of(c)) for i, c in enumerate(name)]
    scripts = {s for _, _, s in letters if s}
    for i, c in enumerate(name):
        if not c.isascii() and unicodedata.normalize("NFKC", c) != c:
            return Confusion(i, name, f"{_describe_char(c)} is a compatibility form: NFKC turns the name into "
                             f"{_quote(unicodedata.normalize('NFKC', name))}", True)
    mixed = len(scripts) > 1 and not any(scripts <= allowed for allowed in _ALLOWED_MIXES)
    if "LATIN" in scripts:
        for i, c, script in letters:
            if not c.isascii() and _lookalike_of(c) and (script != "LATIN" or c in LOOKALIKE):
                skeleton = "".join(_lookalike_of(x) or x for x in name)
                return Confusion(i, name, f"{_describe_char(c)} in a Latin name: it reads as {_quote(skeleton)}", True)
    if mixed:
        i, c, script = next((i, c, s) for i, c, s in letters if s and s != _majority(letters))
        return Confusion(i, name, f"the name mixes scripts ({', '.join(sorted(scripts))}); "
                         f"{_describe_char(c)} is {script}", False)
    alnum = [c for c in name if c.isalnum()]
    if alnum and scripts and "LATIN" not in scripts and all(c.isascii() or _lookalike_of(c) for c in alnum):
        skeleton = "".join(_lookalike_of(x) or x for x in name)
        first = next(i for i, c in enumerate(name) if _lookalike_of(c))
        return Confusion(first, name, f"every letter is a {'/'.join(sorted(scripts))} look-alike of Latin "
                         f"({_describe_char(name[first])}, ...): the name reads as {_quote(skeleton)}", True)
    return None


def _majority(letters) -> str | None:
    counts: dict[str, int] = {}
    for _, _, script in letters:
        if script:
            counts[script] = counts.get(script, 0) + 1
    return max(counts, key=lambda s: (counts[s], s == "LATIN")) if counts else None


_WORD = Lazy(r"[^\W_]+")


def word_confusions(text: str) -> list[Confusion]:
    """Words of a text that mix ASCII letters with look-alikes from another script
    (`Sуstem` with a Cyrillic `у`). Words wholly in one script are ordinary text."""
    if text.isascii() or _LOOKALIKES.pattern.search(text) is None:
        return []
    found: list[Confusion] = []
    for match in _WORD.pattern.finditer(text):
        word = match.group()
        if word.isascii() or not any(c.isascii() and c.isalpha() for c in word):
            continue
        for offset, c in enumerate(word):
            if not c.isascii() and c in LOOKALIKE and script_of(c) != "LATIN":
                skeleton = "".join(LOOKALIKE.get(x, x) for x in word)
                found.append(Confusion(match.start() + offset, word, f"the word {_quote(word)} mixes Latin "
                                       f"letters with {_describe_char(c)}: it reads as {_quote(skeleton)}", True))
                break
    return found


# ---------------------------------------------------------------- normalising



def normalized(text: str) -> tuple[str, list[int] | None]:
    """The text as a model effectively reads it, for phrase matching: hidden characters
    dropped (tag characters turned back into the ASCII they copy), compatibility forms
    folded (NFKC) and look-alike letters replaced by their ASCII letter. Returns the text
    and, when it differs, each of its characters' index in the original."""
    if text.isascii() and not ascii_control(text):
        return text, None
    changing = _CHANGING.pattern
    first = changing.search(text)
    if first is None:
        return text, None
    out: list[str] = []
    where: list[int] = []
    done = 0
    for m in changing.finditer(text, first.start()):
        start = m.start()
        if start > done:  # characters that read as they are written, copied at once
            out.append(text[done:start])
            where.extend(range(done, start))
        char = m.group()
        folded = _fold(char)
        if folded:
            out.append(folded)
            where.extend([start] * len(folded))
        done = start + 1
    if done < len(text):
        out.append(text[done:])
        where.extend(range(done, len(text)))
    return "".join(out), where


# characters that may read differently from how they look: controls and hidden ones,
# look-alikes, compatibility forms (NFKC), and anything beyond the BMP as one range (a class
# of BMP characters only compiles to a bitmap; listing astral ones makes every test linear)
_CHANGING = Lazy(lambda: (
    "[" + re.sub("[\U00010000-\U0010ffff]-[\U00010000-\U0010ffff]", "", _CANDIDATES.source[1:-1])
    + "".join(re.escape(c) for c in LOOKALIKE if c < "\U00010000") + NFKC_CHANGING_BMP + "\U00010000-\U0010ffff]"
))
# look-alike letters (and, as one range, anything beyond the BMP): a text without one has no
# word for word_confusions
_LOOKALIKES = Lazy(lambda: "[" + "".join(re.escape(c) for c in LOOKALIKE if c < "\U00010000") + "\U00010000-\U0010ffff]")
@functools.cache  # few distinct characters: each is folded once
def _fold(char: str) -> str:
    """What one non-ASCII character reads as: '' when hidden, the ASCII a tag copies, its
    look-alike ASCII letter, or its NFKC form (with look-alikes folded)."""
    code = ord(char)
    if 0xE0020 <= code <= 0xE007E:
        return chr(code - 0xE0000)
    if _CANDIDATES.pattern.match(char):
        return ""
    folded = unicodedata.normalize("NFKC", char)
    if folded.isascii():
        return folded
    return "".join(LOOKALIKE.get(f, f) for f in folded)
