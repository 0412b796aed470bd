"""Fetch the tool list of a live MCP server over stdio, with the official `mcp` SDK.

`fetch_tools("mcp-server-git --repository .")` starts the server, initializes,
pages through `tools/list` until no `nextCursor` comes back, and shuts the server
down. It never calls a tool. The tools are kept exactly as the server sent them
(the raw JSON-RPC results, protocol key names and key order included), not as the
SDK's models re-serialise them: a tool the SDK would refuse is still there to be linted.

The protocol is the SDK's `ClientSession`; the pipe under it is ours (`_stdio_transport`),
because the SDK's `stdio_client` keeps a line in memory however long it grows and spends
seconds of its own on shutdown. Ours reads the server's stdout in chunks against a
`Budget` (bytes per message and in all, pages, and one deadline for the whole fetch,
shutdown included) that knows nothing of stdio, so another transport can spend the same one.
Passing a cap stops at once: the server's process group is ended and the fetch fails.

`LiveTools.json_text` is `{"tools": [...]}` indented by two, so that lines and
columns of findings point somewhere meaningful, and `label` stands in for a file
path in findings (`mcp-stdio:mcp-server-git`).

Everything that keeps the list from being fetched raises `McpFetchError`, whose
message is one line of inert text (control characters escaped, as `printable` does
for stdout) ending in the tail of the server's stderr. The SDK is an optional extra
(`toolcontract-cli[mcp]`); it is imported only here, on use.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import math
import os
import shlex
import signal
import subprocess
import threading
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Mapping

from toolcontract.core.text import printable
from toolcontract.io.document import DEFAULT_LIMITS

DEFAULT_TIMEOUT = 20.0
MAX_PAGES = 1000  # a server that hands out cursors forever is cut off here
STDERR_TAIL_CHARS = 400
READ_CHUNK = 64 * 1024  # bytes read from a pipe at a time
EXIT_WAIT = 2.0  # a server may take this long (at most what is left of the timeout) to exit once stdin closes
TERM_WAIT = 0.3  # then its process group gets SIGTERM, and this long before SIGKILL
REAP_WAIT = 0.3  # for the kernel to report the SIGKILL, and for the last of stderr
SHUTDOWN_GRACE = 1.0  # shutdown never runs past the deadline by more than this


class McpFetchError(Exception):
    """The server's tool list could not be fetched. The message is one line, without the label,
    with every control character escaped: it quotes the server, which may be hostile."""

    def __init__(self, label: str, message: str, silence_matters: bool = False):
        message = printable(" ".join(message.split()))
        super().__init__(message)
        self.label = label
        self.message = message
        self.silence_matters = silence_matters  # say so when the server wrote nothing to stderr

    def __str__(self) -> str:
        return self.message

    @property
    def line(self) -> str:
        """`label:1:1: message`, the one line the command line prints."""
        return f"{printable(self.label)}:1:1: {self.message}"


@dataclass
class LiveTools:
    """What a live server listed. `tools` are the raw Tool objects in server order."""

    label: str
    tools: list[Any]
    server_info: dict[str, Any] = field(default_factory=dict)
    protocol_version: str | None = None
    pages: int = 1

    @property
    def json_text(self) -> str:
        return json.dumps({"tools": self.tools}, indent=2, ensure_ascii=False) + "\n"


def command_label(command: str) -> str:
    """The stand-in path for a server's findings: `mcp-stdio:` and the command as given, on one line."""
    return f"mcp-stdio:{' '.join(command.split())}"


