"""`toolcontract init`: what it writes, and where. Plain functions: text in, (path, text) out; the CLI
writes the files (never over one that exists).

    starter_config(folder)          -> [tool.toolcontract] appended to pyproject.toml, or .toolcontract.yaml
    overlay_skeleton(list_path)     -> X.contract.yaml beside the provider list X.json

The starter configuration writes every key of schemas/config.schema.json, each under a comment: the
ones whose default a project usually states (select, ignore, fail-on, target, contracts) set to that
default, the others commented out with an example. The overlay skeleton has an entry for every named
tool of the list, a `TODO` purpose and non-goal (TC201 and TC202 report them until they are written),
and the effect class its MCP annotations imply, or a commented-out `effect:` to choose.
"""

from __future__ import annotations

import json
import os
from typing import Optional

from toolcontract.io.errors import InputError

# (key, TOML value, YAML value, comment, set): a key not set is written commented out, as an example
CONFIG_KEYS = (
    ("select", '["ALL"]', "[ALL]", "Rules to run: ids (TC403), families (TC4) or names (additional-properties-open); "
     "ALL runs every rule.", True),
    ("ignore", "[]", "[]", "Rules to skip, written as in select, e.g. [\"TC102\", \"description-long\"].", True),
    ("fail-on", '"error"', "error", "`toolcontract lint` exits 1 when a finding has at least this severity: error, "
     "warning or info.", True),
    ("target", "[]", "[]", "Surfaces to check portability for (the TC5xx rules): openai, openai-strict, anthropic, "
     "anthropic-strict, gemini, mcp.", True),
    ("contracts", '"optional"', "optional", "Provider tool lists (MCP, OpenAI, Anthropic, Gemini): optional holds "
     "them to what their format can say plus their overlay's fields; required to the whole contract.", True),
    ("include", '["tools/**/*.json", "tools/**/*.yaml"]', "['tools/**/*.json', 'tools/**/*.yaml']",
     "Files `toolcontract lint` lints when run without paths (default: every tool list found here).", False),
    ("exclude", '["tests/**"]', "['tests/**']", "Files never linted when found in folders.", False),
    ("severity", '{TC403 = "error"}', "{TC403: error}", "The severity of a rule's findings, by id, prefix or name.",
     False),
    ("per-file-ignores", '{"legacy/**" = ["TC2"]}', "{'legacy/**': [TC2]}", "Rules skipped in the files a glob "
     "matches.", False),
    ("overlays", '{"vendor/tools.json" = "contracts/tools.contract.yaml"}',
     "{vendor/tools.json: contracts/tools.contract.yaml}", "A provider list's contract overlay when it is not "
     "X.contract.yaml beside X.json.", False),
    ("cache-dir", '".toolcontract_cache"', ".toolcontract_cache", "Where lint keeps its cache (relative to this "
     "file); `lint --no-cache` turns it off.", False),
    ("max-toolset-tokens", "20000", "20000", "TC517: warn when one tool list costs a model more tokens than this.",
     False),
    ("max-tools-checked", "2000", "2000", "TC003: the tools of one file every per-tool rule checks.", False),
    ("assess", '{select = ["TC8"], fail-on = ["blocked", "effect_unknown"], max-rounds = 20}',
     "{select: [TC8], fail-on: [blocked, effect_unknown], max-rounds: 20}", "`toolcontract assess`: conversation "
     "rules to run, outcomes that fail the run, the --context file, max-rounds.", False),
)


def _config_lines(toml: bool) -> list[str]:
    lines = []
    for key, toml_value, yaml_value, comment, active in CONFIG_KEYS:
        lines.append(f"# {comment}")
        line = f"{key} = {toml_value}" if toml else f"{key}: {yaml_value}"
        lines.append(line if active else f"# {line}")
    return lines


