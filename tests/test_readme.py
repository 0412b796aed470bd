"""Every command block of the README and of docs/ runs as written.

A ```sh block is a list of commands, one a line (a `#` comment may follow); each must exit 0, or the
code its line ends with: `# exit 1`. A ```console block is `$ command` lines, each followed by the
output it prints (stdout and stderr), compared exactly but for trailing whitespace; `# exit N` works
there too. A block is not run only when the line before it says why: `<!-- not run: reason -->`.
The commands run with this test environment's `toolcontract` first on PATH, in a temporary copy of
the repository's documented files (a git repository with one commit, so `--git-base HEAD` works), so
commands that write files (`lock`, `convert -o`) write nothing here."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from conftest import REPO

BIN = Path(sys.executable).parent
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(r"^(`{3,})(\S*)\s*$")
NOT_RUN = re.compile(r"^<!-- not run: (?P<reason>.+?) -->$")
EXIT = re.compile(r"#\s*exit\s+(\d+)\s*$")


@dataclass
class Block:
    path: Path
    line: int  # of the opening fence
    language: str
    text: str
    not_run: str | None  # the reason, when the block is marked

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    found, lines, index, previous = [], path.read_text("utf-8").split("\n"), 0, ""
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            if lines[index].strip():
                previous = lines[index].strip()
            index += 1
            continue
        end = next(i for i in range(index + 1, len(lines)) if lines[i].strip() == opening.group(1))
        marked = NOT_RUN.match(previous)
        found.append(Block(path, index + 1, opening.group(2), "\n".join(lines[index + 1:end]) + "\n",
                           marked.group("reason") if marked else None))
        index, previous = end + 1, ""
    return found


ALL = [b for path in DOCUMENTS for b in blocks(path)]
COMMANDS = [b for b in ALL if b.language in ("sh", "console")]
RUN = [b for b in COMMANDS if b.not_run is None]


def test_the_blocks_not_run_are_few_and_named() -> None:
    skipped = {b.name: b.not_run for b in COMMANDS if b.not_run}
    assert sorted(skipped.values()) == ["needs the package index",
                                        "set-up (each line creates a venv); CI runs these two lines"], skipped
    assert all(b.path.name == "README.md" for b in COMMANDS if b.not_run)
    assert len(RUN) >= 10


def test_the_readme_opens_with_a_tagline_the_two_set_up_lines_then_install_and_an_example() -> None:
    readme = (REPO / "README.md").read_text("utf-8").split("\n")
    assert readme[0] == "# toolcontract" and readme[1] == ""
    assert readme[2].endswith(".") and len(readme[2]) < 200 and readme[3] == ""  # one line: what it is for
    setup, install, example = [b for b in blocks(REPO / "README.md") if b.language in ("sh", "console")][:3]
    assert setup.text == (
        "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/toolcontract lint fixtures/demo "
        "--exit-zero && .venv/bin/toolcontract assess fixtures/invocations\n"
        "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/python -m pytest\n")
    # what CI runs is the second line
    assert setup.text.split("\n")[1].split(" && ", 1)[1] in (REPO / ".ci" / "run").read_text()
    assert install.text.startswith("pip install toolcontract-cli ")
    assert example.language == "console" and len(example.text.rstrip("\n").split("\n")) == 5


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("docs-copy")
    for name in ("fixtures", "schemas", "docs"):
        shutil.copytree(REPO / name, work / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("README.md", "pyproject.toml", ".gitignore"):
        shutil.copy(REPO / name, work / name)
    git = ["git", "-c", "user.name=docs", "-c", "user.email=docs@example.invalid", "-c", "commit.gpgsign=false"]
    if shutil.which("git"):
        subprocess.run(["git", "init", "-q"], cwd=work, check=True)
        subprocess.run(["git", "add", "-A"], cwd=work, check=True)
        subprocess.run([*git, "commit", "-q", "-m", "docs"], cwd=work, check=True)
    return work


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("TOOLCONTRACT_", "GITHUB_")) and k not in ("FORCE_COLOR", "NO_COLOR", "CI")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    return env


def _run(command: str, cwd: Path) -> tuple[int, str]:
    done = subprocess.run(["bash", "-c", command], cwd=cwd, env=_env(), stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    return done.returncode, done.stdout


def _expected_exit(command: str) -> int:
    found = EXIT.search(command)
    return int(found.group(1)) if found else 0


def _clean(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _console(text: str) -> list[tuple[str, str]]:
    steps: list[tuple[str, list[str]]] = []
    for line in text.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            assert steps, f"output before the first `$ ` line: {line!r}"
            steps[-1][1].append(line)
    return [(command, "\n".join(output)) for command, output in steps]


@pytest.mark.parametrize("block", RUN, ids=[b.name for b in RUN])
def test_documented_commands_run_as_written(block: Block, workdir: Path) -> None:
    if block.language == "sh":
        commands = [line for line in block.text.split("\n") if line.strip() and not line.lstrip().startswith("#")]
        assert commands, f"{block.name}: an empty sh block"
        for command in commands:
            code, output = _run(command, workdir)
            assert code == _expected_exit(command), f"{block.name}: `{command}` exited {code}:\n{output}"
        return
    for command, shown in _console(block.text):
        code, output = _run(command, workdir)
        assert code == _expected_exit(command), f"{block.name}: `{command}` exited {code}:\n{output}"
        assert _clean(output) == _clean(shown), (
            f"{block.name}: `{command}` prints otherwise than shown; the real output:\n{output}")


def test_a_console_block_that_shows_the_wrong_output_fails(workdir: Path) -> None:
    """The comparison can fail: a shown output one character off is not the real one."""
    (command, shown), = _console("$ toolcontract lint fixtures/demo/shipment_track.yaml\n"
                                 "by rule: TC403 additional-properties-open 2\n")
    code, output = _run(command, workdir)
    assert code == 0 and _clean(output) != _clean(shown)
    assert "by rule: TC403 additional-properties-open 1" in output


LINK = re.compile(r"\]\(([^)\s]+)\)")


def _anchors(path: Path) -> set[str]:
    """GitHub's heading anchors: lowercased, punctuation but `-` and `_` dropped, spaces to `-`."""
    heads = [line.lstrip("#").strip() for line in path.read_text("utf-8").split("\n")
             if line.startswith("#") and not line.startswith("#!")]
    in_code, anchors = False, set()
    for line in path.read_text("utf-8").split("\n"):
        if FENCE.match(line):
            in_code = not in_code
        elif not in_code and re.match(r"#{1,6} ", line):
            anchors.add(re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-"))
    return anchors if heads else set()


@pytest.mark.parametrize("path", DOCUMENTS, ids=[p.name for p in DOCUMENTS])
def test_every_link_stays_in_the_repository_and_resolves(path: Path) -> None:
    text = re.sub(r"^(`{3,}).*?^\1\s*$", "", path.read_text("utf-8"), flags=re.M | re.S)  # not in code blocks
    for target in LINK.findall(text):
        assert "://" not in target, f"{path.name}: links outside the repository: {target}"
        file, _, anchor = target.partition("#")
        resolved = (path.parent / file).resolve() if file else path
        assert resolved.is_relative_to(REPO), f"{path.name}: {target} is outside the repository"
        assert resolved.exists(), f"{path.name}: {target} does not exist"
        if anchor and resolved.suffix == ".md":
            assert anchor in _anchors(resolved), f"{path.name}: no heading #{anchor} in {resolved.name}"


def _readme_yaml(containing: str) -> str:
    (block,) = [b for b in blocks(REPO / "README.md") if b.language == "yaml" and containing in b.text]
    return block.text


def test_the_readme_workflow_is_a_valid_workflow_using_the_actions_inputs(tmp_path: Path) -> None:
    text = _readme_yaml("runs-on:")
    workflow = yaml.safe_load(text)
    exe = shutil.which("check-jsonschema", path=str(BIN)) or shutil.which("check-jsonschema")
    if exe is None:
        pytest.skip("check-jsonschema is not installed (it comes with the [test] extra)")
    path = tmp_path / "toolcontract.yml"
    path.write_text(text)
    done = subprocess.run([exe, "--builtin-schema", "vendor.github-workflows", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    (step,) = [s for s in workflow["jobs"]["lint"]["steps"] if s.get("uses", "").startswith("OWNER/toolcontract@")]
    inputs = yaml.safe_load((REPO / "action.yml").read_text())["inputs"]
    assert set(step["with"]) <= set(inputs)
    assert "on" in text and workflow["permissions"]["security-events"] == "write"
