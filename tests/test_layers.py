"""The layers of DESIGN §5, as import-linter checks them ([tool.importlinter] in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

LINT_IMPORTS = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")


def _lint_imports(*args: str) -> subprocess.CompletedProcess:
    if LINT_IMPORTS is None:
        pytest.skip("import-linter is not installed (it is in the test extra: pip install -e '.[test]')")
    return subprocess.run([LINT_IMPORTS, "--no-cache", *args], capture_output=True, text=True, cwd=REPO, timeout=300)


def test_every_layer_contract_is_kept():
    done = _lint_imports()
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    import tomllib

    contracts = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"]["contracts"]
    assert f"Contracts: {len(contracts)} kept, 0 broken." in done.stdout


def test_a_broken_layer_fails_the_check(tmp_path):
    # the CLI does import the lint engine: a contract that forbids it must be reported broken
    config = tmp_path / "contracts.toml"
    config.write_text('[tool.importlinter]\nroot_package = "toolcontract"\n\n[[tool.importlinter.contracts]]\n'
                      'name = "cli without lint"\ntype = "forbidden"\nsource_modules = ["toolcontract.cli"]\n'
                      'forbidden_modules = ["toolcontract.lint"]\n')
    done = _lint_imports("--config", str(config))
    assert done.returncode == 1 and "cli without lint BROKEN" in done.stdout
