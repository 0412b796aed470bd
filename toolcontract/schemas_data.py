"""The JSON Schemas shipped with toolcontract (the files in schemas/), loaded once."""

from __future__ import annotations

import functools
import os

_HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schemas")


@functools.cache
def load_schema(name: str) -> dict:
    """`name` is a file name in schemas/, e.g. "descriptor.schema.json".

    Read next to this module (an installed package or a checkout, where schemas/ is a
    link to the top-level folder); importlib.resources, whose import alone costs more
    than a lint of one file, only when the package is not on a file system (a zip).
    """
    path = os.path.join(_HERE, name)
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as handle:
            return parse_json(handle.read())
    from importlib import resources

    return parse_json(resources.files("toolcontract").joinpath("schemas", name).read_text("utf-8"))


_WHITESPACE = " \t\n\r"  # JSON's


def parse_json(text: str) -> object:
    """json.loads(text), with the scanner `json.loads` itself uses (the C `_json` module) called
    directly: importing the `json` package costs a few milliseconds of every lint run, which
    reads one shipped schema (TC002) and nothing else as JSON. Anything the scanner does not
    answer cleanly (an error, text after the value, a byte-order mark) goes to json.loads,
    so errors and edge cases are exactly its own."""
    try:
        from _json import make_scanner
    except ImportError:  # a Python without the C accelerator
        make_scanner = None
    start = len(text) - len(text.lstrip(_WHITESPACE))
    if make_scanner is not None and not text.startswith("\ufeff"):
        try:
            value, end = make_scanner(_Decoding)(text, start)
        except Exception:  # StopIteration or a decoding error: json.loads says which, as it would
            pass
        else:
            if not text[end:].strip(_WHITESPACE):
                return value
    import json

    return json.loads(text)


class _Decoding:
    """What the C scanner reads from a json.JSONDecoder() made with no arguments."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}.__getitem__
