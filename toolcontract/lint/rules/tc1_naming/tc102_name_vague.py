"""TC102 name-vague: the tool name is a bare generic verb or placeholder, or a catch-all, that names no object."""

from __future__ import annotations

import re
from typing import Iterator

from toolcontract.core.descriptor import name_words
from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc3_effects.verbs import READ_VERBS, WRITE_VERBS
from toolcontract.core.model import Severity


_TRAILING_DIGITS = re.compile(r"\d+$")
# Verbs and nouns that say nothing about what a tool acts on. A name made only of
# these (and digits) names no object.
GENERIC_WORDS = frozenset(
    """
    do run execute exec process handle call invoke perform apply go start trigger dispatch
    update change modify set get fetch make manage use work act operate
    tool tools func function fn method action actions command cmd task job op operation request
    helper util utils utility misc thing stuff item data info input main default generic
    test tmp temp foo bar baz qux example sample my new the it
    """.split()
)


# Words that stand for "whatever there is": with nothing but verbs and generic words around them, a
# name says it acts on anything (`delete_everything`, `handle_all`).
CATCH_ALL_WORDS = frozenset("all everything anything something whatever stuff things any every".split())


RULE = Rule(
    id="TC102",
    name="name-vague",
    severity=Severity.WARNING,
    summary="The tool name is a bare generic verb or placeholder, or a catch-all, that names no object.",
    rationale=(
        "Models choose tools by name first. `update`, `run`, `process_data` or `tool1` say what kind of "
        "action happens but not to what, so a model cannot tell them apart from the next tool, and a log "
        "line naming them says nothing. A catch-all (`do_everything`, `delete_all`, `manage_all_things`: "
        "verbs with everything, all, anything, stuff, things or whatever) promises to act on anything, "
        "so a model reaches for it whatever the request; `list_all_issues` names its object and is fine. "
        "Name the object and the action: `invoice_mark_paid`, `document_update_metadata`."
    ),
    examples=(
        Bad("toolcontract: 1\nname: update\neffect: reversible_write\n", line=2, column=7,
            message="name 'update' names no object"),
        Bad("toolcontract: 1\nname: process_data\neffect: pure\n", line=2, column=7,
            message="name 'process_data' names no object"),
        Bad("toolcontract: 1\nname: func1\neffect: pure\n", line=2, column=7, message="name 'func1' names no object"),
        Bad("toolcontract: 1\neffect: irreversible_write\nname: delete_everything\n", line=3, column=7,
            message="is a catch-all: 'everything' names no object", note="catch-all"),
        Bad("toolcontract: 1\nname: manage_all_things\neffect: reversible_write\n", line=2, column=7,
            message="is a catch-all: 'all' names no object", note="catch-all"),
        Bad("tools:\n  - name: doEverything\n    inputSchema: {type: object}\n", line=2, column=11,
            message="name 'doEverything' is a catch-all", note="catch-all, MCP"),
        Good("toolcontract: 1\nname: document_update_metadata\neffect: reversible_write\n"),
        Good("toolcontract: 1\nname: list_all_issues\neffect: read\n", note="`all` with an object"),
        Good("toolcontract: 1\nname: delete_all_completed_todos\neffect: irreversible_write\n"),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    name = tool.name
    if not name:
        return
    generic, verb, catch_all = False, False, ""
    for word in name_words(name):
        stem = word.lower()
        if stem[-1].isdecimal():  # as `\d` does, str.isdecimal reads any Unicode decimal digit
            stem = _TRAILING_DIGITS.sub("", stem)
        if not stem:
            continue
        if stem in CATCH_ALL_WORDS:
            catch_all = catch_all or stem
        elif stem in GENERIC_WORDS:
            generic = True
        elif stem in WRITE_VERBS or stem in READ_VERBS:
            verb = True
        else:
            return  # one word that names something is enough
    if catch_all:
        yield Hit(("name",), f"name {name!r} is a catch-all: {catch_all!r} names no object; say what it acts on "
                  "(e.g. delete_completed_todos), or split it into one tool per object")
    elif generic and not verb:
        yield Hit(("name",), f"name {name!r} names no object: say what it acts on (e.g. invoice_mark_paid)")
