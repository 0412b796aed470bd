"""Which files a walk of a folder leaves out, as git would: `.gitignore` files (in the walked
folder, in its subfolders, and in the folders above it up to the repository's root) and the
repository's `.git/info/exclude`.

Patterns are read by `pathspec` (gitignore's own syntax: `**`, negations, escapes, folder-only
patterns, anchoring by a slash), never by running git: git reads the repository's config, and a
hostile repository's config can make git run commands (core.fsmonitor, for one). What this
module adds is how git combines the files: a deeper `.gitignore` overrides the ones above it,
the last matching pattern of a file wins, and a folder that is ignored is not entered, so
nothing under it can be re-included (`dir/` then `!dir/x.json` leaves x.json ignored).

The repository's root is the nearest folder at or above the walked one holding `.git` (a folder,
or the file a worktree or submodule has); outside a repository only the `.gitignore` files under
the walked folder count. A folder named on the command line is walked even when it is ignored
itself (`lint dist/`), and then without the rules above it, which would ignore all it holds;
its own `.gitignore` files still count. Files named on the command line are never left out
(discovery does not ask). Not read: git's global excludes (core.excludesFile, in git's config);
tracked files that match a pattern are left out too, as ruff and ripgrep do (telling them apart
would need the index, or git).
"""

from __future__ import annotations

import os
import stat
from typing import Callable

GITIGNORE = ".gitignore"
# a .gitignore larger than this is read up to here (git has no limit; a hostile one could be huge)
MAX_IGNORE_BYTES = 1 << 20


class Ignores:
    """The ignore rules in force in one folder: (base folder, spec) pairs, outermost first;
    a spec's patterns are relative to its base. No rules: nothing is ignored, and pathspec
    is not imported."""

    __slots__ = ("rules",)

    def __init__(self, rules: tuple = ()):
        self.rules = rules

    def __bool__(self) -> bool:
        return bool(self.rules)

    def with_file(self, base: str, path: str) -> "Ignores":
        """These rules and the patterns of the file `path` (relative to `base`), if it has any."""
        spec = _read_spec(path)
        return Ignores((*self.rules, (base, spec))) if spec is not None else self

    def with_gitignore(self, folder: str) -> "Ignores":
        return self.with_file(folder, os.path.join(folder, GITIGNORE))

    def in_folder(self, folder: str) -> Callable[[str, bool], bool]:
        """`ignored(name, is_dir)` for the entries of `folder` (an absolute path)."""
        if not self.rules:
            return _nothing
        specs = []
        for base, spec in self.rules:
            rel = os.path.relpath(folder, base).replace(os.sep, "/")
            specs.append((spec, "" if rel == "." else rel + "/"))

        def ignored(name: str, is_dir: bool) -> bool:
            verdict = None
            for spec, prefix in specs:  # outermost first: a deeper file's match overrides
                include = spec.check_file(prefix + name + ("/" if is_dir else "")).include
                if include is not None:
                    verdict = include
            return verdict is True

        return ignored


def _nothing(name: str, is_dir: bool) -> bool:
    return False


def repository_root(folder: str) -> str | None:
    """The nearest folder at or above `folder` (absolute) that holds `.git`, or None."""
    current = folder
    while True:
        if os.path.lexists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _common_git_dir(root: str) -> str | None:
    """The folder that holds `info/exclude`: `.git` itself, or for a worktree or submodule
    (`.git` is a file `gitdir: PATH`) that folder, or its `commondir`."""
    dot_git = os.path.join(root, ".git")
    if os.path.isdir(dot_git):
        return dot_git
    text = _read_small(dot_git)
    if text is None or not text.startswith("gitdir:"):
        return None
    git_dir = os.path.join(root, text[len("gitdir:"):].strip())
    common = _read_small(os.path.join(git_dir, "commondir"))
    return os.path.normpath(os.path.join(git_dir, common.strip())) if common else git_dir


