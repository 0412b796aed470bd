"""The GitHub Action (action.yml) and the pre-commit manifest, checked offline: action.yml against the
GitHub Actions schema that check-jsonschema vendors, .pre-commit-hooks.yaml with pre-commit's own
validator, and the action's lint step run as a runner would run it (its bash script, its env with the
inputs substituted, a GITHUB_OUTPUT file) on a copy of the demo fixtures."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
ACTION = ROOT / "action.yml"
BIN = Path(sys.executable).parent


def _check_jsonschema(*args: str) -> subprocess.CompletedProcess:
    exe = shutil.which("check-jsonschema", path=str(BIN)) or shutil.which("check-jsonschema")
    if exe is None:
        pytest.skip("check-jsonschema is not installed (it comes with the [test] extra)")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=120)


def test_action_yml_validates_against_the_vendored_github_actions_schema() -> None:
    done = _check_jsonschema("--builtin-schema", "vendor.github-actions", str(ACTION))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok -- validation done" in done.stdout


def test_the_schema_check_fails_on_a_broken_action(tmp_path: Path) -> None:
    """The check above can fail: the same file with a composite step that has `run` but no `shell`."""
    action = yaml.safe_load(ACTION.read_text())
    step = next(s for s in action["runs"]["steps"] if "run" in s)
    del step["shell"]
    broken = tmp_path / "action.yml"
    broken.write_text(yaml.safe_dump(action, sort_keys=False))
    done = _check_jsonschema("--builtin-schema", "vendor.github-actions", str(broken))
    assert done.returncode == 1, done.stdout + done.stderr


def test_action_is_composite_installs_from_its_checkout_and_uploads_with_the_toolcontract_category() -> None:
    action = yaml.safe_load(ACTION.read_text())
    assert action["runs"]["using"] == "composite"
    assert set(action["inputs"]) >= {"paths", "args", "version", "python-version", "sarif"}
    steps = action["runs"]["steps"]
    install = next(s for s in steps if s.get("name") == "Install toolcontract")
    assert install["env"]["ACTION_PATH"] == "${{ github.action_path }}"
    assert 'pip install --disable-pip-version-check -q "$ACTION_PATH"' in install["run"]
    upload = next(s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif@"))
    assert upload["with"]["category"] == "toolcontract"


def test_pre_commit_hooks_manifest_is_valid() -> None:
    """check-jsonschema ships no pre-commit schema (`check-jsonschema --help` lists its builtins), so the
    manifest is checked by pre-commit itself."""
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        pytest.skip("pre-commit is not installed (it comes with the [test] extra)")
    done = subprocess.run([sys.executable, "-m", "pre_commit", "validate-manifest", str(ROOT / ".pre-commit-hooks.yaml")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def _expand(value: str, inputs: dict[str, str]) -> str:
    """The two expressions the action's env uses: `${{ inputs.NAME }}` and `${{ github.action_path }}`."""
    def one(match: re.Match) -> str:
        expr = match.group(1).strip()
        if expr.startswith("inputs."):
            return inputs[expr[len("inputs."):]]
        assert expr == "github.action_path", expr
        return str(ROOT)
    return re.sub(r"\$\{\{(.*?)\}\}", one, str(value))


def _run_lint_step(tmp_path: Path, **given: str) -> tuple[subprocess.CompletedProcess, dict[str, str]]:
    action = yaml.safe_load(ACTION.read_text())
    inputs = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()} | given
    step = next(s for s in action["runs"]["steps"] if s.get("id") == "lint")
    assert step["shell"] == "bash" and "${{" not in step["run"]  # inputs reach the script only through env
    outputs = tmp_path / "github_output"
    outputs.write_text("")
    env = {**os.environ, **{k: _expand(v, inputs) for k, v in step["env"].items()},
           "GITHUB_OUTPUT": str(outputs), "GITHUB_ACTIONS": "true", "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    work = tmp_path / "work"
    shutil.copytree(ROOT / "fixtures" / "demo", work / "fixtures" / "demo")
    cwd = work / _expand(step["working-directory"], inputs)
    done = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    values = dict(line.split("=", 1) for line in outputs.read_text().splitlines())
    return done, values


def test_the_lint_step_writes_sarif_annotates_and_reports_the_exit_code(tmp_path: Path) -> None:
    done, outputs = _run_lint_step(tmp_path, paths="fixtures/demo", args="--no-cache")
    assert done.returncode == 0, done.stderr  # the step itself passes; `Fail on findings` fails the job later
    assert outputs == {"sarif-file": "toolcontract.sarif", "exit-code": "1"}
    assert "::error file=fixtures/demo/notes-server.json,line=11,col=29" in done.stdout
    assert "::warning file=fixtures/demo/shipment_track.yaml,line=10,col=3" in done.stdout
    sarif = json.loads((tmp_path / "work" / "toolcontract.sarif").read_text())
    assert sarif["version"] == "2.1.0"
    assert {r["ruleId"] for r in sarif["runs"][0]["results"]} >= {"TC401", "TC403", "TC603"}


def test_the_lint_step_without_sarif_and_with_args(tmp_path: Path) -> None:
    done, outputs = _run_lint_step(tmp_path, paths="fixtures/demo/shipment_track.yaml", args="--select TC4 --no-cache",
                                   sarif="false")
    assert outputs == {"exit-code": "0"}  # the TC403 warning is below the default --fail-on error
    assert done.stdout.startswith("::warning file=fixtures/demo/shipment_track.yaml,line=10,col=3")
    assert not (tmp_path / "work" / "toolcontract.sarif").exists()


def test_the_lint_step_passes_on_bad_input_exit_2(tmp_path: Path) -> None:
    done, outputs = _run_lint_step(tmp_path, paths="no/such/folder", args="--no-cache")
    assert outputs.get("exit-code") == "2"
    assert done.returncode == 2
    assert "no/such/folder" in done.stderr
