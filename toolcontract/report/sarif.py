"""`sarif`: SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.

Every rule appears in `tool.driver.rules` with its summary, and its rationale and
examples as help; the security rules (TC6xx) carry the `security` tag and a
`security-severity` (SECURITY_SEVERITY below), so code scanning files them as security
alerts. Results point at file, line and column, with the JSON pointer as a logical
location. Positions are 1-based Unicode code points.

Paths are relative to `%SRCROOT%` (`originalUriBaseIds`): the working directory, or
`--root DIR`. A file outside the root keeps a relative path with `../` (never an absolute
`file:` URI, which code scanning cannot place in the repository). A finding of a live server
(`lint --mcp-stdio`, path `mcp-stdio:COMMAND`) has no file: it carries logical locations (the
server, the tool, the pointer) and, since code scanning refuses a result without a physical
location, points at `mcp-stdio/NAME.json` (`live_file`): the file `convert --mcp-stdio COMMAND
-o mcp-stdio/NAME.json` writes, whose lines and columns are the finding's. Its region is the start.
A server over Streamable HTTP (`lint --mcp-url`, path `mcp-http:URL`) is the same, at `mcp-http/NAME.json`
(`live_http_file`).

Regions end where the flagged token ends (`endLine`, `endColumn`, exclusive): the quoted
string, the plain scalar, the number or the key at the finding's start, read from the
document's text; from inside a quoted string, to the end of that string; a YAML block scalar
(`|`, `>-`) to its last line; a bracket is one character. A string that goes on past its first line ends at that line's end. With no text
to read (a file that did not load) the region is the start alone (end = start).
"""

from __future__ import annotations

import hashlib
import os
import re

from pathlib import PurePath
from typing import TextIO
from urllib.parse import quote

from toolcontract import __version__
from toolcontract.core import jsoncodec, owasp
from toolcontract.lint.engine import all_rules
from toolcontract.core.rule import Bad, example_settings
from toolcontract.core.model import Severity
from toolcontract.report.common import AssessReporter, want_got

LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"
_JSON_START = re.compile(r"\s*[\[{]")
LIVE_PREFIX = "mcp-stdio:"  # the stand-in path of a live server's findings (toolcontract.io.mcp_live.command_label)
HTTP_PREFIX = "mcp-http:"  # ... of one over Streamable HTTP (toolcontract.io.mcp_http.url_label)

# GitHub's `security-severity` (CVSS-like, 0.0-10.0): 9.0+ critical, 7.0-8.9 high, 4.0-6.9 medium, 0.1-3.9 low.
# Every TC6xx rule is here (a test checks it); the reason for each score is beside it.
SECURITY_SEVERITY = {
    "TC601": "8.0",  # hidden characters: text the model reads and a reviewer cannot see (high)
    "TC602": "7.0",  # confusable letters: a tool or property that passes for another one (high, its low end)
    "TC603": "8.5",  # instruction injection: orders to the model in the contract itself (high)
    "TC604": "8.5",  # cross-tool instruction: one tool steering or shadowing the others (high)
    "TC605": "8.8",  # exfiltration: credentials or conversation sent away (high, its top)
    "TC606": "9.0",  # an embedded secret: a live credential is already leaked to every reader (critical)
    "TC607": "5.3",  # ReDoS: a validator can be made to hang; availability only (medium)
    "TC608": "7.5",  # an attack payload in a default, example or enum value (high)
    "TC609": "2.0",  # the scan stopped early: what was not read is unchecked, not known bad (low)
    "TC610": "7.5",  # a fetch pointed into the host: cloud metadata credentials, admin and container endpoints (high)
    "TC611": "5.0",  # the tool says it keeps or passes on credentials, card data or identifiers (medium)
}


def _uri(path: str, root: str) -> str:
    """`path` relative to `root`, forward slashes, percent-encoded from the file system's bytes (a name that is
    not UTF-8 keeps its exact bytes, %FF); `..` segments for a file outside the root."""
    if path not in ("-", "<stdin>"):
        try:
            path = os.path.relpath(os.path.abspath(path), root)
        except ValueError:  # another drive (Windows): no relative path exists
            pass
    return quote(os.fsencode(PurePath(path).as_posix()), safe="/")


