"""Fetch the tool list of a live MCP server over stdio, with the official `mcp` SDK.

`fetch_tools("mcp-server-git --repository .")` starts the server, initializes,
pages through `tools/list` until no `nextCursor` comes back, and shuts the server
down (the SDK closes its stdin, then ends its whole process group). It never calls
a tool. The tools are kept exactly as the server sent them (the raw JSON-RPC
results, protocol key names and key order included), not as the SDK's models
re-serialise them: a tool the SDK would refuse is still there to be linted.

`LiveTools.json_text` is `{"tools": [...]}` indented by two, so that lines and
columns of findings point somewhere meaningful, and `label` stands in for a file
path in findings (`mcp-stdio:mcp-server-git`).

Everything that keeps the list from being fetched raises `McpFetchError`, whose
message is one line ending in the tail of the server's stderr. The SDK is an
optional extra (`toolcontract-cli[mcp]`); it is imported only here, on use.
"""

from __future__ import annotations

import json
import logging
import os
import shlex
import tempfile
from dataclasses import dataclass, field
from typing import Any, Mapping

DEFAULT_TIMEOUT = 20.0
MAX_PAGES = 1000  # a server that hands out cursors forever is cut off here
STDERR_TAIL_CHARS = 400


class McpFetchError(Exception):
    """The server's tool list could not be fetched. The message is one line, without the label."""

    def __init__(self, label: str, message: str, silence_matters: bool = False):
        super().__init__(message)
        self.label = label
        self.message = message
        self.silence_matters = silence_matters  # say so when the server wrote nothing to stderr

    def __str__(self) -> str:
        return self.message


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


def fetch_tools(
    command: str,
    timeout: float = DEFAULT_TIMEOUT,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike | None = None,
) -> LiveTools:
    """Start `command` (split like a shell would, not run by one) as an MCP stdio server
    and return its complete tool list. The whole exchange, start to last page, must fit
    in `timeout` seconds. The server gets this process's environment, with `env` over it.
    """
    label = command_label(command)
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise McpFetchError(label, f"cannot split the command: {exc}") from None
    if not argv:
        raise McpFetchError(label, "the command is empty")
    if not timeout or timeout <= 0:
        raise McpFetchError(label, f"the timeout must be a positive number of seconds, not {timeout!r}")
    try:
        import anyio
        from mcp.client.stdio import StdioServerParameters
    except ImportError as exc:
        raise McpFetchError(label, f"the `mcp` package is not installed ({exc.name or exc}): "
                                   "pip install 'toolcontract-cli[mcp]'") from None

    parameters = StdioServerParameters(
        command=argv[0], args=argv[1:], env={**os.environ, **(env or {})},
        cwd=os.fspath(cwd) if cwd is not None else None,
    )
    sdk_log = _SdkLog()
    logger = logging.getLogger("mcp")
    logger.addHandler(sdk_log)  # also keeps the SDK's records off stderr when logging is not set up
    try:
        with tempfile.TemporaryFile("w+b") as errlog:
            try:
                return anyio.run(_fetch, parameters, label, float(timeout), errlog)
            except BaseException as exc:  # noqa: BLE001 - every failure becomes one line
                if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                    raise
                message, silence_matters = _describe(exc, argv[0])
                raise McpFetchError(label, _with_tail(message, errlog, sdk_log, silence_matters)) from None
    finally:
        logger.removeHandler(sdk_log)


async def _fetch(parameters, label: str, timeout: float, errlog) -> LiveTools:
    import anyio
    from mcp.client.session import ClientSession
    from mcp.client.stdio import stdio_client

    tap = _Tap()
    outcome: LiveTools | None = None
    with anyio.move_on_after(timeout) as deadline:
        async with stdio_client(parameters, errlog=errlog) as (read_stream, write_stream):
            async with anyio.create_task_group() as pumps:
                session_read = await pumps.start(tap.pump_in, read_stream)
                session_write = await pumps.start(tap.pump_out, write_stream)
                try:
                    async with ClientSession(session_read, session_write) as session:
                        outcome = await _list_everything(session, tap, label)
                finally:
                    pumps.cancel_scope.cancel()
    if outcome is None:
        if deadline.cancelled_caught:
            raise McpFetchError(label, f"server did not answer within {timeout:g}s{tap.progress()}", True)
        raise McpFetchError(label, "server closed the connection before listing its tools", True)
    return outcome


async def _list_everything(session, tap: "_Tap", label: str) -> LiveTools:
    try:
        await session.initialize()
    except Exception as exc:  # noqa: BLE001
        message, silence_matters = _describe(exc)
        raise McpFetchError(label, f"initialize failed: {message}", silence_matters) from None
    init = tap.last_result("initialize") or {}
    capabilities = init.get("capabilities") if isinstance(init.get("capabilities"), dict) else {}
    offers_tools = "tools" in capabilities
    server_info = init.get("serverInfo") if isinstance(init.get("serverInfo"), dict) else {}
    protocol_version = init.get("protocolVersion") if isinstance(init.get("protocolVersion"), str) else None

    tools: list[Any] = []
    cursor: str | None = None
    seen: set[str] = set()
    pages = 0
    while True:
        pages += 1
        tap.pages = pages
        try:
            await _request_page(session, cursor)
            failure = None
        except Exception as exc:  # noqa: BLE001 - the SDK may refuse what the raw answer still holds
            failure = exc
        raw = tap.last_result("tools/list")
        if raw is None:  # no usable answer at all: a JSON-RPC error, or the connection went away
            error = tap.last_error("tools/list")
            reason = _describe(failure)[0] if failure is not None else "no answer"
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
        if pages >= MAX_PAGES:
            raise McpFetchError(label, f"tools/list still had a nextCursor after {MAX_PAGES} pages; stopped")
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


