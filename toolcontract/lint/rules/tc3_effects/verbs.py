"""The verbs of tool names and descriptions, which say a write or a read (TC102, TC301, TC303, TC418)."""

from __future__ import annotations

import re

from toolcontract.core.descriptor import ToolView, name_words

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


def lower_words(name: str) -> list[str]:
    """The words of a tool name, lower-cased."""
    return [w.lower() for w in name_words(name)]


# the read verbs a name or a description may start with (TC418), in every form they take there
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
    named, name_writes = _first_verb(lower_words(name)) if name else (None, False)
    described, text_writes = _first_verb(_first_sentence_words(text)) if text else (None, False)
    if name_writes or text_writes:
        return None
    if named is not None:
        return named, f"name {name!r}"
    if described is not None:
        return described, "description's first sentence"
    return None

