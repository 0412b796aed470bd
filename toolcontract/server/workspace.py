"""What the language server knows and computes, without the protocol (toolcontract.server.lsp speaks it).

A `Workspace` is one folder of the editor's workspace: its configuration (found as `lint` finds it, from
the folder up: `.toolcontract.toml`, `pyproject.toml`'s `[tool.toolcontract]`, ...), the files `lint FOLDER`
reads in it (the same walk: include/exclude, .gitignore, suffixes), each as the editor holds it when it is
open, else as it is on disk. Every lint lints them all with the same engine as `lint` (lint_files, the
overlays paired as `lint` pairs them, the set rules across every file), each file's chunk kept in memory
while its text (and its overlay's) stays the same: an edit re-lints the edited file, then runs the set
rules and suppressions over all (what changed in the other files is then what the edit did to them).

Positions: findings are 1-based lines and columns in code points; the protocol's are 0-based lines and
characters in the code units of the encoding agreed with the client (UTF-16 by default). `units` and
`code_points` convert within one line's text.

Nothing here runs anything from the workspace or reaches the network: files are read (bounded, as `lint`
reads them) and linted, nothing else; no live MCP server is started (a configuration cannot name one).
"""

from __future__ import annotations

import os
import re
from typing import Any, Iterable

from toolcontract.core.model import Finding, Severity
from toolcontract.core.records import MutableRecord, Record

ENCODINGS = ("utf-16", "utf-8", "utf-32")
_LINE_BREAK = re.compile("\r\n|\r|\n")  # the protocol's line breaks
_SUPPRESSION = re.compile(r"#\s*toolcontract:\s*(?:ignore-file|ignore)\[(?P<codes>[^\]]*)\]")
_STANDALONE = re.compile(r"(?P<indent>[ \t]*)#\s*toolcontract:\s*ignore\[(?P<codes>[^\]]*)\]\s*\Z")
_CODE_TOKEN = re.compile(r"[A-Za-z0-9]+")
# a finding no comment hides: what was not read (lint_files reports them whatever suppressions say), and an
# unused suppression itself (the fix is to remove the comment, which `lint --fix` does)
UNSUPPRESSIBLE = ("TC000", "TC009")


def units(text: str, encoding: str = "utf-16") -> int:
    """How many code units of `encoding` ("utf-16", "utf-8" or "utf-32") `text` is."""
    if encoding == "utf-32":
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def code_points(text: str, count: int, encoding: str = "utf-16") -> int:
    """The index (in code points) in the line `text` of the position `count` code units of `encoding` in;
    past the end is the end, and a position inside a character is that character's end."""
    if encoding == "utf-32":
        return max(0, min(count, len(text)))
    at = 0
    for index, char in enumerate(text):
        if at >= count:
            return index
        at += units(char, encoding)
    return len(text)


def lines_of(text: str) -> list[str]:
    """The lines of `text` as the protocol counts them (\\r\\n, \\r and \\n break a line)."""
    return _LINE_BREAK.split(text)


class Diagnostic(Record):
    """A finding as the editor shows it: `start` and `end` are (line, character), 0-based, in code units of
    the workspace's encoding; `finding` is the lint finding (its fix, its rule)."""

    __slots__ = ("path", "start", "end", "rule", "name", "severity", "message", "finding")

    def __init__(self, path: str, start: tuple[int, int], end: tuple[int, int], rule: str, name: str,
                 severity: Severity, message: str, finding: Finding | None = None):
        self.path = path
        self.start = start
        self.end = end
        self.rule = rule
        self.name = name
        self.severity = severity
        self.message = message
        self.finding = finding

    def shown(self) -> tuple:
        """What the editor shows of it (two lints that give the same need no new publication)."""
        return (self.start, self.end, self.rule, self.severity, self.message)

    def touches(self, start: tuple[int, int], end: tuple[int, int]) -> bool:
        """Whether the range start..end (a cursor when equal) overlaps or touches this diagnostic's range."""
        return not (end < self.start or start > self.end)


