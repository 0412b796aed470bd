"""Live MCP servers over stdio: `lint --mcp-stdio`, `convert --mcp-stdio`, and the fetch under them.

Every server here is real and really started: `mcp-server-time` and `mcp-server-git`
from PyPI (the `[test]` extra installs them), a paging server on the SDK's low-level
API, and a bare JSON-RPC server that misbehaves on purpose (tests/mcp_servers/).
Nothing is mocked. Servers are started as `python -m ...` with this interpreter, so
the tests work from any virtual environment without its bin folder on PATH.
"""

from __future__ import annotations

import json
import os
import resource
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import GOOD_DIR, TEXT_LINE, assert_one_line_error, has_module

pytestmark = pytest.mark.skipif(not has_module("mcp"), reason="the `mcp` SDK is not installed (pip install -e '.[mcp]')")

SERVERS = Path(__file__).resolve().parent / "mcp_servers"
PYTHON = sys.executable


def command(*argv: str | os.PathLike) -> str:
    return shlex.join([str(a) for a in argv])


PAGING = command(PYTHON, SERVERS / "paging_server.py")
TIME = command(PYTHON, "-m", "mcp_server_time", "--local-timezone", "UTC")

needs_time = pytest.mark.skipif(not has_module("mcp_server_time"), reason="mcp-server-time is not installed (pip install -e '.[test]')")
needs_git = pytest.mark.skipif(not has_module("mcp_server_git") or shutil.which("git") is None,
                               reason="mcp-server-git (pip install -e '.[test]') or the git program is missing")


def raw(mode: str, pid_file: os.PathLike | None = None) -> str:
    return command(PYTHON, SERVERS / "raw_server.py", mode, *([pid_file] if pid_file is not None else []))


def run(runner, *args):
    from toolcontract.cli import app

    result = runner.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output
    return result


def run_process(*args, timeout=60):
    """The real command line, as a user runs it: one process, its own stderr."""
    return subprocess.run([PYTHON, "-m", "toolcontract", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def paging_live():
    """The paging server's tool list, fetched once for the tests that only read it."""
    from toolcontract.io.mcp_live import fetch_tools

    return fetch_tools(PAGING, timeout=20)


@pytest.fixture
def git_repo(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True, capture_output=True)
    return repo


# ------------------------------------------------------------------- fetching


def test_fetch_follows_every_page(paging_live):
    live = paging_live
    assert live.pages == 3  # 5 tools in pages of 2
    assert [tool["name"] for tool in live.tools] == [f"lookup_{i}" for i in range(5)]
    assert live.label == f"mcp-stdio:{PAGING}"
    assert live.server_info["name"] == "paging-server"
    assert live.protocol_version
    # kept in protocol names, never the SDK's Python ones
    first = live.tools[0]
    assert first["inputSchema"]["required"] == ["id"]
    assert first["annotations"] == {"readOnlyHint": True, "openWorldHint": False}
    assert "input_schema" not in first


def test_json_text_is_the_list_indented_so_positions_mean_something(paging_live):
    from toolcontract.io.document import load_bytes

    live = paging_live
    text = live.json_text
    assert json.loads(text) == {"tools": live.tools}
    assert text.startswith('{\n  "tools": [\n    {\n')
    document = load_bytes(text.encode(), live.label)
    line, _ = document.locate("/tools/3/inputSchema")
    assert text.splitlines()[line - 1].strip().startswith('"inputSchema"')
    assert line > document.locate("/tools/2")[0]


def test_tools_are_kept_as_sent_even_those_the_sdk_refuses():
    from toolcontract.io.mcp_live import fetch_tools

    live = fetch_tools(raw("odd"), timeout=10)
    assert live.tools == [
        {"name": "no schema", "description": "Has no inputSchema at all."},
        {"name": "list_schema", "inputSchema": {"type": "array"}, "x-vendor": {"keep": True}},
        {"inputSchema": {"type": "object"}, "description": "Has no name."},
    ]
    assert list(live.tools[1]) == ["name", "inputSchema", "x-vendor"]  # the server's key order


def test_fetch_follows_cursors_of_a_server_without_the_sdk():
    from toolcontract.io.mcp_live import fetch_tools

    live = fetch_tools(raw("pages"), timeout=10)
    assert (live.pages, [tool["name"] for tool in live.tools]) == (3, ["page_tool_0", "page_tool_1", "page_tool_2"])


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("loop", "tools/list paging loops: page 2 returned cursor 'again' again"),
        ("error", "server declares no `tools` capability, and tools/list failed: error -32601: Method not found"),
        ("notools", "tools/list answer has no `tools` list (keys: items)"),
    ],
)
def test_a_server_that_answers_wrongly_is_a_clear_error(mode, expected):
    from toolcontract.io.mcp_live import McpFetchError, fetch_tools

    with pytest.raises(McpFetchError) as caught:
        fetch_tools(raw(mode), timeout=10)
    assert str(caught.value) == expected
    assert caught.value.label == f"mcp-stdio:{raw(mode)}"