class Budget:
    """What one fetch may spend, whatever carries it: `timeout` seconds of wall time from the
    start of the fetch (shutdown may run past it by SHUTDOWN_GRACE), `max_message` bytes for any
    one message, `max_total` bytes received in all, `max_pages` pages of tools/list.

    The transport reports what it reads (`receive`); passing a cap raises McpFetchError at once
    and marks the budget `exhausted`, which tells shutdown to give the server no grace.
    Each byte cap defaults to the loader's file limit: a tool list that is over it could not
    be linted anyway.
    """

    def __init__(self, label: str, timeout: float, started: float | None = None, max_message: int | None = None,
                 max_total: int | None = None, max_pages: int | None = None):
        self.label = label
        self.timeout = timeout
        self.deadline = (time.monotonic() if started is None else started) + timeout  # on time.monotonic()
        self.max_message = DEFAULT_LIMITS.max_bytes if max_message is None else max_message
        self.max_total = DEFAULT_LIMITS.max_bytes if max_total is None else max_total
        self.max_pages = MAX_PAGES if max_pages is None else max_pages
        self.received = 0
        self.pages = 0  # the page of tools/list being fetched
        self.exhausted = False
        self.reason: str | None = None

    def remaining(self) -> float:
        return max(0.0, self.deadline - time.monotonic())

    def receive(self, size: int, message_size: int) -> None:
        """`size` more bytes came in; the longest message among them is `message_size` bytes so far."""
        self.received += size
        if message_size > self.max_message:
            self._stop(f"a message from the server is over the {self.max_message:,}-byte limit "
                       f"({message_size:,} bytes of it received, {self.received:,} in all); stopped")
        if self.received > self.max_total:
            where = f" by page {self.pages} of tools/list" if self.pages else ""
            self._stop(f"the server sent more than the {self.max_total:,}-byte limit for a whole tool list "
                       f"({self.received:,} bytes received{where}); stopped")

    def next_page(self) -> None:
        """A page of tools/list came with a nextCursor: fetch one more, or stop at `max_pages`."""
        if self.pages >= self.max_pages:
            self._stop(f"tools/list still had a nextCursor after {self.max_pages} pages; stopped")
        self.pages += 1

    def _stop(self, message: str):
        self.exhausted = True
        self.reason = message  # for a transport whose SDK wraps the error it raises (mcp_http)
        raise McpFetchError(self.label, message)


def fetch_tools(
    command: str,
    timeout: float = DEFAULT_TIMEOUT,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike | None = None,
) -> LiveTools:
    """Start `command` (split like a shell would, not run by one) as an MCP stdio server
    and return its complete tool list. The whole fetch, from this call to the server's
    end (loading the SDK and shutting the server down included), takes at most `timeout`
    seconds, plus at most SHUTDOWN_GRACE when the server has to be killed.
    The server gets this process's environment, with `env` over it.
    """
    started = time.monotonic()
    label = command_label(command)
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise McpFetchError(label, f"cannot split the command: {exc}") from None
    if not argv:
        raise McpFetchError(label, "the command is empty")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not math.isfinite(timeout) or timeout <= 0:
        raise McpFetchError(label, f"the timeout must be a finite, positive number of seconds, not {timeout!r}")
    missing = next((name for name in ("anyio", "mcp") if importlib.util.find_spec(name) is None), None)
    if missing is not None:
        raise McpFetchError(label, f"the `mcp` package is not installed ({missing}): "
                                   "pip install 'toolcontract-cli[mcp]'")
    import anyio

    budget = Budget(label, float(timeout), started)
    stderr = _Tail(4 * STDERR_TAIL_CHARS)
    notes: list[str] = []  # our own remarks on what the server wrote (stdout lines that are not JSON-RPC)
    sdk_log = SdkLog()
    logger = logging.getLogger("mcp")
    logger.addHandler(sdk_log)  # also keeps the SDK's records off stderr when logging is not set up
    try:
        return anyio.run(_fetch, argv, {**os.environ, **(env or {})},
                         os.fspath(cwd) if cwd is not None else None, budget, stderr, notes)
    except BaseException as exc:  # noqa: BLE001 - every failure becomes one line
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        message, silence_matters = describe(exc, argv[0])
        remarks = notes + ([f"sdk: {' | '.join(dict.fromkeys(sdk_log.messages))}"] if sdk_log.messages else [])
        raise McpFetchError(label, _with_tail(message, stderr.text(), remarks, silence_matters)) from None
    finally:
        logger.removeHandler(sdk_log)