def starter_config(folder: str = ".") -> tuple[str, str, bool]:
    """(path, the file's whole new text, whether it appends to an existing pyproject.toml).

    pyproject.toml without a [tool.toolcontract] table gets one appended (its text kept byte for byte);
    without a pyproject.toml, .toolcontract.yaml. Exit 2 (InputError) when a configuration is there."""
    from toolcontract.io.config import CONFIG_NAMES

    for name in CONFIG_NAMES:
        existing = os.path.normpath(os.path.join(folder, name))
        if os.path.lexists(existing):
            raise InputError(f"{existing}:1:1: a configuration is already here; init never overwrites a file")
    pyproject = os.path.normpath(os.path.join(folder, "pyproject.toml"))
    header = "# toolcontract's configuration, written by `toolcontract init`; schemas/config.schema.json has every key."
    if not os.path.lexists(pyproject):
        return (os.path.normpath(os.path.join(folder, CONFIG_NAMES[0])), "\n".join([header, *_config_lines(False)]) + "\n", False)
    import tomllib

    try:
        with open(pyproject, "rb") as handle:
            raw = handle.read()
        text = raw.decode("utf-8")
        document = tomllib.loads(text)
    except OSError as exc:
        raise InputError(f"{pyproject}:1:1: cannot read: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InputError(f"{pyproject}:1:1: not valid TOML ({exc}); init appends [tool.toolcontract] only to a "
                         "file it can read") from None
    tool = document.get("tool")
    if isinstance(tool, dict) and "toolcontract" in tool:
        raise InputError(f"{pyproject}:{_table_line(text)}:1: [tool.toolcontract] is already here; init never "
                         "overwrites a configuration")
    separator = "" if not text else "\n" if text.endswith("\n") else "\n\n"
    new = text + separator + "\n".join([header, "[tool.toolcontract]", *_config_lines(True)]) + "\n"
    try:
        tomllib.loads(new)
    except tomllib.TOMLDecodeError as exc:  # e.g. `tool = {...}` inline: a [tool.toolcontract] table cannot follow
        raise InputError(f"{pyproject}:1:1: a [tool.toolcontract] table cannot be appended here ({exc}); write the "
                         "configuration in .toolcontract.yaml instead") from None
    return pyproject, new, True


def _table_line(text: str) -> int:
    import re

    found = re.search(r"^\s*\[\s*tool\s*\.\s*toolcontract\b", text, re.M) or re.search(r"toolcontract", text)
    return text.count("\n", 0, found.start()) + 1 if found else 1


def overlay_skeleton(list_path: str, document, input_format: Optional[str] = None) -> tuple[str, str]:
    """(overlay path, text) for the provider tool list in `document` (read from `list_path`).

    Exit 2 when the file is no provider list (a native descriptor holds its contract itself), or names no tool."""
    from toolcontract.io.overlay import default_overlays
    from toolcontract.io.reader import read_tools

    read = read_tools(document, input_format)
    if read.format == "native":
        raise InputError(f"{list_path}:1:1: a native descriptor file: write the contract fields in it; an overlay is "
                         "for a provider tool list (MCP, OpenAI, Anthropic, Gemini)")
    if read.format == "a2a-card":
        raise InputError(f"{list_path}:1:1: an A2A Agent Card: no overlay holds contracts for its skills")
    if read.format in (None, "overlay"):
        message = read.problems[0][2] if read.problems else "no reader recognizes this file"
        raise InputError(f"{list_path}:1:1: not a provider tool list: {message}")
    tools = {}
    for view in read.tools:
        if view.name is not None and view.name not in tools:
            tools[view.name] = view
    if not tools:
        raise InputError(f"{list_path}:1:1: the list has no named tool to write an overlay entry for")
    path = default_overlays(list_path)[0]
    base = os.path.basename(list_path)
    lines = [
        f"# Contract overlay for {base}, written by `toolcontract init`: our contract fields for its tools.",
        "# Replace every TODO: lint reports a TODO purpose or non-goal as not written yet (TC201, TC202).",
        "toolcontract: 1",
        "tools:",
    ]
    for name, view in tools.items():
        lines += [f"  {json.dumps(name, ensure_ascii=False)}:",
                  f"    purpose: {json.dumps(f'TODO: say in one sentence what {name} is for', ensure_ascii=False)}",
                  "    non_goals:",
                  f"      - {json.dumps(f'TODO: what {name} does not do', ensure_ascii=False)}"]
        effect = view.effect
        if effect is not None and view.effect_origin is not None:
            lines.append(f"    effect: {effect.value}  # from the MCP annotations ({view.effect_origin})")
        else:
            lines.append("    # effect: TODO, one of pure, read, reversible_write, irreversible_write, open_world")
    return path, "\n".join(lines) + "\n"
