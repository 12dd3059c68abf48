"""Long fuzzing run of every reader (notescrub.io.fuzz); JSON figures on stdout.

    python benchmarks/fuzz_readers.py --cases 10000 > benchmarks/results/fuzz-readers.json
    python benchmarks/fuzz_readers.py --cases 100000 --formats jsonl,csv --jobs 2

Each case: a mutated seed file read, written back in its format and read again, under a
per-case time limit. Crashes (exceptions other than notescrub's errors) and hangs are
counted and grouped by exception type and place; ``--save DIR`` keeps the crashing inputs.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import time
from pathlib import Path

from notescrub.io.fuzz import FORMATS, fuzz


def _one(job: tuple[str, int, int, float, str | None]) -> dict:
    fmt, cases, seed, limit, save = job
    saved: list[int] = []

    def keep(signature: str, data: bytes) -> None:
        if save and len(saved) < 20:
            folder = Path(save) / fmt
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"case-{len(saved)}.bin").write_bytes(data)
            saved.append(1)

    t0 = time.process_time()
    report = fuzz(fmt, cases=cases, seed=seed, time_limit=limit, on_crash=keep).as_dict()
    report["cpu_s"] = round(time.process_time() - t0, 1)
    report["seed"] = seed
    return report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=10_000, help="cases per format")
    ap.add_argument("--formats", default=",".join(FORMATS))
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--limit", type=float, default=10.0, help="seconds per case before it counts as a hang")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--save", help="folder for crashing inputs")
    args = ap.parse_args()
    jobs = [(f, args.cases, args.seed, args.limit, args.save) for f in args.formats.split(",")]
    with mp.get_context("fork").Pool(args.jobs) as pool:
        reports = pool.map(_one, jobs)
    total = {k: sum(r[k] for r in reports) for k in ("cases", "ok", "clean_errors", "crashes", "hangs")}
    print(json.dumps({"per_format": reports, "total": total}, indent=2))


if __name__ == "__main__":
    main()
