"""API keys and tokens by their published formats, plus a careful assignment heuristic.

Formats (each anchored on the provider's fixed prefix, so a random word never matches):

| kind | format |
|---|---|
| AWS access key id | `AKIA`/`ASIA`/`ABIA`/`ACCA` + 16 upper-case letters or digits |
| GitHub token | `ghp_`/`gho_`/`ghu_`/`ghs_`/`ghr_` + 36 or more, or `github_pat_` + 22 or more |
| GitLab token | `glpat-` + 20 |
| OpenAI / Anthropic key | `sk-` (optionally `proj-`, `ant-api03-`, ...) + 20 or more, with letters and digits |
| Stripe key | `sk_live_` / `rk_live_` / `sk_test_` + 24 or more |
| Slack token | `xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-` + 10 or more; a `hooks.slack.com/services/` URL |
| Google API key | `AIza` + 35 |
| Hugging Face / npm token | `hf_` + 34 letters; `npm_` + 36 |
| SendGrid key | `SG.` + 22 + `.` + 43 |
| private key | a `-----BEGIN ... PRIVATE KEY-----` block |
| JWT | three base64url parts, the first two starting `eyJ` (a JSON object) |
| bearer token | `Bearer ` + 20 or more token characters with letters and digits |
| assignment | `api_key=`, `secret:`, `token=`, `password:` ... + a value of 16 or more characters that mixes letters and digits, is not a placeholder (`YOUR_API_KEY`, `<token>`, `xxxx`, `${VAR}`) and has at least 3.5 bits of entropy per character |

A finding never repeats the secret: it shows the first four characters and the length.
"""

from __future__ import annotations

import math
import re

from toolcontract.security.gates import view as gated_view
from toolcontract.security.lazy import Lazy
from toolcontract.security.records import Record

# (kind, substrings one of which every match contains, pattern)
_FORMATS: tuple[tuple[str, tuple[str, ...], Lazy], ...] = tuple(
    (kind, needles, Lazy(pattern)) for kind, needles, pattern in (
        ("an AWS access key id", ("AKIA", "ASIA", "ABIA", "ACCA"), r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b"),
        ("a GitHub token", ("hp_", "ho_", "hu_", "hs_", "hr_", "github_pat_"),
         r"\bgh[pousr]_[A-Za-z0-9]{36,255}\b|\bgithub_pat_[A-Za-z0-9_]{22,255}\b"),
        ("a GitLab token", ("glpat-",), r"\bglpat-[A-Za-z0-9_-]{20,}\b"),
        ("a Stripe key", ("k_live_", "k_test_"), r"\b[sr]k_(?:live|test)_[0-9A-Za-z]{24,}\b"),
        ("an OpenAI or Anthropic API key", ("sk-",), r"\bsk-(?:(?:proj|svcacct|admin|ant-api\d\d|ant-admin\d\d)-)?"
                                                     r"(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}"),
        ("a Slack token", ("xox", "hooks.slack"),
         r"\bxox[abposr]-[A-Za-z0-9-]{10,}|hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/[A-Za-z0-9]+"),
        ("a Google API key", ("AIza",), r"\bAIza[0-9A-Za-z_-]{35}\b"),
        ("a Hugging Face token", ("hf_",), r"\bhf_[A-Za-z]{34}\b"),
        ("an npm token", ("npm_",), r"\bnpm_[A-Za-z0-9]{36}\b"),
        ("a SendGrid key", ("SG.",), r"\bSG\.[\w-]{22}\.[\w-]{43}\b"),
        ("a private key", ("PRIVATE KEY",), r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"),
        ("a JSON Web Token", ("eyJ",), r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    ))
_BEARER = Lazy(r"\bBearer\s+([A-Za-z0-9._~+/-]{20,}=*)")
_ASSIGNMENT = Lazy(
    r"(?i:\b(?:api[_-]?key|apikey|secret(?:[_-]?key)?|client[_-]?secret|access[_-]?(?:key|token)|auth[_-]?token|"
    r"token|password|passwd|pwd)\b)\s*[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9_\-./+]{16,}={0,2})"
)
# what every _ASSIGNMENT match holds, in lower-cased text (the name ends with one of these words)
_ASSIGNED = Lazy(r"(?:key|secret|token|password|passwd|pwd)\s*[\"']?\s*[:=]")
_PLACEHOLDER = Lazy(r"your|example|sample|placeholder|dummy|changeme|redacted|xxxx|\*\*\*|<|\$\{|\{\{|test", re.I)


class SecretMatch(Record):
    __slots__ = ("start", "end", "kind", "value")

    def __init__(self, start: int, end: int, kind: str, value: str):
        self.start, self.end, self.kind, self.value = start, end, kind, value

    @property
    def redacted(self) -> str:
        return f"{self.value[:4]}… ({len(self.value)} characters)"


def entropy(text: str) -> float:
    """Shannon entropy in bits per character."""
    counts: dict[str, int] = {}
    for c in text:
        counts[c] = counts.get(c, 0) + 1
    n = len(text)
    return -sum(k / n * math.log2(k / n) for k in counts.values())


def _credible(value: str) -> bool:
    return (any(c.isdigit() for c in value) and any(c.isalpha() for c in value)
            and not _PLACEHOLDER.pattern.search(value) and entropy(value) >= 3.5)


# gates (see toolcontract.security.gates): a substring of every format, and the words of the
# assignment heuristic
GATES = {
    # the words the formats start with (a word is a run of letters: `ghp_x1` holds `ghp`), and
    # the prefixes glued to what follows (`AKIAZ7...`, `AIzaSy...`, `eyJhbG...`) as substrings
    "secret:format": ("ghp", "gho", "ghu", "ghs", "ghr", "github & pat", "glpat", "sk|rk & live|test", "sk", "xoxa",
                      "xoxb", "xoxo", "xoxp", "xoxr", "xoxs", "hooks & slack", "hf", "npm", "sg", "private & key",
                      "bearer", "=akia", "=asia", "=abia", "=acca", "=aiza", "=eyj"),
    "secret:assignment": ("key", "apikey", "secret", "token", "password", "passwd", "pwd", "passphrase"),
}


def find_secrets(text: str) -> tuple[SecretMatch, ...]:
    if len(text) < 16:
        return ()
    return secrets_in(text, gated_view(text))


def secrets_in(text: str, view) -> tuple[SecretMatch, ...]:
    """find_secrets of a text (16 characters or more) and its gates.View."""
    opened = view.opened
    quick = "secret:format" in opened
    assignment = "secret:assignment" in opened and ("=" in text or ":" in text)
    if assignment and view.low is not None and _ASSIGNED.pattern.search(view.low) is None:
        assignment = False  # no key word right before a `:` or `=`: the assignment cannot match
    if not quick and not assignment:
        return ()
    found: list[SecretMatch] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, kind: str, value: str) -> None:
        if not any(s < end and start < e for s, e in taken):
            taken.append((start, end))
            found.append(SecretMatch(start, end, kind, value))

    if quick:
        for kind, needles, pattern in _FORMATS:
            for needle in needles:
                if needle in text:
                    for m in pattern.pattern.finditer(text):
                        add(m.start(), m.end(), kind, m.group())
                    break
        if "Bearer" in text:
            for m in _BEARER.pattern.finditer(text):
                if _credible(m.group(1)):
                    add(m.start(1), m.end(1), "a bearer token", m.group(1))
    if assignment:
        for m in _ASSIGNMENT.pattern.finditer(text):
            if _credible(m.group(1)):
                add(m.start(1), m.end(1), "a credential assigned in the text", m.group(1))
    return tuple(sorted(found, key=lambda s: s.start))
