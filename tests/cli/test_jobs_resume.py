"""``--jobs N`` gives the same bytes for every N; ``--resume`` after SIGKILL gives the same bytes too."""

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from notescrub.cli.main import main
from notescrub.replace.keys import SurrogateKey

SRC = str(Path(__file__).resolve().parents[2] / "src")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """160 synthetic notes of about 60 patients, shuffled so that patients interleave."""
    d = tmp_path_factory.mktemp("corpus")
    path = d / "notes.jsonl"
    assert main(["-q", "synth", "generate", "-n", "160", "--seed", "5", "-o", str(path)]) == 0
    lines = path.read_text(encoding="utf-8").splitlines()
    lines = lines[1::2] + lines[::2]  # a patient's notes no longer follow each other
    path.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    key = SurrogateKey(bytes(range(32))).save(d / "k.key")
    return path, key


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return [sys.executable, "-m", "notescrub", "-q", *map(str, args)], env


def _deid(src, out, key, *extra):
    cmd, env = _cli("deid", src, "-o", out, "--model", "rules-en", "--key-file", key, *extra)
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, check=False)


def test_jobs_1_and_2_write_the_same_bytes(corpus, tmp_path):
    src, key = corpus
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert main(["-q", "deid", str(src), "-o", str(one), "--model", "rules-en", "--key-file", str(key),
                 "--keep-annotations"]) == 0
    r = _deid(src, two, key, "--jobs", "2", "--chunk-size", "7", "--keep-annotations")
    assert r.returncode == 0, r.stderr
    assert one.read_bytes() == two.read_bytes()
    assert Path(str(one) + ".spans.jsonl").read_bytes() == Path(str(two) + ".spans.jsonl").read_bytes()
    ids = [json.loads(x)["id"] for x in one.read_text(encoding="utf-8").splitlines()]
    assert ids == [json.loads(x)["id"] for x in src.read_text(encoding="utf-8").splitlines()]  # input order
    assert not list(tmp_path.glob(".notescrub-run.*"))  # the run folder goes once the output is in place


def test_patient_level_model_same_bytes_for_every_n(corpus, tmp_path):
    """en-default (two-pass patient dictionary): groups by patient over an interleaved input."""
    src, key = corpus
    small = tmp_path / "small.jsonl"
    small.write_text("".join(src.read_text(encoding="utf-8").splitlines(keepends=True)[:40]), encoding="utf-8")
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"en-{jobs}.jsonl"
        assert main(["-q", "deid", str(small), "-o", str(out), "--key-file", str(key), "--jobs", jobs,
                     "--chunk-size", "5"]) == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


def _kill_after(cmd, env, folder: Path, chunks: int) -> bool:
    """Start ``cmd``; SIGKILL it once ``folder`` holds ``chunks`` chunk files. False if it ended first."""
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                return False
            if len(list(folder.glob("chunk-*.pkl"))) >= chunks:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                return True
            time.sleep(0.01)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    raise AssertionError("no chunk file appeared")


