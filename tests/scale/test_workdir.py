"""The run folder: manifest fingerprint, atomic chunks, merge in input order (notescrub.scale.workdir)."""

import os

import pytest

from notescrub.errors import ConfigError
from notescrub.scale.workdir import RunFolder


def test_chunks_merge_in_input_order_and_the_folder_is_private(tmp_path):
    rf = RunFolder.for_output(tmp_path / "out.csv")
    rf.open({"input": [["a", 1, 2]], "key": "k1"}, resume=False)
    assert oct(os.stat(rf.path).st_mode & 0o777) == "0o700"
    rf.write_chunk(1, [(5, "f"), (1, "b")], {"skipped": []})
    rf.write_chunk(0, [(0, "a"), (2, "c"), (4, "e")], {"skipped": [(3, "d")]})
    assert [p for p, _ in rf.records()] == [0, 1, 2, 4, 5]
    assert rf.header(0)["skipped"] == [(3, "d")] and rf.header(1)["n"] == 2
    assert not list(rf.path.glob(".tmp-*"))


def test_a_left_folder_needs_resume_and_the_same_command(tmp_path):
    parts = {"input": [["a", 1, 2]], "options": {"mode": "surrogate"}, "key": "k1"}
    rf = RunFolder.for_output(tmp_path / "out.jsonl")
    rf.open(parts, resume=False)
    rf.write_chunk(0, [(0, "a")], {"skipped": []})
    (rf.path / ".tmp-half").write_bytes(b"half a chunk")
    again = RunFolder.for_output(tmp_path / "out.jsonl")
    with pytest.raises(ConfigError, match="--resume"):
        again.check(resume=False)
    with pytest.raises(ConfigError, match=r"different command \(key, options changed\)"):
        again.open(dict(parts, options={"mode": "tag"}, key="k2"), resume=True)
    again.open(parts, resume=True)
    assert again.done() == {0} and not (rf.path / ".tmp-half").exists()
    again.check(resume=False, discard=True)
    assert not rf.path.exists()
