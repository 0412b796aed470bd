"""Contract overlays: our contract fields for the tools of a provider file, kept beside it.

```yaml
# tools.contract.yaml, next to tools.json
toolcontract: 1
overlay: tools.json          # optional: the provider file, relative to this one
tools:
  get_weather:               # a tool name in tools.json
    version: 1.0.0
    purpose: Report the current weather at one place.
    non_goals: [Does not forecast.]
    effect: read
```

An overlay gives contract fields only (OVERLAY_FIELDS). What the model and the
client see — name, title, description, input schema, annotations — stays the
provider file's, so lint checks what is actually served; a field the provider
already gives (MCP `outputSchema`, Anthropic `input_examples`) cannot be given
again. Merged fields keep their positions in the overlay, so a finding about
`effect` points into the overlay file.

Pairing (for the CLI): `X.contract.yaml` (or `.yml`) belongs to `X.json`, `X.yaml`
or `X.yml` in the same folder, unless its `overlay:` names another file (a relative
path without `..`), or a configuration maps the provider to an overlay explicitly.
An overlay is linted together with its provider file, never on its own: met alone,
it is one finding. Entries naming no tool of the provider are findings too; entries
are matched by exact name. Extension fields (`x-...`) are allowed and not merged.
An entry's `ignore: [TC403]` suppresses those codes' findings on that one tool (OVERLAY_ONLY).
"""

from __future__ import annotations

import functools
import os
import stat
from typing import Any, Iterable, Mapping

from toolcontract.core.descriptor import ToolView
from toolcontract.io.document import DEFAULT_LIMITS, Document, Limits, LoadError, load_bytes
from toolcontract.core.pointer import join_pointer, split_pointer

OVERLAY_FIELDS = (
    "version", "purpose", "when_to_use", "non_goals", "effect", "limitations", "output_schema", "target",
    "semantic_rules", "approval", "observation", "examples",
)
# what an entry may hold that no descriptor does: `ignore`, the codes not reported on this tool (an
# inline suppression for a JSON file, which has no comments; see lint.suppression.overlay_suppressions)
OVERLAY_ONLY = ("ignore",)
PROVIDER_FIELDS = ("name", "title", "description", "input_schema", "annotations")
OVERLAY_SUFFIXES = (".contract.yaml", ".contract.yml")
PROVIDER_SUFFIXES = (".json", ".yaml", ".yml")


def is_overlay(data: Any, path: str | None = None) -> bool:
    """An overlay document: `toolcontract:` with `overlay:`, or with `tools:` keyed by name in a
    file named like an overlay (elsewhere, `tools:` as a mapping is a native file's mistake)."""
    if not isinstance(data, dict) or "toolcontract" not in data:
        return False
    if "overlay" in data:
        return True
    return isinstance(data.get("tools"), dict) and (path is None or is_overlay_path(path))


def is_overlay_path(path: str) -> bool:
    return path.lower().endswith(OVERLAY_SUFFIXES)


def _stem(overlay_path: str) -> str:
    base = os.path.basename(overlay_path)
    lowered = base.lower()
    for suffix in OVERLAY_SUFFIXES:
        if lowered.endswith(suffix):
            return base[: -len(suffix)]
    return base


def named_provider(overlay_path: str, data: Any) -> tuple[str | None, str | None]:
    """(provider path named by `overlay:`, or None; a problem with the value, or None)."""
    named = data.get("overlay") if isinstance(data, dict) else None
    if not isinstance(named, str) or not named:
        return None, None
    parts = named.replace("\\", "/").split("/")
    if os.path.isabs(named) or named.startswith(("/", "\\")) or ".." in parts:
        return None, f"`overlay` must be a path relative to the overlay's folder, without `..`: {named!r}"
    return os.path.normpath(os.path.join(os.path.dirname(overlay_path), named)), None


def default_providers(overlay_path: str) -> list[str]:
    """Where the provider of `X.contract.yaml` is looked for: X.json, X.yaml, X.yml beside it."""
    folder, stem = os.path.dirname(overlay_path), _stem(overlay_path)
    return [os.path.join(folder, stem + suffix) for suffix in PROVIDER_SUFFIXES]


