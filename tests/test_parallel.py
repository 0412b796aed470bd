"""`lint_files(jobs=N)` / `lint --jobs N`: the same findings as one process, whatever the split."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import BAD_DIR, GOOD_DIR, REPO, examples, lint_outputs
from toolcontract.lint import parallel
from toolcontract.lint.engine import Chunk, Selection, lint_files
from toolcontract.io.document import DEFAULT_LIMITS, LoadError, load_text
from toolcontract.io.overlay import pair_overlays

CORPUS_MCP = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "mcp"

pytestmark = pytest.mark.skipif(not parallel.can_fork(), reason="linting in processes needs fork (Linux, BSD)")


def _inputs(*folders: Path) -> list[tuple[str, bytes]]:
    files = []
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".yaml", ".yml", ".json") and path.is_file():
                files.append((str(path), path.read_bytes()))
    return files


def _same(files, selection=Selection(), overlays=None) -> list:
    serial = lint_files(files, selection, overlays=overlays, jobs=1)
    for jobs in (2, 3):
        split = lint_files(files, selection, overlays=overlays, jobs=jobs)
        assert split.findings == serial.findings
        assert (split.files, split.tools) == (serial.files, serial.tools)
        assert sorted(split.documents) == sorted(serial.documents)
        for path, document in split.documents.items():
            assert document.text == serial.documents[path].text
    return serial.findings


def test_fixtures_give_the_same_findings_in_one_or_several_processes():
    files = _inputs(GOOD_DIR, BAD_DIR, REPO / "fixtures" / "providers")
    assert len(files) > 60
    files, overlays = pair_overlays(files, DEFAULT_LIMITS)
    findings = _same(files, Selection(targets=("openai", "anthropic-strict", "gemini")), overlays)
    assert {f.rule for f in findings} >= {"TC000", "TC001", "TC002", "TC104", "TC403", "TC601"}


@pytest.mark.skipif(not CORPUS_MCP.is_dir(), reason="../shared/corpus/mcp is not here (the shared corpus is absent)")
def test_real_mcp_tool_lists_give_the_same_findings_in_several_processes():
    files = _inputs(CORPUS_MCP)
    assert len(files) >= 2
    assert _same(files)


def test_set_rules_see_the_tools_of_every_process():
    """TC104 pairs a name in the first file with the same name in the last, linted elsewhere."""
    body = "toolcontract: 1\nname: {name}\nversion: 1.0.0\neffect: read\n"
    files = [(f"t/{i:03}.yaml", body.format(name=f"tool_{i}").encode()) for i in range(60)]
    files[0] = ("t/000.yaml", ("# a comment\n\n" + body.format(name="twin")).encode())
    files[-1] = ("t/059.yaml", body.format(name="twin").encode())
    findings = _same(files, Selection(select=("TC104",)))
    assert [(f.path, f.line, f.column) for f in findings] == [("t/000.yaml", 4, 7), ("t/059.yaml", 2, 7)]
    assert "t/059.yaml:2" in findings[0].message and "t/000.yaml:4" in findings[1].message


def test_suppressions_and_unused_ones_are_judged_on_the_whole_run():
    body = "toolcontract: 1\nname: {name}  # toolcontract: ignore[TC104]\nversion: 1.0.0\neffect: read\n"
    files = [(f"s/{i:03}.yaml", body.format(name="twin" if i in (1, 58) else f"tool_{i}").encode())
             for i in range(60)]
    findings = _same(files, Selection(select=("TC104", "TC009")))
    assert {f.path for f in findings if f.rule == "TC009"} == {f"s/{i:03}.yaml" for i in range(60)} - {
        "s/001.yaml", "s/058.yaml"}


def test_unreadable_and_unparsable_files_are_findings_in_any_process():
    files = [(f"u/{i:03}.yaml", b"toolcontract: 1\nname: tool_%d\neffect: read\n" % i) for i in range(50)]
    files[10] = ("u/010.yaml", b"name: [unclosed\n")
    files[40] = ("u/040.yaml", LoadError("cannot read: permission denied", 1, 1))
    findings = _same(files, Selection(select=("TC000",)))
    assert [f.path for f in findings] == ["u/010.yaml", "u/040.yaml"]


def test_a_failing_worker_costs_time_not_findings(monkeypatch):
    """A child that fails (here: while packing its findings) is redone by the parent."""
    parent = os.getpid()
    real_pack = parallel._pack

    def pack_or_fail(*args):
        if os.getpid() != parent:
            raise RuntimeError("a worker that fails")
        return real_pack(*args)

    files = _inputs(BAD_DIR)
    serial = lint_files(files, jobs=1)
    monkeypatch.setattr(parallel, "_pack", pack_or_fail)
    assert lint_files(files, jobs=3).findings == serial.findings


def test_a_worker_that_dies_is_redone(monkeypatch):
    parent = os.getpid()
    real_pack = parallel._pack

    def pack_or_die(*args):
        if os.getpid() != parent:
            os._exit(3)
        return real_pack(*args)

    files = _inputs(BAD_DIR)
    serial = lint_files(files, jobs=1)
    monkeypatch.setattr(parallel, "_pack", pack_or_die)
    assert lint_files(files, jobs=2).findings == serial.findings


@given(st.lists(st.integers(0, 5000), max_size=40), st.integers(1, 9))
@pytest.mark.long
@settings(max_examples=examples(200), deadline=None)
def test_split_keeps_every_file_in_order_in_at_most_n_runs(sizes, parts):
    files = [(f"f{i}", b"x" * size) for i, size in enumerate(sizes)]
    runs = parallel._split(files, parts)
    assert [f for run in runs for f in run] == files
    assert len(runs) <= parts and all(runs)


def test_split_balances_bytes():
    files = [(f"f{i}", b"x" * 100) for i in range(100)]
    assert [len(run) for run in parallel._split(files, 2)] == [50, 50]


def test_auto_jobs_stay_in_one_process_for_a_few_files():
    assert parallel.default_jobs(parallel.MIN_FILES - 1) == 1
    assert parallel.default_jobs(10_000) >= 1


def test_light_document_places_pointers_as_the_loaded_document_does():
    text = "toolcontract: 1\nname: x\ninput_schema:\n  type: object\n  properties:\n    a: {type: string}\n"
    light = parallel.LightDocument("a.yaml", text)
    loaded = load_text(text, "a.yaml")
    for pointer in ("/name", "/input_schema", "/input_schema/properties/a/type", "/missing", ""):
        for anchor in ("auto", "key", "value"):
            assert light.locate(pointer, anchor) == loaded.locate(pointer, anchor), (pointer, anchor)
    assert light.line_text(2) == "name: x"


def test_texts_cross_the_pipe_only_when_the_parent_cannot_decode_them():
    files = [("a.yaml", b"toolcontract: 1\nname: a_tool\neffect: read\n"),
             ("b.yaml", b"\xef\xbb\xbftoolcontract: 1\nname: b_tool\neffect: read\n"),  # a BOM
             ("twice.yaml", b"toolcontract: 1\nname: t_one\neffect: read\n"),
             ("twice.yaml", b"toolcontract: 1\nname: t_two\neffect: read\n"),
             ("bad.yaml", LoadError("cannot read", 1, 1))]
    raw = parallel._known_bytes(files, {"c.yaml": ("c.overlay.yaml", b"x: 1\n")})
    assert sorted(raw) == ["a.yaml", "b.yaml", "c.overlay.yaml"]
    result = lint_files(files[:3], jobs=1)
    chunk = Chunk(result.findings, result.documents, result.tool_views, result.files)
    payload = parallel._pack(chunk, ("name",), raw)
    assert [(path, text) for path, text, _ in payload[1]] == [
        ("a.yaml", None), ("b.yaml", None), ("twice.yaml", chunk.documents["twice.yaml"].text)]
    back = parallel._unpack(payload, raw)
    assert {path: d.text for path, d in back.documents.items()} == {
        path: d.text for path, d in chunk.documents.items()}
    assert [view.name for view in back.views] == ["a_tool", "b_tool", "t_one"]


def test_cli_jobs_flag_gives_the_same_output(tmp_path):
    for i in range(60):
        (tmp_path / f"t{i:02}.yaml").write_text(
            f"toolcontract: 1\nname: {'twin' if i % 29 == 0 else f'tool_{i}'}\neffect: read\n")
    outputs = set()
    for jobs in ("1", "2", "0"):
        done = subprocess.run([sys.executable, "-m", "toolcontract", "lint", str(tmp_path), "--format", "json",
                               "--jobs", jobs], capture_output=True, text=True)
        assert done.returncode == 1 and done.stderr == ""
        outputs.add(done.stdout)
    assert len(outputs) == 1 and '"TC104"' in outputs.pop()


def test_cli_rejects_a_negative_job_count():
    done = subprocess.run([sys.executable, "-m", "toolcontract", "lint", str(GOOD_DIR), "--jobs", "-1"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_a_path_named_twice_is_never_decoded_by_the_parent_whatever_came_first():
    files = [("x.yaml", LoadError("cannot read", 1, 1)), ("x.yaml", b"a: 1\n"), ("y.yaml", b"b: 2\n")]
    assert parallel._known_bytes(files, None) == {"y.yaml": b"b: 2\n"}


def test_auto_jobs_use_a_pool_only_with_idle_cores(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.2, 0.2, 0.2))
    assert parallel.idle_cores() == 4
    assert parallel.default_jobs(10_000) == 4
    assert parallel.default_jobs(parallel.MIN_FILES - 1) == 1
    monkeypatch.setattr(os, "getloadavg", lambda: (2.9, 1.0, 1.0))  # three cores busy elsewhere: one is idle
    assert parallel.idle_cores() == 1 and parallel.default_jobs(10_000) == 1
    monkeypatch.setattr(os, "getloadavg", lambda: (9.0, 9.0, 9.0))
    assert parallel.idle_cores() == 1 and parallel.default_jobs(10_000) == 1


def test_each_file_is_its_own_chunk_in_file_order_whoever_linted_it():
    from toolcontract.lint.engine import _Plan

    files = _inputs(GOOD_DIR, BAD_DIR)
    plan = _Plan.of(Selection(), None, None, DEFAULT_LIMITS)
    whole = plan.lint_chunk(files)
    known = parallel._known_bytes(files, None)
    items = parallel.lint_each(files, plan, 3, known)
    assert len(items) == len(files)
    assert isinstance(items[0], Chunk) and any(isinstance(item, tuple) for item in items)
    chunks = [parallel._unpack(item, known) if isinstance(item, tuple) else item for item in items]
    assert [f for chunk in chunks for f in chunk.findings] == whole.findings
    assert [f for chunk in chunks for f in chunk.unread] == whole.unread
    assert sum(chunk.files for chunk in chunks) == whole.files
    assert [(v.document.path, v.pointer, v.name) for chunk in chunks for v in chunk.views] == [
        (v.document.path, v.pointer, v.name) for v in whole.views]


def test_every_format_prints_the_same_from_one_or_several_processes():
    files, overlays = pair_overlays(_inputs(GOOD_DIR, BAD_DIR, REPO / "fixtures" / "providers"), DEFAULT_LIMITS)
    selection = Selection(targets=("openai", "gemini"))

    shown = lint_outputs

    serial = shown(lint_files(files, selection, overlays=overlays, jobs=1))
    assert '"TC104"' in serial["json"] and "TC000" in serial["text"]
    for jobs in (2, 3):
        assert shown(lint_files(files, selection, overlays=overlays, jobs=jobs)) == serial
