"""Fail-closed batch de-identification."""

import pytest

from notescrub.detect.base import Detector
from notescrub.errors import ProcessingError
from notescrub.pipeline import Pipeline
from notescrub.replace import Replacer
from notescrub.replace.batch import deidentify
from notescrub.types import Document, Span


class Names(Detector):
    name = "names"

    def detect(self, doc):
        if "CRASH" in doc.text:
            raise RuntimeError("detector bug")
        i = doc.text.find("Ruiz")
        return [Span(i, i + 4, "DOCTOR", source=self.name)] if i >= 0 else []


def docs():
    return [Document("a", "Seen by Ruiz."), Document("b", "CRASH Ruiz"), Document("c", "Ruiz again.")]


def test_all_or_nothing():
    with pytest.raises(ProcessingError, match=r"document 2 \(doc#[0-9a-f]{8}\).*nothing was written"):
        deidentify(docs(), Replacer("tag"), pipeline=Pipeline([Names()]))


def test_skip_bad_leaves_failing_documents_out():
    out = deidentify(docs(), Replacer("tag"), pipeline=Pipeline([Names()]), skip_bad=True)
    assert [d.id for d in out.documents] == ["a", "c"] and out.skipped == ["b"]
    assert [d.text for d in out.documents] == ["Seen by [**DOCTOR**].", "[**DOCTOR**] again."]
    assert [s.label for s in out.documents[0].layer("gold")] == ["DOCTOR"]


def test_patient_level_pipeline_groups():
    class Group(Names):
        patient_level = True

    ds = [Document("a", "Ruiz", "P1"), Document("b", "CRASH", "P1"), Document("c", "Ruiz", "P2")]
    out = deidentify(ds, Replacer("tag"), pipeline=Pipeline([Group()]), skip_bad=True)
    assert out.skipped == ["a", "b"] and [d.id for d in out.documents] == ["c"]


def test_needs_exactly_one_source():
    with pytest.raises(ValueError):
        deidentify([], Replacer("tag"))
