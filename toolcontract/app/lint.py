"""The lint job: descriptor paths (and live servers) in, a `LintResult` out. No terminal, no exit code.

    from toolcontract import lint_paths
    result = lint_paths(["tools/"], select=["TC4"])
    for finding in result.findings: ...

The CLI (`toolcontract.cli.run_lint`) calls this, then reports the result and decides the exit code.
Bad input (a missing path, a bad configuration, an unknown rule code) raises `InputError`, a
ValueError whose message is one line (`path:line:col: ...` when about a file).
"""

from __future__ import annotations

import os
from typing import Iterable, Optional


def lint_paths(
    paths: Iterable[str] = (),
    *,
    select: Optional[Iterable[str]] = None,
    ignore: Optional[Iterable[str]] = None,
    fail_on: Optional[str] = None,
    targets: Optional[Iterable[str]] = None,
    input_format: Optional[str] = None,
    mcp_revision: Optional[str] = None,
    mcp_stdio: Optional[Iterable[str]] = None,
    mcp_url: Optional[Iterable[str]] = None,
    headers: Optional[Iterable[str]] = None,
    allow_insecure: bool = False,
    mcp_timeout: float = 20.0,
    locked: bool = False,
    lock_file: Optional[str] = None,
    config: Optional[str] = None,
    no_config: bool = False,
    jobs: int = 1,
    cache: bool = False,
    replace: Optional[dict] = None,
):
    """Lint the descriptor files and folders `paths` (and the live MCP servers: `mcp_stdio` commands, `mcp_url`
    Streamable HTTP endpoints, each request with the `headers`, 'Name: value' each) as `toolcontract
    lint` does: the configuration in force (`config`, else the nearest one, none with `no_config`) under
    the options given, which win over it. `jobs` 0 picks a process pool when it pays, 1 lints in this
    process; `cache` reads and writes the lint cache (`.toolcontract_cache`). The result's `fail_on` is
    the severity that fails the run (the option, else the configuration's, else error).
    `replace`: path -> text linted instead of the file's content (`lint --fix` re-lints its edits
    before anything is written)."""
    from toolcontract.io.errors import InputError as UsageFailure
    from toolcontract.io.inputs import fetch_live, fetch_live_http, named_for, read_inputs, resolve_config
    from toolcontract.lint.engine import lint_files
    from toolcontract.core.model import Severity
    from toolcontract.io.document import DEFAULT_LIMITS

    from toolcontract.io.reader import FORMATS

    if input_format is not None and input_format not in FORMATS:
        raise UsageFailure(f"toolcontract: unknown --input-format {input_format!r} (expected any of {', '.join(FORMATS)})")
    cfg = resolve_config(config, no_config)
    selection = selection_for(cfg, select, ignore, targets, mcp_revision)
    fail_on = fail_on or cfg.fail_on or "error"
    paths, mcp_stdio, mcp_url = _listed(paths), _listed(mcp_stdio), _listed(mcp_url)
    http = http_options(mcp_url, headers, allow_insecure)
    if not paths and not mcp_stdio and not mcp_url:
        if cfg.path is None:
            raise UsageFailure("toolcontract: lint needs descriptor paths (or a configuration file with `include`), "
                               "or --mcp-stdio COMMAND or --mcp-url URL to lint a live MCP server")
        paths = [os.path.relpath(cfg.root)]  # the configuration's folder, through include/exclude
    from toolcontract.io.overlay import pair_overlays

    keep = cfg.included if (cfg.include or cfg.exclude) else None
    named = {os.path.join(cfg.root, provider): os.path.join(cfg.root, overlay) for provider, overlay in cfg.overlays.items()}
    walked: set[str] = set()
    inputs = list(read_inputs(paths, DEFAULT_LIMITS.max_bytes, keep, walked)) if paths else []
    files, overlays = pair_overlays(inputs, DEFAULT_LIMITS, named=named_for(named, inputs) or None)
    if replace:
        files = [(path, replace[path].encode("utf-8") if path in replace else content) for path, content in files]
        overlays = {provider: (path, replace[path].encode("utf-8") if path in replace else content)
                    for provider, (path, content) in (overlays or {}).items()} or overlays
    if cfg.per_file_ignores:
        ignored = {path: cfg.ignored_codes(path) for path, _ in files}
        selection = selection._replace(per_file_ignores={p: c for p, c in ignored.items() if c})
    # servers answer before anything is printed: one that cannot is exit 2, as a missing file is
    live = [fetch_live(command, mcp_timeout) for command in dict.fromkeys(mcp_stdio or ())]
    live += [fetch_live_http(url, http, mcp_timeout, allow_insecure) for url in dict.fromkeys(mcp_url)]
    if locked or lock_file is not None or live:
        jobs = 1  # the lock check reads every loaded tool; a live fetch may leave threads behind
    elif jobs == 0:
        from toolcontract.lint.parallel import default_jobs

        jobs = default_jobs(len(files))
    cache = lint_cache(cfg) if cache and not (locked or lock_file is not None) else None
    result = lint_files(files, selection, DEFAULT_LIMITS, input_format=input_format, overlays=overlays, jobs=jobs,
                        walked=walked, cache=cache)
    if live:  # a server's tool list is read as MCP, whatever --input-format says of the files
        live_result = lint_files([(tools.label, tools.json_text.encode("utf-8")) for tools in live], selection,
                                 DEFAULT_LIMITS, input_format="mcp")
        result = merge_results(result, live_result) if files else live_result
    if locked or lock_file is not None:  # TC71x: tools changed, added or removed since the lockfile
        from toolcontract.app.lock import check_lock

        result = check_lock(result, lock_file or "toolcontract.lock", selection, paths)
    if not result.tools and not result.findings:
        # nothing read and nothing to say: a typo'd folder, or one of package.json and workflow files
        raise UsageFailure(nothing_found(paths or [], [tools.label for tools in live], len(result.skipped)))
    result.fail_on = Severity.parse(fail_on)
    return result



