"""Fetch the tool list of a live MCP server over Streamable HTTP, with the official `mcp` SDK.

`fetch_tools_http("https://tools.example.com/mcp", {"Authorization": "Bearer …"})` initializes
with the SDK's Streamable HTTP client (`mcp.client.streamable_http`), pages through `tools/list`
until no `nextCursor` comes back, and ends the session. It never calls a tool. Paging, the raw
results (`Tap`), the byte and page caps and the one deadline for the whole fetch (`Budget`) are
the stdio fetch's own (toolcontract.io.mcp_live); only the pipe differs: an httpx client whose
transport counts every byte of every response body against the budget, and refuses any request
that leaves the URL's host (a redirect elsewhere) before it is sent.

The URL: `https://`, or `http://` to a loopback address only (127.0.0.0/8, ::1, localhost)
unless `allow_insecure`; no `user:password@` (credentials go in a header). Header values are
never printed: they are not in the label, and every error message has them blanked out.
The label (the findings' path) is `mcp-http:` and the URL without its query (`?…` stands for one).
"""

from __future__ import annotations

import importlib.util
import ipaddress
import logging
import math
import re
import time
from typing import Mapping
from urllib.parse import urlsplit

from toolcontract.core.text import printable
from toolcontract.io.mcp_live import (
    DEFAULT_TIMEOUT,
    SHUTDOWN_GRACE,
    Budget,
    LiveTools,
    McpFetchError,
    describe,
    leaves,
    list_everything,
    SdkLog,
    Tap,
    unwrap,
)

LABEL_PREFIX = "mcp-http:"
_TOKEN = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")  # RFC 9110 token: a header's name


def url_label(url: str) -> str:
    """The stand-in path for a server's findings: `mcp-http:` and the URL, its query shown as `?…`,
    any `user:password@` left out (such a URL is refused anyway)."""
    text = " ".join(url.split())
    try:
        parts = urlsplit(text)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return LABEL_PREFIX + text.split("?", 1)[0]
    if not parts.scheme or not host:
        return LABEL_PREFIX + text.split("?", 1)[0]
    netloc = f"[{host}]" if ":" in host else host
    if port is not None:
        netloc += f":{port}"
    return f"{LABEL_PREFIX}{parts.scheme.lower()}://{netloc}{parts.path}{'?…' if parts.query else ''}"


def parse_header(text: str) -> tuple[str, str]:
    """`Name: value` -> (name, value). ValueError names what is wrong, never the value."""
    name, colon, value = text.partition(":")
    name = name.strip()
    if not colon:
        raise ValueError(f"--header must be 'Name: value' (no ':' in the {len(text)}-character value given)")
    if not _TOKEN.match(name):
        raise ValueError(f"--header name {printable(name)!r} is not an HTTP header name (RFC 9110 token)")
    value = value.strip()
    if any(ch in value for ch in "\r\n\0"):
        raise ValueError(f"--header {name}: the value has a line break or NUL in it")
    return name, value


def check_url(url: str, allow_insecure: bool = False) -> str:
    """The URL to fetch, or McpFetchError (label `mcp-http:…`) saying why it cannot be."""
    label = url_label(url)
    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number in range
    except ValueError as exc:
        raise McpFetchError(label, f"not a valid URL: {exc}") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not host:
        raise McpFetchError(label, "not an http:// or https:// URL with a host")
    if parts.username is not None or parts.password is not None:
        raise McpFetchError(label, "credentials in the URL are refused: pass them with --header "
                                   "'Authorization: ...'")
    if scheme == "http" and not allow_insecure and not is_loopback(host):
        raise McpFetchError(label, f"http:// is only for loopback addresses, and {host} is not one: use https://, "
                                   "or --allow-insecure")
    return url


