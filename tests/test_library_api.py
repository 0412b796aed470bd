"""The library API a harness uses, including the README's example run as written."""

from __future__ import annotations

import re
from pathlib import Path

import toolcontract
from conftest import REPO
from toolcontract.model import Outcome

ROOT = Path(__file__).resolve().parents[1]


def _readme_example() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "the README has a python example"
    return blocks[0]


def test_readme_library_example_runs_and_gets_a_success(monkeypatch, capsys):
    monkeypatch.chdir(REPO)  # the example loads a fixture by its path from the repository's root
    namespace: dict = {}
    exec(compile(_readme_example(), "README.md", "exec"), namespace)
    assert namespace["envelope"].outcome is Outcome.SUCCEEDED
    assert capsys.readouterr().out == 'succeeded {"status": "open"} False\n'


def test_every_exported_name_resolves():
    for name in toolcontract.__all__:
        assert getattr(toolcontract, name) is not None, name


def test_assess_is_callable_even_after_the_subpackage_is_imported():
    import toolcontract.assess.gates  # binds the subpackage as toolcontract.assess

    from toolcontract import Candidate, Case, Registry, assess

    envelope = assess(Case("c", Candidate("1", "nope", {})), Registry())
    assert envelope.outcome is Outcome.REJECTED and envelope.gate.value == "registry"


def test_lint_files_collects_less_often_while_it_runs_and_restores_the_thresholds(monkeypatch):
    import gc

    from toolcontract.lint import engine

    seen = []
    real = engine._Plan.lint_chunk
    monkeypatch.setattr(engine._Plan, "lint_chunk", lambda self, files: seen.append(gc.get_threshold()) or real(self, files))
    before = gc.get_threshold()
    engine.lint_text("toolcontract: 1\nname: weather_current\neffect: read\n")
    assert gc.get_threshold() == before
    assert seen and seen[0][0] >= engine._GC_THRESHOLD and seen[0][1:] == before[1:]
