"""One pass over a tool's model-facing strings for all TC6 text rules.

Each distinct string is analysed once (memoised on the text and its kind: the same
property description recurs across tools and versions), cheapest tests first: an ASCII
string cannot hide characters or mix scripts, and a pattern runs only when the text
opens its gate (see `gates`). A tool keeps only the strings with something to report,
so each rule reads a short list, and a clean string never becomes an object.
"""

from __future__ import annotations

import re
import weakref
from itertools import compress, count, repeat
from operator import is_not
from typing import Any

from toolcontract.descriptor import ToolView
from toolcontract.security import gates, signals
# a file's budget (see the package); the scan reads these names, so a test can lower them here
from toolcontract.security import MAX_CHARACTERS, MAX_FINDINGS
from toolcontract.security.payloads import GATES as _PAYLOAD_GATES
from toolcontract.security.payloads import Payload, find_payloads, payloads_in
from toolcontract.security.records import Record
from toolcontract.security.secrets import GATES as _SECRET_GATES
from toolcontract.security.secrets import SecretMatch, secrets_in
from toolcontract.security.surfaces import KINDS, NAME, PATTERN, PROPERTY, TEXT, Surface, collect, texts
from toolcontract.security.unicode import (Confusion, HiddenSpan, ascii_control, hidden_spans, identifier_confusion,
                                           word_confusions)

SECRET_GATES = frozenset(_SECRET_GATES)
PAYLOAD_GATES = frozenset(_PAYLOAD_GATES)
_SHORT_PAYLOAD = re.compile(r"[;&|$`']|\.\.|<|rm |mkfs|javascript")
_SHORT_TAG = re.compile(r"[<\[|]")
_SHORT_CREDENTIAL = re.compile(r"~/|\.env|id_|/etc/|\.ssh|\.aws|169\.254|metadata|\.pem|\*\.", re.I)
# any of the three: most short values (an enum value, a word) hold none
_SHORT_ANY = re.compile("|".join((_SHORT_PAYLOAD.pattern, _SHORT_TAG.pattern, _SHORT_CREDENTIAL.pattern)), re.I)


class TextReport(Record):
    __slots__ = ("hidden", "confusion", "injection", "exfiltration", "secrets", "payloads", "may_shadow", "backtracking")

    def __init__(self, hidden: tuple[HiddenSpan, ...] = (), confusion: Confusion | None = None,
                 injection: signals.Score = signals.NOTHING, exfiltration: signals.Score = signals.NOTHING,
                 secrets: tuple[SecretMatch, ...] = (), payloads: tuple[Payload, ...] = (), may_shadow: bool = False,
                 backtracking: Any = None):
        self.hidden = hidden
        self.confusion = confusion
        self.injection = injection
        self.exfiltration = exfiltration
        self.secrets = secrets
        self.payloads = payloads
        self.may_shadow = may_shadow  # a shadowing signal's gate is open: score it with the tool's name
        self.backtracking = backtracking  # for a pattern (regex_safety.Backtracking)

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
# the same reports keyed by (text, kind), the items surfaces.texts returns, so that a tool's
# strings are looked up in one C-level pass; emptied whenever a memo of _REPORTS is
_PAIRS: dict[tuple[str, str], TextReport] = {}


def analyse(text: str, kind: str) -> TextReport:
    """What a string of this kind (see surfaces) has to report; EMPTY for most."""
    memo = _REPORTS[kind]
    report = memo.get(text)
    if report is None:
        report = _remember(text, kind, _read(text, kind)[0])
    return report


def _remember(text: str, kind: str, report: TextReport) -> TextReport:
    memo = _REPORTS[kind]
    if len(memo) > _MAX_MEMO:
        memo.clear()
        _PAIRS.clear()
    memo[text] = _PAIRS[text, kind] = report
    return report


