"""The command line freezes its loaded model out of the cyclic collector (``notescrub.gcfreeze``)."""

from __future__ import annotations

import subprocess
import sys


def test_a_command_freezes_the_model_it_loaded():
    # in a fresh process: nothing is frozen before, the model's objects are after loading it
    code = ("import argparse, gc\n"
            "from notescrub.cli.options import add_model_options, load_model_from_args\n"
            "p = argparse.ArgumentParser(); add_model_options(p)\n"
            "before = gc.get_freeze_count()\n"
            "pipe = load_model_from_args(p.parse_args([]))\n"
            "from notescrub.types import Document\n"
            "out = pipe(Document('d', 'Seen by Dr. Ruiz on 3/18/2091.'))\n"
            "print(before, gc.get_freeze_count() > 10_000, len(out.layer('phi')) > 0)\n")
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert got.stdout.split() == ["0", "True", "True"]
