"""`assess` after its arguments are parsed: Typer-free, so that a command line parsed
without Typer (as `toolcontract.cli` does for a plain `lint`) can run it without Typer's
start-up cost. The Typer command in `toolcontract.cli.commands` parses and calls `run_assess`."""

from __future__ import annotations

import sys
from typing import List, Optional

from toolcontract.cli import EXIT_FINDINGS, EXIT_OK, UsageFailure, default_format, write_whole


def run_assess(
    paths: List[str],
    tools: Optional[List[str]] = None,
    output_format: Optional[str] = None,
    fail_on: Optional[List[str]] = None,
    select: Optional[List[str]] = None,
    ignore: Optional[List[str]] = None,
    exit_zero: bool = False,
    output: Optional[str] = None,
    verbose: bool = False,
    context_file: Optional[str] = None,
    max_rounds: Optional[int] = None,
    config: Optional[str] = None,
    no_config: bool = False,
    engine: str = "local",
    scheduler: Optional[str] = None,
) -> int:
    """Replay recorded tool calls through the admission gates and classify what the evidence
    proves; the exit code (0, or 1 for unmet expectations, `--fail-on` outcomes and transcript
    findings, unless `exit_zero`). Options not given come from the configuration's `assess` table.
    `output`: the report goes to this file (whole, once the run is done) in `output_format`, else the
    format its extension names, and the terminal gets the default format. Raises `UsageFailure`
    (exit 2) for bad usage and unreadable input."""
    import io

    if engine == "dask":
        return _run_dask(paths, tools, output_format, fail_on, exit_zero, output, scheduler, context_file, select,
                         ignore, max_rounds, config, no_config)
    if scheduler is not None:
        raise UsageFailure("toolcontract: --scheduler goes with --engine dask")
    from toolcontract.app.assess import AssessSettings
    from toolcontract.report import assess_reporter
    from toolcontract.report import output_format as format_of_output
    from toolcontract.io.fixtures import FixtureError

    # bad flags, config and inputs: exit 2, no output
    job = AssessSettings(select, ignore, fail_on, context_file, max_rounds, config, no_config).job(paths, tools)
    out = _HeldBackWriter(sys.stdout)
    buffer = None
    if output is not None:  # the file's format to a buffer, written whole at the end; the terminal its default
        _check_output(output)
        buffer = io.StringIO()
        reporter = _Both(assess_reporter(default_format(), out, verbose),
                         assess_reporter(format_of_output(output, output_format), buffer, verbose))
    else:  # (a reporter may write as it is made: json opens its document)
        reporter = assess_reporter(output_format or default_format(), out, verbose)
    if sys.stderr.isatty():  # a progress line for long inputs, never into a pipe or a file
        reporter.progress = sys.stderr
    guard = _InterruptGuard(reporter)
    failed = False
    error: str | None = None
    try:
        failed = job.run(reporter)
    except KeyboardInterrupt:  # Ctrl-C: what was assessed so far is reported, and the run ends at once
        error = f"toolcontract: interrupted after {reporter.summary.cases:,} cases"
        guard.release()
        reporter.clear_progress()
        reporter.finish(error)
        out.flush()
        sys.stderr.write(error + "\n")
        return 130
    except FixtureError as exc:
        error = str(exc)
    except OSError as exc:
        error = f"{getattr(exc, 'filename', None) or '-'}:1:1: cannot read: {exc.strerror or exc}"
    except UsageFailure as exc:
        error = str(exc)
    except Exception as exc:  # noqa: BLE001 - a bug: say which file it met, never look like findings
        from toolcontract.core.model import InternalError

        reporter.finish("internal error")
        out.flush()
        raise InternalError(job.current, exc) from exc
    guard.release()
    reporter.clear_progress()
    reporter.finish(error)
    out.flush()
    if error is not None:
        raise UsageFailure(error)  # nothing is written to -o: a report cut short must not look whole
    if buffer is not None:
        write_whole(output, buffer.getvalue())
    return EXIT_FINDINGS if failed and not exit_zero else EXIT_OK


def _run_dask(paths, tools, output_format, fail_on, exit_zero, output, scheduler, context_file, select, ignore,
              max_rounds, config, no_config) -> int:
    """`assess --engine dask`: the inputs assessed on Dask into the folder -o names; the run's summary printed as
    a local run's (`--format json`: `{"summary": {...}, "tools": [...]}`)."""
    from toolcontract.app.assess import AssessSettings

    for flag, value in (("--context", context_file), ("--select", select), ("--ignore", ignore),
                        ("--max-rounds", max_rounds)):
        if value:  # conversations are not assessed at scale (docs/assess.md, "At scale (Dask)")
            raise UsageFailure(f"toolcontract: {flag} is not taken by --engine dask: it assesses cases one by one, "
                               "without conversations")
    try:
        import dask.dataframe  # noqa: F401 - the extra, asked for before any work
        import distributed  # noqa: F401
        import pyarrow  # noqa: F401
    except ImportError as exc:
        raise UsageFailure(f"toolcontract: --engine dask needs the scale extra (pip install "
                           f"'toolcontract-cli[scale]'): {exc}") from None
    from toolcontract.app import scale

    settings = AssessSettings(None, None, fail_on, None, None, config, no_config)
    job = settings.job([], tools)  # --tools and --fail-on checked as a local run checks them
    result = scale.run(list(paths), job.shared, output, scheduler, job.failing_outcomes)
    _print_scale_summary(result, output_format or default_format())
    return EXIT_FINDINGS if result.failed and not exit_zero else EXIT_OK