def is_loopback(host: str) -> bool:
    if host.lower().rstrip(".") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def fetch_tools_http(url: str, headers: Mapping[str, str] | None = None, timeout: float = DEFAULT_TIMEOUT,
                     allow_insecure: bool = False) -> LiveTools:
    """The complete tool list of the MCP server at `url`, in at most `timeout` seconds from this call
    (plus at most SHUTDOWN_GRACE to end the session). `headers` go with every request."""
    started = time.monotonic()
    label = url_label(url)
    headers = dict(headers or {})
    secrets = [value for value in headers.values() if value]
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not math.isfinite(timeout) or timeout <= 0:
        raise McpFetchError(label, f"the timeout must be a finite, positive number of seconds, not {timeout!r}")
    check_url(url, allow_insecure)
    missing = next((name for name in ("anyio", "mcp", "httpx2") if importlib.util.find_spec(name) is None), None)
    if missing is not None:
        raise McpFetchError(label, f"the `mcp` package is not installed ({missing}): "
                                   "pip install 'toolcontract-cli[mcp]'")
    import anyio

    budget = Budget(label, float(timeout), started)
    guard: dict = {}
    sdk_log = SdkLog()
    logger = logging.getLogger("mcp")
    logger.addHandler(sdk_log)
    try:
        return anyio.run(_fetch, url, headers, budget, guard)
    except BaseException as exc:  # noqa: BLE001 - every failure becomes one line
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        if budget.reason:
            message = budget.reason
        elif guard.get("refused"):
            message = guard["refused"]
        else:
            message = _http_describe(exc)
            if guard.get("status") and "HTTP " not in message and "did not answer" not in message:
                message += f" (the server answered {guard['status'].strip()})"
        raise McpFetchError(label, _blank(message, secrets)) from None
    finally:
        logger.removeHandler(sdk_log)


def _blank(message: str, secrets: list[str]) -> str:
    """`message` with every header value (and each of its words longer than 3) replaced by `***`."""
    for secret in sorted(secrets, key=len, reverse=True):
        message = message.replace(secret, "***")
        for word in secret.split():
            if len(word) > 3:
                message = message.replace(word, "***")
    return message


def _http_describe(exc: BaseException) -> str:
    causes = leaves(exc)
    for leaf in causes:
        if isinstance(leaf, McpFetchError):
            return leaf.message
    import httpx2

    for leaf in causes:
        if isinstance(leaf, httpx2.ConnectError):
            return f"cannot connect to the server: {' '.join(str(leaf).split()) or 'connection refused'}"
        if isinstance(leaf, httpx2.TimeoutException):
            return "server did not answer in time"
        if isinstance(leaf, httpx2.HTTPStatusError):
            return f"server answered HTTP {leaf.response.status_code}"
    return describe(exc)[0].replace(" (its stdout ended: it exited, or closed it)", "")


async def _fetch(url: str, headers: dict, budget: Budget, guard: dict) -> LiveTools:
    import anyio
    import httpx2
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    target = httpx2.URL(url)
    tap = Tap()
    outcome: LiveTools | None = None
    timed_out = False
    with anyio.move_on_after(budget.remaining() + SHUTDOWN_GRACE):
        transport = _Guarded(target, budget, guard)
        # past the budget's own deadline (below), so a slow server is always reported by the budget, in its words
        timeout = httpx2.Timeout(max(budget.remaining(), 0.01) + SHUTDOWN_GRACE)
        async with httpx2.AsyncClient(headers=headers, timeout=timeout, transport=transport, trust_env=False,
                                      follow_redirects=False) as client:
            async with streamable_http_client(url, http_client=client, **_sse_cap(streamable_http_client, budget)) \
                    as streams:
                read_stream, write_stream = streams[0], streams[1]
                with anyio.move_on_after(budget.remaining()) as deadline:
                    async with _tapped(read_stream, write_stream, tap) as (reader, writer):
                        async with ClientSession(reader, writer) as session:
                            outcome = await list_everything(session, tap, budget)
                timed_out = deadline.cancelled_caught
                if outcome is None and budget.reason:
                    raise McpFetchError(budget.label, budget.reason)
    if outcome is not None:
        return outcome
    if guard.get("refused"):
        raise McpFetchError(budget.label, guard["refused"])
    if timed_out or budget.remaining() <= 0:
        raise McpFetchError(budget.label, f"server did not answer within {budget.timeout:g}s"
                                          f"{tap.progress(budget.pages)}")
    raise McpFetchError(budget.label, "server closed the connection before listing its tools")


