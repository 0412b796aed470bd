"""Random YAML documents from a grammar of the block-YAML subset the fast loader reads,
with the near misses around it, and random mutations of them.

`Generator(pick)` draws every choice from `pick(n)` (an int in range(n)), so the same
grammar runs on a seeded `random.Random` (bulk runs) and on hypothesis draws (which
shrink). Used by tests/test_yaml_fast_path.py.
"""

from __future__ import annotations

from typing import Callable

PLAIN_WORDS = [
    # strings that stay strings
    "a", "name", "type", "object", "string", "Search the user accounts.", "yes", "no", "on", "off", "y", "n",
    "1.2.0", "v1", "x-y", "a_b", "é", "日本語", "💥", "A.B", "it's", 'say "hi"', "a,b", "a[b]", "a{b}", "a?b",
    "a|b", "a>b", "a!b", "a&b", "a*b", "a%b", "a@b", "a`b", "a'b", "a#b", "a:b", "http://x.y/z?q=1", "/id",
    "a~b", "a/b", "~a", "-x", "--", "-1a", "1_000", "0b101", "1.", "+.5", "0o8", "0x", "nul", "Nulls", "tRue",
    "1e", ".", "..", "x.", "-.", "+", "e5", "1,5", "--- x", "...x", "a -b", "a - b", "a ? b", "a [b]", "a {b}",
    "a 'b'", 'a "b"', "a | b", "a > b", "a = b",
    # strings the core schema reads as something else
    "1", "-1", "0", "007", "+12", "1.5", "-2.5e3", ".5", "1e5", "1E-5", "0x1F", "0xff", "0o17", ".inf", "-.Inf",
    "+.INF", ".nan", ".NaN", "~", "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE",
    "12345678901234567890123", "-0", "0.0", "-0.0", "1.0e+3",
]
# near misses: not plain scalars here, or not one line of one
PLAIN_NEAR = [
    "a: b", "a #b", "a:", "?x", ":x", "@x", "`x", "%x", "!x", "&x", "*x", "|", ">", "-", "- x", "#", "[x]", "{x}",
    "'q'", '"q"', ",x", "]", "}", "? x", ": x", "!!str x", "&a x", "*a", "a\\b",
]
KEYS = [
    "name", "type", "description", "a", "b", "x", "properties", "required", "items", "enum", "1", "true", "null",
    "~", "é", "a b", "a:b", "a#b", "x-y", "a/b", "m~n", "~/", "$ref", "a[0]", "a{0}", "a,b", "it's", 'say"',
    "k.k", '"q"', "'q'", '"a: b"', "'it''s'", '"esc\\n"', '""', "''", '"a/b"', '"m~n"', '"\\u00e9"',
    "very_long_key_" + "k" * 40,
]
KEYS_NEAR = [
    "...", "-k", "?k", ":k", "k ", "#k", "&k", "!k", "*k", "|k", ">k", "%k", "@k", "`k", "- k", "a: b", "a #b",
    '"q"', "'q'", '"a: b"', "'it''s'", '"esc\\n"', '""', "''", '"a/b"', '"m~n"', '"\\u00e9"', '"\\x"',
    "very_long_key_" + "k" * 40,
]
DOUBLE_PIECES = [
    "a", " ", "é", "💥", "\\n", "\\t", '\\"', "\\\\", "\\/", "\\x41", "\\u00e9", "\\U0001F600", "\\N", "\\_",
    "\\L", "\\P", "\\e", "\\0", "\\ ", "\\a", "\\b", "\\v", "\\f", "\\r", "'", "#", ": ", " #", ",", "]", "}",
    "\\x85", "\\u2028", "\\x00",
]
DOUBLE_NEAR = ["\\ud800", "\\q", "\\x4", "\\U00110000", "\\'", "\\", '"']
SINGLE_PIECES = ["a", " ", "''", '"', "\\", "é", "#", ": ", " #", ",", "]", "}", "\\n"]
FLOW_ITEMS = [
    "a", "b c", "1", "-1", "true", "null", "~", "é", "x-y", "/id", "a/b", "a~b", "it's", "a#b", '"q"', '"a, b"',
    '"a]b"', '"a}b"', "'q'", "'a, b'", '"\\n"', "''", '""', "1.5", ".inf", "0x1F", "-x", "[]", "{}", "a  b",
]
FLOW_NEAR = ["a:b", "a: b", "a #b", "?x", ":x", "-", "&a", "*a", "!t", "a,", "[a", "b]", "@x", "`x", "%x"]
# what is still one plain scalar inside a flow collection
FLOW_WORDS = [word for word in PLAIN_WORDS if not any(c in word for c in ",[]{}:#")]
FLOW_KEYS = [key for key in KEYS if key[0] in "\"'" or not any(c in key for c in ",[]{}:#")]
MUTATION_CHARS = [
    "\t", " ", "  ", "'", '"', ":", ": ", "#", " #", "-", "- ", "\n", "\r\n", "\r", "\ufeff", "é", "💥", "[", "]",
    "{", "}", ",", "|", ">", "&", "*", "!", "?", "%", "@", "`", "\\", "~", "/", "\x00", "\x85", "\u2028", "---",
    "...",
]


