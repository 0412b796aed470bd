"""The lint cache: each file's lint results, kept between runs, the way ruff keeps its own.

Where: `.toolcontract_cache/` in the project root (the configuration file's folder, else the
working directory); `cache-dir` in the configuration moves it, `TOOLCONTRACT_CACHE_DIR` overrides
both, `lint --no-cache` turns it off. The folder holds a `.gitignore` of `*` and a `CACHEDIR.TAG`
(https://bford.info/cachedir/), so neither git nor backup tools take it in.

What: one file per settings, `<cache dir>/<toolcontract version>/<settings key>`, as ruff has one
per package and settings. The settings key covers everything that decides a file's findings
besides the file: the toolcontract version, the code and data of the package (its files' sizes
and times, so an edited checkout is a new rule set), the Python version, the rule set (the rule
table's ids; what each rule is, is its code), the selection (select, ignore, severities, targets,
contracts level, rule options), the input format, the read limits, the fields the set rules read,
and the working directory (paths in findings are as given). Per-file ignores are not in it: they
are applied to the findings after the cache, every run.

In it, per file path: a digest of the file's bytes (and of its overlay's path and bytes, and of
whether it was found by walking a folder), when it was last linted, and its chunk packed as the
parallel workers send it (toolcontract.lint.parallel._pack): the findings of the per-file and
per-list rules, which documents were loaded, and of each tool the fields the set rules read with
their places. A file whose digest matches is not read as YAML or JSON again: its bytes are only
decoded for the reporters' source lines and the suppression comments. Set rules (TC104, a name
used in two files) and suppressions (TC009, a suppression nothing used) run on every run, on the
cached and the freshly linted files together, so they always see the whole run.

Never an error, never wrong findings: an entry that is missing, truncated, corrupted (each file
carries a digest of its contents), of another version or settings, or unreadable is a miss, and
the file is linted. A cache that cannot be written (a read-only folder) is left as it is. A file
is written whole to a temporary file and renamed over the old one, so concurrent runs never see a
torn file (the last one to finish wins). Entries of files not linted for 30 days are dropped.

Not cached: stdin, live MCP servers (linted apart from the files), `--locked` runs (the lock check
reads every loaded tool), files whose path is named twice, files that could not be read, files of
more than 2,000 tools (MAX_TOOLS_CACHED). Entries of files that no longer exist are dropped on write.
"""

from __future__ import annotations

import functools
import hashlib
import marshal
import os
import sys
import time
from typing import Any

CACHE_DIR_NAME = ".toolcontract_cache"
ENVIRONMENT_VARIABLE = "TOOLCONTRACT_CACHE_DIR"
_MAGIC = b"toolcontract lint cache 1\n"
_DIGEST_SIZE = 16
_MAX_UNSEEN_SECONDS = 30 * 24 * 3600  # entries of files not linted for this long are dropped (as ruff)
# A file of more tools than this is linted every run: its entry would be about as large as the file, and
# every run reads the whole cache file, so one such file would cost every other run its memory (as TC003's
# max-tools-checked default: real lists hold a few hundred)
MAX_TOOLS_CACHED = 2_000
_CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by toolcontract.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)


def cache_directory(config, environ=os.environ) -> str:
    """The cache folder of a run: $TOOLCONTRACT_CACHE_DIR, else the configuration's `cache-dir`
    (relative to its folder), else `.toolcontract_cache` in the configuration's folder, or in
    the working directory when no configuration file is in force."""
    chosen = environ.get(ENVIRONMENT_VARIABLE)
    if chosen:
        return chosen
    root = config.root if config.path is not None else os.getcwd()
    if config.cache_dir:
        return os.path.join(root, config.cache_dir)
    return os.path.join(root, CACHE_DIR_NAME)


@functools.cache
def code_fingerprint() -> str:
    """The package's code and data as this process runs them: each file's name, size and time of
    change under the package folder (an edited checkout, or another install, is another rule set)."""
    import toolcontract

    digest = hashlib.blake2b(digest_size=_DIGEST_SIZE)
    digest.update(toolcontract.__version__.encode())
    digest.update(sys.version.encode())
    base = os.path.dirname(os.path.abspath(toolcontract.__file__))
    for folder, subfolders, names in os.walk(base):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for name in sorted(names):
            if name.endswith((".py", ".json")):
                path = os.path.join(folder, name)
                try:
                    stat = os.stat(path)
                except OSError:
                    continue
                digest.update(f"{os.path.relpath(path, base)}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode(
                    "utf-8", "surrogatepass"))
    return digest.hexdigest()


