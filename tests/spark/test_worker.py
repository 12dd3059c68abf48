"""``notescrub.spark.worker``: the executor-side function, run on pandas frames (no Spark needed)."""

from __future__ import annotations

import pytest

pd = pytest.importorskip("pandas")

from notescrub.errors import ConfigError, ProcessingError  # noqa: E402 - after the pandas skip
from notescrub.replace.keys import SurrogateKey  # noqa: E402 - after the pandas skip
from notescrub.replace.release import ReleasePolicy  # noqa: E402 - after the pandas skip
from notescrub.spark import worker  # noqa: E402 - after the pandas skip

KEY = SurrogateKey.from_seed("spark-worker")
COLS = worker.Columns(text="text", id="id", patient="patient", position="pos", keep=("site",))


def frame(rows):
    return pd.DataFrame(rows, columns=["id", "text", "patient", "pos", "site"])


NOTES = frame([
    ("b", "Dr. Ruiz called on 3/18/2021.", "P1", 7, "north"),
    ("a", "Seen by Dr. Ruiz on 3/17/2021.", "P1", 2, "south"),
    ("c", "Called Dr. Ruiz on 4/02/2021.", None, 5, "east"),
])


def test_deid_rows_in_position_order_with_pseudonyms_and_kept_columns():
    out = worker.process("deid", NOTES, COLS, worker.options("deid", model="rules-en"), (KEY, KEY))
    assert list(out.columns) == ["id", "patient", "text", "spans", "site"]
    assert list(out["id"]) == ["a", "c", "b"]  # position order: 2, 5, 7
    assert list(out["site"]) == ["south", "east", "north"]
    pseudonym = ReleasePolicy(key=KEY).patient_pseudonym("P1")
    assert list(out["patient"]) == [pseudonym, None, pseudonym]
    for text in out["text"]:
        assert "Ruiz" not in text
    # the same doctor of the same patient gets the same surrogate in both notes
    a, b = out.iloc[0], out.iloc[2]
    def name(row):  # type: ignore[no-untyped-def]
        return next(row["text"][s["start"]:s["end"]] for s in row["spans"] if s["type"] == "DOCTOR")

    assert name(a) == name(b)
    assert all(set(s) == {"start", "end", "type", "score"} for row in out["spans"] for s in row)


def test_output_does_not_depend_on_frame_order_or_split():
    opts = worker.options("deid", model="rules-en")
    whole = worker.process("deid", NOTES, COLS, opts, (KEY, KEY))
    parts = [worker.process("deid", NOTES.iloc[[i]], COLS, opts, (KEY, KEY)) for i in (2, 0, 1)]
    split = pd.concat(parts).sort_values("id").reset_index(drop=True)
    assert split.to_dict("records") == whole.sort_values("id").reset_index(drop=True).to_dict("records")


def test_model_and_task_built_once_per_process():
    opts = worker.options("deid", model="rules-en", mode="tag")
    worker.process("deid", NOTES, COLS, opts, (None, KEY))
    task = worker._task("deid", opts, (None, KEY))
    models = dict(worker._MODELS)
    worker.process("deid", NOTES, COLS, worker.options("deid", model="rules-en", mode="tag"), (None, KEY))
    assert worker._task("deid", opts, (None, KEY)) is task
    assert models == worker._MODELS
    # another mode is another task, but the same loaded model
    worker.process("deid", NOTES, COLS, worker.options("deid", model="rules-en", mode="mask"), (None, KEY))
    assert worker._task("deid", worker.options("deid", model="rules-en", mode="mask"), (None, KEY)).pipeline \
        is task.pipeline


def test_note_without_text_fails_closed_without_quoting_notes():
    bad = frame([("a", "Seen by Dr. Ruiz.", "P1", 0, "x"), ("z", None, "P2", 1, "y")])
    with pytest.raises(ProcessingError) as info:
        worker.process("deid", bad, COLS, worker.options("deid", model="rules-en"), (KEY, KEY))
    assert "Ruiz" not in str(info.value) and "has no text" in str(info.value)
    out = worker.process("deid", bad, COLS, worker.options("deid", model="rules-en", skip_bad=True), (KEY, KEY))
    assert list(out["id"]) == ["a"]


def test_annotate_spans_match_the_annotate_record():
    cols = worker.Columns(text="text", id="id", patient=None, position="pos")
    out = worker.process("annotate", NOTES, cols, worker.options("annotate", model="rules-en"), (None, KEY))
    assert list(out.columns) == ["id", "logprob", "spans"]
    first = out.iloc[0]
    assert first["id"] == "a"
    assert (first["spans"][0]["start"], first["spans"][0]["end"], first["spans"][0]["type"]) == (12, 16, "DOCTOR")
    assert set(first["spans"][0]) == {"start", "end", "type", "phi", "score", "source"}


def test_unknown_option_is_refused_with_the_known_ones():
    with pytest.raises(ConfigError, match=r"unknown deid option.*jobs.*known: .*age_bucket"):
        worker.options("deid", jobs=4)
