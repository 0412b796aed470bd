"""The real pre-commit (from PyPI) runs our hooks with `try-repo` on this checkout,
inside a temporary git repository holding one good and one bad descriptor."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GOOD = ROOT / "fixtures" / "descriptors" / "good" / "unit_convert_length.yaml"
BAD = ROOT / "fixtures" / "descriptors" / "bad" / "TC101-name-format.yaml"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _pre_commit() -> list[str]:
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        pytest.skip("pre-commit is not installed (it comes with the [test] extra)")
    return [sys.executable, "-m", "pre_commit"]


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture(scope="module")
def user_repo(tmp_path_factory) -> Path:
    repo = tmp_path_factory.mktemp("user-repo")
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "test@example.invalid")
    _git(repo, "config", "user.name", "test")
    (repo / "tools").mkdir()
    shutil.copy(GOOD, repo / "tools" / "good.yaml")
    shutil.copy(BAD, repo / "tools" / "bad.yaml")
    (repo / "notes.yaml").write_text("not: a descriptor\n")  # outside the hook's `files:`
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "descriptors")
    return repo


@pytest.fixture(scope="module")
def pre_commit_env(tmp_path_factory) -> dict:
    env = dict(os.environ)
    env["PRE_COMMIT_HOME"] = str(tmp_path_factory.mktemp("pre-commit-home"))
    env.pop("PRE_COMMIT", None)
    return env


def _try_repo(repo: Path, env: dict, *files: str) -> subprocess.CompletedProcess:
    command = [*_pre_commit(), "try-repo", str(ROOT), "toolcontract-lint", "--verbose", "--files", *files]
    return subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=900)


def test_pre_commit_runs_the_hook_on_descriptors_only_and_fails_on_the_finding(user_repo, pre_commit_env):
    """One `try-repo` (it installs the hook's environment afresh each time, about 25 s): the good descriptor
    passes, the bad one fails with its finding, and notes.yaml, outside the hook's `files:`, is never handed to
    the hook (named outright, `toolcontract lint` would report it as TC002 with its path)."""
    done = _try_repo(user_repo, pre_commit_env, "tools/good.yaml", "tools/bad.yaml", "notes.yaml")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "toolcontract lint" in done.stdout and "Failed" in done.stdout
    assert "tools/bad.yaml:4:7: error TC101" in done.stdout
    assert "1 error" in done.stdout  # bad.yaml's one finding, nothing from good.yaml
    assert "tools/good.yaml:" not in done.stdout
    assert "notes.yaml" not in done.stdout and "TC002" not in done.stdout
