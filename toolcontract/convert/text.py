"""A converted document as text: JSON, or YAML that reads back as the same data."""

from __future__ import annotations

import functools
import json
from typing import Any

def render(document: Any, as_yaml: bool = False) -> str:
    """The document as text: JSON (indented by two, UTF-8 kept), or YAML for our format.

    Raises ValueError for a value the format cannot hold (NaN or infinity in JSON, a
    lone surrogate in YAML); the text always encodes as UTF-8. The YAML quotes
    every string our loader (YAML 1.2 core schema) or a YAML 1.1 reader would take
    for something else, so it reads back as the same data.
    """
    if not as_yaml:
        text = json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
        if _encodable(text):
            return text
        # a lone surrogate (JSON input may hold one as an escape): only an escape can carry it
        return json.dumps(document, indent=2, ensure_ascii=True, allow_nan=False) + "\n"
    import yaml

    if not _encodable(json.dumps(document, ensure_ascii=False)):  # PyYAML would write an escape no reader takes
        raise ValueError("a string holds a lone surrogate, which YAML cannot carry; write JSON instead")
    return yaml.dump(document, Dumper=_yaml_dumper(), sort_keys=False, allow_unicode=True,
                     default_flow_style=False, width=100)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@functools.cache
def _yaml_dumper() -> type:
    import yaml

    from toolcontract.io.document import _resolve_plain

    class Dumper(yaml.SafeDumper):
        def ignore_aliases(self, data: Any) -> bool:  # a shared subschema is written out, never as an alias
            return True

    def represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
        style = None
        if any(char in value for char in "\r\x85\u2028\u2029"):  # line breaks a quoted or block scalar would fold
            style = '"'
        elif "\n" in value:
            style = "|"  # the emitter falls back to quotes when a block cannot hold the text
        else:
            resolved = _resolve_plain(value)
            if not (isinstance(resolved, str) and resolved == value):
                style = "'"
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    Dumper.add_representer(str, represent_str)
    return Dumper
