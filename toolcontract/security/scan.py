"""One pass over a tool's model-facing strings for all TC6 text rules.

Each distinct string is analysed once per run (memoised on the text and its kind in the
caller's ScanRun: the same property description recurs across tools and versions), cheapest
tests first: an ASCII
string cannot hide characters or mix scripts, and a pattern runs only when the text
opens its gate (see `gates`). A tool keeps only the strings with something to report,
so each rule reads a short list, and a clean string never becomes an object.
"""

from __future__ import annotations

import functools
import re
from itertools import filterfalse
from typing import TYPE_CHECKING, Any

from toolcontract.core.descriptor import ToolView
from toolcontract.security import gates, intent, signals
# a file's budget (see the package); the scan reads these names, so a test can lower them here
from toolcontract.security import MAX_CHARACTERS, MAX_FINDINGS, ascii_control
from toolcontract.security.lazy import Lazy
from toolcontract.security.addresses import internal_addresses
from toolcontract.security.collection import sensitive_collection
from toolcontract.security.payloads import GATES as _PAYLOAD_GATES
from toolcontract.security.payloads import Payload, find_payloads, payloads_in
from toolcontract.security.records import Record
from toolcontract.security.secrets import GATES as _SECRET_GATES
from toolcontract.security.secrets import SecretMatch, secrets_in
from toolcontract.security.surfaces import (KINDS, NAME, OTHER, PATTERN, PROPERTY, TEXT, VALUE, Surface, collect,
                                            shown, texts)

if TYPE_CHECKING:
    from toolcontract.security.unicode import Confusion, HiddenSpan

SECRET_GATES = frozenset(_SECRET_GATES)
PAYLOAD_GATES = frozenset(_PAYLOAD_GATES)
_SHORT_PAYLOAD = Lazy(r"[;&|$`']|\.\.|<|rm |mkfs|javascript")
_SHORT_TAG = Lazy(r"[<\[|]")
_SHORT_CREDENTIAL = Lazy(r"~/|\.env|id_|/etc/|\.ssh|\.aws|169\.254|metadata|\.pem|\*\.", re.I)
# any of the three: most short values (an enum value, a word) hold none, and the three are
# compiled only for one that does
_SHORT_ANY = re.compile("|".join((_SHORT_PAYLOAD.source, _SHORT_TAG.source, _SHORT_CREDENTIAL.source)), re.I)


class TextReport(Record):
    __slots__ = ("hidden", "confusion", "injection", "exfiltration", "secrets", "payloads", "may_shadow", "backtracking",
                 "addresses", "collected", "tool_features")

    def __init__(self, hidden: tuple[HiddenSpan, ...] = (), confusion: Confusion | None = None,
                 injection: signals.Score = signals.NOTHING, exfiltration: signals.Score = signals.NOTHING,
                 secrets: tuple[SecretMatch, ...] = (), payloads: tuple[Payload, ...] = (), may_shadow: bool = False,
                 backtracking: Any = None, addresses: tuple = (), collected: tuple = (), tool_features: bool = False):
        self.hidden = hidden
        self.confusion = confusion
        self.injection = injection
        self.exfiltration = exfiltration
        self.secrets = secrets
        self.payloads = payloads
        self.may_shadow = may_shadow  # a shadowing signal's gate is open: score it with the tool's name
        self.backtracking = backtracking  # for a pattern (regex_safety.Backtracking)
        self.addresses = addresses  # TC610: addresses.internal_addresses of a text, value or other string
        self.collected = collected  # TC611: collection.sensitive_collection of a text
        # an intent feature of shadowing holds when any tool but a generic word ("this tool") is named:
        # TC604 then reads the text with the tool's own name (which is no other tool); else it need not
        self.tool_features = tool_features

    @property
    def reported(self) -> bool:
        """Whether a finding comes of it (a possible shadowing is scored later, with the tool's name)."""
        return bool(self.hidden or self.confusion or self.injection.total >= signals.THRESHOLD
                    or self.exfiltration.total >= signals.THRESHOLD or self.secrets or self.payloads
                    or self.backtracking or self.addresses or self.collected)

    def __bool__(self) -> bool:
        return self.may_shadow or self.reported


EMPTY = TextReport()
_MAX_MEMO = 50_000


