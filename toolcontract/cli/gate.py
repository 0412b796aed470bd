"""`diff` and `lock`: gates on descriptor changes, and the lockfile check of `lint --locked`.

The shell around `toolcontract.lint.diff` and `toolcontract.lock`: files, git, the lockfile
on disk, exit codes. Registered on the Typer app by importing this module (the last
line of `toolcontract.cli.commands` does).

Old versions for `diff --git-base REV` come from git's object store (`git ls-tree` to
list them, `git cat-file` to read them), never from a checkout: the working tree, the
index and HEAD are left as they are, and no filter, hook or textconv runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field
from typing import List, Optional

import typer

from toolcontract.app.codes import split_codes
from toolcontract.app.lock import lock_source as _lock_source
from toolcontract.cli import UsageFailure, report_lint, sarif_root
from toolcontract.io.inputs import DESCRIPTOR_SUFFIXES, SKIPPED_DIRS, discover, read_inputs, resolve_config
from toolcontract.cli import options
from toolcontract.cli.commands import FailOn, LintFormat, app, click_errors, mcp_timeout_seconds, typer_option


# ------------------------------------------------------------------- inputs


@dataclass
class _Side:
    """The files of one version: (shown path, bytes or LoadError)."""

    files: list = field(default_factory=list)


def _selection(select, ignore):
    from toolcontract.lint.engine import Selection, SelectionError, all_rules

    selection = Selection(select=split_codes(select) or ("TC",), ignore=split_codes(ignore))
    try:
        selection.validate(all_rules())
    except SelectionError as exc:
        raise UsageFailure(f"toolcontract: {exc}") from None
    return selection


def _narrowing(config):
    """The config's include/exclude as a test of a path, or None when it sets neither (as lint does)."""
    return config.included if (config.include or config.exclude) else None


def _discoverable(path: str) -> bool:
    """What `discover` would pick in a folder: a descriptor suffix, no hidden or skipped part."""
    parts = path.replace(os.sep, "/").split("/")
    if any(p.startswith(".") and p not in (".", "..") for p in parts):
        return False
    if any(p in SKIPPED_DIRS for p in parts[:-1]):
        return False
    return parts[-1].lower().endswith(DESCRIPTOR_SUFFIXES)


def _left_out(path: str, folders: list[str], walks: dict) -> bool:
    """Whether discovery, walking the first of `folders` that holds `path`, leaves it out as the
    working tree's .gitignore files say (so that both sides of a diff leave out the same files);
    `walks` keeps the rules read, by folder, for one run."""
    from toolcontract.io.ignore import Walk

    for folder in folders:
        if folder == "." or path.startswith(folder.rstrip("/") + "/"):
            if folder not in walks:
                walks[folder] = Walk(folder)
            return walks[folder].leaves_out(os.path.relpath(path, folder))
    return False


def _default_files(config) -> list[str]:
    """The descriptor files of the working folder: discovery, narrowed by the config's include/exclude."""
    files = [os.path.normpath(p) for p in discover(["."])]
    keep = _narrowing(config)
    return files if keep is None else [p for p in files if keep(p)]


def _is_descriptor_document(read, document) -> bool:
    """In discovery without named paths, a YAML or JSON file is a descriptor file only when it
    says so: a native `toolcontract:` key, or a provider format a reader recognised
    (package.json and docker-compose.yml have a `name` too)."""
    if read.format in (None, "overlay"):
        return False
    if read.format != "native":
        return True
    return isinstance(document.data, dict) and "toolcontract" in document.data


@dataclass
class _Loaded:
    tools: list = field(default_factory=list)
    documents: dict = field(default_factory=dict)
    load_findings: list = field(default_factory=list)
    files: int = 0


