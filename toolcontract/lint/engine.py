"""The lint engine: rules as data plus one function, selection, and locating hits.

A rule yields `Hit`s that say *what* is wrong and *where* in native field names;
the engine adds rule id, severity, file, line and column. Rules never see files
or the terminal.
"""

from __future__ import annotations

from typing import AbstractSet, Any, Iterable, Iterator, Mapping

from toolcontract.core.descriptor import CARD_FORMAT, ToolView
from toolcontract.lint.context import (MAX_TOOLS_CHECKED, DocumentContext, ListContext, LoadContext, RunContext,
                                       SetContext, ToolContext)
from toolcontract.lint.rules import CARD_ONLY_PREFIX, CARD_RULES
from toolcontract.core.rule import SURFACES, FileEdit, Fix, Hit, Rule
from toolcontract.core.model import Finding, Severity
from toolcontract.core.records import MutableRecord, Record
from toolcontract.io.document import DEFAULT_LIMITS, Document, Limits, LoadError, load_bytes


def all_rules(files_only: bool = False) -> dict[str, Rule]:
    """Every rule, by id, in id order, from the rule tables (toolcontract.lint.rules.RULES and,
    for the conversation rules, toolcontract.assessment.rules.RULES).

    `files_only`: just the rules `lint` runs on files, without importing the change and
    conversation rules.
    """
    from toolcontract.lint.rules import lint_rules

    rules = lint_rules(files_only)
    if not files_only:
        from toolcontract.assessment.rules import conversation_rules

        rules.update(conversation_rules())
    return dict(sorted(rules.items()))


def rule_ids(files_only: bool = False) -> tuple[str, ...]:
    """The ids of all_rules, in id order, read from the rule tables without importing a rule."""
    from toolcontract.lint.rules import CHANGE_PREFIX, RULES

    ids = [i for i in RULES if not (files_only and i.startswith(CHANGE_PREFIX))]
    if not files_only:
        from toolcontract.assessment.rules import RULES as CONVERSATION_RULES

        ids.extend(CONVERSATION_RULES)
    return tuple(sorted(ids))


def rule_names() -> dict[str, str]:
    """Rule name -> rule id, for every rule of all_rules, read from the tables without importing a rule:
    a rule's module is named after its id and its name (tc403_additional_properties_open; a test checks)."""
    from toolcontract.assessment.rules import RULES as CONVERSATION_RULES
    from toolcontract.lint.rules import RULES

    return {module.rsplit(".", 1)[-1].split("_", 1)[1].replace("_", "-"): rule_id
            for rule_id, module in sorted({**RULES, **CONVERSATION_RULES}.items())}


def suggest_rule(text: str) -> str | None:
    """The rule closest to a mistyped id or name, as `name (ID)`, or None (difflib, as `git` suggests)."""
    import difflib

    names = rule_names()
    ids = {rule_id: name for name, rule_id in names.items()}
    wanted = text.lower()
    if wanted.startswith("tc"):  # an id typed with the letter O for a zero (TC4O3), or l/I for a one
        wanted = "tc" + wanted[2:].replace("o", "0").replace("l", "1").replace("i", "1")
    close = difflib.get_close_matches(wanted, [*names, *(i.lower() for i in ids)], n=1, cutoff=0.75)
    if not close:
        return None
    rule_id = names.get(close[0]) or close[0].upper()
    return f"{ids[rule_id]} ({rule_id})"


def did_you_mean(text: str) -> str:
    """`: did you mean name (ID)?` for a message about `text`, or nothing when no rule is close."""
    suggestion = suggest_rule(text)
    return f": did you mean {suggestion}?" if suggestion else ""


# ------------------------------------------------------------------ selection


class SelectionError(ValueError):
    pass


