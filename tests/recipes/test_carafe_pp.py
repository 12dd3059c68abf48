"""Carafe-ALL+PP: the paper's regexes as a packaged rule file, after a Carafe CRF (bias -1.5)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from notescrub.assemble import load_pipeline
from notescrub.detect.rules.detector import RulesDetector, packaged_rule_files
from notescrub.errors import ConfigError, ModelError
from notescrub.recipes import get_recipe
from notescrub.recipes.carafe_pp import PP_RULES, CarafePP, post_process
from notescrub.types import Document, Span

_spec = importlib.util.spec_from_file_location("crf_synth", Path(__file__).parents[1] / "detect" / "crf" / "crf_synth.py")
crf_synth = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(crf_synth)

#: (text, the spans the PP rules find) -- one case per expression of the rule file
CASES = [
    ("Call 617-555-0148 today", [("617-555-0148", "PHONE")]),  # PHONE_REG2
    ("pager 555-0148.", [("555-0148", "PHONE")]),  # PHONE_REG1
    ("MRN 12-555-01489 x", []),  # not a phone shape
    ("seen at Barney Convalescent Hospital.", [("Barney Convalescent Hospital", "HOSPITAL")]),
    ("to Boston Medical Center today", [("Boston Medical Center", "HOSPITAL")]),
    ("from the Ridge Care Center", [("Ridge Care Center", "HOSPITAL")]),
    ("Lives at 12 Maple Ln., Quincy, MA, 02169 now",
     [("12 Maple Ln.", "STREET"), ("Quincy", "CITY"), ("MA", "STATE"), ("02169", "ZIP")]),
    ("Lives at 12 Maple Ln. alone", []),  # Table 5's address needs city, state and ZIP
    ("Hgb 12345 and K 4.1", []),  # FIVE_DIGIT alone tags nothing
]


@pytest.mark.parametrize("text,expected", CASES, ids=[c[0] for c in CASES])
def test_each_expression(text, expected):
    doc = Document("d", text)
    found = [(doc.span_text(s), s.label) for s in RulesDetector(list(PP_RULES), lang="en").detect(doc)]
    assert found == expected


def test_the_file_is_not_part_of_the_default_rules():
    assert "carafe_pp.toml" not in packaged_rule_files("en")


def test_union_with_the_crf_spans_widens_and_adds():
    doc = Document("d", "Call 617-555-0148 at Barney Convalescent Hospital. Dr. Ruiz")
    crf = [Span(21, 27, "HOSPITAL", 0.9, "crf"), Span(55, 59, "DOCTOR", 0.8, "crf")]
    out = [(doc.span_text(s), s.label) for s in post_process(doc, crf)]
    assert out == [("617-555-0148", "PHONE"), ("Barney Convalescent Hospital", "HOSPITAL"), ("Ruiz", "DOCTOR")]


def test_recipe_option_and_language():
    m = get_recipe("carafe")(pp=True)
    assert isinstance(m, CarafePP) and m.crf.bias == -1.5
    assert get_recipe("carafe")(pp=True, bias=-1.0).crf.bias == -1.0
    assert get_recipe("carafe")().bias == -1.0  # pp off: Carafe-ALL as before
    with pytest.raises(ConfigError, match="English"):
        get_recipe("carafe")(lang="es", pp=True)


def test_unfitted_is_refused():
    with pytest.raises(ModelError, match="not fitted"):
        CarafePP().detect(Document("d", "x"))


def test_fit_save_load_gives_the_same_spans(tmp_path):
    docs = crf_synth.corpus(20, seed=3)
    model = get_recipe("carafe")(pp=True, max_iterations=15).fit(docs[:15])
    assert model.crf_ is not model.crf  # the CRF given is cloned, not trained in place
    text = "Call 617-555-0148. " + docs[17].text
    direct = [(s.start, s.end, s.label) for s in model.detect(Document("x", text))]
    assert (5, 17, "PHONE") in direct
    out = model.save(tmp_path / "m", extra={"recipe": "carafe"})
    doc = load_pipeline(out)(Document("x", text))
    assert [(s.start, s.end, s.label) for s in doc.layer("phi")] == direct
