"""Risk scores: higher where the model misses PHI, suspects ranked and located on the text."""

from __future__ import annotations

import numpy as np
import pytest

from notescrub.api import analyze, get_pipeline
from notescrub.detect.crf.tagger import CRFTagger
from notescrub.features import Featurizer
from notescrub.pipeline import Pipeline
from notescrub.risk import FEATURES, Calibration, assess, fit_logistic, leftover_features, scorer
from notescrub.text.views import token_view
from notescrub.types import Document, Span

NAMES = ["Ruiz", "Diaz", "Moreno", "Lopez", "Garcia", "Perez", "Vega", "Castro", "Ortiz", "Romero", "Navarro",
         "Molina", "Suarez", "Blanco", "Ramos", "Torres"]


def _note(i: int, name: str, text: str) -> Document:
    start = text.index(name)
    return Document(str(i), text, layers={"gold": [Span(start, start + len(name), "DOCTOR")]})


def _train_docs() -> list[Document]:
    docs = []
    for i, n in enumerate(NAMES[:12]):
        docs.append(_note(i, n, f"Seen by Dr. {n} today for a cough."))
        docs.append(Document(f"n{i}", "Seen by the nurse today for a cough.", layers={"gold": []}))
    return docs


@pytest.fixture(scope="module")
def tiny():
    """A tiny CRF (trained here) and a calibration fitted on held-out gold notes it annotated."""
    crf = CRFTagger(Featurizer(groups=("lexical", "orthographic")), max_iterations=60, name="crf").fit(_train_docs())
    pipe = Pipeline([crf], name="tiny")
    held = [_note(100 + i, n, f"Spoke with {n} about the plan.") for i, n in enumerate(NAMES[12:])]
    held += [_note(200 + i, n, f"Seen by Dr. {n} today for a cough.") for i, n in enumerate(NAMES[12:])]
    held += [Document(f"h{i}", "Spoke with the nurse about the plan.", layers={"gold": []}) for i in range(4)]
    xs, ys = [], []
    for g in held:
        d = pipe(g.copy(layers=False))
        left = leftover_features(d)
        gold = {(s.start, s.end) for s in g.layer("gold")}
        xs.append(left.matrix)
        ys.append([float((t.start, t.end) in gold) for t in left.tokens])
    b, w = fit_logistic(np.vstack(xs), np.concatenate(ys))
    return pipe, Calibration("tiny", b, w)


def test_risk_is_higher_where_the_crf_misses_phi(tiny):
    pipe, cal = tiny
    tagged = pipe(Document("a", "Seen by Dr. Alvarez today for a cough."))
    missed = pipe(Document("b", "Spoke with Alvarez about the plan."))
    assert [tagged.span_text(s) for s in tagged.layer("phi")] == ["Alvarez"]
    assert missed.layer("phi") == []  # the model misses the name in a context it never saw
    r_tagged, r_missed = assess(tagged, pipe, cal), assess(missed, pipe, cal)
    assert r_missed.risk > r_tagged.risk
    assert missed.text[r_missed.suspects[0].start:r_missed.suspects[0].end] == "Alvarez"
    assert r_missed.suspects[0].type == "DOCTOR"  # the CRF's likeliest PHI label for the token


def test_rules_model_risk_is_higher_on_a_missed_name():
    pipe = get_pipeline("rules-en")
    full = pipe(Document("a", "Call 555-123-4567 on 03/18/2091."))
    missed = pipe(Document("b", "Zebulon Quackenbush was seen."))
    assert not any(missed.span_text(s) == "Quackenbush" for s in missed.layer("phi"))
    assert assess(missed, pipe).risk > assess(full, pipe).risk


def test_suspects_are_ranked_untagged_tokens_of_the_text():
    pipe = get_pipeline("rules-en")
    doc = pipe(Document("a", "Dr. Ruiz Ortega saw Mr. Blanco on 03/18/2091 at Mercy Hospital, room 4B."))
    r = assess(doc, pipe, top_k=5)
    assert len(r.suspects) == 5
    scores = [s.score for s in r.suspects]
    assert scores == sorted(scores, reverse=True)
    tokens = {(t.start, t.end) for t in token_view(doc).tokens}
    for s in r.suspects:
        assert (s.start, s.end) in tokens
        assert any(c.isalnum() for c in doc.text[s.start:s.end])
        assert not any(p.start < s.end and s.start < p.end for p in doc.layer("phi"))
    assert assess(doc, pipe, top_k=0).suspects == []
    # the risk sums every leftover, not only the listed suspects
    assert assess(doc, pipe, top_k=0).risk == pytest.approx(r.risk)


def test_scorer_and_top_k_are_checked():
    pipe = get_pipeline("rules-en")
    from notescrub.errors import ConfigError

    with pytest.raises(ConfigError, match="top_k"):
        scorer(pipe, top_k=-1)
    with pytest.raises(ConfigError, match="no risk calibration ships"):
        scorer(Pipeline([], name="mine"))


def test_crf_calibration_is_refused_without_crf_posteriors():
    pipe = get_pipeline("rules-en")
    from notescrub.errors import ConfigError

    cal = Calibration("x", -3.0, {"crf_logit": 1.0, "crf_seen": 1.0})
    with pytest.raises(ConfigError, match="needs CRF posteriors"):
        assess(pipe(Document("a", "Seen by Ruiz.")), pipe, cal)