class Action(Record):
    """A code action: `title`, `kind` ("quickfix"), `edits` (path -> [(start, end, new text)], positions as
    in Diagnostic, on the text the workspace holds), the `diagnostic` it mends, `preferred`."""

    __slots__ = ("title", "kind", "edits", "diagnostic", "preferred")

    def __init__(self, title: str, kind: str, edits: dict, diagnostic: Diagnostic | None = None,
                 preferred: bool = False):
        self.title = title
        self.kind = kind
        self.edits = edits
        self.diagnostic = diagnostic
        self.preferred = preferred


class MemoryChunks:
    """The chunks of the last lint, by path, kept while a file's content (and its overlay's) stays the same:
    the `cache` lint_files takes (see toolcontract.io.cache for the one on disk). One per workspace, for
    one selection (a new configuration starts a new one)."""

    def __init__(self) -> None:
        self.stored: dict[str, tuple[tuple, Any]] = {}
        self.hits = self.misses = 0

    def chunks(self, plan, files: list, jobs: int = 1) -> list:
        overlays = plan.overlays or {}
        overlay_paths = {overlay_path for overlay_path, _ in overlays.values()}
        out = []
        self.hits = self.misses = 0
        for name, content in files:
            overlay = overlays.get(name)
            key = (_content_key(content), None if overlay is None else (overlay[0], _content_key(overlay[1])),
                   name in overlay_paths)
            entry = self.stored.get(name)
            if entry is not None and entry[0] == key:
                self.hits += 1
                out.append(entry[1])
                continue
            self.misses += 1
            chunk = plan.lint_chunk([(name, content)])
            self.stored[name] = (key, chunk)
            out.append(chunk)
        for name in set(self.stored) - {name for name, _ in files}:
            del self.stored[name]  # gone from the workspace: its chunk goes too
        return out


def _content_key(content) -> Any:
    return content if isinstance(content, bytes) else ("error", str(content))


