"""A notescrub server run as a real subprocess on a free loopback port (review and serve tests).

Subclasses say how to ask the server whether it is ready (:meth:`ServerProcess.ready`);
starting, waiting, reading the log and stopping are here once.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def free_port() -> int:
    """A TCP port on 127.0.0.1 nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``python -m notescrub ARGS`` with stdout and stderr in a log file."""

    name = "server"
    stop_timeout = 10.0

    def launch(self, args: list[str], log_path: Path, env: dict[str, str] | None = None,
               ready_timeout: float = 120.0, poll: float = 0.2) -> None:
        """Start the process and return once :meth:`ready` says so (or raise with its log)."""
        self.log_path = log_path
        self._log = open(log_path, "w+b")  # noqa: SIM115 - closed by stop()
        full_env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}", **(env or {})}
        self.proc = subprocess.Popen([sys.executable, "-m", "notescrub", *args], env=full_env, stdout=self._log,
                                     stderr=subprocess.STDOUT)
        deadline = time.monotonic() + ready_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.proc.returncode}: {self.read_log()}")
            try:
                if self.ready():
                    return
            except OSError:
                pass
            time.sleep(poll)
        self.stop()
        raise RuntimeError(f"{self.name} not ready in time: " + self.read_log())

    def ready(self) -> bool:
        raise NotImplementedError

    def read_log(self) -> str:
        """Everything the process wrote so far."""
        if not self._log.closed:
            self._log.flush()
        return self.log_path.read_bytes().decode("utf-8", "replace")

    def stop(self) -> None:
        """Terminate (then kill) the process and close its log."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=self.stop_timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()
