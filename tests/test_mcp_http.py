"""Live MCP servers over Streamable HTTP (`lint`, `convert`, `lock` with `--mcp-url`; issue 19, Deliver 2).

One real server, built with the official SDK (its low-level `Server` and `streamable_http_app`, run by
uvicorn: tests/mcp_servers/http_server.py), listens on 127.0.0.1 on a free port for the whole module;
each of its paths behaves one way (paging, a required header, a slow answer, an error, an oversized
list, redirects). Nothing here reaches any other address: the URLs to other hosts are refused before
a connection is made.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import assert_one_line_error, has_module, run_cli

pytestmark = pytest.mark.skipif(not has_module("mcp") or not has_module("uvicorn"),
                                reason="the `mcp` SDK or uvicorn is not installed (pip install -e '.[test]')")

SERVER = Path(__file__).resolve().parent / "mcp_servers" / "http_server.py"
TOKEN = "Bearer s3cret-token-4711"
SECRET = "s3cret-token-4711"


@pytest.fixture(scope="module")
def base():
    """`http://127.0.0.1:PORT` of the test server, running for the module."""
    process = subprocess.Popen([sys.executable, str(SERVER)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, stdin=subprocess.DEVNULL)
    try:
        port = int(process.stdout.readline())
        url = f"http://127.0.0.1:{port}"
        import socket

        give_up = time.monotonic() + 20
        while True:  # uvicorn accepts once its lifespans have started
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > give_up or process.poll() is not None:
                    raise RuntimeError(f"the test server did not start: {process.stderr.read()}")
                time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def lint(*args, cwd=None):
    return run_cli("lint", "--no-config", "--no-cache", *args, cwd=cwd)


def test_lint_lists_every_page_and_reports_with_the_url_as_path(base):
    result = lint("--mcp-url", f"{base}/mcp", "-q", "--format", "json")
    report = json.loads(result.stdout)
    label = f"mcp-http:{base}/mcp"
    tools = {f["tool"] for f in report["findings"]}
    assert tools == {"read_file", "stat_file", "x"}  # page 2 holds `x`
    assert {f["path"] for f in report["findings"]} == {label}
    thin = next(f for f in report["findings"] if f["rule"] == "TC203" and f["tool"] == "x")
    assert thin["message"].startswith("the model-facing description is only 8 characters")
    assert result.returncode == 0  # warnings only


def test_a_server_answering_with_server_sent_events_is_read_the_same(base):
    json_answer = json.loads(lint("--mcp-url", f"{base}/mcp", "-q", "--format", "json").stdout)["findings"]
    sse = lint("--mcp-url", f"{base}/sse/mcp", "-q", "--format", "json")
    assert sse.returncode == 0, sse.stderr
    found = json.loads(sse.stdout)["findings"]
    assert {f["path"] for f in found} == {f"mcp-http:{base}/sse/mcp"}
    strip = lambda rows: [(f["rule"], f["tool"], f["line"], f["column"], f["message"]) for f in rows]  # noqa: E731
    assert strip(found) == strip(json_answer)


def test_lint_text_lines_point_into_the_list_convert_saves(base, tmp_path):
    text = lint("--mcp-url", f"{base}/mcp", "-q", "--format", "text").stdout
    line = next(row for row in text.splitlines() if "TC203 [x]" in row)
    prefix = f"mcp-http:{base}/mcp:"
    assert line.startswith(prefix)
    row, column = map(int, line[len(prefix):].split(":")[:2])
    saved = tmp_path / "tools.json"
    converted = run_cli("convert", "--mcp-url", f"{base}/mcp", "-o", saved)
    assert converted.returncode == 0, converted.stderr
    assert saved.read_text().splitlines()[row - 1][column - 1:].startswith('"Does it."')
    again = lint(saved, "-q", "--format", "text").stdout
    assert f"{saved}:{row}:{column}: warning TC203 [x]" in again


def test_a_header_is_sent_and_its_value_never_printed(base, tmp_path):
    url = f"{base}/auth/mcp"
    sarif = tmp_path / "out.sarif"
    good = lint("--mcp-url", url, "--header", f"Authorization: {TOKEN}", "-o", sarif)
    assert good.returncode == 0, good.stderr
    assert "[read_file]" in good.stdout
    document = json.loads(sarif.read_text())
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in document["runs"][0]["results"]}
    assert len(uris) == 1 and next(iter(uris)).startswith("mcp-http/127.0.0.1-")
    for text in (good.stdout, good.stderr, sarif.read_text()):
        assert SECRET not in text
    bad = lint("--mcp-url", url, "--header", "Authorization: Bearer wrong-secret-0815")
    assert bad.returncode == 2
    assert_one_line_error(bad.stderr)
    assert bad.stderr.startswith(f"mcp-http:{url}:1:1: initialize failed")
    assert "HTTP 401" in bad.stderr and "wrong-secret-0815" not in bad.stderr + bad.stdout
    missing = lint("--mcp-url", url)
    assert missing.returncode == 2 and "HTTP 401" in missing.stderr


@pytest.mark.parametrize("header, expected", [
    ("Authorization Bearer s3cret-token-4711", "--header must be 'Name: value'"),
    ("Bad Name: s3cret-token-4711", "is not an HTTP header name"),
])
def test_a_malformed_header_is_exit_2_without_its_value(base, header, expected):
    result = lint("--mcp-url", f"{base}/mcp", "--header", header)
    assert result.returncode == 2
    assert_one_line_error(result.stderr)
    assert expected in result.stderr and SECRET not in result.stderr


def test_a_slow_server_is_stopped_at_the_timeout(base):
    started = time.monotonic()
    result = lint("--mcp-url", f"{base}/slow/mcp", "--mcp-timeout", "1")
    assert time.monotonic() - started < 20  # the server answers after 60 s: stopped at the timeout, not then
    assert result.returncode == 2
    assert_one_line_error(result.stderr)
    assert result.stderr.strip() == f"mcp-http:{base}/slow/mcp:1:1: server did not answer within 1s to tools/list"


def test_a_server_error_is_exit_2_with_its_message(base):
    result = lint("--mcp-url", f"{base}/error/mcp")
    assert result.returncode == 2
    assert_one_line_error(result.stderr)
    assert result.stderr.startswith(f"mcp-http:{base}/error/mcp:1:1: tools/list failed: error ")
    assert "database of tools is down" in result.stderr


def test_an_oversized_list_is_cut_off_at_the_cap(base):
    result = lint("--mcp-url", f"{base}/huge/mcp")
    assert result.returncode == 2
    assert_one_line_error(result.stderr)
    # the one answer is over both caps: whichever the chunks pass first stops the fetch
    assert ("over the 5,242,880-byte limit" in result.stderr
            or "more than the 5,242,880-byte limit for a whole tool list" in result.stderr)
    assert result.stderr.rstrip().endswith("; stopped")


def test_a_redirect_to_another_host_is_refused_one_on_the_host_followed(base):
    moved = lint("--mcp-url", f"{base}/moved/mcp")
    assert moved.returncode == 2
    assert_one_line_error(moved.stderr)
    assert moved.stderr.strip() == (f"mcp-http:{base}/moved/mcp:1:1: refused a redirect to another host "
                                    "(http://elsewhere.invalid)")
    home = lint("--mcp-url", f"{base}/home/mcp", "-q", "--format", "json")
    assert home.returncode == 0, home.stderr
    assert {f["tool"] for f in json.loads(home.stdout)["findings"]} == {"read_file", "stat_file", "x"}


def test_a_refused_connection_is_exit_2():
    import socket

    with socket.socket() as sock:  # a port nothing listens on: bound, never listening
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        result = lint("--mcp-url", f"http://127.0.0.1:{port}/mcp", "--mcp-timeout", "5")
    assert result.returncode == 2
    assert_one_line_error(result.stderr)
    assert result.stderr.startswith(f"mcp-http:http://127.0.0.1:{port}/mcp:1:1: ")
    assert "cannot connect to the server" in result.stderr


@pytest.mark.parametrize("url, expected", [
    ("http://example.com/mcp", "http:// is only for loopback addresses, and example.com is not one"),
    ("http://10.1.2.3:8080/mcp", "http:// is only for loopback addresses, and 10.1.2.3 is not one"),
    ("ftp://example.com/mcp", "not an http:// or https:// URL with a host"),
    ("https://user:pw@example.com/mcp", "credentials in the URL are refused"),
    ("http://[::1/mcp", "not a valid URL"),
])
def test_a_bad_or_insecure_url_is_exit_2_before_any_connection(url, expected):
    result = lint("--mcp-url", url)
    assert result.returncode == 2
    assert_one_line_error(result.stderr)
    assert expected in result.stderr and "pw@" not in result.stderr


def test_allow_insecure_lets_http_through_the_check_and_needs_a_url():
    from toolcontract.io.mcp_http import check_url, url_label

    assert check_url("http://10.1.2.3/mcp", allow_insecure=True) == "http://10.1.2.3/mcp"
    assert check_url("http://localhost:9/mcp") == "http://localhost:9/mcp"
    assert check_url("http://[::1]:9/mcp") == "http://[::1]:9/mcp"
    assert url_label("https://h.example/mcp?key=abc") == "mcp-http:https://h.example/mcp?…"
    result = lint("--allow-insecure", "x.json")
    assert result.returncode == 2 and "go with --mcp-url" in result.stderr


def test_convert_and_lock_read_the_server_too(base, tmp_path):
    out = run_cli("convert", "--mcp-url", f"{base}/auth/mcp", "--header", f"Authorization: {TOKEN}",
                  "--to", "openai-chat", "-q")
    assert out.returncode == 0, out.stderr
    assert [t["function"]["name"] for t in json.loads(out.stdout)] == ["read_file", "stat_file", "x"]
    refused = run_cli("convert", "--mcp-url", f"{base}/error/mcp")
    assert refused.returncode == 2 and "tools/list failed" in refused.stderr
    locked = run_cli("lock", "--no-config", "--mcp-url", f"{base}/mcp", cwd=tmp_path)
    assert locked.returncode == 0, locked.stderr
    entries = json.loads((tmp_path / "toolcontract.lock").read_text())["tools"]
    assert sorted(entries) == ["read_file", "stat_file", "x"]
    assert {e["source"] for e in entries.values()} == {f"mcp-http:{base}/mcp"}
    checked = lint("--locked", "--mcp-url", f"{base}/mcp", "-q", "--format", "json", cwd=tmp_path)
    assert checked.returncode == 0
    assert not [f for f in json.loads(checked.stdout)["findings"] if f["rule"].startswith("TC71")]


def test_fix_leaves_a_servers_tools_alone_and_says_so(base):
    result = lint("--fix", "--mcp-url", f"{base}/mcp", "-q")
    assert result.returncode == 0
    assert (f"mcp-http:{base}/mcp: not fixed: a live server's tools are fixed in its code (or in a list written "
            "by `toolcontract convert --mcp-url URL -o FILE`)") in result.stderr
    assert f"mcp-http:{base}/mcp:38:22: warning TC203 [x]" in result.stdout


def test_a_header_value_the_server_quotes_back_is_blanked(base):
    result = lint("--mcp-url", f"{base}/echo/mcp", "--header", f"Authorization: {TOKEN}")
    assert result.returncode == 2
    assert_one_line_error(result.stderr)
    assert result.stderr.startswith(f"mcp-http:{base}/echo/mcp:1:1: tools/list failed: error ")
    assert "token *** is not valid here" in result.stderr
    assert SECRET not in result.stderr + result.stdout


def test_only_initialize_and_tools_list_are_asked_never_a_tool_call(base):
    import urllib.request

    def methods() -> list:
        with urllib.request.urlopen(f"{base}/methods", timeout=5) as answer:  # 127.0.0.1 only
            return json.loads(answer.read())

    before = len(methods())
    assert lint("--mcp-url", f"{base}/mcp", "-q").returncode == 0
    asked = methods()[before:]
    assert [m for m in asked if not m.startswith("notifications/")] == ["initialize", "tools/list", "tools/list"]
    assert "tools/call" not in asked


def test_the_library_lints_a_server_with_headers_as_a_dict(base):
    from toolcontract import lint_paths

    result = lint_paths(mcp_url=[f"{base}/auth/mcp"], headers={"Authorization": TOKEN}, no_config=True)
    assert {f.tool for f in result.findings} == {"read_file", "stat_file", "x"}
    assert {f.path for f in result.findings} == {f"mcp-http:{base}/auth/mcp"}