def _root_uri(root: str) -> str:
    uri = PurePath(root).as_posix()
    return "file://" + ("" if uri.startswith("/") else "/") + quote(os.fsencode(uri), safe="/:").rstrip("/") + "/"


def live_http_file(url: str) -> str:
    """Where the findings of a server over HTTP point: `mcp-http/NAME.json`, NAME made of the URL's host, port
    and path and a hash of the whole label, as `live_file` does for a command."""
    rest = url.split("://", 1)[-1]
    slug = re.sub(r"[^A-Za-z0-9._]+", "-", rest).strip("-.")[:60].rstrip("-.") or "server"
    digest = hashlib.sha256(url.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"mcp-http/{slug}-{digest}.json"


def live_file(command: str) -> str:
    """Where a live server's findings point: `mcp-stdio/NAME.json`, NAME made of the command's words (the program's
    base name first) and a hash of the whole command, so that two servers never share a file."""
    words = command.split()
    if words:
        words[0] = words[0].replace("\\", "/").rsplit("/", 1)[-1]
    slug = re.sub(r"[^A-Za-z0-9._]+", "-", " ".join(words)).strip("-.")[:60].rstrip("-.") or "server"
    digest = hashlib.sha256(command.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"mcp-stdio/{slug}-{digest}.json"


def region_end(document, line: int, column: int) -> tuple[int, int]:
    """(endLine, endColumn) of the token at (line, column) of `document`'s text, the column exclusive;
    (line, column) when there is no text there to read. See the module's docstring."""
    if document is None or line < 1 or column < 1:
        return line, column
    text = document.line_text(line)
    index = column - 1
    if index >= len(text):
        return line, column
    json_text = _JSON_START.match(getattr(document, "text", "")) is not None
    quote_open, depth, at = None, 0, 0
    while at < index:  # what the line holds before the start: inside a quoted string? inside a flow collection?
        char = text[at]
        if quote_open is None:
            if (char == '"') if json_text else (char in "\"'" and _token_starts(text, at)):
                quote_open = char
            elif char in "{[":
                depth += 1
            elif char in "}]":
                depth = max(depth - 1, 0)
            elif char == "#" and not json_text and (at == 0 or text[at - 1] in " \t"):
                return line, column  # in a comment
        elif char == "\\" and quote_open == '"':
            at += 1
        elif char == quote_open:
            if quote_open == "'" and text[at + 1:at + 2] == "'":
                at += 1
            else:
                quote_open = None
        at += 1
    if quote_open is not None:  # inside a string: to its end (before the closing quote)
        return line, _closing(text, index, quote_open)
    char = text[index]
    if char in "\"'" and (char == '"' or not json_text):
        end = _closing(text, index + 1, char)
        return line, end + 1 if end <= len(text) and text[end - 1:end] == char else end
    if char in "{}[],":
        return line, column + 1
    if not json_text and char in "|>" and _BLOCK_HEADER.match(text, index):
        return _block_end(document, line, _KEY_INDENT.match(text).end(), column)
    stops = ",]}" if json_text or depth else ""
    end = index
    while end < len(text):
        char = text[end]
        if char in stops or (json_text and char in " \t:"):
            break
        if not json_text and char in " \t" and text[end + 1:end + 2] == "#":
            break
        if not json_text and char == ":" and text[end + 1:end + 2] in ("", " ", "\t"):
            break
        end += 1
    while end > index and text[end - 1] in " \t":
        end -= 1
    return line, max(end, index + 1) + 1


_KEY_INDENT = re.compile(r" *(?:- +)*")  # before the key of a line: its indentation and sequence dashes
_BLOCK_HEADER = re.compile(r"[|>][-+0-9]*[ \t]*(?:#.*)?\Z")  # a YAML block scalar's header: `|`, `>-`, `|2+ # c`


def _block_end(document, line: int, indent: int, column: int) -> tuple[int, int]:
    """The end of a YAML block scalar whose header is on `line`: its last line more indented than the key of the
    header's line, at `indent` (blank lines inside it count, trailing ones do not)."""
    last = getattr(document, "text", "").count("\n") + 1  # line_text is "" past the end and for blank lines alike
    end_line, end_column = line, column + 1
    for at in range(line + 1, last + 1):
        text = document.line_text(at)
        if not text.strip():
            continue
        if len(text) - len(text.lstrip(" ")) <= indent:
            break
        end_line, end_column = at, len(text.rstrip()) + 1
    return end_line, end_column


def _token_starts(text: str, at: int) -> bool:
    """Whether a YAML token may start at index `at`: only blanks before it, or an indicator (`:`, `-`, `?`,
    a flow bracket or comma) and blanks. (A quote inside a plain scalar, as in `don't`, opens no string.)"""
    before = text[:at].rstrip(" \t")
    return not before or before[-1] in ":-?[{,"


def _closing(text: str, start: int, quote_char: str) -> int:
    """The 1-based column of the closing quote of a string whose content resumes at index `start`, or the
    column after the line's end when the string goes on past it."""
    at = start
    while at < len(text):
        char = text[at]
        if char == "\\" and quote_char == '"':
            at += 2
            continue
        if char == quote_char:
            if quote_char == "'" and text[at + 1:at + 2] == "'":
                at += 2
                continue
            return at + 1
        at += 1
    return len(text) + 1


def fingerprint(finding, uri: str) -> str:
    """What stays the same when lines move: the rule, the file, the tool, the pointer and the message."""
    key = "\0".join((finding.rule, uri, finding.tool or "", finding.pointer or "", finding.message))
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _help(rule) -> tuple[str, str]:
    text = [rule.rationale]
    markdown = [rule.rationale]
    for example in rule.examples:
        head = f"Bad (hits line {example.line})" if isinstance(example, Bad) else "Good"
        if example.options:
            head += f", with {example_settings(example)}"
        if example.before:  # a change rule's example: the old version, then the new one
            text.append(f"{head}, before:\n{example.before}")
            markdown.append(f"**{head}**, before:\n\n```yaml\n{example.before}```")
            head = "after"
        text.append(f"{head}:\n{example.text}")
        markdown.append(f"**{head}**\n\n```yaml\n{example.text}```")
    return "\n\n".join(text), "\n\n".join(markdown)


def rule_descriptors(prefix: str = "") -> list[dict]:
    """The `rules` of the driver: every rule, or those whose id starts with `prefix`."""
    descriptors = []
    for rule in all_rules().values():
        if not rule.id.startswith(prefix):
            continue
        text, markdown = _help(rule)
        descriptor = {
            "id": rule.id,
            "name": rule.name,
            "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": rule.rationale},
            "help": {"text": text, "markdown": markdown},
            "defaultConfiguration": {"level": LEVEL[rule.severity]},
            "properties": {"tags": ["toolcontract", rule.id[:3] + "xx"]},
        }
        if rule.id in SECURITY_SEVERITY:
            descriptor["properties"]["tags"].append("security")
            descriptor["properties"]["security-severity"] = SECURITY_SEVERITY[rule.id]
        if rule.owasp:  # the OWASP MCP Top 10 categories: tags code scanning shows, and the run's taxonomy
            descriptor["properties"]["tags"].extend(f"owasp-mcp-top-10/{c}" for c in rule.owasp)
            descriptor["relationships"] = [
                {"target": {"id": c, "toolComponent": {"name": owasp.NAME}}, "kinds": ["superset"]}
                for c in rule.owasp]
        if rule.surfaces:
            descriptor["properties"]["surfaces"] = list(rule.surfaces)
        descriptors.append(descriptor)
    return descriptors


def owasp_taxonomy() -> dict:
    """The OWASP MCP Top 10 as a SARIF taxonomy (a toolComponent the TC6xx rules relate to)."""
    return {"name": owasp.NAME, "version": owasp.VERSION, "informationUri": owasp.URI, "organization": "OWASP",
            "shortDescription": {"text": "The ten most critical security risks of Model Context Protocol deployments."},
            "taxa": [{"id": c, "name": name, "shortDescription": {"text": name}} for c, name in owasp.CATEGORIES.items()]}


def result_location(finding, root: str, documents) -> tuple[dict, str]:
    """The `locations` entry of a finding and the URI its fingerprint is made of."""
    http = finding.path.startswith(HTTP_PREFIX)
    if http or finding.path.startswith(LIVE_PREFIX):  # a live server: no file code scanning could open
        server = finding.path[len(HTTP_PREFIX if http else LIVE_PREFIX):]
        logical = [{"name": server, "fullyQualifiedName": finding.path, "kind": "module"}]
        if finding.tool:
            logical.append({"name": finding.tool, "fullyQualifiedName": f"{finding.path}/{finding.tool}",
                            "kind": "function"})
        if finding.pointer:
            logical.append({"fullyQualifiedName": finding.pointer, "kind": "member"})
        # GitHub refuses a whole upload with a result that has no physical location ("expected a physical
        # location"): the file `convert --mcp-stdio COMMAND -o live_file(COMMAND)` writes, whose text is the one
        # the finding's line and column are in
        uri = live_http_file(server) if http else live_file(server)
        line, column = max(finding.line, 1), max(finding.column, 1)
        return {"physicalLocation": {"artifactLocation": {"uri": uri, "uriBaseId": SRCROOT},
                                     "region": {"startLine": line, "startColumn": column}},
                "logicalLocations": logical}, finding.path
    uri = _uri(finding.path, root)
    line, column = max(finding.line, 1), max(finding.column, 1)
    end_line, end_column = region_end(documents.get(finding.path), line, column)
    location = {
        "physicalLocation": {
            "artifactLocation": {"uri": uri, "uriBaseId": SRCROOT},
            "region": {"startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column},
        },
    }
    if finding.pointer or finding.tool:
        location["logicalLocations"] = [{"fullyQualifiedName": finding.pointer or "/", "kind": "member"}]
    return location, uri


def sarif_document(findings, extra_properties: dict | None = None, root: str | None = None,
                   documents=None, results_extra=(), rules: list[dict] | None = None) -> dict:
    """The SARIF log of `findings` (paths relative to `root`, default the working directory; `documents`: path ->
    loaded Document, for the regions' ends). `results_extra`: results made elsewhere (assess's cases), appended;
    `rules`: the driver's rules (default: every rule)."""
    root = os.path.abspath(root or os.getcwd())
    documents = documents or {}
    rules = rule_descriptors() if rules is None else rules
    index = {r["id"]: i for i, r in enumerate(rules)}
    results = []
    for f in findings:
        location, uri = result_location(f, root, documents)
        result = {
            "ruleId": f.rule,
            "ruleIndex": index.get(f.rule, -1),
            "level": LEVEL[f.severity],
            "message": {"text": f.message},
            "locations": [location],
            "partialFingerprints": {"toolcontractFindingHash/v1": fingerprint(f, uri)},
        }
        if f.pointer or f.tool:
            result["properties"] = {"tool": f.tool, "pointer": f.pointer}
        if result["ruleIndex"] < 0:
            del result["ruleIndex"]
        results.append(result)
    results.extend(results_extra)
    run = {
        "tool": {"driver": {"name": "toolcontract", "version": __version__, "semanticVersion": __version__,
                            "rules": rules}},
        "originalUriBaseIds": {SRCROOT: {"uri": _root_uri(root)}},
        "taxonomies": [owasp_taxonomy()],
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    if extra_properties:
        run["properties"] = extra_properties
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def render_lint(result, stream: TextIO, root: str | None = None) -> None:
    """`root`: the folder paths are relative to (`--root`; default the working directory)."""
    from toolcontract.report.common import lint_summary

    document = sarif_document(result.findings, {"summary": lint_summary(result)}, root,
                              getattr(result, "documents", None))
    stream.write(jsoncodec.dumps(document, indent=2) + "\n")


# ---------------------------------------------------------------------- assess

# the cases that fail an assess run, as results of two rules of their own (no lint rule id: they are no rules of
# the catalog, `toolcontract rules` does not list them)
EXPECTATION_UNMET = "assess/expectation-unmet"
FAILING_OUTCOME = "assess/failing-outcome"
ASSESS_RULES = [
    {"id": EXPECTATION_UNMET, "name": "expectation-unmet",
     "shortDescription": {"text": "A case's recorded expectation (expect: outcome, effect) is not what the assessment "
                                  "found."},
     "fullDescription": {"text": "The fixture says which outcome and effect its case should have; the assessment "
                                 "found others. Either the gates or the classification changed, or the fixture is "
                                 "wrong."},
     "defaultConfiguration": {"level": "error"},
     "properties": {"tags": ["toolcontract", "assess"]}},
    {"id": FAILING_OUTCOME, "name": "failing-outcome",
     "shortDescription": {"text": "A case's outcome is one that --fail-on (or the config's assess fail-on) names."},
     "fullDescription": {"text": "The run was asked to fail on this outcome (e.g. blocked, effect_unknown): the "
                                 "recorded call was not admitted, or what it did is not known."},
     "defaultConfiguration": {"level": "error"},
     "properties": {"tags": ["toolcontract", "assess"]}},
]


def case_results(envelope, failing_outcomes, root: str) -> list[dict]:
    """The results of one assessed case: one for an unmet expectation, one for a failing outcome (none, usually)."""
    chosen = []
    if not envelope.expect_met:
        chosen.append((EXPECTATION_UNMET, f"case {envelope.case_id}: {want_got(envelope)}"))
    if envelope.outcome in failing_outcomes:
        gate = f" at the {envelope.gate.value} gate" if envelope.gate is not None else ""
        chosen.append((FAILING_OUTCOME, f"case {envelope.case_id}: {envelope.outcome.value}{gate} (failing); effect "
                                        f"{envelope.effect.value}, next step {envelope.next_step.value}"))
    if not chosen:
        return []
    source = envelope.source or {}
    path = str(source.get("path", "-"))
    line = max(int(source.get("line") or 1), 1)
    uri = _uri(path, root)
    results = []
    for rule_id, message in chosen:
        key = "\0".join((rule_id, uri, str(envelope.case_id)))
        results.append({
            "ruleId": rule_id,
            "ruleIndex": 0,  # set by the report, which knows where the assess rules stand in the driver's list
            "level": "error",
            "message": {"text": message},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": uri, "uriBaseId": SRCROOT},
                "region": {"startLine": line, "startColumn": 1, "endLine": line, "endColumn": 1},
            }}],
            "partialFingerprints": {"toolcontractFindingHash/v1":
                                    hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]},
            "properties": {"case": envelope.case_id, "tool": envelope.tool, "outcome": envelope.outcome.value,
                           "effect": envelope.effect.value},
        })
    return results


