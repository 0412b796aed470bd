"""The indexed schema walk the schema rules share: every subschema of a schema once, as a `Node`
(its path, instance location, base URI, parent, and whether it is under a condition), with the
nodes that carry the keywords rules look for, the `$id` resources and the anchors; the schemas of
a descriptor with their walks (`field_walks`, kept by the tool's context); and `$ref` resolution
inside the schema (`resolve_ref`: nothing is ever fetched).

The TC4xx and TC5xx rules read it through `ToolContext.walk` and `ToolContext.field_walks`, which
walk each schema of a tool once for every rule.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterator, NamedTuple

from toolcontract.core.schema import CONDITIONS, IN_PLACE, KEYWORDS
from toolcontract.core.pointer import resolve_pointer

if TYPE_CHECKING:
    from toolcontract.core.descriptor import ToolView
    from toolcontract.lint.context import ToolContext


# which keywords hold subschemas, how they apply and to what instance location: core.schema's table
_KEYWORDS = KEYWORDS
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")


class Node(NamedTuple):
    """One subschema (a mapping) and how it is reached.

    A named tuple, made with tuple.__new__: a walk makes one per subschema, and that costs
    a fraction of a dataclass's __init__ call. (Like the dataclass it replaces, it is compared
    by value and cannot be hashed; nothing compares nodes.)"""

    path: tuple  # from the schema's root, in the file's own keys
    schema: dict
    key: tuple  # the abstract instance location it applies to: ("args", "properties", "city")
    via: str | None  # the keyword it was reached by; None for the root
    parent: int  # index of the parent node, -1 for the root
    conditional: bool  # under `if` or `not`: a test, not a declaration
    base: str  # base URI (no fragment) of the resource it is in; "" when none is given


_new_node = tuple.__new__


class Walk:
    """Every subschema of one schema, in pre-order, and what the rules look up in them.

    `marks` lists, per keyword the rules look for (`$ref`, `pattern`, `required`, ...), the
    nodes that have it: most schemas have few of them, so a rule about `$schema` visits
    the one or two nodes that name one rather than every node."""

    __slots__ = ("nodes", "resources", "anchors", "marks", "truncated", "foreign", "_index", "_declared",
                 "_patterns_linear")

    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self.resources: dict[str, int] = {}  # base URI -> node index of its root
        self.anchors: set[tuple[str, str]] = set()  # (base URI, $anchor or $dynamicAnchor)
        self.marks: dict[str, list[int]] = {}  # keyword -> indices of the nodes that have it (see _MARKED)
        self.truncated = False  # deeper than the walk goes: some subschemas are not nodes
        # a node has a keyword the walk does not know (not in _KNOWN_KEYWORDS) whose value is a
        # mapping or a list: a validator may compile schemas in it that are not nodes
        self.foreign = False
        self._index: dict[int, int] | None = None
        self._declared: list[tuple[Node, str, Any]] | None = None  # see tc4_schema.properties.declared_properties
        self._patterns_linear: bool | None = None  # see TC406 (tc406_example_invalid)

    @property
    def index(self) -> dict[int, int]:
        """id(schema) -> index of its first node; built when first asked for (rarely: `$ref`s)."""
        if self._index is None:
            index: dict[int, int] = {}
            for i, node in enumerate(self.nodes):
                index.setdefault(id(node.schema), i)
            self._index = index
        return self._index

    def having(self, *keywords: str) -> list[Node]:
        """The nodes that have any of `keywords`, in node order."""
        marks = self.marks
        if len(keywords) == 1:
            found = marks.get(keywords[0], ())
            if len(found) == 1:
                return [self.nodes[found[0]]]
        else:
            found = [i for k in keywords for i in marks.get(k, ())]
        if len(found) > 1:
            found = sorted(set(found))  # a parent's keyword can come after its children's
        return [self.nodes[i] for i in found]


# what _visit does with each keyword: descend into one subschema / a map / a list of them
# (with the instance-location token and whether the subschema is a test), note the node
# under the keyword (_MARKED), or record an anchor
_MARKED = ("$ref", "$dynamicRef", "pattern", "patternProperties", "properties", "$schema", "required")
_FORMS: dict[str, tuple[str, str | None, bool]] = {
    **{k: (shape, token, k in CONDITIONS) for k, (shape, token) in _KEYWORDS.items()},
    **{k: ("mark", None, False) for k in _MARKED if k not in _KEYWORDS},
    "$anchor": ("anchor", None, False), "$dynamicAnchor": ("anchor", None, False),
}
# a subschema with none of these keys is a leaf: _visit would only add its node
_NOT_LEAF = frozenset((*_FORMS, "$id"))

# 2020-12 keywords: the walk descends into every one whose value is a schema (_FORMS); the
# values of the others are never compiled as schemas (they are data, strings or numbers)
_KNOWN_KEYWORDS = frozenset((
    *_FORMS, "$id", "$vocabulary", "$comment", "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum",
    "minimum", "exclusiveMinimum", "maxLength", "minLength", "maxItems", "minItems", "uniqueItems", "maxContains",
    "minContains", "maxProperties", "minProperties", "dependentRequired", "format", "title", "description",
    "default", "deprecated", "readOnly", "writeOnly", "examples", "contentEncoding", "contentMediaType",
))
# a leaf all of whose keys are known: _visit would add its node and note nothing foreign
_PLAIN_LEAF = _KNOWN_KEYWORDS - _NOT_LEAF


def walk(schema: Any, root: str = "args") -> Walk:
    """Every subschema of `schema` once, with its instance location and base URI.

    Built on core.schema's keyword table, not its walker: the rules need more per node than
    (node, schema path, instance location) — the base URI of `$id` resources, anchors, whether
    a node is under a condition, its parent, and the nodes that carry the keywords rules look
    for (`marks`) — all gathered in the one pass, with a shortcut for leaf subschemas.

    `$ref`s are not followed, so a cyclic `$ref` cannot loop. A rule asks its tool's context
    (`ctx.walk(schema)`), which walks each schema of the tool once for every rule.
    """
    result = Walk()
    if isinstance(schema, dict):
        _visit(result, schema, (), (root,), None, -1, False, "", 0)
    return result


def _visit(w: Walk, schema: dict, path: tuple, key: tuple, via: str | None, parent: int,
           conditional: bool, base: str, depth: int) -> None:
    if depth > 200:
        w.truncated = True
        return
    nodes = w.nodes
    index = len(nodes)
    own_id = schema.get("$id")
    if isinstance(own_id, str):
        base = _join(base, own_id).partition("#")[0]
        w.resources.setdefault(base, index)
    elif parent < 0:
        w.resources.setdefault(base, index)
    nodes.append(_new_node(Node, (path, schema, key, via, parent, conditional, base)))
    depth += 1
    for keyword, sub in schema.items():
        form = _FORMS.get(keyword)
        if form is None:
            if keyword not in _KNOWN_KEYWORDS and isinstance(sub, (dict, list)):
                w.foreign = True
            continue
        shape, token, test = form
        if shape == "map":
            if keyword == "properties" or keyword == "patternProperties":
                w.marks.setdefault(keyword, []).append(index)
            if not isinstance(sub, dict):
                continue
            for name, item in sub.items():
                if not isinstance(item, dict):
                    continue
                item_path = path + (keyword, name)
                if token == "$defs":
                    item_key = ("def",) + item_path  # reached only through a $ref: its own location
                else:
                    item_key = key if token is None else key + (token, name)
                if depth <= 200 and item.keys() <= _PLAIN_LEAF:  # what _visit would do, without the call
                    nodes.append(_new_node(Node, (item_path, item, item_key, keyword, index, conditional, base)))
                else:
                    _visit(w, item, item_path, item_key, keyword, index, conditional, base, depth)
        elif shape == "one":
            if isinstance(sub, dict):
                sub_key = key if token is None else key + (token,)
                _visit(w, sub, path + (keyword,), sub_key, keyword, index, conditional or test, base, depth)
            elif token == "[]" and isinstance(sub, list):  # draft-07 tuple form of items
                for i, item in enumerate(sub):
                    if isinstance(item, dict):
                        _visit(w, item, path + (keyword, i), key + (i,), keyword, index, conditional, base, depth)
        elif shape == "mark":
            w.marks.setdefault(keyword, []).append(index)
        elif shape == "list":
            if isinstance(sub, list):
                for i, item in enumerate(sub):
                    if isinstance(item, dict):
                        item_key = key if token is None else key + (i,)
                        _visit(w, item, path + (keyword, i), item_key, keyword, index, conditional, base, depth)
        elif isinstance(sub, str):  # an anchor
            w.anchors.add((base, sub))


def _join(base: str, ref: str) -> str:
    """Resolve a URI reference against a base, without ever touching the network."""
    if ref.startswith("#"):
        return base + ref
    if _SCHEME.match(ref) or not base:
        return ref
    from urllib.parse import urljoin  # here: ~3 ms to import, and most schemas have no `$ref`

    try:
        return urljoin(base, ref)
    except ValueError:
        return ref


def in_place_ancestors(w: Walk, index: int) -> Iterator[Node]:
    """The schemas that apply to the same instance and contain this one (allOf, then, ...)."""
    node = w.nodes[index]
    while node.via in IN_PLACE and node.parent >= 0:
        node = w.nodes[node.parent]
        yield node


def schema_fields(tool: ToolView) -> Iterator[tuple[tuple, Any]]:
    """Every schema of a descriptor that is a mapping or a boolean, with its path."""
    for name in ("input_schema", "output_schema"):
        value = tool.data.get(name)
        if isinstance(value, (dict, bool)):
            yield (name,), value
    rules = tool.data.get("semantic_rules")
    if isinstance(rules, list):
        for i, entry in enumerate(rules):
            if isinstance(entry, dict):
                for part in ("if", "then", "else"):
                    value = entry.get(part)
                    if isinstance(value, (dict, bool)):
                        yield ("semantic_rules", i, part), value


def field_walks(ctx: ToolContext) -> list[tuple[tuple, Any, Walk]]:
    """schema_fields(ctx.tool), each with its walk (made by the tool's context)."""
    tool = ctx.tool
    data = tool.data
    if "semantic_rules" in data:
        return [(path, value, ctx.walk(value, "result" if path[0] == "output_schema" else "args"))
                for path, value in schema_fields(tool)]
    inputs, outputs = data.get("input_schema"), data.get("output_schema")
    found = []
    if isinstance(inputs, (dict, bool)):
        found.append((("input_schema",), inputs, ctx.walk(inputs, "args")))
    if isinstance(outputs, (dict, bool)):
        # only TC407, TC408, TC410 and TC412 look at output_schema, and only at subschemas with
        # these keywords: a schema that has none of them anywhere needs no walk
        plain = isinstance(outputs, bool) or not mentions(outputs, _OUTPUT_MARKS, 0)
        found.append((("output_schema",), outputs, Walk() if plain else ctx.walk(outputs, "result")))
    return found


_OUTPUT_MARKS = frozenset(("$ref", "$dynamicRef", "pattern", "patternProperties", "$schema"))


def mentions(value: Any, keys: frozenset[str], depth: int) -> bool:
    """Whether a mapping anywhere in `value` (a subschema or not) has one of `keys`; True when
    nested too deep to tell."""
    if depth > 200:
        return True
    if isinstance(value, dict):
        if not keys.isdisjoint(value):
            return True
        value = value.values()
    elif not isinstance(value, list):
        return False
    for item in value:
        if isinstance(item, dict):
            # what the call for it would answer, without the call: most mappings here are
            # subschemas of scalars (`{type: string, description: ...}`)
            if depth >= 200 or not keys.isdisjoint(item):
                return True
            for sub in item.values():
                if isinstance(sub, (dict, list)) and mentions(sub, keys, depth + 2):
                    return True
        elif isinstance(item, list) and mentions(item, keys, depth + 1):
            return True
    return False


def resolve_ref(w: Walk, node: Node, ref: str) -> tuple[str, Any]:
    """Where `ref`, written in `node`, leads inside the walked schema (never fetched): ("remote", uri),
    ("ok", target) or ("missing", why)."""
    target = _join(node.base, ref)
    document, _, fragment = target.partition("#")
    root = w.resources.get(document)
    if root is None:
        return "remote", target
    if not fragment:
        return "ok", w.nodes[root].schema
    if fragment.startswith("/"):
        from urllib.parse import unquote

        found, value = resolve_pointer(w.nodes[root].schema, unquote(fragment))
        if not found:
            return "missing", f"nothing at {unquote(fragment)}"
        if not isinstance(value, (dict, bool)):
            return "missing", f"{unquote(fragment)} is not a schema"
        return "ok", value
    if (document, fragment) in w.anchors:
        return "ok", _anchor_target(w, document, fragment)
    return "missing", f"no `$anchor: {fragment}` in the schema"


def _anchor_target(w: Walk, document: str, name: str) -> Any:
    for node in w.nodes:
        if node.base == document and name in (node.schema.get("$anchor"), node.schema.get("$dynamicAnchor")):
            return node.schema
    return True
