"""`junit`: JUnit XML for CI test views. Lint: one testcase per file, failing when the
file has a finding at or above the run's `--fail-on`; a file found in a folder and skipped as
no tool list is a testcase marked skipped (counted in the suite's `skipped`). Assess: one testcase per case,
with a failure for each unmet `expect`. Text from inputs is made printable first
(XML 1.0 cannot carry control characters, even escaped)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TextIO

from toolcontract.core.model import Severity
from toolcontract.report.common import AssessReporter, printable


def _line(f) -> str:
    return f"{f.path}:{f.line}:{f.column}: {f.severity.label} {f.rule} {f.message}"


def _write(root: ET.Element, stream: TextIO) -> None:
    ET.indent(root)
    stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    stream.write(ET.tostring(root, encoding="unicode"))
    stream.write("\n")


def render_lint(result, stream: TextIO) -> None:
    threshold = getattr(result, "fail_on", Severity.ERROR)
    by_path: dict[str, list] = {}
    for finding in result.findings:
        by_path.setdefault(finding.path, []).append(finding)
    paths = sorted(set(by_path) | set(result.documents))
    failures = 0
    suite = ET.Element("testsuite", name="toolcontract lint")
    for path in paths:
        findings = by_path.get(path, [])
        case = ET.SubElement(suite, "testcase", classname="toolcontract.lint", name=printable(path), file=printable(path))
        failing = [f for f in findings if f.severity >= threshold]
        if failing:
            failures += 1
            first = failing[0]
            failure = ET.SubElement(case, "failure", type=first.rule,
                                    message=printable(f"{len(failing)} finding(s) at or above {threshold.label}; first: "
                                                      f"{first.rule} {first.message}"))
            failure.text = "\n".join(printable(_line(f)) for f in failing)
        rest = [f for f in findings if f.severity < threshold]
        if rest:
            ET.SubElement(case, "system-out").text = "\n".join(printable(_line(f)) for f in rest)
    skipped = [path for path in getattr(result, "skipped", ()) if path not in by_path and path not in result.documents]
    for path in skipped:
        case = ET.SubElement(suite, "testcase", classname="toolcontract.lint", name=printable(path), file=printable(path))
        ET.SubElement(case, "skipped", message="not a tool list")
    tests = len(paths) + len(skipped)
    suite.set("tests", str(tests))
    suite.set("failures", str(failures))
    suite.set("errors", "0")
    suite.set("skipped", str(len(skipped)))
    root = ET.Element("testsuites", name="toolcontract", tests=str(tests), failures=str(failures), errors="0",
                      skipped=str(len(skipped)))
    root.append(suite)
    _write(root, stream)


class AssessReport(AssessReporter):
    """One testcase per case and per conversation. A suite's counts come before its cases in the XML,
    so each suite's testcases are spooled (to disk past 1 MiB) until the run ends: memory stays flat
    for any log length."""

    def __init__(self, stream: TextIO, verbose: bool = False) -> None:
        super().__init__(stream, verbose)
        self.suites: dict[str, list] = {}  # path -> [spool, tests, failures]

    def _add(self, path: str, case: ET.Element) -> None:
        suite = self.suites.get(path)
        if suite is None:
            import tempfile

            spool = tempfile.SpooledTemporaryFile(max_size=1 << 20, mode="w+", encoding="utf-8")
            suite = self.suites[path] = [spool, 0, 0]
        ET.indent(case, space="  ", level=2)
        suite[0].write("    " + ET.tostring(case, encoding="unicode").rstrip() + "\n")
        suite[1] += 1
        suite[2] += case.find("failure") is not None

    def case(self, envelope) -> None:
        super().case(envelope)
        path = (envelope.source or {}).get("path", "-")
        case = ET.Element("testcase", classname=printable(path), name=printable(envelope.case_id))
        case.set("file", printable(path))
        if (envelope.source or {}).get("line"):
            case.set("line", str(envelope.source["line"]))
        if not envelope.expect_met:
            want = ", ".join(f"{k}={v or '-'}" for k, v in envelope.expect["want"].items())
            got = ", ".join(f"{k}={v or '-'}" for k, v in envelope.expect["got"].items())
            failure = ET.SubElement(case, "failure", type="expect", message=printable(f"want {want}; got {got}"))
            failure.text = "\n".join(printable(r) for r in envelope.reasons)
        ET.SubElement(case, "system-out").text = printable(
            f"outcome={envelope.outcome.value} gate={envelope.gate.value if envelope.gate else '-'} "
            f"effect={envelope.effect.value} next={envelope.next_step.value}")
        self._add(path, case)

    def conversation(self, report) -> None:
        """One testcase per conversation: a failure listing its findings at or above the run's
        threshold (default error), the others and the summary in system-out."""
        super().conversation(report)
        case = ET.Element("testcase", classname=printable(report.path), name=printable(f"{report.id} (conversation)"),
                          file=printable(report.path), line=str(report.line))
        failing = [f for f in report.findings if f.severity >= self.finding_threshold]
        if failing:
            first = failing[0]
            failure = ET.SubElement(case, "failure", type=first.rule, message=printable(
                f"{len(failing)} finding(s) at or above {self.finding_threshold.label}; first: {first.rule} "
                f"{first.message}"))
            failure.text = "\n".join(printable(_line(f)) for f in failing)
        rest = [printable(_line(f)) for f in report.findings if f.severity < self.finding_threshold]
        ET.SubElement(case, "system-out").text = "\n".join([*rest, printable(
            f"format={report.format} messages={report.messages} rounds={report.rounds} calls={report.calls} "
            f"unanswered={report.unanswered} outcomes="
            + (",".join(f"{k}:{v}" for k, v in sorted(report.by_outcome.items())) or "-"))])
        self._add(report.path, case)

    def finish(self, error: str | None = None) -> None:
        from xml.sax.saxutils import quoteattr

        total = sum(suite[1] for suite in self.suites.values())
        failures = sum(suite[2] for suite in self.suites.values())
        out = self.stream
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        out.write(f'<testsuites name="toolcontract assess" tests="{total}" failures="{failures}" '
                  f'errors="{1 if error is not None else 0}">\n')
        for path, (spool, tests, failed) in self.suites.items():
            out.write(f'  <testsuite name={quoteattr(printable(path))} tests="{tests}" failures="{failed}" errors="0">\n')
            spool.seek(0)
            while True:
                block = spool.read(1 << 16)
                if not block:
                    break
                out.write(block)
            spool.close()
            out.write("  </testsuite>\n")
        if error is not None:
            out.write('  <testsuite name="toolcontract assess: input" tests="1" failures="0" errors="1">\n'
                      '    <testcase classname="toolcontract.assessment" name="read fixtures">\n'
                      f'      <error message={quoteattr(printable(error))} />\n'
                      "    </testcase>\n  </testsuite>\n")
        out.write("</testsuites>\n")
