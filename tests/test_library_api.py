"""The library API a harness uses, including the documented example (docs/assess.md, moved there from the
README in issue 17) run as written."""

from __future__ import annotations

import re
from pathlib import Path

import toolcontract
from conftest import REPO
from toolcontract.core.model import Outcome

ROOT = Path(__file__).resolve().parents[1]


def _readme_example() -> str:
    text = (ROOT / "docs" / "assess.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "docs/assess.md has a python example"
    return blocks[0]


def test_readme_library_example_runs_and_gets_a_success(monkeypatch, capsys):
    monkeypatch.chdir(REPO)  # the example loads a fixture by its path from the repository's root
    namespace: dict = {}
    exec(compile(_readme_example(), "docs/assess.md", "exec"), namespace)
    assert namespace["envelope"].outcome is Outcome.SUCCEEDED
    assert capsys.readouterr().out == 'succeeded {"status": "open"} False\n'


def test_every_exported_name_resolves():
    for name in toolcontract.__all__:
        assert getattr(toolcontract, name) is not None, name


def test_assess_is_callable_even_after_the_subpackage_is_imported():
    import toolcontract.assessment.gates  # noqa: F401 - binds the subpackage as toolcontract.assessment (not toolcontract.assess)

    from toolcontract import Candidate, Case, Registry, assess

    envelope = assess(Case("c", Candidate("1", "nope", {})), Registry())
    assert envelope.outcome is Outcome.REJECTED and envelope.gate.value == "registry"


def test_the_assess_subpackage_and_its_names_stay_reachable_after_its_modules_load():
    import toolcontract.assessment.classify  # noqa: F401 - binds the submodule `classify` on the package first
    import toolcontract.assessment.envelope as envelope
    from toolcontract.assessment import Registry, classify, gates

    assert callable(classify) and gates.admit is toolcontract.admit
    case = toolcontract.Case("c", toolcontract.Candidate("1", "nope", {}))
    assert toolcontract.assess(case, Registry()) == envelope.assess(case, Registry())


def test_lint_files_leaves_the_collector_thresholds_alone(monkeypatch):
    import gc

    from toolcontract.lint import engine

    before = gc.get_threshold()
    seen = []
    real = engine._Plan.lint_chunk
    monkeypatch.setattr(engine._Plan, "lint_chunk", lambda self, files: seen.append(gc.get_threshold()) or real(self, files))
    engine.lint_text("toolcontract: 1\nname: weather_current\neffect: read\n")
    assert seen == [before] and gc.get_threshold() == before


def test_the_console_script_raises_the_collector_threshold_unless_switched_off():
    import os
    import subprocess
    import sys

    default = subprocess.run([sys.executable, "-c", "import gc; print(gc.get_threshold()[0])"], capture_output=True,
                             text=True, check=True).stdout.strip()
    code = "import gc; from toolcontract import cli; cli.main = lambda: print(gc.get_threshold()[0]); cli.entry()"
    for env, expected in (({}, "100000"), ({"TOOLCONTRACT_GC": "default"}, default)):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={**os.environ, **env}).stdout.strip()
        assert out == expected, env
