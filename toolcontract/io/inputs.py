"""What a job reads: the files named or found in folders (bounded reads, .gitignore honoured), the
configuration in force, a live MCP server's tools, descriptor files for assess, fixture files.

Every problem that stops the job is an `InputError` (one line, `path:line:col: ...`), which the
CLI exits 2 with.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import Iterator, Optional

from toolcontract.io.errors import InputError
from toolcontract.io.pathnames import normal_path

DESCRIPTOR_SUFFIXES = (".yaml", ".yml", ".json")
FIXTURE_SUFFIXES = (".yaml", ".yml", ".json", ".jsonl")
SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "venv", "site-packages"})


def discover(paths: list[str], suffixes: tuple[str, ...] = DESCRIPTOR_SUFFIXES, keep=None) -> Iterator[str]:
    """Named files as given; folders walked for files with these suffixes that `keep(path)`
    accepts (the config's include/exclude). A walk leaves out hidden files and folders (`.git`
    among them), SKIPPED_DIRS, and what the repository's `.gitignore` files and
    `.git/info/exclude` ignore (see toolcontract.io.ignore); a file named outright is
    taken whatever they say, as ruff does."""
    for name, _ in discovered(paths, suffixes, keep):
        yield name


def discovered(paths: list[str], suffixes: tuple[str, ...] = DESCRIPTOR_SUFFIXES, keep=None
               ) -> Iterator[tuple[str, bool]]:
    """(name, walked) for each file `discover` yields: walked is True for a file found in a folder."""
    for raw in paths:
        if raw == "-":
            yield raw, False
            continue
        if not os.path.exists(raw):
            raise InputError(f"{raw}:1:1: no such file or directory")
        if os.path.isdir(raw):
            for name in walk_folder(normal_path(raw), suffixes, keep):
                yield name, True
        else:
            yield raw, False


def walk_folder(top: str, suffixes: tuple[str, ...] = DESCRIPTOR_SUFFIXES, keep=None) -> list[str]:
    """The files `discover` finds in the folder `top`, sorted."""
    from toolcontract.io.ignore import GITIGNORE, Walk

    walk = Walk(top)
    found = []
    for root, dirs, files in os.walk(top):
        ignored = walk.rules_in(root, GITIGNORE in files)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS and not ignored(d, True))
        found.extend(
            os.path.join(root, name) for name in files
            if name.lower().endswith(suffixes) and not name.startswith(".") and not ignored(name, False)
            and (keep is None or keep(os.path.join(root, name)))
        )
    return sorted(found)


def read_inputs(paths: list[str], max_bytes: int, keep=None, walked: Optional[set] = None):
    """(path, bytes or LoadError) per file; a file over the size limit is not read at all.
    `walked`, when given, gets the paths found by walking a folder (not named outright)."""
    from toolcontract.io.document import LoadError

    seen: set[str] = set()
    for name, found_in_folder in discovered(paths, keep=keep):
        if name in seen:
            if walked is not None and not found_in_folder:
                walked.discard(name)  # named outright as well
            continue
        seen.add(name)
        if walked is not None and found_in_folder:
            walked.add(name)
        if name == "-":
            data = sys.stdin.buffer.read(max_bytes + 1)
            yield "<stdin>", data if len(data) <= max_bytes else LoadError(f"input is over the {max_bytes:,}-byte limit")
            continue
        try:
            content = read_file(name, max_bytes)
        except OSError as exc:
            if not found_in_folder:  # named outright: the job cannot be done as asked
                raise InputError(f"{name}:1:1: cannot read: {exc.strerror or exc}") from None
            # met in a folder (a dangling symlink, a loop, no permission): a finding for that file (TC000)
            content = LoadError(f"cannot read: {exc.strerror or exc}")
        if content is None:
            if not found_in_folder:
                raise InputError(f"{name}:1:1: not a regular file")
            content = LoadError("not a regular file (a FIFO, a device or a socket): not read")
        yield name, content


def read_file(name: str, max_bytes: int):
    """The bytes of the regular file `name`, a LoadError when it is over `max_bytes`, or None when
    it is not a regular file. Raises OSError.

    One descriptor costs an open, an fstat and two reads on the raw file: no buffered file object,
    and no buffer of `max_bytes` (5 MiB by default) allocated for every small file, which was most
    of the time a 1,000-file run spent reading. The size comes from the open file, not the path,
    and a file that grows while it is read is still cut at `max_bytes + 1` bytes."""
    from toolcontract.io.document import LoadError

    # O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then turns it away
    fd = os.open(name, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        if info.st_size > max_bytes:
            return LoadError(f"file is {info.st_size:,} bytes, over the {max_bytes:,}-byte limit")
        parts, got = [], 0
        while got <= max_bytes:  # one read for the stated size (+1 to see the end), one more for growth
            part = os.read(fd, info.st_size + 1 if not parts else max_bytes + 1 - got)
            if not part:
                break
            parts.append(part)
            got += len(part)
        return parts[0] if len(parts) == 1 else b"".join(parts)
    finally:
        os.close(fd)


def resolve_config(path: Optional[str] = None, no_config: bool = False):
    """The configuration in force: `--config PATH`, none with `--no-config`, else the
    nearest one found walking up from the working directory. Bad config: exit 2."""
    from toolcontract.io.config import Config, ConfigError, find_config, load_config

    if no_config:
        return Config()
    try:
        if path is not None:
            if not os.path.isfile(path):
                raise InputError(f"{path}:1:1: no such configuration file")
            return load_config(path)
        found = find_config(os.getcwd())
        return load_config(found) if found is not None else Config()
    except ConfigError as exc:
        raise InputError(str(exc)) from None


def named_for(named: dict, inputs) -> dict:
    """Config overlays keyed by the provider paths as this run names them."""
    if not named:
        return {}
    by_real = {os.path.realpath(provider): overlay for provider, overlay in named.items()}
    return {path: by_real[os.path.realpath(path)] for path, _ in inputs if os.path.realpath(path) in by_real}


def fetch_live(command: str, timeout: float = 20.0):
    """A live MCP server's tools (`toolcontract.io.mcp_live.LiveTools`); exit 2 when they cannot be had."""
    from toolcontract.io.mcp_live import McpFetchError, fetch_tools

    try:
        return fetch_tools(command, timeout)
    except McpFetchError as exc:
        raise InputError(exc.line) from None


