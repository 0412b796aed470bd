"""TC203 description-thin: the model-facing description says too little (under 80 characters) or gives
no usage guidance."""

from __future__ import annotations

import re
from typing import Iterator

from toolcontract.core.descriptor import CARD_FORMAT, ToolView, is_card_view, model_description
from toolcontract.lint.context import ToolContext
from toolcontract.core.rule import Bad, Good, Hit, Rule
from toolcontract.lint.rules.tc2_documentation.description import description_path
from toolcontract.lint.rules.tc2_documentation.examples import FULL
from toolcontract.core.model import Severity


MIN_CHARS = 80

# a description this long is never thin; a shorter one is thin when it says less than
# MIN_CHARS or gives no usage guidance. CJK characters carry more per character: their limits
# are their own, and a text that mixes scripts is measured by its share of each (see _size).
ENOUGH_CHARS, ENOUGH_CJK = 200, 60
MIN_CJK = 25

# Han, kana, Hangul, their compatibility and extension blocks, and CJK punctuation and full-width forms
# (first, last). Counted by a loop: a regex class of these ranges costs ~15 ms to compile.
_CJK_RANGES = (
    ("\u1100", "\u11ff"), ("\u3000", "\u30ff"), ("\u3130", "\u318f"), ("\u3400", "\u4dbf"),
    ("\u4e00", "\u9fff"), ("\uac00", "\ud7af"), ("\uf900", "\ufaff"), ("\uff00", "\uffef"),
)

# Usage guidance in English (see TC203's rationale): words, and phrases of words, of the lower-cased
# text; a set lookup rather than a regex, which would cost ~2 ms of every run to compile.
_GUIDANCE_WORDS = frozenset(
    # when and why to use it, or not
    "use uses used using useful when whenever if before after instead only unless otherwise never avoid "
    "prefer prefers preferred suitable don't doesn't "
    # what it returns or produces
    "return returns returned returning give gives output outputs result results response produce produces "
    "paginated pagination "
    # what the inputs mean, and their constraints
    "must should require requires required optional optionally maximum minimum format formats formatted".split()
)
_GUIDANCE_PHRASES = (
    "do not", "does not", "rather than", "per page", "for example", "for instance", "such as", "at most",
    "at least", "up to", "default to", "defaults to", "by default", "limited to", "need to", "needs to",
    "has to", "have to",
    *(f"{fit} {to}" for fit in ("ideal", "perfect", "great", "best", "good", "meant", "intended", "designed",
                                "helpful", "handy", "useful") for to in ("for", "when")),
)
_WORD = r"[a-z]+(?:'[a-z]+)?"

# Docstring sections (Google, NumPy, Sphinx, JSDoc): they say what the inputs and the result are
_DOCSTRING_SECTIONS = (
    r"(?m)^[ \t]*(?:args|arguments|parameters|params|keyword args|returns?|raises|yields|examples?)[ \t]*(?::|\n[ \t]*-{3,})"
    r"|:param\b|:returns?:|@param\b|@returns?\b"
)

# Usage guidance in Chinese, Japanese and Korean, found anywhere (no word breaks to find them at);
# and 当 / 當 ("when") with 时 / 時 after it
_GUIDANCE_CJK = (
    # zh: use for / use / suited / if / before, after / do not / only / must / optional / returns / result / e.g. / default
    "用于", "用來", "用来", "使用", "适用", "適用", "如果", "若", "之前", "之后", "之後", "不要", "请勿", "請勿", "勿", "仅",
    "僅", "只能", "只有", "必须", "必須", "需要", "可选", "可選", "返回", "输出", "輸出", "结果", "結果", "例如", "比如",
    "默认", "默認",
    # ja: when / use / returns / before, after / do not / only / required / e.g. / default / output
    "場合", "とき", "時に", "使う", "使います", "返す", "返します", "返却", "前に", "後に", "ないで", "のみ", "だけ", "必要",
    "例えば", "デフォルト", "出力",
    # ko: use / when / returns / before, after / do not / not / required / e.g. / default / result / output
    "사용", "경우", "때", "반환", "전에", "후에", "하지 마", "마세요", "않", "필요", "필수", "예:", "예를 들어", "기본값",
    "결과", "출력",
)