def _load(files, selection, input_format: Optional[str], strict: bool) -> _Loaded:
    """Read each file's tools, with its contract overlay as lint pairs them. A file that does not
    load is a TC000 finding when it was named (`strict`), and left out in discovery, as is a
    file that is no descriptor file."""
    from toolcontract.lint.engine import all_rules
    from toolcontract.core.rule import Hit
    from toolcontract.core.model import Finding
    from toolcontract.io.document import DEFAULT_LIMITS, LoadError, load_bytes
    from toolcontract.io.overlay import pair_overlays
    from toolcontract.io.reader import read_tools

    parse_rule = all_rules()["TC000"]
    loaded = _Loaded()

    def document_of(path, content):
        try:
            if isinstance(content, LoadError):
                raise content
            return load_bytes(content, path, DEFAULT_LIMITS)
        except LoadError as error:
            if strict and selection.enabled(parse_rule.id):
                loaded.load_findings.append(Finding(path, error.line, error.column, parse_rule.id, parse_rule.name,
                                                    selection.severity_of(parse_rule, Hit()), error.message))
            return None

    files, overlays = pair_overlays(list(files), DEFAULT_LIMITS)
    for path, content in files:
        document = document_of(path, content)
        if document is None:
            loaded.files += strict
            continue
        overlay = document_of(*overlays[path]) if path in overlays else None
        read = read_tools(document, input_format, overlay)
        if not strict and not _is_descriptor_document(read, document):
            continue
        loaded.files += 1
        loaded.documents[path] = document
        if overlay is not None:
            loaded.documents[overlay.path] = overlay
        loaded.tools.extend(read.tools)
    return loaded


def _check_input_format(input_format: Optional[str]) -> None:
    from toolcontract.io.reader import FORMATS

    if input_format is not None and input_format not in FORMATS:
        raise UsageFailure(f"toolcontract: unknown --input-format {input_format!r} (expected any of {', '.join(FORMATS)})")


# ---------------------------------------------------------------------- git


# git reads only what is on disk: a repository's config must not make it run a hook (core.fsmonitor), and an
# object missing from a partial clone is an error, never fetched: lazy fetching off (GIT_NO_LAZY_FETCH, git >=
# 2.44), every transport refused (protocol.allow, GIT_ALLOW_PROTOCOL) so that no remote, credential helper, ssh
# command or password prompt is ever reached on older versions either.
_GIT_CONFIG = ("-c", "core.fsmonitor=false", "-c", "core.quotepath=off", "-c", "protocol.allow=never",
               "-c", "credential.helper=", "-c", "core.askPass=")
_GIT_ENV = {"GIT_NO_LAZY_FETCH": "1", "GIT_TERMINAL_PROMPT": "0", "GIT_ALLOW_PROTOCOL": "none",
            "GIT_ASKPASS": "", "SSH_ASKPASS": "", "GIT_SSH_COMMAND": "", "GIT_SSH": ""}


def _git(args: list[str], stdin: bytes | None = None) -> bytes:
    command = ["git", *_GIT_CONFIG, *args]
    env = {**os.environ, **_GIT_ENV}
    try:
        done = subprocess.run(command, input=stdin, capture_output=True, check=False, env=env,
                              stdin=None if stdin is not None else subprocess.DEVNULL)
    except FileNotFoundError:
        raise UsageFailure("toolcontract: --git-base needs git, and no `git` command was found") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        if any("lazy fetching disabled" in line or "promisor remote" in line for line in message):
            raise _GitFailed("some objects are not in this repository (a partial clone?); toolcontract never "
                             "fetches: run `git fetch` for that revision first")
        raise _GitFailed(message[0] if message else f"git {args[0]} exited with {done.returncode}")
    return done.stdout


class _GitFailed(Exception):
    pass


@dataclass(frozen=True)
class _TreeFile:
    shown: str  # relative to the working folder, as the new side shows it
    oid: str
    size: int


def _tree_files(commit: str, pathspecs: list[str], top: str, rev: str) -> list[_TreeFile]:
    """Regular files under the pathspecs (relative to the working folder) at a commit (`rev` as given)."""
    try:
        out = _git(["ls-tree", "-r", "-l", "-z", "--full-name", commit, "--", *pathspecs])
    except _GitFailed as exc:
        raise UsageFailure(f"toolcontract: --git-base: cannot list the files at {rev}: {exc}") from None
    here = os.path.realpath(os.getcwd())
    found = []
    for record in out.split(b"\0"):
        if not record:
            continue
        meta, _, name = record.partition(b"\t")
        mode, kind, oid, size = meta.decode("ascii").split()
        if kind != "blob" or mode not in ("100644", "100755"):
            continue  # symlinks, submodules
        full = name.decode("utf-8", "surrogateescape")
        shown = os.path.normpath(os.path.relpath(os.path.join(top, full), here))
        found.append(_TreeFile(shown, oid, int(size)))
    return found