class Selection(Record):
    """Which rules run: the longest matching prefix among select and ignore decides (as flake8).

    `severity`: rule id or prefix -> the severity its findings get; `targets`: the provider
    surfaces to check portability for (none by default); `per_file_ignores`: path (as given
    to lint_files) -> rule ids or prefixes ignored in that file (config per-file-ignores).
    `contracts_required`: hold provider tools to the whole contract, as native descriptors
    (config `contracts = "required"`); `options`: settings of single rules by name
    (`max-toolset-tokens`), from the configuration; `mcp_revision`: the MCP revision every MCP
    list is judged by (--mcp-revision), None to go by what each document says.
    """

    __slots__ = ("select", "ignore", "severity", "targets", "per_file_ignores", "contracts_required", "options",
                 "mcp_revision")

    def __init__(self, select: tuple[str, ...] = ("TC",), ignore: tuple[str, ...] = (),
                 severity: dict[str, Severity] | None = None, targets: tuple[str, ...] = (),
                 per_file_ignores: Mapping[str, tuple[str, ...]] | None = None, contracts_required: bool = False,
                 options: Mapping[str, Any] | None = None, mcp_revision: str | None = None):
        self.select = select
        self.ignore = ignore
        self.severity = {} if severity is None else severity
        self.targets = targets
        self.per_file_ignores = {} if per_file_ignores is None else per_file_ignores
        self.contracts_required = contracts_required
        self.options = {} if options is None else options
        self.mcp_revision = mcp_revision

    def ignored_in(self, path: str, rule_id: str) -> bool:
        return any(rule_id.startswith(code) for code in self.per_file_ignores.get(path, ()))

    def validate(self, rules: Iterable[str]) -> None:
        """Refuse unknown targets and codes that match none of `rules` (rule ids, or rules by id)."""
        for target in self.targets:
            if target not in SURFACES:
                raise SelectionError(f"unknown target {target!r} (expected any of {', '.join(SURFACES)})")
        for prefix in (*self.select, *self.ignore, *self.severity):
            if prefix.upper() in ("ALL",):
                continue
            if not any(rule_id.startswith(prefix.upper()) for rule_id in rules):
                hint = did_you_mean(prefix) or " (rule ids look like TC403, prefixes like TC4, names like " \
                    "additional-properties-open)"
                raise SelectionError(f"{prefix!r} matches no rule{hint}")

    def surfaces_for(self, rule: Rule) -> tuple[str, ...]:
        """The targeted surfaces a portability rule runs for (empty: it does not run)."""
        return tuple(t for t in self.targets if t in rule.surfaces)

    def enabled(self, rule_id: str) -> bool:
        best_len, chosen = -1, False
        for prefix in self.select:
            p = "" if prefix.upper() == "ALL" else prefix.upper()
            if rule_id.startswith(p) and len(p) > best_len:
                best_len, chosen = len(p), True
        for prefix in self.ignore:
            p = "" if prefix.upper() == "ALL" else prefix.upper()
            if rule_id.startswith(p) and len(p) >= best_len:
                best_len, chosen = len(p), False
        return chosen

    def severity_of(self, rule: Rule, hit: Hit, cap: Severity | None = None) -> Severity:
        """The configured severity for the rule, else the hit's own or the rule's default, lowered to
        `cap` when given (a contract rule on a provider tool's overlay entry: at most a warning)."""
        best = None
        for prefix, severity in self.severity.items():
            if rule.id.startswith(prefix.upper()) and (best is None or len(prefix) > len(best[0])):
                best = (prefix, severity)
        if best is not None:
            return best[1]
        severity = hit.severity or rule.severity
        return severity if cap is None or severity <= cap else cap


# -------------------------------------------------------------------- running


def list_path_of(tools: list[ToolView]) -> tuple:
    """The path of the list that holds these tools: the common parent of their pointers."""
    from toolcontract.core.pointer import split_pointer

    if not tools or (len(tools) == 1 and not tools[0].pointer):
        return ()
    first = tools[0].pointer
    parent = first.rsplit("/", 1)[0]
    if all(t.pointer.rsplit("/", 1)[0] == parent for t in tools):  # the common case: one list, one parent
        return tuple(split_pointer(parent))
    parents = [tuple(split_pointer(t.pointer))[:-1] for t in tools]
    common = parents[0]
    for other in parents[1:]:
        size = 0
        while size < len(common) and size < len(other) and common[size] == other[size]:
            size += 1
        common = common[:size]
    return common