class ScanRun:
    """What one run's scan keeps (made by the caller, one per run, never shared between runs):
    each distinct string's report per kind (the same property description recurs across tools),
    the (text, kind) of the strings whose report is EMPTY (the items surfaces.texts returns, so
    that a tool's strings are sifted in one C-level pass; emptied whenever a memo of `reports`
    is), each file's budget by document, and the phrase signals' view of the texts TC604 scores
    again with each tool's name (`views`, emptied with the memos)."""

    __slots__ = ("reports", "nothing", "budgets", "views")

    def __init__(self) -> None:
        self.reports: dict[str, dict[str, TextReport]] = {kind: {} for kind in KINDS}
        self.nothing: set[tuple[str, str]] = set()
        # id(document) -> (document, its budget): the entry holds the document, so its id is not reused
        self.budgets: dict[int, tuple[Any, _Budget]] = {}
        # the phrase signals' view of each text whose report may_shadow: TC604 scores it with each
        # tool's name from this view rather than reading the text again (see shadow_view)
        self.views: dict[str, gates.View] = {}

    def remember(self, text: str, kind: str, report: TextReport) -> TextReport:
        memo = self.reports[kind]
        if len(memo) > _MAX_MEMO:
            memo.clear()
            self.nothing.clear()
            self.views.clear()
        memo[text] = report
        if report is EMPTY:
            self.nothing.add((text, kind))
        return report

    def shadow_view(self, text: str) -> "gates.View | None":
        """The phrase signals' view of a text whose report may_shadow, as read by the scan (gates.view's
        reading), or None (then signals.shadowing_score reads the text)."""
        return self.views.get(text)

    def budget(self, document: Any) -> "_Budget":
        entry = self.budgets.get(id(document))
        if entry is None:
            entry = self.budgets[id(document)] = (document, _Budget())
        return entry[1]


def analyse(text: str, kind: str) -> TextReport:
    """What a string of this kind (see surfaces) has to report; EMPTY for most."""
    return _read(text, kind)[0]


def _read(text: str, kind: str) -> tuple[TextReport, int]:
    """What a string has to report (the phrase signals, then what the text does: security.intent),
    and what reading it costs the file's budget (see _read_phrases; a text with an intent feature
    costs its length once more)."""
    return _reading(text, kind)[:2]


def _reading(text: str, kind: str) -> tuple[TextReport, int, "gates.View | None"]:
    """_read, and the phrase signals' view of the text (gates.view's, None when none was needed)."""
    report, cost, view, words = _read_phrases(text, kind)
    phrase_view = view
    if kind == TEXT or kind == VALUE or kind == OTHER:
        if len(text) >= 16 or len(text) >= 6 and not text.isascii():
            # printable ASCII: the phrase signals' view is the text as written, and the features' gates
            # are in its table; other text: the features read it as written (intent.view), not folded
            if not text.isascii() or (view is not None and view.where is not None):
                view = intent.view(text)
            if view is not None and not view.opened.isdisjoint(intent.IDS):
                found = intent.matches(text, None, view)
                if found:
                    report = _with_intent(report, text, kind, found)
        # what the tool does with the text's addresses (TC610) and the user's data (TC611), read in
        # the same pass: each module tests its own cheap gate first, and most texts stop there
        addresses = internal_addresses(text)
        collected = sensitive_collection(text, words) if kind == TEXT else ()
        if addresses or collected:
            report = report._replace(addresses=tuple(addresses), collected=tuple(collected))
    return report, cost, phrase_view


def _with_intent(report: TextReport, text: str, kind: str, found: dict) -> TextReport:
    """The report with the intent features' matches counted next to the phrase signals' (which are
    scored again here, since a report keeps only the scores that reach the threshold)."""
    injection, exfiltration = report.injection, report.exfiltration
    if "injection" in found:
        injection = signals.merged(signals.injection_score(text), found["injection"])
    if "exfiltration" in found:
        exfiltration = signals.merged(signals.exfiltration_score(text, kind), found["exfiltration"])
    shadowing = "shadowing" in found
    merged = report._replace(injection=injection, exfiltration=exfiltration, may_shadow=report.may_shadow or shadowing,
                             tool_features=shadowing)
    return merged if merged else EMPTY


