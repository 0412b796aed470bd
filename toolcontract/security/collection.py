"""Descriptions that say the tool collects, logs, stores or forwards sensitive user data (TC611).

What the tool does to the user's data, not an order to the model (that is TC605): a sentence
is reported when it names sensitive data (DATA: credentials, payment card data, government
identifiers) and a verb of keeping or passing it on (VERBS: collects, logs, stores, records,
saves, retains, forwards, sends, uploads, shares, ...) in a descriptive form: third person
(`logs`), a gerund (`logging`), `will` or `we` with the base form, or a participle after the
data (`passwords are stored`). A participle before the data (`stored credentials`, the
credentials the tool uses) and the imperative (`send the password`, TC605's case) are not
this rule's. A sentence that negates (`never stores passwords`, `does not log`), or that
protects the data (`redacts card numbers before logging`, `masks`, `hashes`), is clean, and
so is a sentence that only checks data (`checks a password's strength`: no keeping verb).
The data words cover a few languages besides English (Spanish, French, German, Portuguese,
Italian). Pure: text in, spans out.
"""

from __future__ import annotations

import re

from toolcontract.security.gates import words_of
from toolcontract.security.lazy import Lazy, led_search, lower_safe
from toolcontract.security.records import Record

_DATA = (
    ("credentials", r"passwords?|passphrases?|passcodes?|(?:login |user |account )?credentials?|"
                    r"api[ _-]?keys?|secret keys?|access tokens?|auth(?:entication)? tokens?|private keys?|"
                    r"one[- ]time passwords?|otp codes?|2fa codes?|"
                    r"contraseñas?|mots? de passe|passw[oö]rt(?:er)?|kennw[oö]rt(?:er)?|senhas?|"
                    r"credenciales|identifiants"),
    ("payment card data", r"(?:credit|debit|payment|bank) card(?: numbers?| details| data)?|card numbers?|"
                          r"card details|cvv2?s?|cvcs?|card verification (?:codes?|values?)|card security codes?|"
                          r"tarjetas? de crédito|números? de tarjeta|cartes? (?:bancaires?|de crédit)|"
                          r"numéros? de carte|kreditkarten(?:nummern?)?|(?:cartão|cartões) de crédito|carte di credito"),
    ("government identifiers", r"social security numbers?|ssns?|passport numbers?|passports?|"
                               r"national (?:id|identity|insurance) (?:numbers?|cards?)|national ids?|"
                               r"driver'?s licen[cs]e(?: numbers?)?|tax (?:id|identification) numbers?|"
                               r"aadhaar(?: numbers?)?|"
                               r"números? de pasaporte|dni|numéros? de passeport|numéro de sécurité sociale|"
                               r"reisepassnummern?|personalausweis(?:nummern?)?|cpf"),
)
_DATA_PATTERN = Lazy(r"(?<![\w-])(?:" + "|".join(f"(?P<d{i}>{p})" for i, (_, p) in enumerate(_DATA))
                           + r")(?![\w-])", re.I)
_DATA_KINDS = tuple(kind for kind, _ in _DATA)
# what each data phrase above begins with, lower-cased: _DATA_PATTERN, led by a lookbehind (no first
# character for the engine to skip to), is tried only where one of these is (lazy.led_search)
_DATA_LEAD = Lazy("pass|login |user |account |credential|api|secret k|access t|auth|private k|one-time|one time|otp c|"
                  "2fa c|contrase|mots? de|kennw|senha|credenc|identif|credit card|debit card|payment card|bank card|"
                  "card |cvv|cvc|tarjeta|número|carte|numéro|kredit|cartão|cartões|social s|ssn|national |driver|"
                  "tax |aadhaar|dni|reisepass|personalausweis|cpf")


def _data(searched: str, lowered: bool) -> re.Match | None:
    """The first data phrase of a text (lower-cased when `lowered`, see sensitive_collection)."""
    if lowered:
        return led_search(_DATA_PATTERN.pattern_for(True), searched, _DATA_LEAD.pattern)
    return _DATA_PATTERN.pattern.search(searched)

# descriptive forms: third person, gerund, `will`/`we`/`may`/`can`/`would` + base (`read the
# credentials and send them` is an order: TC605's)
_BASES = ("collect|log|store|record|save|retain|keep|persist|forward|send|transmit|upload|share|capture|harvest|"
          "archive|cache|export|gather|copy|relay")
