"""The command line: argv, files, console and exit codes — nothing else.

Exit codes: 0 clean; 1 findings at or above --fail-on; 2 the job could not be
done as asked (bad usage, a missing path, a lint run that read no tool and found
nothing), always one line on stderr.

This module is what the `toolcontract` command imports first, and it does not
import Typer: a plain `lint` call (the one pre-commit makes on every commit) is
parsed by `toolcontract.cli.options` (from the same table the Typer commands are built
from) and runs without Typer's start-up cost (Typer imports pydantic and
builds a validator per parameter, which costs more than linting a file). Every
other command line, and anything unusual in a `lint` one, goes to the Typer app
in `toolcontract.cli.commands`, which shares `run_lint` and the error handling below.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import List, Optional

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 3


from toolcontract.io.errors import InputError as UsageFailure  # noqa: E402 - the jobs' own error: exit 2


def one_line(text: str) -> str:
    return " ".join(text.split())


def _echo_err(message: str) -> None:
    """One line on stderr, escaped as stdout is: no control sequence (OSC 52, CSI, bidi overrides)
    from a file name, a message or a server's text reaches the terminal, and the line cannot start
    a GitHub workflow command."""
    from toolcontract.report.common import line_start, printable

    sys.stderr.write(line_start(printable(message)) + "\n")
    sys.stderr.flush()


def exit_code(command) -> int:
    """Run a command; turn what it raises into a one-line message and an exit code.

    Typer's own exceptions (bad flags) are handled by the app, which calls this too.
    """
    try:
        code = command()
        code = code if isinstance(code, int) else EXIT_OK
    except UsageFailure as exc:
        _echo_err(one_line(str(exc)))
        code = EXIT_USAGE
    except KeyboardInterrupt:
        _echo_err("toolcontract: aborted")
        code = 130
    except BrokenPipeError:
        code = EXIT_OK  # e.g. `toolcontract lint . | head`
        sys.stdout = None  # type: ignore[assignment]  # silence the flush at exit
    except Exception as exc:  # noqa: BLE001 - the backstop: a bug is exit 3, never 1 (findings)
        code = _report_bug(exc)
    return code


def debugging() -> bool:
    """`--debug` on the command line (taken out of argv by `main`) or TOOLCONTRACT_DEBUG=1."""
    return os.environ.get("TOOLCONTRACT_DEBUG", "") not in ("", "0")


def _report_bug(exc: BaseException) -> int:
    """One line naming the file being processed and asking for a report; the traceback with --debug."""
    from toolcontract.core.model import InternalError

    path = exc.path if isinstance(exc, InternalError) else None
    error = exc.error if isinstance(exc, InternalError) else exc
    where = f" while processing {path}" if path else ""
    if debugging():
        import traceback

        traceback.print_exception(error)
    _echo_err(one_line(f"{path or 'toolcontract'}:1:1: internal error{where}: {type(error).__name__}: {error}. "
                       "This is a bug in toolcontract: please report it with the input if you can share it"
                       + ("" if debugging() else " (run again with --debug for the traceback)")))
    return EXIT_BUG


def write_whole(path: str, text: str) -> None:
    """Write `text` to `path` through a temporary file in the same folder and a rename,
    so that `path` is either untouched or complete. Keeps an existing file's mode."""
    if not path:
        raise UsageFailure("toolcontract: -o/--output needs a file name (it was empty)")
    target = os.path.realpath(path)  # through a symlink, to the file it names
    if os.path.isdir(target):
        raise UsageFailure(f"{path}:1:1: is a folder; name a file to write")
    try:
        existing = os.stat(target)
    except OSError:
        existing = None
    if existing is not None:
        if not stat.S_ISREG(existing.st_mode):
            raise UsageFailure(f"{path}:1:1: not a regular file; name a file to write")
        if not (existing.st_mode & stat.S_IWUSR) or not os.access(target, os.W_OK):  # root passes access()
            raise UsageFailure(f"{path}:1:1: the file is read-only; it is not replaced (remove it, or make it "
                               "writable, first)")
    with _signals_as_interrupts():
        _replace(path, target, text)


