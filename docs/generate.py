"""Regenerate the generated documentation: docs/rules.md from the rules' own data.

    python docs/generate.py           # write docs/rules.md
    python docs/generate.py --check   # exit 1 when docs/rules.md is stale (what tests/test_docs.py checks)
"""

from __future__ import annotations

import sys
from pathlib import Path

RULES_MD = Path(__file__).resolve().parent / "rules.md"


def rules_markdown() -> str:
    from toolcontract.lint.engine import all_rules
    from toolcontract.report.rules_md import render_rules_markdown

    return render_rules_markdown(list(all_rules().values()))


def main(argv: list[str]) -> int:
    text = rules_markdown()
    current = RULES_MD.read_text("utf-8") if RULES_MD.exists() else None
    if "--check" in argv:
        if current != text:
            print(f"{RULES_MD}: stale; run `python docs/generate.py`", file=sys.stderr)
            return 1
        return 0
    if current != text:
        RULES_MD.write_text(text, "utf-8")
        print(f"wrote {RULES_MD}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