RULE = Rule(
    id="TC203",
    name="description-thin",
    severity=Severity.WARNING,
    summary="The model-facing description says too little (under 80 characters) or gives no usage guidance.",
    rationale=(
        "The description is all a model knows about a tool besides its schema: what the tool does, when to "
        "use it and when not, what it returns, what its inputs mean. The text checked is `description`, or "
        "the one built from purpose, when_to_use and non_goals when no description is given; a docstring "
        "counts whole, its `Args:` / `Returns:` (`Parameters`, `:param`) sections included.\n\n"
        "It judges content, not sentences:\n\n"
        "- 200 characters or more (CJK text: 60) is never thin;\n"
        "- under 80 characters (CJK text: 25) is thin: a name's worth of words (`Get details of a specific "
        "issue.`) tells a model nothing the name did not;\n"
        "- in between, a description is thin unless it gives *usage guidance*: when or why to use the tool "
        "or not (use, when, if, before, after, instead, only, unless, do not, avoid, prefer, best for), what "
        "it returns or produces (returns, gives, outputs, results, response, paginated), or what its inputs "
        "mean and allow (must, should, requires, optional, e.g., for example, such as, at most, up to, "
        "defaults to, limited to, format; a docstring section; a parameter named in quotes or as an "
        "identifier such as `issue_number`). Chinese, Japanese and Korean text is read with markers of "
        "their own (用于, 使用, 返回, 如果, 当…时, 不要, 仅; 場合, 返します, のみ; 사용, 경우, 반환). Text "
        "in another language is judged by its length alone. Listing the inputs (\"given a city and a date\") "
        "is not guidance: the schema already names them.\n\n"
        "A text that mixes CJK with other characters is measured by its share of each limit (30 CJK "
        "characters and 100 others reach the 200 / 60 limit).\n\n"
        "On an A2A Agent Card, the card's own description is held to the length floor only: an agent is "
        "asked in natural language and has no input schema to explain, so \"when to use it, what its "
        "inputs mean\" is asked of its skills instead, by TC908 skill-undocumented (a description of 80 "
        "characters and examples), which judges each skill's description in this rule's place: one short "
        "description is one finding, not two."
    ),
    examples=(
        Bad("toolcontract: 1\nname: weather_current\neffect: read\ndescription: Gets weather.\n", line=4, column=14,
            message="is only 13 characters (want at least 80)"),
        Bad("toolcontract: 1\nname: issue_get\neffect: read\ndescription: Get the title, body, state, labels, "
            "assignees and milestone of one issue in a GitHub repository.\n", line=4, column=14,
            message="gives no usage guidance", note="long enough, but no usage guidance"),
        Bad("toolcontract: 1\nname: weather_current\neffect: read\ndescription: 获取天气。\n", line=4, column=14,
            message="only 5 characters of CJK text", note="CJK: under 25 characters"),
        Good(FULL),
        Good("toolcontract: 1\nname: issue_get\neffect: read\ndescription: Get one issue in a GitHub repository. "
             "Use it when the user names an issue number; it returns the title, body and labels.\n"),
        Good("toolcontract: 1\nname: weather_current\neffect: read\ndescription: 查询指定城市的当前天气。"
             "当用户询问现在的天气时使用，返回温度、湿度和风速。\n", note="CJK, with guidance"),
        Good("toolcontract: 1\nname: weather_current\neffect: read\ndescription: |\n  Get the current weather.\n\n"
             "  Args:\n    city: City name, as the user wrote it.\n    units: metric or imperial.\n",
             note="a docstring: its sections count, and are guidance"),
    ),
)


def check(ctx: ToolContext) -> Iterator[Hit]:
    tool = ctx.tool
    card = tool.format == CARD_FORMAT
    if card and not is_card_view(tool):
        return  # an Agent Card's skill: TC908 judges its description (and asks for examples)
    text = model_description(tool)
    if not text or len(text) >= ENOUGH_CHARS:
        return  # TC201 reports a missing purpose; 200 characters are enough in any script
    other, cjk = _size(text)
    if other * ENOUGH_CJK + cjk * ENOUGH_CHARS >= ENOUGH_CHARS * ENOUGH_CJK:
        return
    chars = other + cjk
    if other * MIN_CJK + cjk * MIN_CHARS < MIN_CHARS * MIN_CJK:
        if cjk * 2 >= chars:
            size = f"only {chars} character{'s' * (chars != 1)} of CJK text (want at least {MIN_CJK})"
        else:
            size = f"only {chars} character{'s' * (chars != 1)} (want at least {MIN_CHARS})"
        advice = ("say what the agent does, for whom, and what it can be asked" if card else
                  "say what the tool does, when to use it and when not, what it returns, and what its inputs mean")
        yield Hit(description_path(tool), f"the model-facing description is {size}: {advice}")
    elif not card and usage_guidance(tool, text) is False:
        yield Hit(
            description_path(tool),
            f"the model-facing description ({chars} characters) gives no usage guidance: say when to use the "
            "tool or not (\"Use it when ...\", \"Do not use it for ...\"), what it returns (\"Returns ...\"), "
            "or what its inputs mean and allow (\"`limit` is at most 100\")",
        )