def _wait_for_orphans(out: Path) -> None:
    """Wait until no orphaned worker of a killed run holds the output's lock any more (workers
    inherit the lock's file descriptor and exit once they notice their parent is gone)."""
    from notescrub.io.atomic import _LOCK_PREFIX

    lock = out.parent / f"{_LOCK_PREFIX}{out.name}"
    deadline = time.monotonic() + 60
    while lock.exists() and time.monotonic() < deadline:
        fd = os.open(lock, os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(fd, fcntl.LOCK_UN)
            return
        except OSError:
            time.sleep(0.1)
        finally:
            os.close(fd)


@pytest.mark.parametrize("kill_at", [1, 6])
def test_sigkill_then_resume_gives_the_uninterrupted_bytes(corpus, tmp_path, kill_at):
    src, key = corpus
    ref = tmp_path / "ref.jsonl"
    assert _deid(src, ref, key).returncode == 0
    out = tmp_path / "out.jsonl"
    folder = tmp_path / ".notescrub-run.out.jsonl"
    cmd, env = _cli("deid", src, "-o", out, "--model", "rules-en", "--key-file", key, "--jobs", "2",
                    "--chunk-size", "10")
    assert _kill_after(cmd, env, folder, kill_at), "the run ended before it could be killed"
    assert not out.exists() and folder.is_dir()
    _wait_for_orphans(out)  # orphaned workers notice their parent is gone and exit
    # without --resume: a clear refusal, nothing touched
    again = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert again.returncode == 2 and "--resume" in again.stderr and folder.is_dir() and not out.exists()
    # a different command (another mode) may not resume this run
    other = _deid(src, out, key, "--jobs", "2", "--chunk-size", "10", "--mode", "tag", "--resume")
    assert other.returncode == 2 and "different command" in other.stderr and "options" in other.stderr
    # killed once more while resuming, then resumed to the end
    finished_before = len(list(folder.glob("chunk-*.pkl")))
    if _kill_after(cmd + ["--resume"], env, folder, finished_before + 2):
        assert not out.exists()
        _wait_for_orphans(out)
    done = subprocess.run(cmd + ["--resume"], env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == ref.read_bytes()
    assert not folder.exists()


def test_resume_needs_a_key_file_and_an_output(corpus, tmp_path):
    src, _ = corpus
    cmd, env = _cli("deid", src, "-o", tmp_path / "o.jsonl", "--model", "rules-en", "--resume")
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert r.returncode == 2 and "--resume needs --key-file" in r.stderr


def test_failing_document_writes_nothing_and_leaves_no_run_folder(tmp_path):
    src = tmp_path / "in.jsonl"
    rows = [{"id": f"n{i}", "patient": f"P{i % 3}", "text": "Seen by Ruiz.",
             "spans": [{"start": 8, "end": 12, "type": "DOCTOR"}]} for i in range(12)]
    rows[7]["spans"].append({"start": 9, "end": 11, "type": "AGE"})  # overlapping: refused
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    cmd, env = _cli("deid", src, "-o", out, "--spans-from-input", "--mode", "tag", "--jobs", "2", "--chunk-size", "2")
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert r.returncode == 2 and "document 8 (doc#" in r.stderr and "Ruiz" not in r.stderr
    assert not out.exists() and not list(tmp_path.glob(".notescrub-run.*"))
    r = subprocess.run(cmd + ["--skip-bad"], env=env, capture_output=True, text=True, timeout=600, check=False)
    assert r.returncode == 1
    assert [json.loads(x)["id"] for x in out.read_text(encoding="utf-8").splitlines()] == \
        [f"n{i}" for i in range(12) if i != 7]


@pytest.fixture(scope="module")
def table(corpus, tmp_path_factory):
    """The corpus as a warehouse-style Parquet table: integer ids, renamed columns, a column not released."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    src, key = corpus
    rows = [json.loads(x) for x in src.read_text(encoding="utf-8").splitlines()]
    path = tmp_path_factory.mktemp("table") / "notes.parquet"
    pq.write_table(pa.table({
        "note_id": pa.array(range(len(rows)), pa.int64()),
        "dept": [f"dept-{i % 4}" for i in range(len(rows))],
        "note_text": [r["text"] for r in rows],
        "contact": ["not released"] * len(rows),
        "mrn": [r.get("patient") for r in rows],
    }), path, row_group_size=50)
    return path, key


TABLE_OPTS = ("--text-column", "note_text", "--id-column", "note_id", "--patient-column", "mrn", "--keep-field", "dept")


def test_table_shape_same_bytes_for_jobs_and_after_sigkill_resume(table, tmp_path):
    import pyarrow.parquet as pq

    src, key = table
    ref = tmp_path / "ref.parquet"
    r = _deid(src, ref, key, *TABLE_OPTS)
    assert r.returncode == 0, r.stderr
    got = pq.read_table(ref)
    assert got.column_names == ["note_id", "dept", "note_text", "mrn", "spans"]
    assert got.column("note_id").to_pylist() == list(range(160)) and str(got.schema.field("note_id").type) == "int64"
    two = tmp_path / "two.parquet"
    assert _deid(src, two, key, *TABLE_OPTS, "--jobs", "2", "--chunk-size", "7").returncode == 0
    assert two.read_bytes() == ref.read_bytes()
    out = tmp_path / "out.parquet"
    folder = tmp_path / ".notescrub-run.out.parquet"
    cmd, env = _cli("deid", src, "-o", out, "--model", "rules-en", "--key-file", key, "--jobs", "2",
                    "--chunk-size", "10", *TABLE_OPTS)
    assert _kill_after(cmd, env, folder, 3), "the run ended before it could be killed"
    assert not out.exists()
    _wait_for_orphans(out)  # orphaned workers notice their parent is gone and exit
    done = subprocess.run(cmd + ["--resume"], env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == ref.read_bytes()


def test_annotate_force_discards_an_interrupted_run(corpus, tmp_path):
    from notescrub.scale.workdir import RunFolder

    src, _ = corpus
    out = tmp_path / "ann.jsonl"
    left = RunFolder.for_output(out)  # what a killed run leaves beside its output
    left.open({"command": "annotate", "input": "another run"}, resume=False)
    (left.path / "chunk-000000.pkl").write_bytes(b"stale")
    cmd, env = _cli("annotate", src, "-o", out, "--model", "rules-en")
    refused = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert refused.returncode == 2 and "--resume" in refused.stderr and "--force" in refused.stderr
    assert left.path.is_dir() and not out.exists()
    done = subprocess.run(cmd + ["--force"], env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert not left.path.exists() and len(out.read_text(encoding="utf-8").splitlines()) == 160