def test_paging_is_capped(monkeypatch):
    from toolcontract.io import mcp_live

    monkeypatch.setattr(mcp_live, "MAX_PAGES", 2)  # the server has 3 pages
    with pytest.raises(mcp_live.McpFetchError, match="still had a nextCursor after 2 pages"):
        mcp_live.fetch_tools(raw("pages"), timeout=10)


def test_a_server_that_never_answers_is_stopped_with_its_process_group(tmp_path):
    """The timeout covers start to last page; what the server said on stderr comes along;
    nothing it started is left running."""
    from toolcontract.io.mcp_live import McpFetchError, fetch_tools

    pid_file = tmp_path / "child.pid"
    code = (
        "import subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "print('loading the index', file=sys.stderr, flush=True)\n"
        "time.sleep(60)\n"
    )
    started = time.monotonic()
    with pytest.raises(McpFetchError) as caught:
        fetch_tools(command(PYTHON, "-c", code), timeout=1)
    elapsed = time.monotonic() - started
    assert str(caught.value) == "server did not answer within 1s to initialize: loading the index"
    assert elapsed < 1 + 5  # the SDK's shutdown: stdin closed, a grace period, then the group is killed
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 3
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child), "the server's own child outlived it"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(") ")[-1][:1] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


@pytest.mark.parametrize(
    ("cmd", "expected"),
    [
        ("", "the command is empty"),
        ("'unclosed", "cannot split the command: No closing quotation"),
        ("toolcontract-no-such-server --stdio", "cannot start server: command not found: toolcontract-no-such-server"),
    ],
)
def test_a_command_that_cannot_start(cmd, expected):
    from toolcontract.io.mcp_live import McpFetchError, fetch_tools

    with pytest.raises(McpFetchError) as caught:
        fetch_tools(cmd, timeout=5)
    assert str(caught.value) == expected


def test_a_server_that_exits_gives_its_stderr():
    from toolcontract.io.mcp_live import McpFetchError, fetch_tools

    code = "import sys; print('Traceback: config.toml not found', file=sys.stderr); sys.exit(3)"
    with pytest.raises(McpFetchError) as caught:
        fetch_tools(command(PYTHON, "-c", code), timeout=10)
    message = str(caught.value)
    assert message.startswith("initialize failed: server closed the connection")
    assert message.endswith(": Traceback: config.toml not found")


# ----------------------------------------------------------------- lint (CLI)


def _check_live_findings(report: dict, label: str) -> None:
    for finding in report["findings"]:
        assert finding["path"] == label
        if finding["tool"] is not None:
            assert finding["pointer"].startswith("/tools/"), finding
            assert finding["line"] > 2, finding


