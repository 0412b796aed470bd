#!/usr/bin/env python3
"""Benchmark: `toolcontract lint` against `check-jsonschema --check-metaschema`, as whole processes.

For each size N this writes N generated descriptors (about 45 lines of YAML each,
shaped like the good ones in fixtures/descriptors/good/) into a temporary folder,
plus each descriptor's `input_schema` as its own JSON file. It then times, over
several runs, the two commands a user would run on that input:

    toolcontract lint --format text DIR
    check-jsonschema --check-metaschema SCHEMA_1.json ... SCHEMA_N.json

check-jsonschema is the nearest peer: it only validates the schemas against the
metaschema and runs no rules, so the ratio toolcontract / check-jsonschema is the
price (or saving) of a full lint. Targets: ratio <= 0.45 for one file, <= 0.15 for
1,000 descriptors cold, <= 0.04 for the same 1,000 unchanged descriptors with a warm
lint cache (issue 16).

"cold" runs have an empty lint cache each time (TOOLCONTRACT_CACHE_DIR is a new, empty
folder per run: the cost of a first run, writing the cache included); "warm" runs (the
rows marked `warm`, for sizes in --warm, default 1000) share one cache folder that the
untimed warm-up run filled, so every file is unchanged since it was linted.

Not a test: run it by hand (see bench/README.md). Standard library only; the two
commands are found next to this Python (the same venv) or on PATH.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGETS = {1: 0.45, 1000: 0.15}
WARM_TARGETS = {1000: 0.04}

# ------------------------------------------------------------------ generating

# object noun, id property, id example, id pattern
OBJECTS = (
    ("document", "document_id", "doc-1042", r"^doc-[0-9]+$"),
    ("invoice", "invoice_id", "INV-2025-0042", r"^INV-[0-9]{4}-[0-9]{4}$"),
    ("ticket", "ticket_id", "T-8812", r"^T-[0-9]+$"),
    ("customer", "customer_id", "cus_4821", r"^cus_[0-9]+$"),
    ("purchase", "purchase_id", "pur_99120", r"^pur_[0-9]+$"),
    ("calendar_event", "event_id", "evt_301", r"^evt_[0-9]+$"),
    ("repository", "repository", "acme/web", r"^[a-z0-9-]+/[a-z0-9._-]+$"),
    ("shipment", "shipment_id", "SHP-77120", r"^SHP-[0-9]+$"),
    ("user_account", "account_id", "acct_5521", r"^acct_[0-9]+$"),
    ("dataset", "dataset_id", "ds-weather-2024", r"^ds-[a-z0-9-]+$"),
    ("subscription", "subscription_id", "sub_1188", r"^sub_[0-9]+$"),
    ("project", "project_key", "PLAT", r"^[A-Z]{2,10}$"),
    ("deployment", "deployment_id", "dep-20250611-3", r"^dep-[0-9]{8}-[0-9]+$"),
    ("mailbox_message", "message_id", "msg_0xa1f3", r"^msg_[0-9a-z]+$"),
    ("inventory_item", "sku", "SKU-7731-BLK", r"^SKU-[0-9]{4}-[A-Z]{3}$"),
)
QUALIFIERS = (
    "status", "metadata", "owner", "tags", "summary", "history", "notes", "priority", "due_date",
    "labels", "details", "contacts", "attachments", "permissions", "schedule", "settings",
    "comments", "fields", "links", "quota",
)
# (verb, effect, wording) — read and pure names start with their verb, as TC303 expects
ACTIONS = (
    ("get", "read", "Return the {q} of one {o}"),
    ("list", "read", "List the {q} recorded for one {o}"),
    ("search", "read", "Search the {q} of {o}s by text"),
    ("describe", "read", "Describe the {q} of one {o} in plain fields"),
    ("count", "read", "Count the {q} entries of one {o}"),
    ("validate", "pure", "Check a proposed {q} value for one {o} without saving it"),
    ("estimate", "pure", "Estimate the effect of changing the {q} of one {o}"),
    ("compare", "pure", "Compare two versions of the {q} of one {o}"),
    ("format", "pure", "Format the {q} of one {o} for display"),
    ("update", "reversible_write", "Change the {q} of one {o} that has already been located"),
    ("set", "reversible_write", "Set the {q} of one {o} to a new value"),
    ("archive", "reversible_write", "Archive the {q} of one {o}; it can be restored later"),
    ("assign", "reversible_write", "Assign new {q} to one {o}"),
    ("delete", "irreversible_write", "Permanently delete the {q} of one {o}"),
    ("purge", "irreversible_write", "Purge the {q} of one {o} from storage"),
    ("publish", "open_world", "Publish the {q} of one {o} to external subscribers"),
    ("send", "open_world", "Send the {q} of one {o} to an external recipient by email"),
)
EXTRA_PROPERTIES = (
    ("reason", {"type": "string", "minLength": 3, "maxLength": 500,
                "description": "Why the change is made, in one sentence, for the audit log."}, "Requested by the owner."),
    ("limit", {"type": "integer", "minimum": 1, "maximum": 200,
               "description": "Largest number of entries to return."}, 20),
    ("include_archived", {"type": "boolean", "description": "Whether archived entries are included."}, False),
    ("locale", {"type": "string", "enum": ["en", "de", "fr", "ja", "zh"],
                "description": "Language of the returned text."}, "en"),
    ("page_token", {"type": "string", "maxLength": 200,
                    "description": "Opaque token from a previous page, if any."}, "p2"),
    ("dry_run", {"type": "boolean", "description": "Check the request without applying it."}, False),
    ("requested_by", {"type": "string", "format": "email",
                      "description": "Email address of the person asking for the change."}, "ana@example.com"),
    ("note", {"type": "string", "maxLength": 1000, "description": "Free-text note stored with the entry."},
     "Checked with the team."),
)


_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 ._/-]*[A-Za-z0-9.]")
_RESERVED = frozenset(("true", "false", "null", "yes", "no", "on", "off", "y", "n"))

WRITE_EXTRAS = frozenset(("reason", "dry_run", "requested_by", "note"))
SHARED_EXTRAS = frozenset(("locale",))


def _yaml_scalar(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if _PLAIN.fullmatch(value) and value.lower() not in _RESERVED:
        return value
    return json.dumps(value)  # a JSON string is a valid double-quoted YAML scalar


def _yaml_flow(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_yaml_scalar(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_yaml_flow(v)}" for k, v in value.items()) + "}"
    return _yaml_scalar(value)


def make_descriptor(index: int, rng: random.Random, used: set[str]) -> tuple[str, dict]:
    """One descriptor as YAML text, and its input_schema as data."""
    noun, id_prop, id_example, id_pattern = rng.choice(OBJECTS)
    verb, effect, wording = rng.choice(ACTIONS)
    qualifier = rng.choice(QUALIFIERS)
    base = f"{verb}_{noun}_{qualifier}" if effect in ("read", "pure") else f"{noun}_{verb}_{qualifier}"
    name, n = base, 1
    while name in used:
        n += 1
        name = f"{base}_{n}"
    used.add(name)
    obj = noun.replace("_", " ")
    q = qualifier.replace("_", " ")
    write = effect in ("reversible_write", "irreversible_write")
    consequential = effect not in ("read", "pure")

    properties: dict[str, dict] = {
        id_prop: {"type": "string", "pattern": id_pattern, "description": f"Identifier of the {obj}."},
    }
    example: dict = {id_prop: id_example}
    required = [id_prop]
    if write:
        properties["expected_version"] = {
            "type": "string", "description": f"Version of the {obj} observed before the change.",
        }
        example["expected_version"] = str(rng.randint(1, 40))
        required.append("expected_version")
    if verb in ("update", "set", "assign"):
        properties["value"] = {"type": "string", "maxLength": 200, "description": f"New {q} value."}
        example["value"] = f"new {q}"
        required.append("value")
    pool = [e for e in EXTRA_PROPERTIES if (e[0] in WRITE_EXTRAS) == consequential or e[0] in SHARED_EXTRAS]
    extras = rng.sample(pool, min(len(pool), 6 - len(properties) - rng.randint(0, 1)))
    for prop, schema, sample in extras:
        properties[prop] = dict(schema)
        if rng.random() < 0.6:
            example[prop] = sample
    schema = {"type": "object", "properties": properties, "required": required, "additionalProperties": False}

    lines = [
        "# yaml-language-server: $schema=../../schemas/descriptor.schema.json",
        "toolcontract: 1",
        f"name: {name}",
        f"version: {rng.randint(0, 3)}.{rng.randint(0, 12)}.{rng.randint(0, 9)}",
        f"title: {(verb + ' ' + obj + ' ' + q).capitalize()}",
        f"purpose: {wording.format(q=q, o=obj)}.",
        "when_to_use: >-",
        f"  The task names one {obj} by its identifier (tool #{index}) and asks",
        f"  for its {q}; the {obj} has been located in this conversation.",
        "non_goals:",
        f"  - Does not create a new {obj}.",
        f"  - Does not touch {obj}s other than the one named.",
        f"effect: {effect}",
        f"limitations: [Works on one {obj} per call., Results reflect the last synchronisation.]",
        "input_schema:",
        "  type: object",
        "  properties:",
    ]
    for prop, prop_schema in properties.items():
        if len(prop_schema) <= 3:  # short ones on one line, as people write them
            lines.append(f"    {prop}: {_yaml_flow(prop_schema)}")
            continue
        lines.append(f"    {prop}:")
        for key, value in prop_schema.items():
            lines.append(f"      {key}: {_yaml_flow(value)}")
    lines.append(f"  required: [{', '.join(required)}]")
    lines.append("  additionalProperties: false")
    if rng.random() < 0.5:
        lines += [
            "output_schema:",
            "  type: object",
            "  properties:",
            f"    {id_prop}: {{type: string, description: The {obj} the call acted on.}}",
            f"    {qualifier}: {{type: {'array' if qualifier.endswith('s') and qualifier != 'status' else 'string'}, description: The {q} now.}}",
            f"  required: [{id_prop}]",
            "  additionalProperties: false",
        ]
    if write:
        lines += ["target:", f"  id: /{id_prop}", "  version: /expected_version"]
    elif effect == "read":
        lines += ["target:", f"  id: /{id_prop}"]
    if consequential:
        lines.append("approval: required")
        lines.append(f"observation: Read the {obj} back and check its {q} and version.")
    lines += [
        "annotations:",
        f"  readOnlyHint: {_yaml_scalar(not consequential)}",
        f"  destructiveHint: {_yaml_scalar(effect == 'irreversible_write')}",
        f"  idempotentHint: {_yaml_scalar(not consequential or verb == 'set')}",
        f"  openWorldHint: {_yaml_scalar(effect == 'open_world')}",
        "examples:",
    ]
    first = True
    for key, value in example.items():
        lines.append(f"  {'- ' if first else '  '}{key}: {_yaml_scalar(value)}")
        first = False
    return "\n".join(lines) + "\n", schema


def generate(count: int, folder: Path, seed: int) -> tuple[Path, list[Path]]:
    """Write `count` descriptors under folder/descriptors and their schemas under folder/schemas."""
    rng = random.Random(seed)
    descriptors, schemas = folder / "descriptors", folder / "schemas"
    descriptors.mkdir(parents=True)
    schemas.mkdir()
    used: set[str] = set()
    schema_files = []
    for index in range(count):
        text, schema = make_descriptor(index, rng, used)
        (descriptors / f"tool_{index:05d}.yaml").write_text(text, encoding="utf-8")
        schema_file = schemas / f"tool_{index:05d}.schema.json"
        schema_file.write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")
        schema_files.append(schema_file)
    return descriptors, schema_files


# --------------------------------------------------------------------- timing


def _command(name: str, module: str | None) -> list[str]:
    """A console script from this Python's venv, else from PATH, else `python -m module`."""
    local = Path(sys.executable).parent / name
    if local.exists():
        return [str(local)]
    found = shutil.which(name)
    if found:
        return [found]
    if module:
        return [sys.executable, "-m", module]
    sys.exit(f"bench: {name} not found (pip install check-jsonschema, or the `bench` extra)")


