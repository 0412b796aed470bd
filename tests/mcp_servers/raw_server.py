"""A bare JSON-RPC stdio "MCP server" written without the SDK, to misbehave on purpose.

Run: python raw_server.py MODE
  odd      - tools the SDK's models refuse (no inputSchema, a non-object schema), kept verbatim
  pages    - three well-formed tools, one per page (cursors "p1", "p2")
  loop     - tools/list always returns the same nextCursor
  error    - tools/list answers with a JSON-RPC error, and no tools capability is declared
  notools  - the tools/list result has no `tools` member
  empty    - tools/list answers with an empty list of tools
"""

import json
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "odd"

ODD_TOOLS = [
    {"name": "no schema", "description": "Has no inputSchema at all."},
    {"name": "list_schema", "inputSchema": {"type": "array"}, "x-vendor": {"keep": True}},
    {"inputSchema": {"type": "object"}, "description": "Has no name."},
]

PAGE_TOOL = {
    "description": "Fetch one page of the audit log by date. Read-only; it never changes the log.",
    "inputSchema": {
        "type": "object",
        "properties": {"date": {"type": "string", "format": "date"}},
        "required": ["date"],
        "additionalProperties": False,
    },
    "annotations": {"readOnlyHint": True, "openWorldHint": False},
}


def answer(request_id, result=None, error=None):
    message = {"jsonrpc": "2.0", "id": request_id}
    if error is not None:
        message["error"] = error
    else:
        message["result"] = result
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    if not line.strip():
        continue
    message = json.loads(line)
    method, request_id = message.get("method"), message.get("id")
    if request_id is None:
        continue  # a notification
    if method == "initialize":
        capabilities = {} if MODE == "error" else {"tools": {}}
        answer(request_id, {
            "protocolVersion": message["params"]["protocolVersion"],
            "capabilities": capabilities,
            "serverInfo": {"name": f"raw-{MODE}", "version": "0.0.1"},
        })
    elif method == "tools/list":
        if MODE == "odd":
            answer(request_id, {"tools": ODD_TOOLS})
        elif MODE == "pages":
            cursor = (message.get("params") or {}).get("cursor")
            index = {None: 0, "p1": 1, "p2": 2}[cursor]
            page = {"tools": [dict(PAGE_TOOL, name=f"page_tool_{index}")]}
            if index < 2:
                page["nextCursor"] = f"p{index + 1}"
            answer(request_id, page)
        elif MODE == "loop":
            answer(request_id, {"tools": [], "nextCursor": "again"})
        elif MODE == "error":
            answer(request_id, error={"code": -32601, "message": "Method not found"})
        elif MODE == "empty":
            answer(request_id, {"tools": []})
        else:
            answer(request_id, {"items": []})
    elif method == "ping":
        answer(request_id, {})
    else:
        answer(request_id, error={"code": -32601, "message": "Method not found"})
