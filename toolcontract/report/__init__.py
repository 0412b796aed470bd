"""Reporters: one module per format, registered by name. Each takes a LintResult
and a text stream; they share `printable` to neutralise hostile input strings."""

from __future__ import annotations

from typing import Callable

LINT_FORMATS = {
    "rich": "toolcontract.report.rich",
    "text": "toolcontract.report.text",
    "json": "toolcontract.report.json",
    "sarif": "toolcontract.report.sarif",
    "github": "toolcontract.report.github",
    "junit": "toolcontract.report.junit",
}


def lint_reporter(name: str, root: str | None = None) -> Callable:
    """The `render_lint(result, stream)` function of a format (imported on demand: rich is slow to load).
    `root`: the folder SARIF's paths are relative to (`--root`; the other formats write paths as given)."""
    # __import__ with a fromlist hands back the module itself (importlib would import `warnings`)
    render = __import__(LINT_FORMATS[name], fromlist=["render_lint"]).render_lint
    if name == "sarif" and root is not None:
        import functools

        return functools.partial(render, root=root)
    return render


RULES_FORMATS = ("rich", "text", "json")  # `toolcontract rules` (toolcontract.report.rules.render_rules)

ASSESS_FORMATS = {
    "rich": "toolcontract.report.rich_assess",
    "text": "toolcontract.report.text",
    "json": "toolcontract.report.json",
    "sarif": "toolcontract.report.sarif",
    "github": "toolcontract.report.github",
    "junit": "toolcontract.report.junit",
}

# the format `-o FILE` writes when --format is not given, by FILE's extension (else json)
OUTPUT_FORMATS = {".sarif": "sarif", ".json": "json", ".xml": "junit"}


def output_format(output: str, given: str | None) -> str:
    """The format of `-o FILE`: --format when given, else the one FILE's extension names, else json."""
    if given is not None:
        return given
    import os

    return OUTPUT_FORMATS.get(os.path.splitext(output)[1].lower(), "json")


def assess_reporter(name: str, stream, verbose: bool = False):
    """A streaming `AssessReporter` of a format."""
    return __import__(ASSESS_FORMATS[name], fromlist=["AssessReport"]).AssessReport(stream, verbose)
