"""The token view: long punctuation runs are thinned out, nothing a real token sees changes."""

import numpy as np

import notescrub.text.views as views
from notescrub.features.extract import Featurizer
from notescrub.text.tokenize import tokenize
from notescrub.text.views import INERT_KEEP, drop_inert_runs, token_view
from notescrub.types import Document

NOTE = ("CLINIC NOTE\n" + "-" * 80 + "\nSeen by Dr. Ruiz on 3/18/2091 . . . . . . . . . . . . . . . . . . . . . . . . . . "
        "signed\n" + "=" * 30 + "_" * 30 + "\nMRN: 4471-22 " + "." * 2 * INERT_KEEP + " end")


def test_only_the_middle_of_a_long_run_leaves_the_view():
    toks = tokenize(NOTE)
    kept = token_view(Document("d", NOTE)).tokens
    dropped = [t for t in toks if t not in set(kept)]
    assert dropped and all(len(t.text) == 1 and not t.text.isalnum() for t in dropped)
    assert [t for t in toks if t.text.isalnum() or len(t.text) > 1] == [t for t in kept if t.text.isalnum() or len(t.text) > 1]
    dashes = [t for t in kept if t.text == "-" and t.start < NOTE.index("Seen")]
    assert len(dashes) == 2 * INERT_KEEP and dashes[0].start == NOTE.index("-")  # first and last 12
    assert dashes[-1].end == NOTE.index("\nSeen")
    # a run of exactly 2 * INERT_KEEP stays whole; spaced dots and mixed characters are runs too
    assert sum(t.text == "." for t in kept if t.start > NOTE.index("MRN")) == 2 * INERT_KEEP
    assert sum(t.text in "=_" for t in kept) == 2 * INERT_KEEP


def test_drop_is_linear_and_keeps_order():
    toks = tokenize("x " + "." * 200_000 + " y")
    out = drop_inert_runs(toks)
    assert [t.text for t in out] == ["x"] + ["."] * 2 * INERT_KEEP + ["y"]
    assert [t.start for t in out] == sorted(t.start for t in out)


def test_real_tokens_get_the_same_features_as_without_thinning(monkeypatch):
    feat = Featurizer(groups=("lexical", "orthographic", "dictionary", "sentence", "position"), window=(2, 2),
                      context_bag=4)  # the en-default configuration
    thin = feat.attributes(Document("a", NOTE))
    thin_view = token_view(Document("a", NOTE))
    monkeypatch.setattr(views, "drop_inert_runs", lambda toks, keep=INERT_KEEP: toks)
    full_view = token_view(Document("b", NOTE))
    full = feat.attributes(Document("b", NOTE))
    by_start = {t.start: k for k, t in enumerate(full_view.tokens)}
    for k, t in enumerate(thin_view.tokens):
        if t.text.isalnum() or len(t.text) > 1:
            assert sorted(thin[k]) == sorted(full[by_start[t.start]]), t.text
    assert len(thin) < len(full)
    assert np.all(np.diff([t.start for t in thin_view.tokens]) > 0)
