"""Rule codes as options give them: `--select TC4,TC501 --select tc6`."""

from __future__ import annotations

from typing import List, Optional


def split_codes(values: Optional[List[str]]) -> tuple[str, ...]:
    codes: list[str] = []
    for value in values or ():
        codes.extend(part.strip().upper() for part in value.split(",") if part.strip())
    return tuple(codes)
