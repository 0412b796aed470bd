"""One declaration of `lint`'s and `assess`'s options (toolcontract.cli.options): the Typer commands
are built from it and so is the fast parser; for every command line built from the declaration, a
parse the fast path accepts is the parse Typer makes, and what it turns away Typer answers (a bad
flag: exit 2, the same one line whichever way in)."""

from __future__ import annotations

import contextlib
import io
import sys

import pytest
import typer.main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolcontract import cli
from toolcontract.cli import assess_run, commands, options
from toolcontract.report import ASSESS_FORMATS, LINT_FORMATS

PATHS = ["descriptors", "a.yaml", "-", "x y.json", "é.yml"]


def _typer_command(name: str):
    return typer.main.get_command(commands.app).commands[name]


@pytest.mark.parametrize("command", options.COMMANDS.values(), ids=lambda c: c.name)
def test_the_typer_command_has_the_declared_parameters(command):
    declared = {option.keyword: (tuple(option.flags), option.multiple, option.required) for option in command.options}
    built = {param.name: (tuple(param.opts) if param.opts != [param.name] else (), param.multiple, param.required)
             for param in _typer_command(command.name).params}
    built["paths"] = ((), True, built["paths"][2])  # an argument of nargs=-1, not `multiple`
    assert built == declared


def test_formats_come_from_the_reporter_registry():
    assert options.LINT["output_format"].choices == tuple(LINT_FORMATS)
    assert options.ASSESS["output_format"].choices == tuple(ASSESS_FORMATS)
    assert [item.value for item in commands.LintFormat] == list(LINT_FORMATS)
    assert [item.value for item in commands.AssessFormat] == list(ASSESS_FORMATS)


def _valid_value(option: options.Option) -> st.SearchStrategy[str]:
    if option.kind == "choice":
        return st.sampled_from(option.choices)
    if option.kind == "count":
        return st.integers(min_value=option.minimum or 0, max_value=12).map(str)
    if option.kind == "seconds":
        return st.sampled_from(["0.5", "3", "20"])
    return st.text(alphabet="abcTC1,._/ -=", min_size=1, max_size=6).filter(lambda v: not v.startswith("-"))


def _bad_value(option: options.Option) -> st.SearchStrategy[str]:
    if option.kind == "choice":
        return st.sampled_from(["yaml", option.choices[0].upper(), "", "x"])
    if option.kind in ("count", "seconds"):
        return st.sampled_from(["two", "-1", "", "1.5e", "inf", "٣"])
    return st.just("")


def _tokens(option: options.Option, valid: bool) -> st.SearchStrategy[list[str]]:
    if option.kind == "flag":
        return st.sampled_from([[flag] for flag in option.flags] if valid else [[f"{option.flags[0]}=1"]])
    value = _valid_value(option) if valid else _bad_value(option)
    flag = st.sampled_from(option.flags)
    return st.one_of(
        st.tuples(flag, value).map(lambda fv: [f"{fv[0]}={fv[1]}"]),
        st.tuples(flag, value).map(lambda fv: [fv[0], fv[1]]),
        *([flag.map(lambda f: [f])] if not valid else []),  # the value missing
    )


def _argv(command: options.Command, valid_only: bool) -> st.SearchStrategy[list[str]]:
    parameters = [option for option in command.options if option.kind != "paths"]
    piece = st.one_of(
        st.sampled_from(PATHS).map(lambda path: [path]),
        st.sampled_from(parameters).flatmap(lambda option: _tokens(option, True)),
        *([] if valid_only else [
            st.sampled_from(parameters).flatmap(lambda option: _tokens(option, False)),
            st.sampled_from([["--"], ["--no-such-flag"], ["-x"], ["--help"], ["-j2"]]),
        ]),
    )
    return st.lists(piece, max_size=6).map(lambda pieces: [token for part in pieces for token in part])


def _typer_parse(command: options.Command, argv: list[str], monkeypatch) -> tuple[int, dict | None, str]:
    """(exit code, the keyword arguments Typer passed to the run function or None, stderr)."""
    seen: list[dict] = []
    target = (commands, "run_lint") if command.name == "lint" else (assess_run, "run_assess")
    monkeypatch.setattr(*target, lambda **kwargs: seen.append(kwargs) or 0)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        with pytest.raises(SystemExit) as exit_info:
            commands.app(args=[command.name, *argv])
    return exit_info.value.code, (seen[0] if seen else None), err.getvalue()


def _main(command: options.Command, argv: list[str], monkeypatch) -> tuple[int, dict | None, str]:
    seen: list[dict] = []
    monkeypatch.setattr(cli, "run_lint", lambda **kwargs: seen.append(kwargs) or 0)
    monkeypatch.setattr(assess_run, "run_assess", lambda **kwargs: seen.append(kwargs) or 0)
    monkeypatch.setattr(commands, "run_lint", lambda **kwargs: seen.append(kwargs) or 0)
    monkeypatch.setattr(sys, "argv", ["toolcontract", command.name, *argv])
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        with pytest.raises(SystemExit) as exit_info:
            cli.main()
    return exit_info.value.code, (seen[0] if seen else None), err.getvalue()


@pytest.mark.parametrize("command", options.COMMANDS.values(), ids=lambda c: c.name)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_fast_parse_is_the_parse_typer_makes(command, data, monkeypatch):
    argv = data.draw(_argv(command, valid_only=data.draw(st.booleans())))
    fast = options.plain_arguments(command, argv)
    code, parsed, err = _typer_parse(command, argv, monkeypatch)
    if fast is not None:
        assert (code, err) == (0, "") and parsed == fast, argv
    if argv and all(token in PATHS for token in argv):
        assert fast == parsed and fast is not None, argv  # only paths: always the fast path


@pytest.mark.parametrize("command", options.COMMANDS.values(), ids=lambda c: c.name)
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_command_line_gets_what_typer_gives_either_way(command, data, monkeypatch):
    """`main()` (fast path first) and the Typer app: the same exit code, the same run arguments,
    the same one line on stderr for a bad flag or value."""
    argv = data.draw(_argv(command, valid_only=False))
    assert _main(command, argv, monkeypatch) == _typer_parse(command, argv, monkeypatch), argv


@pytest.mark.parametrize("argv, message", [
    (["lint", "a.yaml", "--format", "yaml"], "toolcontract: Invalid value for '--format'"),
    (["lint", "a.yaml", "--jobs", "two"], "toolcontract: Invalid value for '--jobs' / '-j'"),
    (["lint", "a.yaml", "--selct", "TC1"], "toolcontract: No such option: --selct"),
    (["assess", "a.yaml", "--format", "xml"], "toolcontract: Invalid value for '--format'"),
    (["assess", "a.yaml", "--max-rounds", "0"], "toolcontract: Invalid value for '--max-rounds'"),
])
def test_a_bad_flag_is_exit_2_and_one_line(argv, message, monkeypatch):
    code, parsed, err = _main(options.COMMANDS[argv[0]], argv[1:], monkeypatch)
    assert code == 2 and parsed is None
    assert err.startswith(message) and err.count("\n") == 1, err


def test_the_fast_path_can_be_switched_off(monkeypatch):
    argv = ["a.yaml", "--format", "text"]
    assert options.plain_arguments(options.LINT, argv) is not None
    monkeypatch.setenv("TOOLCONTRACT_FAST_CLI", "0")
    assert options.plain_arguments(options.LINT, argv) is None
    assert options.plain_arguments(options.ASSESS, argv) is None
