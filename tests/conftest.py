"""Shared helpers: paths, the rule table of issue 2, linting shortcuts, output checks."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from toolcontract.lint.engine import LintResult, Selection, lint_files, lint_text
from toolcontract.core.model import Severity

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "fixtures" / "descriptors"
GOOD_DIR = FIXTURES / "good"
BAD_DIR = FIXTURES / "bad"

# The rule table of issue 2: id -> default severity. Exactly these ids ship.
EXPECTED_RULES: dict[str, Severity] = {
    "TC000": Severity.ERROR, "TC001": Severity.ERROR, "TC002": Severity.ERROR, "TC003": Severity.WARNING, "TC009": Severity.WARNING,
    "TC101": Severity.ERROR, "TC102": Severity.WARNING, "TC103": Severity.WARNING, "TC104": Severity.ERROR,
    "TC201": Severity.ERROR, "TC202": Severity.WARNING, "TC203": Severity.WARNING, "TC204": Severity.WARNING,
    "TC301": Severity.ERROR, "TC302": Severity.ERROR, "TC303": Severity.WARNING, "TC304": Severity.WARNING,
    "TC305": Severity.WARNING, "TC306": Severity.ERROR, "TC307": Severity.ERROR,
    "TC401": Severity.ERROR, "TC402": Severity.ERROR, "TC403": Severity.WARNING, "TC404": Severity.WARNING,
    "TC405": Severity.ERROR, "TC406": Severity.ERROR, "TC407": Severity.ERROR, "TC408": Severity.ERROR,
    "TC409": Severity.ERROR, "TC410": Severity.ERROR, "TC411": Severity.WARNING, "TC412": Severity.WARNING,
    "TC413": Severity.ERROR,
    # issue 13: defaults, types across a list, requirements stated only in prose, read tools without readOnlyHint
    "TC414": Severity.WARNING, "TC415": Severity.WARNING, "TC416": Severity.INFO, "TC417": Severity.INFO,
    "TC418": Severity.WARNING,
    # issue 4: portability rules, run only for the surfaces `--target` names
    "TC501": Severity.ERROR, "TC502": Severity.ERROR, "TC503": Severity.ERROR, "TC504": Severity.ERROR,
    "TC505": Severity.ERROR, "TC506": Severity.ERROR, "TC507": Severity.ERROR, "TC508": Severity.ERROR,
    "TC509": Severity.ERROR, "TC510": Severity.ERROR, "TC511": Severity.ERROR, "TC512": Severity.ERROR,
    "TC513": Severity.WARNING,
    # issue 13: Gemini schema shapes; tool-list limits and context cost (list rules)
    "TC514": Severity.ERROR, "TC515": Severity.ERROR, "TC516": Severity.ERROR, "TC517": Severity.WARNING,
    # issue 19: MCP 2026-07-28 (x-mcp-header; fields the revision removed)
    "TC520": Severity.ERROR, "TC521": Severity.WARNING,
    # issue 7: security rules (tool poisoning, hostile values, backtracking patterns)
    "TC601": Severity.ERROR, "TC602": Severity.ERROR, "TC603": Severity.ERROR, "TC604": Severity.ERROR,
    "TC605": Severity.ERROR, "TC606": Severity.ERROR, "TC607": Severity.WARNING, "TC608": Severity.ERROR,
    "TC609": Severity.WARNING, "TC610": Severity.ERROR, "TC611": Severity.WARNING,
    # issue 5: change rules, run by `toolcontract diff` (TC70x) and `lint --locked` (TC71x), not by plain lint
    "TC701": Severity.ERROR, "TC702": Severity.WARNING, "TC703": Severity.INFO, "TC704": Severity.ERROR,
    "TC711": Severity.ERROR, "TC712": Severity.WARNING, "TC713": Severity.WARNING, "TC714": Severity.INFO,
    # issue 6: conversation rules, run by `assess` on transcripts (fixtures/transcripts), not by lint
    "TC801": Severity.ERROR, "TC802": Severity.ERROR, "TC803": Severity.ERROR, "TC804": Severity.ERROR,
    "TC805": Severity.ERROR, "TC806": Severity.ERROR, "TC807": Severity.WARNING, "TC808": Severity.ERROR,
    "TC809": Severity.WARNING, "TC810": Severity.WARNING,
    # issue 15: execution hazards in recordings (retry after an unknown effect, an error retried unchanged, a
    # result that breaks its output schema) and a span of an OpenTelemetry trace that cannot be read as a tool call
    "TC811": Severity.ERROR, "TC812": Severity.WARNING, "TC813": Severity.ERROR, "TC814": Severity.WARNING,
    # issue 19: A2A Agent Cards (v1.0 and v0.3)
    "TC901": Severity.ERROR, "TC902": Severity.WARNING, "TC903": Severity.ERROR, "TC904": Severity.ERROR,
    "TC905": Severity.ERROR, "TC906": Severity.ERROR, "TC907": Severity.WARNING, "TC908": Severity.WARNING,
}
RULE_ID = re.compile(r"TC\d{3}\Z")

# Hypothesis budgets. `default` (what a plain `pytest` runs) gives every property test a small budget;
# `long` runs each at the budget its author chose (the equivalence fuzzers' thousands of examples). The
# long profile is chosen by `pytest -m long` (the tests marked `long`: the deliberately long ones), by
# hypothesis' own `--hypothesis-profile=long`, or by TOOLCONTRACT_HYPOTHESIS_PROFILE=long.
QUICK_EXAMPLES = 10
settings.register_profile("default", max_examples=QUICK_EXAMPLES)
settings.register_profile("long", max_examples=100)  # hypothesis' own default: what the suite ran before profiles
settings.load_profile(os.environ.get("TOOLCONTRACT_HYPOTHESIS_PROFILE", "default"))


def pytest_configure(config: pytest.Config) -> None:
    if (config.getoption("markexpr") or "").strip() == "long":
        settings.load_profile("long")


def examples(full: int) -> int:
    """A test's number of generated examples: `full` under the long profile, else a tenth of it (at least
    QUICK_EXAMPLES, at most `full`). Called when a test module is imported, after the profile is chosen."""
    if settings.get_current_profile_name() == "long":
        return full
    return min(full, max(QUICK_EXAMPLES, full // 10))

# `path:line:col: severity RULE message` (the message starts with `[tool] ` when the finding names one)
TEXT_LINE = re.compile(
    r"(?P<path>.+):(?P<line>[1-9]\d*):(?P<column>[1-9]\d*): "
    r"(?P<severity>error|warning|info) (?P<rule>TC\d{3}) (?P<message>.+)\Z"
)
TEXT_SUMMARY = re.compile(r"\d+ files?, \d+ tools?: \d+ errors?, \d+ warnings?, \d+ info\Z")
# a finding's message starts with `[tool] ` when the finding names a tool
TEXT_TOOL = re.compile(r"\[(?P<tool>[^\]]*)\] (?P<message>.+)\Z")
# findings of one rule past the first 10 in a file, counted on one line (text.py)
TEXT_MORE = re.compile(r"(?P<path>.+): \.\.\. and (?P<count>[1-9]\d*) more (?P<rule>TC\d{3}) in this file\Z")
# every finding by rule, most first: the line before the summary when there are findings
TEXT_TALLY = re.compile(r"by rule: TC\d{3} [a-z-]+ [1-9]\d*(, TC\d{3} [a-z-]+ [1-9]\d*)*\Z")

# Characters that must never reach a terminal raw: C0 controls except tab and
# newline, DEL, C1 controls, bidi controls, zero-width and invisible format
# characters, and Unicode tag characters.
UNSAFE_OUTPUT = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\U000e0000-\U000e007f]"
)


def corpus_dir() -> Path:
    """The shared third-party corpus: $TOOLCONTRACT_CORPUS, else ../shared/corpus next to the repo."""
    override = os.environ.get("TOOLCONTRACT_CORPUS")
    return Path(override) if override else REPO.parent / "shared" / "corpus"


def has_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ImportError:
        return False


def lint(text: str, path: str = "descriptor.yaml", select: tuple[str, ...] | None = None,
         targets: tuple[str, ...] = ()) -> LintResult:
    """Lint one text (all rules unless `select` narrows them; portability rules for `targets`)."""
    selection = Selection(select=select, targets=targets) if select else Selection(targets=targets)
    return lint_text(text, path, selection)


def lint_paths(*paths: Path, select: tuple[str, ...] | None = None, targets: tuple[str, ...] = ()) -> LintResult:
    selection = Selection(select=select, targets=targets) if select else Selection(targets=targets)
    return lint_files([(str(p), p.read_bytes()) for p in paths], selection)


def rules_hit(result: LintResult) -> set[str]:
    return {f.rule for f in result.findings}


def render(result: LintResult, fmt: str) -> str:
    from toolcontract.report import lint_reporter

    stream = io.StringIO()
    lint_reporter(fmt)(result, stream)
    return stream.getvalue()


def assert_one_line_error(stderr: str) -> None:
    """What DESIGN §5 promises for exit 2: exactly one line, no traceback."""
    lines = stderr.strip("\n").split("\n")
    assert len(lines) == 1 and lines[0].strip(), f"expected one line on stderr, got {stderr!r}"
    assert "Traceback" not in stderr


def good_fixtures() -> list[Path]:
    return sorted(p for p in GOOD_DIR.iterdir() if p.suffix in (".yaml", ".yml", ".json"))


def bad_fixtures() -> list[Path]:
    """One bad file per rule: descriptors and provider lists (fixtures/descriptors/bad), A2A Agent Cards
    (fixtures/cards/bad)."""
    return sorted(p for folder in (BAD_DIR, REPO / "fixtures" / "cards" / "bad") for p in folder.iterdir()
                  if p.suffix in (".yaml", ".yml", ".json"))


def run_cli(*args: object, cwd: Path | str | None = None, stdin: str | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`toolcontract ARGS` as the console script runs it (`toolcontract.cli.main`: the Typer-free parser for a
    plain `lint` or `assess`, else the Typer app), in this process: stdin, stdout, stderr and `env` (overrides of
    os.environ) as click's test runner isolates them, in `cwd`. Returns what subprocess.run would, with text."""
    from click.testing import CliRunner

    from toolcontract import cli

    argv = ["toolcontract", *map(str, args)]
    env = {"GITHUB_ACTIONS": None, **(env or {})}  # run under GitHub Actions, lint's default format would be github
    with contextlib.chdir(cwd or os.getcwd()), CliRunner().isolation(input=stdin, env=env) as (out, err, _):
        saved, sys.argv = sys.argv, argv
        try:
            cli.main()
            code = 0
        except SystemExit as exc:
            code = 0 if exc.code is None else exc.code if isinstance(exc.code, int) else 1
        finally:
            sys.argv = saved
            sys.stdout.flush()
            sys.stderr.flush()
        stdout, stderr = out.getvalue().decode(), err.getvalue().decode("utf-8", "backslashreplace")
    return subprocess.CompletedProcess(argv, code, stdout, stderr)


@pytest.fixture
def runner():
    from typer.testing import CliRunner

    return CliRunner()


def good_tool_count() -> int:
    """Descriptors in fixtures/descriptors/good (a file holds one, or `tools: [...]`)."""
    from toolcontract.io.document import load_bytes

    count = 0
    for path in good_fixtures():
        data = load_bytes(path.read_bytes(), str(path)).data
        count += len(data["tools"]) if "tools" in data else 1
    return count


def lint_outputs(result) -> dict[str, str]:
    """A lint result as every lint format prints it (format name -> text)."""
    import io

    from toolcontract.report import LINT_FORMATS, lint_reporter

    shown = {}
    for name in LINT_FORMATS:
        buffer = io.StringIO()
        lint_reporter(name)(result, buffer)
        shown[name] = buffer.getvalue()
    return shown
