"""``notescrub train`` reports the iterations of its CRFs as deid and annotate report notes: lines, a bar, or nothing."""

from __future__ import annotations

import importlib.util
import io
import json
import re
from pathlib import Path

import pytest

from notescrub.cli.main import main
from notescrub.cli.progress import TrainingProgress
from notescrub.detect.crf.train_events import TrainingStep

_spec = importlib.util.spec_from_file_location("crf_synth", Path(__file__).parents[1] / "detect" / "crf" / "crf_synth.py")
crf_synth = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(crf_synth)


@pytest.fixture(scope="module")
def train_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("train") / "train.jsonl"
    with open(path, "w", encoding="utf-8") as fh:
        for d in crf_synth.corpus(12, seed=3):
            fh.write(json.dumps({"id": d.id, "text": d.text, "spans": [
                {"start": s.start, "end": s.end, "type": s.label} for s in d.layer("gold")]}) + "\n")
    return path


def test_train_prints_the_end_of_each_crf_and_nothing_with_q(train_file, tmp_path, capsys):
    assert main(["train", "--recipe", "carafe", "--train", str(train_file), "-o", str(tmp_path / "m"),
                 "--set", "max_iterations=4"]) == 0
    err = capsys.readouterr().err
    done = [x for x in err.splitlines() if x.startswith("notescrub train: ")]
    assert len(done) == 1 and re.match(r"notescrub train: \w+ done after [1-4] iterations, loss [\d.e+]+, \d+ s elapsed",
                                       done[0]), err
    assert main(["-q", "train", "--recipe", "carafe", "--train", str(train_file), "-o", str(tmp_path / "q"),
                 "--set", "max_iterations=4"]) == 0
    assert "notescrub train:" not in capsys.readouterr().err


def test_lines_every_interval_and_a_bar_on_a_terminal():
    steps = [TrainingStep("crf", i, 5, 100.0 / i) for i in range(1, 6)] + [TrainingStep("crf", 5, 5, 20.0, done=True)]
    out = io.StringIO()
    with TrainingProgress(stream=out, interval=0) as p:
        for s in steps:
            p(s)
    lines = out.getvalue().splitlines()
    assert [x.split(", ")[0] for x in lines] == [f"notescrub train: crf iteration {i}/5" for i in range(1, 6)] + [
        "notescrub train: crf done after 5 iterations"]
    assert lines[-1].split(", ")[1] == "loss 20"
    bar = io.StringIO()
    with TrainingProgress(stream=bar, tty=True) as p:  # a second model gets its own bar
        for s in [*steps, TrainingStep("second", 1, 3, 8.0), TrainingStep("second", 2, 3, 4.0, done=True)]:
            p(s)
    shown = bar.getvalue()
    assert "notescrub train: crf" in shown and "5/5" in shown and "notescrub train: second" in shown
    assert "2/2" in shown  # converged before its maximum: the bar ends full
    quiet = io.StringIO()
    with TrainingProgress(stream=quiet, interval=0, quiet=True) as p:
        for s in steps:
            p(s)
    assert quiet.getvalue() == ""
