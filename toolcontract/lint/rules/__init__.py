"""Rule families. `load()` imports them, which registers every rule with the engine.

The families that lint files are imported on every `lint` run; the change rules
(TC7xx, run by `diff` and `--locked`) and the conversation rules (TC8xx, run by
`assess`) only when something asks for every rule (`toolcontract rules`, SARIF's
rule table, diff, lock, assess), which keeps them and their imports off lint's
start-up path.
"""

from __future__ import annotations


FILE_FAMILIES = (
    "toolcontract.lint.rules.file",  # TC0xx
    "toolcontract.lint.rules.naming",  # TC1xx
    "toolcontract.lint.rules.documentation",  # TC2xx
    "toolcontract.lint.rules.effects",  # TC3xx
    "toolcontract.lint.rules.schema",  # TC4xx
    "toolcontract.lint.rules.portability",  # TC501-TC515
    "toolcontract.lint.rules.toolset",  # TC516-TC517: the size of a tool list
    "toolcontract.lint.rules.security",  # TC6xx
)
OTHER_FAMILIES = (
    "toolcontract.lint.rules.change",  # TC7xx: diff and lock rules
    "toolcontract.assess.conversation",  # TC8xx: conversation rules, run by assess
)
# the scopes of the rules lint runs on files (see toolcontract.lint.rule.Rule)
FILE_SCOPES = frozenset(("load", "document", "tool", "list", "set", "suppression"))

_loaded: set[bool] = set()


def load(everything: bool = True) -> None:
    """Import the rule families: all of them, or (everything=False) those that lint files."""
    if everything in _loaded:
        return
    for module in FILE_FAMILIES + (OTHER_FAMILIES if everything else ()):
        __import__(module)  # not importlib.import_module: importlib imports `warnings` (~1 ms)
    _loaded.add(everything)