async def _fetch(argv: list[str], env: dict, cwd: str | None, budget: Budget, stderr: "_Tail",
                 notes: list[str]) -> LiveTools:
    import anyio

    tap = Tap()
    outcome: LiveTools | None = None
    with anyio.move_on_after(budget.remaining()) as deadline:
        async with _stdio_transport(argv, env, cwd, budget, tap, stderr, notes) as (read_stream, write_stream):
            from mcp.client.session import ClientSession  # loaded by the transport by now

            async with ClientSession(read_stream, write_stream) as session:
                outcome = await list_everything(session, tap, budget)
    if outcome is None:
        if deadline.cancelled_caught:
            raise McpFetchError(budget.label, f"server did not answer within {budget.timeout:g}s"
                                              f"{tap.progress(budget.pages)}", True)
        raise McpFetchError(budget.label, "server closed the connection before listing its tools", True)
    return outcome


async def list_everything(session, tap: "Tap", budget: Budget) -> LiveTools:
    label = budget.label
    try:
        await session.initialize()
    except Exception as exc:  # noqa: BLE001
        message, silence_matters = describe(exc)
        raise McpFetchError(label, f"initialize failed: {message}", silence_matters) from None
    init = tap.last_result("initialize") or {}
    capabilities = init.get("capabilities") if isinstance(init.get("capabilities"), dict) else {}
    offers_tools = "tools" in capabilities
    server_info = init.get("serverInfo") if isinstance(init.get("serverInfo"), dict) else {}
    protocol_version = init.get("protocolVersion") if isinstance(init.get("protocolVersion"), str) else None

    tools: list[Any] = []
    cursor: str | None = None
    seen: set[str] = set()
    budget.pages = 1
    while True:
        pages = budget.pages
        try:
            await _request_page(session, cursor)
            failure = None
        except Exception as exc:  # noqa: BLE001 - the SDK may refuse what the raw answer still holds
            failure = exc
        raw = tap.last_result("tools/list")
        if raw is None:  # no usable answer at all: a JSON-RPC error, or the connection went away
            error = tap.last_error("tools/list")
            reason = describe(failure)[0] if failure is not None else "no answer"
            if error is not None:
                reason = f"error {error.get('code')}: {error.get('message')}"
            where = f"page {pages} of tools/list" if pages > 1 else "tools/list"
            if not offers_tools:
                raise McpFetchError(label, f"server declares no `tools` capability, and {where} failed: {reason}")
            raise McpFetchError(label, f"{where} failed: {reason}")
        page_tools = raw.get("tools")
        if not isinstance(page_tools, list):
            raise McpFetchError(label, f"tools/list answer has no `tools` list (keys: {', '.join(sorted(raw)) or 'none'})")
        tools.extend(page_tools)
        next_cursor = raw.get("nextCursor")
        if next_cursor is None:
            break
        if not isinstance(next_cursor, str):
            raise McpFetchError(label, f"tools/list page {pages} has a nextCursor that is not a string: {next_cursor!r}")
        if next_cursor in seen:
            raise McpFetchError(label, f"tools/list paging loops: page {pages} returned cursor {next_cursor!r} again")
        budget.next_page()
        seen.add(next_cursor)
        cursor = next_cursor
    return LiveTools(label, tools, server_info, protocol_version, pages)


async def _request_page(session, cursor: str | None) -> None:
    """One `tools/list` call through the SDK (its signature changed across releases)."""
    if cursor is None:
        await session.list_tools()
        return
    import inspect

    from mcp import types

    if "params" in inspect.signature(session.list_tools).parameters:
        await session.list_tools(params=types.PaginatedRequestParams(cursor=cursor))
    else:  # older 1.x releases: list_tools(cursor)
        await session.list_tools(cursor)


# ------------------------------------------------------------------ the stdio pipe