class _Interrupted(BaseException):
    """A SIGTERM or SIGHUP while a file is being written: the temporary file is removed, then the
    process exits as the signal would have had it (128 + signal number)."""

    def __init__(self, number: int):
        super().__init__(number)
        self.number = number


class _signals_as_interrupts:
    """While writing, SIGTERM and SIGHUP raise instead of killing the process at once, so that the
    `finally` that removes the temporary file runs (SIGINT already raises KeyboardInterrupt)."""

    def __enter__(self):
        import signal
        import threading

        self.saved = {}
        if threading.current_thread() is not threading.main_thread():
            return self
        for name in ("SIGTERM", "SIGHUP"):
            number = getattr(signal, name, None)
            if number is None:
                continue

            def handler(signum, frame):
                raise _Interrupted(signum)

            self.saved[number] = signal.signal(number, handler)
        return self

    def __exit__(self, kind, value, traceback):
        import signal

        for number, previous in self.saved.items():
            signal.signal(number, previous)
        if isinstance(value, _Interrupted):
            sys.stderr.write("toolcontract: interrupted; nothing was written\n")
            sys.stderr.flush()
            raise SystemExit(128 + value.number) from None  # the code a shell gives a process the signal ended
        return False


def _replace(path: str, target: str, text: str) -> None:
    import contextlib
    import tempfile

    try:
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        handle, temp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp",
                                        dir=os.path.dirname(target))
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
                stream.write(text)
                stream.flush()
                os.fsync(stream.fileno())
            os.chmod(temp, mode)
            os.replace(temp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise
    except OSError as exc:
        raise UsageFailure(f"{path}:1:1: cannot write: {exc.strerror or exc}") from None


def sarif_root(root: Optional[str]) -> Optional[str]:
    """`--root DIR`, checked: an existing folder (exit 2 otherwise), as given; None: the working directory."""
    if root is not None and not os.path.isdir(root):
        raise UsageFailure(f"toolcontract: --root {root}: {'not a folder' if os.path.exists(root) else 'no such folder'}")
    return root


def default_format() -> str:
    return "rich" if sys.stdout.isatty() else "text"


def default_report_format() -> str:
    """lint's and diff's format when --format is not given: GitHub annotations under GitHub Actions
    (GITHUB_ACTIONS=true) when stdout is not a terminal (yamllint's `auto`), else `default_format`."""
    if os.environ.get("GITHUB_ACTIONS") == "true" and not sys.stdout.isatty():
        return "github"
    return default_format()


def report_lint(result, output_format: Optional[str] = None, output: Optional[str] = None, quiet: bool = False,
                statistics: bool = False, max_warnings: Optional[int] = None, exit_zero: bool = False,
                root: Optional[str] = None) -> int:
    """Report a LintResult (lint's or diff's) as the options say; the exit code.

    `-o FILE` gets the whole report in its format (report.output_format); the terminal gets --format, or
    with -o the default format; `--statistics` puts the count per rule there instead, `-q` the finding
    lines only (in rich and text; the machine formats are findings only already); `root`: the folder SARIF
    paths are relative to (--root, checked by sarif_root). Exit 1 when a finding
    reaches the run's fail_on, or the warnings are more than `max_warnings`; 0 with `exit_zero`."""
    from toolcontract.core.model import Severity
    from toolcontract.report import lint_reporter, output_format as format_of_file

    terminal = default_report_format() if output is not None or output_format is None else output_format
    if statistics and terminal not in ("rich", "text"):
        raise UsageFailure(f"toolcontract: --statistics prints a table, not {terminal}: write the report with "
                           f"-o FILE --format {terminal}, and the table goes to the terminal")
    if output is not None:
        import io

        buffer = io.StringIO()
        lint_reporter(format_of_file(output, output_format), root)(result, buffer)
        write_whole(output, buffer.getvalue())
    if statistics:
        from toolcontract.report.statistics import render_statistics

        render_statistics(result, sys.stdout)
    elif quiet and terminal in ("rich", "text"):
        from toolcontract.report.text import render_findings

        render_findings(result, sys.stdout)
    else:
        lint_reporter(terminal, root)(result, sys.stdout)
    sys.stdout.flush()
    failed = any(f.severity >= result.fail_on for f in result.findings)
    warnings = sum(f.severity is Severity.WARNING for f in result.findings)
    if max_warnings is not None and warnings > max_warnings:
        _echo_err(f"toolcontract: {warnings} warning{'s' * (warnings != 1)}, more than --max-warnings "
                  f"{max_warnings}")
        failed = True
    return EXIT_FINDINGS if failed and not exit_zero else EXIT_OK


def run_lint(
    paths: List[str],
    select: Optional[List[str]] = None,
    ignore: Optional[List[str]] = None,
    fail_on: str = "error",
    output_format: Optional[str] = None,
    exit_zero: bool = False,
    target: Optional[List[str]] = None,
    input_format: Optional[str] = None,
    mcp_revision: Optional[str] = None,
    mcp_stdio: Optional[List[str]] = None,
    mcp_url: Optional[List[str]] = None,
    header: Optional[List[str]] = None,
    allow_insecure: bool = False,
    mcp_timeout: float = 20.0,
    locked: bool = False,
    lock_file: Optional[str] = None,
    config: Optional[str] = None,
    no_config: bool = False,
    output: Optional[str] = None,
    quiet: bool = False,
    statistics: bool = False,
    max_warnings: Optional[int] = None,
    jobs: int = 0,
    no_cache: bool = False,
    root: Optional[str] = None,
    fix: bool = False,
    unsafe_fixes: bool = False,
    diff: bool = False,
) -> int:
    """`lint` after its arguments are parsed (by Typer, or by `_plain_lint_arguments`): the exit code.

    Command-line options win over the configuration file; `fail_on=None` means the
    configuration's `fail-on`, else "error". `jobs` 0 picks the number of processes
    (see toolcontract.lint.parallel); 1 lints in this process. The files' results are kept in
    the lint cache (toolcontract.io.cache) unless `no_cache`, or the run checks a lockfile.
    The report and the exit code: `report_lint`.
    """
    from toolcontract.app.lint import lint_paths

    if output is not None and not output:
        raise UsageFailure("toolcontract: -o/--output needs a file name (it was empty)")
    root = sarif_root(root)
    arguments = dict(select=select, ignore=ignore, fail_on=fail_on, targets=target, input_format=input_format,
                     mcp_revision=mcp_revision, mcp_stdio=mcp_stdio, mcp_url=mcp_url, headers=header,
                     allow_insecure=allow_insecure, mcp_timeout=mcp_timeout, locked=locked, lock_file=lock_file,
                     config=config,
                     no_config=no_config, jobs=jobs, cache=not no_cache)
    if unsafe_fixes and not (fix or diff):
        raise UsageFailure("toolcontract: --unsafe-fixes works with --fix or --diff")
    if fix or diff:
        outcome = _fixed(paths, arguments, unsafe_fixes, diff)
        if diff:
            return EXIT_FINDINGS if outcome.changed else EXIT_OK
        result = outcome.result
    else:
        result = lint_paths(paths, **arguments)
    code = report_lint(result, output_format, output, quiet=quiet, statistics=statistics, max_warnings=max_warnings,
                       exit_zero=exit_zero, root=root)
    terminal = default_report_format() if output is not None or output_format is None else output_format
    if fix and terminal in ("text", "rich"):
        _echo_err(_fixed_line(outcome))
    return code


def _fixed(paths, arguments: dict, unsafe: bool, diff: bool):
    """`--fix` / `--diff`: the fix job (toolcontract.app.fix); with --fix the changed files are
    written (each whole, through a temporary file), with --diff their diff is printed instead."""
    from toolcontract.app.fix import fix_paths, unified_diff

    outcome = fix_paths(paths, unsafe=unsafe, **arguments)
    for note in outcome.notes:
        _echo_err(note)
    if diff:
        sys.stdout.write(unified_diff(outcome.changed))
        sys.stdout.flush()
        files = len(outcome.changed)
        _echo_err(f"would fix {outcome.fixed} finding{'s' * (outcome.fixed != 1)} in {files} file{'s' * (files != 1)}"
                  if files else "nothing to fix")
        return outcome
    for path, (_, new) in outcome.changed.items():
        write_whole(path, new)
    return outcome


def _fixed_line(outcome) -> str:
    remain = len(outcome.result.findings)
    line = f"fixed {outcome.fixed} finding{'s' * (outcome.fixed != 1)} ({remain} remain)"
    if outcome.unsafe:
        line += (f"; {outcome.unsafe} more {'have' if outcome.unsafe != 1 else 'has'} an unsafe fix "
                 "(--unsafe-fixes applies them)")
    return line


def _plain_lint_arguments(argv: list[str]) -> Optional[dict]:
    """run_lint's arguments when argv is a plain `lint` call (see toolcontract.cli.options), else None."""
    from toolcontract.cli.options import LINT, plain_arguments

    return plain_arguments(LINT, argv[1:]) if argv and argv[0] == "lint" else None


def _plain_assess_arguments(argv: list[str]) -> Optional[dict]:
    """run_assess's arguments when argv is a plain `assess` call (see toolcontract.cli.options), else None."""
    from toolcontract.cli.options import ASSESS, plain_arguments

    return plain_arguments(ASSESS, argv[1:]) if argv and argv[0] == "assess" else None


def main() -> None:
    argv = sys.argv[1:]
    if "--debug" in argv:  # any command: the traceback of an internal error (see exit_code)
        argv = [a for a in argv if a != "--debug"]
        os.environ["TOOLCONTRACT_DEBUG"] = "1"
        sys.argv = [sys.argv[0], *argv]
    arguments = _plain_lint_arguments(argv)
    if arguments is not None:
        sys.exit(exit_code(lambda: run_lint(**arguments)))
    arguments = _plain_assess_arguments(argv)
    if arguments is not None:  # Typer-free, as a plain `lint` is
        from toolcontract.cli.assess_run import run_assess

        sys.exit(exit_code(lambda: run_assess(**arguments)))
    from toolcontract.cli.commands import app

    app()


def entry() -> None:
    """The console script (and `python -m toolcontract`): `main()` with the collector's first
    threshold raised, the output streams flushed, and the exit code of `main()`.

    Imports and a lint run allocate objects that live to the end of the process; at the default
    threshold (700) the collector runs a few dozen times before linting starts and frees nothing.
    Raised here, in the command's entry, and not in the library (a caller's interpreter is its own);
    `TOOLCONTRACT_GC=default` leaves the collector as the interpreter sets it.
    A reader that stops early (`| head`) leaves no traceback and no "Exception ignored" at exit.
    """
    import gc

    tuned = os.environ.get("TOOLCONTRACT_GC", "") != "default"  # the switch: the interpreter's defaults
    if tuned:
        gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    try:
        main()
        code: object = 0
    except SystemExit as exc:
        code = exc.code
    if tuned:
        # the run's objects are freed with the process: the collection at exit need not walk them
        # all first (about 15 ms of CPU, a sixth of a one-file lint)
        gc.freeze()
    for stream in dict.fromkeys((sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__)):  # None after a broken pipe
        _flush_quietly(stream)
    sys.exit(code)


GC_THRESHOLD = 100_000


def _flush_quietly(stream) -> None:
    """Flush `stream`; when its reader has gone (a closed pipe) or it is closed, point its file
    descriptor at the null device, so that the interpreter's own flush at exit has nothing to say."""
    if stream is None:
        return
    try:
        stream.flush()
    except (OSError, ValueError):
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, stream.fileno())
            os.close(null)
        except (OSError, ValueError):
            pass


def __getattr__(name: str):
    if name == "app":  # the Typer app, imported on first use
        from toolcontract.cli.commands import app

        return app
    raise AttributeError(f"module 'toolcontract.cli' has no attribute {name!r}")
