"""End-to-end speed and memory of ``notescrub deid`` on 1,000 distinct notes, one core.

Issue 7's target: de-identifying 1,000 typical notes (~400 words) takes <= 20 s on one
core (>= 50 notes/s) with peak memory <= 1 GB. This script measures exactly that, the
way a user runs it: one ``notescrub deid corpus.jsonl -o out.jsonl`` process (model load,
reading, detection, surrogate replacement, atomic writing), pinned to one CPU.

Before timing, the package's bytecode is compiled and numba's kernel cache is filled (what
the first run after an installation does once; see ``_prepare_install``).

The 1,000 notes are the 65 fictional en-dev notes re-populated with random surrogates
under 16 seeds (``notescrub.replace.repopulate``), so every note has different PHI but
the layouts and phrasing of real-looking notes. Result (JSON) on stdout::

    python benchmarks/deid_1000.py > benchmarks/results/deid-1000.json
    python benchmarks/deid_1000.py --corpus my-notes.jsonl --model es-meddocan
    python benchmarks/deid_1000.py --preset max-recall     # O-bias -3.5 with the leftover net
    python benchmarks/deid_1000.py --recall-bias 3.5       # the same O-bias without it
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EN_DEV = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "en-dev" / "en-dev.jsonl"


def build_corpus(path: Path, n: int) -> tuple[int, int]:
    """Write ``n`` re-populated en-dev notes (without gold) to ``path``; return (notes, words)."""
    from notescrub.io import read_corpus, write_corpus
    from notescrub.replace.repopulate import repopulate_corpus
    from notescrub.types import Document

    dev = list(read_corpus(EN_DEV))
    docs, seed = [], 0
    while len(docs) < n:
        seed += 1
        for d in repopulate_corpus([x.copy() for x in dev], style="random", seed=seed):
            docs.append(Document(f"{d.id}-s{seed}", d.text, f"{d.patient_id}-s{seed}"))
    docs = docs[:n]
    write_corpus(docs, path)
    return len(docs), sum(len(re.findall(r"\w+", d.text)) for d in docs)


def _prepare_install() -> None:
    """Put the installation in the state of one that has run before (not timed).

    A normal Python writes the package's bytecode on first import and numba caches the
    compiled CRF kernels after the first batch; an environment with
    ``PYTHONDONTWRITEBYTECODE`` set (or a fresh clone) would otherwise pay both costs in
    every timed run (about 0.3 s and 2.5 s).
    """
    import compileall

    import notescrub

    compileall.compile_dir(str(Path(notescrub.__file__).parent), quiet=1)
    subprocess.run([sys.executable, "-c", "from notescrub.detect.crf.kernels import kernel; kernel('numba')"],
                   check=False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--notes", type=int, default=1000)
    ap.add_argument("--corpus", type=Path, help="use this corpus instead of re-populated en-dev")
    ap.add_argument("--model", default=None)
    ap.add_argument("--mode", default="surrogate")
    ap.add_argument("--preset", help="operating point of a hybrid model (deid --preset)")
    ap.add_argument("--recall-bias", help="deid --recall-bias (e.g. 3: the max-recall O-bias without its net)")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="deid-1000-"))
    try:
        if args.corpus:
            from notescrub.io import read_corpus

            docs = list(read_corpus(args.corpus))
            corpus, notes = args.corpus, len(docs)
            words = sum(len(re.findall(r"\w+", d.text)) for d in docs)
        else:
            corpus = work / "notes.jsonl"
            notes, words = build_corpus(corpus, args.notes)
        key = work / "bench.key"
        key.write_text("0" * 64 + "\n")
        key.chmod(0o600)  # as a user's key file should be (otherwise deid warns)
        cmd = [sys.executable, "-m", "notescrub", "-q", "deid", str(corpus), "-o", str(work / "out.jsonl"),
               "--mode", args.mode, "--key-file", str(key)]
        if args.model:
            cmd += ["--model", args.model]
        if args.preset:
            cmd += ["--preset", args.preset]
        if args.recall_bias:
            cmd += ["--recall-bias", args.recall_bias]
        if shutil.which("taskset"):
            cmd = ["taskset", "-c", "0"] + cmd
        _prepare_install()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        print(json.dumps({
            "benchmark": "deid-1000", "command": " ".join(cmd[cmd.index("deid") - 2:]).replace(str(work), "$TMP"),
            "model": args.model or "en-default", "notes": notes, "words": words,
            "words_per_note": round(words / notes), "cpu_s": round(cpu, 2), "wall_s": round(wall, 2),
            "notes_per_s_cpu": round(notes / cpu, 1), "notes_per_s_wall": round(notes / wall, 1),
            "seconds_per_1000_notes_cpu": round(1000 * cpu / notes, 1),
            "max_rss_mib": round(after.ru_maxrss / 1024, 1), "load_average_1min": round(os.getloadavg()[0], 2),
        }, indent=1))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    from notescrub.errors import NotescrubError

    try:
        main()
    except NotescrubError as exc:  # a bad --corpus: the reader's message names the file
        sys.exit(f"deid_1000: {exc}")
