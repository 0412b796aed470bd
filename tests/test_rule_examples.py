"""Every rule's examples are tests: each Bad hits its rule at its stated line, each Good is clean.

The same examples are what `toolcontract rules ID` prints, so a rule whose docs drift
from its behaviour fails here.
"""

from __future__ import annotations

import re

import pytest

from conftest import EXPECTED_RULES, RULE_ID, lint
from toolcontract.lint.engine import Selection, all_rules, lint_text
from pathlib import Path

from toolcontract.core.rule import SURFACES, Bad, Good

RULES = all_rules()


def _cases(kind):
    for rule in RULES.values():
        for index, example in enumerate(rule.examples):
            if isinstance(example, kind):
                yield pytest.param(rule, example, id=f"{rule.id}-{rule.name}-{index}")


def _run(rule, example):
    """Lint the example; a change rule's example is compared with its old version (`before`) instead."""
    if example.before:
        from types import SimpleNamespace

        return SimpleNamespace(findings=example_findings(rule.id, example.before, example.text))
    if rule.scope == "conversation":  # the example is a transcript: read it and run the conversation rules
        from types import SimpleNamespace

        from toolcontract.app.assess import check_text

        return SimpleNamespace(findings=check_text(example.text, select=(rule.id,)))
    if example.options:  # a threshold's example: linted with the setting it names
        return lint_text(example.text, "descriptor.yaml",
                         Selection(select=(rule.id,), targets=rule.surfaces, options=dict(example.options)))
    return lint(example.text, select=(rule.id,), targets=rule.surfaces)


def _describe(result) -> str:
    return "\n".join(f"  {f.line}:{f.column} {f.rule} {f.message}" for f in result.findings) or "  (no findings)"


@pytest.mark.parametrize(("rule", "example"), list(_cases(Bad)))
def test_bad_example_hits_its_rule_at_its_line_and_column_with_its_message(rule, example: Bad):
    result = _run(rule, example)
    mine = [f for f in result.findings if f.rule == rule.id]
    places = sorted({(f.line, f.column) for f in mine})
    where = f"{example.line}:{example.column}" if example.column else f"line {example.line}"
    at = [f for f in mine if f.line == example.line and (not example.column or f.column == example.column)]
    assert at, (
        f"{rule.id} should hit {where} of its bad example{' (' + example.note + ')' if example.note else ''}; "
        f"it hit {places or 'nothing'}:\n{_describe(result)}\n---\n{example.text}"
    )
    assert any(example.message in f.message for f in at), (
        f"{rule.id} at {where}: no message holds {example.message!r}:\n{_describe(result)}")


@pytest.mark.parametrize(("rule", "example"), list(_cases(Good)))
def test_good_example_is_clean_for_its_rule(rule, example: Good):
    result = _run(rule, example)
    hits = [f for f in result.findings if f.rule == rule.id]
    assert not hits, f"{rule.id} should not fire on its good example:\n{_describe(result)}\n---\n{example.text}"


@pytest.mark.parametrize(("rule", "example"), list(_cases(Bad)))
def test_bad_example_line_exists(rule, example: Bad):
    if example.before:
        return  # the hit may be in the old version or the lockfile; the test above finds it there
    assert 1 <= example.line <= len(example.text.splitlines()) + 1


# ------------------------------------------------------------------ docs check

KEBAB = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*\Z")


@pytest.mark.parametrize("rule", list(RULES.values()), ids=list(RULES))
def test_rule_is_documented(rule):
    assert RULE_ID.match(rule.id), f"rule id {rule.id!r} is not TC + 3 digits"
    assert KEBAB.match(rule.name), f"{rule.id}: name {rule.name!r} is not kebab-case"
    assert rule.summary.strip() == rule.summary and "\n" not in rule.summary, f"{rule.id}: summary is not one line"
    assert rule.summary.endswith("."), f"{rule.id}: summary does not end with '.'"
    assert rule.summary[:1].isupper() or rule.summary[:1] in "`", f"{rule.id}: summary does not start a sentence"
    assert rule.rationale.strip(), f"{rule.id}: empty rationale"
    assert rule.bad_examples, f"{rule.id}: no Bad example"
    assert rule.good_examples, f"{rule.id}: no Good example"
    assert rule.scope in ("load", "document", "tool", "list", "set", "suppression", "diff", "lock", "conversation")
    if rule.scope in ("diff", "lock"):
        assert all(e.before for e in rule.examples), f"{rule.id}: a change rule's examples need `before`"
    assert callable(rule.check), f"{rule.id}: no check function"
    assert set(rule.surfaces) <= set(SURFACES), f"{rule.id}: unknown surfaces"
    if rule.scope == "set":
        assert rule.reads, f"{rule.id}: a set rule names the fields it reads (`reads`)"
    for example in rule.bad_examples:
        assert example.column >= 1 and example.message, f"{rule.id}: a Bad example without its column and message"


