"""Reading the files to lint: `cli.read_file` and `read_inputs` (raw reads, no 5 MiB buffer per file)."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import examples
from toolcontract import cli
from toolcontract.io.errors import InputError as UsageFailure
from toolcontract.io.inputs import read_file, read_inputs
from toolcontract.io.document import LoadError


@pytest.mark.long
@settings(max_examples=examples(60), deadline=None)
@given(content=st.binary(max_size=300), limit=st.integers(min_value=0, max_value=300))
def test_read_file_gives_the_bytes_or_the_limit_error(tmp_path_factory, content, limit):
    path = tmp_path_factory.mktemp("r") / "x.yaml"
    path.write_bytes(content)
    got = read_file(str(path), limit)
    if len(content) <= limit:
        assert got == content
    else:
        assert isinstance(got, LoadError)
        assert f"over the {limit:,}-byte limit" in str(got)


def test_a_file_that_grows_after_fstat_is_read_whole_up_to_the_limit(tmp_path, monkeypatch):
    path = tmp_path / "x.yaml"
    path.write_bytes(b"a" * 50)
    real_fstat = os.fstat

    class Shrunk:  # what fstat said before the file grew to 50 bytes
        def __init__(self, info):
            self.st_mode, self.st_size = info.st_mode, 10

    monkeypatch.setattr(os, "fstat", lambda fd: Shrunk(real_fstat(fd)))
    assert read_file(str(path), 100) == b"a" * 50
    # over the limit: cut at limit + 1 bytes, which the loader reports as over the limit
    assert read_file(str(path), 20) == b"a" * 21


def test_an_empty_file_is_empty_bytes(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_bytes(b"")
    assert read_file(str(path), 100) == b""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    assert read_file(str(fifo), 100) is None
    with pytest.raises(UsageFailure, match=r"pipe\.yaml:1:1: not a regular file"):
        list(read_inputs([str(fifo)], 100))
    result = CliRunner().invoke(cli.app, ["lint", str(fifo)])
    assert result.exit_code == 2
    assert "not a regular file" in result.output


def test_an_unreadable_file_is_a_usage_error(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("name: a\n")
    path.chmod(0)
    if os.access(path, os.R_OK):  # root reads anything
        pytest.skip("this user can read a file with mode 000")
    with pytest.raises(UsageFailure, match=r"x\.yaml:1:1: cannot read"):
        list(read_inputs([str(path)], 100))


def test_the_descriptor_fixtures_read_as_they_are_on_disk():
    root = os.path.join(os.path.dirname(__file__), os.pardir, "fixtures", "descriptors")
    pairs = list(read_inputs([root], 5 * 1024 * 1024))
    assert len(pairs) > 20
    for name, content in pairs:
        with open(name, "rb") as handle:
            assert content == handle.read()


@pytest.mark.long
@settings(max_examples=examples(400), deadline=None)
@given(st.text(alphabet="/.ab\\ ", max_size=12))
def test_normal_path_writes_a_path_as_pathlib_does(raw):
    from pathlib import PurePosixPath

    from toolcontract.io.pathnames import normal_path

    assert normal_path(raw) == str(PurePosixPath(raw))


def test_files_in_a_folder_are_named_from_the_folder_as_pathlib_writes_it(tmp_path, monkeypatch):
    from toolcontract.io.inputs import discover

    (tmp_path / "d" / "e").mkdir(parents=True)
    (tmp_path / "d" / "e" / "x.yaml").write_text("a: 1\n")
    monkeypatch.chdir(tmp_path)
    for given_name in ("d", "d/", "./d", "./d//", "d/./"):
        assert list(discover([given_name])) == ["d/e/x.yaml"], given_name
    assert list(discover([str(tmp_path / "d") + "/"])) == [str(tmp_path / "d" / "e" / "x.yaml")]
    assert list(discover(["./d/e/x.yaml"])) == ["./d/e/x.yaml"]  # a named file stays as given