@needs_time
def test_lint_time_server(runner):
    result = run(runner, "lint", "--mcp-stdio", TIME, "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    report = json.loads(result.stdout)
    assert report["summary"]["files"] == 1
    assert report["summary"]["tools"] == 2
    _check_live_findings(report, f"mcp-stdio:{TIME}")
    named = {finding["tool"] for finding in report["findings"]} - {None}
    assert named <= {"get_current_time", "convert_time"}


@needs_git
def test_lint_git_server_for_strict_targets(runner, git_repo):
    """The issue's "done when": the git server linted for OpenAI strict mode and Anthropic."""
    server = command(PYTHON, "-m", "mcp_server_git", "--repository", git_repo)
    result = run(runner, "lint", "--mcp-stdio", server, "--target", "openai-strict,anthropic", "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    report = json.loads(result.stdout)
    assert report["summary"]["files"] == 1
    assert report["summary"]["tools"] >= 5  # git_status, git_diff, git_log, git_commit, ...
    _check_live_findings(report, f"mcp-stdio:{server}")
    assert {"git_status", "git_log"} <= {finding["tool"] for finding in report["findings"]}


def test_lint_files_and_a_server_together(runner):
    good = sorted(GOOD_DIR.glob("*.yaml"))[0]
    server = raw("pages")
    result = run(runner, "lint", good, "--mcp-stdio", server, "--format", "text")
    assert result.exit_code in (0, 1), result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1].startswith("2 files, 4 tools: ")  # the file's one and the server's three
    paths = {TEXT_LINE.match(line)["path"] for line in lines[:-2]}  # then the tally by rule and the summary
    assert paths <= {str(good), f"mcp-stdio:{server}"}
    assert f"mcp-stdio:{server}" in paths


def test_lint_without_paths_or_server_is_exit_2(runner):
    result = run(runner, "lint")
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert "--mcp-stdio" in result.stderr


def test_lint_of_a_missing_command_is_exit_2(runner):
    result = run(runner, "lint", "--mcp-stdio", "toolcontract-no-such-server --flag")
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert result.stderr.strip() == ("mcp-stdio:toolcontract-no-such-server --flag:1:1: "
                                     "cannot start server: command not found: toolcontract-no-such-server")
    assert result.stdout == ""


def test_lint_of_a_silent_server_is_exit_2_within_the_timeout():
    """As a user runs it: one line on stderr, nothing on stdout, in about the timeout."""
    code = "import sys, time; print('warming up', file=sys.stderr, flush=True); time.sleep(60)"
    server = command(PYTHON, "-c", code)
    started = time.monotonic()
    result = run_process("lint", "--mcp-stdio", server, "--mcp-timeout", "1", timeout=30)
    elapsed = time.monotonic() - started
    assert result.returncode == 2
    assert_one_line_error(result.stderr)
    assert result.stderr.strip() == f"mcp-stdio:{server}:1:1: server did not answer within 1s to initialize: warming up"
    assert result.stdout == ""
    assert elapsed < 1 + 8  # interpreter and SDK start-up, the timeout, the SDK's shutdown grace


def test_mcp_timeout_must_be_positive(runner):
    result = run(runner, "lint", "--mcp-stdio", raw("pages"), "--mcp-timeout", "0")
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)


def test_the_fast_path_leaves_mcp_stdio_to_typer():
    from toolcontract import cli

    assert cli._plain_lint_arguments(["lint", "--mcp-stdio", "server"]) is None
    assert cli._plain_lint_arguments(["lint", str(GOOD_DIR), "--mcp-stdio", "server"]) is None
    assert cli._plain_lint_arguments(["lint", str(GOOD_DIR), "--mcp-timeout", "3"]) is None


# -------------------------------------------------------------- convert (CLI)


@needs_time
def test_convert_saves_a_servers_tool_list(runner, tmp_path):
    out = tmp_path / "time-tools.json"
    result = run(runner, "convert", "--mcp-stdio", TIME, "-o", out)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""  # saved as fetched: nothing to warn about
    text = out.read_text()
    saved = json.loads(text)
    assert [tool["name"] for tool in saved["tools"]] == ["get_current_time", "convert_time"]
    assert all("inputSchema" in tool and "annotations" in tool for tool in saved["tools"])
    assert text == json.dumps(saved, indent=2, ensure_ascii=False) + "\n"


def test_convert_keeps_what_no_reader_knows(runner, tmp_path):
    out = tmp_path / "odd.json"
    result = run(runner, "convert", "--mcp-stdio", raw("odd"), "-o", out)
    assert result.exit_code == 0, result.stderr
    assert json.loads(out.read_text())["tools"][1] == {"name": "list_schema", "inputSchema": {"type": "array"},
                                                      "x-vendor": {"keep": True}}


