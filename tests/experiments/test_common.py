"""Scoring, z-tests, record F, the run cache."""

from __future__ import annotations

import math

import pytest

from notescrub.experiments.common import Context, Section, predict, record_f1, score, z_vs
from notescrub.experiments.config import preset
from notescrub.experiments.data import from_documents
from notescrub.types import Document, Span

TEXT = "Seen by Dr. Ruiz on 3/18 at Mercy."


def _doc(spans: list[Span], i: str = "a") -> Document:
    return Document(i, TEXT, layers={"gold": spans})


GOLD = [Span(12, 16, "DOCTOR"), Span(20, 24, "DATE"), Span(28, 33, "HOSPITAL")]


@pytest.mark.parametrize("pred, strict_r, strict_p", [
    (GOLD, 1.0, 1.0),
    (GOLD[:1], 1 / 3, 1.0),
    ([Span(12, 16, "PATIENT")], 0.0, 0.0),
    ([], 0.0, 0.0),
])
def test_score_table(pred: list[Span], strict_r: float, strict_p: float) -> None:
    s = score([_doc(GOLD)], [_doc(pred)])
    assert math.isclose(s["strict"]["recall"], strict_r)
    assert math.isclose(s["strict"]["precision"] or 0.0, strict_p)
    assert set(s) >= {"binary_phi", "binary_non_phi", "token", "by_type", "by_category", "errors"}


def test_type_error_is_still_binary_hit() -> None:
    s = score([_doc(GOLD[:1])], [_doc([Span(12, 16, "PATIENT")])])
    assert s["binary_phi"]["recall"] == 1.0 and s["strict"]["f1"] == 0.0


def test_z_vs_self_is_zero_and_worse_is_negative() -> None:
    good = score([_doc(GOLD)], [_doc(GOLD)])
    bad = score([_doc(GOLD)], [_doc(GOLD[:1])])
    assert z_vs(good, good)["phi"]["z"] == 0.0
    assert z_vs(bad, good)["phi"]["z"] < 0


@pytest.mark.parametrize("g, p, f", [([], [], 1.0), (GOLD, GOLD, 1.0), (GOLD, [], 0.0), ([], GOLD, 0.0),
                                     (GOLD[:2], GOLD[:1], 2 / 3)])
def test_record_f1(g: list[Span], p: list[Span], f: float) -> None:
    assert math.isclose(record_f1(_doc(g), _doc(p)), f)


class Fixed:
    name = "fixed"

    def __init__(self) -> None:
        self.fits = 0

    def fit(self, docs, layer="gold"):
        self.fits += 1
        return self

    def detect(self, doc):
        return [Span(12, 16, "DOCTOR")]


class Broken(Fixed):
    def fit(self, docs, layer="gold"):
        raise ValueError("cannot train")


def test_run_cache_and_failure_is_recorded() -> None:
    docs = [_doc(GOLD, f"d{i}") for i in range(4)]
    for i, d in enumerate(docs):
        d.patient_id = f"P{i}"
    ds = from_documents("toy", docs, folds=2, lang="en")
    ctx = Context(preset("tiny"))
    made = []
    r1 = ctx.run("fixed", ds, lambda: made.append(Fixed()) or made[-1])
    r2 = ctx.run("fixed", ds, lambda: made.append(Fixed()) or made[-1])
    assert r1 is r2 and len(made) == 2 and len(r1.preds) == 4
    assert ctx.score_run(r1)["strict"]["recall"] == pytest.approx(1 / 3)
    bad = ctx.run("broken", ds, Broken)
    assert bad.error and "cannot train" in bad.error and bad.preds == []


def test_predict_keeps_gold_untouched() -> None:
    d = _doc(GOLD)
    out = predict(Fixed(), [d])
    assert len(d.layer("gold")) == 3 and [s.label for s in out[0].layer("gold")] == ["DOCTOR"]


def test_section_json_has_no_png() -> None:
    s = Section("x", "X")
    s.plots.append(("p", b"\x89PNG"))
    s.table("t", "T", ["a"], [[0.123456789]])
    j = s.to_json()
    assert j["plots"] == ["p"] and j["tables"][0]["rows"] == [[0.1235]]


@pytest.mark.parametrize("name", ["wi-deid", "aramaki"])
def test_build_system_gives_pos_to_the_systems_whose_papers_used_it(name: str) -> None:
    from notescrub.experiments.common import build_system
    from notescrub.experiments.config import preset
    from notescrub.features import pos

    def groups(model):
        return (model.first if name == "aramaki" else model).featurizer.groups

    assert "pos" not in groups(build_system(name, "en", preset("tiny", pos="off")))
    assert "pos" not in groups(build_system(name, "es", preset("tiny")))
    if not pos.available():
        pytest.skip("spaCy's English pipeline is not installed")
    assert "pos" in groups(build_system(name, "en", preset("tiny")))
    assert "pos" not in build_system("carafe", "en", preset("tiny", pos="on")).featurizer.groups


def test_wi_deid_variants_with_pos() -> None:
    from notescrub.experiments.wi_deid_study import POS_VARIANT, VARIANTS, variants

    assert variants(False) == VARIANTS
    on = dict(variants(True))
    assert on["Lex"]["groups"] == ("lexical", "pos") and on["Lex+Ort"]["groups"][-1] == "pos"
    assert on["no preprocessing"] == {"fused": False} and on[POS_VARIANT] == {"pos": False}
