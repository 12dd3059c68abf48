"""The code passes ``ruff`` and ``mypy`` with the settings in ``pyproject.toml``.

CI runs only the README's test command, so the linters run here, as tests: a finding
fails the test and its message is the tool's report (file, line, rule). Both tools come
with the ``dev`` extra; run them directly while working (see CONTRIBUTING.md)::

    python -m ruff check src tests scripts benchmarks
    python -m mypy
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: What ruff checks: everything written in Python (mypy checks the package: ``files`` in pyproject.toml).
RUFF_PATHS = ["src", "tests", "scripts", "benchmarks"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing() -> None:
    res = _run("ruff", "check", "--no-fix", "--output-format", "concise", *RUFF_PATHS)
    assert res.returncode == 0, f"ruff check failed:\n{res.stdout}{res.stderr}"


def test_mypy_finds_nothing() -> None:
    # the cache (.mypy_cache, git-ignored) makes a second run take seconds instead of a minute
    res = _run("mypy", "--cache-dir", str(ROOT / ".mypy_cache"))
    assert res.returncode == 0, f"mypy failed:\n{res.stdout}{res.stderr}"
    assert "Success" in res.stdout