def _sse_cap(client, budget: Budget) -> dict:
    """The SDK's own cap on one server-sent event (1 MiB by default) raised to ours for a message, so that
    both transports take the same lists."""
    import inspect

    return {"max_sse_event_size": budget.max_message} if "max_sse_event_size" in inspect.signature(client).parameters \
        else {}


def _tapped(read_stream, write_stream, tap: Tap):
    """Memory streams between the SDK's transport and the session that show `tap` every message."""
    from contextlib import asynccontextmanager

    import anyio

    @asynccontextmanager
    async def pipes():
        to_session, reader = anyio.create_memory_object_stream(0)
        writer, from_session = anyio.create_memory_object_stream(0)

        async def inbound():
            async with to_session:
                try:
                    async for item in read_stream:
                        if not isinstance(item, Exception):
                            tap.received(unwrap(item))
                        await to_session.send(item)
                except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream):
                    return

        async def outbound():
            async with from_session:
                try:
                    async for item in from_session:
                        tap.sent(unwrap(item))
                        await write_stream.send(item)
                except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                    await to_session.aclose()

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(inbound)
            tasks.start_soon(outbound)
            try:
                yield reader, writer
            finally:
                tasks.cancel_scope.cancel()
                reader.close()
                writer.close()

    return pipes()


def _origin(url) -> tuple:
    return (url.scheme, url.host, url.port)


def _make_guarded():
    import httpx2

    class Counted(httpx2.AsyncByteStream):
        """A response body, every chunk counted against the budget as it arrives."""

        def __init__(self, stream, budget: Budget):
            self.stream, self.budget, self.size = stream, budget, 0

        async def __aiter__(self):
            async for chunk in self.stream:
                self.size += len(chunk)
                self.budget.receive(len(chunk), self.size)
                yield chunk

        async def aclose(self) -> None:
            await self.stream.aclose()

    class Guarded(httpx2.AsyncBaseTransport):
        """httpx's own transport, refusing a request to another host than the URL's, and a redirect
        that points at one; response bodies counted (`Counted`)."""

        def __init__(self, target, budget: Budget, guard: dict):
            self.inner = httpx2.AsyncHTTPTransport(trust_env=False)
            self.target, self.budget, self.guard = target, budget, guard

        def _refuse(self, url) -> None:
            host = url.host + (f":{url.port}" if url.port else "")
            self.guard["refused"] = f"refused a redirect to another host ({url.scheme}://{host})"
            raise McpFetchError(self.budget.label, self.guard["refused"])

        async def handle_async_request(self, request):
            if request.url.host != self.target.host or request.url.port != self.target.port:
                self._refuse(request.url)
            response = await self.inner.handle_async_request(request)
            if request.method == "POST":  # a message's answer: the SDK says only "an error response", say which
                code = response.status_code
                self.guard["status"] = f"HTTP {code} {httpx2.codes.get_reason_phrase(code)}" if code >= 400 else None
            if 300 <= response.status_code < 400 and "location" in response.headers:
                try:
                    location = request.url.join(response.headers["location"])
                except Exception:  # noqa: BLE001 - an unreadable location goes nowhere
                    location = None
                if location is not None and (location.host != self.target.host or location.port != self.target.port):
                    await response.aclose()
                    self._refuse(location)
            response.stream = Counted(response.stream, self.budget)
            return response

        async def aclose(self) -> None:
            await self.inner.aclose()

    return Guarded


def _Guarded(target, budget: Budget, guard: dict):
    return _make_guarded()(target, budget, guard)
