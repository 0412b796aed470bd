"""Issue 20: assess at scale. `assess_batch` gives `assess`'s answer case by case (fixtures, a JSONL log, generated
cases, flattened OpenTelemetry spans against the trace reader); `assess --engine dask` on a real LocalCluster
(two worker processes under nannies): the local run's summary, malformed rows as rejected rows, a malformed file
exit 2 naming it, a worker killed mid-job retried, the output folder written whole or not at all."""

from __future__ import annotations

import json
import os
import random
import signal
import threading
import time

import pytest

pa = pytest.importorskip("pyarrow")
import pyarrow.parquet as pq  # noqa: E402

from conftest import REPO  # noqa: E402
from toolcontract.app.assess import AssessJob, assess_paths  # noqa: E402
from toolcontract.app.batch import OUTPUT_SCHEMA, arrow_mapper, assess_batch, registry_of  # noqa: E402
from toolcontract.cli import app  # noqa: E402
from toolcontract.core import jsoncodec  # noqa: E402
from toolcontract.io.document import load_bytes  # noqa: E402
from toolcontract.io.fixtures import case_problem  # noqa: E402
from toolcontract.io.inputs import load_descriptor_dicts  # noqa: E402

INVOCATIONS = REPO / "fixtures" / "invocations"
LOG = REPO / "fixtures" / "logs" / "agent_run.jsonl"
GOOD = REPO / "fixtures" / "descriptors" / "good"
PARTS = ("candidate", "context", "record", "observation", "expect")
TYPED = ("id", "correlation_id", "tool", "outcome", "gate", "effect", "next_step", "unverified_scope", "reasons")
VIEWS = ("trail", "model_view", "evidence", "expect")


def case_table(cases: list[dict], structs: tuple[str, ...] = ()):
    """Fixture-case columns: each part as JSON text (those named in `structs` as structs), null where absent."""
    columns = {"id": [str(c["id"]) for c in cases]}
    for part in PARTS:
        values = [c.get(part) for c in cases]
        columns[part] = values if part in structs else [None if v is None else jsoncodec.dumps(v) for v in values]
    return pa.table(columns)


def local_envelopes(path, tools=None) -> list[dict]:
    """`assess --format json`'s cases for a file, as JSON."""
    return json.loads(jsoncodec.dumps([e.as_dict() for e in assess_paths([str(path)], tools=tools).cases]))


def assert_same(rows: list[dict], local: list[dict]) -> None:
    assert len(rows) == len(local)
    for row, want in zip(rows, local):
        for key in TYPED:
            assert row[key] == want[key], (want["id"], key)
        for key in VIEWS:
            assert (None if row[key] is None else json.loads(row[key])) == want[key], (want["id"], key)


@pytest.mark.parametrize("path", sorted(INVOCATIONS.glob("*.yaml")), ids=lambda p: p.name)
def test_batch_matches_assess_on_every_fixture(path):
    data = load_bytes(path.read_bytes(), str(path)).data
    job = AssessJob([str(path)])
    registry = job.registry_for([os.path.normpath(os.path.join(path.parent, t)) for t in data.get("tools") or ()])
    out = assess_batch(case_table(data["cases"]), registry)
    assert out.schema == OUTPUT_SCHEMA
    assert_same(out.to_pylist(), local_envelopes(path))


