"""Corpus statistics."""

from notescrub.io import read_corpus
from notescrub.io.stats import corpus_stats
from notescrub.text.tokenize import tokenize


def test_stats_on_fixture(fixtures):
    docs = list(read_corpus(fixtures / "physionet"))
    st = corpus_stats(docs)
    assert (st.documents, st.patients, st.spans) == (2, 1, 4)
    assert st.tokens == sum(len(tokenize(d.text)) for d in docs)
    assert st.characters == sum(len(d.text) for d in docs)
    assert st.by_native == {"Date": 1, "HCPName": 1, "Location": 1, "RelativeProxyName": 1}
    assert st.by_canonical == {"DATE": 1, "DOCTOR": 1, "LOCATION-OTHER": 1, "PATIENT": 1}
    assert list(st.by_category.items()) == [("NAME", 2), ("DATE", 1), ("LOCATION", 1)]


def test_unmapped_labels_and_discontinuous(fixtures):
    st = corpus_stats(read_corpus(fixtures / "brat"))
    assert st.discontinuous == 1 and st.spans == 6 and st.patients == 0
    st2 = corpus_stats(read_corpus(fixtures / "notes.csv"), layer="phi")
    assert st2.spans == 0 and st2.documents == 2