def _read(text: str, kind: str) -> tuple[TextReport, int]:
    """What a string has to report, and what reading it costs the file's budget: its length,
    times one plus the number of gates it opens for prose of 16 characters or more."""
    ascii_text = text.isascii()
    hidden: tuple[HiddenSpan, ...] = ()
    confusion = None
    # printable ASCII (most text) holds no control character: no regex needed to know it
    plain = ascii_text and (text.isprintable() or not ascii_control(text))
    if not plain:
        hidden = hidden_spans(text)
    if not ascii_text:
        if kind == NAME or kind == PROPERTY:
            confusion = identifier_confusion(text)
        else:
            words = word_confusions(text)
            confusion = words[0] if words else None
    size = len(text)
    if kind == PATTERN:
        from toolcontract.security.regex_safety import backtracking_risk  # only patterns need it

        risk = backtracking_risk(text)
        return (TextReport(hidden, confusion, backtracking=risk) if hidden or confusion or risk else EMPTY), size
    if kind == NAME or kind == PROPERTY:
        # a name: no prose signals; a credential in a property name is an access request
        exfiltration = signals.exfiltration_score(text, kind) if kind == PROPERTY and \
            signals.credential_in_name(text) else signals.NOTHING
        if not hidden and confusion is None and exfiltration.total < signals.THRESHOLD:
            return EMPTY, size
        report = TextReport(hidden, confusion, exfiltration=exfiltration)
        return (report if report else EMPTY), size
    if size < 16:
        # an enum value, a word: too short for a secret or a phrase; only a tag such as
        # `<IMPORTANT>`, a short payload or a credential file named with a verb can be in it
        if _SHORT_ANY.search(text) is None:
            return (TextReport(hidden, confusion) if hidden or confusion else EMPTY), size
        injection = signals.injection_score(text) if _SHORT_TAG.search(text) else signals.NOTHING
        exfiltration = signals.exfiltration_score(text, kind) if _SHORT_CREDENTIAL.search(text) else signals.NOTHING
        payloads = find_payloads(text, kind != TEXT) if _SHORT_PAYLOAD.search(text) else ()
        report = TextReport(hidden, confusion, injection, exfiltration, payloads=payloads)
        return (report if report else EMPTY), size
    view = gates.plain_view(text) if plain else gates.view(text)
    opened = view.opened
    if not opened:
        return (TextReport(hidden, confusion) if hidden or confusion else EMPTY), size
    # each scorer only when one of its gates is open: most texts open one or two
    nothing = signals.NOTHING
    injection = signals.injection_in(view) if not opened.isdisjoint(_INJECTION_IDS) else nothing
    exfiltration = signals.exfiltration_in(view) if not opened.isdisjoint(_EXFILTRATION_IDS) else nothing
    secrets = secrets_in(text, view) if not opened.isdisjoint(SECRET_GATES) else ()
    payloads = payloads_in(view, kind != TEXT) if not opened.isdisjoint(PAYLOAD_GATES) else ()
    shadow = signals.may_shadow_in(text, view) if not opened.isdisjoint(_SHADOWING_IDS) else False
    cost = size * (1 + len(opened))
    if not (hidden or confusion or shadow or secrets or payloads or injection.total >= signals.THRESHOLD
            or exfiltration.total >= signals.THRESHOLD):
        return EMPTY, cost  # what `TextReport(...) or EMPTY` gives, without making the report
    return TextReport(hidden, confusion, injection, exfiltration, secrets, payloads, shadow), cost


_INJECTION_IDS = signals.INJECTION_IDS
_EXFILTRATION_IDS = signals.EXFILTRATION_IDS
_SHADOWING_IDS = signals._SHADOWING_IDS


class _Budget:
    __slots__ = ("findings", "characters", "stopped_at")

    def __init__(self) -> None:
        self.findings = 0
        self.characters = 0
        self.stopped_at: weakref.ref | None = None  # the first tool whose strings were not all read

    def stopped_on(self, tool: ToolView) -> bool:
        return self.stopped_at is not None and self.stopped_at() is tool


# per tool and per document, for as long as the tool or document lives: each TC6 rule asks
# for the same tool's reports, in any order and any selection of rules. Keyed by id() with a
# weak reference (a WeakKeyDictionary makes a reference at every look-up), an entry goes
# when its object does. Few objects an entry: they live long, and the more such objects a
# run makes, the sooner the garbage collector walks the whole heap.
class _Entry(weakref.ref):
    """A weak reference to a tool (or a document) that carries what the scan found for it (or
    the document's budget), and drops itself from its table when its object goes."""

    __slots__ = ("table", "key", "found", "budget")

    def __new__(cls, target: Any, table: dict, found: tuple, budget: "_Budget") -> "_Entry":
        return super().__new__(cls, target, _forget)

    def __init__(self, target: Any, table: dict, found: tuple, budget: "_Budget"):
        super().__init__(target, _forget)
        self.table, self.key, self.found, self.budget = table, id(target), found, budget