class LintResult(MutableRecord):
    """What a lint run found. `fail_on` is set by the caller; reporters that pass or fail each
    file use it. `skipped`: the paths of files found by walking a folder that are no tool list
    in any format (package.json, a workflow file; see `lint_files(walked=...)`): not linted, not
    counted in `files`, and counted in every format's summary."""

    __slots__ = ("findings", "files", "tools", "documents", "tool_views", "fail_on", "skipped")

    def __init__(self, findings: list[Finding], files: int, tools: int, documents: dict[str, Document],
                 tool_views: list[ToolView] | None = None, fail_on: Severity = Severity.ERROR,
                 skipped: list[str] | None = None):
        self.findings = findings
        self.files = files
        self.tools = tools
        self.documents = documents
        self.tool_views = [] if tool_views is None else tool_views
        self.fail_on = fail_on
        self.skipped = [] if skipped is None else skipped

    def __eq__(self, other: object) -> bool:  # as the dataclass it was: equal by its fields
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]


def _finding(rule: Rule, hit: Hit, document: Document | None, pointer: str, tool: str | None, selection: Selection,
             cap: Severity | None = None, path: str | None = None, locate: Any = None) -> Finding:
    """The finding of a rule's hit: placed at `hit.position` when it has one, else at `pointer` in
    `document`; its severity is the one place severities are decided (Selection.severity_of).
    `locate` places the paths of the hit's fix, as `ToolView.locate` does (default: paths from the
    root of `document`)."""
    if hit.position is not None:
        line, column = hit.position
    else:
        line, column = document.locate(pointer, hit.anchor)
    where = path if path is not None else document.path
    fix = None if hit.fix is None else place_fix(hit.fix, where, document, locate)
    return Finding(where, line, column, rule.id, rule.name, selection.severity_of(rule, hit, cap), hit.message,
                   pointer, tool, fix)


def place_fix(fix: Fix, path: str, document: Document | None, locate: Any = None) -> Fix:
    """A rule's fix with its edits placed (core.rule.FileEdit): each edit's path through `locate`
    (a tool's `locate`), else as a path from the root of `document`; a comment edit in `path`."""
    placed = []
    for edit in fix.edits:
        if edit.op == "comment" or document is None and locate is None:
            placed.append(FileEdit(path, "", edit.op, edit.key, edit.value, edit.position, edit.text))
            continue
        if locate is not None:
            doc, pointer = locate(edit.path)
        else:
            doc, pointer = document, _pointer(edit.path)
        placed.append(FileEdit(doc.path, pointer, edit.op, edit.key, edit.value, edit.position, edit.text))
    return fix._replace(edits=tuple(placed))