def selection_for(cfg, select=None, ignore=None, targets=None, mcp_revision: Optional[str] = None):
    """The rules a lint run under the configuration `cfg` runs (`lint.engine.Selection`): the options
    given win over the configuration's. Bad codes or targets raise InputError (exit 2)."""
    from toolcontract.app.codes import split_codes
    from toolcontract.io.errors import InputError as UsageFailure
    from toolcontract.lint.engine import Selection, SelectionError, rule_ids
    from toolcontract.core.model import Severity

    targets = tuple(t.lower() for t in split_codes(_listed(targets))) or cfg.target
    selection = Selection(
        select=split_codes(_listed(select)) or cfg.select or ("TC",),
        ignore=split_codes(_listed(ignore)) or cfg.ignore,
        targets=targets,
        severity={code: Severity.parse(level) for code, level in cfg.severity.items()},
        contracts_required=cfg.contracts == "required",
        options=cfg.options,
        mcp_revision=mcp_revision,
    )
    try:
        try:
            selection.validate(rule_ids(files_only=True))
        except SelectionError:  # a code of a change or conversation rule (e.g. TC71 with --locked)
            selection.validate(rule_ids())
    except SelectionError as exc:
        raise UsageFailure(f"toolcontract: {exc}") from None
    return selection

def http_options(urls: list[str], headers, allow_insecure: bool) -> dict[str, str]:
    """The `Name: value` headers (or a dict of them) as a dict: exit 2 for one that is not (its value never
    said), and for --header or --allow-insecure without --mcp-url."""
    from toolcontract.io.errors import InputError
    from toolcontract.io.mcp_http import parse_header

    if isinstance(headers, dict):  # the library's callers may give {name: value}
        headers = [f"{name}: {value}" for name, value in headers.items()]
    headers = _listed(headers)
    if (headers or allow_insecure) and not urls:
        raise InputError("toolcontract: --header and --allow-insecure go with --mcp-url")
    parsed: dict[str, str] = {}
    for text in headers:
        try:
            name, value = parse_header(text)
        except ValueError as exc:
            raise InputError(f"toolcontract: {exc}") from None
        parsed[name] = value
    return parsed


def _listed(values) -> list[str]:
    """A list of the strings given: one string is one value, not its characters."""
    if values is None:
        return []
    return [values] if isinstance(values, str) else list(values)


def lint_cache(cfg):
    """The lint cache of a run with this configuration (see toolcontract.io.cache); stdin is never cached."""
    from toolcontract.io.cache import LintCache, cache_directory

    return LintCache(cache_directory(cfg), skip=frozenset(("<stdin>",)))


def merge_results(first, second):
    """One LintResult of two: files linted in two passes (e.g. with different input formats)."""
    return first._replace(findings=sorted(first.findings + second.findings), files=first.files + second.files,
                   tools=first.tools + second.tools, documents={**first.documents, **second.documents},
                   tool_views=first.tool_views + second.tool_views, skipped=first.skipped + second.skipped)


def nothing_found(paths: list[str], servers: list[str], skipped: int = 0) -> str:
    """The one line of a lint run that read no tool and found nothing: what it was given (the first
    few of many), and how many walked files were skipped as no tool list."""
    from toolcontract.report.common import printable, skipped_note

    given = ["stdin" if path == "-" else path for path in paths] + [f"the server {label}" for label in servers]
    shown = ", ".join(printable(name) for name in given[:3])
    if len(given) > 3:
        shown += f" and {len(given) - 3} more"
    note = f"; {skipped_note(skipped)}" if skipped else ""
    return f"toolcontract: no tool descriptors found in {shown or 'the input'}{note}"
