"""What the TC8xx rules read of a conversation's analysis beyond what it holds: the results that answer
a turn's calls (`answered`), and whether a call's effect is unknown (`effect_unknown`: its case's outcome,
when the calls were assessed)."""

from __future__ import annotations

from toolcontract.assessment.conversation import Analysis, Call, Result, Turn
from toolcontract.core.model import Outcome


def answered(turn: Turn, analysis: Analysis) -> list[Result]:
    """The results answering a turn's calls, in file order."""
    results = [analysis.answers[c] for c in turn.calls if c in analysis.answers]
    results.sort(key=lambda r: (r.message, r.block or 0))
    return results


def effect_unknown(analysis: Analysis, call: Call) -> bool:
    envelope = analysis.envelopes.get(call)
    return envelope is not None and envelope.outcome is Outcome.EFFECT_UNKNOWN
