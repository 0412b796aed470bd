"""Applying fixes (`lint --fix`) to a file's text: the edits rules describe on the data
(core.rule.FileEdit: a JSON pointer and an operation) made on the text, keeping everything else.

- Comment edits (TC009: a suppression removed, or rewritten with fewer codes) are made on the
  text's lines, at the comment's line and column.
- Data edits in YAML go through ruamel.yaml's round trip, which keeps comments, quotes, key order
  and layout, and only when the file survives the round trip byte for byte unedited (its layout is
  one the writer reproduces): else the file is not fixed (FixError says why), so nothing outside an
  edit can change. JSON is edited in its text (a value replaced, a member or item added after the
  last one, indented as it is): key order, indentation and every other byte stay.
- Every edited text is read again and its data compared with the data the edits should give:
  an edit that would change anything else is refused.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any, Iterable

from toolcontract.core.pointer import split_pointer


class FixError(ValueError):
    """A file whose fixes cannot be applied safely; the message says why (no `path:` prefix)."""


def apply_edits(path: str, text: str, edits: Iterable[Any]) -> str:
    """`text` (the content of `path`) with the edits applied; the same text when none changes anything."""
    from toolcontract.io.document import looks_like_json

    edits = list(edits)
    comments = [e for e in edits if e.op == "comment"]
    data_edits = [e for e in edits if e.op != "comment"]
    is_json = looks_like_json(path, text)
    if comments and not is_json:
        text = _comment_edits(text, comments)
    if not data_edits:
        return text
    if is_json:
        return _json_edits(text, data_edits)
    return _yaml_edits(text, data_edits)


# ------------------------------------------------------------------ comments

def _comment_edits(text: str, edits: list) -> str:
    lines = text.splitlines(keepends=True)
    for edit in sorted(edits, key=lambda e: e.position, reverse=True):
        number, column = edit.position
        if not 1 <= number <= len(lines):
            continue
        line = lines[number - 1]
        body = line.rstrip("\r\n")
        ending = line[len(body):]
        start = column - 1
        if body[start:start + len(edit.text)] != edit.text:
            continue  # not the comment the finding read (a stale edit): leave it
        before, rest = body[:start], body[start + len(edit.text):]
        if edit.value is not None:
            lines[number - 1] = before + edit.value + rest + ending
            continue
        if rest.strip():  # text after the suppression stays a comment
            lines[number - 1] = before + "#" + rest + ending
            continue
        if not before.strip():  # a comment alone on its line: the line goes
            lines[number - 1] = ""
        else:
            kept = before.rstrip()
            if kept.endswith("#"):
                kept = kept[:-1].rstrip()
            lines[number - 1] = kept + ending
    return "".join(lines)


# ------------------------------------------------------------------ data


def _apply(root: Any, edit: Any, new: Any = None) -> None:
    """Apply one data edit to `root` in place; `new(value)` makes the value inserted (ruamel's types)."""
    node = root
    tokens = split_pointer(edit.pointer)
    if edit.op == "replace":  # the value at the pointer itself: as "set" on its parent
        if not tokens:
            raise FixError("cannot replace the whole document")
        edit = edit._replace(op="set", pointer=edit.pointer.rsplit("/", 1)[0], key=tokens[-1])
        tokens = tokens[:-1]
    for token in tokens:
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise FixError(f"nothing at {edit.pointer or '/'} to edit")
    if not isinstance(node, dict):
        raise FixError(f"{edit.pointer or '/'} is no mapping")
    value = copy.deepcopy(edit.value)
    if new is not None:
        value = new(value)
    if edit.op == "set":
        if node.get(edit.key, _MISSING) == value and type(node.get(edit.key)) is type(value):
            return
        node[edit.key] = value
    elif edit.op == "append":
        held = node.get(edit.key)
        if held is None:
            node[edit.key] = new([edit.value]) if new is not None else [edit.value]
        elif isinstance(held, list):
            if edit.value not in held:
                held.append(edit.value)
        else:
            raise FixError(f"{edit.pointer}/{edit.key} is no list")
    else:
        raise FixError(f"unknown edit {edit.op!r}")


_MISSING = object()


def _expected(data: Any, edits: list) -> Any:
    expected = copy.deepcopy(data)
    for edit in edits:
        _apply(expected, edit)
    return expected


def _json_edits(text: str, edits: list) -> str:
    """The JSON text with the edits made in place: a value replaced, a member added after the last
    one of its object (on a line of its own, indented as that one, when the object is written one
    member a line; else on the same line), an item added to a list the same way. Everything else
    stays byte for byte. The text is read once per pass; an edit that meets another one's (the same
    member, a value another replaces, what another adds) waits for the next pass."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise FixError(f"not valid JSON ({exc})") from None
    expected = _expected(data, edits)
    pending = list(edits)
    while pending:
        spans = _JsonSpans(text)
        spans.value(0)
        accepted: list[tuple[int, int, int, str]] = []  # (start, end, order, replacement)
        members: set[tuple[str, str]] = set()
        emptied: set[str] = set()  # empty containers given an item in this pass
        waiting = []
        for order, edit in enumerate(pending):
            placed = _json_edit(text, spans, edit)
            if placed is None:
                waiting.append(edit)
                continue
            start, end, replacement, member, container = placed
            if member in members or (container is not None and container in emptied) or any(
                    (start < e and s < end) or (s < start < e) or (start < s < end) for s, e, _, _ in accepted):
                waiting.append(edit)
                continue
            members.add(member)
            if container is not None and spans.last_child.get(container) is None:
                emptied.add(container)
            accepted.append((start, end, order, replacement))
        if not accepted:
            raise FixError("its edits could not be placed")
        # from the end, so the places before stay; of two at one place the later first, so they keep their order
        for start, end, _, replacement in sorted(accepted, key=lambda op: (op[0], op[2]), reverse=True):
            text = text[:start] + replacement + text[end:]
        pending = waiting
    try:
        result = json.loads(text)
    except ValueError as exc:  # a bug of ours: never write it
        raise FixError(f"the edited text would not read back ({exc})") from None
    if result != expected:
        raise FixError("the edit would change more than it should")
    return text


def _json_edit(text: str, spans: "_JsonSpans", edit: Any):
    """(start, end, replacement, the member it edits, the container it adds to or None) for one
    edit, or None when what it edits is not there yet (another edit of this pass adds it)."""
    if edit.op == "replace":
        if not edit.pointer:
            raise FixError("cannot replace the whole document")
        if edit.pointer not in spans.found:
            return None
        start, end = spans.found[edit.pointer]
        parent, _, key = edit.pointer.rpartition("/")
        return start, end, _dump(edit.value), (parent, key), None
    target = spans.found.get(edit.pointer)
    if target is None:
        return None
    if text[target[0]] != "{":
        raise FixError(f"{edit.pointer or '/'} is no object")
    member = _join(edit.pointer, edit.key)
    if member in spans.found:
        start, end = spans.found[member]
        if edit.op == "set":
            return start, end, _dump(edit.value), (edit.pointer, edit.key), None
        if text[start] != "[":
            raise FixError(f"{member} is no list")
        if edit.value in json.loads(text[start:end]):
            return start, start, "", (member, "\0" + _dump(edit.value)), None
        return (*_insert(text, start, end, spans.last_child.get(member), _dump(edit.value)),
                (member, "\0" + _dump(edit.value)), member)
    value = edit.value if edit.op == "set" else [edit.value]
    start, end = target
    return (*_insert(text, start, end, spans.last_child.get(edit.pointer), f"{json.dumps(edit.key)}: {_dump(value)}"),
            (edit.pointer, edit.key), edit.pointer)


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _join(pointer: str, key: str) -> str:
    return f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}"


def _insert(text: str, start: int, end: int, last: tuple[int, int] | None, item: str) -> tuple[int, int, str]:
    """(start, end, replacement) adding `item` to the object or list spanning text[start:end], after
    its last member `last` (the start of that member's key or item, and the end of its value)."""
    if last is None:  # empty: `{}` or `[ ]`
        return start + 1, end - 1, item
    member_at, last_end = last
    if "\n" in text[start:member_at]:  # one member a line: a line of its own, indented as the last one
        line_start = text.rfind("\n", 0, member_at) + 1
        indent = text[line_start:member_at]
        if indent.strip():  # the last member shares its line with another: indent as the first
            first = text[start + 1:]
            indent = first[first.find("\n") + 1:][:len(first) - len(first.lstrip())]
            indent = indent[:len(indent) - len(indent.lstrip())]
        newline = "\r\n" if text[line_start - 2:line_start] == "\r\n" else "\n"
        return last_end, last_end, "," + newline + indent + item
    return last_end, last_end, ", " + item


class _JsonSpans:
    """Where each value of a JSON text is: pointer -> (start, end) of its text; for objects and
    lists also their last member's (start of its key or item, end of its value)."""

    def __init__(self, text: str):
        self.text = text
        self.found: dict[str, tuple[int, int]] = {}
        self.last_child: dict[str, tuple[int, int]] = {}
        self._decoder = json.JSONDecoder()

    def _skip(self, i: int) -> int:
        text = self.text
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        return i

    def value(self, i: int, pointer: str = "") -> int:
        text = self.text
        i = self._skip(i)
        start = i
        if text[i] == "{":
            i = self._skip(i + 1)
            while text[i] != "}":
                key, key_end = json.decoder.scanstring(text, i + 1)
                member_start = i
                i = self._skip(key_end)
                i = self.value(i + 1, _join(pointer, key))  # past the ':'
                self.last_child[pointer] = (member_start, i)
                i = self._skip(i)
                if text[i] == ",":
                    i = self._skip(i + 1)
            end = i + 1
        elif text[i] == "[":
            i = self._skip(i + 1)
            index = 0
            while text[i] != "]":
                item_start = self._skip(i)
                i = self.value(i, f"{pointer}/{index}")
                self.last_child[pointer] = (item_start, i)
                index += 1
                i = self._skip(i)
                if text[i] == ",":
                    i = self._skip(i + 1)
            end = i + 1
        else:
            _, end = self._decoder.raw_decode(text, i)
        self.found[pointer] = (start, end)
        return end


def _yaml_edits(text: str, edits: list) -> str:
    import io

    from toolcontract.io.document import DEFAULT_LIMITS, LoadError, load_bytes

    try:
        original = load_bytes(text.encode("utf-8"), "<fix>.yaml", DEFAULT_LIMITS).data
    except LoadError as exc:
        raise FixError(f"not readable YAML ({exc})") from None
    yaml, data = _yaml_round_trip(text)
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    def new(value):
        if isinstance(value, dict):
            made = CommentedMap((k, new(v)) for k, v in value.items())
            made.fa.set_flow_style()
            return made
        if isinstance(value, list):
            made = CommentedSeq(new(v) for v in value)
            made.fa.set_flow_style()
            return made
        return value

    for edit in edits:
        _apply(data, edit, new)
    stream = io.StringIO()
    yaml.dump(data, stream)
    result = stream.getvalue()
    try:
        reread = load_bytes(result.encode("utf-8"), "<fix>.yaml", DEFAULT_LIMITS).data
    except LoadError as exc:  # a bug of ours or the writer's: never write it
        raise FixError(f"the edited text would not read back ({exc})") from None
    if reread != _expected(original, edits):
        raise FixError("the edit would change more than it should")
    return result


def _yaml_round_trip(text: str):
    """(a ruamel.yaml writer set up as the text is written, its round-trip data); FixError when no
    setting writes the unedited data back byte for byte."""
    import io

    try:
        from ruamel.yaml import YAML
        from ruamel.yaml.error import YAMLError
    except ImportError:  # pragma: no cover - a dependency
        raise FixError("ruamel.yaml is not installed (pip install 'ruamel.yaml>=0.18')") from None
    mapping = _indent_of(text)
    data = None
    for offset in (0, mapping):
        for mapping_indent in dict.fromkeys((mapping, 2, 4)):
            yaml = YAML(typ="rt")
            yaml.preserve_quotes = True
            yaml.width = 1 << 20
            yaml.indent(mapping=mapping_indent, sequence=mapping_indent + offset, offset=offset)
            yaml.explicit_start = text.lstrip().startswith("---")
            if data is None:  # read once: how it is written back is the writer's setting
                try:
                    data = yaml.load(text)
                except YAMLError as exc:  # ruamel refuses what the loader took (a repeated key)
                    problem = str(exc).strip().splitlines()
                    raise FixError(f"ruamel.yaml cannot read it ({problem[-1] if problem else exc})") from None
            stream = io.StringIO()
            yaml.dump(data, stream)
            if stream.getvalue() == text:
                return yaml, data
    raise FixError("its layout is not one that can be written back unchanged (YAML fixes keep comments and "
                   "layout, and this file would change elsewhere)")


def _indent_of(text: str) -> int:
    found = re.search(r"^[^\s#-][^\n]*:\s*\n( +)[^\s#]", text, re.MULTILINE)
    return len(found.group(1)) if found else 2
