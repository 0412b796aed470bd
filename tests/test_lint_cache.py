"""The lint cache (toolcontract.io.cache): warm runs say byte for byte what cold runs say.

Every test compares against a run without the cache: after a file changes, after the configuration
changes (severity, select, target), after the rule set or the version changes, with a corrupted,
truncated or foreign cache file, with a cache that cannot be written, with several runs at once.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import BAD_DIR, GOOD_DIR, REPO, lint_outputs
from toolcontract.io import cache as cache_module
from toolcontract.io.cache import CACHE_DIR_NAME, LintCache, cache_directory
from toolcontract.io.config import Config, load_config
from toolcontract.lint.engine import Selection, lint_files
from toolcontract.core.model import Severity

from toolcontract.io.document import DEFAULT_LIMITS
from toolcontract.io.overlay import pair_overlays

PROVIDERS = REPO / "fixtures" / "providers"
TWIN = "toolcontract: 1\nname: twin_tool\nversion: 1.0.0\neffect: read\ndescription: Read one twin.\n"


def _inputs(*folders: Path) -> list[tuple[str, bytes]]:
    files = []
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".yaml", ".yml", ".json") and path.is_file():
                files.append((os.path.relpath(path, REPO), path.read_bytes()))
    return files


def _fixture_inputs():
    """The fixtures, good and bad, with the providers and their overlays: every rule family, TC000,
    TC001, TC002, TC104 across files, suppressions and TC009."""
    return pair_overlays(_inputs(GOOD_DIR, BAD_DIR, PROVIDERS), DEFAULT_LIMITS)


_outputs = lint_outputs  # the result in every lint format


def _lint(files, overlays=None, selection=Selection(), cache=None, jobs=1):
    return lint_files(files, selection, DEFAULT_LIMITS, overlays=overlays, cache=cache, jobs=jobs)


def _cached(directory, files, overlays=None, selection=Selection(), jobs=1):
    """(result, cache) of a run with the cache in `directory`."""
    cache = LintCache(str(directory))
    return _lint(files, overlays, selection, cache, jobs), cache


def _cache_files(directory: Path) -> list[Path]:
    return [p for p in directory.rglob("*") if p.is_file() and p.name not in (".gitignore", "CACHEDIR.TAG")]


def test_warm_and_cold_runs_print_the_same_in_every_format(tmp_path):
    files, overlays = _fixture_inputs()
    selection = Selection(targets=("openai", "anthropic-strict", "gemini"))
    plain = _lint(files, overlays, selection)
    assert {f.rule for f in plain.findings} >= {"TC000", "TC001", "TC002", "TC009", "TC104", "TC403", "TC501"}
    cold, first = _cached(tmp_path, files, overlays, selection)
    warm, second = _cached(tmp_path, files, overlays, selection)
    assert (first.hits, first.misses) == (0, len(files))
    assert second.misses <= 2 and second.hits == len(files) - second.misses  # unreadable inputs are never cached
    expected = _outputs(plain)
    assert _outputs(cold) == expected
    assert _outputs(warm) == expected
    assert warm.findings == plain.findings and (warm.files, warm.tools) == (plain.files, plain.tools)


def test_the_cache_folder_is_marked_for_git_and_backups(tmp_path):
    files, overlays = _fixture_inputs()
    _cached(tmp_path / "c", files, overlays)
    assert (tmp_path / "c" / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (tmp_path / "c" / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    import toolcontract

    assert [p.parent.name for p in _cache_files(tmp_path / "c")] == [toolcontract.__version__]


def test_a_changed_file_is_linted_again_and_set_rules_see_it_with_the_cached_ones(tmp_path):
    folder = tmp_path / "d"
    folder.mkdir()
    for i in range(6):
        (folder / f"t{i}.yaml").write_text(TWIN.replace("twin_tool", f"tool_{i}"))
    (folder / "t0.yaml").write_text(TWIN)
    files = lambda: [(str(p), p.read_bytes()) for p in sorted(folder.iterdir())]  # noqa: E731
    _cached(tmp_path / "c", files())
    assert not any(f.rule == "TC104" for f in _lint(files()).findings)
    (folder / "t5.yaml").write_text("# moved down\n" + TWIN)  # now two tools are called twin_tool
    warm, cache = _cached(tmp_path / "c", files())
    assert (cache.hits, cache.misses) == (5, 1)
    assert warm.findings == _lint(files()).findings
    assert [(Path(f.path).name, f.line, f.column) for f in warm.findings if f.rule == "TC104"] == [
        ("t0.yaml", 2, 7), ("t5.yaml", 3, 7)]
    assert _outputs(warm) == _outputs(_lint(files()))


@pytest.mark.parametrize("changed", [
    Selection(severity={"TC4": Severity.ERROR}),
    Selection(select=("TC1", "TC4")),
    Selection(ignore=("TC403",)),
    Selection(targets=("gemini",)),
    Selection(contracts_required=True),
    Selection(options={"max-toolset-tokens": 50}),
])
def test_a_configuration_change_is_a_miss_and_the_old_configuration_still_hits(tmp_path, changed):
    files, overlays = _fixture_inputs()
    _cached(tmp_path, files, overlays)
    after, cache = _cached(tmp_path, files, overlays, changed)
    assert cache.hits == 0
    assert _outputs(after) == _outputs(_lint(files, overlays, changed))
    assert _outputs(after) != _outputs(_lint(files, overlays))
    again, cache = _cached(tmp_path, files, overlays)
    assert cache.misses <= 2 and _outputs(again) == _outputs(_lint(files, overlays))


def test_per_file_ignores_apply_after_the_cache(tmp_path):
    files, overlays = _fixture_inputs()
    _cached(tmp_path, files, overlays)
    bad = next(path for path, _ in files if "bad" in path)
    selection = Selection(per_file_ignores={bad: ("TC",)})
    after, cache = _cached(tmp_path, files, overlays, selection)
    assert cache.misses <= 2
    assert after.findings == _lint(files, overlays, selection).findings
    assert not any(f.path == bad for f in after.findings if f.rule not in ("TC000", "TC002"))


def test_a_rule_set_change_is_a_miss(tmp_path, monkeypatch):
    """A rule taken out of the table (or added to it) is another rule set: nothing comes from the
    cache, and the findings are those of a cold run with that table. (A rule whose code changes,
    its severity say, is another code fingerprint: the next test.)"""
    files, overlays = _fixture_inputs()
    before, _ = _cached(tmp_path, files, overlays)
    assert any(f.rule == "TC403" for f in before.findings)
    import toolcontract.lint.rules as table

    monkeypatch.setattr(table, "RULES", {i: m for i, m in table.RULES.items() if i != "TC403"})
    after, cache = _cached(tmp_path, files, overlays)
    assert cache.hits == 0
    assert not any(f.rule == "TC403" for f in after.findings)
    assert _outputs(after) == _outputs(_lint(files, overlays))
    assert [f for f in before.findings if f.rule != "TC403"] == after.findings


def test_another_version_or_changed_code_is_a_miss(tmp_path, monkeypatch):
    import toolcontract

    files, overlays = _fixture_inputs()
    _cached(tmp_path, files, overlays)
    monkeypatch.setattr(toolcontract, "__version__", "99.0.0")
    _, cache = _cached(tmp_path, files, overlays)
    assert cache.hits == 0
    assert sorted(p.parent.name for p in _cache_files(tmp_path)) == sorted([toolcontract.__version__, "0.1.0"])
    monkeypatch.setattr(cache_module, "code_fingerprint", lambda: "an edited checkout")
    _, cache = _cached(tmp_path, files, overlays)
    assert cache.hits == 0


@pytest.mark.parametrize("damage", ["truncated", "flipped", "garbage", "empty", "foreign", "folder"])
def test_a_damaged_cache_file_is_a_miss_never_an_error(tmp_path, damage):
    files, overlays = _fixture_inputs()
    _cached(tmp_path, files, overlays)
    [stored] = _cache_files(tmp_path)
    data = stored.read_bytes()
    if damage == "truncated":
        stored.write_bytes(data[: len(data) // 2])
    elif damage == "flipped":
        stored.write_bytes(data[:-100] + bytes([data[-100] ^ 0x55]) + data[-99:])
    elif damage == "garbage":
        stored.write_bytes(os.urandom(len(data)))
    elif damage == "empty":
        stored.write_bytes(b"")
    elif damage == "foreign":
        stored.write_bytes(data.replace(b"toolcontract lint cache 1", b"toolcontract lint cache 0", 1))
    else:
        stored.unlink()
        stored.mkdir()  # a folder where the file was: not readable as a file, not replaceable
    after, cache = _cached(tmp_path, files, overlays)
    assert cache.hits == 0
    assert _outputs(after) == _outputs(_lint(files, overlays))
    if damage != "folder":  # written anew: the next run hits
        _, cache = _cached(tmp_path, files, overlays)
        assert cache.hits >= len(files) - 2


def test_an_entry_of_the_wrong_shape_with_a_valid_checksum_is_a_miss(tmp_path):
    import marshal

    files, overlays = _fixture_inputs()
    _, first = _cached(tmp_path, files, overlays)
    [stored] = _cache_files(tmp_path)
    data = stored.read_bytes()
    head_size = data.index(b"\n", len(b"toolcontract lint cache 1\n")) + 1
    entries = marshal.loads(data[head_size + 16:])
    entries = {name: (digest, seen, ("not", "a", "chunk")) for name, (digest, seen, _) in entries.items()}
    body = marshal.dumps(entries)
    stored.write_bytes(data[:head_size] + cache_module._checksum(body) + body)
    after, cache = _cached(tmp_path, files, overlays)
    assert cache.hits == 0
    assert after.findings == _lint(files, overlays).findings


@given(st.data())
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_damage_to_the_cache_file_gives_the_findings_of_a_run_without_it(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("cache")
    files = [(str(GOOD_DIR / name), (GOOD_DIR / name).read_bytes()) for name in sorted(os.listdir(GOOD_DIR))[:6]]
    files.append(("bad.yaml", TWIN.encode()))
    files.append(("twin.yaml", ("# toolcontract: ignore[TC104]\n" + TWIN).encode()))
    expected = _lint(files).findings
    _cached(folder, files)
    [stored] = _cache_files(folder)
    raw = bytearray(stored.read_bytes())
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(raw) - 1))
        raw[at] = data.draw(st.integers(0, 255))
    cut = data.draw(st.one_of(st.none(), st.integers(0, len(raw))))
    stored.write_bytes(bytes(raw[:cut] if cut is not None else raw))
    assert _cached(folder, files)[0].findings == expected
    assert _cached(folder, files)[0].findings == expected


def test_a_cache_that_cannot_be_written_leaves_the_run_as_it_is(tmp_path):
    files, overlays = _fixture_inputs()
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    after, cache = _cached(blocker / "cache", files, overlays)  # makedirs fails: NotADirectoryError
    assert cache.hits == 0 and _outputs(after) == _outputs(_lint(files, overlays))
    # a read-only cache folder: read, never written (as root the mode does not stop writes; the run works either way)
    folder = tmp_path / "ro"
    _cached(folder, files, overlays)
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        changed = [(path, content + b"\n") if i == 0 else (path, content) for i, (path, content) in enumerate(files)]
        after, cache = _cached(folder, changed, overlays)
        assert cache.hits >= len(files) - 3
        assert _outputs(after) == _outputs(_lint(changed, overlays))
    finally:
        for path in [folder, *folder.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)


def test_processes_and_the_cache_together_give_the_serial_findings(tmp_path):
    files, overlays = _fixture_inputs()
    plain = _lint(files, overlays)
    cold, _ = _cached(tmp_path, files, overlays, jobs=2)
    warm, cache = _cached(tmp_path, files, overlays, jobs=2)
    assert cache.hits >= len(files) - 2
    assert _outputs(cold) == _outputs(warm) == _outputs(plain)


def test_stdin_and_paths_named_twice_are_not_cached(tmp_path):
    cache = LintCache(str(tmp_path), skip=frozenset(("<stdin>",)))
    files = [("<stdin>", TWIN.encode()), ("x.yaml", TWIN.encode()), ("x.yaml", TWIN.encode())]
    result = _lint(files, cache=cache)
    assert result.findings == _lint(files).findings
    assert _cache_files(tmp_path) == []
    cache = LintCache(str(tmp_path), skip=frozenset(("<stdin>",)))
    _lint(files, cache=cache)
    assert cache.hits == 0


def test_the_cache_folder_comes_from_the_environment_the_configuration_or_the_project_root(tmp_path):
    config_file = tmp_path / ".toolcontract.yaml"
    config_file.write_text("cache-dir: build/tc-cache\n")
    config = load_config(config_file)
    assert cache_directory(config, {}) == os.path.join(config.root, "build/tc-cache")
    assert cache_directory(config, {"TOOLCONTRACT_CACHE_DIR": "/elsewhere"}) == "/elsewhere"
    config_file.write_text("select: [TC1]\n")
    assert cache_directory(load_config(config_file), {}) == os.path.join(config.root, CACHE_DIR_NAME)
    assert cache_directory(Config(), {}) == os.path.join(os.getcwd(), CACHE_DIR_NAME)
    config_file.write_text("cache-dir: 3\n")
    with pytest.raises(Exception, match=r"\.toolcontract\.yaml:1:1: cache-dir: 3 is not of type"):
        load_config(config_file)


def _cli(*args, cwd, env=None):
    return subprocess.run([sys.executable, "-m", "toolcontract", "lint", *args], capture_output=True, text=True,
                          cwd=cwd, env={**os.environ, **(env or {})})


def test_cli_warm_cold_and_no_cache_runs_print_the_same(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / ".toolcontract.yaml").write_text("cache-dir: .cache/tc\nseverity: {TC403: error}\n")
    for source in sorted(BAD_DIR.iterdir())[:12]:
        (project / source.name).write_bytes(source.read_bytes())
    env = {"TOOLCONTRACT_CACHE_DIR": ""}
    assert _cli(".", "--no-cache", cwd=project, env=env).returncode == 1
    assert not (project / ".cache").exists()
    for fmt in ("text", "json", "sarif", "github", "junit"):
        uncached = _cli(".", "--format", fmt, "--no-cache", cwd=project, env=env)
        cold = _cli(".", "--format", fmt, cwd=project, env=env)
        warm = _cli(".", "--format", fmt, cwd=project, env=env)
        assert uncached.returncode == cold.returncode == warm.returncode == 1
        assert uncached.stderr == cold.stderr == warm.stderr == ""
        assert uncached.stdout == cold.stdout == warm.stdout
        assert (project / ".cache" / "tc" / "CACHEDIR.TAG").is_file()
    (project / ".toolcontract.yaml").write_text("cache-dir: .cache/tc\n")  # TC403 back to a warning
    assert _cli(".", "--format", "json", cwd=project, env=env).stdout == _cli(
        ".", "--format", "json", "--no-cache", cwd=project, env=env).stdout
    git = subprocess.run(["git", "status", "--porcelain", "--ignored", "--untracked-files=all"], cwd=project,
                         capture_output=True, text=True)
    if git.returncode == 0:  # inside some repository: the cache is ignored by its own .gitignore
        assert ".cache/tc/0" not in git.stdout


def test_cli_many_runs_at_once_leave_a_cache_that_still_gives_the_findings(tmp_path):
    files = sorted(BAD_DIR.iterdir())
    env = {"TOOLCONTRACT_CACHE_DIR": str(tmp_path / "shared")}
    expected = _cli(*map(str, files), "--format", "json", "--no-cache", cwd=tmp_path).stdout
    runs = [subprocess.Popen([sys.executable, "-m", "toolcontract", "lint", *map(str, files[i::2] if i < 2 else files),
                              "--format", "json"], cwd=tmp_path, env={**os.environ, **env},
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(4)]
    outputs = [run.communicate() for run in runs]
    assert all(err == "" for _, err in outputs)
    assert outputs[2][0] == outputs[3][0] == expected
    assert _cli(*map(str, files), "--format", "json", cwd=tmp_path, env=env).stdout == expected
    assert not [p for p in (tmp_path / "shared").rglob(".tmp-*")]  # no temporary file left behind


def test_cli_stdin_and_locked_runs_write_no_cache(tmp_path):
    env = {"TOOLCONTRACT_CACHE_DIR": str(tmp_path / "c")}
    done = subprocess.run([sys.executable, "-m", "toolcontract", "lint", "-", "--format", "text"], input=TWIN,
                          capture_output=True, text=True, cwd=tmp_path, env={**os.environ, **env})
    assert done.returncode in (0, 1) and done.stderr == ""
    assert not (tmp_path / "c").exists()
    (tmp_path / "t.yaml").write_text(TWIN)
    lock = subprocess.run([sys.executable, "-m", "toolcontract", "lock", "t.yaml"], capture_output=True, text=True,
                          cwd=tmp_path, env={**os.environ, **env})
    assert lock.returncode == 0, lock.stderr
    done = _cli("t.yaml", "--locked", cwd=tmp_path, env=env)
    assert done.returncode in (0, 1) and done.stderr == ""
    assert not (tmp_path / "c").exists()


def test_entries_of_files_gone_are_dropped_and_huge_lists_are_not_kept(tmp_path):
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "a.yaml").write_text(TWIN)
    (folder / "b.yaml").write_text(TWIN.replace("twin_tool", "other_tool"))
    many = "tools:\n" + "".join(f"  - name: tool_{i}\n    description: Tool {i}.\n" for i in range(2_001))
    (folder / "many.yaml").write_text(many)
    files = lambda: [(str(p), p.read_bytes()) for p in sorted(folder.iterdir())]  # noqa: E731
    _cached(tmp_path / "c", files())
    (folder / "a.yaml").unlink()
    (folder / "b.yaml").write_text(TWIN.replace("twin_tool", "third_tool"))  # a change: the file is written
    _cached(tmp_path / "c", files())
    import marshal

    [stored] = _cache_files(tmp_path / "c")
    data = stored.read_bytes()
    entries = marshal.loads(data[data.index(b"\n", len(b"toolcontract lint cache 1\n")) + 1 + 16:])
    assert sorted(Path(name).name for name in entries) == ["b.yaml"]
    after, cache = _cached(tmp_path / "c", files())
    assert (cache.hits, cache.misses) == (1, 1) and after.findings == _lint(files()).findings
