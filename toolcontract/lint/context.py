"""What a rule's `check(ctx)` is given, by scope, and what several rules need of one tool,
computed once per tool, owned by the lint run.

The engine makes a `RunContext` per run and a `ToolContext` per tool (`ToolView.context`), so
rules that ask for the same schema walk, metaschema errors or security scan of a tool share
one answer, and two runs (two threads) never see each other's: nothing here is kept at
module level, and nothing is keyed on an object that may be gone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping

if TYPE_CHECKING:
    from toolcontract.core.descriptor import ToolView
    from toolcontract.lint.suppression import Suppression
    from toolcontract.io.document import Document, LoadError
    from toolcontract.lint.schema_walk import Walk
    from toolcontract.core.schema.validation import SchemaError
    from toolcontract.security.scan import ScanRun, ToolScan


# Tools of one file checked by every per-tool rule (config `max-tools-checked`): the largest real
# tool lists hold a few hundred (Gemini takes 512 declarations, OpenAI 128), and each tool costs a
# fraction of a millisecond, so a 5 MiB file of 100,000 tools stays within seconds (TC003 says so).
MAX_TOOLS_CHECKED = 2_000


class RunContext:
    """What one lint run keeps across its files: the security scan's reading (each distinct
    string's report, each file's budget), made on first use (a run without TC6 rules makes none)."""

    __slots__ = ("_scan",)

    def __init__(self) -> None:
        self._scan: ScanRun | None = None

    @property
    def scan(self) -> "ScanRun":
        scan = self._scan
        if scan is None:
            from toolcontract.security.scan import ScanRun

            scan = self._scan = ScanRun()
        return scan


class ToolContext:
    """What a tool rule sees (scope "tool"): the tool, and its shared answers. Walks and metaschema
    errors are kept per schema object (each entry holds its schema, so the object cannot go and its
    id be reused while the context lives). `surfaces`: the targeted surfaces among the running
    rule's own (the engine sets it before each portability rule; empty for the others)."""

    __slots__ = ("tool", "run", "surfaces", "_walks", "_fields", "_meta", "_scan")

    def __init__(self, tool: "ToolView", run: RunContext, surfaces: tuple[str, ...] = ()):
        self.tool = tool
        self.run = run
        self.surfaces = surfaces
        self._walks: dict[tuple[int, str], tuple[Any, Walk]] = {}
        self._fields: list | None = None
        self._meta: dict[int, tuple[Any, list[SchemaError]]] = {}
        self._scan: ToolScan | None = None

    def walk(self, schema: Any, root: str = "args") -> "Walk":
        """schema_walk.walk(schema, root), once per schema object of this tool."""
        key = (id(schema), root)
        found = self._walks.get(key)
        if found is None:
            from toolcontract.lint.schema_walk import walk

            found = self._walks[key] = (schema, walk(schema, root))
        return found[1]

    def field_walks(self) -> list:
        """schema_fields(tool), each with its walk (see schema_walk.field_walks)."""
        fields = self._fields
        if fields is None:
            from toolcontract.lint.schema_walk import field_walks

            fields = self._fields = field_walks(self)
        return fields

    def meta_errors(self, schema: Any) -> "list[SchemaError]":
        """schema_tools.metaschema_errors(schema), once per schema object (TC401 and TC406 both ask)."""
        found = self._meta.get(id(schema))
        if found is None:
            from toolcontract.core.schema.validation import metaschema_errors

            found = self._meta[id(schema)] = (schema, metaschema_errors(schema))
        return found[1]

    @property
    def scan(self) -> "ToolScan":
        """The security scan of the tool's model-facing strings, against its file's budget."""
        scan = self._scan
        if scan is None:
            from toolcontract.security.scan import scan_tool

            scan = self._scan = scan_tool(self.tool, self.run.scan)
        return scan


def context(tool: "ToolView") -> ToolContext:
    """The tool's context: the one its lint run gave it, else (a rule called outside a run, as
    a test does) a new one with a run of its own, kept on the tool."""
    ctx = tool.context
    if ctx is None:
        ctx = tool.context = ToolContext(tool, RunContext())
    return ctx


class LoadContext:
    """What a load rule sees (scope "load"): the file as read, or the error met reading it
    (TC000); `document` is None then. `options`: the rule settings of the configuration."""

    __slots__ = ("path", "document", "error", "options")

    def __init__(self, path: str, document: "Document | None" = None, error: "LoadError | None" = None,
                 options: Mapping[str, Any] | None = None):
        self.path = path
        self.document = document
        self.error = error
        self.options = {} if options is None else options


class DocumentContext:
    """What a document rule sees (scope "document"): one loaded file of our own format."""

    __slots__ = ("document", "options")

    def __init__(self, document: "Document", options: Mapping[str, Any] | None = None):
        self.document = document
        self.options = {} if options is None else options


class ListContext:
    """What a list rule sees (scope "list"): the tools of one tool list (a file, a live server) in
    file order, the document that holds them, the targeted surfaces among the rule's own (empty for
    a rule that names none), and the rule settings of the configuration (`Selection.options`).

    `list_path` is the path from the document's root to the list itself (`("tools",)` in an
    MCP result, `()` for a bare list or a single tool): a hit about the whole list goes there
    (`Hit.subject` None); a hit about one tool names it as its subject."""

    __slots__ = ("tools", "document", "surfaces", "options", "list_path")

    def __init__(self, tools: "list[ToolView]", document: "Document", surfaces: tuple[str, ...] = (),
                 options: Mapping[str, Any] | None = None, list_path: tuple = ()):
        self.tools = tools
        self.document = document
        self.surfaces = surfaces
        self.options = {} if options is None else options
        self.list_path = list_path

    def option(self, name: str, default: Any) -> Any:
        return self.options.get(name, default)


class SetContext:
    """What a set rule sees (scope "set"): every tool of the run, in file order (light views in a
    parallel run: the fields the rule `reads`); each hit names its tool as `Hit.subject`."""

    __slots__ = ("tools", "options")

    def __init__(self, tools: "list[ToolView]", options: Mapping[str, Any] | None = None):
        self.tools = tools
        self.options = {} if options is None else options


class SuppressionContext:
    """What TC009 sees: the suppression comments of one file after the findings were matched
    (`Suppression.used`), and `ran(code)`: whether the rules a code names ran on it, so that no
    finding of them is evidence that the comment is unused."""

    __slots__ = ("path", "suppressions", "ran")

    def __init__(self, path: str, suppressions: "list[Suppression]", ran: Callable[[str], bool]):
        self.path = path
        self.suppressions = suppressions
        self.ran = ran


class DiffContext:
    """What a diff rule sees (scope "diff"): one tool's change between two versions
    (toolcontract.lint.diff.ToolDiff); each hit names the side it is in ("old" or "new")."""

    __slots__ = ("diff",)

    def __init__(self, diff: Any):
        self.diff = diff


class LockContext:
    """What a lock rule sees (scope "lock"): one tool's drift from the lockfile
    (toolcontract.lint.lock.Drift); each hit names where it is: "tool" (the tool as read now) or
    "lock" (a path from the lockfile's root)."""

    __slots__ = ("drift",)

    def __init__(self, drift: Any):
        self.drift = drift
