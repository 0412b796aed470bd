"""Configuration: `[tool.toolcontract]` in pyproject.toml, or `.toolcontract.yaml`.

Found by walking up from the working directory (the first `.toolcontract.yaml` /
`.yml`, or `pyproject.toml` that has a `[tool.toolcontract]` table, wins). Checked
against schemas/config.schema.json; a bad key or value is a `ConfigError` whose
text is `path:line:col: message` naming the key. Keys are kebab-case as in ruff
(`per-file-ignores`); snake_case spellings are accepted too.
"""

from __future__ import annotations

import functools
import os
import re
from typing import Any

from toolcontract.io.pathnames import normal_path
from toolcontract.core.records import Record

CONFIG_NAMES = (".toolcontract.yaml", ".toolcontract.yml")
# settings of single rules, handed to them as Selection.options
RULE_OPTIONS = ("max-toolset-tokens", "max-tools-checked")


class ConfigError(Exception):
    pass


class AssessConfig(Record):
    """The `assess` table (`[tool.toolcontract.assess]`): what `toolcontract assess` takes when its options are
    not given. `context` is a path made from the configuration's folder; None, () mean "not set"."""

    __slots__ = ("select", "ignore", "fail_on", "context", "max_rounds")

    def __init__(self, select: tuple[str, ...] = (), ignore: tuple[str, ...] = (), fail_on: tuple[str, ...] = (),
                 context: str | None = None, max_rounds: int | None = None):
        self.select, self.ignore, self.fail_on = select, ignore, fail_on
        self.context, self.max_rounds = context, max_rounds


class Config(Record):
    """A configuration: `path` is the file it came from (None: defaults); globs and paths are
    relative to `root`, its folder."""

    __slots__ = ("path", "root", "select", "ignore", "severity", "per_file_ignores", "include", "exclude", "target",
                 "overlays", "fail_on", "contracts", "options", "cache_dir", "assess")

    def __init__(self, path: str | None = None, root: str = ".", select: tuple[str, ...] = (),
                 ignore: tuple[str, ...] = (), severity: dict[str, str] | None = None,
                 per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = (), include: tuple[str, ...] = (),
                 exclude: tuple[str, ...] = (), target: tuple[str, ...] = (), overlays: dict[str, str] | None = None,
                 fail_on: str | None = None, contracts: str = "optional", options: dict[str, Any] | None = None,
                 cache_dir: str | None = None, assess: AssessConfig | None = None):
        self.path = path
        self.root = root
        self.select = select
        self.ignore = ignore
        self.severity = {} if severity is None else severity
        self.per_file_ignores = per_file_ignores
        self.include = include
        self.exclude = exclude
        self.target = target
        self.overlays = {} if overlays is None else overlays
        self.fail_on = fail_on
        self.contracts = contracts
        self.options = {} if options is None else options  # single rules' settings (max-toolset-tokens)
        self.cache_dir = cache_dir  # `cache-dir` as written (relative to `root`), None: the default
        self.assess = AssessConfig() if assess is None else assess  # the `assess` table

    def relative(self, path: str) -> str:
        """A file's path relative to the config's folder, with forward slashes."""
        try:
            rel = os.path.relpath(os.path.abspath(path), os.path.abspath(self.root))
        except ValueError:  # another drive (Windows)
            rel = path
        return rel.replace(os.sep, "/")

    def ignored_codes(self, path: str) -> tuple[str, ...]:
        rel = self.relative(path)
        codes: list[str] = []
        for pattern, rules in self.per_file_ignores:
            if glob_matches(pattern, rel):
                codes.extend(rules)
        return tuple(codes)

    def included(self, path: str) -> bool:
        rel = self.relative(path)
        if any(glob_matches(p, rel) for p in self.exclude):
            return False
        return not self.include or any(glob_matches(p, rel) for p in self.include)


@functools.lru_cache(maxsize=256)
def _glob_regex(pattern: str) -> re.Pattern:
    """Gitignore-like globs: `*` and `?` stay within a folder, `**` spans folders;
    a pattern without `/` matches the file name at any depth."""
    pattern = pattern.replace(os.sep, "/")
    if pattern.startswith("./"):
        pattern = pattern[2:]
    anywhere = "/" not in pattern.rstrip("/")
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            end = pattern.find("]", i + 1)
            if end == -1:
                out.append(re.escape(c))
                i += 1
            else:
                body = pattern[i + 1 : end].replace("\\", "\\\\")
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = end + 1
        else:
            out.append(re.escape(c))
            i += 1
    body = "".join(out)
    if pattern.endswith("/"):  # a folder: everything under it
        body += ".*"
    prefix = "(?:.*/)?" if anywhere else ""
    return re.compile(f"{prefix}{body}(?:/.*)?\\Z" if not pattern.endswith("/") else f"{prefix}{body}\\Z")


def glob_matches(pattern: str, path: str) -> bool:
    return _glob_regex(pattern).match(path) is not None


# ------------------------------------------------------------------- reading