def lint_files(
    files: Iterable[tuple[str, bytes | LoadError]],
    selection: Selection = Selection(),
    limits: Limits = DEFAULT_LIMITS,
    input_format: str | None = None,
    overlays: Mapping[str, tuple[str, bytes | LoadError]] | None = None,
    jobs: int = 1,
    walked: AbstractSet[str] = frozenset(),
    cache: Any = None,
) -> LintResult:
    """Lint files given as (path, content). Content is bytes, or the LoadError met reading it.

    `input_format` forces a format instead of detecting it; `overlays` maps a provider
    file's path to its contract overlay (path, content).

    Never silent about what was not read: a file that does not load (TC000), and a file from
    which no tool could be read (TC002: no reader placed it, or its structure gave no tool), are
    reported whatever the selection, per-file ignores and inline suppressions say, as ruff
    reports syntax errors. `walked` names the files found by walking a folder rather than named:
    one that is no tool list in any format (`sources.reader.is_tool_list`), or that does not
    load and is named like a well-known configuration file (`sources.reader.known_non_descriptor`),
    is skipped (`LintResult.skipped`) instead.

    `jobs` > 1 lints the files in that many processes (see toolcontract.lint.parallel):
    the findings are the same, but the result's documents and tool views are then
    light copies (path and text; the fields set rules read) rather than the loaded ones.

    `cache`: an object whose `chunks(plan, files, jobs)` gives the chunks of the files, one per
    file in file order, from what it stored or by linting (the CLI's lint cache,
    toolcontract.io.cache); set rules and suppressions run on them here, every run.
    """
    plan = _Plan.of(selection, input_format, overlays, limits, walked)
    files = list(files)
    try:
        if cache is not None:
            chunks = cache.chunks(plan, files, jobs)
        elif jobs > 1:
            from toolcontract.lint.parallel import lint_in_processes

            chunks = lint_in_processes(files, plan, jobs)
        else:
            chunks = [plan.lint_chunk(files)]
    except Exception as exc:  # noqa: BLE001 - a bug: say which file it met, never look like findings
        from toolcontract.core.model import InternalError

        raise InternalError(plan.current, exc) from exc
    findings: list[Finding] = []
    unread: list[Finding] = []
    skipped: list[str] = []
    documents: dict[str, Document] = {}
    views: list[ToolView] = []
    count = 0
    for chunk in chunks:
        findings.extend(chunk.findings)
        unread.extend(chunk.unread)
        skipped.extend(chunk.skipped)
        documents.update(chunk.documents)
        views.extend(chunk.views)
        count += chunk.files
    for r in plan.set_rules:
        for hit in r.check(SetContext(views, selection.options)):
            tool = hit.subject
            doc, pointer = tool.locate(hit.path)
            findings.append(_finding(r, hit, doc, pointer, tool.name, selection,
                                     locate=tool.locate if hit.fix is not None else None))
    from toolcontract.lint.suppression import suppress

    if selection.per_file_ignores:
        findings = [f for f in findings if not selection.ignored_in(f.path, f.rule)]
    # a file that gave no tool holds no suppression that a rule could have used: no TC009 there
    held_none = {f.path for f in unread} - {view.document.path for view in views} if unread else set()
    findings = suppress(findings, documents, selection, plan.rules, unread_paths=held_none, overlays=plan.overlays)
    if unread:
        findings = sorted(findings + unread)
    return LintResult(findings, count, len(views), documents, views, skipped=skipped)


class Chunk(MutableRecord):
    """What linting some of the files found, before set rules and suppressions.

    `unread`: the findings about files that were not read (TC000) or held no tool (TC002), which
    neither selection nor suppressions hide; `skipped`: paths of walked files that are no tool list."""

    __slots__ = ("findings", "documents", "views", "files", "unread", "skipped")

    def __init__(self, findings: list[Finding], documents: dict[str, Document], views: list[ToolView], files: int,
                 unread: list[Finding] | None = None, skipped: list[str] | None = None):
        self.findings = findings
        self.documents = documents
        self.views = views
        self.files = files
        self.unread = [] if unread is None else unread
        self.skipped = [] if skipped is None else skipped


