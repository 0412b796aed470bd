"""toolcontract: lint LLM tool-calling contracts and assess recorded tool calls.

Library use (a harness checking a model's call before running it)::

    from toolcontract import Candidate, Context, Registry, admit
    registry = Registry.from_descriptors([descriptor])   # native-named dicts
    admission = admit(Candidate("toolu_01", "invoice_get", {"invoice_id": "INV-7"}), registry, Context())
    if not admission.admitted: ...

Names are loaded on first use, so `import toolcontract` stays cheap for the CLI.
"""

from __future__ import annotations

__version__ = "0.1.0"

_EXPORTS = {
    "admit": "toolcontract.assessment.gates",
    "Admission": "toolcontract.assessment.gates",
    "assess": "toolcontract.assessment.envelope",
    "Envelope": "toolcontract.assessment.envelope",
    "classify": "toolcontract.assessment.classify",
    "Registry": "toolcontract.io.registries",
    "Tool": "toolcontract.assessment.registry",
    "compile_tool": "toolcontract.assessment.registry",
    "Candidate": "toolcontract.core.model",
    "Context": "toolcontract.core.model",
    "Record": "toolcontract.core.model",
    "Observation": "toolcontract.core.model",
    "Case": "toolcontract.core.model",
    "Outcome": "toolcontract.core.model",
    "EffectState": "toolcontract.core.model",
    "NextStep": "toolcontract.core.model",
    "Gate": "toolcontract.core.model",
    "Finding": "toolcontract.core.model",
    "Severity": "toolcontract.core.model",
    "lint_files": "toolcontract.lint.engine",
    "lint_text": "toolcontract.lint.engine",
    "Selection": "toolcontract.lint.engine",
    "case_from_dict": "toolcontract.io.fixtures",
    # the jobs, as the CLI runs them: paths and options in, a result out
    "lint_paths": "toolcontract.app.lint",
    "assess_paths": "toolcontract.app.assess",
    "AssessResult": "toolcontract.app.assess",
    "InputError": "toolcontract.io.errors",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str):
    if name in _EXPORTS:
        # __import__ with a fromlist hands back the module itself; importlib would import `warnings` too
        return getattr(__import__(_EXPORTS[name], fromlist=[name]), name)
    raise AttributeError(f"module 'toolcontract' has no attribute {name!r}")
