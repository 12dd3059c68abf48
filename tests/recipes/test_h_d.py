"""Tests of the H+D recipe."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from notescrub.errors import ConfigError
from notescrub.recipes import get_recipe
from notescrub.recipes.h_d import HDBaseline, build_pipeline
from notescrub.registry import load_model
from notescrub.types import Document, Span


def test_recipe_is_registered_and_builds() -> None:
    est = get_recipe("h-d")(lang="en")
    assert isinstance(est, HDBaseline)
    doc = Document("a", "Mrs. Dubois lives in Lyon. Call 617-555-0100.")
    assert [(doc.span_text(s), s.label) for s in est.fit([doc]).detect(doc)] == [
        ("Dubois", "PATIENT"), ("Lyon", "CITY"), ("617-555-0100", "PHONE")]


def test_dictionary_words_that_are_common_words_are_not_tagged() -> None:
    doc = build_pipeline()(Document("a", "We hope she will mark the chart"))
    assert doc.layer("phi") == []


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    doc = Document("a", "Seen by Dr. Ruiz on 3/18/2090.", layers={"gold": [Span(12, 16, "DOCTOR")]})
    out = HDBaseline().fit([doc]).save(tmp_path / "hd")
    meta = json.loads((out / "model.json").read_text(encoding="utf-8"))
    assert meta["kind"] == "rules" and meta["recipe"] == "h-d" and meta["training"]["documents"] == 1
    pipe = load_model(out)
    got = pipe(Document("b", "Seen by Dr. Ruiz on 3/18/2090."))
    assert [s.label for s in got.layer("phi")] == ["DOCTOR", "DATE"]
    with pytest.raises(ConfigError, match="exists"):
        HDBaseline().save(out)  # exists, overwrite=False


@pytest.mark.slow
def test_h_d_on_en_dev(en_dev_dir: Path) -> None:
    pipe = build_pipeline()
    gold_tokens = pred_tokens = both = 0
    from notescrub.text.tokenize import tokenize

    for line in (en_dev_dir / "en-dev.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        doc = pipe(Document(r["id"], r["text"]))
        for t in tokenize(r["text"]):
            g = any(s["start"] < t.end and t.start < s["end"] for s in r["spans"])
            p = any(s.start < t.end and t.start < s.end for s in doc.layer("phi"))
            gold_tokens += g
            pred_tokens += p
            both += g and p
    precision, recall = both / pred_tokens, both / gold_tokens
    assert precision > 0.8 and recall > 0.75


def test_types_lists_rule_and_dictionary_labels() -> None:
    # `notescrub train --recipe h-d` reads `types_` (it crashed with AttributeError)
    types = HDBaseline().types_
    assert {"DATE", "PHONE", "PATIENT", "CITY", "HOSPITAL"} <= set(types)
    assert types == sorted(types)
    assert {"PATIENT", "CITY"} <= set(HDBaseline(lang="es").types_)


def test_train_command_writes_an_h_d_model(tmp_path: Path) -> None:
    from notescrub.cli.main import main

    data = tmp_path / "train.jsonl"
    data.write_text(json.dumps({"id": "a", "text": "Seen by Dr. Ruiz.",
                                "spans": [{"start": 12, "end": 16, "label": "DOCTOR"}]}) + "\n", encoding="utf-8")
    assert main(["train", "-q", "--recipe", "h-d", "--train", str(data), "-o", str(tmp_path / "m")]) == 0
    meta = json.loads((tmp_path / "m" / "model.json").read_text(encoding="utf-8"))
    assert meta["recipe"] == "h-d" and meta["kind"] == "rules"