def fetch_live_http(url: str, headers: dict, timeout: float = 20.0, allow_insecure: bool = False):
    """A live MCP server's tools over Streamable HTTP (`LiveTools`); exit 2 when they cannot be had."""
    from toolcontract.io.mcp_http import fetch_tools_http
    from toolcontract.io.mcp_live import McpFetchError

    try:
        return fetch_tools_http(url, headers, timeout, allow_insecure)
    except McpFetchError as exc:
        raise InputError(exc.line) from None


def load_descriptor_dicts(paths: list[str], cache: dict[str, list[dict]]) -> list[dict]:
    """Native-named descriptor dicts from descriptor files or folders, provider files merged
    with their contract overlays (exit 2 on a file that does not load)."""
    from toolcontract.io.document import DEFAULT_LIMITS, LoadError, load_bytes
    from toolcontract.io.overlay import pair_overlays
    from toolcontract.io.reader import read_tools

    def load(name: str, content) -> object:
        try:
            if isinstance(content, LoadError):
                raise content
            return load_bytes(content, name, DEFAULT_LIMITS)
        except LoadError as error:
            raise InputError(f"{name}:{error.line}:{error.column}: {error.message}") from None

    files, overlays = pair_overlays(list(read_inputs(paths, DEFAULT_LIMITS.max_bytes)), DEFAULT_LIMITS)
    found: list[dict] = []
    for name, content in files:
        if name not in cache:
            overlay = load(*overlays[name]) if name in overlays else None
            cache[name] = [view.data for view in read_tools(load(name, content), None, overlay).tools]
        found.extend(cache[name])
    return found


def read_fixture(path: str, max_bytes: int) -> bytes:
    from toolcontract.io.files import open_regular
    from toolcontract.io.fixtures import FixtureError

    with open_regular(path) as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > max_bytes:
            raise FixtureError(path, 1, 1, f"file is {size:,} bytes, over the {max_bytes:,}-byte limit")
        return handle.read(max_bytes + 1)
