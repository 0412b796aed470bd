"""The console script (`toolcontract.cli.entry`): its output is complete, its exit codes those
of `main()`, and a reader that stops early causes no traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import BAD_DIR, GOOD_DIR
from toolcontract import cli

BAD = str(BAD_DIR)
GOOD = str(GOOD_DIR)


def _in_process(argv: list[str], capsys, monkeypatch) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["toolcontract", *argv])
    with pytest.raises(SystemExit) as exit_info:
        cli.main()
    captured = capsys.readouterr()
    return exit_info.value.code, captured.out, captured.err


def _script(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "toolcontract", *argv], capture_output=True, text=True, **kwargs)


@pytest.mark.parametrize("argv", [
    ["lint", BAD, "--format", "json"],  # findings: exit 1, a large block-buffered output
    ["lint", GOOD, "--format", "text"],  # clean: exit 0
    ["lint", "/no/such/path", "--format", "text"],  # exit 2, one line on stderr
    ["lint", BAD, "--format", "text", "--jobs", "2"],  # children of the process pool
    ["assess", str(GOOD_DIR.parents[1] / "invocations"), "--format", "json"],
], ids=["findings", "clean", "missing-path", "jobs", "assess"])
def test_the_script_prints_and_exits_as_main_does(argv, capsys, monkeypatch):
    code, out, err = _in_process(argv, capsys, monkeypatch)
    done = _script(argv)
    assert (done.returncode, done.stdout, done.stderr) == (code, out, err)


def test_output_to_a_file_is_complete(tmp_path):
    expected = _script(["lint", BAD, "--format", "json"]).stdout
    target = tmp_path / "out.json"
    with target.open("w") as out:
        done = subprocess.run([sys.executable, "-m", "toolcontract", "lint", BAD, "--format", "json"], stdout=out)
    assert done.returncode == 1
    assert target.read_text() == expected and expected.rstrip().endswith("}")


def test_typer_commands_keep_their_exit_codes():
    assert _script(["rules"]).returncode == 0
    bad_flag = _script(["lint", GOOD, "--no-such-flag"])
    assert bad_flag.returncode == 2 and "Traceback" not in bad_flag.stderr


def test_a_reader_that_stops_early_causes_no_traceback(tmp_path):
    # more than a pipe's buffer (64 KiB), so that writing really fails: 600 findings
    big = tmp_path / "tools.json"
    big.write_text(json.dumps({"tools": [{"name": f"tool {i}", "inputSchema": {"type": "object"}} for i in range(300)]}))
    assert len(_script(["lint", str(big), "--format", "json"]).stdout) > 2 * 65536
    process = subprocess.Popen([sys.executable, "-m", "toolcontract", "lint", str(big), "--format", "json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()  # as `| head -1` does
    err = process.stderr.read().decode()
    process.wait(timeout=60)
    assert "Traceback" not in err and "Exception ignored" not in err