def _read_blobs(files: list[_TreeFile], max_bytes: int) -> dict[str, bytes]:
    """Blob contents by object id, in one `git cat-file --batch` (object ids only: no path parsing)."""
    wanted = sorted({f.oid for f in files if f.size <= max_bytes})
    if not wanted:
        return {}
    try:
        out = _git(["cat-file", "--batch"], ("\n".join(wanted) + "\n").encode("ascii"))
    except _GitFailed as exc:
        raise UsageFailure(f"toolcontract: --git-base: cannot read the old files: {exc}") from None
    blobs: dict[str, bytes] = {}
    offset = 0
    while offset < len(out):
        end = out.index(b"\n", offset)
        header = out[offset:end].decode("ascii", "replace").split()
        offset = end + 1
        if len(header) >= 2 and header[1] == "missing":  # a partial clone without it: never fetched
            raise UsageFailure(f"toolcontract: --git-base: object {header[0]} is not in this repository (a partial "
                               "clone?); toolcontract never fetches: run `git fetch` for that revision first")
        if len(header) < 3 or header[1] != "blob":
            continue
        size = int(header[2])
        blobs[header[0]] = out[offset: offset + size]
        offset += size + 1  # the content, then a newline
    return blobs


def _git_sides(rev: str, paths: list[str], config) -> tuple[list, list, bool]:
    """(old files, new files, strict) for `diff --git-base REV [PATHS]`."""
    from toolcontract.io.document import DEFAULT_LIMITS, LoadError

    if not rev or rev.startswith("-"):
        raise UsageFailure(f"toolcontract: --git-base: {rev!r} is not a revision")
    try:
        top = os.path.realpath(_git(["rev-parse", "--show-toplevel"]).decode("utf-8", "surrogateescape").strip())
    except _GitFailed as exc:
        raise UsageFailure(f"toolcontract: --git-base needs a git repository: {exc}") from None
    try:
        commit = _git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"]).decode().strip()
    except _GitFailed:
        commit = ""
    if not commit:
        raise UsageFailure(f"toolcontract: --git-base: unknown revision {rev!r}")
    strict = bool(paths)
    max_bytes = DEFAULT_LIMITS.max_bytes
    walks: dict = {}  # the working tree's ignore rules, for the old side to leave out what the new side does
    if strict:
        from toolcontract.io.overlay import default_overlays

        named = [os.path.normpath(p) for p in paths]
        # with a named provider file, its contract overlay (as lint pairs them)
        tree = _tree_files(commit, list(dict.fromkeys(named + [c for p in named for c in default_overlays(p)])), top, rev)
        for path in named:
            if not os.path.exists(path) and not any(f.shown == path or f.shown.startswith(path.rstrip("/") + "/")
                                                    or path == "." for f in tree):
                raise UsageFailure(f"{path}:1:1: no such file or directory, here or at {rev}")
        # a file named outright is read whatever its name; in a named folder, as discovery would
        tree = [f for f in tree if f.shown in named or (_discoverable(f.shown) and not _left_out(f.shown, named, walks))]
        new_files = list(read_inputs([p for p in named if os.path.exists(p)], max_bytes))
    else:
        tree = [f for f in _tree_files(commit, ["."], top, rev) if _discoverable(f.shown) and not _left_out(f.shown, ["."], walks)]
        keep = _narrowing(config)
        if keep is not None:
            tree = [f for f in tree if keep(f.shown)]
        new_files = list(read_inputs(_default_files(config), max_bytes))
    blobs = _read_blobs(tree, max_bytes)
    old_files = []
    for f in sorted(tree, key=lambda f: f.shown):
        shown = f"{rev}:{f.shown}"
        if f.size > max_bytes:
            old_files.append((shown, LoadError(f"file is {f.size:,} bytes, over the {max_bytes:,}-byte limit")))
        else:
            old_files.append((shown, blobs.get(f.oid, b"")))
    new_files = [(os.path.normpath(p) if p != "<stdin>" else p, c) for p, c in new_files]
    return old_files, new_files, strict


# --------------------------------------------------------------------- diff


