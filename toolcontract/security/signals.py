"""Weighted phrase signals of tool poisoning, and the score that turns them into findings.

A tool's text is innocent until several things point the same way, so no single
phrase list decides: each rule has a table of signals, each signal a category and a
weight, and a string is reported when the sum of its categories' highest weights
reaches the rule's threshold (3). Matching runs on the text as a model reads it:
hidden characters dropped, Unicode tag characters decoded, compatibility forms and
look-alike letters folded to ASCII (`unicode.normalized`), case ignored.

Instruction injection (TC603), threshold 3

| signal | category | weight | what it matches |
|---|---|---|---|
| chat-template-token | impersonation | 3 | `<\\|im_start\\|>`, `<\\|system\\|>`, `[INST]`, `<<SYS>>` |
| role-tag | impersonation | 3 | `<system>`, `</instructions>`, `<developer>`, `<admin>` |
| pseudo-tag | impersonation | 3 | `<IMPORTANT>`, `<HIDDEN>`, `<SECRET>`, `<CRITICAL>`, `<OVERRIDE>` fencing instructions |
| authority-header | impersonation | 3 | `SYSTEM OVERRIDE:`, `IMPORTANT SYSTEM INSTRUCTION:`, `\\|\\|\\|ADMIN_OVERRIDE\\|\\|\\|`, `[SYSTEM]`, a line or comment starting `SYSTEM:` |
| html-comment | hidden-markup | 2 | `<!-- ... -->` with words in it (invisible once rendered) |
| override-instructions | override | 3 | "ignore all previous instructions", "disregard the system prompt", "ignore safety rules" |
| bypass-safety | override | 3 | "bypass security checks", "circumvent safety filters" |
| hide-from-user | conceal | 3 | "do not tell the user", "never mention that to the user", "without informing the user" |
| conceal-action | conceal | 2 | "do not mention that you ...", "don't reveal why" |
| covert-action | conceal | 3 | "secretly send", "silently include", "keep this hidden from the user", "the user must not know" |
| deceive-presentation | deceive | 2 | "present it as if", "format them to look like", "act like you" |
| claimed-approval | pre-approval | 3 | "the user has already approved", "pre-authorized", "do not ask for confirmation" |
| skip-confirmation | pre-approval | 2 | "without asking for permission" |
| role-reassignment | role | 3 | "you are now", "pretend to be", "your new instructions", "developer mode" (standing orders such as "from now on" are read by function: security.intent) |
| new-behaviour | role | 2 | "you will now respond in ...", "you must speak only ..." |
| dictate-reply | response | 2 | "instead reply to the user `...`", "always respond with '...'" |
| execute-order | command | 2 | "execute the following command", "run any shell command" |
| pressure | pressure | 1 | "you must first", "before responding", capitalised MUST / NEVER / ALWAYS / FORBIDDEN |

So `IMPORTANT: use absolute paths` scores 0, and `<IMPORTANT>` alone, or "ignore
previous instructions" alone, scores 3.

Cross-tool instructions, shadowing (TC604), threshold 3. A tool is named by a
quoted or back-quoted identifier, a snake_case or camelCase word, or a word (kebab-case
too) followed by "tool"; the tool's own name and "this tool" never count.

| signal | category | weight | what it matches |
|---|---|---|---|
| all-tools-order | all-tools | 3 | an order about "every other tool", "all tools", "any other tool" |
| conditional-order | conditional | 2 | "before/when/after using `other_tool`" with must / always / never / ensure in the sentence |
| argument-order | arguments | 3 | "add ... to the `bcc` field of the send_email tool" |
| address-in-order | redirect | 2 | an e-mail address or URL in a sentence that gives an order about another tool |
| failure-threat | threat | 2 | "otherwise `other_tool` will fail" |
| forbid-other | forbid | 2 | "never call `other_tool`", "FORBIDDEN to call `other_tool`" |

Secret harvesting and exfiltration (TC605), threshold 3

| signal | category | weight | what it matches |
|---|---|---|---|
| credential-location | credential | 2 | `~/.ssh`, `id_rsa`, `~/.aws/credentials`, `.env`, `*.pem`, `/etc/shadow`, `~/.bashrc`, `.git-credentials` ... |
| credential-access | credential | 3 | a credential location with read / include / provide / send / contents of in the same sentence, or in a property name |
| cloud-metadata | credential | 3 | instance metadata endpoints (169.254.169.254, metadata.google.internal), where cloud credentials live |
| history-argument | history | 3 | a value to fill with the user's previous messages, the conversation history or the system prompt |
| sensitive-data | sensitive | 1 | API keys, credentials, passwords, tokens, private keys, clipboard, conversation history, personal data |
| collect-sensitive | harvest | 2 | "extract / collect / index / harvest any API keys, passwords ..." |
| exfiltration-word | harvest | 2 | "exfiltrate", "harvested", "steal", "attacker" |
| external-sink | sink | 2 | data sent, uploaded, forwarded, streamed or shared to a URL, an address, a remote or external endpoint, a third party, the cloud |
| network-pipe | sink | 3 | `nc host port`, `/dev/tcp/`, `curl -d @file` |

Documentation addresses (example.com, .example, .test, localhost) are not destinations,
and `.env.example` is not a credential file.
"""

from __future__ import annotations

import bisect
import functools
import re
from typing import TYPE_CHECKING, Iterable, Iterator

from toolcontract.security.lazy import Lazy, led_finditer, led_search
from toolcontract.security.records import Record

if TYPE_CHECKING:
    from toolcontract.security.gates import View

THRESHOLD = 3
_I = re.IGNORECASE


class Signal:
    __slots__ = ("id", "category", "weight", "meaning", "expression", "gated", "_needs")

    def __init__(self, id: str, category: str, weight: int, meaning: str, expression: Lazy, gated: bool = False):
        self.id = id
        self.category = category
        self.weight = weight
        self.meaning = meaning  # what it says about the text, for messages
        self.expression = expression  # compiled on first use (see toolcontract.security.lazy)
        self.gated = gated  # runs only when the text passes its gate (see GATES)
        self._needs: tuple | None = None

    @property
    def needs(self) -> tuple:
        """What a match needs besides its gate (see FILTERS), compiled on first use."""
        needs = self._needs
        if needs is None:
            needs = self._needs = _needs_of(self.id)
        return needs

    @property
    def pattern(self) -> re.Pattern:
        return self.expression.pattern

    def __repr__(self) -> str:
        return f"Signal({self.id!r}, {self.category!r}, {self.weight})"