def test_convert_a_server_to_another_format(runner, tmp_path):
    out = tmp_path / "anthropic.json"
    result = run(runner, "convert", "--mcp-stdio", raw("pages"), "--to", "anthropic", "-o", out)
    assert result.exit_code == 0, result.stderr
    written = json.loads(out.read_text())
    assert [tool["name"] for tool in written] == ["page_tool_0", "page_tool_1", "page_tool_2"]


def test_convert_of_a_missing_command_is_exit_2(runner, tmp_path):
    out = tmp_path / "never.json"
    result = run(runner, "convert", "--mcp-stdio", "toolcontract-no-such-server", "-o", out)
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)
    assert result.stderr.startswith("mcp-stdio:toolcontract-no-such-server:1:1: cannot start server")
    assert not out.exists()


@needs_time
def test_live_positions_are_those_of_the_list_convert_saves(runner, tmp_path):
    """`lint --mcp-stdio` places findings in the exact tools/list JSON `convert --mcp-stdio -o FILE` writes."""
    out = tmp_path / "time-tools.json"
    assert run(runner, "convert", "--mcp-stdio", TIME, "-o", out).exit_code == 0
    live = json.loads(run(runner, "lint", "--mcp-stdio", TIME, "--format", "json", "--exit-zero").stdout)["findings"]
    saved = json.loads(run(runner, "lint", out, "--format", "json", "--exit-zero").stdout)["findings"]
    assert live, "the time server's tools give findings to compare"
    assert [(f["line"], f["column"], f["rule"], f["pointer"], f["tool"]) for f in live] == \
        [(f["line"], f["column"], f["rule"], f["pointer"], f["tool"]) for f in saved]


# ------------------------------------------------- hostile servers (issue 14)

LIMIT_BYTES = 1 << 30  # the CLI's address space: what a server sends must not make us hold it all
MAX_BYTES = 5 * 1024 * 1024  # toolcontract.io.document.DEFAULT_LIMITS.max_bytes
# C0 and C1 controls (but the newline that ends the line), bidi and other invisible format characters
CONTROL = [chr(c) for c in [*range(0x20), 0x7F, *range(0x80, 0xA0)] if chr(c) != "\n"] + \
    [chr(c) for c in [0x061C, *range(0x200B, 0x2010), *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0xFEFF]]


def _limited() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_BYTES, LIMIT_BYTES))


def run_limited(*args, tmp_path: Path, timeout: float = 120):
    """The real command line under a 1 GiB address-space limit: (returncode, stdout, stderr,
    wall seconds, peak resident KiB of the CLI process and what it waited for)."""
    out, err = tmp_path / "cli.out", tmp_path / "cli.err"
    with open(out, "wb") as stdout, open(err, "wb") as stderr:
        started = time.monotonic()
        process = subprocess.Popen([PYTHON, "-m", "toolcontract", *map(str, args)], stdin=subprocess.DEVNULL,
                                   stdout=stdout, stderr=stderr, preexec_fn=_limited)
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            if process.returncode is None and _alive(process.pid):
                process.kill()
        elapsed = time.monotonic() - started
    code = os.waitstatus_to_exitcode(status)
    return code, out.read_text(errors="replace"), err.read_text(errors="replace"), elapsed, usage.ru_maxrss


def _assert_gone(pid_file: Path) -> None:
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 0.5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not _alive(pid), f"the server (pid {pid}) is still running"


def _assert_inert(stderr: str) -> None:
    assert_one_line_error(stderr)
    found = sorted({f"U+{ord(c):04X}" for c in stderr if c in CONTROL})
    assert not found, f"control characters on stderr: {found}: {stderr!r}"


