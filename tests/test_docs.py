"""docs/rules.md is generated from the rules' own data (toolcontract.report.rules_md) and must not be stale."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO
from toolcontract.core.rule import Bad, Good, Rule
from toolcontract.core.model import Severity
from toolcontract.lint.engine import all_rules
from toolcontract.report.rules_md import render_rules_markdown

RULES_MD = REPO / "docs" / "rules.md"


def test_docs_rules_md_is_up_to_date() -> None:
    expected = render_rules_markdown(list(all_rules().values()))
    assert RULES_MD.read_text("utf-8") == expected, (
        "docs/rules.md is stale: regenerate it with `python docs/generate.py` and commit it")


def test_every_rule_has_its_section_with_severity_summary_rationale_and_examples() -> None:
    text = RULES_MD.read_text("utf-8")
    for rule in all_rules().values():
        head = f"## {rule.id} {rule.name}\n\nSeverity: **{rule.severity.label}**. {rule.summary}\n\n{rule.rationale}\n"
        assert head in text, rule.id
        section = text.split(head, 1)[1].split("\n## ", 1)[0]
        bad = [e for e in rule.examples if isinstance(e, Bad)]
        assert section.count("**Bad (hits line") == len(bad), rule.id
        assert section.count("**Good") == len(rule.examples) - len(bad), rule.id


def test_the_rendering_follows_the_data() -> None:
    """A rule's text change changes the page (so the staleness test can fail)."""
    rule = Rule("XX999", "made-up-rule", "A summary | with a pipe.", "Because.", Severity.WARNING,
                (Bad("a: 1\n", 1, note="one", column=1, message="bad a"), Good("b: 1\n")))
    page = render_rules_markdown([rule])
    assert "| [XX999](#xx999-made-up-rule) | made-up-rule | warning | A summary \\| with a pipe. |" not in page  # no family (every TCn is one since TC9)
    assert "## XX999 made-up-rule\n\nSeverity: **warning**. A summary | with a pipe.\n\nBecause.\n" in page
    assert "**Bad (hits line 1, column 1)**: one\n\n```yaml\na: 1\n```\n\nThe message includes: bad a\n" in page
    changed = Rule("XX999", "made-up-rule", "Another summary.", "Because.", Severity.WARNING, rule.examples)
    assert render_rules_markdown([changed]) != page


def test_generate_check_passes_on_the_committed_page() -> None:
    done = subprocess.run([sys.executable, str(REPO / "docs" / "generate.py"), "--check"],
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