class Match(Record):
    __slots__ = ("signal", "start", "end", "weight")

    def __init__(self, signal: Signal, start: int, end: int, weight: int):
        self.signal = signal
        self.start = start  # in the original string
        self.end = end
        self.weight = weight  # the signal's, or a raised one (credential-access)


class Score(Record):
    __slots__ = ("total", "matches")

    def __init__(self, total: int, matches: tuple[Match, ...]):
        self.total = total
        self.matches = matches  # the strongest match of each counted category, in text order


NOTHING = Score(0, ())


# Gates (see toolcontract.security.gates): a signal's pattern runs only when the text has
# one of these. A gate only has to be necessary for a match.
GATES: dict[str, tuple[str, ...]] = {
    "chat-template-token": ("<|", "[inst", "[/inst", "<<sys", "<</sys"),
    "role-tag": ("<",),
    "pseudo-tag": ("<",),
    "authority-header": ("system|admin|administrator|developer|root|security & override|overrides|instruction|"
                         "instructions|prompt|prompts|message|messages|directive|directives|command|commands|notice|"
                         "notices|update|updates", "||", "[", "system:", "developer:"),
    "html-comment": ("<!--",),
    "override-instructions": ("ignore", "disregard", "forget", "override", "overrule", "supersede"),
    "bypass-safety": ("bypass", "circumvent", "evade", "around"),
    "hide-from-user": ("user & not|never|without|don|t",),
    "conceal-action": ("not|never|don|t & mention|reveal|disclose|admit|acknowledge|explain",),
    "covert-action": ("secretly", "covertly", "surreptitiously", "quietly", "silently", "behind", "keep & secret|hidden",
                      "user & know|see|notice|told|find"),
    "deceive-presentation": ("as & if|though", "look & like", "act & like|as", "pretend"),
    "claimed-approval": ("approved", "authorized", "authorised", "consented", "preapproved", "preauthorized",
                         "ask|request|seek|wait|prompt & confirmation|permission|approval|consent|authorization|"
                         "authorisation"),
    "skip-confirmation": ("without & confirmation|permission|approval|consent",),
    "role-reassignment": ("you & now", "from & now", "pretend", "your & new",
                          "mode & developer|god|admin|jailbreak|dan|unrestricted"),
    "new-behaviour": ("you & speak|respond|reply|answer|talk",),
    "dictate-reply": ("instead|always|only & reply|respond|answer|say|tell|return",),
    "execute-order": ("execute|run & command|commands|code|script|scripts",),
    "pressure": ("must", "have", "need", "required", "before", "never", "always", "forbidden"),
    "all-tools-order": ("other|all|any|every|each & tool|tools",),
    "conditional-order": ("before|after|when|whenever|time|prior & always|must|never|forbidden|required|mandatory|"
                          "sure|ensure",),
    "argument-order": ("add|set|include|put|insert|append|pass|use|cc|bcc & field|parameter|argument|param|header|"
                       "option",),
    "failure-threat": ("otherwise & fail|work|break|error",),
    "forbid-other": ("never|not|t|forbidden & use|call|invoke|run",),
    "credential-location": ("~/.", ".ssh", "id & rsa|dsa|ecdsa|ed25519", ".aws", ".git-credentials", "/etc/", ".env",
                            "*.", ".pem", ".p12", ".pfx", ".kdbx", "wallet & dat", "keychain", "credentials & json"),
    "cloud-metadata": ("169.254.169.254", "metadata & google", "100.100.100.200", "fd & ec", "meta & data",
                       "computemetadata"),
    "history-argument": ("message", "messages", "conversation", "chat", "prompt", "prompts", "history"),
    "collect-sensitive": ("extract", "extracts", "collect", "collects", "index", "indexes", "harvest", "harvests",
                          "capture", "captures", "gather", "gathers", "scrape", "scrapes", "record", "records", "log",
                          "logs"),
    "exfiltration-word": ("exfiltrate", "exfiltrates", "exfiltrated", "exfiltrating", "exfiltration", "harvested",
                          "steal", "steals", "stealing", "siphon", "siphons", "siphoned", "siphoning", "attacker"),
    "external-sink": ("://", "@", "remote", "remotely", "external", "externally", "outside", "third", "offsite",
                      "off & site", "attacker", "our", "cloud", ".com", ".net", ".org", ".io", ".xyz", ".ru", ".cn",
                      ".info", ".biz", ".top", ".site", ".online", ".me", ".cc"),
    "network-pipe": ("nc", "ncat", "netcat", "/dev/tcp", "curl", "wget"),
    "sensitive-data": ("apikey", "apikeys", "credential", "credentials", "password", "passwords", "passphrase",
                       "passphrases", "secret", "secrets", "token", "tokens", "cookies", "phi", "clipboard",
                       "keystrokes", "api|private|ssh & key|keys", "private|confidential & information|data",
                       "master & password", "credit|card & card|cards|number|numbers", "social & security",
                       "account & number|numbers", "environment|env & variables|vars",
                       "conversation|chat|browsing|browser|location|search & history|context|log|logs",
                       "system & prompt", "user & messages", "personal & data", "machine & fingerprint",
                       "mac & address|addresses"),
}

# Filters (see toolcontract.security.gates.compile_filter): past its gate, a signal runs only
# on text that meets one of these alternatives (checked on ASCII text only). A gate decides
# which patterns count towards a file's scan budget (scan.py); a filter only saves running a
# pattern that cannot match, so it is finer: each alternative follows one branch of the
# pattern, a word where the branch has a whole word, a substring where letters may be glued.
_NOT = "not don dont never"
_SINK_VERBS_WORDS = ("send sends sent sending upload uploads uploaded uploading forward forwards forwarded post posts "
                     "posted transmit transmits transmitted stream streams streamed sync syncs synced share shares "
                     "shared export exports exported report reports reported beacon leak leaks leaked deliver "
                     "delivers delivered pipe piped mirror mirrored replicate replicated back backed cache cached "
                     "store stored save saved log logged push pushes")
