"""Assess recorded tool calls: admission gates, classification, envelopes.

A pure core a harness can call at run time, before it executes a model's call:

    registry = Registry.from_descriptors([descriptor_dict, ...])
    admission = admit(Candidate(id, name, arguments), registry, Context(...))
    envelope = assess(Case(id, candidate, context, record, observation), registry)
"""

from toolcontract.assessment.classify import Classification, classify
from toolcontract.assessment.envelope import Envelope, assess
from toolcontract.assessment.gates import GATES, Admission, Verdict, admit
from toolcontract.assessment.registry import Registry, Tool, compile_tool

__all__ = [
    "GATES", "Admission", "Classification", "Envelope", "Registry", "Tool", "Verdict",
    "admit", "assess", "classify", "compile_tool",
]