def _read_phrases(text: str, kind: str) -> tuple[TextReport, int, "gates.View | None", frozenset | None]:
    """What a string has to report, what reading it costs the file's budget (its length, times one
    plus the number of the phrase signals' gates it opens for prose of 16 characters or more), the
    view read (None when none was needed), and the words the gate table found in printable ASCII
    prose (None for other text)."""
    size = len(text)
    # printable ASCII (most text) holds no hidden character and no look-alike, and no control
    # character (no regex needed to know it): none of `unicode` is needed for it
    if text.isascii() and (text.isprintable() or not ascii_control(text)):
        if kind == TEXT or kind == VALUE or kind == OTHER:
            if size < 16:
                return _short(text, kind, (), None), size, None, None
            # prose: a view only for the text that opens a gate (most open none)
            view, words = gates.plain_reading(text)
            if view is None:
                return EMPTY, size, None, words
            return _scored(text, kind, view, (), None), size * (1 + _phrase_gates(view)), view, words
        return _unprosed(text, kind, (), None), size, None, None
    from toolcontract.security.unicode import hidden_spans, identifier_confusion, word_confusions

    view = gates.view(text) if size >= 16 and (kind == TEXT or kind == VALUE or kind == OTHER) else None
    hidden: tuple[HiddenSpan, ...] = ()
    confusion = None
    # where nothing in the text reads otherwise than written (unicode.normalized found no hidden character,
    # look-alike or compatibility form), nothing is hidden and no word mixes scripts
    if view is None or view.where is not None:
        hidden = hidden_spans(text)
        if not text.isascii():
            if kind == NAME or kind == PROPERTY:
                confusion = identifier_confusion(text)
            else:
                mixed = word_confusions(text)
                confusion = mixed[0] if mixed else None
    if kind == NAME or kind == PROPERTY or kind == PATTERN:
        return _unprosed(text, kind, hidden, confusion), size, None, None
    if size < 16:
        return _short(text, kind, hidden, confusion), size, None, None
    if not view.opened:
        return (TextReport(hidden, confusion) if hidden or confusion else EMPTY), size, view, None
    return _scored(text, kind, view, hidden, confusion), size * (1 + _phrase_gates(view)), view, None


def _phrase_gates(view: gates.View) -> int:
    """How many of the phrase signals' gates (not the intent features') a text opens: the budget's count."""
    opened = view.opened
    return len(opened) if opened.isdisjoint(intent.IDS) else len(opened - intent.IDS)


def _unprosed(text: str, kind: str, hidden: tuple, confusion: Confusion | None) -> TextReport:
    """The report of a name, a property name or a pattern."""
    if kind == PATTERN:
        from toolcontract.security.regex_safety import backtracking_risk  # only patterns need it

        risk = backtracking_risk(text)
        return TextReport(hidden, confusion, backtracking=risk) if hidden or confusion or risk else EMPTY
    # a name: no prose signals; a credential in a property name is an access request
    exfiltration = signals.exfiltration_score(text, kind) if kind == PROPERTY and \
        signals.credential_in_name(text) else signals.NOTHING
    if not hidden and confusion is None and exfiltration.total < signals.THRESHOLD:
        return EMPTY
    report = TextReport(hidden, confusion, exfiltration=exfiltration)
    return report if report else EMPTY


def _short(text: str, kind: str, hidden: tuple, confusion: Confusion | None) -> TextReport:
    """The report of a value or text of fewer than 16 characters (an enum value, a word): too
    short for a secret or a phrase; only a tag such as `<IMPORTANT>`, a short payload or a
    credential file named with a verb can be in it."""
    if _SHORT_ANY.search(text) is None:
        return TextReport(hidden, confusion) if hidden or confusion else EMPTY
    injection = signals.injection_score(text) if _SHORT_TAG.pattern.search(text) else signals.NOTHING
    exfiltration = signals.exfiltration_score(text, kind) if _SHORT_CREDENTIAL.pattern.search(text) \
        else signals.NOTHING
    payloads = find_payloads(text, kind != TEXT) if _SHORT_PAYLOAD.pattern.search(text) else ()
    report = TextReport(hidden, confusion, injection, exfiltration, payloads=payloads)
    return report if report else EMPTY


