"""How the TC8xx rules report: a hit at a call or at a result, and the words their messages share
(a call's tool name, what a result is called in the conversation's format)."""

from __future__ import annotations

from toolcontract.assessment.conversation import (
    ANTHROPIC, OPENAI_CHAT, OPENAI_RESPONSES, OTEL_GENAI, Call, Conversation, ConversationHit, Result,
)


def call_hit(call: Call, message: str) -> ConversationHit:
    return ConversationHit(call.pointer, message, call.message, call.block, call.id,
                           call.name if isinstance(call.name, str) else None)


def result_hit(result: Result, message: str) -> ConversationHit:
    return ConversationHit(result.pointer, message, result.message, result.block, result.call_id)


def name_of(call: Call) -> str:
    return repr(call.name) if isinstance(call.name, str) else "(no name)"


def result_word(conversation: Conversation) -> str:
    return {ANTHROPIC: "tool_result block", OPENAI_CHAT: "`role: tool` message",
            OPENAI_RESPONSES: "function_call_output item", OTEL_GENAI: "tool result"}.get(conversation.format, "result")
