"""Configuration files: discovery, validation with positions, globs."""

from __future__ import annotations

import pytest

from toolcontract.io.config import ConfigError, config_from_data, find_config, glob_matches, load_config


def test_pyproject_table_is_found_walking_up(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname='x'\n\n[tool.toolcontract]\nselect = ['TC1']\n")
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    found = find_config(deep)
    assert found == str(tmp_path / "pyproject.toml")
    assert load_config(found).select == ("TC1",)


def test_yaml_config_wins_in_its_folder_and_pyproject_without_table_is_skipped(tmp_path):
    (tmp_path / ".toolcontract.yaml").write_text("ignore: [TC2]\n")
    inner = tmp_path / "inner"
    inner.mkdir()
    (inner / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    assert find_config(inner) == str(tmp_path / ".toolcontract.yaml")


def test_unknown_key_names_the_key_file_and_line(tmp_path):
    config = tmp_path / "pyproject.toml"
    config.write_text("[tool.other]\nx = 1\n\n[tool.toolcontract]\nselect = ['TC1']\nselct = ['TC2']\n")
    with pytest.raises(ConfigError) as raised:
        load_config(config)
    assert str(raised.value).startswith(f"{config}:6:1: unknown key 'selct'")


def test_bad_value_in_yaml_points_at_it(tmp_path):
    config = tmp_path / ".toolcontract.yaml"
    config.write_text("select: [TC1]\nseverity:\n  TC403: fatal\n")
    with pytest.raises(ConfigError) as raised:
        load_config(config)
    text = str(raised.value)
    assert text.startswith(f"{config}:3:3:") and "severity/TC403" in text


def test_snake_case_keys_are_accepted_and_values_normalised(tmp_path):
    config = config_from_data({"per_file_ignores": {"legacy/*.json": ["tc4"]}, "target": ["openai"]}, str(tmp_path / "c.yaml"))
    assert config.per_file_ignores == (("legacy/*.json", ("TC4",)),)
    assert config.ignored_codes(str(tmp_path / "legacy" / "a.json")) == ("TC4",)
    assert config.ignored_codes(str(tmp_path / "other" / "a.json")) == ()


def test_include_and_exclude(tmp_path):
    config = config_from_data({"include": ["tools/**/*.yaml"], "exclude": ["tools/legacy/"]}, str(tmp_path / "c.yaml"))
    assert config.included(str(tmp_path / "tools" / "a.yaml"))
    assert config.included(str(tmp_path / "tools" / "x" / "a.yaml"))
    assert not config.included(str(tmp_path / "tools" / "legacy" / "a.yaml"))
    assert not config.included(str(tmp_path / "other.yaml"))


@pytest.mark.parametrize(
    "pattern, path, expected",
    [
        ("*.yaml", "a.yaml", True), ("*.yaml", "deep/a.yaml", True), ("tools/*.yaml", "tools/x/a.yaml", False),
        ("tools/**/*.yaml", "tools/a.yaml", True), ("tools/**/*.yaml", "tools/x/y/a.yaml", True),
        ("legacy/", "legacy/a.json", True), ("./legacy/*.json", "legacy/a.json", True), ("a?.json", "ab.json", True),
        ("[!b]*.json", "a.json", True), ("[!b]*.json", "b.json", False), (".hidden/*", ".hidden/x", True),
    ],
)
def test_globs(pattern, path, expected):
    assert glob_matches(pattern, path) is expected


def test_invalid_toml_and_non_table_config(tmp_path):
    bad = tmp_path / "pyproject.toml"
    bad.write_text("[tool.toolcontract\n")
    with pytest.raises(ConfigError):
        load_config(bad)
    with pytest.raises(ConfigError):
        config_from_data(["TC1"], "x.yaml")


# ------------------------------------------------------------------ through the CLI

import json  # noqa: E402
import shutil  # noqa: E402
from pathlib import Path  # noqa: E402

from typer.testing import CliRunner  # noqa: E402

from toolcontract.cli import app  # noqa: E402

BAD = Path(__file__).resolve().parents[1] / "fixtures" / "descriptors" / "bad"


def _project(tmp_path, config_text, name="pyproject.toml"):
    (tmp_path / "tools" / "legacy").mkdir(parents=True)
    shutil.copy(BAD / "TC101-name-format.yaml", tmp_path / "tools" / "a.yaml")
    shutil.copy(BAD / "TC403-additional-properties-open.yaml", tmp_path / "tools" / "legacy" / "b.yaml")
    (tmp_path / name).write_text(config_text)
    return tmp_path


def _lint(monkeypatch, cwd, *args):
    monkeypatch.chdir(cwd)
    return CliRunner().invoke(app, ["lint", "--format", "json", *args])


def test_config_select_per_file_ignores_include_exclude_and_fail_on(tmp_path, monkeypatch):
    root = _project(tmp_path, '[tool.toolcontract]\ninclude = ["tools/**/*.yaml"]\nexclude = ["tools/legacy/"]\n'
                              'per-file-ignores = {"tools/a.yaml" = ["TC101"]}\nfail-on = "warning"\n')
    done = _lint(monkeypatch, root)  # no paths: the config's folder through include/exclude
    report = json.loads(done.output)
    assert report["summary"]["files"] == 1
    assert not [f for f in report["findings"] if f["rule"] == "TC101"]
    done = _lint(monkeypatch, root, "--no-config", "tools")
    assert done.exit_code == 1 and {f["rule"] for f in json.loads(done.output)["findings"]} >= {"TC101", "TC403"}


def test_severity_override_and_cli_options_win(tmp_path, monkeypatch):
    root = _project(tmp_path, "severity: {TC403: error}\nignore: [TC101]\n", name=".toolcontract.yaml")
    done = _lint(monkeypatch, root, "tools/legacy/b.yaml")
    [finding] = [f for f in json.loads(done.output)["findings"] if f["rule"] == "TC403"]
    assert finding["severity"] == "error" and done.exit_code == 1
    done = _lint(monkeypatch, root, "tools/a.yaml", "--ignore", "TC4")  # the CLI's --ignore replaces the config's
    assert any(f["rule"] == "TC101" for f in json.loads(done.output)["findings"])


def test_bad_config_exits_2_naming_key_and_file(tmp_path, monkeypatch):
    root = _project(tmp_path, "[tool.toolcontract]\ntarget = ['openia']\n")
    done = _lint(monkeypatch, root, "tools")
    assert done.exit_code == 2
    assert "pyproject.toml:2:1: target/0" in done.output and "openia" in done.output
    done = _lint(monkeypatch, root, "tools", "--config", "missing.toml")
    assert done.exit_code == 2 and "missing.toml:1:1" in done.output


def test_output_file_gets_the_format_and_the_terminal_the_default(tmp_path, monkeypatch):
    root = _project(tmp_path, "[tool.toolcontract]\n")
    monkeypatch.chdir(root)
    done = CliRunner().invoke(app, ["lint", "tools", "--format", "sarif", "-o", "out.sarif"])
    assert done.exit_code == 1
    assert json.loads((root / "out.sarif").read_text())["version"] == "2.1.0"
    assert "tools/a.yaml:4:7: error TC101" in done.output  # the terminal (not a tty here): text
