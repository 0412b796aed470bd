"""Compare two sets of tool descriptors and classify every change (pure: no files, no terminal).

Tools are matched by name across the whole set (a tool that moves to another file
is the same tool). Each change to a matched tool is *breaking* or *compatible*:

- breaking: the tool removed; a property removed (a rename is a removal plus an
  addition); a property newly required; a type narrowed; an enum value removed; a
  constraint tightened; `additionalProperties` closed; the effect more
  consequential; approval relaxed; a risk annotation made riskier.
- compatible: an optional property added; an enum value added; a type widened; a
  constraint relaxed; the effect less consequential; approval tightened; any change
  to the text a model reads (descriptions, purpose, examples...).

For `output_schema` the direction flips: what the tool returns may become narrower
(consumers still get what they expected), not wider. Removing a returned property is
breaking both ways. Where a change has no safe direction (a `$ref`, a `pattern` or a
`const` replaced) it is breaking.

Each change also has an *area*: `schema` and `effect` changes alter the contract and
need a version bump; `documentation` changes do not. The version bump between the
two descriptors is classified by SemVer (Cargo's reading of 0.x: in 0.y.z, y is the
major number; in 0.0.z, z is). The rules in `toolcontract.lint.rules.tc7_change` turn
changes and bumps into findings.
"""

from __future__ import annotations

import enum
import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from toolcontract.core.descriptor import ToolView
from toolcontract.core.model import Effect, Finding

_MISSING: Any = object()


class Level(enum.StrEnum):
    BREAKING = "breaking"
    COMPATIBLE = "compatible"


class Area(enum.StrEnum):
    TOOL = "tool"  # the tool itself was added or removed
    SCHEMA = "schema"  # input_schema, output_schema, semantic_rules, target
    EFFECT = "effect"  # effect, approval, risk annotations
    DOCUMENTATION = "documentation"  # text the model reads: needs no version bump

    @property
    def contract(self) -> bool:
        return self in (Area.SCHEMA, Area.EFFECT)


@dataclass(frozen=True, slots=True)
class Change:
    """One classified change. `path` is in native field names in the tool of `side`
    ("new", or "old" for what only the old version has: a removed tool)."""

    level: Level
    area: Area
    kind: str  # kebab-case: property-removed, type-narrowed, ...
    message: str  # says old → new
    path: tuple[str | int, ...] = ()
    side: str = "new"
    anchor: str = "auto"


class Bump(enum.StrEnum):
    """How the version moved from the old descriptor to the new one."""

    NONE = "none"  # the same version (or none on either side)
    PATCH = "patch"
    MINOR = "minor"
    MAJOR = "major"  # or a pre-release, which SemVer lets change anything
    OTHER = "other"  # changed, but not a SemVer increase (lowered, not SemVer, added or dropped)

    @property
    def allows_breaking(self) -> bool:
        return self is Bump.MAJOR

    @property
    def allows_contract_change(self) -> bool:
        """A compatible contract change needs at least a minor bump; an unreadable change is given the benefit."""
        return self in (Bump.MINOR, Bump.MAJOR, Bump.OTHER)


@dataclass
class ToolDiff:
    """One tool name: its old and new descriptor (None when absent) and what changed."""

    name: str
    old: ToolView | None
    new: ToolView | None
    changes: list[Change] = field(default_factory=list)
    bump: Bump = Bump.NONE

    @property
    def old_version(self) -> str | None:
        return version_text(self.old.get("version")) if self.old is not None else None

    @property
    def new_version(self) -> str | None:
        return version_text(self.new.get("version")) if self.new is not None else None

    @property
    def level(self) -> Level | None:
        """The tool's classification: breaking, compatible, or None (no change)."""
        if any(c.level is Level.BREAKING for c in self.changes):
            return Level.BREAKING
        return Level.COMPATIBLE if self.changes else None

    def version_move(self) -> str:
        """`1.2.0 → 1.3.0`, `1.2.0 unchanged`, `no version`."""
        old, new = self.old_version, self.new_version
        if old is None and new is None:
            return "no version"
        if old == new:
            return f"version {old} unchanged"
        return f"version {old if old is not None else 'absent'} → {new if new is not None else 'absent'}"


# ----------------------------------------------------------------- versions

_SEMVER = re.compile(
    r"v?(?P<major>0|[1-9]\d*)(?:\.(?P<minor>0|[1-9]\d*))?(?:\.(?P<patch>0|[1-9]\d*))?"
    r"(?:-(?P<pre>[0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?\Z"
)


def version_text(value: Any) -> str | None:
    """A descriptor's version as text (YAML may read `1.2` as a number); None when absent."""
    if value is None:
        return None
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def parse_version(text: str | None) -> tuple[int, int, int, str | None] | None:
    if text is None:
        return None
    text = text.strip()
    match = _SEMVER.match(text)
    if match is None or ((match["minor"] is None or match["patch"] is None) and ("-" in text or "+" in text)):
        return None  # a pre-release or build part only after all three numbers: `2024-05` is a date
    return (int(match["major"]), int(match["minor"] or 0), int(match["patch"] or 0), match["pre"])