@app.command("diff")
def diff_command(
    paths: Optional[List[str]] = typer.Argument(None, metavar="OLD NEW | PATHS", help="Without --git-base: the old and the new version (two files or two folders). With it: the descriptor files or folders to compare (default: those discovery and the config find here)."),
    git_base: Optional[str] = typer.Option(None, "--git-base", metavar="REV", help="Compare with the files at this git revision (a branch, tag or commit), read with git, never checked out."),
    select: Optional[List[str]] = typer.Option(None, "--select", metavar="CODES", help="Rule ids, prefixes or names to report (e.g. TC701,TC704). Default: all."),
    ignore: Optional[List[str]] = typer.Option(None, "--ignore", metavar="CODES", help="Rule ids, prefixes or names to leave out (e.g. TC703 to hide the list of changes)."),
    fail_on: FailOn = typer.Option(FailOn.error, "--fail-on", help="Exit 1 when a finding has at least this severity."),
    output_format: Optional[LintFormat] = typer.Option(None, "--format", help="rich (default on a terminal), text, json, sarif, github, junit."),
    exit_zero: bool = typer.Option(False, "--exit-zero", help="Exit 0 even when findings reach --fail-on."),
    input_format: Optional[str] = typer.Option(None, "--input-format", help="Read every file in this format instead of detecting it."),
    config: Optional[str] = typer_option(options.CONFIG),
    no_config: bool = typer_option(options.NO_CONFIG),
    output: Optional[str] = typer_option(options.OUTPUT),
    quiet: bool = typer_option(options.QUIET),
    statistics: bool = typer_option(options.STATISTICS),
    max_warnings: Optional[int] = typer_option(options.MAX_WARNINGS),
    root: Optional[str] = typer_option(options.ROOT),
) -> None:
    """Compare two versions of tool descriptors and gate on changes their version does not announce.

    Each change is classified as breaking or compatible; a breaking one without a major version
    bump is an error (TC701), a removed tool too (TC704), a change to the schema or effect without
    a minor bump a warning (TC702); the others are listed as info (TC703).
    """
    from toolcontract.lint.diff import diff_findings, diff_tools
    from toolcontract.lint.engine import LintResult
    from toolcontract.core.model import Severity

    _check_input_format(input_format)
    if output is not None and not output:
        raise UsageFailure("toolcontract: -o/--output needs a file name (it was empty)")
    root = sarif_root(root)
    selection = _selection(select, ignore)
    paths = list(paths or ())
    if git_base is None:
        if len(paths) != 2:
            raise click_errors.UsageError("diff takes OLD and NEW (two files or folders), or --git-base REV [PATHS]")
        from toolcontract.io.document import DEFAULT_LIMITS

        old_files = list(read_inputs([paths[0]], DEFAULT_LIMITS.max_bytes))
        new_files = list(read_inputs([paths[1]], DEFAULT_LIMITS.max_bytes))
        strict = True
    else:
        old_files, new_files, strict = _git_sides(git_base, paths, resolve_config(config, no_config))
    old = _load(old_files, selection, input_format, strict)
    new = _load(new_files, selection, input_format, strict)
    diffs = diff_tools(old.tools, new.tools)
    findings = sorted(old.load_findings + new.load_findings + diff_findings(diffs, selection))
    result = LintResult(findings, old.files + new.files, len(diffs), {**old.documents, **new.documents}, new.tools,
                        Severity.parse(fail_on.value))
    raise typer.Exit(report_lint(result, output_format.value if output_format else None, output, quiet=quiet,
                                 statistics=statistics, max_warnings=max_warnings, exit_zero=exit_zero, root=root))


# --------------------------------------------------------------------- lock


def _live_documents(commands: list[str], timeout: float, urls: tuple = (), headers: tuple = (),
                    allow_insecure: bool = False):
    """(label, Document) of each --mcp-stdio and --mcp-url server's tool list; exit 2 when one cannot be had."""
    from toolcontract.app.lint import http_options
    from toolcontract.io.inputs import fetch_live, fetch_live_http
    from toolcontract.io.document import DEFAULT_LIMITS, LoadError, load_text

    http = http_options(list(urls), list(headers), allow_insecure)
    found = []
    lists = [fetch_live(command, timeout) for command in dict.fromkeys(commands)]
    lists += [fetch_live_http(url, http, timeout, allow_insecure) for url in dict.fromkeys(urls)]
    for live in lists:
        try:
            found.append((live.label, load_text(live.json_text, live.label, DEFAULT_LIMITS)))
        except LoadError as error:
            raise UsageFailure(f"{live.label}:{error.line}:{error.column}: {error.message}") from None
    return found


