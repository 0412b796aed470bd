"""TC3xx: effect class — what a call can do to the world, and the guards that go with it."""

from __future__ import annotations

import re
from typing import Iterator

from toolcontract.core.descriptor import ToolView, effect_from_annotations, name_words
from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, rule
from toolcontract.core.model import Effect, Severity
from toolcontract.core.pointer import split_pointer
from toolcontract.core.descriptor import FORMAT_LABELS as LABELS

EFFECTS = ", ".join(e.value for e in Effect)

WRITE_VERBS = frozenset(
    """
    delete remove destroy drop purge erase wipe truncate clear reset revoke cancel terminate kill
    update set put patch edit modify change rename move replace overwrite upsert merge
    create add insert post write save store upload append register assign grant enable disable
    send email notify publish post deploy release push commit merge approve reject close open
    pay charge refund transfer withdraw deposit buy purchase order book reserve subscribe
    mark archive restore lock unlock mute ban block
    """.split()
)
READ_VERBS = frozenset(
    """
    get list read search find fetch query lookup look check describe show view count inspect
    preview estimate compute calculate validate verify explain summarize compare diff export
    download retrieve resolve browse scan analyze parse render format convert translate
    """.split()
)


def _words(name: str) -> list[str]:
    return [w.lower() for w in name_words(name)]


_GOOD_WRITE = """\
toolcontract: 1
name: document_update_metadata
effect: reversible_write
approval: required
observation: Read back the field and the document version.
input_schema:
  type: object
  properties:
    document_id: {type: string, description: Document identifier.}
    expected_version: {type: string, description: Version observed before the change.}
  required: [document_id, expected_version]
  additionalProperties: false
target: {id: /document_id, version: /expected_version}
"""


_MCP_TOOL = """\
tools:
  - name: weather_current
    description: Report the current weather at one named place.
    inputSchema: {type: object, properties: {city: {type: string}}}
"""