def _scored(text: str, kind: str, view: gates.View, hidden: tuple, confusion: Confusion | None) -> TextReport:
    """The report of prose of 16 characters or more that opens a gate: each scorer only when
    one of its gates is open (most texts open one or two)."""
    score_injection, score_exfiltration, find_secrets, find_payloads, shadowing = _scorers(view.opened)
    nothing = signals.NOTHING
    injection = signals.injection_in(view) if score_injection else nothing
    exfiltration = signals.exfiltration_in(view) if score_exfiltration else nothing
    secrets = secrets_in(text, view) if find_secrets else ()
    payloads = payloads_in(view, kind != TEXT) if find_payloads else ()
    shadow = signals.may_shadow_in(text, view) if shadowing else False
    if not (hidden or confusion or shadow or secrets or payloads or injection.total >= signals.THRESHOLD
            or exfiltration.total >= signals.THRESHOLD):
        return EMPTY  # what `TextReport(...) or EMPTY` gives, without making the report
    return TextReport(hidden, confusion, injection, exfiltration, secrets, payloads, shadow)


# the gates a text opens -> which scorers run (texts share their few gates)
@functools.lru_cache(maxsize=512)
def _scorers(opened: frozenset) -> tuple[bool, bool, bool, bool, bool]:
    return tuple(not opened.isdisjoint(ids) for ids in (  # type: ignore[return-value]
        _INJECTION_IDS, _EXFILTRATION_IDS, SECRET_GATES, PAYLOAD_GATES, _SHADOWING_IDS))


_INJECTION_IDS = signals.INJECTION_IDS
_EXFILTRATION_IDS = signals.EXFILTRATION_IDS
_SHADOWING_IDS = signals._SHADOWING_IDS


class _Budget:
    __slots__ = ("findings", "characters", "stopped_at")

    def __init__(self) -> None:
        self.findings = 0
        self.characters = 0
        self.stopped_at: ToolView | None = None  # the first tool whose strings were not all read

    def stopped_on(self, tool: ToolView) -> bool:
        return self.stopped_at is tool


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


class ToolScan:
    """What the scan found in one tool (the strings with something to report) and its file's budget."""

    __slots__ = ("found", "budget")

    def __init__(self, found: tuple[Found, ...], budget: _Budget):
        self.found, self.budget = found, budget

    def stopped_here(self, tool: ToolView) -> _Budget | None:
        """The file's budget, when this is the tool where the security rules stopped reading."""
        return self.budget if self.budget.stopped_on(tool) else None


def scan_tool(tool: ToolView, run: ScanRun) -> ToolScan:
    """Read the tool's strings, against its file's budget in `run`; once per tool (the caller
    keeps the answer: lint.context.ToolContext.scan)."""
    found: list[Found] = []
    budget = run.budget(tool.document)
    findings, characters = budget.findings, budget.characters
    data = shown(tool)
    strings = texts(data)  # runs for every string of every tool
    # Most strings were read before and have nothing to report: find the others in C (a string
    # whose report is EMPTY changes nothing below, budget included) and read only those. Each
    # is found again in `strings` from just after the last one: the first match there is it,
    # as an equal string before it would be one of the others too.
    nothing = run.nothing
    others = list(filterfalse(nothing.__contains__, strings))
    stopped = False
    last = -1  # the last string read
    if others:
        memos = run.reports
        paths = None
        for pair in others:
            if findings >= MAX_FINDINGS or characters >= MAX_CHARACTERS:
                stopped = True
                break
            index = strings.index(pair, last + 1)
            text, kind = pair
            report = memos[kind].get(text)
            if report is None:  # only text read for the first time costs
                report, cost, view = _reading(text, kind)
                run.remember(text, kind, report)
                if report.may_shadow and view is not None:
                    run.views[text] = view
                characters += cost
            elif report is EMPTY:
                nothing.add(pair)  # in case `nothing` was emptied since
            if report is not EMPTY:
                findings += report.reported
                if paths is None:
                    paths = _Paths(data)
                found.append(Found(text, kind, report, index, paths))
            last = index
    if not stopped and last + 1 < len(strings) and (findings >= MAX_FINDINGS or characters >= MAX_CHARACTERS):
        stopped = True  # the budget ran out with strings left (skipped ones): reading stops at the next
    if stopped and budget.stopped_at is None:
        budget.stopped_at = tool
    budget.findings, budget.characters = findings, characters
    return ToolScan(tuple(found) if found else (), budget)