@asynccontextmanager
async def _stdio_transport(argv: list[str], env: dict, cwd: str | None, budget: Budget, tap: "Tap",
                           stderr: "_Tail", notes: list[str]):
    """Start the server in a process group of its own and yield the two memory streams the
    SDK's `stdio_client` yields: SessionMessages (or nothing) in, SessionMessages out.

    Stdout is read in chunks and split into lines here, every byte counted against `budget`,
    so no line is held past `budget.max_message`. Stderr is read all along and only its tail
    kept. The SDK is loaded while the server starts. Whatever ends the exchange, the server
    is stopped before this returns, within what is left of the deadline plus SHUTDOWN_GRACE.
    """
    import anyio

    process = await anyio.open_process(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, cwd=cwd, env=env, start_new_session=True)
    finished = False  # the session ended normally: the server may exit on its own
    try:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(_drain, process.stderr, stderr)
            sdk = await _load_sdk()
            to_session, read_stream = anyio.create_memory_object_stream(0)
            write_stream, from_session = anyio.create_memory_object_stream(0)
            tasks.start_soon(_read_messages, process.stdout, to_session, sdk, budget, tap, notes)
            tasks.start_soon(_write_messages, process.stdin, from_session, to_session, sdk, tap)
            try:
                yield read_stream, write_stream
                finished = True
            finally:
                tasks.cancel_scope.cancel()
                read_stream.close()
                write_stream.close()
    finally:
        with anyio.move_on_after(budget.remaining() + SHUTDOWN_GRACE, shield=True):
            await _stop(process, budget, stderr, graceful=finished and not budget.exhausted)


async def _read_messages(stdout, to_session, sdk: "_Sdk", budget: Budget, tap: "Tap", notes: list[str]) -> None:
    """The server's stdout, one JSON-RPC message a line, to the session; the end of stdout closes it."""
    import anyio

    pending = bytearray()  # the line being received
    async with to_session:
        while True:
            try:
                chunk = await stdout.receive(READ_CHUNK)
            except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                return
            lines, start = [], 0
            while (end := chunk.find(b"\n", start)) != -1:
                pending += chunk[start:end]
                lines.append(bytes(pending))
                pending.clear()
                start = end + 1
            pending += chunk[start:]
            budget.receive(len(chunk), max([len(pending), *map(len, lines)]))
            for line in lines:
                if not line.strip():
                    continue
                try:
                    message = sdk.parse(line)
                except ValueError:  # pydantic's ValidationError is one
                    if len(notes) < 3:
                        text = line[:80].decode("utf-8", "replace")
                        notes.append(f"stdout: not JSON-RPC: {text}{'…' if len(line) > 80 else ''}")
                    continue
                tap.received(message)
                try:
                    await to_session.send(sdk.SessionMessage(message))
                except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                    return  # the session is over


async def _write_messages(stdin, from_session, to_session, sdk: "_Sdk", tap: "Tap") -> None:
    """The session's messages to the server's stdin, a line each."""
    import anyio

    async with from_session:
        try:
            async for item in from_session:
                tap.sent(item.message)
                await stdin.send((sdk.dump(item.message) + "\n").encode("utf-8"))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await to_session.aclose()  # the server reads no more: no request may wait for an answer


async def _drain(stream, keep: "_Tail | None" = None, done=None) -> None:
    """Read `stream` to its end, keeping the tail in `keep` (or nothing)."""
    import anyio

    try:
        while True:
            chunk = await stream.receive(READ_CHUNK)
            if keep is not None:
                keep.add(chunk)
    except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
        pass
    finally:
        if done is not None:
            done.set()


async def _stop(process, budget: Budget, stderr: "_Tail", graceful: bool) -> None:
    """Close the server's stdin and, when `graceful` (it served us to the end), give it what is
    left of the deadline, at most EXIT_WAIT, to exit; then SIGTERM its process group, then SIGKILL.
    A failure, a passed cap, the deadline or an interrupt gets it no grace. Its pipes are read
    meanwhile, so a server blocked writing them can still exit."""
    import anyio

    stderr_done = anyio.Event()
    async with anyio.create_task_group() as drains:
        drains.start_soon(_drain, process.stdout)
        drains.start_soon(_drain, process.stderr, stderr, stderr_done)
        with anyio.move_on_after(REAP_WAIT):
            try:
                await process.stdin.aclose()
            except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
                pass
        if graceful:
            await _exited(process, min(EXIT_WAIT, budget.remaining()))
        if process.returncode is None:
            _signal_group(process, hard=False)
            await _exited(process, TERM_WAIT)
        if process.returncode is None:
            _signal_group(process, hard=True)
            await _exited(process, REAP_WAIT)
        _signal_group(process, hard=True)  # whatever the server started and left behind in its group
        with anyio.move_on_after(REAP_WAIT):
            await stderr_done.wait()
        drains.cancel_scope.cancel()
    if process.returncode is not None:
        with anyio.move_on_after(REAP_WAIT):
            await process.aclose()