class _Plan(MutableRecord):
    """The rules of one lint run, sorted by scope, and how to run them on a list of files.

    The rules are imported when first needed: the set rules (toolcontract.lint.rules.SET_RULES) for
    every run, the others when a file is linted, so a run whose files all come from the cache imports
    only the set rules (and TC009 where a suppression comment is)."""

    __slots__ = ("selection", "rules", "set_rules", "input_format", "overlays", "limits", "walked", "current", "run",
                 "tool_limit", "_scoped")

    def __init__(self, selection: Selection, rules: Mapping[str, Rule], set_rules: list[Rule],
                 input_format: str | None, overlays: Mapping[str, tuple[str, bytes | LoadError]] | None,
                 limits: Limits, walked: AbstractSet[str] = frozenset(), current: str | None = None):
        self.selection = selection
        self.rules = rules
        self.set_rules = set_rules
        self.input_format = input_format
        self.overlays = overlays
        self.limits = limits
        self.walked = walked
        self.current = current  # the file being linted (what an InternalError names)
        self.run = RunContext()  # what the rules of this run share across tools (lint.context)
        self.tool_limit = selection.enabled("TC003")  # per-tool rules see at most max-tools-checked tools
        self._scoped: tuple | None = None

    @classmethod
    def of(cls, selection: Selection, input_format: str | None, overlays, limits: Limits,
           walked: AbstractSet[str] = frozenset()) -> "_Plan":
        from toolcontract.lint.rules import SET_RULES, lint_table

        rules = lint_table(files_only=True)
        set_rules = [rules[i] for i in SET_RULES if selection.enabled(i)]
        set_rules = [r for r in set_rules if not r.surfaces or selection.surfaces_for(r)]
        return cls(selection, rules, set_rules, input_format=input_format, overlays=overlays, limits=limits,
                   walked=walked)

    def _by_scope(self) -> tuple:
        """The active document, tool and list rules (with the surfaces each checks), loaded on first use."""
        if self._scoped is None:
            selection = self.selection
            active = [r for i, r in self.rules.items() if selection.enabled(i)]
            active = [r for r in active if not r.surfaces or selection.surfaces_for(r)]
            self._scoped = (
                [r for r in active if r.scope == "document"],
                [(r, selection.surfaces_for(r)) for r in active if r.scope == "tool"],
                [(r, selection.surfaces_for(r)) for r in active if r.scope == "list"],
            )
        return self._scoped

    @property
    def doc_rules(self) -> list[Rule]:
        return self._by_scope()[0]

    @property
    def tool_rules(self) -> list[tuple[Rule, tuple[str, ...]]]:
        return self._by_scope()[1]

    @property
    def list_rules(self) -> list[tuple[Rule, tuple[str, ...]]]:
        return self._by_scope()[2]

    @property
    def set_fields(self) -> tuple[str, ...]:
        """The descriptor fields the active set rules read (see Rule.reads)."""
        return tuple(dict.fromkeys(f for r in self.set_rules for f in r.reads))

    def lint_chunk(self, files: Iterable[tuple[str, bytes | LoadError]]) -> Chunk:
        """Load each file and run the document and tool rules on it.

        TC000, and TC002 on a file that gave no tool, go to `Chunk.unread` whatever the selection;
        a walked file that is no tool list goes to `Chunk.skipped` (see lint_files)."""
        from toolcontract.io.reader import is_tool_list, known_non_descriptor, read_tools

        selection, limits, overlays, walked = self.selection, self.limits, self.overlays, self.walked
        rules = self.rules
        parse_rule, duplicate_rule, structure_rule = rules["TC000"], rules["TC001"], rules["TC002"]
        doc_rules, tool_rules, list_rules = self._by_scope()
        plain_rules = _by_test([pair for pair in tool_rules if not pair[0].id.startswith(CARD_ONLY_PREFIX)])
        card_rules = _by_test([pair for pair in tool_rules if pair[0].id.startswith((CARD_ONLY_PREFIX, *CARD_RULES))])
        findings: list[Finding] = []
        unread: list[Finding] = []
        skipped: list[str] = []
        documents: dict[str, Document] = {}
        views: list[ToolView] = []
        count = 0
        overlay_paths = {overlay_path for overlay_path, _ in overlays.values()} if overlays else set()

        def not_loaded(path: str, error: LoadError) -> None:
            for hit in parse_rule.check(LoadContext(path, error=error, options=selection.options)):
                unread.append(_finding(parse_rule, hit, None, "", None, selection, path=path))

        def duplicates(document: Document) -> None:
            if selection.enabled(duplicate_rule.id):
                for hit in duplicate_rule.check(LoadContext(document.path, document, options=selection.options)):
                    findings.append(_finding(duplicate_rule, hit, document, _pointer(hit.path), None, selection))

        for path, content in files:
            self.current = path  # named by an InternalError, should a bug surface here
            if path in overlay_paths:
                continue  # linted with its provider file, below
            # a walked file is linted when it says it is a tool list (one with an overlay says so)
            lenient = path in walked and not (overlays and path in overlays)
            try:
                if isinstance(content, LoadError):
                    raise content
                document = load_bytes(content, path, limits)
                if lenient and not is_tool_list(document.data, path):
                    skipped.append(path)
                    continue
            except LoadError as error:
                if lenient and known_non_descriptor(path):
                    skipped.append(path)
                    continue
                count += 1
                not_loaded(path, error)
                continue
            count += 1
            documents[path] = document
            duplicates(document)
            overlay = None
            if overlays and path in overlays:
                overlay_path, overlay_content = overlays[path]
                count += 1
                try:
                    if isinstance(overlay_content, LoadError):
                        raise overlay_content
                    overlay = load_bytes(overlay_content, overlay_path, limits)
                    documents[overlay_path] = overlay
                    duplicates(overlay)
                except LoadError as error:
                    not_loaded(overlay_path, error)
            read = read_tools(document, self.input_format, overlay, selection.contracts_required,
                              selection.mcp_revision)
            tools = read.tools
            # no tool came out of it, or only what a mapping without `toolcontract:` was taken for (a
            # package.json has a `name`): what is wrong with its structure is said whatever the selection
            unplaced = not tools or (read.format == "native" and "toolcontract" not in document.data)
            structure = unread if unplaced else findings if selection.enabled(structure_rule.id) else None
            if read.format == "native":
                document_ctx = DocumentContext(document, selection.options)
                for r in doc_rules:
                    if r is structure_rule:
                        continue
                    for hit in r.check(document_ctx):
                        findings.append(_finding(r, hit, document, _pointer(hit.path), None, selection))
                if structure is not None:
                    for hit in structure_rule.check(document_ctx):
                        structure.append(_finding(structure_rule, hit, document, _pointer(hit.path), None, selection))
            if structure is not None:
                tool_names: dict = {}  # the tools' entries by pointer, made on the first problem
                for problem in read.problems:
                    problem_document, pointer, message = problem
                    hit = Hit(message=message, anchor=getattr(problem, "anchor", "auto"))
                    structure.append(_finding(structure_rule, hit, problem_document, pointer,
                                              _tool_at(read.tools, problem_document, pointer, tool_names), selection))
            for tool in tools:
                tool.context = ToolContext(tool, self.run)
            views.extend(tools)
            checked = tools
            if self.tool_limit:  # bounded time on any file, when TC003 runs to say so
                budget = selection.options.get("max-tools-checked", MAX_TOOLS_CHECKED)
                checked = tools[:budget] if len(tools) > budget else tools
            copies: list[tuple[int, Finding]] | None = [] if len(checked) > 1 else None
            for index, tool in enumerate(checked):
                # a contract rule runs on a provider tool only with an overlay entry, and then warns at most
                level = tool.contracts
                cap = Severity.WARNING if level == "entry" else None
                ctx = tool.context
                # an Agent Card's views run the card rules and those of CARD_RULES; the card rules run on cards only
                for when, group in (card_rules if tool.format == CARD_FORMAT else plain_rules):
                    if when is not None and not when(ctx):
                        continue  # rules that share a test (Rule.when) that fails for this tool
                    for r, surfaces in group:
                        if r.contract and (level == "none" or level == "listed"):
                            continue
                        ctx.surfaces = surfaces
                        for hit in r.check(ctx):
                            doc, pointer = tool.locate(hit.path)
                            finding = _finding(r, hit, doc, pointer, tool.name, selection, cap if r.contract else None,
                                               locate=tool.locate if hit.fix is not None else None)
                            if copies is not None and r.once_per_copy:
                                copies.append((index, finding))
                            else:
                                findings.append(finding)
            if copies:
                findings.extend(_once_per_copy(copies, document))
            if tools and list_rules:
                findings.extend(self._list_findings(tools, document))
            for tool in tools:
                tool.context = None  # the file is done: its walks and scans go with it
        return Chunk(findings, documents, views, count, unread, skipped)

    def _list_findings(self, tools: list[ToolView], document: Document) -> Iterator[Finding]:
        """The list rules' findings on the tools of one document."""
        selection = self.selection
        list_path = list_path_of(tools)
        for r, surfaces in self.list_rules:
            ctx = ListContext(tools, document, surfaces, selection.options, list_path)
            for hit in r.check(ctx):
                tool = hit.subject
                if tool is None:
                    doc, pointer, name = document, _pointer(hit.path), None
                else:
                    (doc, pointer), name = tool.locate(hit.path), tool.name
                yield _finding(r, hit, doc, pointer, name, selection,
                               locate=tool.locate if tool is not None and hit.fix is not None else None)


