"""TC414 default-invalid: A `default` in `input_schema` is rejected by its own schema."""

from __future__ import annotations

from typing import Any, Iterator

from toolcontract.core.schema import SUBSCHEMA_KEYWORDS
from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc4_schema.examples import DEFAULTS
from toolcontract.lint.rules.tc4_schema.quoting import quoted_json
from toolcontract.lint.schema_walk import Walk, mentions
from toolcontract.core.model import Severity
from toolcontract.core.schema.validation import accepts, compile_validator, explain_errors, is_valid_schema, types_of
from toolcontract.core.pointer import join_pointer


RULE = Rule(
    id="TC414",
    name="default-invalid",
    severity=Severity.WARNING,
    summary="A `default` in `input_schema` is rejected by its own schema.",
    rationale=(
        "A default is what the tool uses when the argument is left out, and models copy it when they fill the "
        "argument in. One the schema rejects (a value outside its `enum`, `\"false\"` for a boolean, `null` for a "
        "type that does not allow null, a number beyond `maximum`) either never happens, or gets every call that "
        "copies it refused by a validating client; either way schema and tool disagree about the argument. The "
        "default is checked against its own subschema without it; subschemas that are not valid 2020-12 (TC401), "
        "or whose `$ref`s lead outside the schema's `$defs`, are skipped."
    ),
    examples=(
        Bad(DEFAULTS.replace("default: csv", "default: xlsx"),
            line=8, column=55, message="make it one of the enum values", note="not in the enum"),
        Bad(DEFAULTS.replace("    format", "    gzip: {type: boolean, default: 'false', description: Compress.}\n"
                              "    format"),
            line=8, column=36, message='is not of type "boolean"', note="a string for a boolean"),
        Good(DEFAULTS),
        Good(DEFAULTS.replace("{type: string, enum: [csv, pdf], default: csv,",
                               "{type: [string, 'null'], enum: [csv, pdf, null], default: null,"), note="null allowed"),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    schema = tool.get("input_schema")
    if not isinstance(schema, dict):
        return
    w = ctx.walk(schema)
    checked = [i for i, node in enumerate(w.nodes) if "default" in node.schema and not node.conditional]
    if not checked or w.truncated:
        return
    weights = _subtree_weights(w)
    budget = _DEFAULT_BUDGET
    for i in checked:
        if weights[i] > budget:
            continue  # each default is checked against its whole subschema: cap the work on hostile input
        budget -= weights[i]
        node = w.nodes[i]
        s = node.schema
        error = _default_error(w, schema, s)
        if error is None:
            continue
        at, reason = error
        value = s["default"]
        where = f" at {join_pointer('', *at)}" if at else ""
        if len(reason) > 160:
            reason = reason[:150] + " ..."
        kinds = types_of(s)
        if value is None and kinds and "null" not in kinds:
            fix = "allow null in `type` if null means 'not given', or drop the default"
        elif isinstance(s.get("enum"), list) and "is not one of" in reason:
            fix = "make it one of the enum values, or drop it"
        else:
            fix = "change the default or the schema"
        yield Hit(("input_schema", *node.path, "default"),
                  f"default {quoted_json(value)} fails its own schema{where}: {reason}; {fix}")


_REF_KEYS = frozenset(("$ref", "$dynamicRef"))
_DEF_KEYS = ("$defs", "definitions")


def _ref_values(value: Any, into: list, depth: int = 0) -> bool:
    """Collect every `$ref` string anywhere in `value`; False when it cannot be told (too deep, a `$ref`
    that is not a string, a `$dynamicRef`)."""
    if depth > 200:
        return False
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "$ref":
                if not isinstance(item, str):
                    return False
                into.append(item)
            elif key == "$dynamicRef":
                return False
            if isinstance(item, (dict, list)) and not _ref_values(item, into, depth + 1):
                return False
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, (dict, list)) and not _ref_values(item, into, depth + 1):
                return False
    return True


def _standalone(w: Walk, root: dict, schema: dict) -> dict | None:
    """`schema` without its `default`, as a schema of its own; None when its meaning depends on what it cannot
    carry along. `$ref`s are kept only when they point into the root's `$defs`/`definitions` (copied in, so they
    resolve to the same schemas), in a schema without other resources (`$id`s)."""
    sub = {k: v for k, v in schema.items() if k != "default"}
    if not mentions(sub, _REF_KEYS, 0):
        return sub
    if len(w.resources) > 1 or w.truncated or any(k in sub for k in (*_DEF_KEYS, "$id")):
        return None
    carried = {k: root[k] for k in _DEF_KEYS if isinstance(root.get(k), dict)}
    refs: list[str] = []
    if not carried or not _ref_values(sub, refs) or not _ref_values(list(carried.values()), refs):
        return None
    for ref in refs:
        head, _, rest = ref.partition("/")
        if head != "#" or rest.split("/", 1)[0] not in carried:
            return None  # `#`, `#/properties/...`, an anchor or another document: not carried
    sub.update(carried)
    return sub


# TC414 validates each default against its whole subschema, so nested defaults check the same parts again: at most
# this many keys and values (see _subtree_weights) are checked per tool. Real schemas use a few hundred.
_DEFAULT_BUDGET = 100_000


def _subtree_weights(w: Walk) -> list[int]:
    """For each node, the keys and data values (enum members, consts, defaults, unknown keywords, at any depth)
    of its subschema, its subschemas' included: a measure of what validating against it reads."""
    nodes = w.nodes
    weights = [0] * len(nodes)
    cap = _DEFAULT_BUDGET + 1
    for i, node in enumerate(nodes):
        total = 0
        for key, value in node.schema.items():
            total += 1
            if value.__class__ is dict or value.__class__ is list:
                # a keyword's subschemas are nodes of their own (counted there); anything else is data
                total += len(value) if key in SUBSCHEMA_KEYWORDS else _size(value, cap)
        weights[i] = total
    for i in range(len(nodes) - 1, 0, -1):
        weights[nodes[i].parent] += weights[i]
    return weights


def _size(value: Any, cap: int) -> int:
    """The members of a JSON value at every depth, counting stopped past `cap`."""
    count, stack = 0, [value]
    while stack and count <= cap:
        item = stack.pop()
        if item.__class__ is dict:
            count += len(item)
            stack.extend(v for v in item.values() if v.__class__ is dict or v.__class__ is list)
        elif item.__class__ is list:
            count += len(item)
            stack.extend(v for v in item if v.__class__ is dict or v.__class__ is list)
    return count


def _default_error(w: Walk, root: dict, schema: dict) -> tuple[tuple, str] | None:
    """The first error of `schema`'s own `default` against `schema` without it, or None (valid, or not
    checkable: a schema that is not valid 2020-12, does not compile, or depends on what it cannot carry)."""
    sub = _standalone(w, root, schema)
    if not sub:
        return None  # a bare default: anything goes
    value = schema["default"]
    if not is_valid_schema(sub):
        return None  # TC401's
    try:
        if accepts(sub, value):
            return None
    except RecursionError:
        pass
    try:
        validator = compile_validator(sub)
        errors = explain_errors(validator, value)  # bounded
    except (ValueError, TypeError, OverflowError, RecursionError):
        return None  # a bad pattern (TC410), a dangling $ref (TC408), a value JSON cannot hold
    return errors[0] if errors else None