def default_overlays(provider_path: str) -> list[str]:
    """Where the overlay of `X.json` is looked for: X.contract.yaml, X.contract.yml beside it."""
    folder, base = os.path.split(provider_path)
    stem = os.path.splitext(base)[0]
    return [os.path.join(folder, stem + suffix) for suffix in OVERLAY_SUFFIXES]


# ---------------------------------------------------------------- standalone


def standalone_problem(document: Document) -> tuple[str, str]:
    """The one finding for an overlay met without its provider file: (pointer, message)."""
    named, bad = named_provider(document.path, document.data)
    if bad:
        return "/overlay", bad
    if named is not None:
        candidates, pointer = [named], "/overlay"
    elif is_overlay_path(document.path):
        candidates, pointer = default_providers(document.path), ""
    else:
        return "", ("contract overlay without a provider file: name it in `overlay:`, or call the overlay "
                    "X.contract.yaml next to X.json")
    present = [c for c in candidates if os.path.isfile(c)]
    if present:
        return pointer, (f"contract overlay for {os.path.basename(present[0])!r}, which was not linted with it: "
                         "lint the provider file (its overlay is found next to it); one overlay per provider file")
    where = " or ".join(repr(os.path.basename(c)) for c in candidates)
    return pointer, (f"contract overlay without its provider file: {where} is not there, and an overlay is linted "
                     "together with the tool list it applies to")


# ---------------------------------------------------------------- merging


@functools.cache
def _validator():
    from toolcontract.core.schema.validation import compile_validator
    from toolcontract.core.schema.bundled import load_schema

    return compile_validator(load_schema("overlay.schema.json"))


def _structure(overlay: Document) -> Iterable[tuple[str, str, str]]:
    """Problems of the overlay's own shape (schemas/overlay.schema.json), as (pointer, message, anchor)."""
    data = overlay.data
    if not isinstance(data, dict):
        yield "", "expected a contract overlay (`toolcontract: 1`, `tools:` keyed by tool name)", "value"
        return
    for error in _validator().iter_errors(data):
        path = tuple(error.instance_path)
        kind = type(error.kind).__name__.rsplit("_", 1)[-1]
        if kind == "Enum" and len(path) == 3 and path[2] == "effect":
            continue  # TC301 reports it, at the same place, with the list of classes
        if kind == "AdditionalProperties":
            for name in error.kind.unexpected:
                yield join_pointer("", *path, name), _unknown(name, entry=len(path) == 2), "key"
            continue
        if kind == "Required":
            yield join_pointer("", *path), f"missing required field {error.kind.property!r}", "value"
            continue
        if kind == "Constant" and path == ("toolcontract",):
            yield "/toolcontract", f"`toolcontract` must be 1 (the format version), found {error.instance!r}", "auto"
            continue
        if kind == "Pattern" and path == ("overlay",):
            yield "/overlay", f"`overlay` must name a .json, .yaml or .yml file, found {error.instance!r}", "auto"
            continue
        if kind == "Type" and path == ("tools",):
            yield "/tools", "`tools` must map tool names to their contract fields (name: {effect: ..., ...})", "key"
            continue
        yield join_pointer("", *path), error.message, "auto"


