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
from typing import Iterator, List, Optional

from toolcontract.pathnames import normal_path

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 3
DESCRIPTOR_SUFFIXES = (".yaml", ".yml", ".json")
FIXTURE_SUFFIXES = (".yaml", ".yml", ".json", ".jsonl")
SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "venv", "site-packages"})


from toolcontract.app.errors import InputError as UsageFailure  # noqa: E402 - the jobs' own error: exit 2


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
    from toolcontract.model import InternalError

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


def split_codes(values: Optional[List[str]]) -> tuple[str, ...]:
    codes: list[str] = []
    for value in values or ():
        codes.extend(part.strip().upper() for part in value.split(",") if part.strip())
    return tuple(codes)


def discover(paths: list[str], suffixes: tuple[str, ...] = DESCRIPTOR_SUFFIXES, keep=None) -> Iterator[str]:
    """Named files as given; folders walked for files with these suffixes that `keep(path)`
    accepts (the config's include/exclude). A walk leaves out hidden files and folders (`.git`
    among them), SKIPPED_DIRS, and what the repository's `.gitignore` files and
    `.git/info/exclude` ignore (see toolcontract.sources.ignore); a file named outright is
    taken whatever they say, as ruff does."""
    for name, _ in discovered(paths, suffixes, keep):
        yield name


def discovered(paths: list[str], suffixes: tuple[str, ...] = DESCRIPTOR_SUFFIXES, keep=None
               ) -> Iterator[tuple[str, bool]]:
    """(name, walked) for each file `discover` yields: walked is True for a file found in a folder."""
    for raw in paths:
        if raw == "-":
            yield raw, False
            continue
        if not os.path.exists(raw):
            raise UsageFailure(f"{raw}:1:1: no such file or directory")
        if os.path.isdir(raw):
            for name in walk_folder(normal_path(raw), suffixes, keep):
                yield name, True
        else:
            yield raw, False


def walk_folder(top: str, suffixes: tuple[str, ...] = DESCRIPTOR_SUFFIXES, keep=None) -> list[str]:
    """The files `discover` finds in the folder `top`, sorted."""
    from toolcontract.sources.ignore import GITIGNORE, Walk

    walk = Walk(top)
    found = []
    for root, dirs, files in os.walk(top):
        ignored = walk.rules_in(root, GITIGNORE in files)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS and not ignored(d, True))
        found.extend(
            os.path.join(root, name) for name in files
            if name.lower().endswith(suffixes) and not name.startswith(".") and not ignored(name, False)
            and (keep is None or keep(os.path.join(root, name)))
        )
    return sorted(found)


def read_inputs(paths: list[str], max_bytes: int, keep=None, walked: Optional[set] = None):
    """(path, bytes or LoadError) per file; a file over the size limit is not read at all.
    `walked`, when given, gets the paths found by walking a folder (not named outright)."""
    from toolcontract.sources.document import LoadError

    seen: set[str] = set()
    for name, found_in_folder in discovered(paths, keep=keep):
        if name in seen:
            if walked is not None and not found_in_folder:
                walked.discard(name)  # named outright as well
            continue
        seen.add(name)
        if walked is not None and found_in_folder:
            walked.add(name)
        if name == "-":
            data = sys.stdin.buffer.read(max_bytes + 1)
            yield "<stdin>", data if len(data) <= max_bytes else LoadError(f"input is over the {max_bytes:,}-byte limit")
            continue
        try:
            content = read_file(name, max_bytes)
        except OSError as exc:
            if not found_in_folder:  # named outright: the job cannot be done as asked
                raise UsageFailure(f"{name}:1:1: cannot read: {exc.strerror or exc}") from None
            # met in a folder (a dangling symlink, a loop, no permission): a finding for that file (TC000)
            content = LoadError(f"cannot read: {exc.strerror or exc}")
        if content is None:
            if not found_in_folder:
                raise UsageFailure(f"{name}:1:1: not a regular file")
            content = LoadError("not a regular file (a FIFO, a device or a socket): not read")
        yield name, content


