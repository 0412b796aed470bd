"""Assessing recorded conversations: each call of a conversation read from a transcript, a JSONL
log or a trace (toolcontract.io.transcripts, toolcontract.io.traces) becomes a case, assessed by the
gates against the tools the conversation offered (and `--tools`), and the conversation rules (TC8xx)
run on the whole of it. Pure: the conversations come in read, the envelopes and reports go out."""

from __future__ import annotations

import json
from typing import Iterable, Iterator

from toolcontract.assessment.conversation import (Call, Conversation, ConversationReport, Options, Result, analyse,
                                              check, pending_type, report, result_text)
from toolcontract.assessment.registry import Registry, Tool, compile_tool
from toolcontract.core.model import Candidate, Case, Record


def goes_on_after(conversation: Conversation, call: Call) -> bool:
    """Whether the conversation goes on after the turn that made `call`: a later message (Responses: a
    later item that is not another call of the same turn), so a result would have been recorded."""
    return call.message < conversation.last_going_on


def case_id(conversation: Conversation, call: Call) -> str:
    if call.key is not None:  # the reader's own name for it (a trace's span)
        return f"{conversation.id}/{call.key}"
    return f"{conversation.id}/msg{call.message}/{call.id if call.id is not None else f'call{call.block or 0}'}"


def record_of(result: Result | None) -> Record | None:
    """What the transcript shows the harness saw: the result, or an execution error."""
    if result is None:
        return None
    if result.record is not None:  # the reader knows more than a flag says (a trace span's status)
        return result.record
    if result.is_error:
        text = result_text(result.content).strip()
        return Record("error", call_id=result.call_id, result=result.content,
                      error={"layer": "execution", "message": text or "(an empty error result)"}, as_content=True)
    return Record("returned", call_id=result.call_id, result=result.content, as_content=True)


class TranscriptAssessor:
    """Assess the calls of conversations, one conversation at a time, and check its rules.

    Registries are built per offered tool list (with `--tools` first, so its descriptors
    win) and cached, as are compiled tools: a JSONL log repeating one tool list compiles it once.
    """

    def __init__(self, shared: Iterable[dict] = (), context=None,
                 options: Options = Options(), select: Iterable[str] | None = None, cache_size: int = 64):
        self._shared = [d for d in shared if isinstance(d, dict) and isinstance(d.get("name"), str)]
        self._compiled_shared: list[Tool] | None = None  # compiled on first use: a fixture-only run never needs it
        # the --context file read (toolcontract.io.transcripts.TranscriptContext: `for_call(candidate,
        # registry)` gives a call's Context); None: no --context, so every call is judged from the evidence alone
        self.context = context
        self.options = options
        self.select = tuple(select) if select is not None else None
        self._tools: dict[str, Tool] = {}
        self._registries: dict[str, Registry] = {}
        self._cache_size = cache_size

    def _tool(self, descriptor: dict) -> Tool:
        key = json.dumps(descriptor, sort_keys=True, default=str)
        tool = self._tools.get(key)
        if tool is None:
            if len(self._tools) >= 4096:
                self._tools.clear()
            tool = self._tools[key] = compile_tool(descriptor)
        return tool

    def registry_for(self, conversation: Conversation) -> Registry:
        offered = conversation.offered or ()
        key = json.dumps(offered, sort_keys=True, default=str)
        registry = self._registries.get(key)
        if registry is None:
            if len(self._registries) >= self._cache_size:
                self._registries.pop(next(iter(self._registries)))
            if self._compiled_shared is None:
                self._compiled_shared = [compile_tool(d) for d in self._shared]
            registry = self._registries[key] = Registry(
                [*self._compiled_shared, *(self._tool(d) for d in offered)],
                offered=conversation.offered_names is not None or bool(self._shared))
        return registry

    def cases(self, conversation: Conversation, analysis, registry: Registry) -> Iterator[Case]:
        evidence_only = self.context is None
        for call in conversation.calls:
            name = call.name if isinstance(call.name, str) else ("" if call.name is None else json.dumps(call.name))
            candidate = Candidate(call.id, name, call.arguments, call.arguments_known)
            line, column = (conversation.locate_call or conversation.locate)(call.pointer)
            source = {"path": conversation.path, "line": line, "column": column, "conversation": conversation.id,
                      "message": call.message, "pointer": call.pointer}
            if call.origin:
                source.update(call.origin)
            record, pending = record_of(analysis.answer(call)), False
            waiting = analysis.pending.get(call)
            if record is None and waiting is not None:  # MCP: the result says the call has not finished
                pending = f"the result says resultType {pending_type(waiting)!r}: the call has not finished"
            elif record is None and evidence_only:  # no result: lost if the conversation went on, else pending
                if goes_on_after(conversation, call):
                    record = Record("lost", call_id=call.id, sent=None,
                                    note="no result in the recording although the conversation goes on after "
                                         "the call: the call was lost (it is unknown whether it was sent)")
                else:
                    pending = True
            context = None if evidence_only else self.context.for_call(candidate, registry)
            yield Case(case_id(conversation, call), candidate, context, record, None, None, source, pending)

    def assess(self, conversation: Conversation) -> tuple[list, ConversationReport]:
        from toolcontract.assessment.envelope import assess

        analysis = analyse(conversation)
        registry = self.registry_for(conversation)
        envelopes = [assess(case, registry) for case in self.cases(conversation, analysis, registry)]
        analysis.envelopes = dict(zip(conversation.calls, envelopes))  # one case per call, in call order
        analysis.registry = registry
        findings = check(conversation, self.options, self.select, analysis)
        return envelopes, report(conversation, analysis, findings, (e.outcome.value for e in envelopes))