def _environment() -> dict[str, str]:
    # As installed for real: bytecode caches are written (by the warm-up run) and read.
    # Some sandboxes set PYTHONDONTWRITEBYTECODE, which would recompile an editable
    # install's modules on every run and time the compiler instead of the tool.
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _run_once(argv: list[str], ok_codes: tuple[int, ...], env) -> tuple[float, str]:
    """Wall-clock seconds of one run, and the last line it printed. `env`: the environment, or a
    function that gives the environment of each run (made before the clock starts)."""
    if callable(env):
        env = env()
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    elapsed = time.perf_counter() - start
    if done.returncode not in ok_codes:
        sys.exit(f"bench: {argv[0]} exited {done.returncode}:\n{done.stderr[-2000:]}{done.stdout[-2000:]}")
    return elapsed, (done.stdout.strip().splitlines() or [""])[-1]


def time_pair(ours: list[str], peer: list[str], runs: int, our_env=None) -> tuple[list[float], list[float], str]:
    """Times of `runs` runs of each command, after one untimed warm-up of each.

    The two alternate run by run, so a load spike on a shared machine hits both
    rather than one of them. `our_env`: the environment of our runs (or a function
    giving each run's), by default this one's."""
    env = _environment()
    our_env = env if our_env is None else our_env
    _run_once(ours, (0, 1), our_env)  # warm-up: bytecode caches, file system cache (and a warm lint cache)
    _run_once(peer, (0,), env)
    our_times, peer_times, summary = [], [], ""
    for _ in range(runs):
        elapsed, summary = _run_once(ours, (0, 1), our_env)
        our_times.append(elapsed)
        peer_times.append(_run_once(peer, (0,), env)[0])
    return our_times, peer_times, summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1,1000", help="comma-separated descriptor counts (default 1,1000)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per command and size (default 5)")
    parser.add_argument("--seed", type=int, default=2025, help="random seed of the generator")
    parser.add_argument("--keep", metavar="DIR", help="write the inputs under DIR and keep them (for profiling)")
    parser.add_argument("--warm", default="1000", help="sizes also timed with a warm lint cache (default 1000; '' for none)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    warm_sizes = {int(s) for s in args.warm.split(",") if s.strip()}

    ours = _command("toolcontract", "toolcontract") + ["lint", "--format", "text"]
    peer = _command("check-jsonschema", "check_jsonschema") + ["--check-metaschema"]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, median of {args.runs} alternating runs after a warm-up")
    print(f"ours: {' '.join(ours)} DIR")
    print(f"peer: {' '.join(peer)} SCHEMA.json ...")
    print()
    header = f"{'N':>9}  {'toolcontract':>12}  {'check-jsonschema':>16}  {'ratio':>6}  {'target':>6}  {'descr/s':>8}  result"
    print(header)
    failed = False
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="toolcontract-bench-"))
    try:
        for size in sizes:
            folder = root / f"n{size}"
            if folder.exists():
                shutil.rmtree(folder)
            descriptors, schema_files = generate(size, folder, args.seed)
            caches = folder / "caches"
            caches.mkdir()
            runs_made = iter(range(1_000_000))

            def cold_env() -> dict[str, str]:  # a new, empty cache folder for each run
                return {**_environment(), "TOOLCONTRACT_CACHE_DIR": str(caches / f"cold-{next(runs_made)}")}

            kinds = [("", cold_env, TARGETS)]
            if size in warm_sizes:
                kinds.append(("warm", {**_environment(), "TOOLCONTRACT_CACHE_DIR": str(caches / "warm")},
                              WARM_TARGETS))
            for kind, our_env, targets in kinds:
                our_times, peer_times, summary = time_pair(
                    ours + [str(descriptors)], peer + [str(p) for p in schema_files], args.runs, our_env
                )
                ours_median, peer_median = statistics.median(our_times), statistics.median(peer_times)
                ratio = ours_median / peer_median
                target = targets.get(size)
                verdict = "-" if target is None else ("ok" if ratio <= target else "MISSED")
                failed |= verdict == "MISSED"
                label = f"{size}{' warm' if kind else ''}"
                print(
                    f"{label:>9}  {ours_median * 1000:>10.0f}ms  {peer_median * 1000:>14.0f}ms  {ratio:>6.3f}  "
                    f"{'' if target is None else f'{target:.2f}':>6}  {size / ours_median:>8.0f}  {verdict}"
                    f"   [{summary}]"
                )
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
