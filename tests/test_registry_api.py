"""The library's registries: from files, from provider lists as data, and clear errors for what they
cannot use (issue 15, point 7); the README's harness example runs as written."""

from __future__ import annotations

import json
import re

import pytest

from conftest import REPO
from toolcontract import Candidate, Case, Record, Registry, admit, assess
from toolcontract.core.model import Effect, Outcome

PROVIDERS = REPO / "fixtures" / "providers" / "good"


def test_from_path_reads_a_provider_file_with_its_overlay_and_a_folder_of_native_descriptors():
    registry = Registry.from_path(PROVIDERS / "mcp.json")
    assert registry.names() == ["note_append", "note_search"]
    assert registry.get("note_search").effect is Effect.READ  # the overlay's effect class
    folder = Registry.from_path(REPO / "fixtures" / "descriptors" / "good")
    assert "document_update_metadata" in folder and len(folder) >= 7


def test_from_path_says_what_is_wrong(tmp_path):
    with pytest.raises(ValueError, match=r"nothere\.json:1:1: no such file"):
        Registry.from_path(tmp_path / "nothere.json")
    broken = tmp_path / "tools.json"
    broken.write_text('{"tools": [')
    with pytest.raises(ValueError, match=r"tools\.json:1:\d+: JSON"):
        Registry.from_path(broken)
    (tmp_path / "package.json").unlink(missing_ok=True)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValueError, match="no tool descriptors found"):
        Registry.from_path(empty)


def test_from_provider_takes_each_format_as_data_and_derives_mcp_effects():
    mcp = {"tools": [{"name": "get_note", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}}]}
    assert Registry.from_provider(mcp).get("get_note").effect is Effect.READ
    for name in ("openai-chat", "anthropic", "gemini", "openai-responses"):
        data = json.loads((PROVIDERS / f"{name}.json").read_text())
        assert len(Registry.from_provider(data)) == 2, name
        assert len(Registry.from_provider(data, format=name)) == 2, name
    with pytest.raises(ValueError):
        Registry.from_provider({"servers": []})


@pytest.mark.parametrize(("given", "message"), [
    ({"toolcontract": 1, "tools": []}, "not one mapping"),
    ([{"toolcontract": 1, "tools": [{"name": "x"}]}], "a `tools:` document"),
    ([{"name": "x", "inputSchema": {"type": "object"}}], "holds `inputSchema`"),
    ([{"description": "no name"}], "has no `name`"),
    (["x"], "not a mapping"),
])
def test_from_descriptors_refuses_what_it_would_silently_ignore(given, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        Registry.from_descriptors(given)


def test_the_library_admit_stays_fail_closed_and_a_case_without_context_is_evidence_only():
    registry = Registry.from_descriptors([{"name": "invoice_pay", "effect": "irreversible_write"}])
    refused = admit(Candidate("c1", "invoice_pay", {}), registry)
    assert not refused.admitted and refused.refusal.gate.value == "environment"
    envelope = assess(Case("a", Candidate("c1", "invoice_pay", {}), None, Record("returned", call_id="c1")), registry)
    assert envelope.outcome is Outcome.NEEDS_EVIDENCE
    assert [step["result"] for step in envelope.trail][-3:] == ["not_judged"] * 3
    assert envelope.unverified_scope[0] == "admission policy: target, environment, approval (no context given)"
