"""TC405 required-undefined: `required` names a property that `properties` does not define."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc4_schema.examples import WEATHER
from toolcontract.lint.rules.tc4_schema.quoting import quoted
from toolcontract.lint.schema_walk import Node, Walk, resolve_ref
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC405",
    name="required-undefined",
    severity=Severity.ERROR,
    summary="`required` names a property that `properties` does not define.",
    rationale=(
        "A required property with no schema is one the model has never been told about: it cannot know to "
        "send it, every call fails validation, and with `additionalProperties: false` no call can succeed "
        "at all. Usually it is a typo or a property renamed in one place only. Names matched by "
        "`patternProperties` or typed by a map's `additionalProperties` schema are defined; the `required` of "
        "`semantic_rules` is checked against `input_schema` too."
    ),
    examples=(
        Bad(WEATHER.replace("required: [city]", "required: [city, country]"),
            line=8, column=20, message="is not defined in `properties`"),
        Good(WEATHER),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    schema = tool.get("input_schema")
    if not isinstance(schema, dict):
        return
    w = ctx.walk(schema)
    defined: _Definitions | None = None  # built only when a name is not defined next to it
    for path, value, sw in ctx.field_walks():
        if path[0] == "output_schema":
            continue
        if path == ("input_schema",):
            sw = w  # the same walk (kept by identity); `is w` below tells input_schema's nodes apart
        if "required" not in sw.marks:
            continue
        for node in sw.having("required"):
            required = node.schema.get("required")
            if not isinstance(required, list):
                continue
            own = node.schema.get("properties")
            if sw is w and isinstance(own, dict):
                for name in required:
                    if isinstance(name, str) and name not in own:
                        break
                else:
                    continue  # every name is defined next to it
            if defined is None:
                defined = _Definitions(w)
            known = defined.get(node.key)
            if known is None:
                continue  # a location input_schema does not describe: nothing to compare with
            if known.unknown:
                continue
            for i, name in enumerate(required):
                if isinstance(name, str) and name not in known.names and not known.matches(name):
                    hint = _suggest(name, known.names)
                    yield Hit((*path, *node.path, "required", i),
                              f"required property {quoted(name)} is not defined in `properties`{hint}")


class _Defined:
    """The property names and patterns a location defines; `unknown`: a `$ref` that does not
    resolve, a typed map, or properties of the wrong type make the list incomplete."""

    __slots__ = ("names", "patterns", "unknown")

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.patterns: list[str] = []
        self.unknown = False

    def matches(self, name: str) -> bool:
        return any(_search(p, name) for p in self.patterns)


class _Definitions:
    """What each instance location of input_schema defines, over every schema that applies to it
    (the location's own schema, its allOf/anyOf/then/... branches, and what their `$ref`s lead to)."""

    def __init__(self, w: Walk):
        self.walk = w
        self.groups: dict[tuple, list[Node]] = {}
        for node in w.nodes:
            self.groups.setdefault(node.key, []).append(node)
        self.done: dict[tuple, _Defined] = {}

    def get(self, key: tuple) -> _Defined | None:
        if key not in self.groups:
            return None
        if key not in self.done:
            found = _Defined()
            self._collect(key, found, set())
            self.done[key] = found
        return self.done[key]

    def _collect(self, key: tuple, into: _Defined, seen: set) -> None:
        if key in seen:
            return
        seen.add(key)
        for node in self.groups.get(key, ()):
            s = node.schema
            properties, patterns = s.get("properties"), s.get("patternProperties")
            if isinstance(properties, dict):
                into.names.update(k for k in properties if isinstance(k, str))
            elif properties is not None:
                into.unknown = True
            if isinstance(patterns, dict):
                into.patterns.extend(k for k in patterns if isinstance(k, str))
            if isinstance(s.get("additionalProperties"), dict):
                into.unknown = True
            for keyword in ("$ref", "$dynamicRef"):
                ref = s.get(keyword)
                if not isinstance(ref, str):
                    continue
                fate, target = resolve_ref(self.walk, node, ref)
                index = self.walk.index.get(id(target)) if fate == "ok" else None
                if index is None:
                    into.unknown = True
                else:
                    self._collect(self.walk.nodes[index].key, into, seen)


def _search(pattern: str, name: str) -> bool:
    # a linear-time engine: the pattern is untrusted (Python's `re` can backtrack for hours);
    # a pattern that cannot be evaluated may match
    from toolcontract.core.schema.validation import pattern_matches

    return pattern_matches(pattern, name) is not False


def _suggest(name: str, names: set[str]) -> str:
    import difflib

    close = difflib.get_close_matches(name, sorted(names), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
