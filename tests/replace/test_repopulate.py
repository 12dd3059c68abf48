"""Re-populated corpora: new gold PHI at correct offsets, non-PHI text untouched."""

import pytest

from notescrub.errors import ConfigError, OffsetError
from notescrub.lexicons import lexicon
from notescrub.replace.repopulate import repopulate_corpus
from notescrub.types import Document, Span


def corpus():
    text1 = "Mr. Huntington has Huntington's disease and asthma. Seen by Dr. Alan Brooks on 03/18/2091 at Lakeshore Hospital."
    text2 = "Huntington returned with a flare of asthma and anemia, 04/02/2091. Call 617-555-0199."
    def spans(text, parts):
        out = []
        for sub, label, nth in parts:
            i = -1
            for _ in range(nth):
                i = text.index(sub, i + 1)
            out.append(Span(i, i + len(sub), label))
        return out
    return [
        Document("n1", text1, "P1", layers={"gold": spans(text1, [("Huntington", "PATIENT", 1), ("Alan Brooks", "DOCTOR", 1),
                                                              ("03/18/2091", "DATE", 1), ("Lakeshore Hospital", "HOSPITAL", 1)])}),
        Document("n2", text2, "P1", layers={"gold": spans(text2, [("Huntington", "PATIENT", 1), ("04/02/2091", "DATE", 1),
                                                              ("617-555-0199", "PHONE", 1)])}),
    ]


def non_phi(doc):
    out, pos = [], 0
    for s in doc.layer("gold"):
        out.append(doc.text[pos:s.start])
        pos = s.end
    return out + [doc.text[pos:]]


@pytest.mark.parametrize("style", ["random", "ambiguous", "oov"])
def test_styles_keep_non_phi_and_offsets(style):
    src = corpus()
    out = list(repopulate_corpus(src, style=style, seed=1))
    assert [d.id for d in out] == ["n1", "n2"]
    for a, b in zip(src, out):
        assert non_phi(a) == non_phi(b)
        assert [s.label for s in a.layer("gold")] == [s.label for s in b.layer("gold")]
        for s_old, s_new in zip(a.layer("gold"), b.layer("gold")):
            assert b.span_text(s_new) != a.span_text(s_old)
        assert b.layer_names == ["gold"] and b.metadata["repopulated"]["style"] == style
    # the same patient's surname stays one surrogate across notes
    assert out[0].span_text(out[0].layer("gold")[0]) == out[1].span_text(out[1].layer("gold")[0])


def test_deterministic_per_seed():
    a = [d.text for d in repopulate_corpus(corpus(), "random", seed=4)]
    assert a == [d.text for d in repopulate_corpus(corpus(), "random", seed=4)]
    assert a != [d.text for d in repopulate_corpus(corpus(), "random", seed=5)]


def test_oov_words_are_out_of_vocabulary_and_initials_stay():
    doc = Document("n", "O. Yates was admitted.", "P1", layers={"gold": [Span(0, 8, "PATIENT")]})
    names = lexicon("first_names") | lexicon("last_names")
    for seed in range(10):
        out = next(repopulate_corpus([doc], "oov", seed=seed))
        initial, word = out.span_text(out.layer("gold")[0]).split()
        assert len(initial) == 2 and initial.endswith(".") and initial[0].isupper()
        assert word.isalpha() and word[0].isupper() and word[1:].islower()
    assert sum(word.lower() in names for word in [next(repopulate_corpus([doc], "oov", seed=s)).text.split()[1]
                                                    for s in range(20)]) <= 2


def test_ambiguous_uses_words_that_occur_as_non_phi():
    src = corpus() * 1
    filler = " ".join(sorted(w for w in lexicon("medical_terms") if w.isalpha() and len(w) >= 6)[:40])
    src.append(Document("n3", filler, "P2", layers={"gold": []}))
    out = list(repopulate_corpus(src, "ambiguous", seed=2))
    name = out[0].span_text(out[0].layer("gold")[0]).lower()
    assert name in filler.split()


def test_bad_style_and_overlap():
    with pytest.raises(ConfigError):
        list(repopulate_corpus(corpus(), "fancy"))
    bad = Document("n", "John Smith", "P1", layers={"gold": [Span(0, 10, "PATIENT"), Span(5, 10, "DOCTOR")]})
    with pytest.raises(OffsetError):
        list(repopulate_corpus([bad], "random"))


@pytest.mark.slow
def test_en_dev_round_trip(en_dev_dir):
    from notescrub.io import read_corpus

    src = list(read_corpus(en_dev_dir / "en-dev.jsonl"))
    for style in ("random", "ambiguous", "oov"):
        out = list(repopulate_corpus(src, style, seed=0))
        for a, b in zip(src, out):
            assert non_phi(a) == non_phi(b)
            assert len(a.layer("gold")) == len(b.layer("gold"))
