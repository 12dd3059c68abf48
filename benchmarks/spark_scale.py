"""Spark: ``notescrub spark deid`` on ``local[1]`` vs ``local[2]``, and its overhead over ``deid --jobs 2``.

Synthetic notes from ``notescrub synth generate`` (seed 0) as one Parquet file. Each
measurement is one ``notescrub -q ...`` process tree (for Spark: the driver, its JVM and
the Python workers), sampled from ``/proc`` every 0.2 s (``benchmarks/_procmem.py``).
A 10-note Spark run measures the fixed cost (JVM start, session, first Python worker).
The load average is recorded with every run: on a shared machine the times are only
comparable within one run of this script.

    python benchmarks/spark_scale.py --notes 10000 > benchmarks/results/spark-scale.json
    python benchmarks/spark_scale.py --notes 2000 --model rules-en
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _procmem import load_average, notescrub_command, run_measured, synth_corpus  # noqa: E402 - a sibling module, found through the path set above


def measure(label: str, args: list[str], notes: int, out: Path) -> dict:
    if out.exists():
        shutil.rmtree(out) if out.is_dir() else out.unlink()
    load = load_average()
    r = run_measured(notescrub_command(*args))
    r.update(run=label, notes=notes, load_before=load, load_after=load_average())
    r["notes_per_s"] = round(notes / r["wall_s"], 1)
    print(json.dumps(r), file=sys.stderr, flush=True)
    return r


def texts(path: Path) -> list[str]:
    import pyarrow.parquet as pq

    return [r["text"] for r in pq.read_table(path, columns=["text"]).to_pylist()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="rules-en")
    ap.add_argument("--notes", type=int, default=10000)
    ap.add_argument("--work", default=None, help="folder for corpora and outputs (default: a temporary one)")
    a = ap.parse_args()
    folder = Path(a.work or tempfile.mkdtemp(prefix="notescrub-spark-"))
    folder.mkdir(parents=True, exist_ok=True)
    key = folder / "bench.key"
    if not key.exists():
        subprocess.run(notescrub_command("key", "new", str(key)), check=True, capture_output=True)
    src, tiny = synth_corpus(folder, a.notes, ".parquet"), synth_corpus(folder, 10, ".parquet")
    common = ["--model", a.model, "--key-file", str(key), "--force"]
    runs = {}
    out = folder / "spark-startup"
    runs["spark_local2_10_notes"] = measure("spark local[2], 10 notes", ["spark", "deid", str(tiny), "-o", str(out),
                                            "--master", "local[2]", *common], 10, out)
    for cores in (1, 2):
        out = folder / f"spark-local{cores}"
        runs[f"spark_local{cores}"] = measure(f"spark local[{cores}]", ["spark", "deid", str(src), "-o", str(out),
                                              "--master", f"local[{cores}]", *common], a.notes, out)
    out = folder / "jobs2.parquet"
    runs["deid_jobs2"] = measure("deid --jobs 2", ["deid", str(src), "-o", str(out), "--jobs", "2", *common],
                                 a.notes, out)
    same = texts(folder / "spark-local2") == texts(folder / "spark-local1") == texts(out)
    result = {
        "benchmark": "spark-scale",
        "commands": {
            "spark": f"notescrub -q spark deid synth-{a.notes}.parquet -o OUT --master local[N] --model {a.model} "
                     "--key-file K",
            "deid": f"notescrub -q deid synth-{a.notes}.parquet -o OUT.parquet --jobs 2 --model {a.model} --key-file K",
        },
        "cpus": os.cpu_count(),
        "uptime": subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip(),
        "runs": runs,
        "speedup_local2_over_local1": round(runs["spark_local1"]["wall_s"] / runs["spark_local2"]["wall_s"], 2),
        "spark_local2_over_deid_jobs2": round(runs["spark_local2"]["wall_s"] / runs["deid_jobs2"]["wall_s"], 2),
        "texts_identical": same,
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