def _unknown(name: str, entry: bool) -> str:
    if not entry:
        return f"unknown field {name!r} (an overlay has `toolcontract`, `overlay` and `tools`; extensions start with `x-`)"
    if name in PROVIDER_FIELDS or name in ("inputSchema", "parameters", "parametersJsonSchema", "input_examples",
                                           "outputSchema"):
        return (f"{name!r} is the provider file's own: an overlay adds contract fields only "
                f"({', '.join(OVERLAY_FIELDS)})")
    import difflib

    close = difflib.get_close_matches(name, OVERLAY_FIELDS, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else " (extension fields start with `x-`)"
    return f"unknown field {name!r}{hint}"


def apply_overlay(tools: list[ToolView], provider: Document, overlay: Document) -> list:
    """Merge an overlay into the tools read from `provider`, in place; return its problems
    (`reader.Problem`s, in the overlay)."""
    from toolcontract.io.reader import Problem

    problems = [Problem(overlay, pointer, message, anchor) for pointer, message, anchor in _structure(overlay)]
    data = overlay.data
    if not isinstance(data, dict):
        return problems
    named, _ = named_provider(overlay.path, data)
    if named is not None and named.lower().endswith(PROVIDER_SUFFIXES) and _differs(named, provider.path):
        problems.append(Problem(overlay, "/overlay", f"this overlay names {data['overlay']!r} but was applied to "
                                                     f"{os.path.basename(provider.path)!r}"))
    entries = data.get("tools")
    if not isinstance(entries, dict):
        return problems
    by_name: dict[str, list[ToolView]] = {}
    for tool in tools:
        if tool.name is not None:
            by_name.setdefault(tool.name, []).append(tool)
    provider_name = os.path.basename(provider.path)
    for tool in tools:
        tool.contracts = "listed"
    for name, entry in entries.items():
        entry_pointer = join_pointer("/tools", name)
        matches = by_name.get(name)
        if not matches:
            import difflib

            close = difflib.get_close_matches(name, list(by_name), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            problems.append(Problem(overlay, entry_pointer,
                                    f"overlay entry {name!r} names no tool in {provider_name}{hint}", "key"))
            continue
        if not isinstance(entry, dict):
            continue  # the structure check reports it
        for tool in matches:
            tool.contracts = "entry"
        for field, value in entry.items():
            if field not in OVERLAY_FIELDS:
                continue  # x- extensions are kept out; unknown fields are reported above
            pointer = join_pointer(entry_pointer, field)
            for tool in matches:
                if field in tool.data:
                    source = tool.sources.get(field)  # the provider's own name for the field
                    given = split_pointer(source[1])[-1] if source and source[1] else field
                    problems.append(Problem(overlay, pointer, f"tool {name!r} already gives `{given}` in "
                                                              f"{provider_name}: an overlay cannot replace it", "key"))
                    continue
                tool.data[field] = value
                tool.sources[field] = (overlay, pointer)
    return problems


def _differs(a: str, b: str) -> bool:
    return os.path.normcase(os.path.abspath(a)) != os.path.normcase(os.path.abspath(b))


# ---------------------------------------------------------------- pairing (CLI)


def read_limited(path: str, max_bytes: int) -> bytes | LoadError:
    """A file's bytes, or the LoadError that stands for it (too large, unreadable)."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            return LoadError("not a regular file")
        if info.st_size > max_bytes:
            return LoadError(f"file is {info.st_size:,} bytes, over the {max_bytes:,}-byte limit")
        with open(path, "rb") as handle:
            return handle.read(max_bytes + 1)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        return LoadError(f"cannot read: {getattr(exc, 'strerror', None) or exc}")


def _load_overlay(content: bytes | LoadError, path: str, limits: Limits) -> tuple[str, Any]:
    """("overlay", data), ("error", None) when it does not load, ("other", data) when it is no overlay."""
    if isinstance(content, LoadError):
        return "error", None
    try:
        data = load_bytes(content, path, limits).data
    except LoadError:
        return "error", None
    return ("overlay" if is_overlay(data, path) else "other"), data


class _Listing:
    """File names per folder, listed once: a lookup per linted file instead of a stat."""

    def __init__(self) -> None:
        self.cache: dict[str, tuple[frozenset[str], bool]] = {}  # folder -> (names, any overlay among them)

    def _names(self, folder: str) -> tuple[frozenset[str], bool]:
        entry = self.cache.get(folder)
        if entry is None:
            try:
                names = frozenset(os.listdir(folder or "."))
            except (OSError, ValueError):  # ValueError: a NUL in the path
                names = frozenset()
            entry = (names, any(is_overlay_path(name) for name in names))
            self.cache[folder] = entry
        return entry

    def exists(self, path: str) -> bool:
        folder, name = os.path.split(path)
        return name in self._names(folder)[0]

    def has_overlays(self, path: str) -> bool:
        """Whether the folder of `path` holds any file named like an overlay."""
        return self._names(os.path.dirname(path))[1]


def pair_overlays(
    files: list[tuple[str, bytes | LoadError]],
    limits: Limits = DEFAULT_LIMITS,
    named: Mapping[str, str] | None = None,
) -> tuple[list[tuple[str, bytes | LoadError]], dict[str, tuple[str, bytes | LoadError]]]:
    """Split the files to lint into tool files and overlays: (files, {provider path: (overlay path, content)}).

    An overlay in the set is paired with its provider file, which is read too when it
    was not named; one whose provider is not there stays in the set and is reported
    (see `standalone_problem`). A tool file in the set gets the overlay beside it.
    `named` maps provider files to overlay files explicitly (a configuration's
    `overlays`, paths usable from the working directory); it comes before the naming
    convention. Folders without overlay files cost one listing each, nothing per file.
    """
    listing = _Listing()
    if not named and not any(path != "<stdin>" and (is_overlay_path(path) or listing.has_overlays(path))
                             for path, _ in files):
        return files, {}
    cwd = os.getcwd()

    def absolute(path: str) -> str:
        return os.path.normpath(os.path.join(cwd, path))

    given = {absolute(path): path for path, _ in files if path != "<stdin>"}
    chosen = {absolute(provider): overlay for provider, overlay in (named or {}).items()}
    chosen_by_overlay = {absolute(overlay): provider for provider, overlay in (named or {}).items()}
    overlays: dict[str, tuple[str, bytes | LoadError]] = {}
    kept: list[tuple[str, bytes | LoadError]] = []
    added: list[tuple[str, bytes | LoadError]] = []
    used: set[str] = set()  # absolute paths of overlays paired with a provider

    def pair(provider: str, overlay_path: str, content: bytes | LoadError) -> None:
        overlays[provider] = (overlay_path, content)
        used.add(absolute(overlay_path))
        if absolute(provider) not in given:
            given[absolute(provider)] = provider
            added.append((provider, read_limited(provider, limits.max_bytes)))

    for path, content in files:
        where = absolute(path) if path != "<stdin>" else None
        if where in chosen_by_overlay:
            provider = chosen_by_overlay[where]
            provider = given.get(absolute(provider), provider)
            if provider not in overlays and (absolute(provider) in given or os.path.isfile(provider)):
                pair(provider, path, content)
                continue
        elif where is not None and is_overlay_path(path):
            status, data = _load_overlay(content, path, limits)
            if status == "overlay":
                provider = _provider_of(path, data, given, listing)
                if provider is not None and provider not in overlays \
                        and absolute(provider) not in chosen:
                    pair(provider, path, content)
                    continue
        kept.append((path, content))
    for path, _ in kept:
        if path == "<stdin>" or path in overlays:
            continue
        where = absolute(path)
        if where in chosen:
            overlay_path = chosen[where]
            if absolute(overlay_path) not in used:
                pair(path, overlay_path, read_limited(overlay_path, limits.max_bytes))
            continue
        if is_overlay_path(path) or not listing.has_overlays(path):
            continue
        for candidate in default_overlays(path):
            where = absolute(candidate)
            if where in used or where in given or not listing.exists(candidate):
                continue  # one in the set was paired above, or is linted on its own
            content = read_limited(candidate, limits.max_bytes)
            status, data = _load_overlay(content, candidate, limits)
            if status == "other":
                continue
            if status == "overlay":
                provider, _ = named_provider(candidate, data)
                if provider is not None and _differs(provider, path):
                    continue  # it belongs to another file
            pair(path, candidate, content)  # a broken one too: lint reports it (TC000)
            break
    return kept + added, overlays


def _provider_of(overlay_path: str, data: Any, given: dict[str, str], listing: _Listing) -> str | None:
    """The provider file of an overlay: as named in the set, else a path on disk; None when absent."""
    named, bad = named_provider(overlay_path, data)
    if bad:
        return None
    candidates = [named] if named is not None else default_providers(overlay_path)
    for candidate in candidates:
        where = os.path.abspath(candidate)
        if where in given:
            return given[where]
    for candidate in candidates:
        if listing.exists(candidate) and os.path.isfile(candidate):
            return candidate
    return None