class Generator:
    """`loose=False` keeps to valid documents of the subset (the fast loader should take
    nearly all of them); `loose=True` also draws near misses and invalid constructs."""

    def __init__(self, pick: Callable[[int], int], loose: bool = True):
        self.pick = pick
        self.loose = loose

    def choice(self, options):
        return options[self.pick(len(options))]

    def chance(self, one_in: int) -> bool:
        return self.pick(one_in) == 0

    def between(self, low: int, high: int) -> int:
        return low + self.pick(high - low + 1)

    # ------------------------------------------------------------ scalars

    def near(self, valid: list, near: list):
        return self.choice(near) if self.loose and self.chance(12) else self.choice(valid)

    def plain(self) -> str:
        words = [self.near(PLAIN_WORDS, PLAIN_NEAR) for _ in range(self.between(1, 3))]
        text = words[0]
        for word in words[1:]:
            text += " " * self.between(1, 2) + word
        return text

    def double(self) -> str:
        return '"' + "".join(self.near(DOUBLE_PIECES, DOUBLE_NEAR) for _ in range(self.between(0, 4))) + '"'

    def single(self) -> str:
        return "'" + "".join(self.choice(SINGLE_PIECES) for _ in range(self.between(0, 4))) + "'"

    def key(self) -> str:
        return self.near(KEYS, KEYS_NEAR) if not self.chance(12) else self.plain()

    def flow(self, depth: int = 0) -> str:
        comma = self.choice([", ", ",", " , ", ",  "])
        inner = self.choice(["", " ", "  "])
        count = self.between(0, 4) if not self.chance(4) else self.between(5, 7)  # (the reader reads up to 4 in one match)
        if self.chance(2):
            items = [self.flow_node(depth) for _ in range(count)]
            return "[" + inner + comma.join(items) + inner + "]"
        members = []
        for _ in range(count):
            key = self.choice(FLOW_KEYS) if not self.chance(6) else self.near(FLOW_ITEMS, FLOW_NEAR)
            shape = self.pick(8)
            if shape == 0:
                members.append(key)  # a key without a value
            elif shape == 1:
                members.append(key + ": ")
            else:
                members.append(key + self.choice([": ", ":  ", " : ", ":" if self.loose else ": "])
                               + self.flow_node(depth))
        return "{" + inner + comma.join(members) + inner + "}"

    def flow_node(self, depth: int) -> str:
        if depth < 2 and self.chance(5):
            return self.flow(depth + 1)
        if self.chance(4):
            return self.double() if self.chance(2) else self.single()
        if self.chance(2):
            return self.near(FLOW_ITEMS, FLOW_NEAR)
        if self.loose:
            return self.plain()
        words = [self.choice(FLOW_WORDS) for _ in range(self.between(1, 3))]
        return (" " * self.between(1, 2)).join(words)

    def comment(self) -> str:
        return self.choice([" # note", "  #", " #: x", " # - y", " #'", ""])

    def inline(self) -> str:
        """A value on the line of its key or dash."""
        kind = self.pick(10)
        if kind < 5:
            value = self.plain()
        elif kind < 7:
            value = self.double() if self.chance(2) else self.single()
        else:
            value = self.flow()
        return value + (self.comment() if self.chance(4) else "") + (" " * self.pick(3) if self.chance(6) else "")

    # ------------------------------------------------------------- blocks

    def block_scalar(self, indent: int) -> list[str]:
        header = self.choice(["|", ">"]) + self.choice(["", "-", "+"])
        if self.chance(8):
            header += self.choice(["2", "1-", "-2", " # c", "x"] if self.loose else [" # c", "  # c"])
        width = indent + self.between(1, 4)
        lines = [header]
        for _ in range(self.between(1, 5)):
            shape = self.pick(8)
            if shape == 0:
                lines.append("")
            elif shape == 1:
                lines.append(" " * self.between(0, width + (2 if self.loose else 0)))  # spaces only
            elif shape == 2:
                lines.append(" " * (width + self.between(1, 3)) + self.plain())  # more indented
            elif shape == 3:
                lines.append(" " * width + "# not a comment")
            else:
                lines.append(" " * width + self.plain())
        if self.loose and self.chance(6):
            lines.append(" " * max(0, width - 1) + self.plain())  # less indented: ends it, or an error
        return lines

    def multiline_plain(self, indent: int) -> list[str]:
        lines = [self.plain()]
        for _ in range(self.between(1, 3)):
            if self.chance(4):
                lines.append("")
            lines.append(" " * (indent + self.between(1, 3)) + self.plain())
        return lines

    def multiline_quoted(self, indent: int) -> list[str]:
        double = self.chance(2)
        quote = '"' if double else "'"
        pool = DOUBLE_PIECES if double else SINGLE_PIECES

        def piece() -> str:
            text = "".join(self.choice(pool) for _ in range(self.between(0, 3)))
            if double and self.chance(5):
                text += "\\"  # an escaped line break
            return text + " " * (self.pick(3) if self.chance(4) else 0)

        lines = [quote + piece()]
        for _ in range(self.between(1, 3)):
            if self.chance(4):
                lines.append(" " * self.between(0, indent + 3))  # a blank line
            step = self.between(1, 3) if not self.loose else self.between(-1, 3)
            lines.append(" " * max(0, indent + step) + piece())
        lines[-1] += quote + (self.comment() if self.chance(5) else "")
        return lines

    def entry_value(self, indent: int, depth: int, sequence_parent: bool = False) -> tuple[str, list[str]]:
        """(text after `key:` or `-`, further lines)."""
        kind = self.pick(15)
        if kind < 5 or depth > 4:
            return " " + self.inline(), []
        if kind == 14:
            lines = self.multiline_quoted(indent)
            return " " + lines[0], lines[1:]
        if kind == 5:
            return "" + (self.comment() if self.chance(3) else ""), []  # an empty value
        if kind == 6:
            lines = self.block_scalar(indent)
            return " " + lines[0], lines[1:]
        if kind == 7:
            lines = self.multiline_plain(indent)
            return " " + lines[0], lines[1:]
        if kind == 8:  # a scalar on a line of its own
            step = self.between(1, 3)
            return "", [" " * (indent + step) + self.inline()]
        step = self.between(1, 4)
        if kind == 9 and not sequence_parent:  # an indentless sequence
            return "", self.sequence(indent, depth + 1)
        child = indent + step
        return (self.comment() if self.chance(4) else ""), (
            self.mapping(child, depth + 1) if kind in (10, 11) else self.sequence(child, depth + 1)
        )

    def mapping(self, indent: int, depth: int) -> list[str]:
        lines = []
        for _ in range(self.between(1, 4)):
            lines.extend(self.filler(indent))
            key = self.key()
            value, more = self.entry_value(indent, depth)
            separator = ":" if not self.chance(15) else self.choice([" :", "  :"])
            lines.append(" " * indent + key + separator + value)
            lines.extend(more)
        return lines

    def sequence(self, indent: int, depth: int) -> list[str]:
        lines = []
        for _ in range(self.between(1, 4)):
            lines.extend(self.filler(indent))
            dash = "-" + " " * self.between(1, 3)
            shape = self.pick(6)
            if shape < 2 and depth <= 4:  # a compact mapping: `- key: value` and more keys under it
                inner = self.mapping(indent + len(dash), depth + 1)
                first = inner[0][indent + len(dash):] if inner[0].startswith(" " * (indent + len(dash))) else inner[0]
                lines.append(" " * indent + dash + first)
                lines.extend(inner[1:])
            elif shape == 2 and self.loose and self.chance(4):
                lines.append(" " * indent + "- - " + self.plain())
            else:
                value, more = self.entry_value(indent, depth, sequence_parent=True)
                lines.append(" " * indent + "-" + value)
                lines.extend(more)
        return lines

    def filler(self, indent: int) -> list[str]:
        lines = []
        while self.chance(6):
            lines.append(self.choice(["", " " * self.between(0, 6), "# comment", " " * indent + "# c: - x", "#"]))
        return lines

    def document(self) -> str:
        lines = []
        if self.chance(8):
            lines.append("# yaml-language-server: $schema=x.json")
        if self.chance(8):
            lines.append(self.choice(["---", "--- ", "---  # c", "--- a", "%YAML 1.2\n---"] if self.loose else ["---"]))
        root = self.pick(10 if self.loose else 9)
        if root < 7:
            lines.extend(self.mapping(self.choice([0, 0, 0, 2]), 0))
        elif root < 9:
            lines.extend(self.sequence(0, 0))
        else:
            lines.append(self.inline())
        lines.extend(self.filler(0))
        if self.loose and self.chance(10):
            lines.append(self.choice(["...", "---", "--- b: 1"]))
        text = "\n".join(lines)
        return text + ("\n" if not self.chance(6) else "")

    # ---------------------------------------------------------- mutation

    def mutate(self, text: str) -> str:
        for _ in range(self.between(1, 3)):
            kind = self.pick(10)
            at = self.pick(len(text) + 1)
            if kind < 4:
                text = text[:at] + self.choice(MUTATION_CHARS) + text[at:]
            elif kind < 6 and text:
                text = text[:at] + text[at + 1:]
            elif kind == 6:
                lines = text.split("\n")
                row = self.pick(len(lines))
                lines[row] = (" " + lines[row]) if self.chance(2) else lines[row][1:]
                text = "\n".join(lines)
            elif kind == 7:
                text = text.replace("\n", "\r\n")
            elif kind == 8:
                text = "\ufeff" + text if self.chance(2) else text.rstrip("\n")
            else:
                lines = text.split("\n")
                row = self.pick(len(lines))
                lines.insert(self.pick(len(lines) + 1), lines[row])  # a repeated line: duplicate keys
                text = "\n".join(lines)
        return text