class Workspace(MutableRecord):
    """One folder of the editor's workspace (see the module's docstring). `root` is its absolute path;
    `walk` False: a folder for files opened outside every workspace folder (only the open ones are linted).
    `encoding`: the position encoding agreed with the client."""

    __slots__ = ("root", "walk", "encoding", "open", "config", "config_error", "selection", "paths", "_disk",
                 "_chunks", "result", "diagnostics", "texts", "fixtures", "_fixture_cache")

    def __init__(self, root: str, walk: bool = True, encoding: str = "utf-16"):
        self.root = os.path.abspath(root)
        self.walk = walk
        self.encoding = encoding if encoding in ENCODINGS else "utf-16"
        self.open: dict[str, str] = {}  # path -> the text the editor holds
        self._disk: dict[str, tuple[tuple, Any]] = {}  # path -> ((mtime, size), bytes or LoadError)
        self.result = None  # the last LintResult
        self.diagnostics: dict[str, list[Diagnostic]] = {}  # path -> its diagnostics, from the last lint
        self.texts: dict[str, str] = {}  # path -> the text the last lint read
        self.fixtures: dict[str, list[str]] = {}  # fixture path -> the descriptor files it names, from the last lint
        self._fixture_cache: dict[str, tuple[Any, list[str] | None]] = {}
        self.reload()

    # ------------------------------------------------------------ configuration and files

    def reload(self) -> None:
        """Read the configuration again and walk the folder again (a configuration file or the set of files
        changed). A configuration that does not load is `config_error` (one line), and the defaults hold."""
        from toolcontract.app.lint import selection_for
        from toolcontract.io.config import Config, ConfigError, find_config, load_config
        from toolcontract.io.errors import InputError

        self.config_error = None
        try:
            found = find_config(self.root)
            cfg = load_config(found) if found is not None else Config()
            selection = selection_for(cfg)
        except (ConfigError, InputError) as exc:
            self.config_error = str(exc)
            cfg = Config()
            selection = selection_for(cfg)
        self.config = cfg
        self.selection = selection
        self._chunks = MemoryChunks()
        self.rewalk()

    def rewalk(self) -> None:
        """The files `lint` reads in the folder, found again (a file was created, deleted or renamed)."""
        from toolcontract.io.inputs import walk_folder

        cfg = self.config
        keep = cfg.included if (cfg.include or cfg.exclude) else None
        self.paths = walk_folder(self.root, keep=keep) if self.walk and os.path.isdir(self.root) else []

    def holds(self, path: str) -> bool:
        """Whether `path` is in this folder."""
        return os.path.abspath(path).startswith(self.root.rstrip(os.sep) + os.sep)

    def linted(self, path: str) -> bool:
        """Whether a lint of this workspace reads `path` (an open file outside the walk is linted when the walk
        would have found it: a new file, not yet on disk, that the configuration includes)."""
        from toolcontract.io.inputs import DESCRIPTOR_SUFFIXES

        if path in self.paths:
            return True
        if not path.lower().endswith(DESCRIPTOR_SUFFIXES) or os.path.basename(path).startswith("."):
            return False
        if not self.walk:
            return True
        cfg = self.config
        return not os.path.exists(path) and (not (cfg.include or cfg.exclude) or cfg.included(path))

    def text_of(self, path: str) -> str | None:
        """The text of `path` as this workspace has it: the editor's, else the last lint's, else the disk's."""
        if path in self.open:
            return self.open[path]
        if path in self.texts:
            return self.texts[path]
        content = self._read(path)
        return content.decode("utf-8", "replace") if isinstance(content, bytes) else None

    def _read(self, path: str):
        """The bytes of a file on disk (bounded as lint reads them), or the LoadError that stands for them;
        read again only when its modification time or size changed."""
        from toolcontract.io.document import DEFAULT_LIMITS, LoadError
        from toolcontract.io.inputs import read_file

        try:
            info = os.stat(path)
        except OSError as exc:
            return LoadError(f"cannot read: {exc.strerror or exc}")
        stamp = (info.st_mtime_ns, info.st_size)
        entry = self._disk.get(path)
        if entry is not None and entry[0] == stamp:
            return entry[1]
        try:
            content = read_file(path, DEFAULT_LIMITS.max_bytes)
        except OSError as exc:
            content = LoadError(f"cannot read: {exc.strerror or exc}")
        if content is None:
            content = LoadError("not a regular file (a FIFO, a device or a socket): not read")
        self._disk[path] = (stamp, content)
        return content

    def _fixture_refs(self, path: str, content) -> list[str] | None:
        """The descriptor files an invocation fixture names (`tools:`, relative to it), or None when `path` is no
        fixture (a mapping with `toolcontract:` and `cases:`; assess reads those). A fixture is no descriptor:
        lint's TC002 on its `cases` would be noise in the editor; the descriptors it names are linted instead."""
        from toolcontract.io.document import DEFAULT_LIMITS, LoadError, load_bytes

        if not isinstance(content, bytes) or b"cases" not in content:
            return None
        cached = self._fixture_cache.get(path)
        if cached is not None and cached[0] == content:
            return cached[1]
        try:
            data = load_bytes(content, path, DEFAULT_LIMITS).data
        except LoadError:
            data = None  # linted: TC000 says what is wrong
        refs = None
        if isinstance(data, dict) and "toolcontract" in data and "cases" in data:
            tools = data.get("tools")
            folder = os.path.dirname(path)
            refs = [os.path.normpath(os.path.join(folder, t)) for t in tools if isinstance(t, str)] \
                if isinstance(tools, list) else []
        self._fixture_cache[path] = (content, refs)
        return refs

    def _content(self, path: str):
        from toolcontract.io.document import DEFAULT_LIMITS, LoadError

        if path in self.open:
            raw = self.open[path].encode("utf-8", "surrogatepass")
            limit = DEFAULT_LIMITS.max_bytes
            return raw if len(raw) <= limit else LoadError(f"file is {len(raw):,} bytes, over the {limit:,}-byte limit")
        return self._read(path)

    # ------------------------------------------------------------ linting

    def lint(self) -> dict[str, list[Diagnostic]]:
        """Lint every file of the workspace (the open ones as the editor holds them); the diagnostics by path,
        for every file the lint read (an empty list: none)."""
        from toolcontract.io.document import DEFAULT_LIMITS
        from toolcontract.io.inputs import named_for
        from toolcontract.io.overlay import pair_overlays
        from toolcontract.lint.engine import lint_files

        from toolcontract.io.inputs import DESCRIPTOR_SUFFIXES

        names = list(self.paths) if self.walk else []
        names += sorted(p for p in self.open if p not in set(names) and self.linted(p))
        inputs, fixtures = [], {}
        for name in names:
            content = self._content(name)
            refs = self._fixture_refs(name, content)
            if refs is None:
                inputs.append((name, content))
            else:
                fixtures[name] = refs
        self.fixtures = fixtures
        # the descriptors a fixture names are linted with the rest (set rules see them), wherever they are
        given = set(names)
        for ref in dict.fromkeys(r for refs in fixtures.values() for r in refs):
            if ref not in given and ref.lower().endswith(DESCRIPTOR_SUFFIXES) and os.path.isfile(ref):
                inputs.append((ref, self._content(ref)))
        cfg = self.config
        named = {os.path.join(cfg.root, provider): os.path.join(cfg.root, overlay)
                 for provider, overlay in cfg.overlays.items()}
        files, overlays = pair_overlays(inputs, DEFAULT_LIMITS, named=named_for(named, inputs) or None)
        selection = self.selection
        if cfg.per_file_ignores:
            ignored = {path: cfg.ignored_codes(path) for path, _ in files}
            selection = selection._replace(per_file_ignores={p: c for p, c in ignored.items() if c})
        walked = frozenset(path for path, _ in files)
        result = lint_files(files, selection, DEFAULT_LIMITS, overlays=overlays, walked=walked, cache=self._chunks)
        self.result = result
        read = [path for path, _ in files] + [overlay_path for overlay_path, _ in (overlays or {}).values()]
        texts: dict[str, str] = {}
        for path in read:
            document = result.documents.get(path)
            if document is not None:
                texts[path] = document.text
            elif path in self.open:
                texts[path] = self.open[path]
        self.texts = texts
        skipped = set(result.skipped)
        by_path: dict[str, list[Diagnostic]] = {path: [] for path in read if path not in skipped}
        for finding in result.findings:
            by_path.setdefault(finding.path, []).append(self._diagnostic(finding))
        self.diagnostics = by_path
        return by_path

    def _diagnostic(self, finding: Finding) -> Diagnostic:
        """The finding placed in the protocol's terms: from its line and column to where the flagged token
        ends (as SARIF regions end), else, with nothing to read there, to the end of the line."""
        from toolcontract.report.sarif import region_end

        line, column = max(finding.line, 1), max(finding.column, 1)
        end_line, end_column = region_end(self.result.documents.get(finding.path), line, column)
        lines = lines_of(self.texts.get(finding.path) or self.text_of(finding.path) or "")

        def text(number: int) -> str:
            return lines[number - 1] if 0 < number <= len(lines) else ""

        if (end_line, end_column) <= (line, column):  # nothing read there (a file that did not load): the line
            end_line, end_column = line, max(len(text(line)) + 1, column + 1)
        start = (line - 1, units(text(line)[:column - 1], self.encoding))
        end = (end_line - 1, units(text(end_line)[:end_column - 1], self.encoding))
        return Diagnostic(finding.path, start, end, finding.rule, finding.name, finding.severity, finding.message,
                          finding)

    # ------------------------------------------------------------ code actions

    def actions(self, path: str, start: tuple[int, int], end: tuple[int, int]) -> list[Action]:
        """The quick fixes for the diagnostics of `path` that the range start..end touches: each safe fix a
        finding offers (what `lint --fix` applies), then, in YAML, a comment suppressing each rule on its line."""
        from toolcontract.io.document import looks_like_json

        found = [d for d in self.diagnostics.get(path, []) if d.touches(start, end)]
        out = [action for d in found if (action := self._fix_action(d)) is not None]
        text = self.text_of(path)
        if text is not None and not looks_like_json(path, text):
            seen = set()
            for d in found:
                if (d.rule, d.start[0]) in seen or d.rule in UNSUPPRESSIBLE:
                    continue
                seen.add((d.rule, d.start[0]))
                action = self._suppress_action(d, text)
                if action is not None:
                    out.append(action)
        return out

    def _fix_action(self, diagnostic: Diagnostic) -> Action | None:
        from toolcontract.io.fixes import FixError, apply_edits

        fix = diagnostic.finding.fix if diagnostic.finding is not None else None
        if fix is None or not fix.safe:
            return None
        by_file: dict[str, list] = {}
        for edit in fix.edits:
            by_file.setdefault(edit.file, []).append(edit)
        edits = {}
        for file, file_edits in by_file.items():
            old = self.text_of(file)
            if old is None:
                return None
            try:
                new = apply_edits(file, old, file_edits)
            except FixError:
                return None  # as `lint --fix`, which leaves such a file as it is
            if new != old:
                edits[file] = [self.replacement(old, new)]
        if not edits:
            return None
        return Action(f"{diagnostic.rule}: {fix.title}", "quickfix", edits, diagnostic, preferred=True)

    def _suppress_action(self, diagnostic: Diagnostic, text: str) -> Action | None:
        """`# toolcontract: ignore[TCxxx]` alone on the line above the finding's (the place the suppression
        docs give for every rule, the security rules included), at that line's indentation; added to the
        codes of such a comment already there. None when the comment would change the file's data (the line
        is inside a block scalar: the comment would be text)."""
        from toolcontract.io.document import LoadError, load_text

        rule, number = diagnostic.rule, diagnostic.start[0]  # 0-based: the finding's line
        lines = text.splitlines(keepends=True)
        if number >= len(lines):
            return None
        target = lines[number]
        above = lines[number - 1] if number > 0 else ""
        match = _STANDALONE.match(above.rstrip("\r\n"))
        if match is not None:
            codes = [c.strip() for c in match["codes"].split(",") if c.strip()]
            if rule in codes:
                return None
            comment = f"{match['indent']}# toolcontract: ignore[{', '.join([*codes, rule])}]"
            ending = above[len(above.rstrip("\r\n")):]
            new_lines = lines[:number - 1] + [comment + ending] + lines[number:]
        else:
            indent = target[:len(target) - len(target.lstrip(" \t"))]
            ending = "\r\n" if target.endswith("\r\n") else "\n"
            new_lines = lines[:number] + [f"{indent}# toolcontract: ignore[{rule}]{ending}"] + lines[number:]
        new = "".join(new_lines)
        path = diagnostic.path
        try:
            if load_text(new, path).data != load_text(text, path).data:
                return None
        except LoadError:
            return None
        return Action(f"Suppress {rule} on this line", "quickfix", {path: [self.replacement(text, new)]},
                      diagnostic)

    def replacement(self, old: str, new: str) -> tuple[tuple[int, int], tuple[int, int], str]:
        """One edit that turns `old` into `new`: the span between what they share at the start and at the end
        (whole lines' worth of context kept as it is), as (start, end, text) in this workspace's positions."""
        prefix = 0
        limit = min(len(old), len(new))
        while prefix < limit and old[prefix] == new[prefix]:
            prefix += 1
        prefix = old.rfind("\n", 0, prefix) + 1  # from the start of the first changed line
        suffix = 0
        while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
            suffix += 1
        return (self.position(old, prefix), self.position(old, len(old) - suffix), new[prefix:len(new) - suffix])

    def position(self, text: str, offset: int) -> tuple[int, int]:
        """The (line, character) of the code point `offset` of `text`, in this workspace's encoding."""
        before = text[:offset]
        lines = lines_of(before)
        return len(lines) - 1, units(lines[-1], self.encoding)

    # ------------------------------------------------------------ hover

    def hover(self, path: str, line: int, character: int) -> tuple[str, tuple, tuple] | None:
        """Markdown for the position (line, character) of `path` and the range it speaks of: on a rule id or
        prefix inside a suppression comment, the rule's summary (each rule's, for a prefix); on a diagnostic's
        range, its rule's rationale. None when there is nothing to say."""
        text = self.text_of(path)
        if text is None:
            return None
        lines = lines_of(text)
        if line >= len(lines):
            return None
        line_text = lines[line]
        at = code_points(line_text, character, self.encoding)
        for match in _SUPPRESSION.finditer(line_text):
            start = match.start("codes")
            for token in _CODE_TOKEN.finditer(match["codes"]):
                if start + token.start() <= at <= start + token.end():
                    span = ((line, units(line_text[:start + token.start()], self.encoding)),
                            (line, units(line_text[:start + token.end()], self.encoding)))
                    return code_summary(token.group()), *span
        here = (line, character)
        hits = [d for d in self.diagnostics.get(path, []) if d.start <= here <= d.end]
        if not hits:
            return None
        parts = []
        for d in dict((d.rule, d) for d in hits).values():
            rule = rule_of(d.rule)
            if rule is not None:
                parts.append(f"**{rule.id}** `{rule.name}` ({d.severity.label}): {rule.summary}\n\n{rule.rationale}")
        if not parts:
            return None
        return "\n\n---\n\n".join(parts), hits[0].start, hits[0].end


