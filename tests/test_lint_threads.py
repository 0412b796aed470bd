"""Two lint runs at once in one process (an editor server, a test runner) find what each finds
alone: what rules share of a tool lives in the run's per-tool context (toolcontract.lint.context),
never in module-level memos keyed on object identity."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from conftest import REPO, corpus_dir
from toolcontract.lint.engine import Selection, lint_files
from toolcontract.core.rule import SURFACES

ROUNDS = 6


def _files(*folders: Path) -> list[tuple[str, bytes]]:
    return [(str(p.relative_to(folder.parent)), p.read_bytes()) for folder in folders
            for p in sorted(folder.rglob("*")) if p.is_file() and p.suffix in (".yaml", ".yml", ".json")]


def _lint_together(files: list[tuple[str, bytes]], selections: tuple[Selection, Selection]) -> None:
    expected = [lint_files(files, selection).findings for selection in selections]
    assert all(expected), "the files give findings: a mix-up between runs would show"
    start = threading.Barrier(2)
    got: list[list] = [[], []]
    failures: list[BaseException] = []

    def run(n: int) -> None:
        try:
            start.wait()
            for _ in range(ROUNDS):
                got[n].append(lint_files(files, selections[n]).findings)
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            failures.append(error)

    threads = [threading.Thread(target=run, args=(n,)) for n in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures
    for n in (0, 1):
        assert len(got[n]) == ROUNDS
        for findings in got[n]:
            assert findings == expected[n]


def test_two_threads_linting_the_fixtures_get_the_serial_findings():
    files = _files(REPO / "fixtures" / "descriptors", REPO / "fixtures" / "providers")
    every_target = Selection(targets=SURFACES)
    _lint_together(files, (every_target, every_target))


def test_two_threads_linting_poisoned_tools_get_the_serial_findings():
    folder = corpus_dir() / "poisoned"
    if not folder.is_dir():
        pytest.skip(f"the shared corpus's poisoned tools are not here ({folder})")
    files = _files(folder) + _files(REPO / "fixtures" / "descriptors")
    # one run with every rule, the other only the security rules: the scans must not be shared
    _lint_together(files, (Selection(targets=SURFACES), Selection(select=("TC6",))))


def test_each_run_reads_against_its_own_budget(monkeypatch):
    """A file's scan budget (TC609) counts the strings the run reads for the first time: a run
    that another run's reading made cheaper would stop elsewhere."""
    from toolcontract.security import scan

    monkeypatch.setattr(scan, "MAX_CHARACTERS", 400)
    files = _files(REPO / "fixtures" / "descriptors", REPO / "tests" / "hostile")
    security = Selection(select=("TC6",))
    assert any(f.rule == "TC609" for f in lint_files(files, security).findings)
    _lint_together(files, (security, Selection(targets=SURFACES)))


def test_a_context_is_the_runs_own():
    """Each run gives its tools new contexts, dropped when their file is done."""
    files = _files(REPO / "fixtures" / "descriptors")
    first, second = lint_files(files), lint_files(files)
    assert first.findings == second.findings
    assert all(tool.context is None for tool in first.tool_views + second.tool_views)