def _forget(entry: _Entry) -> None:
    if entry.table.get(entry.key) is entry:
        del entry.table[entry.key]


_TOOLS: dict[int, _Entry] = {}
_BUDGETS: dict[int, _Entry] = {}


def _budget(tool: ToolView) -> _Budget:
    document = tool.document
    entry = _BUDGETS.get(id(document))
    if entry is None or entry() is not document:
        entry = _BUDGETS[id(document)] = _Entry(document, _BUDGETS, (), _Budget())
    return entry.budget


class Found:
    """A string of a tool with something to report, and what; its Surface (the path, built by
    walking the tool again) only when a rule reports it."""

    __slots__ = ("text", "kind", "report", "_index", "_paths", "_surface")

    def __init__(self, text: str, kind: str, report: TextReport, index: int, paths: "_Paths"):
        self.text, self.kind, self.report = text, kind, report
        self._index, self._paths, self._surface = index, paths, None

    @property
    def surface(self) -> Surface:
        surface = self._surface
        if surface is None:
            parent, last, text, kind, anchor = self._paths.get()[self._index]
            surface = self._surface = Surface((*parent, last), text, kind, anchor)
        return surface


class _Paths:
    """A tool's strings with their paths (surfaces.collect), made once, on demand."""

    __slots__ = ("data", "found")

    def __init__(self, data: dict):
        self.data, self.found = data, None

    def get(self) -> list:
        if self.found is None:
            self.found = collect(self.data)
        return self.found


# the last tool's entry: the engine runs every rule on one tool before the next
_LAST: list = [None]


def _scan(tool: ToolView) -> _Entry:
    """The tool's entry (what was found, the file's budget), made once per tool."""
    key = id(tool)
    entry = _TOOLS.get(key)
    if entry is not None and entry() is tool:
        _LAST[0] = entry
        return entry
    found: list[Found] = []
    budget = _budget(tool)
    findings, characters = budget.findings, budget.characters
    memos = _REPORTS
    paths = None
    strings = texts(tool.data)  # runs for every string of every tool
    # Most strings were read before and have nothing to report: find the others in C (a string
    # whose report is EMPTY changes nothing below, budget included) and read only those.
    unknown = list(map(is_not, map(_PAIRS.get, strings), repeat(EMPTY)))  # True: to be read
    stopped = False
    last = -1  # the last string read
    if any(unknown):
        for index in compress(count(), unknown):
            if findings >= MAX_FINDINGS or characters >= MAX_CHARACTERS:
                stopped = True
                break
            text, kind = strings[index]
            report = memos[kind].get(text)
            if report is None:  # only text read for the first time costs
                report, cost = _read(text, kind)
                _remember(text, kind, report)
                characters += cost
            else:
                _PAIRS[text, kind] = report  # in case _PAIRS was emptied since
            if report is not EMPTY:
                findings += report.reported
                if paths is None:
                    paths = _Paths(tool.data)
                found.append(Found(text, kind, report, index, paths))
            last = index
    if not stopped and last + 1 < len(strings) and (findings >= MAX_FINDINGS or characters >= MAX_CHARACTERS):
        stopped = True  # the budget ran out with strings left (skipped ones): reading stops at the next
    if stopped and budget.stopped_at is None:
        budget.stopped_at = weakref.ref(tool)
    budget.findings, budget.characters = findings, characters
    entry = _TOOLS[key] = _LAST[0] = _Entry(tool, _TOOLS, tuple(found) if found else (), budget)
    return entry


def reports(tool: ToolView) -> tuple[Found, ...]:
    """The tool's strings that have something to report, with what (cached per tool)."""
    entry = _LAST[0]
    if entry is not None and entry() is tool:  # every rule after the first
        return entry.found
    entry = _TOOLS.get(id(tool))  # rule by rule over many tools
    if entry is not None and entry() is tool:
        return entry.found
    return _scan(tool).found


def stopped_here(tool: ToolView) -> _Budget | None:
    """The file's budget, when this is the tool where the security rules stopped reading."""
    entry = _LAST[0]
    if entry is None or entry() is not tool:
        entry = _scan(tool)
    budget = entry.budget
    return budget if budget.stopped_on(tool) else None


def clear() -> None:
    _LAST[0] = None
    _TOOLS.clear()
    _BUDGETS.clear()
    for memo in _REPORTS.values():
        memo.clear()
    _PAIRS.clear()
