"""Offline signals for the security rules (TC6xx): what in a tool's text is hostile.

- `surfaces`: every model-facing string of a descriptor, with its path and kind.
- `unicode`: hidden characters, scripts and look-alike letters (Unicode confusables).
- `signals`: the weighted, documented phrase signals of injection, shadowing and
  exfiltration, and the scoring that turns them into findings.
- `secrets`: API keys and tokens by their published formats.
- `payloads`: attack payloads in values (shell, SQL, path traversal, script markup).
- `regex_safety`: patterns prone to catastrophic backtracking.

Everything here is pure and deterministic: no files, network or clock.
"""

# A file's budget: after this many strings with findings, or this many characters scanned (a
# string read for the first time costs its length once, plus once per pattern its gates let
# run), the rest of the file is not read (TC609 says so). Real tool lists stay far below both
# (the largest in the corpus, 3,526 BFCL functions in one file: 0 findings, 1.9 million
# characters scanned); a hostile file built to be slow to read stops here in about a second.
# (Here, not in `scan`, so that the rules' text needs no more than this package to import.)
MAX_FINDINGS = 200
MAX_CHARACTERS = 10_000_000


# The one test of `unicode` that every string needs, here so that a run whose text is all
# printable ASCII (tab, newline and carriage return allowed) never imports `unicode` and the
# Unicode tables it loads (`unicode.ascii_control` is this).
_NOT_CONTROL = bytes(range(0x20, 0x7F)) + b"\t\n\r"


def ascii_control(text: str) -> bool:
    """Whether an ASCII text has a control character other than tab, newline and carriage
    return (what unicode._ASCII_CONTROL finds; deleting every other byte is quicker than a search)."""
    return not text.isprintable() and bool(text.encode("ascii").translate(None, _NOT_CONTROL))


def clear_caches() -> None:
    """Forget memoised results (benchmarks measure a cold run; results never go stale)."""
    from toolcontract.security import gates, regex_safety, scan, signals, unicode

    scan._scorers.cache_clear()
    table = gates._table()
    table._chunks.clear()
    table._lone_starts.clear()
    for function in (gates.view, signals.shadowing_score, unicode.hidden_spans, unicode.script_of,
                     regex_safety.backtracking_risk):
        function.cache_clear()