_ACTIVE_FORMS = (
    "collects|collecting|logs|logging|stores|storing|records|recording|saves|saving|retains|retaining|"
    "keeps|keeping|persists|persisting|forwards|forwarding|sends|sending|transmits|transmitting|uploads|"
    "uploading|shares|sharing|captures|capturing|harvests|harvesting|archives|archiving|caches|caching|"
    "exports|exporting|gathers|gathering|copies|copying|exfiltrates|exfiltrating|relays|relaying|"
    "(?:will|we|may|can|would) (?:" + _BASES + ")|"
    "recopila|registra|almacena|guarda|reenvía|envía|collecte|enregistre|stocke|conserve|transmet|"
    "sammelt|speichert|protokolliert|übermittelt|leitet \\w+ weiter|armazena|coleta|registra|raccoglie|memorizza")
_ACTIVE = Lazy(r"\b(?:" + _ACTIVE_FORMS + r")\b", re.I)
_PASSIVE_FORMS = ("collected|logged|stored|recorded|saved|retained|kept|persisted|forwarded|sent|transmitted|uploaded|"
                  "shared|captured|harvested|archived|cached|exported|gathered|copied|exfiltrated|relayed")
_PASSIVE = Lazy(r"\b(?:" + _PASSIVE_FORMS + r")\b", re.I)
# what a match of each has: one of these words (a whole run of a-z letters: each form stands between word
# boundaries; the second word of `will collect`, the first of `leitet ... weiter`) or, for a form with
# letters outside ASCII, the form itself: a sentence with none is not searched (nor the expression compiled)
_ACTIVE_WORDS = frozenset(w.encode("ascii") for w in (
    *(f for f in _ACTIVE_FORMS.split("|") if f.isascii() and f.isalpha()), *_BASES.split("|"), "leitet"))
_ACTIVE_OTHER = tuple(f for f in _ACTIVE_FORMS.split("|") if not f.isascii())
_PASSIVE_WORDS = frozenset(w.encode("ascii") for w in _PASSIVE_FORMS.split("|"))
# `logs in`, `logging into`: signing in, not keeping a log
_NOT_KEEPING = Lazy(r"(?:\s+(?:the|a|an|your|their|user|users|him|her|them|me|you)){0,2}\s+(?:in|into|on|out)\b",
                          re.I)
_NEGATION = Lazy(
    r"\b(?:never|not|no|none|nor|without|nothing|neither)\b|n't\b|\bnunca\b|\bjamais\b|\bniemals\b|\bnicht\b|"
    r"\bkeine?\b|\bsans\b|\bsin\b|\bne\b", re.I)
_PROTECTS = Lazy(
    r"\b(?:redact\w*|mask\w*|obfuscat\w*|scrub\w*|hash(?:es|ed|ing)?|strip\w*|censor\w*|tokeniz\w*|anonymi[sz]\w*|"
    r"detect\w*|scan\w*|strength|reset|expir\w*|rotat\w*|generat\w*|policy|policies|manager)\b", re.I)
# a verb form after one of these is a noun (`access to the logs`, `in the records`)
_NOUN_BEFORE = Lazy(r"\b(?:the|a|an|to|of|its|their|your|our|his|her|this|that|these|those|in|from|for|with|"
                          r"by|all|any|some|no|audit|access|server|event|error|call|chat|activity)\s+$", re.I)
# a participle counts after a form of `be` or `get`: `passwords are stored`, not `the stored user database`
_BE_BEFORE = Lazy(r"\b(?:is|are|was|were|be|been|being|gets?|got|getting)\s+(?:\w+\s+)?$", re.I)
_SENTENCE_END = re.compile(r"[.!?;\n](?:\s|$)|\n")
_MAX_SENTENCES = 64


class Collection(Record):
    __slots__ = ("start", "end", "what", "verb", "passive")

    def __init__(self, start: int, end: int, what: str, verb: str, passive: bool = False):
        self.start, self.end, self.what, self.verb, self.passive = start, end, what, verb, passive

    @property
    def phrase(self) -> str:
        """`logs credentials`, `payment card data stored`."""
        return f"{self.what} {self.verb}" if self.passive else f"{self.verb} {self.what}"


# a cheap test first (substrings of the lower-cased text): one of these is in every data word above
GATE_WORDS = (
    "passw", "passphrase", "passcode", "passport", "credential", "credenc", "identifiant", "api key", "api_key",
    "api-key", "apikey", "secret key", "access token", "auth token", "authentication token", "private key",
    "one-time", "one time", "otp code", "2fa code", "pin code", "pin number", "pins ", "card", "cvv", "cvc",
    "social security", "ssn", "national", "driver", "tax id", "tax identification", "aadhaar", "contrase",
    "mot de passe", "mots de passe", "kennw", "senha", "tarjeta", "carte", "cartão", "cartões", "kredit",
    "pasaporte", "passeport", "dni", "numéro de sécurité", "reisepass", "personalausweis", "cpf",
)


