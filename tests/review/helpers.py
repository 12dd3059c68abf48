"""A small fictional corpus and a real ``notescrub review`` server process on a free port."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
SAMPLE = ROOT / "examples" / "sample_note.txt"

NOTES = [
    {"id": "short-1", "patient": "P2", "text": "Seen by Dr. Ruiz on 3/18/2024 at Mercy Hospital. Call 555-123-4567."},
    {"id": "short-2", "patient": "P3", "text": "Mrs. Alvarez, 54, from Tucson was seen today by Dr. Kim."},
    {"id": "short-3", "patient": "P4", "text": "Follow up with Dr. Osei on 04/02/2024. Email osei@example.org."},
]


def write_corpus(path: Path, with_sample: bool = True) -> Path:
    """Fictional notes as JSONL (the bundled sample note first, when asked)."""
    notes = ([{"id": "sample", "patient": "P1", "text": SAMPLE.read_text(encoding="utf-8")}] if with_sample else [])
    with open(path, "w", encoding="utf-8") as fh:
        for n in notes + NOTES:
            fh.write(json.dumps(n) + "\n")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ReviewServer:
    """``python -m notescrub review CORPUS --db DB --model rules-en`` as a subprocess."""

    def __init__(self, corpus: Path | None, db: Path, *extra: str, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = db.with_suffix(f".{self.port}.log")
        self._log = open(self.log_path, "w+b")  # noqa: SIM115 - closed by stop()
        full_env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}", **(env or {})}
        args = [sys.executable, "-m", "notescrub", "review", *([str(corpus)] if corpus else []), "--db", str(db),
                "--model", "rules-en", "--port", str(self.port), "--reviewer", "tester", *extra]
        self.proc = subprocess.Popen(args, env=full_env, stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"review server exited with {self.proc.returncode}: {self.log()}")
            try:
                if self.call("GET", "/health")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError("review server not ready in time: " + self.log())

    def log(self, expect: str | None = None, timeout: float = 15.0) -> str:
        """The server's log so far; with ``expect``, wait until it holds that text (the server
        writes a request's log line after sending the response, so a busy machine lags)."""
        deadline = time.monotonic() + timeout
        while True:
            if not self._log.closed:
                self._log.flush()
            text = self.log_path.read_bytes().decode("utf-8", "replace")
            if expect is None or expect in text or time.monotonic() > deadline:
                return text
            time.sleep(0.05)

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
             ) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        hdrs = {"Content-Type": "application/json"} if data is not None else {}
        req = urllib.request.Request(self.base + path, data=data, method=method, headers={**hdrs, **(headers or {})})
        try:
            with urllib.request.urlopen(req, timeout=30) as res:
                raw, status = res.read(), res.status
        except urllib.error.HTTPError as exc:
            raw, status = exc.read(), exc.code
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, raw.decode("utf-8", "replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()
