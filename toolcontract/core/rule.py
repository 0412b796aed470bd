"""What a rule is: its data (`Rule`), what it finds (`Hit`) and its examples (`Bad`, `Good`).

A rule is one function `check(ctx) -> Iterator[Hit]`; what `ctx` holds depends on the rule's
scope (see toolcontract.lint.context): the loaded file ("load"), the document ("document"), one
tool ("tool"), one tool list ("list"), every tool of the run ("set"), one tool's change ("diff"),
one tool's drift from the lockfile ("lock"), or one conversation ("conversation", run by assess).
The engine adds rule id, severity, file, line and column.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

import sys

from toolcontract.core.model import Severity
from toolcontract.core.records import Record

class Edit(Record):
    """One change a fix makes, described on the data, not the text (toolcontract.io.fixes applies it).

    `op`: "set" (give `key` of the mapping at `path` the value `value`, adding the key when absent),
    "replace" (the value at `path` itself becomes `value`: where a field lives, wherever that is),
    "append" (add `value` to the list `key` of the mapping at `path`, making the list when absent, unless
    it holds it already), or "comment" (a YAML comment at `position`, (line, column) of its `#`: `text`
    is the suppression as written, replaced by `value`, or removed when `value` is None).

    In a rule's hit, `path` is in the hit's own terms (native field names, see Hit); in a finding (see
    `FileEdit`) it is a JSON pointer in the file the engine placed it in."""

    __slots__ = ("op", "path", "key", "value", "position", "text")

    def __init__(self, op: str, path: tuple[str | int, ...] = (), key: str = "", value: Any = None,
                 position: tuple[int, int] | None = None, text: str = ""):
        self.op = op
        self.path = path
        self.key = key
        self.value = value
        self.position = position
        self.text = text


class Fix(Record):
    """What a rule offers to mend a hit: `edits`, all applied or none; `safe`: it keeps the contract's
    meaning (`lint --fix` applies it), else it changes what the contract accepts or claims and needs
    `--unsafe-fixes`; `title` says what it does ("set `additionalProperties: false`")."""

    __slots__ = ("edits", "safe", "title")

    def __init__(self, edits: tuple, safe: bool, title: str):
        self.edits = tuple(edits)
        self.safe = safe
        self.title = title


class FileEdit(Record):
    """An `Edit` placed by the engine: in the file `file`, at the JSON `pointer` of its data."""

    __slots__ = ("file", "pointer", "op", "key", "value", "position", "text")

    def __init__(self, file: str, pointer: str, op: str, key: str = "", value: Any = None,
                 position: tuple[int, int] | None = None, text: str = ""):
        self.file = file
        self.pointer = pointer
        self.op = op
        self.key = key
        self.value = value
        self.position = position
        self.text = text


class Hit(Record):
    """What a rule found. `path` is in native field names (tool rules) or from the
    file's root (document rules); `anchor` picks the key or the value (see Document.locate);
    `severity`, when given, raises or lowers the rule's own default.

    `subject`: which of the things a context holds the hit is about, where it holds several: a
    tool of the list or the set (None: the list itself), the side of a diff ("old" or "new"), the
    place of a lock drift ("tool" or "lock"). `position`: an explicit (line, column) for what has
    no path in the data (a parse error, a repeated key, a comment). `fix`: a `Fix` that mends it,
    when the rule has one for this hit (edits in the same terms as `path`)."""

    __slots__ = ("path", "message", "anchor", "severity", "subject", "position", "fix")

    def __init__(self, path: tuple[str | int, ...] = (), message: str = "", anchor: str = "auto",
                 severity: Severity | None = None, subject: Any = None,
                 position: tuple[int, int] | None = None, fix: Fix | None = None):
        self.path = path
        self.message = message
        self.anchor = anchor
        self.severity = severity
        self.subject = subject
        self.position = position
        self.fix = fix


class Bad(Record):
    """An example that must produce a hit of its rule at `line` and `column` (1-based; the column
    of the finding, which points at the offending value or key), whose message holds `message`
    (a fragment of it).

    `before` (change rules only) is the old version that `text` is compared with; the hit is
    then in `text`, or in `before` for what only the old version has (a removed tool).
    `options`: rule settings (config keys, see Selection.options) the example is linted with,
    so an example of a threshold stays short (`{"max-toolset-tokens": 300}`)."""

    __slots__ = ("text", "line", "note", "before", "options", "column", "message")

    def __init__(self, text: str, line: int, note: str = "", before: str = "",
                 options: Mapping[str, Any] | None = None, *, column: int = 0, message: str = ""):
        self.text = text
        self.line = line
        self.note = note
        self.before = before
        self.options = tuple(sorted((options or {}).items()))
        self.column = column
        self.message = message


class Good(Record):
    """An example that must produce no hit of its rule (compared with `before`, for change rules;
    linted with `options`, as for Bad)."""

    __slots__ = ("text", "note", "before", "options")

    def __init__(self, text: str, note: str = "", before: str = "", options: Mapping[str, Any] | None = None):
        self.text = text
        self.note = note
        self.before = before
        self.options = tuple(sorted((options or {}).items()))


def example_settings(example: "Bad | Good") -> str:
    """The settings an example is linted with, as a note says them ("" when none)."""
    return ", ".join(f"{key} = {value}" for key, value in example.options)


class Rule(Record):
    """One check: its id, name, texts, default severity, examples, and the function that runs it.

    `scope`: what `check(ctx)` is given (see toolcontract.lint.context): "load" (LoadContext: the
    file as read, or the error reading it), "document" (DocumentContext), "tool" (ToolContext),
    "list" (ListContext: the tools of one tool list, a file or a live server, with its overlay),
    "set" (SetContext: every tool of the run), "suppression" (SuppressionContext: TC009);
    "diff" and "lock" are change rules (DiffContext, LockContext), run by `diff` and `--locked`,
    and "conversation" rules are run by assess (toolcontract.assessment.conversation).
    `surfaces`: for portability rules, the surfaces (see SURFACES) the rule speaks for; such a
    rule runs only when `--target` names one of them, with those named in `ctx.surfaces`.
    `reads`: for set rules, the descriptor fields (native names, scalars) their check reads of
    each tool; a parallel run (lint_files(jobs=N)) hands them light views with only these.
    `contract`: the rule checks fields only our format and contract overlays have (version,
    non-goals, observation, target): on a provider tool it runs only when the tool has an
    overlay entry, and then at most as a warning, unless contracts are required (see
    descriptor.CONTRACT_LEVELS).
    `once_per_copy`: a finding about a subschema that several tools of one file carry word for
    word (the same `owner` property in 40 tools) is reported once, at its first copy, naming how
    many other tools share it.
    `fixable`: "safe" or "unsafe" when the rule offers a fix (see Fix) for some of its hits, else "".
    `owasp`: the OWASP MCP Top 10 categories its findings belong to (toolcontract.core.owasp), main one first.
    `when`: for tool rules, a test of the tool's context that rules share (the same function): a lint
    asks it once per tool for the rules next to each other in the table that name it, and runs them
    only where it holds (the security rules: the tool's scan found something). The rule's check
    gives nothing where it fails, so a check called alone needs no test.
    Rules compare equal by everything but `check`.
    """

    __slots__ = ("id", "name", "summary", "rationale", "severity", "examples", "scope", "check", "surfaces", "reads",
                 "contract", "once_per_copy", "fixable", "owasp", "when")

    def __init__(self, id: str, name: str, summary: str, rationale: str, severity: Severity,
                 examples: tuple[Bad | Good, ...], scope: str = "tool", check: Callable | None = None,
                 surfaces: tuple[str, ...] = (), reads: tuple[str, ...] = (), contract: bool = False,
                 once_per_copy: bool = False, fixable: str = "", owasp: tuple[str, ...] = (),
                 when: Callable | None = None):
        self.id = id
        self.name = name
        self.summary = summary
        self.rationale = rationale
        self.severity = severity
        self.examples = examples
        self.scope = scope
        self.check = check
        self.surfaces = surfaces
        self.reads = reads
        self.contract = contract
        self.once_per_copy = once_per_copy
        self.fixable = fixable
        self.owasp = owasp
        self.when = when

    def _compared(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__slots__ if name != "check")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._compared() == other._compared()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._compared())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__ if name != "check")
        return f"Rule({fields})"

    @property
    def bad_examples(self) -> tuple[Bad, ...]:
        return tuple(e for e in self.examples if isinstance(e, Bad))

    @property
    def good_examples(self) -> tuple[Good, ...]:
        return tuple(e for e in self.examples if isinstance(e, Good))


# the provider surfaces portability rules speak for (`--target`)
SURFACES = ("openai", "openai-strict", "anthropic", "anthropic-strict", "gemini", "mcp")


def _load(package: str, module_name: str) -> Rule:
    name = f"{package}.{module_name}"
    module = sys.modules.get(name)
    if module is None:
        __import__(name)  # not importlib.import_module: importlib imports `warnings` (~1 ms)
        module = sys.modules[name]
    return module.RULE._replace(check=module.check)


def load_rules(package: str, table: Mapping[str, str], ids) -> dict[str, Rule]:
    """The rules of a rule table (rule id -> its module under `package`) named by `ids`, by id,
    each bound to its module's `check`; a module is imported the first time it is asked for."""
    return {rule_id: _load(package, table[rule_id]) for rule_id in ids}


class RuleTable(Mapping):
    """The rules of a rule table named by `ids`, as a read-only mapping by id in the order of
    `ids`, whose modules are imported when a rule is first looked up: the ids are known without
    importing anything, so a run that needs few rules (a lint whose files all come from the cache)
    imports only those. One table belongs to one run (it is filled as it is read)."""

    def __init__(self, package: str, table: Mapping[str, str], ids):
        self._package = package
        self._table = table
        self._ids = tuple(ids)
        self._known = frozenset(self._ids)
        self._loaded: dict[str, Rule] = {}

    def __getitem__(self, rule_id: str) -> Rule:
        rule = self._loaded.get(rule_id)
        if rule is None:
            if rule_id not in self._known:
                raise KeyError(rule_id)
            rule = self._loaded[rule_id] = _load(self._package, self._table[rule_id])
        return rule

    def __iter__(self):
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def __repr__(self) -> str:
        return f"RuleTable({self._package!r}, {len(self._ids)} rules, {len(self._loaded)} loaded)"
