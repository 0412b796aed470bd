"""One pass over a tool's model-facing strings for all TC6 text rules.

Each distinct string is analysed once (memoised on the text and its kind: the same
property description recurs across tools and versions), cheapest tests first: an ASCII
string cannot hide characters or mix scripts, and a pattern runs only when the text
opens its gate (see `gates`). A tool keeps only the strings with something to report,
so each rule reads a short list, and a clean string never becomes an object.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from toolcontract.descriptor import ToolView
from toolcontract.security import gates, signals
from toolcontract.security.payloads import GATES as _PAYLOAD_GATES
from toolcontract.security.payloads import Payload, find_payloads
from toolcontract.security.regex_safety import Backtracking, backtracking_risk
from toolcontract.security.secrets import GATES as _SECRET_GATES
from toolcontract.security.secrets import SecretMatch, find_secrets
from toolcontract.security.surfaces import KINDS, NAME, PATTERN, PROPERTY, TEXT, Surface, collect
from toolcontract.security.unicode import Confusion, HiddenSpan, hidden_spans, identifier_confusion, word_confusions

SECRET_GATES = frozenset(_SECRET_GATES)
PAYLOAD_GATES = frozenset(_PAYLOAD_GATES)
_ASCII_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SHORT_PAYLOAD = re.compile(r"[;&|$`']|\.\.|<|rm |mkfs|javascript")
_SHORT_TAG = re.compile(r"[<\[|]")
_SHORT_CREDENTIAL = re.compile(r"~/|\.env|id_|/etc/|\.ssh|\.aws|169\.254|metadata|\.pem|\*\.", re.I)


@dataclass(frozen=True, slots=True)
class TextReport:
    hidden: tuple[HiddenSpan, ...] = ()
    confusion: Confusion | None = None
    injection: signals.Score = signals.NOTHING
    exfiltration: signals.Score = signals.NOTHING
    secrets: tuple[SecretMatch, ...] = ()
    payloads: tuple[Payload, ...] = ()
    may_shadow: bool = False  # a shadowing signal's gate is open: score it with the tool's name
    backtracking: Backtracking | None = None  # for a pattern

    @property
    def reported(self) -> bool:
        """Whether a finding comes of it (a possible shadowing is scored later, with the tool's name)."""
        return bool(self.hidden or self.confusion or self.injection.total >= signals.THRESHOLD
                    or self.exfiltration.total >= signals.THRESHOLD or self.secrets or self.payloads
                    or self.backtracking)

    def __bool__(self) -> bool:
        return self.may_shadow or self.reported


EMPTY = TextReport()
_REPORTS: dict[str, dict[str, TextReport]] = {kind: {} for kind in KINDS}
_MAX_MEMO = 50_000


def analyse(text: str, kind: str) -> TextReport:
    """What a string of this kind (see surfaces) has to report; EMPTY for most."""
    memo = _REPORTS[kind]
    report = memo.get(text)
    if report is None:
        if len(memo) > _MAX_MEMO:
            memo.clear()
        report = memo[text] = _analyse(text, kind)
    return report


def _analyse(text: str, kind: str) -> TextReport:
    ascii_text = text.isascii()
    hidden: tuple[HiddenSpan, ...] = ()
    confusion = None
    if not ascii_text or _ASCII_CONTROL.search(text):
        hidden = hidden_spans(text)
    if not ascii_text:
        if kind == NAME or kind == PROPERTY:
            confusion = identifier_confusion(text)
        else:
            words = word_confusions(text)
            confusion = words[0] if words else None
    if kind == PATTERN:
        risk = backtracking_risk(text)
        return TextReport(hidden, confusion, backtracking=risk) if hidden or confusion or risk else EMPTY
    if kind == NAME or kind == PROPERTY:
        # a name: no prose signals; a credential in a property name is an access request
        exfiltration = signals.exfiltration_score(text, kind) if kind == PROPERTY and \
            signals.credential_in_name(text) else signals.NOTHING
        report = TextReport(hidden, confusion, exfiltration=exfiltration)
        return report if report else EMPTY
    if len(text) < 16:
        # an enum value, a word: too short for a secret or a phrase; only a tag such as
        # `<IMPORTANT>`, a short payload or a credential file named with a verb can be in it
        injection = signals.injection_score(text) if _SHORT_TAG.search(text) else signals.NOTHING
        exfiltration = signals.exfiltration_score(text, kind) if _SHORT_CREDENTIAL.search(text) else signals.NOTHING
        payloads = find_payloads(text, kind != TEXT) if _SHORT_PAYLOAD.search(text) else ()
        report = TextReport(hidden, confusion, injection, exfiltration, payloads=payloads)
        return report if report else EMPTY
    opened = gates.view(text).opened
    if not opened:
        return TextReport(hidden, confusion) if hidden or confusion else EMPTY
    # each scorer only when one of its gates is open: most texts open one or two
    report = TextReport(
        hidden,
        confusion,
        signals.injection_score(text) if not opened.isdisjoint(signals.INJECTION_IDS) else signals.NOTHING,
        signals.exfiltration_score(text, kind) if not opened.isdisjoint(signals.EXFILTRATION_IDS) else signals.NOTHING,
        find_secrets(text) if not opened.isdisjoint(SECRET_GATES) else (),
        find_payloads(text, kind != TEXT) if not opened.isdisjoint(PAYLOAD_GATES) else (),
        signals.may_shadow(text),
    )
    return report if report else EMPTY


# A file's budget: after this many strings with findings, or this many characters scanned (a
# string read for the first time costs its length once, plus once per pattern its gates let
# run), the rest of the file is not read (TC609 says so). Real tool lists stay far below both
# (the largest in the corpus, 3,526 BFCL functions in one file: 0 findings, 1.9 million
# characters scanned); a hostile file built to be slow to read stops here in about a second.
MAX_FINDINGS = 200
MAX_CHARACTERS = 10_000_000


@dataclass(slots=True)
class _Budget:
    findings: int = 0
    characters: int = 0
    stopped_at: Any = None  # the first tool whose strings were not all read


_CACHE: dict[int, tuple[Any, list[tuple[Surface, TextReport]]]] = {}
_BUDGETS: dict[int, tuple[Any, _Budget]] = {}


def _budget(tool: ToolView) -> _Budget:
    document = tool.document
    entry = _BUDGETS.get(id(document))
    if entry is None or entry[0] is not document:
        if len(_BUDGETS) > 64:
            _BUDGETS.clear()
        entry = _BUDGETS[id(document)] = (document, _Budget())
    return entry[1]


def reports(tool: ToolView) -> list[tuple[Surface, TextReport]]:
    """The tool's strings that have something to report, with what (cached per tool)."""
    key = id(tool)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is tool:
        return hit[1]
    found: list[tuple[Surface, TextReport]] = []
    budget = _budget(tool)
    memos = _REPORTS
    view = gates.view
    for parent, last, text, kind, anchor in collect(tool.data):  # runs for every string of every tool
        if budget.findings >= MAX_FINDINGS or budget.characters >= MAX_CHARACTERS:
            if budget.stopped_at is None:
                budget.stopped_at = tool
            break
        report = memos[kind].get(text)
        if report is None:  # only text read for the first time costs
            report = analyse(text, kind)
            deep = len(text) >= 16 and kind != NAME and kind != PROPERTY and kind != PATTERN
            budget.characters += len(text) * (1 + len(view(text).opened)) if deep else len(text)
        if report is not EMPTY:
            budget.findings += report.reported
            found.append((Surface((*parent, last), text, kind, anchor), report))
    if len(_CACHE) > 256:
        _CACHE.clear()
    _CACHE[key] = (tool, found)
    return found


def stopped_here(tool: ToolView) -> _Budget | None:
    """The file's budget, when this is the tool where the security rules stopped reading."""
    reports(tool)
    budget = _budget(tool)
    return budget if budget.stopped_at is tool else None


def clear() -> None:
    _CACHE.clear()
    _BUDGETS.clear()
    for memo in _REPORTS.values():
        memo.clear()
