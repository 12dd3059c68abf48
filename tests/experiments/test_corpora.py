"""Stat De-id corpora study helpers: OoV PHI and ablation featurizers."""

from __future__ import annotations

import pytest

from notescrub.experiments.corpora import ABLATION_TITLES, ablation_featurizer, oov_recall, oov_token_positions
from notescrub.types import Document, Span

TEXT = "Mr. Xqzvtr was seen by Dr. Smith in Boston."


def _gold() -> Document:
    return Document("a", TEXT, layers={"gold": [Span(4, 10, "PATIENT"), Span(27, 32, "DOCTOR"),
                                                 Span(36, 42, "CITY")]})


def test_only_unknown_words_are_oov() -> None:
    pos = oov_token_positions(_gold(), "en")
    assert pos == {(4, 10)}


@pytest.mark.parametrize("pred, recall", [([Span(4, 10, "DOCTOR")], 1.0), ([Span(27, 32, "DOCTOR")], 0.0),
                                          ([Span(0, 12, "PATIENT")], 1.0)])
def test_oov_recall_counts_any_type(pred: list[Span], recall: float) -> None:
    p = Document("a", TEXT, layers={"gold": pred})
    assert oov_recall([_gold()], [p], "en")["recall"] == recall


@pytest.mark.parametrize("group", sorted(ABLATION_TITLES))
def test_every_group_alone_has_a_featurizer(group: str) -> None:
    f = ablation_featurizer(group, "es")
    if group in ("syntactic_bigrams", "pos"):
        assert f is None
        return
    feats = f.attributes(Document("d", "Paciente con diabetes mellitus e insuficiencia renal."))
    assert len(feats) == 8 and any(feats)


def test_target_word_alone_sees_no_neighbours() -> None:
    feats = ablation_featurizer("target_word", "en").attributes(Document("d", "lives in Hatfield"))
    assert not any(":" in f for f in feats[2])
