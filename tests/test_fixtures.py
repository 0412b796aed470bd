"""fixtures/descriptors: good ones lint clean under every rule, each bad one hits the rule it is named after."""

from __future__ import annotations

import json
import re

import pytest

from conftest import BAD_DIR, EXPECTED_RULES, GOOD_DIR, REPO, bad_fixtures, good_fixtures, lint_paths, rules_hit
from toolcontract.lint.engine import all_rules
from toolcontract.core.rule import SURFACES
from toolcontract.io.document import load_bytes

SCHEMA_COMMENT = "# yaml-language-server: $schema=../../../schemas/descriptor.schema.json"

# Rules a bad fixture may hit besides its own, where keeping them apart is not practical.
ALSO_HITS: dict[str, set[str]] = {
    "TC501": {"TC101"},  # TC101's portable snake_case is narrower than every surface's name rule
    "TC609": {"TC601"},  # the security scan stops only after 200 findings of another rule
    "TC504": {"TC515"},  # a typed map: refused by strict modes, and an object without properties to Gemini
    "TC908": {"TC203"},  # a skill described in under 80 characters is also a thin description
}


def _rule_of(path) -> str:
    return path.name.split("-", 1)[0]


def _targets(rule_id: str) -> tuple[str, ...]:
    """Portability (TC5xx) fixtures are linted for every surface; the others for none."""
    rule = all_rules().get(rule_id)
    return SURFACES if rule is not None and rule.surfaces else ()


@pytest.mark.parametrize("path", good_fixtures(), ids=lambda p: p.name)
def test_good_fixture_is_clean_under_every_rule(path):
    result = lint_paths(path)
    assert result.tools >= 1
    assert not result.findings, "\n".join(f"{f.line}:{f.column} {f.severity.label} {f.rule} {f.message}" for f in result.findings)


def test_good_fixtures_cover_the_issue():
    names = set()
    effects = set()
    for path in good_fixtures():
        data = load_bytes(path.read_bytes(), str(path)).data
        for tool in data.get("tools", [data]):
            names.add(tool["name"])
            effects.add(tool["effect"])
    assert "document_update_metadata" in names
    assert {"pure", "read", "reversible_write", "irreversible_write"} <= effects
    assert any(p.suffix == ".json" for p in good_fixtures()), "one good fixture is JSON"
    assert any("tools" in load_bytes(p.read_bytes(), str(p)).data for p in good_fixtures()), "one holds tools: [...]"


def test_good_fixtures_together_are_clean():
    """Linted as one set (as the CLI does on the folder): no name is used twice."""
    result = lint_paths(*good_fixtures())
    assert not result.findings
    assert result.files == len(good_fixtures())


# (A2A Agent Cards are not our format: no schema of ours to name)
@pytest.mark.parametrize("path", [p for p in good_fixtures() + bad_fixtures() if p.suffix != ".json" and "cards" not in p.parts],
                         ids=lambda p: p.name)
def test_yaml_fixtures_name_the_schema_for_editors(path):
    assert path.read_text("utf-8").splitlines()[0] == SCHEMA_COMMENT
    assert (path.parent / "../../../schemas/descriptor.schema.json").resolve() == REPO / "schemas" / "descriptor.schema.json"


@pytest.mark.parametrize("path", good_fixtures(), ids=lambda p: p.name)
def test_good_fixture_validates_against_the_published_schema(path):
    import jsonschema
    import referencing

    schema = json.loads((REPO / "schemas" / "descriptor.schema.json").read_text("utf-8"))
    data = load_bytes(path.read_bytes(), str(path)).data
    validator = jsonschema.Draft202012Validator(schema, registry=referencing.Registry())
    assert not [e.message for e in validator.iter_errors(data)]


@pytest.mark.parametrize("path", bad_fixtures(), ids=lambda p: p.name)
def test_bad_fixture_hits_the_rule_in_its_name(path):
    rule_id = _rule_of(path)
    assert rule_id in EXPECTED_RULES, f"{path.name} does not start with a rule id"
    result = lint_paths(path, targets=_targets(rule_id))
    hit = rules_hit(result)
    assert rule_id in hit, f"{path.name} should hit {rule_id}; it hit {sorted(hit) or 'nothing'}"
    # and is about that rule: other rules stay quiet unless listed
    others = hit - {rule_id} - ALSO_HITS.get(rule_id, set())
    assert not others, f"{path.name} also hits {sorted(others)}: " + "; ".join(
        f"{f.rule} {f.message}" for f in result.findings if f.rule in others
    )


@pytest.mark.parametrize("path", bad_fixtures(), ids=lambda p: p.name)
def test_bad_fixture_hits_its_rule_when_selected_alone(path):
    rule_id = _rule_of(path)
    result = lint_paths(path, select=(rule_id,), targets=_targets(rule_id))
    assert rules_hit(result) == {rule_id}


def test_every_rule_has_a_bad_fixture():
    have = {_rule_of(p) for p in bad_fixtures()}
    # change rules (diff, lock) compare two versions: their fixtures are pairs in fixtures/diff (tests/test_diff.py);
    # conversation rules read transcripts: theirs are in fixtures/transcripts/bad (tests/test_transcripts.py)
    linted = {rule_id for rule_id, rule in all_rules().items() if rule.scope not in ("diff", "lock", "conversation")}
    # TC003 needs more tools than lint checks in one file (2,000): its examples run with max-tools-checked = 2,
    # and tests/test_hostile_round2.py lints a 100,000-tool file
    linted -= {"TC003"}
    assert linted <= have, f"no bad fixture for {sorted(linted - have)}"
    assert set(EXPECTED_RULES) & linted <= have


def test_bad_fixture_names_are_id_dash_kebab_name():
    for path in bad_fixtures():
        rule_id, _, rest = path.stem.partition("-")
        assert re.fullmatch(r"TC\d{3}", rule_id) and re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rest), path.name


def test_fixture_folders_exist():
    assert GOOD_DIR.is_dir() and BAD_DIR.is_dir()