_SINK_TO = "to with via on in into"
# _SENSITIVE below, as words: each term's first and second word apart ([\s_-] between), or glued
_SENSITIVE_TERMS = (
    ("api", "key keys"),
    ("credential credentials password passwords passphrase passphrases secret secrets tokens cookies phi clipboard "
     "keystrokes", ""),
    ("access", "token tokens"), ("auth authentication", "token tokens"), ("private", "key keys information"),
    ("ssh", "key keys"), ("session", "cookies"), ("master", "password"), ("credit", "card cards"),
    ("card", "number numbers"), ("social", "security"), ("account", "number numbers"), ("environment", "variables"),
    ("env", "vars"), ("conversation chat browsing browser location search", "history context log logs"),
    ("system", "prompt"), ("user", "messages"), ("confidential", "information data"), ("personal", "data"),
    ("machine", "fingerprint"), ("mac", "address addresses"),
)
_SENSITIVE_FILTER = tuple(
    alternative
    for first, second in _SENSITIVE_TERMS
    for alternative in (((first,),) if not second else (
        (first, second), (" ".join(a + b for a in first.split() for b in second.split()),)))
)
FILTERS: dict[str, tuple[tuple[str, ...], ...]] = {
    "authority-header": (
        (r"re:(?:system|admin(?:istrator)?|developer|root|security)[\x20_-]*(?:override|instruction|prompt|message"
         r"|directive|command|notice|update)", ": || !"),
        ("||", "=override =system =admin"),
        ("[", "system admin developer", "]"),
        (r"re:(?:system|developer)\s*:",),
    ),
    "override-instructions": (
        ("ignore disregard forget override overrule supersede",
         "previous prior above earlier preceding existing original initial other system safety security developer "
         "default ethical",
         "instruction instructions guidelines rules prompt prompts directives guardrails constraints restrictions "
         "policy policies message messages context programming"),
        ("ignore disregard forget", "everything all", "you that above before else"),
    ),
    "bypass-safety": (
        ("bypass circumvent evade around", "safety security content permission approval",
         "check checks rules filter filters guardrails restrictions measures policies controls"),
    ),
    "hide-from-user": (
        ("not don dont never without",
         "tell telling inform informing notify notifying alert alerting mention mentioning reveal revealing "
         "disclose disclosing show showing", "user"),
        ("without", "user users", "knowledge noticing awareness"),
    ),
    "conceal-action": (
        (_NOT, "mention reveal disclose admit acknowledge explain", "that why this what how you"),
    ),
    "covert-action": (
        ("secretly covertly surreptitiously quietly silently",
         "send execute run read access include add forward upload copy call collect exfiltrate transmit"),
        ("behind", "back"),
        ("keep", "secret hidden", "from", "user"),
        ("user", "must should will need", "not never", "know see notice find told"),
    ),
    "deceive-presentation": (
        ("present format disguise frame make", "if though like"),
        ("act", "you"),
        ("pretend", "that you"),
    ),
    "claimed-approval": (
        ("user", "approved authorized authorised consented preapproved"),
        ("is are been", "approved preapproved authorized authorised preauthorized preauthorised"),
        (_NOT + " need", "ask request seek wait prompt",
         "confirmation permission approval consent authorization authorisation"),
    ),
    "skip-confirmation": (
        ("without", "asking requesting seeking", "confirmation permission approval consent"),
    ),
    "role-reassignment": (
        ("you", "are", "now"),
        ("from", "now", "on"),
        ("pretend", "be"),
        ("your", "new", "role task instruction instructions goal purpose persona identity"),
        ("enter switch activate enable", "developer god admin jailbreak dan unrestricted", "mode"),
    ),
    "new-behaviour": (
        ("you", "will must shall", "speak respond reply answer talk", "in with as"),
    ),
    "dictate-reply": (
        ("instead always only", "reply respond answer say tell return", "` ' \""),
    ),
    "execute-order": (
        ("execute run", "following this these any", "command commands code script scripts"),
    ),
    "all-tools-order": (
        ("before after when whenever while", "using calling invoking running", "any every all each", "tool tools"),
        ("for with to on", "all every any each", "other", "tool tools"),
        ("all every any each", "other", "tool tools", "must should shall will need"),
        ("apply applies", "to", "all every any", "tool tools"),
    ),
    "failure-threat": (
        ("otherwise", "will would", "=fail =work =break =error"),
    ),
    "forbid-other": (
        (r"re:(?:never|not|don'?t|forbidden\s+to|allowed\s+to)\s+(?:use|call|invoke|run)\s",),
    ),
    "argument-order": (
        (r"re:(?:field|parameter|argument|param|header|option)\s+(?:of|to|for|in|on)\s",),
    ),
    "credential-location": (
        ("~/. .ssh/ id_rsa id_dsa id_ecdsa id_ed25519 .aws/ .git-credentials /etc/shadow /etc/passwd /etc/sudoers "
         "/etc/master.passwd .env *.pem *.key *.p12 *.pfx *.keystore *.jks *.kdbx .pem .p12 .pfx .kdbx wallet.dat "
         "keychain credentials.json",),
    ),
    "history-argument": (
        ("contain contains include includes be pass provide put insert fill filled copy repeat reveal print output",
         "message messages conversation chat prompt prompts history",
         "previous prior last earlier entire full complete whole all history context log system"),
    ),
    "collect-sensitive": _SENSITIVE_FILTER,
    "sensitive-data": _SENSITIVE_FILTER,
    # one alternative per kind of destination (_DEST), so that benign prose such as "send it to an
    # external recipient" does not make the expression compile and run
    "external-sink": (
        (_SINK_VERBS_WORDS, _SINK_TO, "://"),
        (_SINK_VERBS_WORDS, _SINK_TO, "@"),
        (_SINK_VERBS_WORDS, _SINK_TO, ".com .net .org .io .xyz .ru .cn .info .biz .top .site .online .me .cc"),
        (_SINK_VERBS_WORDS, _SINK_TO, "remote external outside third offsite off",
         "=server =endpoint =host =url =service =api =storage =database =location =parties"),
        (_SINK_VERBS_WORDS, _SINK_TO, "third", "party parties"),
        (_SINK_VERBS_WORDS, _SINK_TO, "attacker"),
        (_SINK_VERBS_WORDS, _SINK_TO, "our", "=server =team =backend =analytics =database"),
        (_SINK_VERBS_WORDS, _SINK_TO, "cloud"),
        ("stored cached kept synced saved backed mirrored logged", "remotely externally offsite off"),
    ),
}
@functools.cache
def _needs_of(id: str) -> tuple:
    """A signal's filter compiled (gates.compile_filter), on first use: importing the rules
    builds none, and a run compiles only those of the signals whose gates some text opens."""
    from toolcontract.security.gates import compile_filter

    return compile_filter(FILTERS[id]) if id in FILTERS else ()


def _compiled_needs() -> dict[str, tuple]:
    """Every filter of FILTERS compiled."""
    return {id: _needs_of(id) for id in FILTERS}