def _by_test(rules: list[tuple[Rule, tuple[str, ...]]]) -> list[tuple[Any, list[tuple[Rule, tuple[str, ...]]]]]:
    """Tool rules (rule, surfaces) in their order, in runs of neighbours that share a `when` test (None
    for most): (test, rules) each, so that a lint asks each test once per tool."""
    groups: list[tuple[Any, list]] = []
    for pair in rules:
        when = pair[0].when
        if groups and groups[-1][0] is when:
            groups[-1][1].append(pair)
        else:
            groups.append((when, [pair]))
    return groups


def _tool_at(tools: list[ToolView], document: Document, pointer: str, index: dict) -> str | None:
    """The name of the tool whose entry holds `pointer` (a structure problem inside it), or None.
    `index` keeps the tools' pointers per document between calls."""
    by_pointer = index.get(id(document))
    if by_pointer is None:
        by_pointer = index[id(document)] = {t.pointer: t.name for t in tools
                                            if t.document is document and (t.pointer or len(tools) == 1)}
    probe = pointer
    while True:
        if probe in by_pointer:
            return by_pointer[probe]
        if not probe:
            break
        probe = probe.rsplit("/", 1)[0]
    if document.path != (tools[0].document.path if tools else None):  # an overlay: its entries are keyed by name
        from toolcontract.core.pointer import split_pointer

        tokens = split_pointer(pointer)
        if len(tokens) >= 2 and tokens[0] == "tools" and any(t.name == tokens[1] for t in tools):
            return tokens[1]
    return None