def rule_of(rule_id: str):
    """The rule with this id among those lint runs on files, or None."""
    from toolcontract.lint.rules import lint_table

    table = lint_table(files_only=True)
    return table[rule_id] if rule_id in table else None


def code_summary(code: str) -> str:
    """What a code of a suppression comment names: the rule and its summary, the rules of a prefix, or that it
    names no rule (and the one it may have meant)."""
    from toolcontract.lint.engine import did_you_mean
    from toolcontract.lint.rules import lint_table

    wanted = code.upper()
    table = lint_table(files_only=True)
    if wanted in table:
        rule = table[wanted]
        return f"**{rule.id}** `{rule.name}` ({rule.severity.label}): {rule.summary}"
    if wanted == "ALL":
        return "every rule"
    members = [rule_id for rule_id in table if rule_id.startswith(wanted)] if wanted.startswith("TC") else []
    if not members:
        return f"`{code}` names no rule{did_you_mean(code)}"
    listed = "\n".join(f"- **{table[i].id}** `{table[i].name}`: {table[i].summary}" for i in members)
    return f"**{wanted}**: {len(members)} rule{'s' * (len(members) != 1)}\n\n{listed}"


class Session(MutableRecord):
    """The workspace folders of one editor session, and a folder for files opened outside all of them."""

    __slots__ = ("folders", "loose", "encoding")

    def __init__(self, roots: Iterable[str], encoding: str = "utf-16"):
        self.encoding = encoding
        # the deepest folder first: a file belongs to the innermost folder that holds it
        self.folders = sorted((Workspace(root, encoding=encoding) for root in dict.fromkeys(roots)),
                              key=lambda w: -len(w.root))
        self.loose: dict[str, Workspace] = {}  # folder -> the workspace of files opened outside every folder

    def workspace_for(self, path: str) -> Workspace:
        for workspace in self.folders:
            if workspace.holds(path):
                return workspace
        folder = os.path.dirname(os.path.abspath(path))
        if folder not in self.loose:
            self.loose[folder] = Workspace(folder, walk=False, encoding=self.encoding)
        return self.loose[folder]

    def all(self) -> list[Workspace]:
        return [*self.folders, *self.loose.values()]
