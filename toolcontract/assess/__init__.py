"""Assess recorded tool calls: admission gates, classification, envelopes.

A pure core a harness can call at run time, before it executes a model's call:

    registry = Registry.from_descriptors([descriptor_dict, ...])
    admission = admit(Candidate(id, name, arguments), registry, Context(...))
    envelope = assess(Case(id, candidate, context, record, observation), registry)
"""

import sys
import types

from toolcontract.assess.classify import Classification, classify
from toolcontract.assess.envelope import Envelope, assess
from toolcontract.assess.gates import GATES, Admission, Verdict, admit
from toolcontract.assess.registry import Registry, Tool, compile_tool

__all__ = [
    "GATES", "Admission", "Classification", "Envelope", "Registry", "Tool", "Verdict",
    "admit", "assess", "classify", "compile_tool",
]


class _CallablePackage(types.ModuleType):
    """`from toolcontract import assess` names this package (Python binds a package's
    submodules as its attributes), so the package itself answers `assess(case, registry)`."""

    def __call__(self, case, registry):
        return assess(case, registry)


sys.modules[__name__].__class__ = _CallablePackage
