"""A real MCP server over Streamable HTTP, built with the official SDK (its low-level `Server` and its
`streamable_http_app`), run with uvicorn on 127.0.0.1 on a free port. It prints `PORT` on its first line
of stdout once it listens. Used by tests/test_mcp_http.py; it never runs a tool.

Paths (one server, one behaviour each, so that one process serves every test):
  /mcp          three tools over two pages of tools/list (a cursor), answers as JSON
  /sse/mcp      the same, answers as server-sent events (the SDK server's default)
  /auth/mcp     the same, only with `Authorization: Bearer s3cret-token-4711` (else HTTP 401)
  /slow/mcp     tools/list answers after 60 s
  /error/mcp    tools/list fails (a JSON-RPC error from the SDK)
  /echo/mcp     tools/list fails with an error that quotes the Authorization header
  /huge/mcp     tools/list answers a 6 MB list (over the 5 MB cap)
  /moved/mcp    307 to http://elsewhere.invalid/mcp (another host)
  /home/mcp     307 to /mcp (the same host: followed)
  /methods      GET: the JSON-RPC methods every POST so far asked for
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys

import uvicorn
from mcp import types
from mcp.server.lowlevel.server import Server

TOKEN = "Bearer s3cret-token-4711"
METHODS: list = []  # the JSON-RPC methods of every POST, for GET /methods
SCHEMA = {"type": "object", "properties": {"path": {"type": "string", "description": "The file to read."}},
          "required": ["path"], "additionalProperties": False}
TOOLS = [
    types.Tool(name="read_file", description="Read a file from the workspace and return its text.", inputSchema=SCHEMA),
    types.Tool(name="stat_file", description="Give the size and modification time of a file in the workspace.",
               inputSchema=SCHEMA),
    types.Tool(name="x", description="Does it.", inputSchema={"type": "object"}),
]


async def list_tools(ctx, params):
    cursor = getattr(params, "cursor", None) if params is not None else None
    if cursor is None:
        return types.ListToolsResult(tools=TOOLS[:2], nextCursor="page-2")
    return types.ListToolsResult(tools=TOOLS[2:])


async def list_slowly(ctx, params):
    await asyncio.sleep(60)
    return types.ListToolsResult(tools=TOOLS)


async def list_echoing(ctx, params):
    """Fails quoting the Authorization header it got (as careless servers do)."""
    given = ctx.request.headers.get("authorization", "") if ctx.request is not None else "(no request)"
    raise RuntimeError(f"token {given} is not valid here")


async def list_failing(ctx, params):
    raise RuntimeError("database of tools is down")


def mcp_app(handler, json_response=True):
    server = Server("http-test-server", version="1.0", on_list_tools=handler)
    return server.streamable_http_app(streamable_http_path="/mcp", json_response=json_response)


APPS = {"": mcp_app(list_tools), "/auth": mcp_app(list_tools), "/slow": mcp_app(list_slowly),
        "/error": mcp_app(list_failing), "/echo": mcp_app(list_echoing), "/huge": mcp_app(list_tools),
        "/sse": mcp_app(list_tools, json_response=False)}


async def _send(send, status: int, body: bytes, headers=()):
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-length", str(len(body)).encode()), *headers]})
    await send({"type": "http.response.body", "body": body})


async def app(scope, receive, send):
    """The apps by path prefix; the lifespans of all of them (each starts its session manager)."""
    if scope["type"] == "lifespan":
        await _lifespans(receive, send)
        return
    path = scope["path"]
    if path.startswith("/moved/"):
        await _send(send, 307, b"", [(b"location", b"http://elsewhere.invalid/mcp")])
        return
    if path.startswith("/home/"):
        await _send(send, 307, b"", [(b"location", b"/mcp")])
        return
    prefix = next((p for p in APPS if p and path.startswith(p + "/")), "")
    if prefix == "/auth":
        given = dict(scope["headers"]).get(b"authorization", b"").decode()
        if given != TOKEN:
            await _send(send, 401, b'{"error": "unauthorized"}', [(b"content-type", b"application/json")])
            return
    if path == "/methods":  # what every POST asked for so far, in order
        await _send(send, 200, json.dumps(METHODS).encode(), [(b"content-type", b"application/json")])
        return
    if scope["method"] == "POST":
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        request = json.loads(body)
        for item in request if isinstance(request, list) else [request]:
            if isinstance(item, dict) and "method" in item:
                METHODS.append(item["method"])
        if prefix == "/huge" and request.get("method") == "tools/list":
            tool = {"name": "t", "description": "d" * 1000, "inputSchema": {"type": "object"}}
            answer = json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": {"tools": [tool] * 6000}})
            await _send(send, 200, answer.encode(), [(b"content-type", b"application/json")])
            return
        replayed, original = False, receive

        async def replay():  # the body read above, then what the connection sends next (its end)
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await original()

        receive = replay
    inner = dict(scope, path=path[len(prefix):] or "/", root_path=scope.get("root_path", "") + prefix)
    await APPS[prefix](inner, receive, send)


async def _lifespans(receive, send):
    from contextlib import AsyncExitStack

    async with AsyncExitStack() as stack:
        for sub in APPS.values():
            await stack.enter_async_context(sub.router.lifespan_context(sub))
        message = await receive()
        assert message["type"] == "lifespan.startup"
        await send({"type": "lifespan.startup.complete"})
        message = await receive()
        await send({"type": "lifespan.shutdown.complete"})


def main() -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    print(sock.getsockname()[1], flush=True)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    sys.exit(main())