def read_file(name: str, max_bytes: int):
    """The bytes of the regular file `name`, a LoadError when it is over `max_bytes`, or None when
    it is not a regular file. Raises OSError.

    One descriptor costs an open, an fstat and two reads on the raw file: no buffered file object,
    and no buffer of `max_bytes` (5 MiB by default) allocated for every small file, which was most
    of the time a 1,000-file run spent reading. The size comes from the open file, not the path,
    and a file that grows while it is read is still cut at `max_bytes + 1` bytes."""
    from toolcontract.sources.document import LoadError

    # O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then turns it away
    fd = os.open(name, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        if info.st_size > max_bytes:
            return LoadError(f"file is {info.st_size:,} bytes, over the {max_bytes:,}-byte limit")
        parts, got = [], 0
        while got <= max_bytes:  # one read for the stated size (+1 to see the end), one more for growth
            part = os.read(fd, info.st_size + 1 if not parts else max_bytes + 1 - got)
            if not part:
                break
            parts.append(part)
            got += len(part)
        return parts[0] if len(parts) == 1 else b"".join(parts)
    finally:
        os.close(fd)


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


def default_format() -> str:
    return "rich" if sys.stdout.isatty() else "text"


def run_lint(
    paths: List[str],
    select: Optional[List[str]] = None,
    ignore: Optional[List[str]] = None,
    fail_on: str = "error",
    output_format: Optional[str] = None,
    exit_zero: bool = False,
    target: Optional[List[str]] = None,
    input_format: Optional[str] = None,
    mcp_stdio: Optional[List[str]] = None,
    mcp_timeout: float = 20.0,
    locked: bool = False,
    lock_file: Optional[str] = None,
    config: Optional[str] = None,
    no_config: bool = False,
    output: Optional[str] = None,
    jobs: int = 0,
    no_cache: bool = False,
) -> int:
    """`lint` after its arguments are parsed (by Typer, or by `_plain_lint_arguments`): the exit code.

    Command-line options win over the configuration file; `fail_on=None` means the
    configuration's `fail-on`, else "error". `jobs` 0 picks the number of processes
    (see toolcontract.lint.parallel); 1 lints in this process. The files' results are kept in
    the lint cache (toolcontract.cli.cache) unless `no_cache`, or the run checks a lockfile.
    """
    from toolcontract.app.lint import lint_paths
    from toolcontract.model import Severity
    from toolcontract.report import lint_reporter

    result = lint_paths(paths, select=select, ignore=ignore, fail_on=fail_on, targets=target,
                        input_format=input_format, mcp_stdio=mcp_stdio, mcp_timeout=mcp_timeout, locked=locked,
                        lock_file=lock_file, config=config, no_config=no_config, jobs=jobs, cache=not no_cache)
    fail_on = result.fail_on.label
    if output is not None:  # the chosen format to the file; the terminal gets its default
        import io

        buffer = io.StringIO()
        lint_reporter(output_format or "json")(result, buffer)
        write_whole(output, buffer.getvalue())
        lint_reporter(default_format())(result, sys.stdout)
    else:
        lint_reporter(output_format or default_format())(result, sys.stdout)
    sys.stdout.flush()
    threshold = Severity.parse(fail_on)
    failed = any(f.severity >= threshold for f in result.findings)
    return EXIT_FINDINGS if failed and not exit_zero else EXIT_OK


def lint_cache(cfg):
    """The lint cache of a run with this configuration (see toolcontract.cli.cache); stdin is never cached."""
    from toolcontract.cli.cache import LintCache, cache_directory

    return LintCache(cache_directory(cfg), skip=frozenset(("<stdin>",)))


def nothing_found(paths: List[str], servers: List[str], skipped: int = 0) -> str:
    """The one line of a lint run that read no tool and found nothing: what it was given (the first
    few of many), and how many walked files were skipped as no tool list."""
    from toolcontract.report.common import printable, skipped_note

    given = ["stdin" if path == "-" else path for path in paths] + [f"the server {label}" for label in servers]
    shown = ", ".join(printable(name) for name in given[:3])
    if len(given) > 3:
        shown += f" and {len(given) - 3} more"
    note = f"; {skipped_note(skipped)}" if skipped else ""
    return f"toolcontract: no tool descriptors found in {shown or 'the input'}{note}"


def resolve_config(path: Optional[str] = None, no_config: bool = False):
    """The configuration in force: `--config PATH`, none with `--no-config`, else the
    nearest one found walking up from the working directory. Bad config: exit 2."""
    from toolcontract.config import Config, ConfigError, find_config, load_config

    if no_config:
        return Config()
    try:
        if path is not None:
            if not os.path.isfile(path):
                raise UsageFailure(f"{path}:1:1: no such configuration file")
            return load_config(path)
        found = find_config(os.getcwd())
        return load_config(found) if found is not None else Config()
    except ConfigError as exc:
        raise UsageFailure(str(exc)) from None


def _named_for(named: dict, inputs) -> dict:
    """Config overlays keyed by the provider paths as this run names them."""
    if not named:
        return {}
    by_real = {os.path.realpath(provider): overlay for provider, overlay in named.items()}
    return {path: by_real[os.path.realpath(path)] for path, _ in inputs if os.path.realpath(path) in by_real}


def fetch_live(command: str, timeout: float = 20.0):
    """A live MCP server's tools (`toolcontract.sources.mcp_live.LiveTools`); exit 2 when they cannot be had."""
    from toolcontract.sources.mcp_live import McpFetchError, fetch_tools

    try:
        return fetch_tools(command, timeout)
    except McpFetchError as exc:
        raise UsageFailure(exc.line) from None


def merge_results(first, second):
    """One LintResult of two: files linted in two passes (e.g. with different input formats)."""
    return first._replace(findings=sorted(first.findings + second.findings), files=first.files + second.files,
                   tools=first.tools + second.tools, documents={**first.documents, **second.documents},
                   tool_views=first.tool_views + second.tool_views, skipped=first.skipped + second.skipped)


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