def _cjk_guidance(text: str) -> bool:
    if any(marker in text for marker in _GUIDANCE_CJK):
        return True
    for when, then in (("当", "时"), ("當", "時")):
        at = text.find(when)
        while at >= 0:
            if then in text[at + 1:at + 26]:
                return True
            at = text.find(when, at + 1)
    return False


# Words that tell English from other Latin-script languages, for which there are no markers: a text
# is read as English when it has more of the first than of the second (words both share are in neither)
_ENGLISH_WORDS = frozenset(
    "the an of to and or in on for with from by as at this that these is are it its which be into your you".split()
)
_OTHER_WORDS = frozenset(
    """
    el la los las del y que en un una por para con es al lo se
    le les des du et est une pour avec dans sur au aux ce qui
    der die das und ist ein eine mit für von zu den dem des nicht
    os da do não em um uma il di che gli della
    """.split()
)


def _identifier_like(name: str) -> bool:
    """A name no prose word is: snake_case, with a digit, or camelCase (`issue_number`, `page2`, `perPage`)."""
    return "_" in name or any(c.isdigit() for c in name) or (name[:1].islower() and not name.islower())


def _size(text: str) -> tuple[int, int]:
    """Characters of a text: (not CJK, CJK)."""
    if text.isascii():
        return len(text), 0
    cjk = 0
    for char in text:
        if char >= "\u1100":
            for first, last in _CJK_RANGES:
                if first <= char <= last:
                    cjk += 1
                    break
    return len(text) - cjk, cjk


def _names_an_input(tool: ToolView, text: str) -> bool:
    """Whether the text names a parameter of the input schema: quoted, or an identifier no prose word is
    (`issue_number`, `perPage`, `page2`); such a text says what the input is for."""
    schema = tool.get("input_schema")
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return False
    for name in properties:
        if not isinstance(name, str) or len(name) < 2 or name not in text:
            continue
        if any(q + name + q in text for q in ("`", "'", '"')):
            return True
        if _identifier_like(name) and _names(text, name):
            return True
    lower = None
    for spec in properties.values():  # two values of one enum named: the text explains the choices
        values = spec.get("enum") if isinstance(spec, dict) else None
        if isinstance(values, list) and len(values) > 1:
            lower = text.lower() if lower is None else lower
            named = 0
            for value in values[:64]:
                value = value.lower() if isinstance(value, str) and len(value) > 2 else ""
                if value and value in lower and _names(lower, value):
                    named += 1
                    if named == 2:
                        return True
    return False


def _joins(char: str) -> bool:
    """Whether a character (or "" at an end) continues a word: a letter, a digit, `_` or `-`."""
    return char != "" and (char.isalnum() or char in "_-")


def _names(text: str, word: str) -> bool:
    """Whether `word` occurs in the text as a word of its own (not inside a longer word or hyphenated one)."""
    at = text.find(word)
    while at >= 0:
        end = at + len(word)
        if not _joins(text[at - 1:at]) and not _joins(text[end:end + 1]):
            return True
        at = text.find(word, at + 1)
    return False


def _english_guidance(lower: str) -> bool:
    words = re.findall(_WORD, lower.replace("\u2019", "'"))
    if not _GUIDANCE_WORDS.isdisjoint(words) or "e.g." in lower or "i.e." in lower:
        return True
    joined = f" {' '.join(words)} "
    return any(f" {phrase} " in joined for phrase in _GUIDANCE_PHRASES)


def _docstring_sections(lower: str) -> bool:
    if not any(mark in lower for mark in ("arg", "param", "return", "raise", "yield", "example", "@")):
        return False
    return re.search(_DOCSTRING_SECTIONS, lower) is not None


def usage_guidance(tool: ToolView, text: str) -> bool | None:
    """Whether a description gives usage guidance (see TC203's rationale); None when it is written in a
    language there are no markers for (no CJK, and no more English words than words of other languages)."""
    lower = text.lower()
    if _english_guidance(lower) or _docstring_sections(lower) or _names_an_input(tool, text):
        return True
    cjk = _size(text)[1] > 0
    if cjk:
        return _cjk_guidance(text)
    english = other = 0
    for word in re.findall(r"[^\W\d_]+", lower):
        if word in _ENGLISH_WORDS:
            english += 1
        elif word in _OTHER_WORDS:
            other += 1
    return False if english > other else None
