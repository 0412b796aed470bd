"""The real pre-commit (from PyPI) runs the README's own `.pre-commit-config.yaml` snippets in a
temporary git repository holding one good and one bad descriptor: the remote form, with `repo:`
pointed at a git copy of this checkout and `rev:` at that copy's commit (what a user's `rev:` is: a
commit SHA or a tag of this repository), and the `repo: local` form, with this environment's
`toolcontract` on PATH."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GOOD = ROOT / "fixtures" / "descriptors" / "good" / "unit_convert_length.yaml"
BAD = ROOT / "fixtures" / "descriptors" / "bad" / "TC101-name-format.yaml"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

GIT = ["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid", "-c", "commit.gpgsign=false"]


def _pre_commit() -> list[str]:
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        pytest.skip("pre-commit is not installed (it comes with the [test] extra)")
    return [sys.executable, "-m", "pre_commit"]


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run([*GIT, *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def readme_snippet(containing: str) -> str:
    """The README's ```yaml block that holds `containing`."""
    text = (ROOT / "README.md").read_text("utf-8")
    found = [b for b in re.findall(r"^```yaml\n(.*?)^```$", text, flags=re.M | re.S) if containing in b]
    assert len(found) == 1, f"the README has {len(found)} yaml blocks with {containing!r}"
    return found[0]


@pytest.fixture(scope="module")
def toolcontract_repo(tmp_path_factory) -> tuple[Path, str]:
    """A git repository with this checkout's files (tracked and untracked, not ignored) in one commit: the
    repository a user's `repo:` names, and the commit their `rev:` names."""
    copy = tmp_path_factory.mktemp("toolcontract-repo")
    names = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split("\0")
    for name in filter(None, names):
        source = ROOT / name
        if source.is_symlink() or source.is_file():  # toolcontract/schemas is a link to ../schemas
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name, follow_symlinks=False)
    _git(copy, "init", "-q")
    _git(copy, "add", "-A")
    _git(copy, "commit", "-q", "-m", "toolcontract")
    return copy, _git(copy, "rev-parse", "HEAD").strip()


@pytest.fixture(scope="module")
def pre_commit_env(tmp_path_factory) -> dict:
    env = dict(os.environ)
    env["PRE_COMMIT_HOME"] = str(tmp_path_factory.mktemp("pre-commit-home"))
    env.pop("PRE_COMMIT", None)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    return env


def _user_repo(path: Path, config: str) -> Path:
    path.mkdir()
    _git(path, "init", "-q")
    (path / "tools").mkdir()
    shutil.copy(GOOD, path / "tools" / "good.yaml")
    shutil.copy(BAD, path / "tools" / "bad.yaml")
    (path / "notes.yaml").write_text("not: a descriptor\n")  # outside the hooks' `files:`
    (path / ".pre-commit-config.yaml").write_text(config)
    _git(path, "add", ".")
    _git(path, "commit", "-q", "-m", "descriptors")
    return path


def _run(repo: Path, env: dict) -> subprocess.CompletedProcess:
    command = [*_pre_commit(), "run", "--verbose", "--files", "tools/good.yaml", "tools/bad.yaml", "notes.yaml"]
    return subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=900)


def _assert_lint_failed_on_bad_only(done: subprocess.CompletedProcess) -> None:
    assert done.returncode == 1, done.stdout + done.stderr
    assert "toolcontract lint" in done.stdout and "Failed" in done.stdout
    assert "tools/bad.yaml:4:7: error TC101" in done.stdout, done.stdout
    assert "1 error" in done.stdout  # bad.yaml's one finding, nothing from good.yaml
    assert "tools/good.yaml:" not in done.stdout
    assert "notes.yaml" not in done.stdout and "TC002" not in done.stdout


def test_the_readme_snippet_with_a_commit_as_rev(tmp_path, toolcontract_repo, pre_commit_env):
    """The README's snippet, its `repo:` and `rev:` replaced (pre-commit installs the hook's environment from
    the commit, about 25 s): the good descriptor passes, the bad one fails with its finding, notes.yaml, outside
    the hooks' `files:`, is never handed to a hook, and the assess hook has nothing to check."""
    copy, sha = toolcontract_repo
    snippet = readme_snippet("rev:")
    assert re.search(r"^\s+rev: [0-9a-f]{40}(\s+#.*)?$", snippet, flags=re.M), "the README's rev: is a full commit SHA"
    config, count = re.subn(r"(?m)^(\s*- repo: )\S+", lambda m: m.group(1) + str(copy), snippet)
    config, revs = re.subn(r"(?m)^(\s+rev: )\S+", lambda m: m.group(1) + sha, config)
    assert count == revs == 1
    done = _run(_user_repo(tmp_path / "user-repo", config), pre_commit_env)
    _assert_lint_failed_on_bad_only(done)
    assert re.search(r"toolcontract assess\.+\(no files to check\)Skipped", done.stdout), done.stdout


def test_the_readme_snippet_names_hooks_the_manifest_defines() -> None:
    import yaml

    defined = {hook["id"] for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    used = {hook["id"] for repo in yaml.safe_load(readme_snippet("rev:"))["repos"] for hook in repo["hooks"]}
    assert used == defined == {"toolcontract-lint", "toolcontract-assess"}


def test_the_readme_local_form(tmp_path, pre_commit_env):
    """`repo: local` as the README shows it: no clone, the toolcontract on PATH (this environment's)."""
    snippet = readme_snippet("repo: local")
    done = _run(_user_repo(tmp_path / "user-repo", snippet), pre_commit_env)
    _assert_lint_failed_on_bad_only(done)