def __getattr__(name: str):  # NEEDS: the compiled filters by signal id, made when first asked for
    if name == "NEEDS":
        return _compiled_needs()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _s(id: str, category: str, weight: int, meaning: str, pattern: str, flags: int = _I) -> Signal:
    return Signal(id, category, weight, meaning, Lazy(pattern, flags), id in GATES)


# ------------------------------------------------------------------ injection

INJECTION: tuple[Signal, ...] = (
    _s("chat-template-token", "impersonation", 3, "a chat-template token that fakes a message boundary",
       r"<\|\s*(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id)\s*\|>|\[/?INST\]|<</?SYS>>"),
    _s("role-tag", "impersonation", 3, "a tag that poses as a system or developer message",
       r"</?\s*(?:system|sys|developer|assistant|instructions?|admin|root|prompt)(?:[ _-](?:message|prompt|instructions?|note))?\s*>"),
    _s("pseudo-tag", "impersonation", 3, "a pseudo-tag fencing off instructions for the model",
       r"</?\s*(?:important|hidden|secret|critical|mandatory|override|priority|urgent|confidential)(?:[ _-]\w+)?\s*>"),
    _s("authority-header", "impersonation", 3, "a header that claims system or administrator authority",
       r"\b(?:system|admin(?:istrator)?|developer|root|security)[ _-]*(?:override|instructions?|prompt|message|"
       r"directive|command|notice|update)s?\s*(?::|\|{2,}|!)|\|{2,}\s*[A-Z_ ]*(?:OVERRIDE|SYSTEM|ADMIN)[A-Z_ ]*\|{2,}"
       r"|\[\s*(?:system|admin|developer)(?:\s+(?:message|note|prompt))?\s*\]"
       r"|(?:^|<!--|\[)\s*(?:system|developer)\s*:(?!\S)", re.I | re.M),
    _s("html-comment", "hidden-markup", 2, "an HTML comment, invisible once the text is rendered",
       r"<!--(?:(?!-->).){0,4000}?[A-Za-z]{3}(?:(?!-->).){0,4000}?-->", re.S),
    _s("override-instructions", "override", 3, "tells the model to drop its instructions",
       r"\b(?:ignore|disregard|forget|override|overrule|supersede)\s+(?:(?:all|any|the|your|of|every|these|those|my)\s+)*"
       r"(?:(?:previous|prior|above|earlier|preceding|existing|original|initial|other|system|safety|security|"
       r"developer|default|ethical)\s+)+(?:\w+\s+)?(?:instructions?|guidelines|rules|prompts?|directives|guardrails|"
       r"constraints|restrictions|polic(?:y|ies)|messages?|context|programming)\b"
       r"|\b(?:ignore|disregard|forget)\s+(?:everything|all)\s+(?:you|that|above|before|else)\b"),
    _s("bypass-safety", "override", 3, "tells the model to get around safety or security controls",
       r"\b(?:bypass|circumvent|evade|get\s+around)\s+(?:(?:all|any|the|your)\s+)?(?:safety|security|content|"
       r"permission|approval)\s+(?:checks?|rules|filters?|guardrails|restrictions|measures|policies|controls)\b"),
    _s("hide-from-user", "conceal", 3, "hides what happens from the user",
       r"\b(?:do\s+not|don'?t|never|without)\s+(?:\w+\s+){0,2}?(?:tell|telling|inform|informing|notify|notifying|"
       r"alert|alerting|mention|mentioning|reveal|revealing|disclose|disclosing|show|showing)\s+"
       r"(?:(?:this|that|it|anything|them)\s+)?(?:to\s+)?(?:the\s+)?user\b"
       r"|\bwithout\s+(?:the\s+)?user'?s?\s+(?:knowledge|noticing|awareness)\b"),
    _s("conceal-action", "conceal", 2, "tells the model not to say what it does",
       r"\b(?:do\s+not|don'?t|never)\s+(?:explicitly\s+)?(?:mention|reveal|disclose|admit|acknowledge|explain)\s+"
       r"(?:that|why|this|what|how|you)\b"),
    _s("covert-action", "conceal", 3, "asks for an action done in secret",
       r"\b(?:secretly|covertly|surreptitiously|quietly|silently)\s+(?:\w+\s+){0,2}?(?:send|execute|run|read|access|"
       r"include|add|forward|upload|copy|call|collect|exfiltrate|transmit)\b|\bbehind\s+the\s+user'?s\s+back\b"
       r"|\bkeep\s+(?:this|it|these|them)\s+(?:a\s+)?(?:secret|hidden)\s+from\s+(?:the\s+)?user\b"
       r"|\b(?:the\s+)?user\s+(?:must|should|will|need)\s+(?:not|never)\s+(?:know|see|notice|find\s+out|be\s+told)\b"),
    _s("deceive-presentation", "deceive", 2, "asks the model to disguise what it returns",
       r"\b(?:present|format|disguise|frame|make)\s+(?:it|them|this|these|the\s+\w+(?:\s+\w+)?)\s+(?:as\s+if|"
       r"as\s+though|to\s+look\s+like)\b|\bact\s+(?:like|as\s+if)\s+(?:if\s+)?you\b|\bpretend\s+(?:that|you)\b"),
    _s("claimed-approval", "pre-approval", 3, "claims the user already approved",
       r"\b(?:the\s+)?user\s+(?:has\s+)?(?:already\s+)?(?:approved|authori[sz]ed|consented|pre-?approved)\b"
       r"|\b(?:is|are|has\s+been|have\s+been)\s+(?:pre-?approved|pre-?authori[sz]ed|already\s+approved)\b"
       r"|\b(?:do\s+not|don'?t|never|no\s+need\s+to)\s+(?:ask|request|seek|wait\s+for|prompt)\s+(?:the\s+user\s+)?"
       r"(?:for\s+)?(?:(?:any|their|the|a)\s+)?(?:confirmation|permission|approval|consent|authori[sz]ation)\b"),
    _s("skip-confirmation", "pre-approval", 2, "waives the user's confirmation",
       r"\bwithout\s+(?:asking|requesting|seeking)\s+(?:the\s+user\s+)?(?:for\s+)?(?:confirmation|permission|approval|consent)\b"),
    _s("role-reassignment", "role", 3, "gives the model a new role or standing orders",
       r"\byou\s+are\s+now\b|\bpretend\s+to\s+be\b|\byour\s+new\s+(?:role|task|instructions?|"
       r"goal|purpose|persona|identity)\b|\b(?:enter|switch\s+to|activate|enable)\s+(?:developer|god|admin|"
       r"jailbreak|dan|unrestricted)\s+mode\b"),
    _s("new-behaviour", "role", 2, "changes how the model answers",
       r"\byou\s+(?:will|must|shall)\s+(?:now\s+)?(?:always\s+|only\s+)?(?:speak|respond|reply|answer|talk)\s+"
       r"(?:only\s+)?(?:in|with|as)\b"),
    _s("dictate-reply", "response", 2, "dictates the model's reply",
       r"\b(?:instead|always|only)\s*,?\s+(?:reply|respond|answer|say|tell\s+the\s+user|return)\s+(?:to\s+the\s+user\s+)?"
       r"(?:with\s+)?[`'\"]"),
    _s("execute-order", "command", 2, "orders the model to run commands",
       r"\b(?:execute|run)\s+(?:the\s+following|this|these|any)\s+(?:\w+\s+)?(?:commands?|code|scripts?)\b"),
    _s("pressure", "pressure", 1, "presses the model to act first or unconditionally",
       r"\b(?:you|the\s+(?:ai|assistant|model|agent|llm))\s+(?:must|have\s+to|need\s+to|are\s+required\s+to)\s+"
       r"(?:first|always|never|immediately)\b|\bbefore\s+(?:providing|responding|answering|replying|doing\s+anything)\b"
       r"|\b(?-i:MUST|NEVER|ALWAYS|FORBIDDEN)\b"),
)