def test_every_rule_is_one_file_named_after_it():
    """lint/rules/tcN_family/tcNNN_name.py (assess/rules/tcNNN_name.py for TC8xx): the file of each
    id is named after the id and the rule's name, holds that rule alone, and nothing else is a tcNNN file."""
    import importlib

    from toolcontract.assessment.rules import RULES as CONVERSATION
    from toolcontract.lint.rules import RULES as LINT

    families = {"0": "file", "1": "naming", "2": "documentation", "3": "effects", "4": "schema", "5": "portability",
                "6": "security", "7": "change", "9": "card"}
    tables = {**{i: f"toolcontract.lint.rules.{m}" for i, m in LINT.items()},
              **{i: f"toolcontract.assessment.rules.{m}" for i, m in CONVERSATION.items()}}
    assert set(tables) == set(RULES)
    for rule_id, module_name in tables.items():
        stem = f"{rule_id.lower()}_{RULES[rule_id].name.replace('-', '_')}"
        assert module_name.rsplit(".", 1)[-1] == stem, (rule_id, module_name)
        if not rule_id.startswith("TC8"):
            assert module_name.split(".")[-2] == f"tc{rule_id[2]}_{families[rule_id[2]]}", (rule_id, module_name)
        module = importlib.import_module(module_name)
        assert module.RULE.id == rule_id and callable(module.check)
    root = Path(__file__).resolve().parents[1] / "toolcontract"
    files = {p.stem for p in root.rglob("tc[0-9][0-9][0-9]_*.py")}
    assert files == {name.rsplit(".", 1)[-1] for name in tables.values()}


def test_the_set_rules_are_listed_as_such():
    """SET_RULES (what a run whose files all come from the cache imports) names every rule of scope
    "set" and no other."""
    from toolcontract.lint.rules import SET_RULES

    assert sorted(SET_RULES) == sorted(i for i, r in RULES.items() if r.scope == "set")


def test_rule_names_are_unique():
    names = [r.name for r in RULES.values()]
    assert len(names) == len(set(names))


def test_exactly_the_rules_of_the_issue_ship():
    assert set(RULES) == set(EXPECTED_RULES), (
        f"missing: {sorted(set(EXPECTED_RULES) - set(RULES))}, unexpected: {sorted(set(RULES) - set(EXPECTED_RULES))}"
    )


@pytest.mark.parametrize("rule_id", sorted(EXPECTED_RULES))
def test_default_severity_is_the_issues(rule_id):
    if rule_id not in RULES:
        pytest.fail(f"{rule_id} is not registered")
    assert RULES[rule_id].severity is EXPECTED_RULES[rule_id]


def test_all_rules_is_in_id_order():
    assert list(RULES) == sorted(RULES)


def example_findings(rule_id: str, before: str, text: str, path: str = "descriptor.yaml"):
    """Findings of one change rule on an example: `before` is the old version (diff rules)
    or the file when it was locked (lock rules); `text` is the file now. The old version is
    read as `before.yaml`, the lockfile as `toolcontract.lock`."""
    from toolcontract.lint.diff import diff_findings, diff_tools
    from toolcontract.lint.engine import Selection, all_rules
    from toolcontract.lint.lock import compare_lock, entries_for, lock_findings, lock_text, parse_lock
    from toolcontract.io.document import load_text
    from toolcontract.io.reader import read_tools

    selection = Selection(select=(rule_id,))
    old = read_tools(load_text(before, "before.yaml")).tools
    new = read_tools(load_text(text, path)).tools
    if all_rules()[rule_id].scope == "diff":
        return diff_findings(diff_tools(old, new), selection)
    entries, _ = entries_for((tool, path) for tool in old)
    lock_document = load_text(lock_text(entries), "toolcontract.lock")
    drifts = compare_lock(parse_lock(lock_document.data), [(tool, path) for tool in new])
    return lock_findings(drifts, lock_document, selection)