@app.command("lock")
def lock_command(
    paths: Optional[List[str]] = typer.Argument(None, metavar="PATHS", help="Descriptor files or folders (default: those discovery and the config find here)."),
    mcp_stdio: Optional[List[str]] = typer.Option(None, "--mcp-stdio", metavar="COMMAND", help="Also lock the tools this MCP server lists over stdio (it never calls one). Repeatable."),
    mcp_url: Optional[List[str]] = typer.Option(None, "--mcp-url", metavar="URL", help="Also lock the tools this MCP server lists over Streamable HTTP (https://, or http:// to a loopback address; it never calls one). Repeatable."),
    header: Optional[List[str]] = typer_option(options.HEADER),
    allow_insecure: bool = typer_option(options.ALLOW_INSECURE),
    mcp_timeout: float = typer.Option(20.0, "--mcp-timeout", metavar="SECONDS", callback=mcp_timeout_seconds, help="Time a --mcp-stdio or --mcp-url server has to start and list its tools."),
    lock_file: str = typer.Option("toolcontract.lock", "--lock-file", metavar="PATH", help="The lockfile to write (replaced whole, never in part)."),
    input_format: Optional[str] = typer.Option(None, "--input-format", help="Read every file in this format instead of detecting it."),
    config: Optional[str] = typer_option(options.CONFIG),
    no_config: bool = typer_option(options.NO_CONFIG),
) -> None:
    """Write toolcontract.lock: a canonical hash per tool, for `lint --locked` to catch silent changes."""
    from toolcontract.lint.engine import Selection
    from toolcontract.lint.lock import entries_for, lock_text
    from toolcontract.report.common import line_start, printable
    from toolcontract.io.document import DEFAULT_LIMITS
    from toolcontract.io.reader import read_tools

    _check_input_format(input_format)
    strict = bool(paths)
    files = list(read_inputs(list(paths), DEFAULT_LIMITS.max_bytes)) if paths else []
    if not paths and not mcp_stdio and not mcp_url:
        files = list(read_inputs(_default_files(resolve_config(config, no_config)), DEFAULT_LIMITS.max_bytes))
    live = _live_documents(list(mcp_stdio or ()), mcp_timeout, tuple(mcp_url or ()), tuple(header or ()),
                           allow_insecure)
    lock_dir = os.path.dirname(os.path.abspath(lock_file))
    loaded = _load(files, Selection(), input_format, strict)
    if loaded.load_findings:  # a named file that cannot be read cannot be locked
        first = loaded.load_findings[0]
        raise UsageFailure(f"{first.path}:{first.line}:{first.column}: {first.message}")
    pairs = [(tool, _lock_source(tool.document.path, lock_dir)) for tool in loaded.tools]
    for label, document in live:
        read = read_tools(document, "mcp")
        pairs.extend((tool, label) for tool in read.tools)
    entries, repeats = entries_for(pairs)
    if not entries:
        raise UsageFailure("toolcontract: found no named tools to lock (name descriptor files or folders, "
                           "or --mcp-stdio COMMAND, or --mcp-url URL)")
    for tool, source, kept in repeats:
        sys.stderr.write(f"{line_start(printable(source))}: warning: tool {printable(tool.name or '')!r} is also in "
                         f"{printable(kept.source)}; the lockfile keeps that one\n")
    text = lock_text(entries)
    from toolcontract.io.files import NotRegular, open_regular

    try:
        with open_regular(lock_file) as handle:
            unchanged = handle.read(len(text.encode("utf-8")) + 1).decode("utf-8") == text
    except NotRegular as exc:
        raise UsageFailure(f"{lock_file}:1:1: cannot write the lockfile: {exc.strerror}") from None
    except (OSError, UnicodeDecodeError):
        unchanged = False
    if not unchanged:  # an unchanged lockfile is left alone, mtime and all
        from toolcontract.cli.commands import _write_whole

        _write_whole(lock_file, text)
    sys.stdout.write(f"{line_start(printable(lock_file))}: {len(entries)} tool{'s' * (len(entries) != 1)} locked"
                     f"{' (unchanged)' if unchanged else ''}\n")
    sys.stdout.flush()


