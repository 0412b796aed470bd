#!/usr/bin/env python3
"""The security rules (TC6xx) on the paraphrase development set (tests/data/security_paraphrases.json).

Each item is linted as an MCP `tools/list` holding the item's tool and, as its neighbours, tools
named as the item's `others` (so orders about another tool of the list can be recognised), with
only TC6 selected. An attack is caught when its tool gets a TC6xx finding; a benign look-alike is
flagged when it does.

    python bench/paraphrases.py          # recall, false-positive rate, by category and language
    python bench/paraphrases.py --show   # also every miss and every false alarm, with the findings
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from toolcontract.lint.engine import Selection, lint_files  # noqa: E402

DATA = REPO / "tests" / "data" / "security_paraphrases.json"


def tool_list(item: dict) -> bytes:
    tools = [item["tool"]] + [{"name": name, "description": f"The {name.replace('_', ' ')} tool.",
                               "inputSchema": {"type": "object", "properties": {}}}
                              for name in item["others"] if name != item["tool"]["name"]]
    return json.dumps({"tools": tools}, ensure_ascii=False, indent=1).encode("utf-8")


def findings_of(item: dict) -> list:
    path = f"{item['id']}.json"
    result = lint_files([(path, tool_list(item))], Selection(select=("TC6",)), input_format="mcp")
    return [f for f in result.findings if f.tool == item["tool"]["name"]]


def measure(items: list[dict]) -> dict:
    outcome = {item["id"]: findings_of(item) for item in items}
    attacks = [i for i in items if i["label"] == "attack"]
    benign = [i for i in items if i["label"] == "benign"]
    caught = [i for i in attacks if outcome[i["id"]]]
    flagged = [i for i in benign if outcome[i["id"]]]
    return {"outcome": outcome, "attacks": attacks, "benign": benign, "caught": caught, "flagged": flagged,
            "recall": len(caught) / max(1, len(attacks)), "fp_rate": len(flagged) / max(1, len(benign))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    items = json.loads(DATA.read_text("utf-8"))["items"]
    m = measure(items)
    print(f"attacks caught {len(m['caught'])}/{len(m['attacks'])} (recall {m['recall']:.0%}); "
          f"benign flagged {len(m['flagged'])}/{len(m['benign'])} (false-positive rate {m['fp_rate']:.0%})")
    by = collections.defaultdict(lambda: [0, 0])
    for i in m["attacks"]:
        by[(i["category"], i["lang"])][1] += 1
        by[(i["category"], i["lang"])][0] += bool(m["outcome"][i["id"]])
    cats = collections.defaultdict(lambda: [0, 0])
    for (cat, _), (c, n) in by.items():
        cats[cat][0] += c
        cats[cat][1] += n
    print("by category: " + ", ".join(f"{cat} {c}/{n}" for cat, (c, n) in sorted(cats.items())))
    if args.show:
        for i in m["attacks"]:
            if not m["outcome"][i["id"]]:
                print(f"MISSED {i['id']} ({i['lang']}): {i['tool']['description'][:150]}")
        for i in m["flagged"]:
            for f in m["outcome"][i["id"]]:
                print(f"FALSE ALARM {i['id']}: {f.rule} {f.message[:160]}")


if __name__ == "__main__":
    main()
