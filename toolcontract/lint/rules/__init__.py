"""The rules, one file each, grouped by family (`tc4_schema/tc403_additional_properties_open.py`).

A rule file holds `RULE` (its id, name, texts, severity, examples, scope: toolcontract.core.rule.Rule)
and one function `check(ctx) -> Iterator[Hit]` (what `ctx` holds depends on the scope: see
toolcontract.lint.context). `RULES` below is the table of every rule lint, diff and lock run: a
new rule is a new file and a new line here, nothing else. Modules are imported when asked for:
`lint` imports the rules it runs on files, never the change rules (TC7xx), and nothing imports the
conversation rules (TC8xx, toolcontract.assessment.rules) but assess and the rule catalogue.
"""

from __future__ import annotations

from toolcontract.core.rule import Rule, RuleTable, load_rules

# rule id -> its module, under this package, in id order
RULES: dict[str, str] = {
    "TC000": "tc0_file.tc000_parse_error",
    "TC001": "tc0_file.tc001_duplicate_key",
    "TC002": "tc0_file.tc002_descriptor_structure",
    "TC003": "tc0_file.tc003_tool_limit",
    "TC009": "tc0_file.tc009_unused_suppression",
    "TC101": "tc1_naming.tc101_name_format",
    "TC102": "tc1_naming.tc102_name_vague",
    "TC103": "tc1_naming.tc103_version_missing",
    "TC104": "tc1_naming.tc104_name_duplicate",
    "TC201": "tc2_documentation.tc201_purpose_missing",
    "TC202": "tc2_documentation.tc202_non_goals_missing",
    "TC203": "tc2_documentation.tc203_description_thin",
    "TC204": "tc2_documentation.tc204_description_long",
    "TC301": "tc3_effects.tc301_effect_missing",
    "TC302": "tc3_effects.tc302_annotation_contradiction",
    "TC303": "tc3_effects.tc303_name_effect_mismatch",
    "TC304": "tc3_effects.tc304_observation_missing",
    "TC305": "tc3_effects.tc305_target_version_missing",
    "TC306": "tc3_effects.tc306_approval_waived",
    "TC307": "tc3_effects.tc307_target_pointer_dangling",
    "TC401": "tc4_schema.tc401_schema_invalid",
    "TC402": "tc4_schema.tc402_schema_root_not_object",
    "TC403": "tc4_schema.tc403_additional_properties_open",
    "TC404": "tc4_schema.tc404_property_undocumented",
    "TC405": "tc4_schema.tc405_required_undefined",
    "TC406": "tc4_schema.tc406_example_invalid",
    "TC407": "tc4_schema.tc407_ref_remote",
    "TC408": "tc4_schema.tc408_ref_unresolvable",
    "TC409": "tc4_schema.tc409_output_schema_invalid",
    "TC410": "tc4_schema.tc410_pattern_invalid",
    "TC411": "tc4_schema.tc411_property_untyped",
    "TC412": "tc4_schema.tc412_dialect_unsupported",
    "TC413": "tc4_schema.tc413_semantic_rule_invalid",
    "TC414": "tc4_schema.tc414_default_invalid",
    "TC415": "tc4_schema.tc415_required_with_default",
    "TC416": "tc4_schema.tc416_parameter_type_inconsistent",
    "TC417": "tc4_schema.tc417_requirement_in_prose",
    "TC418": "tc4_schema.tc418_read_tool_not_read_only",
    "TC501": "tc5_portability.tc501_name_refused_by_surface",
    "TC502": "tc5_portability.tc502_parameter_name_refused",
    "TC503": "tc5_portability.tc503_schema_root_combinator",
    "TC504": "tc5_portability.tc504_strict_object_open",
    "TC505": "tc5_portability.tc505_strict_property_optional",
    "TC506": "tc5_portability.tc506_strict_keyword_unsupported",
    "TC507": "tc5_portability.tc507_strict_value_unsupported",
    "TC508": "tc5_portability.tc508_strict_recursion",
    "TC509": "tc5_portability.tc509_strict_limit_exceeded",
    "TC510": "tc5_portability.tc510_gemini_type_list",
    "TC511": "tc5_portability.tc511_gemini_enum_not_string",
    "TC512": "tc5_portability.tc512_gemini_keyword_unsupported",
    "TC513": "tc5_portability.tc513_mcp_annotations_missing",
    "TC514": "tc5_portability.tc514_gemini_array_items_missing",
    "TC515": "tc5_portability.tc515_gemini_object_properties_empty",
    "TC516": "tc5_portability.tc516_toolset_over_limit",
    "TC517": "tc5_portability.tc517_toolset_context_cost",
    "TC520": "tc5_portability.tc520_mcp_header_invalid",
    "TC521": "tc5_portability.tc521_removed_field",
    "TC601": "tc6_security.tc601_hidden_characters",
    "TC602": "tc6_security.tc602_confusable_characters",
    "TC603": "tc6_security.tc603_instruction_injection",
    "TC604": "tc6_security.tc604_cross_tool_instruction",
    "TC605": "tc6_security.tc605_secret_exfiltration",
    "TC606": "tc6_security.tc606_embedded_secret",
    "TC607": "tc6_security.tc607_pattern_backtracking",
    "TC608": "tc6_security.tc608_attack_payload",
    "TC609": "tc6_security.tc609_security_scan_limit",
    "TC610": "tc6_security.tc610_internal_address",
    "TC611": "tc6_security.tc611_sensitive_data_collected",
    "TC701": "tc7_change.tc701_breaking_change_unversioned",
    "TC702": "tc7_change.tc702_contract_change_unversioned",
    "TC703": "tc7_change.tc703_contract_changed",
    "TC704": "tc7_change.tc704_tool_removed",
    "TC711": "tc7_change.tc711_tool_changed_same_version",
    "TC712": "tc7_change.tc712_tool_added_since_lock",
    "TC713": "tc7_change.tc713_tool_removed_since_lock",
    "TC714": "tc7_change.tc714_tool_updated_since_lock",
    "TC901": "tc9_card.tc901_card_structure",
    "TC902": "tc9_card.tc902_card_version_old",
    "TC903": "tc9_card.tc903_skill_id_duplicate",
    "TC904": "tc9_card.tc904_url_insecure",
    "TC905": "tc9_card.tc905_security_requirement_undefined",
    "TC906": "tc9_card.tc906_security_scheme_invalid",
    "TC907": "tc9_card.tc907_media_type_invalid",
    "TC908": "tc9_card.tc908_skill_undocumented",
}
# the A2A Agent Card rules (scope "tool"): they run on a card's own view (descriptor.is_card_view) and
# on nothing else; a card's views (the card and each skill) run them and the rules of CARD_RULES only
# (naming, thin descriptions, security), as no other rule speaks of what a card holds
CARD_ONLY_PREFIX = "TC9"
CARD_RULES = ("TC102", "TC203", "TC6")
# the rules `diff` and `lint --locked` run (scopes "diff" and "lock"), not `lint` on files
CHANGE_PREFIX = "TC7"
# the rules of scope "set" (they read every tool of the run), named here so that a run whose files
# all come from the lint cache imports these and no other rule; a test checks it against RULE.scope
SET_RULES = ("TC104",)


def lint_rules(files_only: bool = False) -> dict[str, Rule]:
    """The rules of this table: those lint runs on files, or (files_only=False) with the change rules."""
    ids = [i for i in RULES if not (files_only and i.startswith(CHANGE_PREFIX))]
    return load_rules(__name__, RULES, ids)


def lint_table(files_only: bool = False) -> RuleTable:
    """The rules of lint_rules, as a table that imports each rule's module when it is first asked for."""
    return RuleTable(__name__, RULES, [i for i in RULES if not (files_only and i.startswith(CHANGE_PREFIX))])
