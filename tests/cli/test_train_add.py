"""`notescrub train --add`: reviewed notes exported by `notescrub review` join a small recipe's training data."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from notescrub.cli.main import main
from notescrub.review.store import NoteInput, ReviewStore

_spec = importlib.util.spec_from_file_location("crf_synth", Path(__file__).parents[1] / "detect" / "crf" / "crf_synth.py")
crf_synth = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(crf_synth)

TEXT = "Reviewed note: the patient drives truck plate KLT-4471 to dialysis on Mondays."


def _reviewed_export(tmp_path: Path) -> Path:
    """A review in which a reviewer added a VEHICLE span the model missed, exported as JSONL."""
    store = ReviewStore(tmp_path / "review.sqlite")
    store.import_notes([NoteInput(f"r{i}", TEXT, None, {"spans": []}) for i in range(4)], corpus="c", model="m")
    start = TEXT.index("KLT")
    for nid in range(1, 5):
        v = store.edit(nid, 0, "alice", "add", {"start": start, "end": start + 8, "type": "VEHICLE"})["version"]
        store.edit(nid, v, "alice", "reviewed", {})
    out = tmp_path / "reviewed.jsonl"
    assert main(["-q", "review", "--db", str(tmp_path / "review.sqlite"), "--export", str(out)]) == 0
    return out


def test_add_reviewed_notes_to_a_small_recipe(tmp_path):
    train = tmp_path / "train.jsonl"
    with open(train, "w") as fh:
        for d in crf_synth.corpus(16, seed=3):
            fh.write(json.dumps({"id": d.id, "text": d.text, "spans": [
                {"start": s.start, "end": s.end, "type": s.label} for s in d.layer("gold")]}) + "\n")
    reviewed = _reviewed_export(tmp_path)
    base, plus = tmp_path / "base", tmp_path / "plus"
    common = ["-q", "train", "--recipe", "carafe", "--train", str(train), "--set", "max_iterations=30"]
    assert main([*common, "-o", str(base)]) == 0
    assert main([*common, "--add", str(reviewed), "-o", str(plus)]) == 0
    base_meta, plus_meta = (json.loads((p / "model.json").read_text()) for p in (base, plus))
    assert "VEHICLE" not in base_meta["labels"] and "VEHICLE" in plus_meta["labels"]
    assert plus_meta["data"]["added_notes"] == 4 and plus_meta["data"]["added"] == [str(reviewed)]
    raw = tmp_path / "raw.jsonl"
    raw.write_text(json.dumps({"id": "x", "text": TEXT}) + "\n")
    out = tmp_path / "out.jsonl"
    assert main(["-q", "annotate", str(raw), "-o", str(out), "--model", str(plus)]) == 0
    assert "VEHICLE" in {s["type"] for s in json.loads(out.read_text())["spans"]}


def test_train_is_required_for_recipes_without_their_own_data(tmp_path, capsys):
    assert main(["train", "--recipe", "carafe", "-o", str(tmp_path / "m")]) != 0
    assert "needs --train PATH" in capsys.readouterr().err


@pytest.mark.parametrize("recipe", ["en-default"])
def test_dev_is_refused_for_en_default(tmp_path, capsys, recipe):
    assert main(["train", "--recipe", recipe, "--dev", "x.jsonl", "-o", str(tmp_path / "m")]) != 0
    assert "--dev is not available" in capsys.readouterr().err
