"""A tool's contract as lint rules see it, wherever its fields came from.

Rules read fields by our native names (`name`, `effect`, `input_schema`, ...).
`ToolView.locate` maps a path in those names back to the file and JSON pointer
where the field was written, so a provider list or an overlay (which keep fields
under other names, or in another file) reports positions in its own terms.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterator

from toolcontract.core.model import Effect
from toolcontract.core.pointer import join_pointer

if TYPE_CHECKING:  # a loaded file (toolcontract.io.document): the view only holds it and its pointers
    from toolcontract.io.document import Document

# what each input format is called in messages
FORMAT_LABELS = {
    "native": "native descriptor",
    "mcp": "MCP",
    "openai-chat": "OpenAI Chat",
    "openai-responses": "OpenAI Responses",
    "anthropic": "Anthropic",
    "gemini": "Gemini",
    "a2a-card": "A2A Agent Card",
}
CARD_FORMAT = "a2a-card"  # an A2A Agent Card (toolcontract.io.cards): a view for the card, one per skill


def is_card_view(tool: "ToolView") -> bool:
    """The view of an A2A Agent Card itself (its `raw` is the whole card), not of one of its skills."""
    return tool.format == CARD_FORMAT and tool.pointer == ""

# The MCP revisions toolcontract knows, oldest first: a tool list is judged by the one it was served
# under (detected from the document, `providers.mcp_revision_of`, or given with --mcp-revision).
MCP_REVISIONS = ("2025-11-25", "2026-07-28")
MCP_DEFAULT_REVISION = "2025-11-25"


def mcp_at_least(tool: "ToolView", revision: str) -> bool:
    """Whether an MCP tool was served under `revision` or a later one (False for other formats)."""
    return tool.format == "mcp" and tool.mcp_revision is not None and tool.mcp_revision >= revision


CONTRACT_FIELDS = (
    "name", "title", "version", "description", "purpose", "when_to_use", "non_goals", "effect",
    "limitations", "input_schema", "output_schema", "target", "semantic_rules", "approval",
    "observation", "annotations", "examples",
)


class ToolView:
    """One descriptor: native-named data plus where each field lives.

    `pointer` is the descriptor object's own pointer in `document`; `sources` maps a native
    field to (document, pointer) for fields written elsewhere or under another name;
    `format` is "native" or the provider format the tool was read from; `raw` the tool
    object as the provider format wrote it (None for native). Compared by identity.

    `effect_origin` says where an effect that no file wrote came from: the MCP hint that
    decided it (`readOnlyHint`, see `effect_from_annotations`), None when the effect (if
    any) is written. `contracts` says how much of our contract a provider tool is held to
    (see CONTRACT_LEVELS). `mcp_revision`: for an MCP tool, the revision (MCP_REVISIONS) its
    list was served under; None for other formats.
    """

    __slots__ = ("data", "document", "pointer", "sources", "format", "raw", "effect_origin", "contracts",
                 "mcp_revision", "_description", "context", "__weakref__")

    def __init__(self, data: dict[str, Any], document: Document, pointer: str,
                 sources: dict[str, tuple[Document, str]] | None = None, format: str = "native", raw: Any = None,
                 effect_origin: str | None = None, contracts: str = "full"):
        self.data = data
        self.document = document
        self.pointer = pointer
        self.sources = {} if sources is None else sources
        self.format = format
        self.raw = raw
        self.effect_origin = effect_origin
        self.contracts = contracts
        self.mcp_revision: str | None = None
        self._description: str | None = None  # model_description, once read (the data does not change)
        self.context: Any = None  # the lint run's lint.context.ToolContext for this tool (set by the engine)

    def __repr__(self) -> str:
        return f"ToolView(name={self.name!r}, document={self.document.path!r}, pointer={self.pointer!r})"

    @property
    def name(self) -> str | None:
        name = self.data.get("name")
        return name if isinstance(name, str) else None

    @property
    def effect(self) -> Effect | None:
        return Effect.of(self.data.get("effect"))

    @property
    def effect_label(self) -> str:
        """The effect class as a message names it: `read`, or `read (from readOnlyHint)` when derived."""
        effect = self.effect
        if effect is None:
            return "none"
        return effect.value if self.effect_origin is None else f"{effect.value} (from {self.effect_origin})"

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def text(self, key: str) -> str | None:
        """A field that should be a non-blank string, or None."""
        value = self.data.get(key)
        return value if isinstance(value, str) and value.strip() else None

    def _left_as_written(self, head: str) -> bool:
        """A member a provider reader leaves in the tool object as written (MCP `_meta`, `x-`
        members, and MCP's `execution`, which 2026-07-28 removed): no native field, but a client
        shows it (or TC521 reports it), so a finding may point into it."""
        return self.format != "native" and isinstance(self.raw, dict) and head in self.raw and \
            (head == "_meta" or head.startswith("x-") or (head == "execution" and self.format == "mcp"))

    def locate(self, path: tuple[str | int, ...]) -> tuple[Document, str]:
        """Document and JSON pointer for a path of native field names."""
        if not path:
            return self.document, self.pointer
        head, rest = str(path[0]), path[1:]
        if head in self.sources:
            document, base = self.sources[head]
        else:
            if head not in self.data and not self._left_as_written(head):
                return self.document, self.pointer  # a missing member: at the object that lacks it
            document, base = self.document, join_pointer(self.pointer, head)
        return document, join_pointer(base, *rest)


# What `toolcontract init` writes where a person must write the contract (an overlay's purpose and
# non-goals): a text that starts with the word TODO. TC201 and TC202 report it as not written yet.
PLACEHOLDER = re.compile(r"\s*TODO\b")


def is_placeholder(value: Any) -> bool:
    """A TODO placeholder (`TODO: say ...`), not a purpose or a non-goal yet."""
    return isinstance(value, str) and PLACEHOLDER.match(value) is not None


# How much of our contract a tool is held to. A native descriptor, or any tool when a
# configuration says `contracts = "required"`: all of it ("full"). A provider tool with an
# entry in its file's contract overlay: the contract fields, as warnings at most ("entry").
# A provider tool of a file that has an overlay, but no entry in it ("listed"), or of a file
# without one ("none"): only what its own format can hold.
CONTRACT_LEVELS = ("full", "entry", "listed", "none")

# MCP's tool annotations that say what a call may do, and their defaults when absent
HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
HINT_DEFAULTS = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False, "openWorldHint": True}


def written_hints(annotations: Any) -> dict[str, Any]:
    """The hints an `annotations` mapping writes (null counts as absent), whatever their type."""
    if not isinstance(annotations, dict):
        return {}
    return {key: annotations[key] for key in HINTS if annotations.get(key) is not None}


def effect_from_annotations(annotations: Any) -> tuple[Effect, str | None] | None:
    """The effect class MCP annotations imply, and the hint that decides it (None: MCP's defaults).

    None when no hint is written, or when one is not a boolean (TC002 reports it: a hint of
    the wrong type says nothing). Absent hints take MCP's defaults (readOnly false, destructive
    true, openWorld true), but only a *written* openWorldHint or destructiveHint moves a tool
    that may modify its environment away from the worst case:

    - `readOnlyHint: true` -> read;
    - else `openWorldHint: true` written -> open_world;
    - else `destructiveHint: false` written -> reversible_write;
    - else irreversible_write.

    Lint and assess use this one derivation; an effect written in the file or its overlay wins.
    """
    hints = written_hints(annotations)
    if not hints or any(not isinstance(value, bool) for value in hints.values()):
        return None
    if hints.get("readOnlyHint") is True:
        return Effect.READ, "readOnlyHint"
    if hints.get("openWorldHint") is True:
        return Effect.OPEN_WORLD, "openWorldHint"
    if hints.get("destructiveHint") is False:
        return Effect.REVERSIBLE_WRITE, "destructiveHint"
    if "destructiveHint" in hints:
        return Effect.IRREVERSIBLE_WRITE, "destructiveHint"
    return Effect.IRREVERSIBLE_WRITE, None


def derive_effect(tool: ToolView) -> None:
    """Give a tool without an `effect` the one its MCP annotations imply, in place.

    The derived value is set as `effect` (so every rule, `assess` and `convert --to native` use
    it exactly as a written one), placed at the hint that decides it, and `effect_origin` names
    that hint (`MCP's default hints` when the defaults decide)."""
    if "effect" in tool.data:
        return
    annotations = tool.data.get("annotations")
    derived = effect_from_annotations(annotations)
    if derived is None:
        return
    effect, hint = derived
    tool.data["effect"] = effect.value
    tool.effect_origin = hint if hint is not None else "MCP's default hints"
    document, pointer = tool.locate(("annotations",))
    key = hint if hint is not None else next(iter(written_hints(annotations)))
    tool.sources["effect"] = (document, join_pointer(pointer, key))


_WORD_BREAK = re.compile(r"[_\-.\s]+|(?<=[a-z])(?=[A-Z])")
_SNAKE = re.compile(r"[a-z0-9_]*\Z")


def name_words(name: str) -> list[str]:
    """The words of a tool name, split at `_`, `-`, `.`, spaces and lower-to-upper case changes."""
    if _SNAKE.match(name):  # the common snake_case name: only `_` separates, so no regex split
        return [word for word in name.split("_") if word]
    return [word for word in _WORD_BREAK.split(name) if word]


# a sentence ends at a terminator, after any closing quotes or brackets, before a space or the end.
# ASCII text (nearly every description) is read with the ASCII terminators alone: compiling the
# class with the CJK ones costs ~0.8 ms of every run, so that one waits for a non-ASCII text.
_SENTENCE_END_SOURCE = r"[.!?。！？](?:[\"')\]]*)(?=\s|$)"
_ASCII_SENTENCE_END = re.compile(r"[.!?](?:[\"')\]]*)(?=\s|$)")


def model_description(tool: ToolView) -> str:
    """The text a model reads: `description`, or one built from purpose, when_to_use and non_goals."""
    text = tool._description
    if text is None:
        text = tool._description = _model_description(tool)
    return text


def _model_description(tool: ToolView) -> str:
    given = tool.text("description")
    if given:
        return given.strip()
    parts: list[str] = []
    purpose = tool.text("purpose")
    if purpose:
        parts.append(_sentence(purpose))
    when = tool.text("when_to_use")
    if when:
        parts.append(_sentence(f"Use it when: {when.strip()}"))
    goals = tool.get("non_goals")  # TC002 reports a non-list; never iterate a string or a number
    non_goals = [g for g in goals if isinstance(g, str) and g.strip()] if isinstance(goals, list) else []
    if non_goals:
        parts.append("Do not use it for the following. " + " ".join(_sentence(g) for g in non_goals))
    return " ".join(parts)


def _sentence(text: str) -> str:
    text = " ".join(text.split())
    return text if text[-1:] in ".!?。！？" else text + "."


def count_sentences(text: str) -> int:
    """Sentences in a text: terminators followed by space or the end, plus an unterminated tail."""
    text = text.strip()
    if not text:
        return 0
    ends = list(_ASCII_SENTENCE_END.finditer(text) if text.isascii() else re.finditer(_SENTENCE_END_SOURCE, text))
    tail = text[ends[-1].end():].strip() if ends else text
    return len(ends) + (1 if tail else 0)


def iter_strings(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, str]]:
    """Every string inside a value, with its path."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from iter_strings(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from iter_strings(item, (*path, index))