@rule(
    id="TC301",
    name="effect-missing",
    severity=Severity.ERROR,
    summary=f"No `effect`, or not one of the five classes ({EFFECTS}).",
    rationale=(
        "The effect class decides everything downstream: whether a call needs approval, whether a "
        "timeout may be retried, whether a success must be read back. A tool without one can only be "
        "treated as the worst case, and usually is treated as the best.\n\n"
        "A provider tool takes its effect class from its contract overlay (`X.contract.yaml` beside "
        "`X.json`) or, without one there, from its MCP annotations, reading absent hints with MCP's "
        "defaults (readOnlyHint false, destructiveHint true, openWorldHint true):\n\n"
        "| annotations | effect |\n"
        "|---|---|\n"
        "| `readOnlyHint: true` | read |\n"
        "| otherwise, `openWorldHint: true` written | open_world |\n"
        "| otherwise, `destructiveHint: false` written | reversible_write |\n"
        "| otherwise (any hint written) | irreversible_write |\n\n"
        "Findings that depend on a derived effect say so (`read (from readOnlyHint)`). Without an effect "
        "from any source, the rule is judged by what the file's format can hold: an error in a native "
        "descriptor, in a provider file that has an overlay, and everywhere when the configuration says "
        "`contracts = \"required\"`; a warning in an MCP list (which can hold the hints); information "
        "in OpenAI, Anthropic and Gemini lists, which have no place for an effect."
    ),
    examples=(
        Bad("toolcontract: 1\nname: weather_current\n", line=1),
        Bad("toolcontract: 1\nname: weather_current\neffect: write\n", line=3),
        Bad(_MCP_TOOL, line=2, note="an MCP tool without hints: a warning"),
        Good("toolcontract: 1\nname: weather_current\neffect: read\n"),
        Good(_MCP_TOOL + "    annotations: {readOnlyHint: true}\n", note="read, derived from readOnlyHint"),
    ),
)
def effect_missing(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    if "effect" in tool.data:
        value = tool.get("effect")
        if isinstance(value, str) and Effect.of(value) is None:
            yield Hit(("effect",), f"effect {value!r} is not one of {EFFECTS}")
        return
    if tool.format == "native":
        implied = effect_from_annotations(tool.get("annotations"))
        hint = ""
        if implied is not None:
            hint = (f" (its annotations imply {implied[0].value}: write `effect: {implied[0].value}`; a native "
                    "descriptor declares its effect class)")
        yield Hit((), f"no `effect`: classify the tool as one of {EFFECTS}{hint}", anchor="value")
        return
    overlay = overlay_name(tool.document.path)
    level = tool.contracts
    if level == "listed":
        yield Hit((), f"no `effect`: the tool has no entry in {overlay}; add one with its effect class "
                  f"({EFFECTS})", anchor="value")
    elif level in ("full", "entry"):
        yield Hit((), f"no `effect`: give the tool's effect class ({EFFECTS}) in its entry in {overlay}",
                  anchor="value")
    elif tool.format == "mcp":
        if reads_as_read(tool) is not None:
            return  # TC418 names the hint to set (readOnlyHint: true): one finding for one fix
        yield Hit((), f"no effect class and no MCP hint to derive one from: set `annotations.readOnlyHint: true` "
                  "for a tool that changes nothing (or `destructiveHint` / `openWorldHint` for one that does), "
                  f"or give `effect:` in an entry in {overlay}", anchor="value", severity=Severity.WARNING)
    else:
        label = LABELS.get(tool.format, tool.format)
        yield Hit((), f"no effect class: {label} tools have no place for one; give `effect:` in an entry in "
                  f"{overlay} so that approval and assess can tell reads from writes", anchor="value",
                  severity=Severity.INFO)


def overlay_name(path: str) -> str:
    """How a message names the contract overlay of a provider file: `tools.contract.yaml`."""
    import os

    base = os.path.basename(path)
    stem, suffix = os.path.splitext(base)
    if suffix.lower() in (".json", ".yaml", ".yml") and stem:
        return f"`{stem}.contract.yaml` (a contract overlay beside {base})"
    return "a contract overlay (save the list with `toolcontract convert ... -o X.json`, then write X.contract.yaml beside it)"


@rule(
    id="TC302",
    name="annotation-contradiction",
    severity=Severity.ERROR,
    summary="An MCP annotation written in the file contradicts the effect class.",
    rationale=(
        "MCP clients decide what to confirm with the user from annotations (readOnlyHint, destructiveHint, "
        "openWorldHint). An annotation that says read-only on a tool that writes makes the client skip the "
        "confirmation the effect class asks for. Only annotations written in the file are checked; absent "
        "ones are not contradictions (see the MCP portability rules for their defaults)."
    ),
    examples=(
        Bad(_GOOD_WRITE + "annotations:\n  readOnlyHint: true\n", line=15),
        Bad("toolcontract: 1\nname: weather_current\neffect: read\nannotations: {readOnlyHint: false}\n", line=4),
        Good(_GOOD_WRITE + "annotations: {readOnlyHint: false, destructiveHint: false}\n"),
    ),
)
def annotation_contradiction(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    effect, notes = tool.effect, tool.get("annotations")
    if effect is None or not isinstance(notes, dict):
        return
    consequential = effect.consequential
    read_only = notes.get("readOnlyHint")
    if read_only is True and consequential:
        yield Hit(("annotations", "readOnlyHint"), f"readOnlyHint: true, but the effect {effect.value} changes the world")
    if read_only is False and not consequential:
        yield Hit(("annotations", "readOnlyHint"), f"readOnlyHint: false, but the effect is {effect.value}")
    if effect is Effect.IRREVERSIBLE_WRITE and notes.get("destructiveHint") is False:
        yield Hit(("annotations", "destructiveHint"), "destructiveHint: false, but the effect is irreversible_write")
    if effect is Effect.OPEN_WORLD and notes.get("openWorldHint") is False:
        yield Hit(("annotations", "openWorldHint"), "openWorldHint: false, but the effect is open_world")


@rule(
    id="TC303",
    name="name-effect-mismatch",
    severity=Severity.WARNING,
    summary="The name's verb implies a write, but the effect is pure or read.",
    rationale=(
        "A name like `user_delete` or `send_invoice` tells the model, the reviewer and every log that the "
        "tool changes something. If the effect class says pure or read, one of them is wrong, and the "
        "wrong one decides whether a call is approved. A name that starts with a read verb "
        "(`get_update_status`) is not flagged."
    ),
    examples=(
        Bad("toolcontract: 1\nname: user_delete\neffect: read\n", line=3),
        Good("toolcontract: 1\nname: user_delete\neffect: irreversible_write\n"),
        Good("toolcontract: 1\nname: get_update_status\neffect: read\n"),
    ),
)
def name_effect_mismatch(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    effect, name = tool.effect, tool.name
    if effect is None or effect.consequential or not name:
        return
    words = _words(name)
    if not words or words[0] in READ_VERBS:
        return
    verbs = [w for w in words if w in WRITE_VERBS]
    if verbs:
        yield Hit(("effect",), f"name {name!r} says {verbs[0]!r}, but the effect is {tool.effect_label}")


@rule(
    id="TC304",
    name="observation-missing",
    severity=Severity.WARNING,
    summary="A consequential tool has no `observation` (how its effect is read back).",
    rationale=(
        "A write tool's return value is the tool's own claim. Only an independent read-back shows the "
        "effect happened, on the right target; without one, a success stays `needs_evidence` and a timeout "
        "stays `effect_unknown`. Say how the effect is observed."
    ),
    examples=(
        Bad("toolcontract: 1\nname: invoice_mark_paid\neffect: irreversible_write\n", line=1),
        Good("toolcontract: 1\nname: invoice_mark_paid\neffect: irreversible_write\n"
             "observation: Read the invoice back and check its status is paid.\n"),
    ),
    contract=True,
)
def observation_missing(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    effect = tool.effect
    if effect is not None and effect.consequential and not tool.text("observation"):
        where = ("observation",) if "observation" in tool.data else ()
        yield Hit(where, f"the effect is {tool.effect_label} but there is no `observation`: say how the effect is read back",
                  anchor="value")


@rule(
    id="TC305",
    name="target-version-missing",
    severity=Severity.WARNING,
    summary="A write tool has no `target.version` (no optimistic-concurrency guard).",
    rationale=(
        "A write based on a stale read overwrites someone else's change. Passing the version observed "
        "before the write (and refusing on mismatch) is the guard; `target.version` names the argument "
        "that carries it, so the target gate can compare it with the observed target."
    ),
    examples=(
        Bad("toolcontract: 1\nname: document_update_metadata\neffect: reversible_write\n"
            "target: {id: /document_id}\n", line=4),
        Good(_GOOD_WRITE),
    ),
    contract=True,
)
def target_version_missing(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    if tool.effect not in (Effect.REVERSIBLE_WRITE, Effect.IRREVERSIBLE_WRITE):
        return
    target = tool.get("target")
    if isinstance(target, dict) and isinstance(target.get("version"), str):
        return
    where = ("target",) if isinstance(target, dict) else ()
    yield Hit(where, f"{tool.effect_label} tool without `target.version`: name the argument that carries the "
              "version observed before the write", anchor="key" if where else "value")


@rule(
    id="TC306",
    name="approval-waived",
    severity=Severity.ERROR,
    summary="`approval: not_required` on an irreversible_write or open_world tool.",
    rationale=(
        "An irreversible write cannot be undone and an open-world action (sending mail, paying, posting) "
        "cannot be recalled. Those are exactly the calls a human approval is for; waiving it in the "
        "contract removes the last gate."
    ),
    examples=(
        Bad("toolcontract: 1\nname: invoice_pay\neffect: irreversible_write\napproval: not_required\n", line=4),
        Good("toolcontract: 1\nname: invoice_pay\neffect: irreversible_write\napproval: required\n"),
        Good("toolcontract: 1\nname: draft_save\neffect: reversible_write\napproval: not_required\n"),
    ),
)
def approval_waived(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    if tool.effect in (Effect.IRREVERSIBLE_WRITE, Effect.OPEN_WORLD) and tool.get("approval") == "not_required":
        yield Hit(("approval",), f"approval is waived on an {tool.effect.value} tool")


def pointer_in_schema(schema: object, pointer: str) -> bool:
    """Whether a JSON pointer into the arguments names a property the schema defines."""
    node = schema
    tokens = split_pointer(pointer)
    if not tokens:
        return False
    for token in tokens:
        if not isinstance(node, dict):
            return False
        properties = node.get("properties")
        if isinstance(properties, dict) and token in properties:
            node = properties[token]
        elif token.isdigit() and isinstance(node.get("items"), dict):
            node = node["items"]
        else:
            return False
    return True


@rule(
    id="TC307",
    name="target-pointer-dangling",
    severity=Severity.ERROR,
    summary="A `target` pointer does not name a property of `input_schema`.",
    rationale=(
        "The target gate reads the call's target id and version through these pointers. A pointer to a "
        "property the schema does not define never finds anything, so every call looks like it has no "
        "target and the concurrency guard silently does nothing."
    ),
    examples=(
        Bad(_GOOD_WRITE.replace("version: /expected_version", "version: /expected_revision"), line=13),
        Good(_GOOD_WRITE),
    ),
)
def target_pointer_dangling(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    target, schema = tool.get("target"), tool.get("input_schema")
    if not isinstance(target, dict):
        return
    for key in ("id", "version", "fields"):
        pointer = target.get(key)
        if isinstance(pointer, str) and not pointer_in_schema(schema, pointer):
            yield Hit(("target", key), f"target.{key} {pointer!r} names no property of input_schema")


# TC418: the read verbs a name or a description may start with, in every form they take there
_READ_LEADS = ("get", "list", "search", "read", "fetch", "find", "query", "describe", "show", "retrieve")
READ_VERB_FORMS = frozenset(
    [*_READ_LEADS, "gets", "lists", "searches", "reads", "fetches", "finds", "queries", "describes", "shows",
     "retrieves", "getting", "listing", "searching", "reading", "fetching", "finding", "querying", "describing",
     "showing", "retrieving"]
)
# words a description may open with before its verb: "This tool lists ...", "Use this to fetch ..."
_LEAD_WORDS = frozenset(
    "this the a an tool function method endpoint it that which used use to for allows allow lets let you me "
    "us helps help will can may simply quickly mcp server".split()
)
_COORDINATORS = frozenset(("and", "or", "then", "also", "plus", "and/or"))


def _write_form(word: str) -> bool:
    """Whether a word is a write verb, in its base form or with -s, -es, -ed, -d, -ing."""
    if word in WRITE_VERBS:
        return True
    for suffix, restore in (("ies", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("d", ""), ("ing", ""),
                            ("ing", "e")):
        if word.endswith(suffix) and word[: len(word) - len(suffix)] + restore in WRITE_VERBS:
            return True
    return False


def _first_verb(words: list[str]) -> tuple[str | None, bool]:
    """The word a run of words starts with after lead words ("This tool lists ..."), if it is a read
    verb, and whether a write verb is its first verb or joins it with and/or/then (`search_and_replace`,
    "Get or create a label", "Download a file and save it"). A write verb right after the read is
    its object, not a second verb (`get_release`, `list_commits`)."""
    at = 0
    while at < len(words) and at < 6 and words[at] in _LEAD_WORDS:
        at += 1
    if at >= len(words):
        return None, False
    first, rest = words[at], words[at + 1:]
    if first not in READ_VERB_FORMS:
        return None, _write_form(first) or _joined_write(rest)
    return first, _joined_write(rest)


def _joined_write(words: list[str]) -> bool:
    """Whether a write verb follows and/or/then in these words."""
    return any(before in _COORDINATORS and _write_form(word) for before, word in zip(words, words[1:]))


def _first_sentence_words(text: str) -> list[str]:
    head = text.strip()[:300]
    for end in (". ", ".\n", "! ", "? ", "\n\n", "。"):
        cut = head.find(end)
        if cut >= 0:
            head = head[:cut]
    return re.findall(r"[a-z]+(?:/[a-z]+)?", head.lower())


def reads_as_read(tool: ToolView) -> tuple[str, str] | None:
    """(the read verb, where it is) when a tool's name or first sentence starts with a read and joins
    no write to it (`search_and_replace`, "Get or create a label" read and write); else None."""
    name = tool.name
    text = tool.text("description")
    named, name_writes = _first_verb(_words(name)) if name else (None, False)
    described, text_writes = _first_verb(_first_sentence_words(text)) if text else (None, False)
    if name_writes or text_writes:
        return None
    if named is not None:
        return named, f"name {name!r}"
    if described is not None:
        return described, "description's first sentence"
    return None


@rule(
    id="TC418",
    name="read-tool-not-read-only",
    severity=Severity.WARNING,
    summary="An MCP tool named or described as a read (get, list, search, ...) lacks `readOnlyHint: true`.",
    rationale=(
        "MCP clients decide from `annotations` whether to ask the user before a call. Without "
        "`readOnlyHint: true` (absent, or written false) a client reads the tool as one that may change "
        "its environment, and as destructive unless `destructiveHint: false` says otherwise: it asks before "
        "every call of a harmless lookup, and users learn to click through the confirmation that matters. "
        "A tool whose name starts with a read verb (get, list, search, read, fetch, find, query, describe, "
        "show, retrieve; in any form: `gets`, `listing`), or whose description's first sentence does, "
        "almost always changes nothing. Not reported: a tool whose name or first sentence joins a write "
        "verb to the read (`search_and_replace`, \"Get or create a label\"), and one whose contract overlay "
        "gives a consequential effect (it says the tool writes; then the hint is right)."
    ),
    examples=(
        Bad("tools:\n  - name: get_weather\n    description: Report the current weather in a city.\n"
            "    inputSchema: {type: object}\n", line=2, note="no annotations"),
        Bad("tools:\n  - name: weather_report\n    description: Fetches the current weather in a city.\n"
            "    inputSchema: {type: object}\n    annotations:\n      title: Weather\n", line=5,
            note="the description's first verb; annotations without readOnlyHint"),
        Bad("tools:\n  - name: list_issues\n    inputSchema: {type: object}\n    annotations:\n"
            "      readOnlyHint: false\n      openWorldHint: true\n", line=5, note="readOnlyHint written false"),
        Good("tools:\n  - name: get_weather\n    inputSchema: {type: object}\n    annotations: {readOnlyHint: true}\n"),
        Good("tools:\n  - name: search_and_replace\n    inputSchema: {type: object}\n"
             "    annotations: {readOnlyHint: false, destructiveHint: false}\n", note="a write verb joins the read"),
        Good("tools:\n  - name: label_ensure\n    description: Get or create a label in a repository.\n"
             "    inputSchema: {type: object}\n"),
        Good("toolcontract: 1\nname: get_weather\neffect: read\n", note="a native descriptor: no MCP hints"),
    ),
)
def read_tool_not_read_only(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    if tool.format != "mcp":
        return
    notes = tool.get("annotations")
    if notes is not None and not isinstance(notes, dict):
        return  # TC002 reports annotations that are no mapping
    read_only = notes.get("readOnlyHint") if notes is not None else None
    if read_only is not None and read_only is not False:
        return  # true, or a value of the wrong type (TC002 reports it)
    effect = tool.effect
    if effect is not None and tool.effect_origin is None and (effect.consequential or read_only is False):
        return  # the overlay says it writes; or says it reads, and TC302 reports the false hint
    found = reads_as_read(tool)
    if found is None:
        return
    verb, where = found
    advice = "MCP clients then treat it as a write and may ask before every call; set `readOnlyHint: true`"
    if read_only is False:
        yield Hit(("annotations", "readOnlyHint"), f"the {where} says {verb!r}, a read, but readOnlyHint is false: "
                  f"{advice}")
    elif isinstance(notes, dict):
        yield Hit(("annotations",), f"the {where} says {verb!r}, a read, but the annotations have no "
                  f"readOnlyHint: {advice}", anchor="key")
    else:
        yield Hit((), f"the {where} says {verb!r}, a read, but there are no annotations: {advice}",
                  anchor="value")