def _pre_key(pre: str | None) -> tuple:
    """SemVer precedence of a pre-release: none sorts above any; numeric ids below alphanumeric."""
    if pre is None:
        return (1,)
    return (0, *((0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre.split(".")))


def version_bump(old: Any, new: Any) -> Bump:
    old_text, new_text = version_text(old), version_text(new)
    if old_text == new_text:
        return Bump.NONE
    a, b = parse_version(old_text), parse_version(new_text)
    if a is None or b is None:
        return Bump.OTHER
    old_key, new_key = (*a[:3], _pre_key(a[3])), (*b[:3], _pre_key(b[3]))
    if new_key == old_key:
        return Bump.NONE  # the same version spelled differently (`v1.2.0`, build metadata)
    if new_key < old_key:
        return Bump.OTHER
    if b[3] is not None:
        return Bump.MAJOR  # a pre-release promises nothing
    if a[:3] == b[:3]:
        return Bump.MAJOR  # 2.0.0-rc.1 → 2.0.0: the release of a pre-release that could change anything
    if b[0] != a[0]:
        return Bump.MAJOR
    if a[0] == 0:  # Cargo's reading of 0.x: 0.y.z is major.minor, 0.0.z is major
        if b[1] != a[1] or a[1] == 0:
            return Bump.MAJOR
        return Bump.MINOR
    return Bump.MINOR if b[1] != a[1] else Bump.PATCH


# ------------------------------------------------------------------ display


def show(value: Any, limit: int = 60) -> str:
    """A value in a message: compact JSON, cut at `limit` characters; `absent` for a missing one."""
    if value is _MISSING:
        return "absent"
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(", ", ": "), default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def show_text_change(old: Any, new: Any, width: int = 48) -> str:
    """`'…old text…' → '…new text…'`, both cut around where they first differ."""
    if not (isinstance(old, str) and isinstance(new, str)):
        return f"{show(old)} → {show(new)}"
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    begin = max(0, start - width // 3)

    def cut(text: str) -> str:
        piece = text[begin: begin + width]
        return json.dumps(("…" if begin else "") + piece + ("…" if begin + width < len(text) else ""),
                          ensure_ascii=False)

    return f"{cut(old)} → {cut(new)}"


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON, or both absent."""
    if a is _MISSING or b is _MISSING:
        return a is b
    return _canonical(a) == _canonical(b)


# ------------------------------------------------------------------- schemas

# keywords that only document (no effect on what validates)
_DOC_KEYWORDS = frozenset({"title", "description", "examples", "$comment", "deprecated", "readOnly", "writeOnly"})
_LOWER_BOUNDS = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains")
_UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains")
_RESTRICTIONS = ("pattern", "format", "contentEncoding", "contentMediaType", "propertyNames", "contains",
                 "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "dependencies",
                 "unevaluatedItems", "$ref", "$dynamicRef", "$schema")
_HANDLED = frozenset({
    "type", "enum", "const", "required", "properties", "additionalProperties", "unevaluatedProperties",
    "patternProperties", "items", "prefixItems", "additionalItems", "anyOf", "oneOf", "allOf", "$defs",
    "definitions", "default", "uniqueItems", "multipleOf", "nullable", *_DOC_KEYWORDS, *_LOWER_BOUNDS,
    *_UPPER_BOUNDS, *_RESTRICTIONS,
})
_TYPES = ("array", "boolean", "integer", "null", "number", "object", "string")


@dataclass
class _Schemas:
    """Walks two versions of one schema (input or output) and collects changes.

    Not core.schema.walk: this walks two schemas side by side, pairing each keyword's subschemas
    by name or index (a property removed, a branch added), and what a change means depends on the
    keyword (a narrowed `items` breaks callers, a narrowed `anyOf` branch may not)."""

    root: str  # input_schema | output_schema
    output: bool
    changes: list[Change] = field(default_factory=list)

    # -- recording

    def _add(self, level: Level, kind: str, message: str, path: tuple, area: Area = Area.SCHEMA,
             anchor: str = "auto") -> None:
        self.changes.append(Change(level, area, kind, message, path, "new", anchor))

    def narrowed(self, kind: str, message: str, path: tuple, anchor: str = "auto") -> None:
        """Accepts less than before: breaks callers (input), not consumers (output)."""
        self._add(Level.COMPATIBLE if self.output else Level.BREAKING, kind, message, path, anchor=anchor)

    def widened(self, kind: str, message: str, path: tuple, anchor: str = "auto") -> None:
        """Accepts more than before: fine for callers (input), not for consumers (output)."""
        self._add(Level.BREAKING if self.output else Level.COMPATIBLE, kind, message, path, anchor=anchor)

    def breaking(self, kind: str, message: str, path: tuple, anchor: str = "auto") -> None:
        self._add(Level.BREAKING, kind, message, path, anchor=anchor)

    def compatible(self, kind: str, message: str, path: tuple, area: Area = Area.SCHEMA, anchor: str = "auto") -> None:
        self._add(Level.COMPATIBLE, kind, message, path, area, anchor)

    def subject(self, label: str) -> str:
        return f"{self.root} '{label}'" if label else self.root

    # -- walking

    def compare(self, old: Any, new: Any, path: tuple, label: str) -> None:
        if _canonical(old) == _canonical(new):
            return
        subject = self.subject(label)
        if not isinstance(old, dict) or not isinstance(new, dict):
            if old is True or old == {}:  # accepted anything
                self.narrowed("schema-narrowed", f"{subject}: schema narrowed: {show(old)} → {show(new)}", path)
            elif new is True or new == {}:
                self.widened("schema-widened", f"{subject}: schema widened: {show(old)} → {show(new)}", path)
            else:
                self.breaking("schema-replaced", f"{subject}: schema replaced: {show(old)} → {show(new)}", path)
            return
        self._type(old, new, path, subject)
        self._enum(old, new, path, subject)
        self._const(old, new, path, subject)
        self._bounds(old, new, path, subject)
        self._restrictions(old, new, path, subject)
        self._object(old, new, path, label)
        self._array(old, new, path, label)
        self._combinators(old, new, path, label)
        self._definitions(old, new, path, label)
        self._default(old, new, path, subject)
        self._documentation(old, new, path, subject)
        self._others(old, new, path, subject)

    def _type(self, old: dict, new: dict, path: tuple, subject: str) -> None:
        a, b = _types(old), _types(new)
        if a == b:
            return
        where = (*path, "type")
        def message(verb: str) -> str:  # not str.format: shown values may hold braces
            return f"{subject}: type {verb}: {show(old.get('type', _MISSING))} → {show(new.get('type', _MISSING))}"

        old_in_new = b is None or (a is not None and all(_covered(t, b) for t in a))
        new_in_old = a is None or (b is not None and all(_covered(t, a) for t in b))
        if old_in_new and new_in_old:
            return  # the same types spelled differently (["number", "integer"] is "number")
        if old_in_new:
            self.widened("type-widened", message("widened"), where)
        elif new_in_old:
            self.narrowed("type-narrowed", message("narrowed"), where)
        else:
            self.breaking("type-changed", message("changed"), where)

    def _enum(self, old: dict, new: dict, path: tuple, subject: str) -> None:
        a, b = old.get("enum", _MISSING), new.get("enum", _MISSING)
        if _same(a, b):
            return
        where = (*path, "enum")
        if a is _MISSING:
            self.narrowed("enum-added", f"{subject}: values restricted to enum {show(b)}", where)
            return
        if b is _MISSING:
            self.widened("enum-removed", f"{subject}: enum {show(a)} dropped, any value allowed", where, anchor="key")
            return
        if not isinstance(a, list) or not isinstance(b, list):
            self.breaking("enum-changed", f"{subject}: enum changed: {show(a)} → {show(b)}", where)
            return
        old_keys, new_keys = {_canonical(v) for v in a}, {_canonical(v) for v in b}
        removed = [v for v in a if _canonical(v) not in new_keys]
        added = [v for v in b if _canonical(v) not in old_keys]
        if removed:
            values = ", ".join(show(v) for v in removed)
            self.narrowed("enum-value-removed", f"{subject}: enum value{'s' * (len(removed) > 1)} {values} removed: "
                          f"{show(a)} → {show(b)}", where)
        if added:
            values = ", ".join(show(v) for v in added)
            self.widened("enum-value-added", f"{subject}: enum value{'s' * (len(added) > 1)} {values} added: "
                         f"{show(a)} → {show(b)}", where)

    def _const(self, old: dict, new: dict, path: tuple, subject: str) -> None:
        a, b = old.get("const", _MISSING), new.get("const", _MISSING)
        if _same(a, b):
            return
        where = (*path, "const")
        if a is _MISSING:
            self.narrowed("const-added", f"{subject}: value fixed to {show(b)}", where)
        elif b is _MISSING:
            self.widened("const-removed", f"{subject}: const {show(a)} dropped", where)
        else:
            self.breaking("const-changed", f"{subject}: const changed: {show(a)} → {show(b)}", where)

    def _bounds(self, old: dict, new: dict, path: tuple, subject: str) -> None:
        for keyword, lower in [(k, True) for k in _LOWER_BOUNDS] + [(k, False) for k in _UPPER_BOUNDS]:
            a, b = old.get(keyword, _MISSING), new.get(keyword, _MISSING)
            if _same(a, b):
                continue
            where = (*path, keyword)
            def message(verb: str) -> str:
                return f"{subject}: {keyword} {verb}: {show(a)} → {show(b)}"

            if a is _MISSING:
                self.narrowed("constraint-tightened", message("added"), where)
            elif b is _MISSING:
                self.widened("constraint-relaxed", message("removed"), where)
            elif _number(a) and _number(b):
                tighter = b > a if lower else b < a
                if tighter:
                    self.narrowed("constraint-tightened", message("tightened"), where)
                else:
                    self.widened("constraint-relaxed", message("relaxed"), where)
            else:  # draft-4 boolean exclusiveMinimum and the like
                self.breaking("constraint-changed", message("changed"), where)
        a, b = old.get("multipleOf", _MISSING), new.get("multipleOf", _MISSING)
        if not _same(a, b):
            where = (*path, "multipleOf")
            def message(verb: str) -> str:
                return f"{subject}: multipleOf {verb}: {show(a)} → {show(b)}"

            if a is _MISSING:
                self.narrowed("constraint-tightened", message("added"), where)
            elif b is _MISSING:
                self.widened("constraint-relaxed", message("removed"), where)
            elif _number(a) and _number(b) and a and b and (b / a).is_integer():
                self.narrowed("constraint-tightened", message("tightened"), where)
            elif _number(a) and _number(b) and a and b and (a / b).is_integer():
                self.widened("constraint-relaxed", message("relaxed"), where)
            else:
                self.breaking("constraint-changed", message("changed"), where)
        a, b = old.get("uniqueItems") is True, new.get("uniqueItems") is True
        if a != b:
            where = (*path, "uniqueItems")
            if b:
                self.narrowed("constraint-tightened", f"{subject}: items must now be unique", where)
            else:
                self.widened("constraint-relaxed", f"{subject}: items need no longer be unique", where)
        a, b = old.get("nullable") is True, new.get("nullable") is True
        if a != b:
            where = (*path, "nullable")
            if b:
                self.widened("type-widened", f"{subject}: now nullable", where)
            else:
                self.narrowed("type-narrowed", f"{subject}: no longer nullable", where)

    def _restrictions(self, old: dict, new: dict, path: tuple, subject: str) -> None:
        for keyword in _RESTRICTIONS:
            a, b = old.get(keyword, _MISSING), new.get(keyword, _MISSING)
            if _same(a, b):
                continue
            where = (*path, keyword)
            if keyword in ("$ref", "$dynamicRef", "$schema"):  # no direction to tell: another schema altogether
                self.breaking("reference-changed", f"{subject}: {keyword} changed: {show(a)} → {show(b)}", where)
            elif a is _MISSING:
                self.narrowed("constraint-tightened", f"{subject}: {keyword} added: {show(b)}", where)
            elif b is _MISSING:
                self.widened("constraint-relaxed", f"{subject}: {keyword} removed (was {show(a)})", where)
            else:
                self.breaking("constraint-changed", f"{subject}: {keyword} changed: {show(a)} → {show(b)}", where)

    def _object(self, old: dict, new: dict, path: tuple, label: str) -> None:
        subject = self.subject(label)
        old_props = old.get("properties") if isinstance(old.get("properties"), dict) else {}
        new_props = new.get("properties") if isinstance(new.get("properties"), dict) else {}
        old_required = _names(old.get("required"))
        new_required = _names(new.get("required"))
        new_required_list = new.get("required") if isinstance(new.get("required"), list) else []
        parent = (*path, "properties") if "properties" in new else path

        for name, schema in old_props.items():
            if name not in new_props:
                self.breaking("property-removed", f"{self.root}: property '{_join(label, name)}' removed "
                              f"(was {show(_brief(schema), 40)})", parent, anchor="key")
        for name in new_props:
            if name in old_props:
                continue
            at = (*path, "properties", name)
            if name in new_required and name not in old_required:
                if self.output:
                    self.compatible("property-added", f"{self.root}: property '{_join(label, name)}' added", at)
                else:
                    self.breaking("required-property-added", f"{self.root}: required property '{_join(label, name)}' "
                                  "added: callers that do not send it are refused", at)
            else:
                self.compatible("property-added", f"{self.root}: optional property '{_join(label, name)}' added", at)
        for name in sorted(new_required - old_required, key=_position_in(new_required_list)):
            if name in new_props and name not in old_props:
                continue  # reported with the property
            at = (*path, "required", _position_in(new_required_list)(name))
            if self.output:
                self.compatible("newly-required", f"{self.root}: '{_join(label, name)}' is now always returned", at,
                                anchor="value")
            else:
                self.breaking("newly-required", f"{self.root}: '{_join(label, name)}' is newly required: optional → "
                              "required", at, anchor="value")
        for name in sorted(old_required - new_required):
            if name in old_props and name not in new_props:
                continue  # reported as removed
            at = (*path, "required") if "required" in new else (*path, "properties", name)
            if self.output:
                self.breaking("no-longer-required", f"{self.root}: '{_join(label, name)}' is no longer always "
                              "returned: required → optional", at, anchor="key")
            else:
                self.compatible("no-longer-required", f"{self.root}: '{_join(label, name)}' is no longer required: "
                                "required → optional", at, anchor="key")
        for name in old_props:
            if name in new_props:
                self.compare(old_props[name], new_props[name], (*path, "properties", name), _join(label, name))

        for keyword in ("additionalProperties", "unevaluatedProperties"):
            self._additional(old, new, path, subject, label, keyword)

        old_patterns = old.get("patternProperties") if isinstance(old.get("patternProperties"), dict) else {}
        new_patterns = new.get("patternProperties") if isinstance(new.get("patternProperties"), dict) else {}
        for pattern in old_patterns:
            if pattern not in new_patterns:
                self.narrowed("pattern-property-removed", f"{subject}: patternProperties {show(pattern)} removed",
                              (*path, "patternProperties") if "patternProperties" in new else path, anchor="key")
            else:
                self.compare(old_patterns[pattern], new_patterns[pattern], (*path, "patternProperties", pattern),
                             _join(label, f"/{pattern}/"))
        for pattern in new_patterns:
            if pattern not in old_patterns:
                self.widened("pattern-property-added", f"{subject}: patternProperties {show(pattern)} added",
                             (*path, "patternProperties", pattern))

    def _additional(self, old: dict, new: dict, path: tuple, subject: str, label: str, keyword: str) -> None:
        a, b = old.get(keyword, _MISSING), new.get(keyword, _MISSING)
        open_a, open_b = a is _MISSING or a is True or a == {}, b is _MISSING or b is True or b == {}
        if open_a and open_b:
            return
        where = (*path, keyword)
        def message(verb: str) -> str:
            return f"{subject}: {keyword} {verb}: {show(a)} → {show(b)}"

        if b is False and a is not False:
            # closing an output object only promises less: consumers that ignore unknown members are unaffected
            self.narrowed("additional-properties-closed", message("closed"), where)
        elif a is False and b is not False:
            # opening an output object is fine by the common convention that consumers ignore unknown members
            self.compatible("additional-properties-opened", message("opened"),
                            where if b is not _MISSING else path)
        elif open_a:
            self.narrowed("additional-properties-restricted", message("restricted"), where)
        elif open_b:  # as opening: consumers are expected to ignore what they do not know
            self.compatible("additional-properties-relaxed", message("relaxed"),
                            where if b is not _MISSING else path)
        elif isinstance(a, dict) and isinstance(b, dict):
            self.compare(a, b, where, _join(label, "*"))

    def _array(self, old: dict, new: dict, path: tuple, label: str) -> None:
        subject = self.subject(label)
        a, b = old.get("items", _MISSING), new.get("items", _MISSING)
        if a is not _MISSING or b is not _MISSING:
            where = (*path, "items")
            if a is _MISSING:
                self.narrowed("items-restricted", f"{subject}: items restricted to {show(b)}", where)
            elif b is _MISSING:
                self.widened("items-relaxed", f"{subject}: items no longer restricted (was {show(a)})", path)
            elif isinstance(a, list) and isinstance(b, list):  # draft-4 tuples
                self._tuple(a, b, where, label, "items")
            else:
                self.compare(a, b, where, f"{label}[]" if label else "[]")
        a, b = old.get("prefixItems", _MISSING), new.get("prefixItems", _MISSING)
        if a is not _MISSING or b is not _MISSING:
            if isinstance(a, list) and isinstance(b, list):
                self._tuple(a, b, (*path, "prefixItems"), label, "prefixItems")
            elif not _same(a, b):
                self.breaking("items-changed", f"{subject}: prefixItems changed: {show(a)} → {show(b)}",
                              (*path, "prefixItems") if b is not _MISSING else path)
        a, b = old.get("additionalItems", _MISSING), new.get("additionalItems", _MISSING)
        if not _same(a, b):
            self.breaking("items-changed", f"{subject}: additionalItems changed: {show(a)} → {show(b)}",
                          (*path, "additionalItems") if b is not _MISSING else path)

    def _tuple(self, a: list, b: list, where: tuple, label: str, keyword: str) -> None:
        for index in range(min(len(a), len(b))):
            self.compare(a[index], b[index], (*where, index), f"{label}[{index}]")
        if len(a) != len(b):
            self.breaking("items-changed", f"{self.subject(label)}: {keyword} has {len(b)} positions, had {len(a)}",
                          where)

    def _combinators(self, old: dict, new: dict, path: tuple, label: str) -> None:
        subject = self.subject(label)
        for keyword in ("anyOf", "oneOf", "allOf"):
            a, b = old.get(keyword, _MISSING), new.get(keyword, _MISSING)
            if a is _MISSING and b is _MISSING:
                continue
            where = (*path, keyword)
            if not isinstance(a, list) or not isinstance(b, list):
                if _same(a, b):
                    continue
                if a is _MISSING:
                    self.narrowed("alternatives-restricted", f"{subject}: {keyword} added: {show(b)}", where)
                elif b is _MISSING:
                    self.widened("alternatives-relaxed", f"{subject}: {keyword} removed (was {show(a)})", path)
                else:
                    self.breaking("alternatives-changed", f"{subject}: {keyword} changed: {show(a)} → {show(b)}", where)
                continue
            if len(a) == len(b):
                for index, (x, y) in enumerate(zip(a, b)):
                    self.compare(x, y, (*where, index), f"{label} {keyword}[{index}]".strip())
                continue
            old_keys, new_keys = {_canonical(x) for x in a}, {_canonical(y) for y in b}
            removed = [x for x in a if _canonical(x) not in new_keys]
            added = [y for y in b if _canonical(y) not in old_keys]
            # an allOf member more is a constraint more; an anyOf/oneOf branch more is an alternative more
            less, more = (self.widened, self.narrowed) if keyword == "allOf" else (self.narrowed, self.widened)
            for x in removed:
                less(f"{keyword}-member-removed", f"{subject}: {keyword} member {show(x, 40)} removed", where, "key")
            for y in added:
                more(f"{keyword}-member-added", f"{subject}: {keyword} member {show(y, 40)} added",
                     (*where, b.index(y)))

    def _definitions(self, old: dict, new: dict, path: tuple, label: str) -> None:
        # a definition matters where a $ref uses it; one added or dropped alone changes nothing
        for keyword in ("$defs", "definitions"):
            a, b = old.get(keyword), new.get(keyword)
            if isinstance(a, dict) and isinstance(b, dict):
                for name in a:
                    if name in b:
                        self.compare(a[name], b[name], (*path, keyword, name), f"#/{keyword}/{name}")

    def _default(self, old: dict, new: dict, path: tuple, subject: str) -> None:
        a, b = old.get("default", _MISSING), new.get("default", _MISSING)
        if _same(a, b):
            return
        where = (*path, "default") if b is not _MISSING else path
        def message(verb: str) -> str:
            return f"{subject}: default {verb}: {show(a)} → {show(b)}"

        if a is not _MISSING and b is not _MISSING and not self.output:
            self.breaking("default-changed", message("changed") + ": callers that omit it get another value",
                          where)
        else:
            self.compatible("default-changed", message("added" if a is _MISSING else "removed" if b is _MISSING
                                                             else "changed"), where, Area.DOCUMENTATION)

    def _documentation(self, old: dict, new: dict, path: tuple, subject: str) -> None:
        for keyword in sorted(_DOC_KEYWORDS):
            a, b = old.get(keyword, _MISSING), new.get(keyword, _MISSING)
            if _same(a, b):
                continue
            where = (*path, keyword) if b is not _MISSING else path
            moved = show_text_change(a, b) if a is not _MISSING and b is not _MISSING else f"{show(a)} → {show(b)}"
            self.compatible(f"{keyword.lstrip('$').lower()}-changed", f"{subject}: {keyword} changed: {moved}",
                            where, Area.DOCUMENTATION)

    def _others(self, old: dict, new: dict, path: tuple, subject: str) -> None:
        # keywords this module does not model (vendor extensions, annotations): a change with no known direction
        for keyword in sorted(set(old) | set(new)):
            if keyword in _HANDLED:
                continue
            a, b = old.get(keyword, _MISSING), new.get(keyword, _MISSING)
            if _same(a, b):
                continue
            self.compatible("keyword-changed", f"{subject}: {keyword} changed: {show(a)} → {show(b)}",
                            (*path, keyword) if b is not _MISSING else path)


def _types(schema: dict) -> frozenset[str] | None:
    """The types a schema allows; None for any."""
    value = schema.get("type", _MISSING)
    if value is _MISSING:
        return None
    if isinstance(value, str):
        return frozenset({value})
    if isinstance(value, list):
        return frozenset(v for v in value if isinstance(v, str))
    return None


def _covered(kind: str, types: frozenset[str]) -> bool:
    return kind in types or (kind == "integer" and "number" in types)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _names(value: Any) -> set[str]:
    return {v for v in value if isinstance(v, str)} if isinstance(value, list) else set()


def _position_in(items: list):
    def position(name: str) -> int:
        return items.index(name) if name in items else len(items)

    return position


def _join(label: str, name: str) -> str:
    return f"{label}.{name}" if label else name


def _brief(schema: Any) -> Any:
    """What a removed property was, in a few words: its type, else the schema."""
    if isinstance(schema, dict) and "type" in schema:
        return schema["type"]
    return schema


# ---------------------------------------------------------- tool-level fields

# the order of consequence, least to most (DESIGN §1)
EFFECT_ORDER = (Effect.PURE, Effect.READ, Effect.REVERSIBLE_WRITE, Effect.IRREVERSIBLE_WRITE, Effect.OPEN_WORLD)
# MCP tool annotations: the default when absent, and the value that is riskier
RISK_HINTS = {
    "readOnlyHint": (False, False),
    "destructiveHint": (True, True),
    "idempotentHint": (False, False),
    "openWorldHint": (True, True),
}
DOCUMENTATION_FIELDS = ("title", "description", "purpose", "when_to_use", "non_goals", "limitations",
                        "observation", "examples")


def _approval(data: dict) -> tuple[str, bool]:
    """(effective approval, whether it was written down) — unknown effects count as consequential."""
    value = data.get("approval")
    if value in ("required", "not_required"):
        return value, True
    effect = Effect.of(data.get("effect"))
    return ("required" if effect is None or effect.consequential else "not_required"), False


def compare_tool(old: dict, new: dict) -> list[Change]:
    """Every change from one descriptor's native data to another's."""
    changes: list[Change] = []
    changes += _effect_changes(old, new)
    changes += _approval_changes(old, new)
    changes += _annotation_changes(old, new)
    for root, output in (("input_schema", False), ("output_schema", True)):
        a, b = old.get(root, _MISSING), new.get(root, _MISSING)
        if a is _MISSING and b is _MISSING:
            continue
        if output and (a is _MISSING or b is _MISSING):
            if a is _MISSING:
                changes.append(Change(Level.COMPATIBLE, Area.SCHEMA, "output-schema-added",
                                      "output_schema added: the tool now promises what it returns", (root,)))
            else:
                changes.append(Change(Level.BREAKING, Area.SCHEMA, "output-schema-removed",
                                      "output_schema removed: consumers lose what the tool promised to return", (),
                                      anchor="value"))
            continue
        walker = _Schemas(root, output)
        walker.compare({} if a is _MISSING else a, {} if b is _MISSING else b, (root,), "")
        changes += walker.changes
    changes += _semantic_rule_changes(old, new)
    changes += _target_changes(old, new)
    for name in DOCUMENTATION_FIELDS:
        a, b = old.get(name, _MISSING), new.get(name, _MISSING)
        if _same(a, b):
            continue
        if a is _MISSING:
            message = f"{name} added: {show(b)}"
        elif b is _MISSING:
            message = f"{name} removed (was {show(a)})"
        else:
            message = f"{name} changed: {show_text_change(a, b)}"
        changes.append(Change(Level.COMPATIBLE, Area.DOCUMENTATION, f"{name.replace('_', '-')}-changed", message,
                              (name,) if b is not _MISSING else ()))
    return changes


def _effect_changes(old: dict, new: dict) -> list[Change]:
    a, b = old.get("effect", _MISSING), new.get("effect", _MISSING)
    if _same(a, b):
        return []
    where = ("effect",) if b is not _MISSING else ()
    if a is _MISSING:
        return [Change(Level.COMPATIBLE, Area.EFFECT, "effect-declared", f"effect declared: absent → {show(b)}", where)]
    if b is _MISSING:
        return [Change(Level.BREAKING, Area.EFFECT, "effect-undeclared",
                       f"effect no longer declared: {show(a)} → absent", where, anchor="value")]
    x, y = Effect.of(a), Effect.of(b)
    if x is None or y is None:
        return [Change(Level.BREAKING, Area.EFFECT, "effect-changed", f"effect changed: {show(a)} → {show(b)}", where)]
    if EFFECT_ORDER.index(y) > EFFECT_ORDER.index(x):
        return [Change(Level.BREAKING, Area.EFFECT, "effect-more-consequential",
                       f"effect more consequential: {x.value} → {y.value}", where)]
    return [Change(Level.COMPATIBLE, Area.EFFECT, "effect-less-consequential",
                   f"effect less consequential: {x.value} → {y.value}", where)]


def _approval_changes(old: dict, new: dict) -> list[Change]:
    (a, a_written), (b, b_written) = _approval(old), _approval(new)
    if a == b or not (a_written or b_written):
        return []  # both defaults: the change follows the effect's, which is reported

    def said(value: str, written: bool, data: dict) -> str:
        return value if written else f"{value} (default for effect {show(data.get('effect', _MISSING))})"

    where = ("approval",) if "approval" in new else ("effect",) if "effect" in new else ()
    def message(verb: str) -> str:
        return f"approval {verb}: {said(a, a_written, old)} → {said(b, b_written, new)}"

    if b == "required":
        return [Change(Level.COMPATIBLE, Area.EFFECT, "approval-tightened", message("tightened"), where)]
    old_effect, new_effect = Effect.of(old.get("effect")), Effect.of(new.get("effect"))
    follows_effect = (not a_written and (old_effect is None or old_effect.consequential)
                      and new_effect is not None and not new_effect.consequential)
    if follows_effect:  # the default followed a less consequential effect, reported with the effect
        return []
    return [Change(Level.BREAKING, Area.EFFECT, "approval-relaxed", message("relaxed"), where)]


def _annotation_changes(old: dict, new: dict) -> list[Change]:
    a = old.get("annotations") if isinstance(old.get("annotations"), dict) else {}
    b = new.get("annotations") if isinstance(new.get("annotations"), dict) else {}
    changes = []
    for hint, (default, risky) in RISK_HINTS.items():
        x, y = a.get(hint, default), b.get(hint, default)
        if x == y:
            continue
        where = ("annotations", hint) if hint in b else ("annotations",) if "annotations" in new else ()
        message = f"annotations.{hint}: {show(a.get(hint, _MISSING))} → {show(b.get(hint, _MISSING))}"
        if not isinstance(x, bool) or not isinstance(y, bool):
            changes.append(Change(Level.COMPATIBLE, Area.EFFECT, "annotation-changed", message, where))
        elif y == risky:
            changes.append(Change(Level.BREAKING, Area.EFFECT, "annotation-riskier", message + " (riskier)", where))
        else:
            changes.append(Change(Level.COMPATIBLE, Area.EFFECT, "annotation-safer", message + " (safer)", where))
    for key in sorted((set(a) | set(b)) - set(RISK_HINTS)):
        x, y = a.get(key, _MISSING), b.get(key, _MISSING)
        if _same(x, y):
            continue
        where = ("annotations", key) if key in b else ("annotations",) if "annotations" in new else ()
        changes.append(Change(Level.COMPATIBLE, Area.DOCUMENTATION, "annotation-changed",
                              f"annotations.{key}: {show(x)} → {show(y)}", where))
    return changes


def _semantic_rule_changes(old: dict, new: dict) -> list[Change]:
    def keyed(value: Any) -> dict[str, tuple[int, Any]]:
        found: dict[str, tuple[int, Any]] = {}
        for index, entry in enumerate(value if isinstance(value, list) else ()):
            key = str(entry.get("id")) if isinstance(entry, dict) and entry.get("id") is not None else f"#{index}"
            found.setdefault(key, (index, entry))
        return found

    a, b = keyed(old.get("semantic_rules")), keyed(new.get("semantic_rules"))
    changes = []
    for key, (index, entry) in b.items():
        if key not in a:
            changes.append(Change(Level.BREAKING, Area.SCHEMA, "semantic-rule-added",
                                  f"semantic rule {key!r} added: calls it refuses were admitted before",
                                  ("semantic_rules", index)))
        elif _canonical(a[key][1]) != _canonical(entry):
            old_entry, new_entry = a[key][1], entry
            if (isinstance(old_entry, dict) and isinstance(new_entry, dict)
                    and {k: v for k, v in old_entry.items() if k != "message"}
                    == {k: v for k, v in new_entry.items() if k != "message"}):
                changes.append(Change(Level.COMPATIBLE, Area.DOCUMENTATION, "semantic-rule-message-changed",
                                      f"semantic rule {key!r}: message changed: "
                                      f"{show_text_change(old_entry.get('message'), new_entry.get('message'))}",
                                      ("semantic_rules", index)))
            else:
                changes.append(Change(Level.BREAKING, Area.SCHEMA, "semantic-rule-changed",
                                      f"semantic rule {key!r} changed: {show(a[key][1], 40)} → {show(entry, 40)}",
                                      ("semantic_rules", index)))
    for key in a:
        if key not in b:
            changes.append(Change(Level.COMPATIBLE, Area.SCHEMA, "semantic-rule-removed",
                                  f"semantic rule {key!r} removed", ("semantic_rules",) if "semantic_rules" in new else (),
                                  anchor="key"))
    return changes


def _target_changes(old: dict, new: dict) -> list[Change]:
    a, b = old.get("target", _MISSING), new.get("target", _MISSING)
    if _same(a, b):
        return []
    if a is _MISSING:
        return [Change(Level.COMPATIBLE, Area.SCHEMA, "target-added", f"target declared: {show(b)}", ("target",))]
    # the target names what approvals and read-backs are about: another pointer is another contract
    return [Change(Level.BREAKING, Area.SCHEMA, "target-changed", f"target changed: {show(a)} → {show(b)}",
                   ("target",) if b is not _MISSING else (), anchor="key" if b is not _MISSING else "auto")]


# ---------------------------------------------------------------- tool sets


def index_by_name(tools: Iterable[ToolView]) -> dict[str, ToolView]:
    """Tools by name; the first of a repeated name wins (lint's TC104 reports the others)."""
    found: dict[str, ToolView] = {}
    for tool in tools:
        if tool.name is not None:
            found.setdefault(tool.name, tool)
    return found


def diff_tools(old: Iterable[ToolView], new: Iterable[ToolView]) -> list[ToolDiff]:
    """One ToolDiff per tool name in either set, in name order; unchanged tools have no changes."""
    before, after = index_by_name(old), index_by_name(new)
    diffs = []
    for name in sorted(set(before) | set(after)):
        a, b = before.get(name), after.get(name)
        diff = ToolDiff(name, a, b)
        if a is None and b is not None:
            diff.changes.append(Change(Level.COMPATIBLE, Area.TOOL, "tool-added",
                                       f"tool added ({'version ' + str(diff.new_version) if diff.new_version else 'no version'})",
                                       ("name",)))
        elif b is None and a is not None:
            diff.changes.append(Change(Level.BREAKING, Area.TOOL, "tool-removed",
                                       f"tool removed ({'was version ' + str(diff.old_version) if diff.old_version else 'had no version'})",
                                       ("name",), side="old"))
        elif a is not None and b is not None:
            diff.bump = version_bump(a.get("version"), b.get("version"))
            diff.changes.extend(compare_tool(a.data, b.data))
        diffs.append(diff)
    return diffs


# ------------------------------------------------------------------ findings


def diff_findings(diffs: Iterable[ToolDiff], selection=None) -> list[Finding]:
    """Findings of the change rules (scope "diff") on these diffs, sorted. Each hit names its
    side (`Hit.subject`, "old" or "new"): its path is in that tool's native names."""
    from toolcontract.lint.context import DiffContext
    from toolcontract.lint.engine import Selection, all_rules

    selection = selection or Selection()
    rules = [r for r in all_rules().values() if r.scope == "diff" and selection.enabled(r.id)]
    findings = []
    for diff in diffs:
        for rule in rules:
            for hit in rule.check(DiffContext(diff)):
                tool = diff.old if hit.subject == "old" else diff.new
                assert tool is not None
                document, pointer = tool.locate(hit.path)
                line, column = document.locate(pointer, hit.anchor)
                if selection.ignored_in(document.path, rule.id):
                    continue
                findings.append(Finding(document.path, line, column, rule.id, rule.name,
                                        selection.severity_of(rule, hit), hit.message, pointer, diff.name))
    return sorted(findings)


def iter_changes(diffs: Iterable[ToolDiff]) -> Iterator[tuple[ToolDiff, Change]]:
    for diff in diffs:
        for change in diff.changes:
            yield diff, change