async def _exited(process, seconds: float) -> bool:
    """Whether the process has ended within `seconds` (its returncode, not `wait()`, which also
    waits for pipes a surviving child may hold open)."""
    import anyio

    give_up = time.monotonic() + seconds
    while process.returncode is None and time.monotonic() < give_up:
        await anyio.sleep(0.01)
    return process.returncode is not None


def _signal_group(process, hard: bool) -> None:
    """SIGTERM (or SIGKILL) to the server's process group: the server and what it started."""
    try:
        if hasattr(os, "killpg"):
            os.killpg(process.pid, signal.SIGKILL if hard else signal.SIGTERM)
        elif process.returncode is None:
            process.kill() if hard else process.terminate()
    except (ProcessLookupError, PermissionError):
        pass  # the group is gone already


class _Sdk:
    """The SDK's public pieces the transport needs, in mcp 1.x and 2.x alike."""

    def __init__(self):
        from mcp import types
        from mcp.client.session import ClientSession  # noqa: F401 - loaded here, used by _fetch
        from mcp.shared.message import SessionMessage

        self.SessionMessage = SessionMessage
        adapter = getattr(types, "jsonrpc_message_adapter", None)  # 2.x: JSONRPCMessage is a plain union
        if adapter is not None:
            self.parse = adapter.validate_json
            self.dump = lambda message: message.model_dump_json(by_alias=True, exclude_unset=True)
        else:  # 1.x: JSONRPCMessage is a RootModel
            self.parse = types.JSONRPCMessage.model_validate_json
            self.dump = lambda message: message.model_dump_json(by_alias=True, exclude_none=True)


async def _load_sdk() -> _Sdk:
    """Import the SDK in a thread: it takes seconds on a busy machine, the server starts meanwhile,
    and the deadline can still cut in (the thread is a daemon, abandoned then)."""
    import anyio

    box: list = []

    def load() -> None:
        try:
            box.append(_Sdk())
        except BaseException as exc:  # noqa: BLE001 - handed back to the event loop
            box.append(exc)

    thread = threading.Thread(target=load, name="toolcontract-import-mcp", daemon=True)
    thread.start()
    while thread.is_alive():
        await anyio.sleep(0.01)
    if isinstance(box[0], BaseException):
        raise box[0]
    return box[0]


class _Tail:
    """The last `size` bytes of what a server writes to a stream, however much it writes."""

    def __init__(self, size: int):
        self.size = size
        self.data = bytearray()

    def add(self, chunk: bytes) -> None:
        self.data += chunk
        if len(self.data) > 2 * self.size:
            del self.data[:-self.size]

    def text(self) -> str:
        """Its last lines, each on one line, joined by ` | `, at most STDERR_TAIL_CHARS (escaped later)."""
        text = bytes(self.data[-self.size:]).decode("utf-8", "replace")
        lines = [" ".join(line.split()) for line in text.splitlines()]
        tail = " | ".join(line for line in lines if line)
        if len(tail) > STDERR_TAIL_CHARS:
            tail = "…" + tail[-STDERR_TAIL_CHARS:]
        return tail


