"""Peak memory of a command and all its child processes, sampled from ``/proc`` (Linux).

Every ``interval`` seconds the resident set (RSS) and the proportional set (PSS: pages
shared by forked workers counted once in total, split between them) of the process and
all its descendants are summed; the peaks of the two sums are returned with the wall time.

>>> r = run_measured([sys.executable, "-c", "x = bytearray(50_000_000)"])
>>> r["returncode"], r["peak_rss_mib"] > 40
(0, True)
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

__all__ = ["run_measured"]


def _children() -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        out.setdefault(ppid, []).append(int(d.name))
    return out


def _tree(root: int) -> list[int]:
    kids = _children()
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, ()))
    return out


def _mem(pid: int) -> tuple[int, int]:
    """(RSS, PSS) in kB of one process (0, 0 when it is gone)."""
    rss = pss = 0
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Rss:"):
                rss = int(line.split()[1])
            elif line.startswith("Pss:"):
                pss = int(line.split()[1])
    except (OSError, ValueError):
        pass
    return rss, pss


def run_measured(cmd: list[str], *, interval: float = 0.2, env: dict | None = None, **popen) -> dict:
    """Run ``cmd``; return its return code, wall seconds and peak summed RSS/PSS (MiB) of its process tree."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, **popen)
    peak_rss = peak_pss = 0
    procs = 1
    while proc.poll() is None:
        pids = _tree(proc.pid)
        rss = pss = 0
        for p in pids:
            r, s = _mem(p)
            rss += r
            pss += s
        peak_rss, peak_pss = max(peak_rss, rss), max(peak_pss, pss)
        procs = max(procs, len(pids))
        time.sleep(interval)
    wall = time.perf_counter() - t0
    return {"returncode": proc.returncode, "wall_s": round(wall, 2), "peak_rss_mib": round(peak_rss / 1024, 1),
            "peak_pss_mib": round(peak_pss / 1024, 1), "processes": procs}


if __name__ == "__main__":  # python benchmarks/_procmem.py CMD ...
    import json

    print(json.dumps(run_measured(sys.argv[1:])))


def notescrub_command(*args: str) -> list[str]:
    """``python -m notescrub -q ARGS`` with this interpreter."""
    return [sys.executable, "-m", "notescrub", "-q", *args]


def load_average() -> str:
    """The machine's 1, 5 and 15 minute load averages, as ``/proc/loadavg`` prints them."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def synth_corpus(folder: Path, n: int, suffix: str = ".jsonl") -> Path:
    """``n`` synthetic notes (seed 0) in ``folder``, generated once and reused."""
    path = folder / f"synth-{n}{suffix}"
    if not path.exists():
        subprocess.run(notescrub_command("synth", "generate", "-n", str(n), "--seed", "0", "-o", str(path)), check=True)
    return path
