"""The registry of known tools, with each tool's validators compiled once.

Compiling a jsonschema-rs validator costs far more than running it (~0.2 µs a
call), so a registry is built once per run and shared by every case.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from toolcontract.core.model import Effect


@dataclass(frozen=True)
class SemanticRule:
    id: str
    message: str
    when: Any  # compiled validator for `if`, or None when unusable
    then: Any
    otherwise: Any
    problem: str | None = None  # why the rule cannot be evaluated


@dataclass(frozen=True)
class Tool:
    """A descriptor as the gates need it."""

    name: str
    effect: Effect | None
    version: str | None
    approval: str | None  # required | not_required | None (default by effect)
    target: Mapping[str, str]  # id / version / fields -> JSON pointer into the arguments
    input_validator: Any = None
    input_problem: str | None = None  # the input schema exists but cannot be used
    output_validator: Any = None
    output_problem: str | None = None
    semantic_rules: tuple[SemanticRule, ...] = ()
    has_input_schema: bool = False
    data: Mapping[str, Any] = field(default_factory=dict, repr=False)

    @functools.cached_property
    def consequential(self) -> bool:
        """Unknown effect counts as consequential: the worst case, never the best."""
        return self.effect is None or self.effect.consequential

    @functools.cached_property
    def effect_value(self) -> str | None:
        """The effect class's name, or None when the descriptor declares none."""
        return self.effect.value if self.effect is not None else None

    @functools.cached_property
    def target_tokens(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """(key, pointer split into tokens) for each of `target`'s pointers, split once."""
        from toolcontract.core.pointer import split_pointer

        return tuple((key, split_pointer(pointer)) for key, pointer in self.target.items())

    @functools.cached_property
    def needs_approval(self) -> bool:
        if self.approval == "required":
            return True
        if self.approval == "not_required":
            return False
        return self.consequential


def _compile(schema: Any) -> tuple[Any, str | None]:
    from toolcontract.core.schema.validation import compile_validator, is_valid_schema

    if not is_valid_schema(schema):
        return None, "the schema is not valid JSON Schema 2020-12"
    try:
        return compile_validator(schema), None
    except ValueError as exc:
        return None, str(exc)


def compile_tool(data: Mapping[str, Any]) -> Tool:
    """A Tool from native-named descriptor data (as in a ToolView)."""
    name = data.get("name")
    version = data.get("version")
    target = data.get("target")
    pointers = {k: v for k, v in target.items() if isinstance(v, str)} if isinstance(target, dict) else {}
    input_validator = input_problem = output_validator = output_problem = None
    if "input_schema" in data:
        input_validator, input_problem = _compile(data["input_schema"])
    if "output_schema" in data:
        output_validator, output_problem = _compile(data["output_schema"])
    rules = []
    for index, entry in enumerate(data.get("semantic_rules") or ()):
        if not isinstance(entry, dict):
            continue
        rule_id = str(entry.get("id") or f"semantic_rules[{index}]")
        message = str(entry.get("message") or "a semantic rule is not met")
        compiled = {}
        problem = None
        for key in ("if", "then", "else"):
            if key in entry:
                compiled[key], why = _compile(entry[key])
                problem = problem or (f"`{key}`: {why}" if why else None)
        if "if" not in entry or "then" not in entry:
            problem = problem or "the rule lacks `if` or `then`"
        rules.append(SemanticRule(rule_id, message, compiled.get("if"), compiled.get("then"), compiled.get("else"), problem))
    approval = data.get("approval")
    return Tool(
        name=str(name),
        effect=Effect.of(data.get("effect")),
        version=str(version) if version is not None else None,
        approval=approval if approval in ("required", "not_required") else None,
        target=pointers,
        input_validator=input_validator,
        input_problem=input_problem,
        output_validator=output_validator,
        output_problem=output_problem,
        semantic_rules=tuple(rules),
        has_input_schema="input_schema" in data,
        data=data,
    )


_PROVIDER_SCHEMA_KEYS = ("inputSchema", "parameters", "parametersJsonSchema", "function")


def _checked(index: int, descriptor: Any) -> Mapping[str, Any]:
    """A native-named descriptor `from_descriptors` can use, or ValueError saying what it is instead."""
    if not isinstance(descriptor, Mapping):
        raise ValueError(f"descriptor {index + 1} is {type(descriptor).__name__}, not a mapping of descriptor fields")
    if "tools" in descriptor and "name" not in descriptor:
        raise ValueError(f"descriptor {index + 1} is a `tools:` document: pass its entries, or use Registry.from_path")
    name = descriptor.get("name")
    if not isinstance(name, str):
        raise ValueError(f"descriptor {index + 1} has no `name` string")
    given = [key for key in _PROVIDER_SCHEMA_KEYS if key in descriptor]
    if given and "input_schema" not in descriptor:
        raise ValueError(f"descriptor {name!r} holds `{given[0]}`, a provider's field a native-named registry would "
                         "ignore (its calls would go unvalidated): use Registry.from_provider")
    return descriptor


class Registry:
    """Known tools by exact name. Lookups never guess: no prefix, case or fuzzy match."""

    def __init__(self, tools: Iterable[Tool] = (), offered: bool = True):
        """`offered` False: the tools of a recording that carries no tool list (evidence-only
        assessment cannot then judge which tools were offered)."""
        self._tools: dict[str, Tool] = {}
        self.offered = offered
        self.duplicates: list[str] = []
        for tool in tools:
            self.add(tool)

    def add(self, tool: Tool) -> None:
        if tool.name in self._tools:
            self.duplicates.append(tool.name)  # the first definition stays
            return
        self._tools[tool.name] = tool

    @classmethod
    def from_descriptors(cls, descriptors: Iterable[Mapping[str, Any]]) -> Registry:
        """A registry of native-named descriptor dicts (`name`, `effect`, `input_schema`, ...), compiled once.

        Raises ValueError for what it cannot use rather than building an empty or schemaless registry:
        a `tools:` document (use `Registry.from_path`, or pass its entries), a provider tool whose schema
        is under its provider's key (`inputSchema`, `parameters`: use `Registry.from_provider`), an
        entry without a string `name`, or one that is not a mapping."""
        if isinstance(descriptors, Mapping):
            raise ValueError("from_descriptors takes a list of descriptors, not one mapping: "
                             "wrap it in a list (or use Registry.from_path for a file)")
        return cls(compile_tool(_checked(index, d)) for index, d in enumerate(descriptors))

    def get(self, name: object) -> Tool | None:
        return self._tools.get(name) if isinstance(name, str) else None

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._tools

    def __len__(self) -> int:
        return len(self._tools)

    def names(self) -> list[str]:
        return sorted(self._tools)