class _Tap:
    """Sits between the SDK's transport and its session and keeps the raw JSON-RPC
    results of our requests by method: the server's words, before any model sees them."""

    def __init__(self):
        self.methods: dict[Any, str] = {}  # request id -> method
        self.results: dict[str, dict] = {}  # method -> last result
        self.errors: dict[str, dict] = {}  # method -> last error
        self.pages = 0
        self.answered: set[str] = set()

    def last_result(self, method: str) -> dict | None:
        return self.results.pop(method, None)

    def last_error(self, method: str) -> dict | None:
        return self.errors.pop(method, None)

    def progress(self) -> str:
        if "tools/list" in self.answered or self.pages > 1:
            return f" (waiting for page {self.pages} of tools/list)"
        if "initialize" in self.answered:
            return " to tools/list"
        if self.methods:
            return " to initialize"
        return ""

    async def pump_out(self, write_stream, *, task_status):
        import anyio

        send, receive = anyio.create_memory_object_stream(0)
        task_status.started(send)
        async with receive:
            async for item in receive:
                message = _unwrap(item)
                method = getattr(message, "method", None)
                request_id = getattr(message, "id", None)
                if method is not None and request_id is not None:
                    self.methods[request_id] = method
                    self.results.pop(method, None)
                    self.errors.pop(method, None)
                await write_stream.send(item)

    async def pump_in(self, read_stream, *, task_status):
        import anyio

        send, receive = anyio.create_memory_object_stream(0)
        task_status.started(receive)
        async with send:
            async for item in read_stream:
                message = _unwrap(item)
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
                await send.send(item)


def _unwrap(item: Any) -> Any:
    """The JSON-RPC message inside a SessionMessage (mcp 1.x wraps it once more in a RootModel)."""
    message = getattr(item, "message", item)
    return getattr(message, "root", message)


def _as_dict(value: Any) -> dict:
    if isinstance(value, dict):
        return value
    dump = getattr(value, "model_dump", None)
    return dump(mode="json", by_alias=True, exclude_none=True) if dump else {"message": str(value)}


class _SdkLog(logging.Handler):
    """The SDK's warnings during a fetch (e.g. a stdout line that is not JSON-RPC)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.messages.append(record.getMessage())
        except Exception:  # noqa: BLE001
            pass


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        found = []
        for inner in exc.exceptions:
            found.extend(_leaves(inner))
        return found
    return [exc]


def _describe(exc: BaseException | None, program: str | None = None) -> tuple[str, bool]:
    """One line for a failure, and whether the server's silence on stderr is worth saying."""
    if exc is None:
        return "unknown failure", False
    leaves = _leaves(exc)
    for leaf in leaves:
        if isinstance(leaf, McpFetchError):
            return leaf.message, leaf.silence_matters
    leaf = next((e for e in leaves if isinstance(e, OSError)), leaves[0])
    if isinstance(leaf, FileNotFoundError) and program is not None:
        return f"cannot start server: command not found: {program}", False
    if isinstance(leaf, PermissionError) and program is not None:
        return f"cannot start server: permission denied: {program}", False
    if isinstance(leaf, OSError) and program is not None:
        return f"cannot start server: {leaf.strerror or leaf}", False
    text = " ".join(str(leaf).split())
    if "connection closed" in text.lower() or type(leaf).__name__ in ("EndOfStream", "ClosedResourceError",
                                                                       "BrokenResourceError"):
        return "server closed the connection (it exited, or wrote something that is not JSON-RPC to stdout)", True
    return (f"{type(leaf).__name__}: {text}" if text else type(leaf).__name__), True


def _with_tail(message: str, errlog, sdk_log: _SdkLog, silence_matters: bool) -> str:
    """`message: <last lines of the server's stderr>` (or of the SDK's warnings when stderr was silent)."""
    tail = _stderr_tail(errlog)
    if not tail and sdk_log.messages:
        tail = "sdk: " + " | ".join(dict.fromkeys(sdk_log.messages))[-STDERR_TAIL_CHARS:]
    if tail:
        return f"{message}: {tail}"
    return f"{message} (server wrote nothing to stderr)" if silence_matters else message


def _stderr_tail(errlog) -> str:
    try:
        errlog.flush()
        descriptor = errlog.fileno()
        size = os.fstat(descriptor).st_size
        os.lseek(descriptor, max(0, size - 4 * STDERR_TAIL_CHARS), os.SEEK_SET)
        text = os.read(descriptor, 4 * STDERR_TAIL_CHARS).decode("utf-8", "replace")
    except (OSError, ValueError):
        return ""
    lines = [" ".join(line.split()) for line in text.splitlines()]
    tail = " | ".join(line for line in lines if line)
    if len(tail) > STDERR_TAIL_CHARS:
        tail = "…" + tail[-STDERR_TAIL_CHARS:]
    return tail