class Tap:
    """Watches the messages the transport carries and keeps the raw JSON-RPC results of our
    requests by method: the server's words, before any of the session's models sees them."""

    def __init__(self):
        self.methods: dict[Any, str] = {}  # request id -> method
        self.results: dict[str, dict] = {}  # method -> last result
        self.errors: dict[str, dict] = {}  # method -> last error
        self.answered: set[str] = set()

    def last_result(self, method: str) -> dict | None:
        return self.results.pop(method, None)

    def last_error(self, method: str) -> dict | None:
        return self.errors.pop(method, None)

    def progress(self, pages: int) -> str:
        """What we were waiting for, for `server did not answer within Ns...`."""
        if "tools/list" in self.answered or pages > 1:
            return f" (waiting for page {pages} of tools/list)"
        if "initialize" in self.answered:
            return " to tools/list"
        return " to initialize"  # asked, or still starting the session when time ran out

    def sent(self, item: Any) -> None:
        message = unwrap(item)
        method = getattr(message, "method", None)
        request_id = getattr(message, "id", None)
        if method is not None and request_id is not None:
            self.methods[request_id] = method
            self.results.pop(method, None)
            self.errors.pop(method, None)

    def received(self, item: Any) -> None:
        message = unwrap(item)
        request_id = getattr(message, "id", None)
        method = self.methods.get(request_id) if request_id is not None else None
        if method is not None and getattr(message, "method", None) is None:
            result = getattr(message, "result", None)
            error = getattr(message, "error", None)
            if isinstance(result, dict):
                self.results[method] = result
                self.answered.add(method)
            elif error is not None:
                self.errors[method] = _as_dict(error)
                self.answered.add(method)


def unwrap(item: Any) -> Any:
    """The JSON-RPC message inside a SessionMessage (mcp 1.x wraps it once more in a RootModel)."""
    message = getattr(item, "message", item)
    return getattr(message, "root", message)


def _as_dict(value: Any) -> dict:
    if isinstance(value, dict):
        return value
    dump = getattr(value, "model_dump", None)
    return dump(mode="json", by_alias=True, exclude_none=True) if dump else {"message": str(value)}


class SdkLog(logging.Handler):
    """The SDK's warnings during a fetch (e.g. an answer its models refuse)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.messages.append(record.getMessage())
        except Exception:  # noqa: BLE001
            pass


def leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        found = []
        for inner in exc.exceptions:
            found.extend(leaves(inner))
        return found
    return [exc]


def describe(exc: BaseException | None, program: str | None = None) -> tuple[str, bool]:
    """One line for a failure, and whether the server's silence on stderr is worth saying."""
    if exc is None:
        return "unknown failure", False
    causes = leaves(exc)
    for leaf in causes:
        if isinstance(leaf, McpFetchError):
            return leaf.message, leaf.silence_matters
    leaf = next((e for e in causes if isinstance(e, OSError)), causes[0])
    if isinstance(leaf, ImportError):  # installed (find_spec found it), but broken
        return f"the `mcp` package cannot be imported ({leaf}): pip install 'toolcontract-cli[mcp]'", False
    if isinstance(leaf, FileNotFoundError) and program is not None:
        return f"cannot start server: command not found: {program}", False
    if isinstance(leaf, PermissionError) and program is not None:
        return f"cannot start server: permission denied: {program}", False
    if isinstance(leaf, OSError) and program is not None:
        return f"cannot start server: {leaf.strerror or leaf}", False
    text = " ".join(str(leaf).split())
    if "connection closed" in text.lower() or type(leaf).__name__ in ("EndOfStream", "ClosedResourceError",
                                                                       "BrokenResourceError"):
        return "server closed the connection (its stdout ended: it exited, or closed it)", True
    return (f"{type(leaf).__name__}: {text}" if text else type(leaf).__name__), True


def _with_tail(message: str, tail: str, remarks: list[str], silence_matters: bool) -> str:
    """`message: <last lines of the server's stderr>` (or our remarks and the SDK's warnings when
    stderr was silent). Escaped by McpFetchError."""
    if not tail and remarks:
        tail = " | ".join(dict.fromkeys(remarks))[-STDERR_TAIL_CHARS:]
    if tail:
        return f"{message}: {tail}"
    return f"{message} (server wrote nothing to stderr)" if silence_matters else message
