"""The registry a harness builds its gate from, with constructors for the files and provider lists it has.

`toolcontract.Registry` is this class: the assess core's `Registry` (exact-name look-ups, validators
compiled once) plus two constructors that read, which the pure core does not:

    Registry.from_path("tools/")                     # any file or folder lint reads, overlays included
    Registry.from_provider(openai_tools)             # an MCP / OpenAI / Anthropic / Gemini list as Python data
    Registry.from_provider(mcp_result, format="mcp")

Provider tools get what their format holds: an MCP tool's annotations give its effect class (the same
derivation lint uses); an overlay beside a provider file adds the contract fields.
"""

from __future__ import annotations

import os
from typing import Any

from toolcontract.assessment.registry import Registry as _Registry


class Registry(_Registry):
    @classmethod
    def from_path(cls, path: str | os.PathLike) -> "Registry":
        """The tools of a file or a folder, in any format lint reads, each provider file merged with its
        contract overlay (`X.contract.yaml`). ValueError (`path:line:col: message`) when a file does not
        load or nothing in it is a tool."""
        from toolcontract.io.document import DEFAULT_LIMITS, LoadError, load_bytes
        from toolcontract.io.files import open_regular
        from toolcontract.io.overlay import pair_overlays
        from toolcontract.io.reader import read_tools

        path = os.fspath(path)
        if os.path.isdir(path):
            names = sorted(os.path.join(root, name) for root, _, files in os.walk(path) for name in files
                           if name.lower().endswith((".yaml", ".yml", ".json")))
        elif os.path.exists(path):
            names = [path]
        else:
            raise ValueError(f"{path}:1:1: no such file or directory")

        def read(name: str):
            try:
                with open_regular(name) as handle:
                    return handle.read(DEFAULT_LIMITS.max_bytes + 1)
            except OSError as exc:
                return LoadError(f"cannot read: {exc.strerror or exc}")

        files, overlays = pair_overlays([(name, read(name)) for name in names], DEFAULT_LIMITS)

        def load(name: str, content: Any):
            try:
                if isinstance(content, LoadError):
                    raise content
                return load_bytes(content, name, DEFAULT_LIMITS)
            except LoadError as error:
                raise ValueError(f"{name}:{error.line}:{error.column}: {error.message}") from None

        descriptors = []
        for name, content in files:
            overlay = load(*overlays[name]) if name in overlays else None
            found = read_tools(load(name, content), None, overlay)
            descriptors.extend(view.data for view in found.tools if isinstance(view.data.get("name"), str))
        if not descriptors:
            raise ValueError(f"{path}:1:1: no tool descriptors found")
        return cls.from_descriptors(descriptors)

    @classmethod
    def from_provider(cls, tools: Any, format: str | None = None) -> "Registry":
        """A provider's tool list as Python data (`{"tools": [...]}`, a bare list, a JSON-RPC tools/list
        response, Gemini `functionDeclarations`), in `format` (mcp, openai-chat, openai-responses,
        anthropic, gemini, native) or the one detected from its keys. ValueError when it holds no tool."""
        from toolcontract.io.document import Document
        from toolcontract.io.reader import read_tools

        found = read_tools(Document("<provider tools>", "", tools), format)
        if found.format is None:
            raise ValueError(found.problems[0][2] if found.problems else "not a tool list")
        descriptors = [view.data for view in found.tools if isinstance(view.data.get("name"), str)]
        if not descriptors:
            raise ValueError(f"no tools in this {found.format} list")
        return cls.from_descriptors(descriptors)