class AssessReport(AssessReporter):
    """`assess --format sarif`: the conversation findings (TC8xx) and the cases that fail the run (unmet
    expectations, `--fail-on` outcomes) as the results of one run, written when the run ends. Conversation
    regions are their start (the reporter sees findings, not the transcripts' text)."""

    def __init__(self, stream, verbose: bool = False, root: str | None = None) -> None:
        super().__init__(stream, verbose)
        self.root = os.path.abspath(root or os.getcwd())
        self.findings: list = []
        self.results: list[dict] = []

    def case(self, envelope) -> None:
        super().case(envelope)
        if not envelope.expect_met or envelope.outcome in self.failing_outcomes:
            self.results.extend(case_results(envelope, self.failing_outcomes, self.root))

    def conversation(self, report) -> None:
        super().conversation(report)
        self.findings.extend(report.findings)

    def finish(self, error: str | None = None) -> None:
        rules = rule_descriptors("TC8")
        index = {rule["id"]: len(rules) + i for i, rule in enumerate(ASSESS_RULES)}
        for result in self.results:
            result["ruleIndex"] = index[result["ruleId"]]
        document = sarif_document(self.findings, {"summary": self.summary.as_dict()}, self.root,
                                  results_extra=self.results, rules=rules + ASSESS_RULES)
        self.stream.write(jsoncodec.dumps(document, indent=2) + "\n")