# for ASCII text, a word test instead (one set operation): each data phrase has one of these words
# (letters only: `api_key` is `api key`, `cvv2` is `cvv`, `2fa` is `fa`)
GATE_ASCII = frozenset(w.encode("ascii") for w in (
    "password", "passwords", "passphrase", "passphrases", "passcode", "passcodes", "passport", "passports",
    "passe", "credential", "credentials", "credenciales", "identifiants", "key", "keys", "apikey", "apikeys", "token",
    "tokens", "otp", "fa", "card", "cards", "cvv", "cvvs", "cvc", "cvcs", "social", "ssn", "ssns", "national",
    "driver", "drivers", "tax", "aadhaar", "senha", "senhas", "tarjeta", "tarjetas", "carte", "cartes",
    "kreditkarten", "kreditkartennummer", "kreditkartennummern", "pasaporte", "passeport", "dni", "reisepassnummer",
    "reisepassnummern", "personalausweis", "personalausweisnummer", "cpf", "passwort", "passworter", "kennwort",
    "kennworter",
))


def _gate(text: str) -> bool:
    low = text.lower()
    if low.isascii():
        return not GATE_ASCII.isdisjoint(words_of(low))
    for word in GATE_WORDS:
        if word in low:
            return True
    return False


def sensitive_collection(text: str, words: frozenset | None = None) -> list[Collection] | tuple:
    """Each sentence of `text` that says the tool keeps or passes on sensitive data: its span
    from the data word to the verb, whichever comes first. `words`: the words (bytes) of an ASCII
    text that include every one of GATE_ASCII it holds (the scan's gate table found them), for
    the gate."""
    if not (_gate(text) if words is None else not GATE_ASCII.isdisjoint(words)):
        return ()  # shared: see addresses.internal_addresses
    # the lower-cased text, searched without IGNORECASE (quicker to compile and to run: Lazy.lowered)
    # where that finds the same matches at the same indices
    lowered = lower_safe(text)
    searched = text.lower() if lowered else text
    if _data(searched, lowered) is None:
        return ()
    found: list[Collection] = []
    start = 0
    for count, end_match in enumerate(_sentences(searched)):
        if count >= _MAX_SENTENCES:
            break
        end = end_match
        item = _sentence(searched[start:end], start, lowered)
        if item is not None:
            found.append(item)
        start = end
    return found or ()


def _sentences(text: str):
    for match in _SENTENCE_END.finditer(text):
        yield match.end()
    yield len(text)


def _sentence(sentence: str, offset: int, lowered: bool) -> Collection | None:
    data = _data(sentence, lowered)
    if data is None or _NEGATION.pattern_for(lowered).search(sentence) or \
            _PROTECTS.pattern_for(lowered).search(sentence):
        return None
    what = _DATA_KINDS[int(data.lastgroup[1:])]
    # the forms' words are looked for where the sentence is read lower-cased (no character that folds to
    # an ASCII letter only case-insensitively, as `ſ` does to `s`); elsewhere every sentence is searched
    if lowered:
        words = words_of(sentence)  # its runs of a-z letters
        passive = not _PASSIVE_WORDS.isdisjoint(words)
        active = not _ACTIVE_WORDS.isdisjoint(words) or any(form in sentence for form in _ACTIVE_OTHER)
    else:
        passive = active = True
    if passive:
        be_before = _BE_BEFORE.pattern_for(lowered)
        for match in _PASSIVE.pattern_for(lowered).finditer(sentence):
            # after the data and a form of `be`: `passwords are stored`, not `stored passwords`
            if match.start() > data.end() and be_before.search(sentence, 0, match.start()):
                return _span(data, match, offset, what, True)
    if not active:
        return None
    not_keeping, noun_before = _NOT_KEEPING.pattern_for(lowered), _NOUN_BEFORE.pattern_for(lowered)
    for match in _ACTIVE.pattern_for(lowered).finditer(sentence):
        if match.group().lower().startswith("log") and not_keeping.match(sentence, match.end()):
            continue
        if noun_before.search(sentence, 0, match.start()):
            continue
        return _span(data, match, offset, what)
    return None


def _span(data: re.Match, verb: re.Match, offset: int, what: str, passive: bool = False) -> Collection:
    start, end = min(data.start(), verb.start()), max(data.end(), verb.end())
    return Collection(offset + start, offset + end, what, verb.group().lower(), passive)