def rule_set_key(rules) -> tuple:
    """The rule set: the ids of the rule table (a rule added or removed is another rule set). What
    each rule is (name, scope, severity, fields read) is its code, which code_fingerprint covers, so
    the key is made without importing a rule."""
    return tuple(rules)


def settings_key(plan, cwd: str | None = None) -> str:
    """The key of everything but the file itself that decides a file's findings (see the module's text)."""
    import toolcontract

    selection = plan.selection
    parts = (
        toolcontract.__version__,
        code_fingerprint(),
        rule_set_key(plan.rules),
        tuple(selection.select), tuple(selection.ignore),
        tuple(sorted((str(k), int(v)) for k, v in selection.severity.items())),
        tuple(selection.targets), bool(selection.contracts_required), str(selection.mcp_revision),
        tuple(sorted((str(k), repr(v)) for k, v in selection.options.items())),
        plan.input_format,
        repr(plan.limits),
        plan.set_fields,
        os.getcwd() if cwd is None else cwd,
    )
    return hashlib.blake2b(repr(parts).encode("utf-8", "surrogatepass"), digest_size=_DIGEST_SIZE).hexdigest()


class LintCache:
    """The cache of one lint run (see the module's text); give it to `lint_files(cache=...)`.

    `skip`: paths never cached (stdin's label). After the run, `hits` and `misses` say how many
    files came from the cache and how many were linted."""

    def __init__(self, directory: str, skip: frozenset = frozenset()):
        self.directory = directory
        self.skip = skip
        self.hits = 0
        self.misses = 0

    # ------------------------------------------------------------ the run

    def chunks(self, plan, files: list, jobs: int = 1) -> list:
        """One chunk per file, in file order: from the cache where the file's entry matches, else linted
        (in up to `jobs` processes) and stored."""
        import toolcontract
        from toolcontract.lint.parallel import _known_bytes, _pack, _unpack, lint_each

        key = settings_key(plan)
        path = os.path.join(self.directory, toolcontract.__version__, key)
        stored = self._read(path, key)
        overlays = plan.overlays or {}
        known = _known_bytes(files, overlays)
        overlay_paths = {overlay_path for overlay_path, _ in overlays.values()}
        chunks: list = [None] * len(files)
        digests: list = [None] * len(files)
        missed: list[int] = []
        seen: list[str] = []
        for index, (name, content) in enumerate(files):
            digest = self._digest(plan, name, content, known, overlay_paths)
            digests[index] = digest
            entry = stored.get(name) if digest is not None else None
            if entry is not None and entry[0] == digest:
                try:
                    chunks[index] = _unpack(entry[2], self._raw(name, content, overlays), plan.limits)
                except Exception:  # noqa: BLE001 - an entry of the wrong shape is a miss
                    chunks[index] = None
            if chunks[index] is None:
                missed.append(index)
            else:
                seen.append(name)
        self.hits, self.misses = len(files) - len(missed), len(missed)
        if not missed:
            return chunks  # nothing to write (as ruff, which writes only on changes)
        linted = lint_each([files[i] for i in missed], plan, jobs, known)
        now = int(time.time())
        changed: dict[str, tuple] = {}
        for index, item in zip(missed, linted):
            if isinstance(item, tuple):  # packed by a worker
                packed = item
                chunks[index] = _unpack(item, known, plan.limits)
            else:
                chunks[index] = item
                packed = _pack(item, plan.set_fields, known) if digests[index] is not None else None
            if digests[index] is not None and packed is not None and len(packed[2]) <= MAX_TOOLS_CACHED:
                changed[files[index][0]] = (digests[index], now, packed)
        if changed:
            for name in seen:  # linted from the cache this time: seen now
                digest, _, packed = stored[name]
                changed.setdefault(name, (digest, now, packed))
            self._write(path, key, stored, changed, now)
        return chunks

    # ------------------------------------------------------------ keys

    @staticmethod
    def _raw(name: str, content: bytes, overlays) -> dict[str, bytes]:
        raw = {name: content}
        if name in overlays:
            overlay_path, overlay_content = overlays[name]
            raw[overlay_path] = overlay_content
        return raw

    def _digest(self, plan, name: str, content, known, overlay_paths) -> bytes | None:
        """The digest of what of this file decides its findings, or None: not cached."""
        if name in self.skip or name not in known or not isinstance(content, (bytes, bytearray)):
            return None
        digest = hashlib.blake2b(digest_size=_DIGEST_SIZE)
        digest.update(name.encode("utf-8", "surrogatepass"))
        digest.update(b"\0%d\0" % len(content))
        digest.update(content)
        overlays = plan.overlays or {}
        if name in overlays:
            overlay_path, overlay_content = overlays[name]
            if overlay_path not in known:
                return None
            digest.update(b"\0overlay\0" + overlay_path.encode("utf-8", "surrogatepass"))
            digest.update(b"\0%d\0" % len(overlay_content))
            digest.update(overlay_content)
        flags = (name in plan.walked, name in overlays, name in overlay_paths)
        digest.update(repr(flags).encode())
        return digest.digest()

    # ------------------------------------------------------------ the file

    @staticmethod
    def _read(path: str, key: str) -> dict:
        """The entries of a cache file ({} for a missing, unreadable, corrupted or foreign one)."""
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except (OSError, ValueError):
            return {}
        head = _MAGIC + key.encode() + b"\n"
        body = data[len(head) + _DIGEST_SIZE:]
        if not data.startswith(head) or data[len(head):len(head) + _DIGEST_SIZE] != _checksum(body):
            return {}
        try:
            entries = marshal.loads(body)
        except Exception:  # noqa: BLE001 - checked above; a file of another Python's marshal format
            return {}
        if not isinstance(entries, dict):
            return {}
        return {name: entry for name, entry in entries.items()
                if isinstance(name, str) and isinstance(entry, tuple) and len(entry) == 3
                and isinstance(entry[0], bytes) and isinstance(entry[1], int) and isinstance(entry[2], tuple)}

    def _write(self, path: str, key: str, stored: dict, changed: dict, now: int) -> None:
        # dropped: entries not seen for 30 days, and those of files that are gone (a test's temporary folder)
        entries = {name: entry for name, entry in stored.items()
                   if name not in changed and now - entry[1] <= _MAX_UNSEEN_SECONDS and os.path.exists(name)}
        entries.update(changed)
        try:
            body = marshal.dumps(entries)
        except ValueError:  # a value marshal cannot write (a tool's name read as a date): not cached
            body = marshal.dumps({name: entry for name, entry in entries.items() if _writable(entry)})
        import tempfile  # only here: it imports random and shutil, ~10 ms that a warm run need not pay

        try:
            folder = os.path.dirname(path)
            self._prepare(folder)
            handle, temporary = tempfile.mkstemp(prefix=".tmp-", dir=folder)
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(_MAGIC + key.encode() + b"\n" + _checksum(body) + body)
                os.replace(temporary, path)
            except BaseException:
                try:
                    os.unlink(temporary)
                except OSError:
                    pass
                raise
        except OSError:  # a read-only or full disk, a folder taken by a file: the run goes on without
            return

    def _prepare(self, folder: str) -> None:
        """The cache folder with its .gitignore and CACHEDIR.TAG, and the version folder in it."""
        if not os.path.isdir(self.directory):
            os.makedirs(self.directory, exist_ok=True)
        for name, text in ((".gitignore", "# Automatically created by toolcontract.\n*\n"),
                           ("CACHEDIR.TAG", _CACHEDIR_TAG)):
            marker = os.path.join(self.directory, name)
            if not os.path.exists(marker):
                with open(marker, "w", encoding="utf-8") as out:
                    out.write(text)
        os.makedirs(folder, exist_ok=True)


def _checksum(body: bytes) -> bytes:
    return hashlib.blake2b(body, digest_size=_DIGEST_SIZE).digest()


def _writable(value: Any) -> bool:
    try:
        marshal.dumps(value)
    except ValueError:
        return False
    return True


__all__ = ["CACHE_DIR_NAME", "ENVIRONMENT_VARIABLE", "LintCache", "cache_directory", "code_fingerprint",
           "settings_key"]
