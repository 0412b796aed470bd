"""Fast JSON for the streaming paths (JSONL in, JSON out), exact where it matters.

orjson is several times faster than the standard library both ways, but it reads
integers beyond 64 bits as floats and refuses to write them. Those (rare) inputs
take the standard library's path, which also gives the positioned error messages.
"""

from __future__ import annotations

import json
import re
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover - orjson is a dependency; stay correct without it
    orjson = None  # type: ignore[assignment]

_LONG_INT = re.compile(rb"\d{19}")
# `_LONG_INT.search(raw)` without the regex engine: every ASCII digit becomes "0", then one
# substring search for 19 of them (several times faster on the lines of a JSONL log)
_DIGITS_TO_ZERO = bytes(48 if 48 <= b <= 57 else b for b in range(256))
_NINETEEN_ZEROS = b"0" * 19


def _has_long_digit_run(raw: Any) -> bool:
    """Whether `raw` holds 19 ASCII digits in a row (an integer orjson may not read exactly)."""
    if isinstance(raw, (bytes, bytearray)):
        return _NINETEEN_ZEROS in raw.translate(_DIGITS_TO_ZERO)
    return _LONG_INT.search(raw) is not None


def loads(raw: bytes) -> Any:
    """Parse JSON bytes. Raises json.JSONDecodeError (with line/column) on bad input."""
    if orjson is not None and not _has_long_digit_run(raw):
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass  # let the standard library explain it, or accept what it accepts
    try:
        data = json.loads(raw)
    except json.JSONDecodeError:
        raise
    except ValueError:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        text = raw.decode("utf-8", "replace") if isinstance(raw, (bytes, bytearray)) else str(raw)
        m = _OVERLONG.search(text)
        raise json.JSONDecodeError("a number has more than 4,300 digits", text, m.start() if m else 0) from None
    offset = lone_surrogate_offset(raw, data)
    if offset is not None:  # orjson refused it; the standard library lets it through
        text = raw.decode("utf-8", "replace") if isinstance(raw, (bytes, bytearray)) else str(raw)
        raise json.JSONDecodeError(LONE_SURROGATE.removeprefix("JSON: "), text, offset)
    return data


_OVERLONG = re.compile(r"\d{4301,}")


# Characters valid in JSON strings that a terminal or editor would act on or hide
# (DEL, C1 controls, bidi and zero-width marks, tags): written as \uXXXX escapes.
_HIDDEN = re.compile("[\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\U000e0000-\U000e007f]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    if code > 0xFFFF:  # a surrogate pair, as JSON spells characters beyond the BMP
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def dumps(value: Any, *, indent: int | None = None) -> str:
    """JSON text with hidden characters escaped; unknown objects are written as their str()."""
    text = None
    if orjson is not None and indent in (None, 2):
        try:
            option = orjson.OPT_INDENT_2 if indent == 2 else 0
            raw = orjson.dumps(value, default=str, option=option)
        except (orjson.JSONEncodeError, TypeError):
            raw = None
        if raw is not None:
            if raw.isascii() and b"\x7f" not in raw:  # DEL is the only ASCII character _HIDDEN matches
                return raw.decode("ascii")
            text = raw.decode("utf-8")
    if text is None:
        separators = (",", ":") if indent is None else (",", ": ")
        text = json.dumps(value, ensure_ascii=False, default=str, separators=separators, indent=indent)
        if _SURROGATE.search(text):  # a file name's undecodable bytes (surrogateescape): no UTF-8 can hold them
            text = _SURROGATE.sub(_byte_escape, text)
    return _HIDDEN.sub(_escape, text)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _byte_escape(match: re.Match) -> str:
    """A lone surrogate in output text, written as the escape `printable` shows (`\\xff` for the byte
    a file name could not decode, `\\udXXX` otherwise): valid UTF-8, the same name in every format."""
    code = ord(match.group())
    return f"\\\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\\\u{code:04x}"


def loads_container(text: str) -> Any:
    """The value of a text that is the JSON of an object or an array (surrounding whitespace allowed), or
    None for any other text: prose, a bare scalar, or JSON that does not parse. Tool results carry their
    structured content this way."""
    stripped = text.strip()
    if stripped[:1] not in ("{", "["):
        return None
    try:
        value = loads(stripped.encode("utf-8", "surrogatepass"))
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, (dict, list)) else None


_LONE_SURROGATE = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)


LONE_SURROGATE = "JSON: a string holds a lone surrogate escape (half of a UTF-16 pair): not valid Unicode"


def lone_surrogate_offset(text: str | bytes, data: Any) -> int | None:
    """The offset in `text` of a JSON escape that spells half of a UTF-16 pair (`"\\ud800"`), when a
    string of the parsed `data` holds one; else None. JSON parsers let such a string through (YAML
    refuses it), but it is no character at all: UTF-8 cannot hold it, so neither can a validator, a
    report or a provider's API. Every JSON reader refuses it with this position."""
    if isinstance(text, (bytes, bytearray)):
        if b"\\ud" not in text and b"\\uD" not in text:
            return None
        text = text.decode("utf-8", "replace")
    elif "\\ud" not in text and "\\uD" not in text:
        return None
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if any("\ud800" <= c <= "\udfff" for c in item):
                at = _LONE_SURROGATE.search(text)
                return at.start() if at else 0
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None
