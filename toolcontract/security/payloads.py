"""Attack payloads in the values a model may pass on verbatim (defaults, examples, enum,
const), and active markup or destructive commands anywhere in a tool's text.

| payload | where | matches |
|---|---|---|
| shell command chain | values | `;`, `&&`, `\\|\\|` or `\\|` followed by `rm -rf`, `cat /...`, `curl`, `wget`, `nc`, `bash -c`, `whoami`, ... |
| command substitution | values | `$(...)` or back-quotes around a shell command |
| SQL injection | values | `' OR '1'='1`, `UNION SELECT`, `; DROP TABLE`, a quote closed by `--` |
| path traversal | values | `../../`, or `../` towards /etc, /root, /proc, windows |
| script markup | everywhere | a `<script>` element with content, `javascript:` URLs, `onerror=` / `onload=` handlers |
| destructive command | everywhere | `rm -rf /` (or `~`, `*`), fork bombs, `mkfs /dev/...`, `dd of=/dev/sd...` |
"""

from __future__ import annotations

import re

from toolcontract.security.gates import compile_filter
from toolcontract.security.gates import view as gated_view
from toolcontract.security.lazy import Lazy
from toolcontract.security.records import Record

_I = re.IGNORECASE
_SHELL_WORDS = (r"(?:rm\s+-[a-z]*[rf]|cat\s+[/~.]|curl\s|wget\s|nc\s|ncat\s|bash\b|sh\s+-c|zsh\b|chmod\s|chown\s|"
                r"python[23]?\s+-c|perl\s+-e|ruby\s+-e|whoami\b|id\b|uname\b|mkfifo\b|/bin/\w+|powershell\b|cmd(?:\.exe)?\s+/c|"
                r"echo\s|env\b|printenv\b|ls\s|nslookup\s|ping\s+-)")

# (gate, what it is, expression compiled on first use)
VALUE_PAYLOADS: tuple[tuple[str, str, Lazy], ...] = tuple((gate, what, Lazy(p, _I)) for gate, what, p in (
    ("payload:shell-chain", "a shell command chained onto the value", r"(?:;|&&|\|\|?)\s*" + _SHELL_WORDS),
    ("payload:substitution", "a shell command substitution", r"\$\(\s*" + _SHELL_WORDS + r"[^)]{0,200}\)|`\s*" + _SHELL_WORDS + r"[^`]{0,200}`"),
    ("payload:sql", "an SQL injection", r"'\s*(?:or|and)\s+'?\w*'?\s*=\s*'?\w*|\bunion\s+(?:all\s+)?select\b|;\s*(?:drop|truncate|delete)"
                         r"\s+(?:table|database|from)\b|'\s*;?\s*--(?:\s|$)"),
    ("payload:traversal", "a path traversal", r"(?:\.\.[/\\]){2,}|\.\.[/\\](?:etc|root|proc|windows|system32|home)\b"),
))
TEXT_PAYLOADS: tuple[tuple[str, str, Lazy], ...] = tuple((gate, what, Lazy(p, _I)) for gate, what, p in (
    ("payload:script", "script markup", r"<\s*script\b[^>]*>\s*\S[\s\S]{0,2000}?<\s*/\s*script\s*>|<\s*script\b[^>]*\bsrc\s*=|"
                      r"\bjavascript\s*:\s*\w|<[^>]*\bon(?:error|load|click|mouseover|focus|blur|submit)\s*=|"
                      r"^[^<>]{0,40}\bon(?:error|load|mouseover)\s*=\s*\w+\("),
    ("payload:destructive", "a destructive command", r"\brm\s+-(?:rf|fr|r\s+-f|f\s+-r)\s+(?:/|~|\*|\$HOME)(?=[\s'\")`;]|$)|:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}"
                              r"\s*;\s*:|\bmkfs(?:\.\w+)?\s+/dev/|\bdd\s+if=\S+\s+of=/dev/(?:sd|nvme|hd|disk)"),
))


# gates (see toolcontract.security.gates), by payload
GATES = {
    "payload:shell-chain": (";", "&", "|"),
    "payload:substitution": ("$(", "`"),
    "payload:sql": ("'", "union", ";"),  # a quote is common: the SQL pattern is cheap
    "payload:traversal": ("..",),
    "payload:script": ("script", "javascript", "onerror", "onload", "onclick", "onmouseover", "onfocus", "onblur",
                       "onsubmit"),
    "payload:destructive": ("rm", ":(", "mkfs", "dd"),
}


_ALL_PAYLOADS = VALUE_PAYLOADS + TEXT_PAYLOADS

# filters past the gates (see toolcontract.security.gates.compile_filter): what each pattern's
# matches need, as words and substrings of the lower-cased text
_SHELL = ("rm cat curl wget nc ncat bash sh zsh chmod chown python perl ruby whoami id uname mkfifo /bin/ powershell "
          "cmd echo env printenv ls nslookup ping")
FILTERS = {
    "payload:shell-chain": ((_SHELL,),),
    "payload:substitution": ((_SHELL,),),
    "payload:sql": ((r"re:'\s*(?:or|and)\s", "="), ("union", "select"),
                    (";", "drop truncate delete", "table database from"), (r"re:'\s*;?\s*--",)),
    "payload:traversal": (("../ ..\\",),),
    "payload:destructive": ((r"re:rm\s+-",), (":()",), ("mkfs", "/dev/"), ("dd", "if=", "of=/dev/")),
}
NEEDS = {gate: compile_filter(alternatives) for gate, alternatives in FILTERS.items()}


class Payload(Record):
    __slots__ = ("start", "end", "what")

    def __init__(self, start: int, end: int, what: str):
        self.start, self.end, self.what = start, end, what


def find_payloads(text: str, value: bool) -> tuple[Payload, ...]:
    """Payloads of a string; `value` says whether it is a value the model may send."""
    return payloads_in(gated_view(text), value)


def payloads_in(view, value: bool) -> tuple[Payload, ...]:
    """find_payloads of the text of a gates.View."""
    opened = view.opened
    found = []
    for gate, what, expression in (_ALL_PAYLOADS if value else TEXT_PAYLOADS):
        if gate not in opened:
            continue
        needs = NEEDS.get(gate)
        if needs and not view.passes(needs):
            continue
        m = expression.pattern.search(view.text)
        if m:
            found.append(Payload(*view.original(m.start(), m.end()), what))
    return tuple(found)
