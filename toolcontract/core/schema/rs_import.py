"""Importing jsonschema-rs without `email.utils`: `load()`.

jsonschema-rs's extension builds its `__build__` record when it is imported (the
pyo3-built crate), and turns the build time into a datetime with
`email.utils.parsedate_to_datetime`. Importing `email.utils` pulls in `socket`,
`random`, `datetime`, `calendar`, `locale` and more: on the 2-core machine about
15-30 ms of every `toolcontract lint` process, for a value nobody reads.

So while the extension loads, `email.utils` is a stand-in whose
`parsedate_to_datetime` returns its argument (`__build__["info-time"]` stays the
build date as text). Any other attribute loads the real module, which then replaces
the stand-in for good, so an extension that needs more than that one function still
gets it. The stand-in leaves `sys.modules` when the import ends, whether it worked
or not: a later `import email.utils` gets the real module. When `email.utils` is
already imported there is nothing to save, and the plain import runs.
"""

from __future__ import annotations

import sys
import types

_NAME = "email.utils"


class _StandIn(types.ModuleType):
    """`email.utils` while jsonschema-rs loads: one cheap function, the real module for the rest."""

    @staticmethod
    def parsedate_to_datetime(data):
        return data

    def __getattr__(self, name: str):
        if sys.modules.get(_NAME) is self:
            del sys.modules[_NAME]
        import importlib

        return getattr(importlib.import_module(_NAME), name)


def load() -> types.ModuleType:
    """The `jsonschema_rs` module, imported at most once, without importing `email.utils` for it."""
    module = sys.modules.get("jsonschema_rs")
    if module is not None:
        return module
    if _NAME in sys.modules:
        import jsonschema_rs

        return jsonschema_rs
    stand_in = _StandIn(_NAME)
    sys.modules[_NAME] = stand_in
    try:
        import jsonschema_rs
    finally:
        if sys.modules.get(_NAME) is stand_in:
            del sys.modules[_NAME]
    return jsonschema_rs


__all__ = ["load"]