def test_batch_matches_assess_on_a_jsonl_log_as_lines_and_as_columns():
    descriptors = load_descriptor_dicts([str(GOOD)], {})
    local = local_envelopes(LOG, tools=[str(GOOD)])
    lines = [line for line in LOG.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert_same(assess_batch(pa.table({"case": lines}), registry_of(descriptors)).to_pylist(), local)
    cases = [json.loads(line) for line in lines]
    assert_same(assess_batch(case_table(cases), registry_of(descriptors)).to_pylist(), local)


def generated_cases(count: int, seed: int) -> list[dict]:
    """Cases from the parts of the fixtures' cases, recombined at random (candidates, contexts, records,
    observations of other cases), kept when they are valid cases."""
    pool = [c for path in sorted(INVOCATIONS.glob("*.yaml")) for c in load_bytes(path.read_bytes(), str(path)).data["cases"]]
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        case = {"id": f"gen-{len(cases)}", "candidate": rng.choice(pool)["candidate"]}
        for part in ("context", "record", "observation"):
            donor = rng.choice(pool)
            if part in donor and rng.random() < 0.8:
                case[part] = donor[part]
        if rng.random() < 0.3:
            case["candidate"] = {**case["candidate"], "arguments": rng.choice(
                ['{"a": 1', "[]", {}, {"invoice_id": "INV-1"}, "{\"invoice_id\": 7}", None])}
        if rng.random() < 0.2:
            case["expect"] = {"outcome": rng.choice(["rejected", "allowed", "succeeded"])}
        if case_problem(case) is None:
            cases.append(case)
    return cases


def test_batch_matches_assess_on_generated_cases(tmp_path):
    cases = generated_cases(400, seed=20)
    log = tmp_path / "generated.jsonl"
    log.write_text("".join(jsoncodec.dumps(c) + "\n" for c in cases), encoding="utf-8")
    local = local_envelopes(log, tools=[str(GOOD)])
    registry = registry_of(load_descriptor_dicts([str(GOOD)], {}))
    assert_same(assess_batch(case_table(cases), registry).to_pylist(), local)
    assert len({row["outcome"] for row in local}) >= 5  # the recombination reaches many outcomes


def test_struct_columns_are_read_as_the_json_text():
    cases = [json.loads(line) for line in LOG.read_text(encoding="utf-8").splitlines() if line.strip()]
    registry = registry_of(load_descriptor_dicts([str(GOOD)], {}))
    as_text = assess_batch(case_table(cases), registry).to_pylist()
    # a struct cannot say `gate: null` (absent and null are one), so the expectations stay JSON text; so do the
    # candidates, whose arguments are a JSON string in one row and an object in the next (no one Arrow type)
    as_structs = assess_batch(case_table(cases, structs=("context", "record", "observation")), registry).to_pylist()
    assert pa.types.is_struct(case_table(cases, structs=("context",)).schema.field("context").type)
    assert [(r["outcome"], r["gate"], r["effect"], r["reasons"]) for r in as_structs] == \
        [(r["outcome"], r["gate"], r["effect"], r["reasons"]) for r in as_text]


def test_a_malformed_row_is_a_rejected_row_never_an_exception():
    good = {"id": "ok", "candidate": {"name": "invoice_get", "arguments": {"invoice_id": "INV-000007"}}}
    table = pa.table({
        "id": ["ok", "bad-json", "bad-shape", None, "bad-context"],
        "candidate": [jsoncodec.dumps(good["candidate"]), '{"name": "x", "arguments": ', '{"arguments": {}}',
                      jsoncodec.dumps(good["candidate"]), jsoncodec.dumps(good["candidate"])],
        "context": [None, None, None, None, '"not an object"'],
    })
    rows = assess_batch(table, registry_of(load_descriptor_dicts([str(GOOD)], {}))).to_pylist()
    assert [r["outcome"] for r in rows] == ["allowed", "rejected", "rejected", "rejected", "rejected"]
    assert [r["gate"] for r in rows] == [None, "parse", "parse", "parse", "parse"]
    assert rows[1]["reasons"] == ["row 2 of the batch is not a case: `candidate` is not JSON: Expecting value "
                                  "at column 28"]
    assert rows[1]["tool"] == "" and rows[1]["next_step"] == "stop_or_escalate"
    assert rows[2]["reasons"] == ["row 3 of the batch is not a case: at /candidate: \"name\" is a required property"]
    assert rows[3]["reasons"] == ["row 4 of the batch is not a case: `id` is null"]
    assert rows[4]["reasons"][0].startswith("row 5 of the batch is not a case: at /context: ")
    assert rows[4]["tool"] == "invoice_get" and rows[4]["model_view"] is None


def test_a_table_of_neither_shape_is_refused():
    from toolcontract.app.batch import BatchShapeError

    with pytest.raises(BatchShapeError, match="not a table of tool calls"):
        assess_batch(pa.table({"x": [1]}), registry_of([]))


# ------------------------------------------------------------------ flattened OpenTelemetry spans

SPANS = [  # (attributes, status) of execute_tool spans, one trace
    ({"gen_ai.tool.name": "invoice_get", "gen_ai.tool.call.id": "c1",
      "gen_ai.tool.call.arguments": '{"invoice_id": "INV-000007"}',
      "gen_ai.tool.call.result": '{"status": "open"}'}, {}),
    ({"gen_ai.tool.name": "invoice_get", "gen_ai.tool.call.id": "c2",
      "gen_ai.tool.call.arguments": '{"invoice_id": "INV-000008"}',
      "error.type": "timeout"}, {"code": 2, "message": "deadline"}),
    ({"gen_ai.tool.name": "invoice_mark_paid", "gen_ai.tool.call.id": "c3",
      "gen_ai.tool.call.arguments": '{"invoice_id": "INV-000001", "expected_version": "1", "payment_ref": "STMT-1", '
                                    '"paid_on": "2026-11-28"}', "error.type": "tool_error"}, {"code": 2}),
    ({"gen_ai.tool.name": "weather_current", "gen_ai.tool.call.id": "c4"}, {}),
    ({"gen_ai.tool.name": "no_such_tool", "gen_ai.tool.call.id": "c5", "gen_ai.tool.call.arguments": "{}"},
     {"code": 1}),
]


def test_flattened_spans_match_the_trace_reader(tmp_path):
    trace_id = "6513270e269e0d37f2a74de452e6b438"
    spans, rows = [], []
    for index, (attributes, status) in enumerate(SPANS):
        span_id = f"{index + 1:016x}"
        spans.append({"traceId": trace_id, "spanId": span_id, "name": f"execute_tool {attributes['gen_ai.tool.name']}",
                      "startTimeUnixNano": str(1767261600000000000 + index * 10_000_000),
                      "endTimeUnixNano": str(1767261600000000000 + index * 10_000_000 + 5_000_000), "status": status,
                      "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "execute_tool"}}]
                      + [{"key": k, "value": {"stringValue": v}} for k, v in attributes.items()]})
        rows.append({"trace_id": trace_id, "span_id": span_id, "name": spans[-1]["name"],
                     "gen_ai.operation.name": "execute_tool", "status_code": status.get("code"),
                     "status_message": status.get("message"), **attributes})
    rows.append({"trace_id": trace_id, "span_id": "f" * 16, "name": "chat gpt", "gen_ai.operation.name": "chat"})
    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}), encoding="utf-8")
    local = local_envelopes(trace, tools=[str(GOOD)])
    names = sorted({k for r in rows for k in r})
    table = pa.table({n: pa.array([r.get(n) for r in rows], pa.int64() if n == "status_code" else pa.string())
                      for n in names})
    out = assess_batch(table, registry_of(load_descriptor_dicts([str(GOOD)], {}))).to_pylist()
    assert len(out) == len(SPANS)  # the chat span is no call
    assert [r["id"] for r in out] == [f"{trace_id}/span-{i + 1:016x}" for i in range(len(SPANS))]
    for row, want in zip(out, local):
        for key in ("correlation_id", "tool", "outcome", "gate", "effect", "next_step", "unverified_scope", "reasons"):
            assert row[key] == want[key], (want["id"], key)
        assert json.loads(row["model_view"]) == want["model_view"]
    assert [r["outcome"] for r in out] == ["succeeded", "timed_out", "failed", "succeeded", "blocked"]


