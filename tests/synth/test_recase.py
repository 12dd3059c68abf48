"""Recased copies keep every offset and annotation."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notescrub.errors import ConfigError
from notescrub.synth.recase import recase_text, recased, recased_corpus
from notescrub.types import Document, Span


def _doc() -> Document:
    text = "Pt: María Straße seen 3/4. Dr. Øyvind Ïsaksen."
    i, j = text.index("María"), text.index("Øyvind")
    return Document("n1", text, "P1", {"src": "x"},
                    {"gold": [Span(i, i + 12, "PATIENT"), Span(j, j + 14, "DOCTOR")], "rules": []})


@pytest.mark.parametrize("case", ["lower", "upper"])
def test_layers_and_metadata_survive(case):
    d = _doc()
    r = recased(d, case)
    assert r.id == f"n1~{case}" and r.patient_id == "P1" and r.metadata == {"src": "x", "recased": case}
    assert r.layers == d.layers and r.layers is not d.layers
    for a, b in zip(d.layer("gold"), r.layer("gold"), strict=True):
        assert r.span_text(b) == recase_text(d.span_text(a), case)
    assert d.text.startswith("Pt: María")  # the original is untouched


def test_length_changing_characters_are_kept_as_they_are():
    assert recase_text("Straße", "upper") == "STRAßE"
    assert recase_text("İSTANBUL", "lower") == "İstanbul"  # 'İ'.lower() is two characters: kept


@given(st.text(max_size=200), st.sampled_from(["lower", "upper"]))
def test_length_never_changes(text, case):
    assert len(recase_text(text, case)) == len(text)


def test_corpus_share_is_deterministic():
    docs = [Document(str(i), f"Note {i}") for i in range(20)]
    a = [d.id for d in recased_corpus(docs, "upper", share=0.25, seed=3)]
    assert a == [d.id for d in recased_corpus(docs, "upper", share=0.25, seed=3)]
    assert len(a) == 5 and all(x.endswith("~upper") for x in a)
    assert len(list(recased_corpus(docs, "lower"))) == 20


@pytest.mark.parametrize("kwargs", [{"case": "title"}, {"case": "lower", "share": 1.5}])
def test_bad_arguments_fail_clearly(kwargs):
    with pytest.raises(ConfigError):
        list(recased_corpus([Document("a", "x")], **kwargs))
