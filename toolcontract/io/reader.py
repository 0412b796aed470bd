"""Turn a loaded document into the descriptors it holds, whatever format it is in.

Formats: our native one (`toolcontract: 1`), and provider tool lists (MCP,
OpenAI Chat and Responses, Anthropic, Gemini; see `providers`), detected from
their keys or forced with `input_format`. A provider list may come with a
contract overlay (see `overlay`) that adds our contract fields per tool.
A native file is recognised by its root `toolcontract:` key before anything
else is looked at, so native reading costs what it always did.
"""

from __future__ import annotations

import os

from toolcontract.core.descriptor import ToolView, derive_effect
from toolcontract.io.document import Document

FORMATS = ("native", "mcp", "openai-chat", "openai-responses", "anthropic", "gemini", "a2a-card")


class Problem(tuple):
    """A structural problem, reported as TC002: unpacks as (document, pointer, message).

    `anchor` says where in the pointed-at member the finding goes ("key", "value" or
    "auto", as Document.locate); an unknown field is reported at its key."""

    anchor: str

    def __new__(cls, document: Document, pointer: str, message: str, anchor: str = "auto"):
        self = super().__new__(cls, (document, pointer, message))
        self.anchor = anchor
        return self


class ReadResult:
    """What a document holds: its format (None when no reader could place it; "overlay" for a
    contract overlay met on its own), its tools, and structural problems as (document, pointer,
    message) tuples (`Problem`s where an anchor matters), reported as TC002. Problems may lie in
    the overlay document."""

    __slots__ = ("format", "tools", "problems")

    def __init__(self, format: str | None, tools: list[ToolView] | None = None,
                 problems: list[tuple[Document, str, str]] | None = None):
        self.format = format
        self.tools = [] if tools is None else tools
        self.problems = [] if problems is None else problems


def read_tools(document: Document, input_format: str | None = None, overlay: Document | None = None,
               contracts_required: bool = False, mcp_revision: str | None = None) -> ReadResult:
    """The tools of a document, in `input_format` or the detected one, merged with an overlay.

    A provider tool without an `effect` (in the file or the overlay) gets the one its MCP
    annotations imply (`descriptor.derive_effect`), and its `contracts` level says how much of
    our contract it is held to: "entry" with an overlay entry, "listed" in a file with an
    overlay, "none" without one, "full" for every tool when `contracts_required`. `mcp_revision`
    (--mcp-revision) is the MCP revision an MCP list is judged by, instead of the one it says."""
    data = document.data
    if input_format is not None:
        if input_format not in FORMATS:
            raise ValueError(f"unknown input format {input_format!r} (expected any of {', '.join(FORMATS)})")
        kind: str | None = input_format
    elif type(data) is dict and "toolcontract" in data:
        kind = "native"  # the common case, decided without a call
        if "overlay" in data or isinstance(data.get("tools"), dict):
            from toolcontract.io.overlay import is_overlay

            kind = "overlay" if is_overlay(data, document.path) else "native"
    else:
        from toolcontract.io.providers import detect

        kind = detect(data, document.path)

    if kind == "native":
        result = ReadResult("native", read_native(document))
        if overlay is not None:
            result.problems.append((overlay, "", f"{_base(document)} is a native descriptor file: write these "
                                                 "contract fields in it; overlays are for provider tool lists"))
        return result
    if kind == "overlay":
        from toolcontract.io.overlay import standalone_problem

        pointer, message = standalone_problem(document)
        return ReadResult("overlay", [], [(document, pointer, message)])
    if kind is None:
        from toolcontract.io.providers import undetected_message

        return ReadResult(None, [], [(document, "", undetected_message(data, FORMATS))])

    if kind == "a2a-card":
        from toolcontract.io.cards import card_problem, read_card

        tools = read_card(document)
        for tool in tools:
            tool.contracts = "full" if contracts_required else "none"
        problem = card_problem(data)  # a forced format on what is no card
        return ReadResult(kind, tools, [] if problem is None else [(document, "", problem)])
    from toolcontract.io.providers import read_provider

    tools, problems = read_provider(document, kind, mcp_revision)
    result = ReadResult(kind, tools, [Problem(document, pointer, message) for pointer, message in problems])
    for tool in tools:
        tool.contracts = "none"
    if overlay is not None:
        from toolcontract.io.overlay import apply_overlay

        result.problems.extend(apply_overlay(tools, document, overlay))  # marks tools "listed" or "entry"
    for tool in tools:
        derive_effect(tool)
        if contracts_required:
            tool.contracts = "full"
    return result


# ---------------------------------------------------------------- discovery
#
# What a walk of a folder lints. A file named on the command line is always linted (a file
# that is no tool list is then TC002); a file met walking a folder is linted only when it says
# it is a tool list, and skipped (counted in the summary) otherwise, so that `lint .` in a
# repository passes over package.json, tsconfig.json, workflow and compose files, data files.


def is_tool_list(data: object, path: str | None = None) -> bool:
    """Whether a walked file's content says it is a tool list: a root `toolcontract:` key (our
    format, or a contract overlay), or a provider format the detector places (MCP, OpenAI,
    Anthropic, Gemini: keys only tool lists have). A mapping that only looks native (a `name`,
    a `version`: package.json, a GitHub workflow, docker-compose.yml) is not one."""
    if type(data) is dict and "toolcontract" in data:
        return True
    from toolcontract.io.providers import detect

    kind = detect(data, path)
    return kind is not None and kind != "native"


# Walked files that may fail to load and are still no descriptor: JSON with comments by design
# (TypeScript and JavaScript project files), lockfiles that outgrow the size limit, and Helm
# chart templates (Go templates, YAML only once rendered). Any other walked file that does not
# load is TC000: a broken descriptor must not be hidden. Keep this list short.
KNOWN_NON_DESCRIPTORS = ("tsconfig.json", "tsconfig.*.json", "jsconfig.json", "jsconfig.*.json",
                         "package-lock.json", "pnpm-lock.yaml")


def known_non_descriptor(path: str) -> bool:
    """A walked file that is skipped, not TC000, when it does not load: its name is in
    KNOWN_NON_DESCRIPTORS, or it is in the `templates` folder of a Helm chart (beside Chart.yaml)."""
    import fnmatch

    name = os.path.basename(path).lower()
    if any(fnmatch.fnmatchcase(name, pattern) for pattern in KNOWN_NON_DESCRIPTORS):
        return True
    folder = os.path.dirname(os.path.abspath(path))
    while os.path.basename(folder) != "templates":  # templates/ and the folders under it
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent
    return os.path.isfile(os.path.join(os.path.dirname(folder), "Chart.yaml"))


def _base(document: Document) -> str:
    return os.path.basename(document.path) or document.path


def read_native(document: Document) -> list[ToolView]:
    """Descriptors of a native file: the root itself, or each mapping in `tools:`.

    Entries of the wrong shape are skipped here; TC002 reports them.
    """
    data = document.data
    if not isinstance(data, dict):
        return []
    if "tools" in data:
        tools = data["tools"]
        if not isinstance(tools, list):
            return []
        return [
            ToolView(item, document, f"/tools/{index}")
            for index, item in enumerate(tools)
            if isinstance(item, dict)
        ]
    return [ToolView(data, document, "")]
