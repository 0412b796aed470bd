"""TC508 strict-recursion: A `$ref` leads back to a schema that contains it, which Anthropic's strict mode refuses."""

from __future__ import annotations

from typing import Iterator

from toolcontract.lint.context import ToolContext, context
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc5_portability.examples import WEATHER
from toolcontract.lint.rules.tc5_portability.messages import names, quoted, verb_s
from toolcontract.lint.rules.tc5_portability.subschemas import input_schema, resolve_ref, spans
from toolcontract.core.model import Severity


RULE = Rule(
    id="TC508",
    name="strict-recursion",
    severity=Severity.ERROR,
    summary="A `$ref` leads back to a schema that contains it, which Anthropic's strict mode refuses.",
    rationale=(
        "A recursive schema (a folder whose `children` are folders, a JSON-like value) cannot be compiled "
        "into Anthropic's strict-mode grammar: recursion is listed as unsupported (AN-SO). OpenAI's strict "
        "mode accepts it (OA-SO). Bound the depth explicitly (folder, subfolder, ...), or pass the nested "
        "part as a string the tool parses. Each `$ref` on a cycle is reported."
    ),
    examples=(
        Bad(WEATHER.replace("name: weather_current", "name: folder_create").replace("read", "reversible_write").replace(
            "    city: {type: string, description: City name such as Lisbon.}\n  required: [city]\n",
            "    folder: {$ref: '#/$defs/folder'}\n  required: [folder]\n").replace(
            "  additionalProperties: false\n",
            "  additionalProperties: false\n  $defs:\n    folder:\n      type: object\n      properties:\n"
            "        name: {type: string, description: Folder name.}\n"
            "        children: {type: array, items: {$ref: '#/$defs/folder'}, description: Subfolders.}\n"
            "      required: [name, children]\n      additionalProperties: false\n"),
            line=15, column=47, message="leads back to a schema that contains it"),
        Good(WEATHER),
    ),
    surfaces=("anthropic-strict",),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool, surfaces = ctx.tool, ctx.surfaces
    schema = input_schema(tool)
    if not schema:
        return
    w = context(tool).walk(schema)
    refs: list[tuple[int, int]] = []  # (node with the $ref, node it refers to)
    for index, node in enumerate(w.nodes):
        ref = node.schema.get("$ref")
        if isinstance(ref, str):
            fate, target = resolve_ref(w, node, ref)
            if fate == "ok" and isinstance(target, dict) and id(target) in w.index:
                refs.append((index, w.index[id(target)]))
    if not refs or len(refs) > 2000:
        return
    _, end = spans(w)
    for at, target in refs:
        seen, stack, cyclic = {target}, [target], False
        while stack and not cyclic:
            x = stack.pop()
            if x <= at < end[x]:
                cyclic = True
                break
            for m, u in refs:
                if x <= m < end[x] and u not in seen:
                    seen.add(u)
                    stack.append(u)
        if cyclic:
            node = w.nodes[at]
            yield Hit(("input_schema", *node.path, "$ref"), f"$ref {quoted(node.schema['$ref'])} leads back to a "
                      f"schema that contains it: {names(surfaces)} refuse{verb_s(surfaces)} recursive schemas")