# ------------------------------------------------------------------ Spark's mapInArrow function


def test_the_spark_function_maps_batches_as_assess_batch_does():
    cases = generated_cases(120, seed=5)
    descriptors = load_descriptor_dicts([str(GOOD)], {})
    table = case_table(cases)
    mapped = list(arrow_mapper(descriptors)(iter(table.to_batches(max_chunksize=50))))
    assert all(isinstance(b, pa.RecordBatch) and b.schema == OUTPUT_SCHEMA for b in mapped)
    assert pa.Table.from_batches(mapped).to_pylist() == assess_batch(table, registry_of(descriptors)).to_pylist()


# ------------------------------------------------------------------ on a real LocalCluster


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0", silence_logs=50) as local:
        with distributed.Client(local) as client:
            yield local, client


def invoke(*args):
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["assess", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output
    return result


def write_parquet_cases(folder, cases, files: int, row_group: int = 1000):
    folder.mkdir(parents=True, exist_ok=True)
    size = -(-len(cases) // files)
    for index in range(files):
        pq.write_table(case_table(cases[index * size:(index + 1) * size]), folder / f"part-{index:02d}.parquet",
                       row_group_size=row_group)


def test_dask_run_gives_the_local_summary_and_the_local_envelopes(cluster, tmp_path):
    local_cluster, client = cluster
    cases = generated_cases(3000, seed=7)
    write_parquet_cases(tmp_path / "in", cases[:2000], files=3)
    with open(tmp_path / "in" / "rest.jsonl", "w", encoding="utf-8") as stream:  # JSON lines beside Parquet
        stream.writelines(jsoncodec.dumps(c) + "\n" for c in cases[2000:])
    log = tmp_path / "all.jsonl"
    log.write_text("".join(jsoncodec.dumps(c) + "\n" for c in cases), encoding="utf-8")
    local = invoke("--format", "json", log, "--tools", GOOD)
    out = tmp_path / "out"
    result = invoke("--engine", "dask", "--scheduler", local_cluster.scheduler_address, tmp_path / "in",
                    "--tools", GOOD, "-o", out, "--format", "json")
    assert result.exit_code == local.exit_code, result.output
    got, want = json.loads(result.stdout), json.loads(local.stdout)
    assert got["summary"] == want["summary"] and got["tools"] == want["tools"]
    assert got["summary"]["cases"] == 3000
    rows = {r["id"]: r for r in pq.read_table(out).to_pylist()}
    assert_same([rows[c["id"]] for c in want["cases"]], want["cases"])
    assert not [p for p in os.listdir(tmp_path) if ".tmp-" in p]
    # the registry was compiled once per worker process, whatever the number of partitions
    info = client.run(lambda: __import__("toolcontract.app.batch", fromlist=["x"]).registry_cache_info())
    builds = [entry["builds"] for worker in info.values() for entry in worker.values()]
    uses = sum(entry["uses"] for worker in info.values() for entry in worker.values())
    assert builds and set(builds) == {1} and uses >= got["partitions"] == 4


def test_dask_text_summary_and_unmet_expectations_exit_1(cluster, tmp_path):
    local_cluster, _ = cluster
    case = {"id": "x1", "candidate": {"name": "invoice_get", "arguments": {"invoice_id": "INV-000007"}},
            "context": {}, "expect": {"outcome": "succeeded"}}
    write_parquet_cases(tmp_path / "in", [case], files=1)
    result = invoke("--engine", "dask", "--scheduler", local_cluster.scheduler_address, tmp_path / "in",
                    "--tools", GOOD, "-o", tmp_path / "out", "--format", "text")
    assert result.exit_code == 1
    assert "tool invoice_get: 1 call (allowed 1)" in result.stdout
    assert "1 case: allowed 1; 1 unmet expectation" in result.stdout
    assert f"envelopes: {tmp_path / 'out'} (1 Parquet part)" in result.stdout


def test_dask_malformed_rows_are_rejected_rows(cluster, tmp_path):
    local_cluster, _ = cluster
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "log.jsonl").write_text(
        '{"id": "a", "candidate": {"name": "invoice_get", "arguments": {"invoice_id": "INV-000007"}}}\n'
        'not json at all\n\n{"id": "c", "candidate": {"arguments": {}}}\n', encoding="utf-8")
    out = tmp_path / "out"
    result = invoke("--engine", "dask", "--scheduler", local_cluster.scheduler_address, tmp_path / "in",
                    "--tools", GOOD, "-o", out, "--format", "json")
    assert result.exit_code == 0, result.output
    rows = pq.read_table(out).to_pylist()
    assert [(r["outcome"], r["gate"]) for r in rows] == [("allowed", None), ("rejected", "parse"), ("rejected", "parse")]
    shown = str(tmp_path / "in" / "log.jsonl")
    assert rows[1]["reasons"][0].startswith(f"{shown} row 2 is not a case: `case` is not JSON")
    assert rows[2]["reasons"] == [f"{shown} row 4 is not a case: at /candidate: \"name\" is a required property"]
    assert json.loads(result.stdout)["summary"]["by_outcome"] == {"allowed": 1, "rejected": 2}


def test_dask_malformed_file_is_exit_2_naming_it_and_writes_nothing(cluster, tmp_path):
    local_cluster, _ = cluster
    write_parquet_cases(tmp_path / "in", generated_cases(50, seed=1), files=2)
    (tmp_path / "in" / "broken.parquet").write_bytes(b"PAR1 this is no parquet file")
    out = tmp_path / "out"
    result = invoke("--engine", "dask", "--scheduler", local_cluster.scheduler_address, tmp_path / "in", "-o", out)
    assert result.exit_code == 2
    assert result.stderr.strip().startswith(f"{tmp_path / 'in' / 'broken.parquet'}: not a readable Parquet file: ")
    assert len(result.stderr.strip().splitlines()) == 1
    assert not out.exists()
    pq.write_table(pa.table({"x": [1]}), tmp_path / "in" / "broken.parquet")
    result = invoke("--engine", "dask", "--scheduler", local_cluster.scheduler_address, tmp_path / "in", "-o", out)
    assert result.exit_code == 2 and "broken.parquet: no column `candidate`" in result.stderr


def test_dask_file_that_breaks_while_read_fails_the_run_and_leaves_no_output(cluster, tmp_path):
    """A data page corrupted past a valid footer: the check before the job passes, the worker reading it fails,
    the run exits 2 naming the file, and neither OUT nor the temporary folder is left."""
    local_cluster, _ = cluster
    write_parquet_cases(tmp_path / "in", generated_cases(600, seed=2), files=3, row_group=200)
    victim = tmp_path / "in" / "part-01.parquet"
    data = bytearray(victim.read_bytes())
    footer = int.from_bytes(data[-8:-4], "little") + 8
    for offset in range(8, len(data) - footer, 7):
        data[offset] ^= 0x5A
    victim.write_bytes(bytes(data))
    out = tmp_path / "out"
    result = invoke("--engine", "dask", "--scheduler", local_cluster.scheduler_address, tmp_path / "in", "-o", out)
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().startswith(f"{victim}: cannot be read: ")
    assert not out.exists() and os.listdir(tmp_path) == ["in"]


def test_dask_never_writes_over_a_finished_output(cluster, tmp_path):
    local_cluster, _ = cluster
    write_parquet_cases(tmp_path / "in", generated_cases(20, seed=3), files=1)
    out = tmp_path / "out"
    out.mkdir()
    (out / "part.0.parquet").write_bytes(b"an earlier run")
    result = invoke("--engine", "dask", "--scheduler", local_cluster.scheduler_address, tmp_path / "in", "-o", out)
    assert result.exit_code == 2 and "the folder is not empty" in result.stderr
    assert os.listdir(out) == ["part.0.parquet"] and (out / "part.0.parquet").read_bytes() == b"an earlier run"
    (out / "part.0.parquet").unlink()  # an empty folder is taken
    result = invoke("--engine", "dask", "--scheduler", local_cluster.scheduler_address, tmp_path / "in", "-o", out,
                    "--exit-zero")
    assert result.exit_code == 0 and pq.read_table(out).num_rows == 20


def test_dask_worker_killed_mid_job_is_retried(cluster, tmp_path):
    """SIGKILL to a worker process while the job runs: its nanny starts a new one, the scheduler runs the lost
    tasks again, and the run ends with every case once and the summary a local run gives."""
    local_cluster, client = cluster
    cases = generated_cases(400, seed=11) * 40  # 16,000 cases in 16 parts: a few seconds of work
    for index, case in enumerate(cases):
        cases[index] = {**case, "id": f"k{index}"}
    write_parquet_cases(tmp_path / "in", cases, files=16)
    out = tmp_path / "out"
    done = {}
    runner = threading.Thread(target=lambda: done.setdefault("result", invoke(
        "--engine", "dask", "--scheduler", local_cluster.scheduler_address, tmp_path / "in", "--tools", GOOD,
        "-o", out, "--format", "json", "--exit-zero")))
    pids = client.run(os.getpid)
    runner.start()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any(client.processing().values()):
        time.sleep(0.02)
    time.sleep(0.3)
    assert runner.is_alive()  # the job is still running when its worker dies
    os.kill(next(iter(pids.values())), signal.SIGKILL)
    runner.join(120)
    result = done["result"]
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["summary"]["cases"] == len(cases)
    assert sorted(pq.read_table(out, columns=["id"]).column("id").to_pylist()) == sorted(c["id"] for c in cases)
    client.wait_for_workers(2, timeout=30)
    assert set(client.run(os.getpid).values()) != set(pids.values())  # a new process took the dead one's place