def test_an_endless_line_is_cut_off_at_the_message_cap(tmp_path):
    """A server writing megabytes without a newline: stopped as the 5 MiB cap is passed, not
    at the timeout, holding no more than the cap, its process group ended."""
    pid_file = tmp_path / "server.pid"
    server = raw("endless", pid_file)
    code, stdout, stderr, elapsed, peak_kib = run_limited("lint", "--mcp-stdio", server, "--mcp-timeout", "30",
                                                          tmp_path=tmp_path)
    assert code == 2, stderr
    _assert_inert(stderr)
    assert stdout == ""
    prefix = f"mcp-stdio:{server}:1:1: a message from the server is over the {MAX_BYTES:,}-byte limit ("
    assert stderr.startswith(prefix), stderr
    received = int(stderr[len(prefix):].split(" bytes")[0].replace(",", ""))
    assert MAX_BYTES < received <= MAX_BYTES + 64 * 1024 + 1024  # one read past the cap, at most
    assert elapsed < 25, f"took {elapsed:.1f} s: the cap, not the timeout, should stop it"
    assert peak_kib < 400 * 1024, f"peak resident size {peak_kib} KiB"
    _assert_gone(pid_file)


def test_many_pages_each_under_the_cap_are_stopped_by_the_total_cap(tmp_path):
    pid_file = tmp_path / "server.pid"
    server = raw("bigpages", pid_file)
    code, stdout, stderr, elapsed, peak_kib = run_limited("lint", "--mcp-stdio", server, "--mcp-timeout", "30",
                                                          tmp_path=tmp_path)
    assert code == 2, stderr
    _assert_inert(stderr)
    prefix = f"mcp-stdio:{server}:1:1: the server sent more than the {MAX_BYTES:,}-byte limit for a whole tool list ("
    assert stderr.startswith(prefix), stderr
    assert stderr.rstrip().endswith(" bytes received by page 2 of tools/list); stopped"), stderr
    assert elapsed < 25, f"took {elapsed:.1f} s: the cap, not the timeout, should stop it"
    assert peak_kib < 400 * 1024, f"peak resident size {peak_kib} KiB"
    _assert_gone(pid_file)


def test_the_page_count_cap_holds_in_the_budget():
    from toolcontract.io.mcp_live import Budget, McpFetchError

    budget = Budget("label", 10, max_pages=2)
    budget.pages = 1
    budget.next_page()
    with pytest.raises(McpFetchError, match="still had a nextCursor after 2 pages; stopped"):
        budget.next_page()
    assert budget.exhausted


def test_a_server_that_ignores_sigterm_and_never_answers_costs_the_timeout_and_little_more(tmp_path):
    """`--mcp-timeout` is the whole wall time of the command, shutdown included: the SDK's own
    2 s + 2 s of shutdown waits after the deadline are gone, and so is the server."""
    pid_file = tmp_path / "server.pid"
    server = raw("hang", pid_file)
    code, stdout, stderr, elapsed, _ = run_limited("lint", "--mcp-stdio", server, "--mcp-timeout", "2",
                                                   tmp_path=tmp_path)
    assert code == 2, stderr
    _assert_inert(stderr)
    assert stderr.strip() == f"mcp-stdio:{server}:1:1: server did not answer within 2s to initialize " \
                             "(server wrote nothing to stderr)"
    assert elapsed <= 2 + 1.5, f"took {elapsed:.2f} s for a 2 s timeout"
    _assert_gone(pid_file)


def test_a_server_that_lists_and_then_will_not_exit_is_killed_within_the_timeout(tmp_path):
    """It answered: the fetch succeeds, and the server is still ended (SIGTERM ignored, then SIGKILL)
    within the timeout plus a second."""
    import mcp.client.session  # noqa: F401 - loaded before the clock starts: the 2 s are the server's

    from toolcontract.io.mcp_live import fetch_tools

    pid_file = tmp_path / "server.pid"
    started = time.monotonic()
    live = fetch_tools(raw("stubborn", pid_file), timeout=2)
    elapsed = time.monotonic() - started
    assert [tool["name"] for tool in live.tools] == ["page_tool_0", "page_tool_1", "page_tool_2"]
    assert elapsed <= 2 + 1, f"took {elapsed:.2f} s for a 2 s timeout"
    _assert_gone(pid_file)


