"""Load test of ``notescrub serve`` on loopback: throughput, latency percentiles, overload.

Starts the service as a subprocess on 127.0.0.1 (random free port), waits for
``/ready``, then:

1. **steady**: ``--clients`` concurrent clients (default 200) send ``--requests``
   (default 10,000) ``POST /v1/deid`` requests (surrogate mode) of typical notes,
   each ~400 words (two synthetic notes from ``notescrub synth`` joined). Target:
   0 errors; reported: throughput and p50/p95/p99 latency.
2. **overload**: the same clients against a second service with a queue of
   ``--overload-queue`` (default 8): requests beyond workers + queue must get 503 at
   once, none may be lost, and the service must keep serving. Every request is
   accounted for twice: by the clients' status counts and by the service's
   ``/v1/stats`` (admitted = completed + timed out; rejected = the 503s).

Only loopback is used and the run is bounded by the request counts. Needs the
``serve`` extra and httpx (``dev`` extra). Result JSON on stdout and in ``--out``::

    python benchmarks/serve_load.py --out benchmarks/results/serve-load.json
    python benchmarks/serve_load.py --model rules-en --requests 2000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "load-test-token-0123456789abcdef"


def typical_notes(n: int = 200, seed: int = 19) -> list[str]:
    """``n`` notes of ~400 words: pairs of synthetic notes (fictional PHI) joined by a blank line."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "syn.jsonl"
        subprocess.run([sys.executable, "-m", "notescrub", "-q", "synth", "generate", "-n", str(2 * n),
                        "-o", str(path), "--seed", str(seed)], check=True, env=_env())
        texts = [json.loads(line)["text"] for line in path.read_text(encoding="utf-8").splitlines()]
    return [texts[2 * i] + "\n\n" + texts[2 * i + 1] for i in range(n)]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Service:
    def __init__(self, model: str, workers: int, queue: int, timeout: float) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**_env(), "NOTESCRUB_TOKEN": TOKEN}
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the service
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "notescrub", "serve", "--port", str(self.port), "--model", model,
             "--workers", str(workers), "--queue", str(queue), "--timeout", str(timeout)],
            env=env, stdout=self.log, stderr=subprocess.STDOUT)
        t0 = time.monotonic()
        import httpx

        while True:
            if self.proc.poll() is not None:
                raise SystemExit(f"service exited with status {self.proc.returncode}")
            try:
                if httpx.get(self.url + "/ready", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() - t0 > 300:
                raise SystemExit("service not ready after 300 s")
            time.sleep(0.25)
        self.start_seconds = round(time.monotonic() - t0, 2)

    def stats(self) -> dict[str, int]:
        import httpx

        return httpx.get(self.url + "/v1/stats", headers={"authorization": f"Bearer {TOKEN}"}, timeout=30).json()

    def stop(self) -> dict[str, object]:
        alive = self.proc.poll() is None
        self.proc.terminate()
        self.proc.wait(timeout=60)
        self.log.seek(0)
        text = self.log.read().decode("utf-8", "replace")
        return {"alive_at_end": alive, "error_lines_in_log": sum("ERROR" in line for line in text.splitlines())}


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


async def _drive(url: str, notes: list[str], clients: int, requests: int) -> dict[str, object]:
    import httpx

    counter = iter(range(requests))
    latencies: dict[int, list[float]] = {}
    statuses: Counter[str] = Counter()
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    headers = {"authorization": f"Bearer {TOKEN}"}
    async with httpx.AsyncClient(base_url=url, limits=limits, headers=headers, timeout=120) as client:

        async def one_client(c: int) -> None:
            for i in counter:
                body = {"text": notes[i % len(notes)], "id": str(i), "patient_id": f"P{i % 50}"}
                t0 = time.perf_counter()
                try:
                    r = await client.post("/v1/deid", json=body)
                    code = r.status_code
                    if code == 200 and not r.json().get("text"):
                        code = -1  # an answer without text counts as an error
                except httpx.HTTPError as exc:
                    code = type(exc).__name__
                latencies.setdefault(code, []).append(time.perf_counter() - t0) if isinstance(code, int) else None
                statuses[str(code)] += 1

        t0 = time.perf_counter()
        await asyncio.gather(*(one_client(c) for c in range(clients)))
        wall = time.perf_counter() - t0
    ok = latencies.get(200, [])
    return {
        "requests": requests, "clients": clients, "wall_seconds": round(wall, 2),
        "statuses": dict(sorted(statuses.items())),
        "throughput_ok_per_s": round(len(ok) / wall, 1),
        "latency_ms_200": {"p50": _pct(ok, 0.50), "p95": _pct(ok, 0.95), "p99": _pct(ok, 0.99),
                           "max": _pct(ok, 1.0)},
        "latency_ms_503": {"p50": _pct(latencies.get(503, []), 0.50), "p99": _pct(latencies.get(503, []), 0.99)},
    }


def _phase(args: argparse.Namespace, notes: list[str], queue: int, requests: int) -> dict[str, object]:
    svc = Service(args.model, args.workers, queue, args.timeout)
    try:
        before = svc.stats()
        out = asyncio.run(_drive(svc.url, notes, args.clients, requests))
        after = svc.stats()
        # a request still in a worker after its client gave up would show here
        out["service_stats"] = {k: after[k] - before.get(k, 0) if k not in ("workers", "capacity", "in_flight") else after[k]
                                for k in after}
        out["service_start_seconds"] = svc.start_seconds
        st, s = out["statuses"], out["service_stats"]
        sent = sum(st.values())
        out["accounting"] = {
            "client_total_equals_requests": sent == requests,
            "service_rejected_equals_client_503": s["rejected"] == st.get("503", 0),
            "service_admitted_equals_client_200_plus_504": s["admitted"] == st.get("200", 0) + st.get("504", 0),
            "service_admitted_equals_completed_plus_timed_out": s["admitted"] == s["completed"] + s["timed_out"],
        }
        out["queue"] = queue
    finally:
        out_stop = svc.stop()
    out.update(out_stop)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="en-default")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--clients", type=int, default=200)
    ap.add_argument("--requests", type=int, default=10_000)
    ap.add_argument("--queue", type=int, default=256, help="queue of the steady run (>= clients: no 503 expected)")
    ap.add_argument("--overload-queue", type=int, default=8)
    ap.add_argument("--overload-requests", type=int, default=2_000)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    notes = typical_notes()
    words = statistics.mean(len(n.split()) for n in notes)
    result = {
        "benchmark": "serve_load", "model": args.model, "workers": args.workers, "mode": "surrogate",
        "endpoint": "POST /v1/deid", "note_words_mean": round(words, 1), "distinct_notes": len(notes),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "steady": _phase(args, notes, args.queue, args.requests),
        "overload": _phase(args, notes, args.overload_queue, args.overload_requests),
    }
    text = json.dumps(result, indent=2)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
