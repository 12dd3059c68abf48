"""One BLAS thread per process (``notescrub.threads``), set by the command line before numpy loads."""

from __future__ import annotations

import os
import subprocess
import sys

from notescrub.threads import BLAS_THREAD_VARIABLES, single_threaded_blas


def test_blas_gets_one_thread_unless_the_user_chose(monkeypatch):
    for var in BLAS_THREAD_VARIABLES:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "4")  # the user's choice stands
    single_threaded_blas()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1" and os.environ["OMP_NUM_THREADS"] == "1"
    assert os.environ["MKL_NUM_THREADS"] == "4"


def test_the_command_sets_it_before_numpy_loads():
    # the module imports no numpy, so main() sets the variables before any command loads it;
    # then numpy's OpenBLAS starts no helper thread (Linux: one thread in /proc/self/task)
    code = ("import os, sys\n"
            "for v in ('OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS', 'OMP_NUM_THREADS'): os.environ.pop(v, None)\n"
            "import notescrub.cli.main as m\n"
            "assert 'numpy' not in sys.modules\n"
            "try:\n    m.main(['--version'])\nexcept SystemExit:\n    pass\n"
            "import numpy\n"
            "print(os.environ['OPENBLAS_NUM_THREADS'], len(os.listdir('/proc/self/task')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split()[-2:] == ["1", "1"]  # (after the version line)
