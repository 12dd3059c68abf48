"""Start ``notescrub serve`` as a real uvicorn process on loopback and talk to it with urllib."""

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

SRC = Path(__file__).resolve().parents[2] / "src"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A running service; ``call`` returns ``(status, json body, headers)``."""

    def __init__(self, args: list[str], token: str | None = None, env: dict[str, str] | None = None,
                 ready_timeout: float = 600.0) -> None:
        self.port = free_port()
        self.token = token
        self.base = f"http://127.0.0.1:{self.port}"
        full_env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}", **(env or {})}
        if token:
            full_env["NOTESCRUB_TOKEN"] = token
        self.log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"notescrub-serve-{self.port}.log"
        self._log = open(self.log_path, "w+b")  # noqa: SIM115 - closed by stop()
        self.proc = subprocess.Popen([sys.executable, "-m", "notescrub", "serve", "--port", str(self.port), *args],
                                     env=full_env, stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + ready_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}: {self.log()}")
            try:
                if self.call("GET", "/ready", auth=False)[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.3)
        self.stop()
        raise RuntimeError("server not ready in time: " + self.log())

    def log(self) -> str:
        if not self._log.closed:
            self._log.flush()
        return self.log_path.read_bytes().decode("utf-8", "replace")

    def call(self, method: str, path: str, body: Any = None, *, auth: bool = True, raw: bytes | None = None,
             headers: dict[str, str] | None = None, timeout: float = 60.0) -> tuple[int, Any, dict[str, str]]:
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("content-type", "application/json")
        if auth and self.token:
            req.add_header("authorization", f"Bearer {self.token}")
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                payload, status, hdrs = resp.read(), resp.status, dict(resp.headers)
        except urllib.error.HTTPError as err:
            payload, status, hdrs = err.read(), err.code, dict(err.headers)
        try:
            return status, json.loads(payload or b"null"), hdrs
        except json.JSONDecodeError:
            return status, payload.decode("utf-8", "replace"), hdrs

    def wait_idle(self, timeout: float = 120.0) -> None:
        """Wait until no request is in progress (a timed-out request keeps its worker busy)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.call("GET", "/v1/stats")[1]["in_flight"] == 0:
                return
            time.sleep(0.2)
        raise AssertionError("the service stayed busy")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()
