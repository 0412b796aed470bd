"""Rule codes as options give them: `--select TC4,TC501 --select tc6`, or rule names
(`--select additional-properties-open`), which stand for their ids."""

from __future__ import annotations

from typing import List, Optional


def split_codes(values: Optional[List[str]]) -> tuple[str, ...]:
    """The codes of the values, split at commas, upper-cased; a rule's name becomes its id. A word
    that is neither is kept as given, for Selection.validate to refuse (suggesting the closest rule)."""
    codes: list[str] = []
    for value in values or ():
        codes.extend(code_of(part.strip()) for part in value.split(",") if part.strip())
    return tuple(codes)


def code_of(text: str) -> str:
    """A rule id or prefix (upper-cased), or the id of the rule named `text`; else `text` as given."""
    if "-" not in text:  # every rule name has one (additional-properties-open); codes never do
        return text.upper()
    from toolcontract.lint.engine import rule_names

    return rule_names().get(text.lower(), text)