def test_analyze_returns_spans_with_risk_and_suspects():
    found = analyze("Zebulon Quackenbush called 555-123-4567.", model="rules-en", suspects=3)
    assert isinstance(found, list) and [s.phi for s in found] == ["PHONE"]
    assert found.risk is not None and found.risk > 0
    assert len(found.suspects) == 3
    assert found == list(found)  # still a plain list of spans for existing callers


def test_features_are_the_documented_columns():
    doc = Document("d", "Seen by RUIZ 42 today.")
    doc.add_layer("phi", [Span(13, 15, "AGE")])
    left = leftover_features(doc)
    words = [doc.text[t.start:t.end] for t in left.tokens]
    assert words == ["Seen", "by", "RUIZ", "today"]  # "42" is tagged
    row = dict(zip(FEATURES, left.matrix[words.index("RUIZ")]))
    assert row["all_caps"] == 1.0 and row["next_to_phi"] == 1.0 and row["digit"] == 0.0 and row["crf_seen"] == 0.0
    assert left.tagged == 1


def test_tagged_features_describe_the_tagged_side():
    from notescrub.risk import tagged_features

    doc = Document("d", "Seen by Ruiz and Ruiz Ortega today.")
    doc.add_layer("phi", [Span(8, 12, "DOCTOR"), Span(17, 28, "DOCTOR")])
    rows = tagged_features(doc)
    words = [doc.text[t.start:t.end] for t in rows.tokens]
    assert words == ["Ruiz", "Ruiz", "Ortega"] and rows.tagged == 3
    first, second, third = (dict(zip(FEATURES, r)) for r in rows.matrix)
    assert first["same_as_tagged"] == 1.0 and third["same_as_tagged"] == 0.0  # another tagged "Ruiz"; one "Ortega"
    assert first["next_to_phi"] == 0.0 and second["next_to_phi"] == 1.0  # inside a two-word span
    # the untagged side is unchanged by the tagged one: same rows as before
    assert [doc.text[t.start:t.end] for t in leftover_features(doc).tokens] == ["Seen", "by", "and", "today"]


def test_expected_f_follows_the_tagged_calibration():
    from notescrub.risk import expected_f1

    pipe = get_pipeline("rules-en")
    doc = pipe(Document("a", "Call 555-123-4567 on 03/18/2091 about the cough."))
    base = Calibration("rules-en", -8.0, {"digit": 1.0})  # nothing left untagged looks like PHI
    assert assess(doc, pipe, base).expected_f is None
    assert "expected_f" not in assess(doc, pipe, base).to_json()
    sure = Calibration("rules-en", -8.0, {"digit": 1.0}, tagged=Calibration("rules-en", 8.0, {"digit": 1.0}))
    unsure = Calibration("rules-en", -8.0, {"digit": 1.0}, tagged=Calibration("rules-en", -8.0, {"digit": 1.0}))
    r_sure, r_unsure = assess(doc, pipe, sure), assess(doc, pipe, unsure)
    assert r_sure.expected_f is not None and r_unsure.expected_f is not None
    assert r_sure.expected_f > 0.99 > 0.1 > r_unsure.expected_f  # tagged tokens judged PHI vs false alarms
    assert r_sure.to_json()["expected_f"] == round(r_sure.expected_f, 4)
    assert r_sure.expected_f == pytest.approx(expected_f1(*_counts(doc, sure, pipe)))


def _counts(doc, cal, pipe):
    from notescrub.risk import tagged_features

    q = cal.tagged.probability(tagged_features(doc).matrix)
    return float(q.sum()), float((1 - q).sum()), assess(doc, pipe, cal).risk


def test_risk_warns_once_when_the_calibration_was_fitted_with_another_crf(caplog):
    """A retrained en-default keeps the name and so the packaged calibration: risk says so, once."""
    import logging

    from notescrub.risk import packaged_calibration, warn_if_other_crf
    from notescrub.risk.score import _WARNED

    pipe = get_pipeline("en-default")
    cal = packaged_calibration("en-default")
    assert pipe.metadata["crf_sha256"] == cal.fitted_on["crf_sha256"]  # the shipped pair matches
    doc = pipe(Document("a", "Seen by Dr. Quackenbush on 03/18/2091."))
    with caplog.at_level(logging.WARNING, logger="notescrub.risk.score"):
        assess(doc, pipe)
    assert not [r for r in caplog.records if "another CRF" in r.getMessage()]
    other = Calibration.from_json({**cal.to_json(), "fitted_on": {**cal.fitted_on, "crf_sha256": "0" * 64}}, "test")
    _WARNED.clear()
    with caplog.at_level(logging.WARNING, logger="notescrub.risk.score"):
        first = assess(doc, pipe, other)
        assess(doc, pipe, other)
    warned = [r for r in caplog.records if "another CRF" in r.getMessage()]
    assert len(warned) == 1 and "Quackenbush" not in warned[0].getMessage()
    assert first.risk == assess(doc, pipe, cal).risk  # a warning, not a different answer
    assert warn_if_other_crf(other, pipe) and not warn_if_other_crf(cal, pipe)
    assert not warn_if_other_crf(other, get_pipeline("rules-en"))  # no CRF: nothing to compare
