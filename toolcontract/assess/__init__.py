"""Assess recorded tool calls: admission gates, classification, envelopes.

A pure core a harness can call at run time, before it executes a model's call:

    registry = Registry.from_descriptors([descriptor_dict, ...])
    admission = admit(Candidate(id, name, arguments), registry, Context(...))
    envelope = assess(Case(id, candidate, context, record, observation), registry)

The names below load their modules on first use (PEP 562), so that `import toolcontract`,
which imports this package, stays cheap for `lint`.

`toolcontract.assess` is the function `assess(case, registry)` (see toolcontract/__init__.py);
reach this package's modules with `from toolcontract.assess import gates` or
`from toolcontract.assess.gates import admit`.
"""

_EXPORTS = {
    "GATES": "toolcontract.assess.gates",
    "Admission": "toolcontract.assess.gates",
    "Verdict": "toolcontract.assess.gates",
    "admit": "toolcontract.assess.gates",
    "Classification": "toolcontract.assess.classify",
    "classify": "toolcontract.assess.classify",
    "Envelope": "toolcontract.assess.envelope",
    "assess": "toolcontract.assess.envelope",
    "Registry": "toolcontract.assess.registry",
    "Tool": "toolcontract.assess.registry",
    "compile_tool": "toolcontract.assess.registry",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(__import__(_EXPORTS[name], fromlist=[name]), name)
    raise AttributeError(f"module 'toolcontract.assess' has no attribute {name!r}")
