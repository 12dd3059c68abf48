"""Corpus scale: ``--jobs 1`` vs ``--jobs 2`` time and peak memory (all processes) per corpus size.

Synthetic notes come from ``notescrub synth generate`` (seed 0). Each measurement is one
``notescrub -q COMMAND`` process tree, sampled from ``/proc`` every 0.2 s
(``benchmarks/_procmem.py``: summed RSS, and summed PSS, which counts pages shared by
forked workers once). The machine's load average is recorded next to every run: on a
shared machine the times are only comparable within one run of this script.

    python benchmarks/scale.py --model rules-en > benchmarks/results/scale.json
    python benchmarks/scale.py --model en-default --sizes 1000,5000 --speed-notes 2000
    python benchmarks/scale.py --model en-default --sizes none --repeats 3   # timing only

With ``--repeats K`` the timing runs ``--jobs 1`` and ``--jobs 2`` alternately K times
(j1, j2, j1, j2, ...): the speed-up of each pair is reported and the headline figure is the
median over pairs, so that a drift of the machine's speed during the run shows as spread
instead of being taken for a speed-up.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _procmem import load_average, notescrub_command, run_measured, synth_corpus  # noqa: E402 - a sibling module, found through the path set above


def measure(command: str, src: Path, folder: Path, model: str, jobs: int, key: Path) -> dict:
    out = folder / f"out-{command}-{src.stem}-j{jobs}.jsonl"
    # an output left by an earlier (interrupted) run of this script must not end the measurement:
    # deid replaces it with --force; annotate has no such option, so its old output goes first
    args = [command, str(src), "-o", str(out), "--model", model, "--jobs", str(jobs)]
    if command == "deid":
        args += ["--key-file", str(key), "--force"]
    else:
        out.unlink(missing_ok=True)
    load = load_average()
    r = run_measured(notescrub_command(*args))
    if r["returncode"] != 0:
        raise SystemExit(f"notescrub {command} --jobs {jobs} on {src.name} exited with {r['returncode']}")
    r.update(command=command, model=model, jobs=jobs, notes=int(src.stem.split("-")[1]), load_before=load,
             load_after=load_average())
    r["notes_per_s"] = round(r["notes"] / r["wall_s"], 1)
    print(json.dumps(r), file=sys.stderr, flush=True)
    return r


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="rules-en")
    ap.add_argument("--command", default="deid", choices=("deid", "annotate"))
    ap.add_argument("--sizes", default="1000,5000,20000",
                    help="corpus sizes for the memory curve (--jobs 1); 'none' skips it")
    ap.add_argument("--memory-jobs", type=int, default=1, help="--jobs of the memory curve")
    ap.add_argument("--speed-notes", type=int, default=10000,
                    help="corpus size of the --jobs 1 vs 2 timing (0 skips it)")
    ap.add_argument("--repeats", type=int, default=1, help="alternating --jobs 1 / --jobs 2 pairs of the timing")
    ap.add_argument("--work", default=None, help="folder for corpora and outputs (default: a temporary one)")
    a = ap.parse_args()
    folder = Path(a.work or tempfile.mkdtemp(prefix="notescrub-scale-"))
    folder.mkdir(parents=True, exist_ok=True)
    key = folder / "bench.key"
    if not key.exists():
        subprocess.run(notescrub_command("key", "new", str(key)), check=True, capture_output=True)
    sizes = [] if a.sizes.strip().lower() == "none" else [int(n) for n in a.sizes.split(",")]
    memory = [measure(a.command, synth_corpus(folder, n), folder, a.model, a.memory_jobs, key) for n in sizes]
    pairs = []
    src = synth_corpus(folder, a.speed_notes) if a.speed_notes > 0 else None
    for _ in range(max(1, a.repeats) if src is not None else 0):
        pair = {f"jobs_{j}": measure(a.command, src, folder, a.model, j, key) for j in (1, 2)}
        pair["speedup"] = round(pair["jobs_1"]["wall_s"] / pair["jobs_2"]["wall_s"], 2)
        pair["outputs_identical"] = (folder / f"out-{a.command}-{src.stem}-j1.jsonl").read_bytes() == \
            (folder / f"out-{a.command}-{src.stem}-j2.jsonl").read_bytes()
        pairs.append(pair)
    result = {
        "benchmark": "scale",
        "command": f"notescrub -q {a.command} synth.jsonl -o out.jsonl --model {a.model} --jobs N",
        "cpus": os.cpu_count(),
        "uptime": subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip(),
        "memory_by_size": memory,
    }
    if pairs:
        result.update(speed=pairs[0] if len(pairs) == 1 else pairs,
                      speedup_jobs2=statistics.median(p["speedup"] for p in pairs),
                      outputs_identical=all(p["outputs_identical"] for p in pairs))
    if memory:
        rss = [m["peak_rss_mib"] for m in memory]
        pss = [m["peak_pss_mib"] for m in memory]
        result["memory_spread_pct"] = round(100 * (max(rss) - min(rss)) / min(rss), 1)
        result["memory_spread_pss_pct"] = round(100 * (max(pss) - min(pss)) / min(pss), 1)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