def test_lint_of_a_stubborn_server_succeeds_and_leaves_nothing_running(tmp_path):
    pid_file = tmp_path / "server.pid"
    code, stdout, stderr, elapsed, _ = run_limited("lint", "--mcp-stdio", raw("stubborn", pid_file),
                                                   "--mcp-timeout", "10", "--format", "json", tmp_path=tmp_path)
    assert code in (0, 1), stderr
    assert json.loads(stdout)["summary"]["tools"] == 3
    assert elapsed <= 10 + 1.5
    _assert_gone(pid_file)


@pytest.mark.parametrize("subcommand", ["lint", "convert", "lock"])
@pytest.mark.parametrize("seconds", ["inf", "nan", "1e999", "-inf", "0", "-1"])
def test_mcp_timeout_must_be_finite_and_positive_everywhere(runner, tmp_path, subcommand, seconds):
    extra = ["--lock-file", tmp_path / "toolcontract.lock"] if subcommand == "lock" else []
    result = run(runner, subcommand, "--mcp-stdio", raw("pages"), "--mcp-timeout", seconds, *extra)
    assert result.exit_code == 2, result.output
    assert_one_line_error(result.stderr)
    assert "--mcp-timeout" in result.stderr
    assert not (tmp_path / "toolcontract.lock").exists()


@pytest.mark.parametrize("seconds", [float("inf"), float("nan"), 0, -1.0])
def test_fetch_refuses_a_timeout_that_is_not_finite_and_positive(seconds):
    from toolcontract.io.mcp_live import McpFetchError, fetch_tools

    with pytest.raises(McpFetchError, match="the timeout must be a finite, positive number of seconds"):
        fetch_tools(raw("pages"), timeout=seconds)


ESCAPES = "\x1b]52;c;cm0gLXJmIH4K\x07\x1b]0;owned\x07\x1b[2J\x1b[H\u202eevil\u202c\x9b31m"  # raw_server.ESCAPES
ESCAPED = r"\x1b]52;c;cm0gLXJmIH4K\x07\x1b]0;owned\x07\x1b[2J\x1b[H\u202eevil\u202c\x9b31m"


def test_what_the_server_says_reaches_the_terminal_as_inert_text(tmp_path):
    """Its stderr and its JSON-RPC error message, quoted in the one line, carry no control sequence
    (OSC 52 would set the clipboard, OSC 0 the title; CSI 2J clears the screen; U+202E reverses text)."""
    pid_file = tmp_path / "server.pid"
    server = raw("escapes", pid_file)
    code, stdout, stderr, _, _ = run_limited("lint", "--mcp-stdio", server, "--mcp-timeout", "20", tmp_path=tmp_path)
    assert code == 2, stderr
    _assert_inert(stderr)
    assert stderr.strip() == (f"mcp-stdio:{server}:1:1: tools/list failed: error -32000: no tools {ESCAPED} today: "
                              f"starting {ESCAPED} up | listing {ESCAPED} tools")
    _assert_gone(pid_file)


def test_convert_quotes_the_server_as_inert_text_too(runner, tmp_path):
    result = run(runner, "convert", "--mcp-stdio", raw("escapes"), "-o", tmp_path / "never.json")
    assert result.exit_code == 2
    _assert_inert(result.stderr)
    assert f"no tools {ESCAPED} today" in result.stderr


def test_the_fetch_error_itself_is_escaped():
    from toolcontract.io.mcp_live import McpFetchError, fetch_tools

    with pytest.raises(McpFetchError) as caught:
        fetch_tools(raw("escapes"), timeout=20)
    assert ESCAPES not in str(caught.value) and ESCAPED in str(caught.value)
    assert not any(c in CONTROL for c in caught.value.line)


def test_a_stdout_line_that_is_not_json_rpc_is_named_when_stderr_is_silent():
    from toolcontract.io.mcp_live import McpFetchError, fetch_tools

    code = "import sys, time; print('Listening on port 8080 \x1b[31m'); sys.stdout.flush(); time.sleep(60)"
    with pytest.raises(McpFetchError) as caught:
        fetch_tools(command(PYTHON, "-c", code), timeout=2)
    assert str(caught.value) == ("server did not answer within 2s to initialize: "
                                 r"stdout: not JSON-RPC: Listening on port 8080 \x1b[31m")
