"""CRF decoding keeps each token's P(not O), likeliest PHI type and feeder hits for risk scoring."""

from __future__ import annotations

import numpy as np
import pytest

from notescrub.detect.base import Detector
from notescrub.detect.crf import posteriors as token_posteriors
from notescrub.detect.crf.stacked import StackedCRF
from notescrub.detect.crf.tagger import CRFTagger
from notescrub.features import Featurizer
from notescrub.text.views import token_view
from notescrub.types import Document, Span

NAMES = ["Ruiz", "Diaz", "Moreno", "Lopez", "Garcia", "Perez", "Vega", "Castro"]


class Titles(Detector):
    """A feeder: the word after 'Dr.'."""

    name = "titles"

    def detect(self, doc):
        i = doc.text.find("Dr. ")
        if i < 0:
            return []
        j = doc.text.find(" ", i + 4)
        return [Span(i + 4, j if j > 0 else len(doc.text), "DOCTOR", 0.9, self.name)]


def _docs():
    out = []
    for i, n in enumerate(NAMES):
        text = f"Seen by Dr. {n} today."
        out.append(Document(str(i), text, layers={"gold": [Span(12, 12 + len(n), "DOCTOR")]}))
    return out


@pytest.fixture(scope="module")
def stacked():
    crf = CRFTagger(Featurizer(groups=("lexical", "orthographic")), max_iterations=30)
    return StackedCRF(crf, [Titles()], name="stk").fit(_docs())


def test_stacked_crf_keeps_posteriors_and_feeder_hits(stacked):
    doc = Document("a", "Seen by Dr. Alvarez today.")
    spans = stacked.detect(doc)
    post = token_posteriors.recall(doc, "stk")
    assert post is not None and token_posteriors.names(doc) == ["stk"]
    words = [t.text for t in token_view(doc).tokens]
    assert post.feeder is not None and [w for w, f in zip(words, post.feeder) if f] == ["Alvarez"]
    assert post.types == ("DOCTOR",)
    k = words.index("Alvarez")
    assert post.p_phi[k] == pytest.approx(max(s.score for s in spans), abs=1e-6)  # one-token span: its marginal
    assert post.p_phi[words.index("Seen")] < 0.5
    assert doc.metadata == {}  # nothing of it is written out (the pipeline stores logprob/tokens only)


def test_plain_crf_posteriors_match_its_marginals():
    crf = CRFTagger(Featurizer(groups=("lexical", "orthographic")), max_iterations=30, name="c").fit(_docs())
    doc = Document("a", "Seen by Dr. Alvarez today.")
    crf.detect(doc)
    post = token_posteriors.recall(doc, "c")
    m = np.concatenate(crf.decode(doc, marginals=True).marginals)
    np.testing.assert_allclose(post.p_phi, 1.0 - m[:, crf.tags_.index("O")])
    assert post.feeder is None
    assert token_posteriors.recall(Document("b", "x"), "c") is None


def test_b_and_i_marginals_are_summed_per_type():
    doc = Document("d", "a b")
    m = np.array([[0.2, 0.3, 0.1, 0.4], [0.1, 0.35, 0.35, 0.2]])  # O, B-X, I-X, B-Y
    token_posteriors.remember(doc, "crf", ["O", "B-X", "I-X", "B-Y"], [m[:1], m[1:]], feeder=None)
    post = token_posteriors.recall(doc, "crf")
    assert [post.types[k] for k in post.best] == ["X", "X"]  # 0.3 + 0.1 > 0.4; 0.35 + 0.35 > 0.2
    np.testing.assert_allclose(post.p_phi, [0.8, 0.9])