def _print_scale_summary(result, output_format: str) -> None:
    from toolcontract.core import jsoncodec

    if output_format == "json":
        sys.stdout.write(jsoncodec.dumps({"summary": result.summary, "tools": result.tools,
                                          "output": result.output, "partitions": result.partitions}, indent=2) + "\n")
        return
    from toolcontract.report.common import evidence_notes, printable

    s = result.stats
    outcomes = ", ".join(f"{k} {v}" for k, v in sorted(s.by_outcome.items())) or "none"
    expectations = (f"{s.expect_failed} unmet expectation{'s' * (s.expect_failed != 1)}" if s.expected
                    else "no expectations")
    for stats in sorted(s.tools.values(), key=lambda t: (-t.calls, t.tool)):
        sys.stdout.write(stats.line() + "\n")
    sys.stdout.write(f"{s.cases} case{'s' * (s.cases != 1)}: {outcomes}; {expectations}\n")
    for note in evidence_notes(s):
        sys.stdout.write(note + "\n")
    sys.stdout.write(f"envelopes: {printable(result.output)} ({result.partitions} Parquet "
                     f"part{'s' * (result.partitions != 1)})\n")


def _check_output(output: str) -> None:
    """Refuse an -o that cannot be written before the run, as `write_whole` would after it."""
    import os

    if not output:
        raise UsageFailure("toolcontract: -o/--output needs a file name (it was empty)")
    if os.path.isdir(os.path.realpath(output)):
        raise UsageFailure(f"{output}:1:1: is a folder; name a file to write")
    folder = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(folder):
        raise UsageFailure(f"{output}:1:1: cannot write: no such folder {folder}")


class _Both:
    """Two assess reporters fed the same run: the terminal's and the file's. The first's summary is the run's."""

    def __init__(self, first, second) -> None:
        self._reporters = (first, second)
        self.summary = first.summary

    def __getattr__(self, name: str):
        return getattr(self._reporters[0], name)

    def __setattr__(self, name: str, value) -> None:
        if name in ("_reporters", "summary"):
            object.__setattr__(self, name, value)
        elif name in ("case", "conversation"):  # the interrupt guard's wrappers of the two calls
            object.__setattr__(self, name, value)
        else:  # failing_outcomes, finding_threshold, progress: the run's settings, for both
            for reporter in self._reporters:
                setattr(reporter, name, value)
            if name == "progress":
                setattr(self._reporters[1], name, None)  # one progress line

    def begin_file(self, path: str) -> None:
        for reporter in self._reporters:
            reporter.begin_file(path)

    def case(self, envelope) -> None:
        for reporter in self._reporters:
            reporter.case(envelope)

    def conversation(self, report) -> None:
        for reporter in self._reporters:
            reporter.conversation(report)

    def end_file(self, path: str) -> None:
        for reporter in self._reporters:
            reporter.end_file(path)

    def clear_progress(self) -> None:
        self._reporters[0].clear_progress()

    def finish(self, error: str | None = None) -> None:
        for reporter in self._reporters:
            reporter.finish(error)


class _HeldBackWriter:
    """The reporters' stdout: their text is gathered and written on in chunks of about `CHUNK` characters
    (at once on a terminal), with SIGINT held back during each write.

    A Python-level signal handler that runs while a write to a full pipe is blocked makes CPython's
    buffered writer drop part of the data (a case cut in the middle of a JSON string), even when the
    handler returns; held back, the signal arrives when the write is done. Gathering first makes that one
    pair of mask calls per chunk, not per case. Everything else is the wrapped stream's."""

    CHUNK = 1 << 16

    def __init__(self, stream) -> None:
        import signal

        self._stream = stream
        self._parts: list[str] = []
        self._size = 0
        self._chunk = 0 if _isatty(stream) else self.CHUNK
        self._mask = getattr(signal, "pthread_sigmask", None)  # not on Windows: written as it comes
        self._held = {signal.SIGINT}

    def write(self, text: str) -> int:
        self._parts.append(text)
        self._size += len(text)
        if self._size >= self._chunk:
            self._drain(False)
        return len(text)

    def flush(self) -> None:
        self._drain(True)

    def _drain(self, flush: bool) -> None:
        import signal

        text = "".join(self._parts)
        self._parts.clear()
        self._size = 0
        if self._mask is not None:
            self._mask(signal.SIG_BLOCK, self._held)
        try:
            if text:
                self._stream.write(text)
            if flush:
                self._stream.flush()
        finally:
            if self._mask is not None:
                self._mask(signal.SIG_UNBLOCK, self._held)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


class _InterruptGuard:
    """Ctrl-C during a run: the reporter's `case` and `conversation` calls finish (a case is written and
    counted whole, or not at all), then KeyboardInterrupt stops the run, which reports what it has.
    Elsewhere (reading, assessing) the interrupt is immediate."""

    def __init__(self, reporter) -> None:
        import signal
        import threading

        self.busy = False
        self.pending = False
        self.previous = None
        if threading.current_thread() is not threading.main_thread():
            return
        for name in ("case", "conversation"):
            setattr(reporter, name, self._guarded(getattr(reporter, name)))
        self.previous = signal.signal(signal.SIGINT, self._on_interrupt)

    def _on_interrupt(self, signum, frame) -> None:
        if self.busy:
            self.pending = True
            return
        raise KeyboardInterrupt

    def _guarded(self, method):
        def call(item) -> None:
            self.busy = True
            try:
                method(item)
            finally:
                self.busy = False
            if self.pending:
                self.pending = False
                raise KeyboardInterrupt

        return call

    def release(self) -> None:
        import signal

        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
            self.previous = None