def _once_per_copy(found: list[tuple[int, Finding]], document: Document) -> list[Finding]:
    """Findings of `once_per_copy` rules on the tools of one file (tool index, finding): one finding
    per (rule, message, subschema text) among different tools, the first, naming how many other
    tools carry the same subschema. Copies within one tool are kept: they are separate places."""
    import json

    from toolcontract.core.pointer import resolve_pointer, split_pointer

    groups: dict[tuple, list[tuple[int, Finding]]] = {}
    order: list[tuple] = []
    for index, finding in found:
        pointer = finding.pointer
        if pointer.endswith(("/additionalProperties", "/unevaluatedProperties")):
            pointer = pointer.rsplit("/", 1)[0]  # the object it belongs to
        present, value = resolve_pointer(document.data, pointer) if finding.path == document.path else (False, None)
        if not present:
            key: tuple = (id(finding),)
        else:
            try:
                text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)
            except (TypeError, ValueError, RecursionError):
                text = repr(id(finding))
            key = (finding.rule, finding.message, text, split_pointer(pointer)[-1:])
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append((index, finding))
    kept: list[Finding] = []
    for key in order:
        members = groups[key]
        first_tool = members[0][0]
        others = {index for index, _ in members if index != first_tool}
        copied = [f.fix for index, f in members if index != first_tool and f.fix is not None]
        for index, finding in members:
            if index != first_tool:
                continue
            if copied and finding.fix is not None:  # fixing the one reported mends every copy
                edits = finding.fix.edits + tuple(e for fix in copied for e in fix.edits)
                finding = finding._replace(fix=finding.fix._replace(edits=edits))
            if others:
                n = len(others)
                finding = finding._replace(message=f"{finding.message} (the same schema is in {n} other "
                                                   f"tool{'s' * (n != 1)} of this file; reported once)")
            kept.append(finding)
    return kept


def _pointer(path: tuple) -> str:
    from toolcontract.core.pointer import join_pointer

    return join_pointer("", *path)


def lint_text(text: str, path: str = "<text>.yaml", selection: Selection = Selection(), limits: Limits = DEFAULT_LIMITS) -> LintResult:
    return lint_files([(path, text.encode("utf-8"))], selection, limits)