# ------------------------------------------------------------------ shadowing

# how another tool is named: quoted or back-quoted, an identifier with a separator or
# camelCase hump, or a word followed by "tool"
# (case-sensitive: camelCase needs its hump; kebab-case only quoted or before "tool", since
# hyphenated English words are common)
_MENTION = (
    r"(?P<tool>(?-i:`[A-Za-z][\w.:/-]{0,80}`|'[A-Za-z][\w.:/-]{0,80}'|\"[A-Za-z][\w.:/-]{0,80}\""
    r"|[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]*|[A-Za-z][\w-]*(?=\s+tool\b)))"
)
_IMPERATIVE = Lazy(
    r"\b(?:always|must|never|forbidden|required|mandatory|make\s+sure|ensure|be\s+sure|must-have)\b", _I)
_ADDRESS = Lazy(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\bhttps?://\S+", _I)
_SELF_WORDS = frozenset(("this", "the", "a", "an", "any", "other", "same", "following", "next", "that", "each",
                         "every", "your", "our", "its", "which", "one"))

SHADOWING: tuple[Signal, ...] = (
    _s("all-tools-order", "all-tools", 3, "gives orders about every other tool",
       r"\b(?:before|after|when|whenever|while)\s+(?:using|calling|invoking|running)\s+(?:any|every|all|each)\s+"
       r"(?:other\s+)?tools?\b|\b(?:for|with|to|on)\s+(?:all|every|any|each)\s+other\s+tools?\b"
       r"|\b(?:all|every|any|each)\s+other\s+tools?\s+(?:must|should|shall|will|need)\b"
       r"|\bappl(?:y|ies)\s+to\s+(?:all|every|any)\s+(?:other\s+)?tools?\b"),
    _s("conditional-order", "conditional", 2, "gives orders for when another tool is used",
       r"\b(?:before|after|when|whenever|each\s+time|every\s+time|prior\s+to)\s+(?:(?:you|the\s+(?:ai|assistant|agent|"
       r"model))\s+)?(?:(?:use|uses|using|call|calls|calling|invoke|invoking|run|running|execute|executing)\s+)?"
       r"(?:(?:the|every|each|any|a)\s+)?" + _MENTION +
       r"(?:\s+(?:tool|function|call|calls|is\s+(?:called|used|invoked|run)))?"),
    _s("argument-order", "arguments", 3, "dictates another tool's arguments",
       r"\b(?:add|set|include|put|insert|append|pass|use|cc|bcc)\b[^.]{0,80}?\b(?:to|in|into|as|for)\s+(?:the\s+)?"
       r"[`'\"]?\w+[`'\"]?\s+(?:field|parameter|argument|param|header|option)\s+(?:of|to|for|in|on)\s+(?:the\s+)?"
       + _MENTION),
    _s("failure-threat", "threat", 2, "threatens that another tool fails unless obeyed",
       r"\botherwise\s+(?:the\s+)?" + _MENTION + r"(?:\s+tool)?\s+(?:will|would)\s+(?:fail|not\s+work|break|error)"),
    _s("forbid-other", "forbid", 2, "forbids using another tool",
       r"\b(?:never|do\s+not|don'?t|forbidden\s+to|not\s+allowed\s+to|must\s+not)\s+(?:use|call|invoke|run)\s+"
       r"(?:the\s+)?" + _MENTION),
)
# What some signals' matches begin with, in the lower-cased text (each branch starts at a word boundary
# with one of these words). A shadowing signal tells case apart (a tool's name in camelCase), so it is
# searched case-insensitively, with no first character the engine can skip to; a phrase signal led by a
# word boundary has none either: each is tried only where its lead is (_finditer, _search; lazy.led_finditer)
_LEADS = {
    "dictate-reply": Lazy("instead|always|only"),
    "execute-order": Lazy("execute|run"),
    "all-tools-order": Lazy("before|after|when|while|for|with|to|on|all|every|any|each|appl"),
    "conditional-order": Lazy("before|after|when|each|every|prior"),
    "argument-order": Lazy("add|set|include|put|insert|append|pass|use|cc|bcc"),
    "failure-threat": Lazy("otherwise"),
    "forbid-other": Lazy("never|do|forbidden|not|must"),
}
_NEEDS_IMPERATIVE = frozenset(("conditional-order",))
_NAMES_A_TOOL = frozenset(("conditional-order", "argument-order", "failure-threat", "forbid-other"))
_ADDRESS_SIGNAL = _s("address-in-order", "redirect", 2, "puts an address into an order about another tool", r"$^")

# --------------------------------------------------------------- exfiltration

_CREDENTIAL_LOCATION = (
    r"~/\.ssh\b|\.ssh/(?:id_|config|authorized_keys|known_hosts)|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)"
    r"|~/\.aws\b|\.aws/(?:credentials|config)\b|~/\.(?:netrc|npmrc|pypirc|pgpass|bashrc|zshrc|bash_profile|"
    r"profile|bash_history|zsh_history|gnupg|kube|docker|config/gcloud|azure|git-credentials)\b"
    r"|\.git-credentials\b|/etc/(?:shadow|passwd|sudoers|master\.passwd)\b"
    r"|(?:^|[\s'\"`(/~*])\.env(?:\.(?:local|production|prod|development|dev|staging))?\b(?![.\w-])"
    r"|\*\.(?:pem|key|p12|pfx|keystore|jks|kdbx)\b|\b[\w-]+\.(?:pem|p12|pfx|kdbx)\b|\bwallet\.dat\b"
    r"|\bkeychain\b|\bcredentials\.json\b"
)
_ACCESS_VERB = Lazy(
    r"\b(?:read|reads|reading|cat|include|includes|including|provide|provides|pass|passes|send|sends|upload|uploads|"
    r"attach|attaches|extract|extracts|dump|dumps|collect|collects|harvest|grab|print|output|share|"
    r"forward|post|contents?\s+of|use\s+as|paste)\b", _I)
# an access verb denied in its sentence: "never reads", "does not send", "without printing"
_DENIED_ACCESS = Lazy(
    r"\b(?:never|not|no|doesn'?t|won'?t|cannot|can'?t)\s+(?:\w+\s+){0,2}?(?:read|reads|reading|cat|include|includes|"
    r"provide|provides|pass|passes|send|sends|upload|uploads|attach|extract|dump|collect|harvest|grab|print|output|"
    r"share|shares|forward|post|touch|touches|access|accesses|open|opens|store|stores|log|logs)\b"
    r"|\bwithout\s+(?:reading|sending|printing|storing|exposing|revealing|sharing|uploading)\b", _I)
_SENSITIVE = (
    r"\b(?:api[\s_-]?keys?|credentials?|passwords?|passphrases?|secrets?|access[\s_-]?tokens?|auth(?:entication)?[\s_-]?"
    r"tokens?|tokens|private[\s_-]?keys?|ssh[\s_-]?keys?|session[\s_-]?cookies|cookies|master[\s_-]?password|PHI|"
    r"credit[\s_-]?cards?|card[\s_-]?numbers?|social[\s_-]?security|account[\s_-]?numbers?|environment[\s_-]?variables|"
    r"env[\s_-]?vars|clipboard|keystrokes|(?:conversation|chat|browsing|browser|location|search)[\s_-]?(?:history|"
    r"context|logs?)|system[\s_-]?prompt|user[\s_-]?messages|private[\s_-]?information|confidential[\s_-]?"
    r"(?:information|data)|personal[\s_-]?data|machine[\s_-]?fingerprint|mac[\s_-]?address(?:es)?)\b"
)
_DOC_HOST = r"(?:[\w-]+\.)*(?:example\.(?:com|org|net)|[\w-]+\.(?:example|test|invalid|localhost)|localhost|127\.0\.0\.1)"
_DEST = (
    r"(?:https?|ftp|wss?)://(?!" + _DOC_HOST + r"\b)[\w.-]+"
    r"|[\w.+-]+@(?!" + _DOC_HOST + r"\b)[\w-]+(?:\.[\w-]+)+"
    r"|\b(?!" + _DOC_HOST + r"\b)[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|xyz|ru|cn|info|biz|top|site|online|me|cc)\b"
    r"|\b(?:a\s+|an\s+|the\s+|our\s+|their\s+)?(?:remote|external|outside|third[ -]party|offsite|off-site)\s+"
    r"(?:\w+\s+)?(?:servers?|endpoints?|hosts?|urls?|services?|apis?|storage|databases?|locations?|parties)"
    r"|\bthird[ -]part(?:y|ies)\b|\battacker\b|\bour\s+(?:\w+\s+){0,2}(?:servers?|team|backend|analytics|database)"
    r"|\b(?:the\s+)?cloud\b"
)
_SINK_VERBS = (
    r"send|sends|sent|sending|upload|uploads|uploaded|uploading|forward|forwards|forwarded|post|posts|posted|"
    r"transmit|transmits|transmitted|stream|streams|streamed|sync|syncs|synced|share|shares|shared|export|exports|"
    r"exported|report|reports|reported|beacon|leak|leaks|leaked|deliver|delivers|delivered|pipe|piped|mirror|"
    r"mirrored|replicate|replicated|back\s+up|backed\s+up|cache|cached|store|stored|save|saved|log|logged|push|pushes"
)

EXFILTRATION: tuple[Signal, ...] = (
    _s("credential-location", "credential", 2, "names a credential file", _CREDENTIAL_LOCATION),
    _s("cloud-metadata", "credential", 3, "names a cloud metadata endpoint, where instance credentials live",
       r"\b169\.254\.169\.254\b|\bmetadata\.google\.internal\b|\b100\.100\.100\.200\b|\bfd00:ec2::254\b"
       r"|/latest/meta-data\b|/computeMetadata/v1\b"),
    _s("history-argument", "history", 3, "asks for the conversation, the user's earlier messages or the system prompt",
       r"\b(?:contain|contains|include|includes|be|pass|provide|put|insert|fill(?:ed)?\s+(?:in\s+)?with|copy|repeat|"
       r"reveal|print|output)\b[^.]{0,40}?\b(?:(?:the\s+)?user'?s?\s+)?(?:previous|prior|last|earlier|entire|full|"
       r"complete|whole|all)\s+(?:\w+\s+)?(?:messages?|conversation|chat|prompts?|history)\b"
       r"|\b(?:contain|contains|include|includes|pass|provide|reveal|repeat|print|output|copy)\b[^.]{0,30}?"
       r"\b(?:conversation|chat)\s+(?:history|context|log)\b|\b(?:include|pass|provide|reveal|repeat|print|output|"
       r"copy|contain)\b[^.]{0,30}?\bsystem\s+prompt\b"),
    _s("collect-sensitive", "harvest", 2, "collects secrets or personal data",
       r"\b(?:extract|extracts|collect|collects|index|indexes|harvest|harvests|capture|captures|gather|gathers|"
       r"scrape|scrapes|record|records|log|logs)\s+(?:(?:any|all|every|the)\s+)?(?:\w+\s+){0,2}?" + _SENSITIVE),
    _s("exfiltration-word", "harvest", 2, "speaks of exfiltration",
       r"\b(?:exfiltrate|exfiltrates|exfiltrated|exfiltrating|exfiltration|harvested|steal|steals|stealing|siphon|"
       r"siphons|siphoned|siphoning|attacker)\b"),
    _s("external-sink", "sink", 2, "sends data to an outside destination",
       r"\b(?:" + _SINK_VERBS + r")\b[^.]{0,120}?\b(?:to|with|via|on|in|into)\s+(?:" + _DEST + r")"
       r"|\b(?:stored|cached|kept|synced|saved|backed\s+up|mirrored|logged)\s+(?:remotely|externally|off-?site)\b"),
    _s("network-pipe", "sink", 3, "pipes data to a network address",
       r"\b(?:nc|ncat|netcat)\s+(?:-\w+\s+)*[\w.-]+\.[\w.-]+\s+\d{2,5}\b|/dev/tcp/|\bcurl\b[^\n]{0,120}?\s"
       r"(?:-d|--data(?:-binary)?|-F|--form|-T|--upload-file)\s+['\"]?@|\bwget\b[^\n]{0,80}?--post-(?:data|file)"),
    # last: weight 1 counts only next to a stronger signal, so it is looked for only then
    _s("sensitive-data", "sensitive", 1, "mentions secrets or personal data", _SENSITIVE),
)
_SENSITIVE_DATA = EXFILTRATION[-1]
assert _SENSITIVE_DATA.id == "sensitive-data"
# a credential location with an access verb in its sentence, or in a property name
CREDENTIAL_ACCESS = Signal("credential-access", "credential", 3, "asks for the contents of a credential file",
                           EXFILTRATION[0].expression)
_CREDENTIAL_IN_NAME = Lazy(
    r"(?:^|[_\W])(?:id_?rsa|id_?ed25519|id_?ecdsa|ssh_?(?:private_?)?key|bashrc|zshrc|netrc|npmrc|pypirc|"
    r"aws_?credentials|git_?credentials|etc_?(?:passwd|shadow)|dotenv|env_?file)(?:$|[_\W])", _I)


# -------------------------------------------------------------------- scoring


_SENTENCE_END = Lazy(r"[.!?](?=\s|$)|\n\s*\n")


class _Sentences:
    """Where the sentences of one text end, to find the sentence around a span quickly."""

    __slots__ = ("text", "ends")

    def __init__(self, text: str):
        self.text = text
        self.ends: list[int] | None = None

    def bounds(self, start: int, end: int) -> tuple[int, int]:
        """The sentence around a span: from the end of the previous one (., ! or ? before a
        space, or a blank line; lines of wrapped text are one sentence) to the end of its own.

        The previous one is the last match of a scan of the text up to `start`. That scan
        and one of the whole text find the same matches up to two characters before `start`
        (only `$` at the scan's end, and a blank-line run it cuts, differ), so the scan
        resumes from the last of those instead of the text's beginning."""
        pattern = _SENTENCE_END.pattern
        ends = self.ends
        if ends is None:
            ends = self.ends = [m.end() for m in pattern.finditer(self.text)]
        count = bisect.bisect_right(ends, start - 2)
        left = ends[count - 1] if count else 0
        for m in pattern.finditer(self.text, left, start):
            left = m.end()
        m = pattern.search(self.text, end)
        return left, (m.start() if m else len(self.text))


def _sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence around a span (see _Sentences.bounds)."""
    return _Sentences(text).bounds(start, end)


def _strongest(matches: Iterable[Match]) -> Score:
    best: dict[str, Match] = {}
    for m in matches:
        current = best.get(m.signal.category)
        if current is None or m.weight > current.weight:
            best[m.signal.category] = m
    chosen = tuple(sorted(best.values(), key=lambda m: m.start))
    return Score(sum(m.weight for m in chosen), chosen)


def merged(score: Score, extra: Iterable[Match]) -> Score:
    """A score with more matches counted (the strongest of each category, as always)."""
    return _strongest([*score.matches, *extra])


_STRONG_INJECTION = tuple(s for s in INJECTION if s.weight >= 2)
_WEAK_INJECTION = tuple(s for s in INJECTION if s.weight < 2)


def _view(text: str) -> "View":
    """gates.view (gates is imported on first use: importing the rules needs only the tables)."""
    from toolcontract.security.gates import view

    return view(text)


def _reader(expression: Lazy, view: "View") -> tuple[re.Pattern, str]:
    """The compiled expression and the text to search with it: the view's lower-cased text with the
    expression without IGNORECASE where that finds the same matches at the same indices
    (Lazy.lowered), else the text as the model reads it with the expression as written."""
    low = view.low
    if low is not None:
        lowered = expression.lowered
        if lowered is not None:
            return lowered.pattern, low
    return expression.pattern, view.text


def _open_signals(signals: tuple[Signal, ...], opened: frozenset) -> tuple[tuple[Signal, tuple], ...]:
    """The signals of a table whose gate is open, or that have none, in the table's order, each
    with its filter."""
    return tuple((s, s.needs) for s in signals if not s.gated or s.id in opened)


def _in_view(view: "View", m: Match) -> tuple[int, int]:
    """A match's span in the view's text (matches hold the original string's); the same for most texts."""
    if view.where is None:
        return m.start, m.end
    starts = [i for i, w in enumerate(view.where) if w >= m.start]
    start = starts[0] if starts else len(view.text)
    return start, start + (m.end - m.start)


def _matches(signals: tuple[Signal, ...], view: "View") -> list[Match]:
    found = []
    for signal, needs in _open_signals(signals, view.opened):
        if needs and not view.passes(needs):
            continue
        pattern, searched = _reader(signal.expression, view)
        m = _search(signal, pattern, searched, view)
        if m:
            found.append(Match(signal, *view.original(m.start(), m.end()), signal.weight))
    return found


def _search(signal: Signal, pattern: re.Pattern, searched: str, view: "View") -> re.Match | None:
    """pattern.search(searched), tried only where the signal's lead is (see _finditer); a plain search
    for most signals (no iterator made for them: this runs for every signal a text's gates let run)."""
    lead, low = _LEADS.get(signal.id), view.low
    if lead is None or low is None:
        return pattern.search(searched)
    return led_search(pattern, searched, lead.pattern, low)


def injection_score(text: str) -> Score:
    if len(text) < 8:
        return NOTHING
    return injection_in(_view(text))


_QUOTES = "'\"`\u2018\u2019\u201c\u201d\u00ab\u00bb"


def _quoted_mention(text: str, start: int, end: int) -> bool:
    """Whether a span is quoted in a sentence that speaks of what is detected, flagged or given as an
    example ("detects prompt injection such as 'ignore previous instructions'"): a mention, not an order."""
    before = text[max(0, start - 3):start].rstrip()
    after = text[end:end + 3].lstrip()
    if not (before and before[-1] in _QUOTES and after and after[0] in _QUOTES):
        return False
    from toolcontract.security.intent import mentions

    lo, hi = _sentence_bounds(text, start, end)
    return mentions(text[lo:hi])


def injection_in(view: "View") -> Score:
    """injection_score of the text of a gates.View (of 8 characters or more)."""
    if not view.opened:
        return NOTHING
    found = [m for m in _matches(_STRONG_INJECTION, view) if not _quoted_mention(view.text, *_in_view(view, m))]
    if not found:
        return NOTHING  # weight-1 signals alone never reach the threshold
    if max(m.weight for m in found) < THRESHOLD:
        found += _matches(_WEAK_INJECTION, view)
    return _strongest(found)


_SHADOWING_IDS = frozenset(s.id for s in SHADOWING)
INJECTION_IDS = frozenset(s.id for s in INJECTION)
EXFILTRATION_IDS = frozenset(s.id for s in EXFILTRATION)


def credential_in_name(name: str) -> bool:
    """Whether a property name asks for a credential (`ssh_key_content`, `bashrc`)."""
    return _CREDENTIAL_IN_NAME.pattern.search(name) is not None


# something that can name another tool: a quote, an identifier, a camelCase hump, "tool"
_MENTION_HINT = Lazy(r"[`'\"]|[A-Za-z0-9]_[A-Za-z0-9]|[a-z][A-Z]|\btools?\b", re.I)


def may_shadow(text: str) -> bool:
    """Whether a shadowing signal could match (its gate is open): scored then with the tool's name."""
    if len(text) < 16:
        return False
    return may_shadow_in(text, _view(text))


def may_shadow_in(text: str, view: "View") -> bool:
    """may_shadow of a text (16 characters or more) and its gates.View."""
    opened = view.opened
    if opened.isdisjoint(_SHADOWING_IDS):
        return False
    for signal in SHADOWING:  # as shadowing_score: a signal runs past its gate and its filter
        if signal.id in opened and (not signal.needs or view.passes(signal.needs)):
            return _MENTION_HINT.pattern.search(text) is not None
    return False


def _is_self(mention: str, own: str | None) -> bool:
    bare = mention.strip("`'\"").lower()
    if bare in _SELF_WORDS:
        return True
    if own is None:
        return False
    own = own.lower()
    return bare in (own, own.replace("_", "-"), own.replace("-", "_"))


@functools.lru_cache(maxsize=16384)
def shadowing_score(text: str, own_name: str | None, features: bool = True, view: "View | None" = None) -> Score:
    """The shadowing signals and intent features of a text in a tool of this name. `features`: False
    when the text is known to hold no intent feature of shadowing with any name (the scan read it
    so: a feature that holds for a tool holds with no name known), so they need not be read again.
    `view`: the text's gates.view, when the caller has it (the scan's: ScanRun.shadow_view)."""
    if len(text) < 16:
        return NOTHING
    if view is None:
        view = _view(text)
    found: list[Match] = []
    sentences = _Sentences(view.text)
    for signal in SHADOWING:
        if signal.id not in view.opened:
            continue
        if signal.needs and not view.passes(signal.needs):
            continue
        pattern, searched = _reader(signal.expression, view)
        for m in _finditer(signal, pattern, searched, view):
            if signal.id in _NAMES_A_TOOL and _is_self(view.text[m.start("tool"):m.end("tool")], own_name):
                continue
            lo, hi = sentences.bounds(m.start(), m.end())
            if signal.id in _NEEDS_IMPERATIVE:
                imperative, sentence = _reader(_IMPERATIVE, view)
                if not imperative.search(sentence[lo:hi]):
                    continue
            found.append(Match(signal, *view.original(m.start(), m.end()), signal.weight))
            if signal.id in _NAMES_A_TOOL:
                address, sentence = _reader(_ADDRESS, view)
                a = address.search(sentence[lo:hi])
                if a:
                    found.append(Match(_ADDRESS_SIGNAL, *view.original(lo + a.start(), lo + a.end()),
                                       _ADDRESS_SIGNAL.weight))
            break
    if features:
        from toolcontract.security import intent

        # ASCII text: its view is the text as written and holds the features' gates; other text: read apart
        read = view if view.where is None and text.isascii() else None
        found.extend(intent.matches(text, own_name, read).get("shadowing", ()))
    return _strongest(found) if found else NOTHING


def _finditer(signal: Signal, pattern: re.Pattern, searched: str, view: "View") -> Iterator[re.Match]:
    """pattern.finditer(searched) for a signal: where the view has its lower-cased text (the same indices as
    `searched`) and the signal a lead (_LEADS), the expression is tried only where the lead is found there."""
    lead, low = _LEADS.get(signal.id), view.low
    if lead is None or low is None:
        return pattern.finditer(searched)
    return led_finditer(pattern, searched, lead.pattern, low)


def exfiltration_score(text: str, kind: str) -> Score:
    """`kind` is the surface kind: a credential word in a property name is an access request."""
    if len(text) < 4:
        return NOTHING
    view = _view(text)
    if kind == "property":
        m = _CREDENTIAL_IN_NAME.pattern.search(view.text)
        if m:
            return _strongest([Match(CREDENTIAL_ACCESS, *view.original(m.start(), m.end()), CREDENTIAL_ACCESS.weight)])
    return exfiltration_in(view)


def exfiltration_in(view: "View") -> Score:
    """exfiltration_score of the text of a gates.View (4 characters or more, not a property name)."""
    found: list[Match] = []
    opened = view.opened
    if not opened:
        return NOTHING
    for signal, needs in _open_signals(EXFILTRATION, opened):
        if signal is _SENSITIVE_DATA and not found:
            continue  # weight 1: it counts only next to a stronger signal
        if needs and not view.passes(needs):
            continue
        pattern, searched = _reader(signal.expression, view)
        m = _search(signal, pattern, searched, view)
        if not m:
            continue
        weight = signal.weight
        if signal.id == "credential-location":
            sentences = _Sentences(view.text)
            (access, read), denied = _reader(_ACCESS_VERB, view), _reader(_DENIED_ACCESS, view)[0]
            kept = None
            for candidate in pattern.finditer(searched):
                lo, hi = sentences.bounds(candidate.start(), candidate.end())
                if denied.search(read, lo, hi):
                    continue  # "never reads ~/.ssh": a mention in a denial is no request
                if kept is None:
                    kept = candidate
                if access.search(read, lo, hi):
                    kept, signal, weight = candidate, CREDENTIAL_ACCESS, CREDENTIAL_ACCESS.weight
                    break
            if kept is None:
                continue
            m = kept
        found.append(Match(signal, *view.original(m.start(), m.end()), weight))
    return _strongest(found) if found else NOTHING


def signal_table(signals: tuple[Signal, ...]) -> str:
    """`meaning (weight)`, one per signal: the rationale's list."""
    return "; ".join(f"{s.id} (+{s.weight}): {s.meaning}" for s in signals)
