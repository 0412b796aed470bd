"""What several rules need of one tool, computed once per tool, owned by the lint run.

The engine makes a `RunContext` per run and a `ToolContext` per tool (`ToolView.context`), so
rules that ask for the same schema walk, metaschema errors or security scan of a tool share
one answer, and two runs (two threads) never see each other's: nothing here is kept at
module level, and nothing is keyed on an object that may be gone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolcontract.descriptor import ToolView
    from toolcontract.lint.rules.schema import Walk
    from toolcontract.schema_tools import SchemaError
    from toolcontract.security.scan import ScanRun, ToolScan


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
    """One tool's shared answers. Walks and metaschema errors are kept per schema object (each
    entry holds its schema, so the object cannot go and its id be reused while the context lives)."""

    __slots__ = ("tool", "run", "_walks", "_fields", "_meta", "_scan")

    def __init__(self, tool: "ToolView", run: RunContext):
        self.tool = tool
        self.run = run
        self._walks: dict[tuple[int, str], tuple[Any, Walk]] = {}
        self._fields: list | None = None
        self._meta: dict[int, tuple[Any, list[SchemaError]]] = {}
        self._scan: ToolScan | None = None

    def walk(self, schema: Any, root: str = "args") -> "Walk":
        """schema.walk(schema, root), once per schema object of this tool."""
        key = (id(schema), root)
        found = self._walks.get(key)
        if found is None:
            from toolcontract.lint.rules.schema import walk

            found = self._walks[key] = (schema, walk(schema, root))
        return found[1]

    def field_walks(self) -> list:
        """schema_fields(tool), each with its walk (see schema._field_walks)."""
        fields = self._fields
        if fields is None:
            from toolcontract.lint.rules.schema import field_walks

            fields = self._fields = field_walks(self)
        return fields

    def meta_errors(self, schema: Any) -> "list[SchemaError]":
        """schema_tools.metaschema_errors(schema), once per schema object (TC401 and TC406 both ask)."""
        found = self._meta.get(id(schema))
        if found is None:
            from toolcontract.schema_tools import metaschema_errors

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