def find_config(start: str | os.PathLike = ".") -> str | None:
    """The nearest configuration file at or above `start` (its absolute path), or None.
    (os.path rather than pathlib: importing pathlib costs ~7 ms of every lint run.)"""
    directory = os.path.realpath(start)
    while True:
        for name in CONFIG_NAMES:
            candidate = os.path.join(directory, name)
            if os.path.isfile(candidate):
                return candidate
        pyproject = os.path.join(directory, "pyproject.toml")
        if os.path.isfile(pyproject) and _has_table(pyproject):
            return pyproject
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def _has_table(pyproject: str) -> bool:
    try:
        with open(pyproject, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError):
        return False
    return re.search(r"^\s*\[\s*tool\s*\.\s*toolcontract\s*[\].]", text, re.M) is not None


def load_config(path: str | os.PathLike) -> Config:
    path = normal_path(os.fspath(path))
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        raise ConfigError(f"{path}:1:1: cannot read: {exc.strerror or exc}") from None
    if os.path.basename(path) == "pyproject.toml":
        data, locate = _read_pyproject(path, raw)
    else:
        data, locate = _read_yaml(path, raw)
    return config_from_data(data, path, locate)


def _read_pyproject(path: str, raw: bytes):
    import tomllib

    try:
        document = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}:1:1: not valid TOML: {exc}") from None
    text = raw.decode("utf-8")
    tool = document.get("tool", {})
    if not isinstance(tool, dict):
        line = _toml_key_line(text, "tool")
        raise ConfigError(f"{path}:{line}:1: `tool` must be a table ([tool.toolcontract] holds the configuration), "
                          f"found {type(tool).__name__}")
    data = tool.get("toolcontract", {})

    def locate(keys: tuple) -> tuple[int, int]:
        # TOML parsers give no positions: find the key inside the [tool.toolcontract] table
        if len(keys) > 1 and keys[0] == "assess":  # a key of [tool.toolcontract.assess]
            sub = re.search(r"^\s*\[\s*tool\s*\.\s*toolcontract\s*\.\s*assess\s*\]", text, re.M)
            if sub:
                found = re.search(rf"^\s*[\"']?{re.escape(str(keys[1]))}[\"']?\s*=", text[sub.end():], re.M)
                if found:
                    offset = sub.end() + found.start() + (len(found.group()) - len(found.group().lstrip()))
                    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1
                start = sub.start() + (len(sub.group()) - len(sub.group().lstrip()))
                return text.count("\n", 0, start) + 1, 1
        table = re.search(r"^\s*\[\s*tool\s*\.\s*toolcontract\s*\]", text, re.M)
        start = table.end() if table else 0
        key = str(keys[0]) if keys else ""
        if key:
            found = re.search(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=", text[start:], re.M)
            if found:
                offset = start + found.start() + (len(found.group()) - len(found.group().lstrip()))
                line = text.count("\n", 0, offset) + 1
                return line, offset - (text.rfind("\n", 0, offset) + 1) + 1
        if table:
            return text.count("\n", 0, table.start()) + 1 + (1 if text[table.start()] == "\n" else 0), 1
        return 1, 1

    return data, locate


def _toml_key_line(text: str, key: str) -> int:
    found = re.search(rf"^\s*{re.escape(key)}\s*=", text, re.M)
    return text.count("\n", 0, found.start()) + 1 if found else 1


def _read_yaml(path: str, raw: bytes):
    from toolcontract.io.document import LoadError, load_bytes
    from toolcontract.core.pointer import join_pointer

    try:
        document = load_bytes(raw, str(path))
    except LoadError as error:
        raise ConfigError(f"{path}:{error.line}:{error.column}: {error.message}") from None
    if document.duplicates:
        dup = document.duplicates[0]
        raise ConfigError(f"{path}:{dup.line}:{dup.column}: key {dup.key!r} repeats the one at line {dup.first_line}")
    data = {} if document.data is None else document.data

    def locate(keys: tuple) -> tuple[int, int]:
        return document.locate(join_pointer("", *keys), "key")

    return data, locate


@functools.cache
def _validator():
    """python-jsonschema, not jsonschema-rs: a configuration is read once a run, a bad one stops the
    run with one error, and `best_match` picks the error a person should see first (the deepest,
    most specific one, not the first of an `anyOf`), which jsonschema-rs has no equivalent of."""
    from jsonschema import Draft202012Validator

    from toolcontract.core.schema.bundled import load_schema

    return Draft202012Validator(load_schema("config.schema.json"))


def config_from_data(data: Any, path: str, locate=lambda keys: (1, 1)) -> Config:
    if not isinstance(data, dict):
        raise ConfigError(f"{path}:1:1: the configuration must be a table of keys, not {type(data).__name__}")
    normalised = {str(k).replace("_", "-"): v for k, v in data.items()}
    original = {str(k).replace("_", "-"): k for k in data}
    assess_original: dict[str, Any] = {}
    if isinstance(normalised.get("assess"), dict):  # its keys are kebab-case too, snake_case accepted
        assess_original = {str(k).replace("_", "-"): k for k in normalised["assess"]}
        normalised["assess"] = {str(k).replace("_", "-"): v for k, v in normalised["assess"].items()}
    from jsonschema.exceptions import best_match

    error = best_match(_validator().iter_errors(normalised))
    if error is not None:
        keys = tuple(error.absolute_path)
        if error.validator == "additionalProperties" and not keys:
            known_keys = set(_validator_keys())
            name = next(key for key in normalised if key not in known_keys)  # the first, in the file's order
            line, column = locate((original.get(name, name),))
            known = ", ".join(sorted(_validator_keys()))
            raise ConfigError(f"{path}:{line}:{column}: unknown key {original.get(name, name)!r} (known: {known})")
        if error.validator == "additionalProperties" and keys == ("assess",):
            known_keys = _validator_keys("assess")
            name = next(key for key in normalised["assess"] if key not in known_keys)
            written = assess_original.get(name, name)
            line, column = locate((original.get("assess", "assess"), written))
            raise ConfigError(f"{path}:{line}:{column}: unknown key {written!r} in assess (known: "
                              f"{', '.join(sorted(known_keys))})")
        if keys:
            if keys[0] == "assess" and len(keys) > 1:
                keys = (original.get("assess", "assess"), assess_original.get(keys[1], keys[1]), *keys[2:])
            keys = (original.get(keys[0], keys[0]), *keys[1:])
        line, column = locate(keys)
        where = "/".join(str(k) for k in keys) or "the configuration"
        message = error.message if len(error.message) <= 300 else error.message[:297] + "..."
        raise ConfigError(f"{path}:{line}:{column}: {where}: {message}")
    for key in ("include", "exclude"):
        for index, pattern in enumerate(normalised.get(key, ())):
            _check_glob(pattern, path, locate, (original.get(key, key), index))
    for pattern in normalised.get("per-file-ignores", {}):
        _check_glob(pattern, path, locate, (original.get("per-file-ignores", "per-file-ignores"), pattern))
    root = os.path.dirname(os.path.realpath(path))

    def code(text: str, keys: tuple) -> str:
        """A rule id or prefix, upper-cased; a rule's name is its id; an unknown name is an error at its key."""
        if re.fullmatch(r"(?i)tc[0-9]{0,3}|all", text):  # else the schema let through only kebab-case names
            return text.upper()
        from toolcontract.lint.engine import did_you_mean, rule_names

        rule_id = rule_names().get(text)
        if rule_id is None:
            line, column = locate(keys)
            raise ConfigError(f"{path}:{line}:{column}: {'/'.join(map(str, keys))}: no rule is named {text!r}"
                              f"{did_you_mean(text) or ' (`toolcontract rules` lists them)'}")
        return rule_id

    def codes(key: str, items, *inner) -> tuple[str, ...]:
        return tuple(code(str(item), (original.get(key, key), *inner, index)) for index, item in enumerate(items))

    return Config(
        path=path,
        root=root,
        select=codes("select", normalised.get("select", ())),
        ignore=codes("ignore", normalised.get("ignore", ())),
        severity={code(str(k), (original.get("severity", "severity"), k)): v
                  for k, v in normalised.get("severity", {}).items()},
        per_file_ignores=tuple((glob, codes("per-file-ignores", items, glob))
                               for glob, items in normalised.get("per-file-ignores", {}).items()),
        include=tuple(normalised.get("include", ())),
        exclude=tuple(normalised.get("exclude", ())),
        target=tuple(normalised.get("target", ())),
        overlays=dict(normalised.get("overlays", {})),
        fail_on=normalised.get("fail-on"),
        contracts=normalised.get("contracts", "optional"),
        options={key: normalised[key] for key in RULE_OPTIONS if key in normalised},
        cache_dir=normalised.get("cache-dir"),
        assess=_assess_config(normalised.get("assess", {}), root),
    )


def _assess_config(table: dict, root: str) -> AssessConfig:
    context = table.get("context")
    return AssessConfig(
        select=tuple(str(code).upper() for code in table.get("select", ())),
        ignore=tuple(str(code).upper() for code in table.get("ignore", ())),
        fail_on=tuple(table.get("fail-on", ())),
        context=os.path.join(root, context) if context is not None else None,
        max_rounds=table.get("max-rounds"),
    )


def _check_glob(pattern: str, path: str, locate, keys: tuple) -> None:
    """A glob that cannot be matched (`[z-a]`) is a configuration error at its key, not a traceback later."""
    try:
        _glob_regex(pattern)
    except re.error as exc:
        line, column = locate(keys)
        raise ConfigError(f"{path}:{line}:{column}: {'/'.join(map(str, keys))}: {pattern!r} is not a valid glob: "
                          f"{exc.msg}") from None


def _validator_keys(table: str | None = None) -> list[str]:
    """The keys the schema knows: at the top, or in a table (`assess`)."""
    from toolcontract.core.schema.bundled import load_schema

    properties = load_schema("config.schema.json")["properties"]
    return list(properties if table is None else properties[table]["properties"])
