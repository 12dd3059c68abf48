"""A small fictional corpus and a real ``notescrub review`` server process on a free port."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.server_process import ServerProcess, free_port

ROOT = Path(__file__).resolve().parents[2]
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


class ReviewServer(ServerProcess):
    """``python -m notescrub review CORPUS --db DB --model rules-en`` as a subprocess."""

    name = "review server"

    def __init__(self, corpus: Path | None, db: Path, *extra: str, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        args = ["review", *([str(corpus)] if corpus else []), "--db", str(db),
                "--model", "rules-en", "--port", str(self.port), "--reviewer", "tester", *extra]
        self.launch(args, db.with_suffix(f".{self.port}.log"), env)

    def ready(self) -> bool:
        return self.call("GET", "/health")[0] == 200

    def log(self, expect: str | None = None, timeout: float = 15.0) -> str:
        """The server's log so far; with ``expect``, wait until it holds that text (the server
        writes a request's log line after sending the response, so a busy machine lags)."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.read_log()
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
