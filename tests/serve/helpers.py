"""Start ``notescrub serve`` as a real uvicorn process on loopback and talk to it with urllib."""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.server_process import ServerProcess, free_port


class Server(ServerProcess):
    """A running service; ``call`` returns ``(status, json body, headers)``."""

    name = "server"
    stop_timeout = 30.0

    def __init__(self, args: list[str], token: str | None = None, env: dict[str, str] | None = None,
                 ready_timeout: float = 600.0) -> None:
        self.port = free_port()
        self.token = token
        self.base = f"http://127.0.0.1:{self.port}"
        full_env = {**(env or {}), **({"NOTESCRUB_TOKEN": token} if token else {})}
        log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"notescrub-serve-{self.port}.log"
        self.launch(["serve", "--port", str(self.port), *args], log_path, full_env, ready_timeout, poll=0.3)

    def ready(self) -> bool:
        return self.call("GET", "/ready", auth=False)[0] == 200

    def log(self) -> str:
        return self.read_log()

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