def outer_rules(top: str) -> Ignores:
    """The rules in force at the walked folder `top` (absolute), before its own `.gitignore`:
    the repository's info/exclude and the `.gitignore` files from its root down to top's parent.
    No rules when `top` is outside a repository, or is itself ignored (named, so walked all the same)."""
    root = repository_root(top)
    if root is None:
        return Ignores()
    rules = Ignores()
    common = _common_git_dir(root)
    if common is not None:
        rules = rules.with_file(root, os.path.join(common, "info", "exclude"))
    if top == root:
        return rules
    rules = rules.with_gitignore(root)
    parts = os.path.relpath(top, root).split(os.sep)
    folder = root
    for index, part in enumerate(parts):
        if rules.in_folder(folder)(part, True):
            return Ignores()  # an ignored folder named on the command line
        folder = os.path.join(folder, part)
        if index < len(parts) - 1:
            rules = rules.with_gitignore(folder)
    return rules


class Walk:
    """The ignore rules of a walk from the folder `top`, folder by folder: what `discover` leaves
    out of it. `rules_in(folder, has_gitignore)` serves a walk that lists each folder anyway;
    `leaves_out(path)` asks of one path under `top` (e.g. a file at an older commit)."""

    __slots__ = ("top", "_rules")

    def __init__(self, top: str):
        self.top = os.path.abspath(top)
        self._rules: dict[str, tuple[Ignores, Callable[[str, bool], bool]]] = {}

    def rules_in(self, folder: str, has_gitignore: bool | None = None) -> Callable[[str, bool], bool]:
        """`ignored(name, is_dir)` for the entries of `folder` (top or a folder under it that the walk
        entered); `has_gitignore` when the caller has listed the folder (None: look)."""
        folder = os.path.abspath(folder)
        known = self._rules.get(folder)
        if known is not None:
            return known[1]
        if folder == self.top:
            inherited = outer_rules(folder)
        elif os.path.dirname(folder) == folder:  # pragma: no cover - not under top: no rules of the walk
            inherited = Ignores()
        else:
            parent = os.path.dirname(folder)
            self.rules_in(parent)
            inherited = self._rules[parent][0]
        if has_gitignore is None:
            has_gitignore = os.path.isfile(os.path.join(folder, GITIGNORE))
        rules = inherited.with_gitignore(folder) if has_gitignore else inherited
        self._rules[folder] = (rules, rules.in_folder(folder))
        return self._rules[folder][1]

    def leaves_out(self, path: str) -> bool:
        """Whether the file `path` (under top, relative to it) is ignored, or in an ignored folder."""
        parts = os.path.normpath(path).split(os.sep)
        folder = self.top
        for part in parts[:-1]:
            if self.rules_in(folder)(part, True):
                return True
            folder = os.path.join(folder, part)
        return self.rules_in(folder)(parts[-1], False)


def _read_small(path: str, limit: int = MAX_IGNORE_BYTES) -> str | None:
    """The text of the regular file `path` (its first `limit` bytes), or None when there is
    none. A FIFO or device is not opened for reading (O_NONBLOCK, then fstat)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.read(fd, limit)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data.decode("utf-8", "surrogateescape")  # as os.walk spells undecodable names


def _read_spec(path: str):
    """The patterns of an ignore file as a pathspec GitIgnoreSpec, or None (no file, no pattern).
    A line pathspec refuses is passed over, as git passes over a pattern it cannot use."""
    text = _read_small(path)
    if text is None:
        return None
    import pathspec

    lines = text.splitlines()
    try:
        spec = pathspec.GitIgnoreSpec.from_lines(lines)
    except ValueError:  # GitWildMatchPatternError: keep the lines that parse
        kept = []
        for line in lines:
            try:
                pathspec.GitIgnoreSpec.from_lines([line])
            except ValueError:
                continue
            kept.append(line)
        spec = pathspec.GitIgnoreSpec.from_lines(kept)
    return spec if any(p.include is not None for p in spec.patterns) else None


__all__ = ["GITIGNORE", "Ignores", "Walk", "outer_rules", "repository_root"]
