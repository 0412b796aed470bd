"""The conversation rules (TC8xx), one file each, run by assess on transcripts and traces.

Each file holds `RULE` (toolcontract.core.rule.Rule, scope "conversation") and `check(ctx)`
(ctx: toolcontract.assessment.conversation.ConversationContext), as the lint rules do; `RULES` is
their table.
"""

from __future__ import annotations

from toolcontract.core.rule import Rule, load_rules

# rule id -> its module, under this package, in id order
RULES: dict[str, str] = {
    "TC801": "tc801_call_unanswered",
    "TC802": "tc802_result_orphan",
    "TC803": "tc803_call_id_duplicate",
    "TC804": "tc804_results_split",
    "TC805": "tc805_results_not_next",
    "TC806": "tc806_results_not_first",
    "TC807": "tc807_error_result_empty",
    "TC808": "tc808_tool_not_offered",
    "TC809": "tc809_rounds_exceeded",
    "TC810": "tc810_retry_loop",
    "TC811": "tc811_retry_after_unknown_effect",
    "TC812": "tc812_error_result_retried_unchanged",
    "TC813": "tc813_result_output_schema",
    "TC814": "tc814_trace_span_invalid",
}


def conversation_rules() -> dict[str, Rule]:
    """Every conversation rule, by id, in id order."""
    return load_rules(__name__, RULES, RULES)
