"""Tests of the ML post-processing rules (extend / drop / merge) and their file validation."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notescrub.detect.spans.postprocess import (
    PostProcessor,
    load_post_rules,
    packaged_post_files,
)
from notescrub.errors import ConfigError
from notescrub.types import Document, Span

PP = PostProcessor()


def _apply(text: str, spans: list[tuple[str, str]], pp: PostProcessor = PP) -> list[tuple[str, str]]:
    """Spans given as (surface, label): the first occurrence of the surface."""
    doc = Document("d", text)
    objs = []
    for surface, label in spans:
        i = text.index(surface)
        objs.append(Span(i, i + len(surface), label, 0.7, "crf"))
    return [(doc.span_text(s), s.label) for s in pp.apply(doc, objs)]


@pytest.mark.parametrize("text, spans, expected", [
    # the paper's example: a hospital tag grows to the following 'Hospital'
    ("Admitted to Barney Convalescent Hospital yesterday.", [("Barney", "HOSPITAL")],
     [("Barney Convalescent Hospital", "HOSPITAL")]),
    # head before the tag (Spanish facility names)
    ("Ingresa en el Hospital Universitario La Paz por disnea.", [("La Paz", "HOSPITAL")],
     [("Hospital Universitario La Paz", "HOSPITAL")]),
    # native labels mapping to HOSPITAL are covered too
    ("Remitido al Centro de Salud Delicias ayer.", [("Delicias", "CENTRO_SALUD")],
     [("Centro de Salud Delicias", "CENTRO_SALUD")]),
    # a lower-case 'hospital' is not a name head
    ("Barney was taken to the hospital.", [("Barney", "HOSPITAL")], [("Barney", "HOSPITAL")]),
    # never across a line break
    ("Seen at Barney\nHospital course: stable.", [("Barney", "HOSPITAL")], [("Barney", "HOSPITAL")]),
    # not across a lower-case word
    ("Barney said Hospital food is bad.", [("Barney", "HOSPITAL")], [("Barney", "HOSPITAL")]),
    # too far away
    ("Barney A B C D E Hospital", [("Barney", "HOSPITAL")], [("Barney", "HOSPITAL")]),
    # other types are not extended
    ("Dr. Barney Convalescent Hospital", [("Barney", "DOCTOR")], [("Barney", "DOCTOR")]),
    # already ending with the head
    ("Mercy Hospital today", [("Mercy Hospital", "HOSPITAL")], [("Mercy Hospital", "HOSPITAL")]),
    # organisation heads
    ("He works for Acme Widgets Inc downtown.", [("Acme", "ORGANIZATION")], [("Acme Widgets Inc", "ORGANIZATION")]),
])
def test_extend(text, spans, expected):
    assert _apply(text, spans) == expected


@pytest.mark.parametrize("text, surface, kept", [
    ("Chem7: 140/4.0/107/25.7/32/1 today", "140/4.0", False),   # slash chain (paper's example)
    ("ABG 7.38/42/88 on RA", "42/88", False),                     # decimal in the chunk
    ("BP 120/80, HR 72", "120/80", False),                        # vital-sign cue
    ("TA: 130/85 mmHg", "130/85", False),                         # Spanish cue
    ("Seen on 03/18/2091 in clinic.", "03/18/2091", True),
    ("Follow up 4/12 with labs.", "4/12", True),
    ("Fechas 12/03/2019 y 14/03/2019.", "12/03/2019", True),
])
def test_drop_dates_in_lab_strings(text, surface, kept):
    assert (_apply(text, [(surface, "DATE")]) != []) is kept


@pytest.mark.parametrize("surface, label, kept", [
    ("PCP", "HOSPITAL", False),
    ("ICU", "ORGANIZATION", False),
    ("Lasix", "PATIENT", False),
    ("Mercy", "HOSPITAL", True),
    ("PCP", "DATE", True),  # the rule is for name-like types only
])
def test_drop_medical_abbreviations(surface, label, kept):
    text = f"Seen by {surface} today"
    assert (_apply(text, [(surface, label)]) != []) is kept


def test_drop_spans_without_alphanumerics():
    assert _apply("a -- b", [("--", "DATE")]) == []


def test_merge_name_split_by_initial():
    got = _apply("Clarence H. HESS was seen.", [("Clarence", "PATIENT"), ("HESS", "PATIENT")])
    assert got == [("Clarence H. HESS", "PATIENT")]
    # different labels never merge
    got = _apply("Clarence H. HESS was seen.", [("Clarence", "PATIENT"), ("HESS", "DOCTOR")])
    assert got == [("Clarence", "PATIENT"), ("HESS", "DOCTOR")]


def test_post_meta_names_the_rule():
    doc = Document("d", "Barney Convalescent Hospital")
    (s,) = PP.apply(doc, [Span(0, 6, "HOSPITAL", 0.7, "crf")])
    assert s.meta["post"] == "extend-facility-head" and s.source == "crf" and s.score == 0.7


def test_only_selects_rules_and_rejects_unknown_names():
    pp = PostProcessor(only=["drop-date-in-slash-chain"])
    assert pp.names == ["drop-date-in-slash-chain"]
    assert _apply("Barney Convalescent Hospital", [("Barney", "HOSPITAL")], pp) == [("Barney", "HOSPITAL")]
    with pytest.raises(ConfigError, match="unknown post-processing rules"):
        PostProcessor(only=["nope"])


def test_packaged_rules_load():
    assert "default.toml" in packaged_post_files()
    names = [r.name for r in load_post_rules()]
    assert len(names) == len(set(names)) >= 6


@pytest.mark.parametrize("body, message", [
    ('[[rule]]\nname = "a"\naction = "explode"\n', "unknown action"),
    ('[[rule]]\nname = "a"\naction = "drop"\nspan_pattern = "("\n', "not a valid regular expression"),
    ('[[rule]]\nname = "a"\naction = "drop"\nspan_pattern = "x"\ncolour = 1\n', "unknown keys"),
    ('[[rule]]\nname = "a"\naction = "drop"\n', "needs at least one of"),
    ('[[rule]]\nname = "a"\naction = "drop"\nall_in = ["no_such_lexicon"]\n', "unknown lexicon"),
    ('[[rule]]\nname = "a"\naction = "extend"\n', "needs heads or a lexicon"),
    ('[[rule]]\nname = "a"\naction = "extend"\nheads = ["x"]\ndirection = "up"\n', "direction"),
    ('[[rule]]\nname = "a"\naction = "merge"\n', "gap_pattern"),
    ('[[rule]]\naction = "merge"\ngap_pattern = " "\n', "missing 'name'"),
    (('[[rule]]\nname = "a"\naction = "drop"\nspan_pattern = "x"\n'
     '[[rule]]\nname = "a"\naction = "drop"\nspan_pattern = "y"\n'), "defined twice"),
    ('[[rule]\nname = "a"', "invalid TOML"),
    ('colour = 1\n', "unknown top-level keys"),
])
def test_malformed_files_fail_with_file_and_rule(tmp_path: Path, body: str, message: str):
    f = tmp_path / "bad.toml"
    f.write_text(body, encoding="utf-8")
    with pytest.raises(ConfigError, match=message) as info:
        load_post_rules([f])
    assert str(f) in str(info.value)
    if "name = \"a\"" in body and "TOML" not in message:
        assert "'a'" in str(info.value) and ":" in str(info.value)


def test_error_names_the_line(tmp_path: Path):
    f = tmp_path / "bad.toml"
    f.write_text('# c\n\n[[rule]]\nname = "late"\naction = "drop"\nspan_pattern = "["\n', encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_post_rules([f])
    assert info.value.line == 4 and "late" in str(info.value)


def test_missing_packaged_file():
    with pytest.raises(ConfigError, match="no post-processing rule file"):
        load_post_rules(["nope.toml"])


_WORDS = st.sampled_from(["Barney", "Hospital", "140/4.0/107", "BP", "120/80", "03/18/2091", "Clarence", "H.",
                          "HESS", "PCP", "the", "hospital", "\n", "--", "Centro", "de", "Salud"])
_LABELS = st.sampled_from(["HOSPITAL", "DATE", "PATIENT", "ORGANIZATION", "FECHAS", "CITY"])


@settings(max_examples=60, deadline=None)
@given(st.lists(_WORDS, min_size=1, max_size=12), st.data())
def test_output_stays_inside_text_and_near_the_input(words, data):
    text = " ".join(words)
    doc = Document("d", text)
    starts = [0]
    for w in words[:-1]:
        starts.append(starts[-1] + len(w) + 1)
    picks = data.draw(st.lists(st.integers(0, len(words) - 1), max_size=4, unique=True))
    spans = [Span(starts[i], starts[i] + len(words[i]), data.draw(_LABELS), 0.6, "crf") for i in picks
             if words[i].strip()]
    out = PP.apply(doc, spans)
    assert len(out) <= len(spans)
    for s in out:
        assert 0 <= s.start < s.end <= len(text)
        assert any(s.overlaps(x) for x in spans)  # every output span grows from an input span
        assert any(s.label == x.label for x in spans)


# --------------------------------------------------------------------------- grow / split actions
def _rules(tmp_path, body: str) -> PostProcessor:
    f = tmp_path / "r.toml"
    f.write_text(body, encoding="utf-8")
    return PostProcessor([f])


_SPLIT_GAP = '''
[[rule]]
name = "gap"
action = "split"
types = ["PATIENT", "HOSPITAL"]
split_pattern = '(?<=\\S)(?:[ \\t]{3,}|\\t)(?=\\S)|[ \\t]*\\n[ \\t]*\\n\\s*'
all_in = ["common_words"]
'''


def test_split_drops_a_header_word_across_a_column_gap(tmp_path):
    pp = _rules(tmp_path, _SPLIT_GAP)
    doc = Document("d", "Name: Kalani Makoa         Date: 3/4")
    out = pp.apply(doc, [Span(6, 31, "PATIENT", 0.8, "crf")])
    assert [(doc.span_text(s), s.meta["post"], s.score) for s in out] == [("Kalani Makoa", "gap", 0.8)]


def test_split_keeps_hard_wrapped_names_whole(tmp_path):
    pp = _rules(tmp_path, _SPLIT_GAP)
    doc = Document("d", "read by Dr. Natasa\nKlaric and Brookhollow\n   Skilled Nursing")
    spans = [Span(12, 25, "PATIENT", 0.8, "crf"), Span(30, 60, "HOSPITAL", 0.8, "crf")]
    assert pp.apply(doc, spans) == sorted(spans, key=Span.sort_key)


def test_split_at_blank_line_keeps_each_named_piece(tmp_path):
    pp = _rules(tmp_path, _SPLIT_GAP)
    doc = Document("d", "Klehai Wing\n\nIkaika Nohea")
    out = pp.apply(doc, [Span(0, len(doc.text), "HOSPITAL", 0.7, "crf")])
    assert [doc.span_text(s) for s in out] == ["Klehai Wing", "Ikaika Nohea"]


_SPLIT_PAREN = '''
[[rule]]
name = "paren"
action = "split"
types = ["PATIENT"]
split_pattern = \'\'\'\\s*\\((?!\\s*["“'‘])\\s*|(?<!["”'’])\\s*\\)\\s*\'\'\'
strip_left_pattern = '(?:[a-z]+\\s+)+(?=[A-Z])'
all_in = ["common_words"]
'''


def test_split_at_parenthesis_and_strip_linking_words(tmp_path):
    pp = _rules(tmp_path, _SPLIT_PAREN)
    doc = Document("d", "Noelani Makoa (proxy for Kalani Makoa) called")
    out = pp.apply(doc, [Span(0, 37, "PATIENT", 0.9, "crf")])
    assert [doc.span_text(s) for s in out] == ["Noelani Makoa", "Kalani Makoa"]


def test_split_keeps_a_quoted_nickname_inside_the_name(tmp_path):
    pp = _rules(tmp_path, _SPLIT_PAREN)
    doc = Document("d", 'Re: Xiaoling ("Sharon") Chen, DOB')
    span = Span(4, 28, "PATIENT", 0.9, "crf")
    assert pp.apply(doc, [span]) == [span]


def test_grow_takes_the_initial_before_a_name(tmp_path):
    pp = _rules(tmp_path, '''
[[rule]]
name = "initial"
action = "grow"
types = ["DOCTOR"]
left_pattern = '(?<![\\w.])[A-Z]\\.?\\s?$'
window = 4
''')
    doc = Document("d", "surgery (G. Pendry) paged; E.Coli Pendry")
    out = pp.apply(doc, [Span(12, 18, "DOCTOR", 0.9, "crf"), Span(34, 40, "DOCTOR", 0.9, "crf")])
    assert [doc.span_text(s) for s in out] == ["G. Pendry", "Pendry"]


def test_grow_and_split_validation(tmp_path):
    with pytest.raises(ConfigError, match="needs left_pattern and/or right_pattern"):
        _rules(tmp_path, '[[rule]]\nname = "g"\naction = "grow"\n')
    with pytest.raises(ConfigError, match="must end with"):
        _rules(tmp_path, '[[rule]]\nname = "g"\naction = "grow"\nleft_pattern = "Dr"\n')
    with pytest.raises(ConfigError, match="needs split_pattern"):
        _rules(tmp_path, '[[rule]]\nname = "s"\naction = "split"\n')
    with pytest.raises(ConfigError, match="unknown keys"):
        _rules(tmp_path, '[[rule]]\nname = "s"\naction = "split"\nsplit_pattern = "x"\nwindow = 3\n')


def test_split_never_loses_a_whole_span_and_keeps_first_names(tmp_path):
    pp = _rules(tmp_path, _SPLIT_GAP + 'keep_in = ["first_names"]\n')
    doc = Document("d", "Name: Rose Hope         Date: 3/4")
    out = pp.apply(doc, [Span(6, 28, "PATIENT", 0.8, "crf")])
    assert [doc.span_text(s) for s in out] == ["Rose Hope"]  # a first name keeps the piece
    doc2 = Document("d", "the unit         date")
    only_common = Span(0, len(doc2.text), "HOSPITAL", 0.5, "crf")
    assert _rules(tmp_path, _SPLIT_GAP).apply(doc2, [only_common]) == [only_common]  # nothing left: kept whole


# --------------------------------------------------------------------------- column action
_AGE_COLUMN = '''
[[rule]]
name = "ages"
action = "column"
types = ["AGE"]
cell_pattern = '\\d{1,3}'
min_found = 2
min_share = 0.3
'''
_ROSTER = ("Tag      Name             Age  Sex\n"
           "0417681  COUNTS, HOA      61   F\n"
           "0417682  YATES, VIRGIL    74   M\n"
           "0417685  PERRY, LANDON     9   M\n"
           "0417687  COLEMAN, JUNE    57   F\n")


def _at(text, surface, label, score=0.9):
    i = text.index(surface)
    return Span(i, i + len(surface), label, score, "crf")


def test_column_fills_the_cells_of_a_mostly_tagged_column(tmp_path):
    pp = _rules(tmp_path, _AGE_COLUMN)
    doc = Document("d", _ROSTER)
    spans = [_at(_ROSTER, "61", "AGE", 0.9), _at(_ROSTER, "57", "AGE", 0.7), _at(_ROSTER, "YATES, VIRGIL", "PATIENT")]
    out = [(doc.span_text(s), s.label, s.score, s.meta.get("post")) for s in pp.apply(doc, spans)]
    assert ("74", "AGE", 0.7, "ages") in out and ("9", "AGE", 0.7, "ages") in out  # right-aligned "9" too
    assert not any(t.startswith("04176") for t, *_ in out)  # 7-digit tags do not match the cell pattern


def test_column_needs_enough_tagged_cells(tmp_path):
    pp = _rules(tmp_path, _AGE_COLUMN)
    doc = Document("d", _ROSTER)
    one = [_at(_ROSTER, "61", "AGE")]
    assert [doc.span_text(s) for s in pp.apply(doc, one)] == ["61"]  # one tagged cell: min_found 2
    other_type = [_at(_ROSTER, "61", "DATE"), _at(_ROSTER, "57", "DATE")]
    assert [doc.span_text(s) for s in pp.apply(doc, other_type)] == ["61", "57"]  # not the rule's type
    prose = Document("p", "He is 61. She is 57. The dog is 9. Room 74.")
    spans = [_at(prose.text, "61", "AGE"), _at(prose.text, "57", "AGE")]
    assert len(pp.apply(prose, spans)) == 2  # no table: nothing added


def test_column_rule_validation(tmp_path):
    with pytest.raises(ConfigError, match="needs cell_pattern"):
        _rules(tmp_path, '[[rule]]\nname = "c"\naction = "column"\n')
    with pytest.raises(ConfigError, match="min_share"):
        _rules(tmp_path, '[[rule]]\nname = "c"\naction = "column"\ncell_pattern = "x"\nmin_share = 0\n')
    with pytest.raises(ConfigError, match="min_found"):
        _rules(tmp_path, '[[rule]]\nname = "c"\naction = "column"\ncell_pattern = "x"\nmin_found = 0\n')


_HEADED = _AGE_COLUMN.replace("min_share = 0.3\n", "min_share = 0.3\nheader_pattern = '(?i:age)'\nheader_label = \"AGE\"\n")


def test_a_column_headed_age_is_filled_without_tagged_cells(tmp_path):
    pp = _rules(tmp_path, _HEADED)
    doc = Document("d", _ROSTER)
    tag = [_at(_ROSTER, "0417681", "IDNUM")]
    out = [(doc.span_text(s), s.label, s.score, s.source) for s in pp.apply(doc, tag)]
    assert out == [("0417681", "IDNUM", 0.9, "crf")] + [(a, "AGE", 0.7, "post") for a in ("61", "74", "9", "57")]
    other = Document("o", _ROSTER.replace("Age", "Bed"))
    assert pp.apply(other, tag) == tag  # another header, no tagged cell: nothing


_NAMES = '''
[[rule]]
name = "names"
action = "column"
types = ["PATIENT", "DOCTOR"]
cell_pattern = '[A-Z][A-Za-z-]*+, [A-Z][A-Za-z-]*+'
min_found = 2
min_share = 0.3
complete_cells = true
'''


def test_complete_cells_turns_a_partly_tagged_name_cell_into_one_span(tmp_path):
    pp = _rules(tmp_path, _NAMES)
    doc = Document("d", _ROSTER)
    i = _ROSTER.index("LANDON")
    spans = [_at(_ROSTER, "COUNTS, HOA", "PATIENT"), _at(_ROSTER, "YATES, VIRGIL", "PATIENT", 0.8),
             Span(i, i + 6, "PATIENT", 0.6, "crf"), _at(_ROSTER, "COLEMAN", "DATE")]
    out = [(doc.span_text(s), s.label, s.score, s.meta.get("post")) for s in pp.apply(doc, spans)]
    assert ("PERRY, LANDON", "PATIENT", 0.6, "names") in out and ("LANDON", "PATIENT", 0.6, None) not in out
    assert ("COLEMAN", "DATE", 0.9, None) in out  # a cell another type touches is left alone
    assert len(out) == 4
    without = _rules(tmp_path, _NAMES.replace("complete_cells = true\n", ""))
    assert ("LANDON", "PATIENT", 0.6, None) in [(doc.span_text(s), s.label, s.score, s.meta.get("post"))
                                                 for s in without.apply(doc, spans)]


def test_column_header_options_are_validated(tmp_path):
    base = '[[rule]]\nname = "c"\naction = "column"\ntypes = ["AGE"]\ncell_pattern = "x"\n'
    with pytest.raises(ConfigError, match="header_label"):
        _rules(tmp_path, base + "header_pattern = 'Age'\n")
    with pytest.raises(ConfigError, match="header_label"):
        _rules(tmp_path, base + "header_pattern = 'Age'\nheader_label = \"DATE\"\n")
    with pytest.raises(ConfigError, match="needs header_pattern"):
        _rules(tmp_path, base + "header_label = \"AGE\"\n")
    with pytest.raises(ConfigError, match="complete_cells"):
        _rules(tmp_path, base + "complete_cells = 1\n")


def test_a_header_that_matches_the_cell_pattern_is_not_a_value(tmp_path):
    rule = _AGE_COLUMN.replace("types = [\"AGE\"]", "types = [\"DOCTOR\"]").replace("\\d{1,3}", "[A-Z]{2,3}")
    rule = rule.replace("min_share = 0.3\n", "min_share = 0.3\nheader_pattern = 'RN'\nheader_label = \"DOCTOR\"\n")
    pp = _rules(tmp_path, rule)
    text = "Time   Note              RN\n0800   vitals stable     KW\n0900   turned q2h        DM\n1000   meds given        KW\n"
    doc = Document("d", text)
    out = [doc.span_text(s) for s in pp.apply(doc, [_at(text, "0800", "DATE")])]
    assert out == ["0800", "KW", "DM", "KW"]  # the header "RN" stays untagged


# --------------------------------------------------------------------------- add action
_ADD_STATE = '''
[[rule]]
name = "state"
action = "add"
types = ["CITY"]
anchor = "after"
label = "STATE"
window = 6
pattern = ',[ \\t]?(?P<phi>MS|MD)(?!\\w)'
'''


def _labelled(pp, text, spans):
    doc = Document("d", text)
    return [(doc.span_text(s), s.label, s.meta.get("post")) for s in pp.apply(doc, spans)]


def test_add_after_a_span_of_its_types(tmp_path):
    pp = _rules(tmp_path, _ADD_STATE)
    text = "Lives in Batesville, MS with her son. MS flare in 2019."
    assert _labelled(pp, text, [_at(text, "Batesville", "CITY")]) == [
        ("Batesville", "CITY", None), ("MS", "STATE", "state")]  # the disease, not after a city, stays
    # no city span: nothing to anchor to
    assert _labelled(pp, text, []) == []


def test_add_never_touches_a_span_there_is(tmp_path):
    pp = _rules(tmp_path, _ADD_STATE)
    text = "Batesville, MS 38606"
    spans = [_at(text, "Batesville", "CITY"), _at(text, "MS 38606", "ZIP")]
    assert [s for _, _, s in _labelled(pp, text, spans)] == [None, None]


def test_add_before_a_span_ends_where_it_starts(tmp_path):
    pp = _rules(tmp_path, '''
[[rule]]
name = "zip"
action = "add"
types = ["CITY"]
anchor = "before"
label = "ZIP"
window = 12
pattern = '(?:^|[,·][ \\t]*)(?P<phi>\\d{4,5})[ \\t]+$'
''')
    text = "Seestrasse 412 · 8038 Zürich\nroom 8038 Zürich"
    spans = [_at(text, "Zürich", "CITY"), Span(text.rindex("Zürich"), len(text), "CITY", 0.9, "crf")]
    out = _labelled(pp, text, spans)
    assert ("8038", "ZIP", "zip") in out and len(out) == 3  # "room 8038" has no separator before it


def test_add_free_pattern_with_line_and_document_conditions(tmp_path):
    pp = _rules(tmp_path, '''
[[rule]]
name = "leg"
action = "add"
label = "LOCATION-OTHER"
pattern = '(?<![\\w-])(?P<phi>[A-Z]{3})-[A-Z]{3}(?![\\w-])|(?P<phi2>\\d\\d\\.\\d\\d)(?= evening)'
line_pattern = '(?i:flight|evening)'
doc_pattern = 'Itinerary'
''')
    text = "Itinerary\nFlight EI 683 GVA-DUB on Sat\nECG: LAD-RCA normal\nVT on 09.10 evening"
    assert _labelled(pp, text, []) == [("GVA", "LOCATION-OTHER", "leg"), ("09.10", "LOCATION-OTHER", "leg")]
    assert _labelled(pp, text.replace("Itinerary", "Plan"), []) == []  # the document condition fails


def test_add_rule_validation(tmp_path):
    base = '[[rule]]\nname = "a"\naction = "add"\n'
    with pytest.raises(ConfigError, match="needs pattern"):
        _rules(tmp_path, base + 'label = "DATE"\n')
    with pytest.raises(ConfigError, match="needs label"):
        _rules(tmp_path, base + "pattern = 'x'\n")
    with pytest.raises(ConfigError, match="anchor"):
        _rules(tmp_path, base + "pattern = 'x'\nlabel = \"DATE\"\nanchor = \"left\"\ntypes = [\"CITY\"]\n")
    with pytest.raises(ConfigError, match="needs types"):
        _rules(tmp_path, base + "pattern = 'x'\nlabel = \"DATE\"\nanchor = \"after\"\n")
    with pytest.raises(ConfigError, match="types needs anchor"):
        _rules(tmp_path, base + "pattern = 'x'\nlabel = \"DATE\"\ntypes = [\"CITY\"]\n")
    with pytest.raises(ConfigError, match="must end with"):
        _rules(tmp_path, base + "pattern = 'x'\nlabel = \"ZIP\"\nanchor = \"before\"\ntypes = [\"CITY\"]\n")
    with pytest.raises(ConfigError, match="score"):
        _rules(tmp_path, base + "pattern = 'x'\nlabel = \"DATE\"\nscore = 2\n")


def test_add_runs_on_a_document_without_spans(tmp_path):
    pp = _rules(tmp_path, '[[rule]]\nname = "a"\naction = "add"\nlabel = "DATE"\npattern = \'\\bTues\\b\'\n')
    assert _labelled(pp, "RTC Tues.", []) == [("Tues", "DATE", "a")]


def test_add_absorbs_spans_of_its_label_inside_the_match(tmp_path):
    rule = '[[rule]]\nname = "st"\naction = "add"\nlabel = "STREET"\nabsorb = true\npattern = \'\\d+, rue [A-Z]\\w+(?:, app\\. \\d+)?\'\n'
    pp = _rules(tmp_path, rule)
    text = "Lives at 4418, rue Auberon, app. 2, Montreal. Clinic 12, rue Peel."
    spans = [_at(text, "Auberon", "STREET"), _at(text, "Peel", "CITY")]
    assert _labelled(pp, text, spans) == [("4418, rue Auberon, app. 2", "STREET", "st"), ("Peel", "CITY", None)]
    # without absorb the tagger's part-span blocks the match
    assert _labelled(_rules(tmp_path, rule.replace("absorb = true\n", "")), text, spans)[0] == ("Auberon", "STREET", None)


def test_add_with_the_anchor_label_and_a_lexicon_condition(tmp_path):
    pp = _rules(tmp_path, '''
[[rule]]
name = "script"
action = "add"
types = ["PATIENT", "HOSPITAL"]
anchor = "after"
label = "@anchor"
window = 30
pattern = '[ \\t]*\\((?P<phi>[\\u3040-\\u30ff\\u3400-\\u9fff]+)\\)'

[[rule]]
name = "job"
action = "add"
label = "PROFESSION"
all_in = ["professions"]
pattern = '\\(\\d+, (?P<phi>[a-z]+)\\)'
''')
    text = "Mr. Sato (佐藤) at Kaigan Hospital (海岸病院). Niece Ana (64, realtor); son Bo (30, tearful)."
    spans = [_at(text, "Sato", "PATIENT"), _at(text, "Kaigan Hospital", "HOSPITAL")]
    out = _labelled(pp, text, spans)
    assert ("佐藤", "PATIENT", "script") in out and ("海岸病院", "HOSPITAL", "script") in out
    assert ("realtor", "PROFESSION", "job") in out and not any(t == "tearful" for t, _, _ in out)


def test_add_doc_literals_gate_the_search(tmp_path):
    rule = '[[rule]]\nname = "m"\naction = "add"\nlabel = "DATE"\ndoc_literals = ["juin"]\npattern = \'\\d+ juin\'\n'
    pp = _rules(tmp_path, rule)
    assert _labelled(pp, "Vu le 3 juin.", []) == [("3 juin", "DATE", "m")]
    # a gate that the text lacks: no search at all (the pattern would have matched)
    gated = _rules(tmp_path, rule.replace('["juin"]', '["juillet"]'))
    assert _labelled(gated, "Vu le 3 juin.", []) == []
    with pytest.raises(ConfigError, match="lower-case"):
        _rules(tmp_path, rule.replace('["juin"]', '["Juin"]'))
    with pytest.raises(ConfigError, match="without anchor"):
        _rules(tmp_path, rule.replace('action = "add"\n', 'action = "add"\ntypes = ["CITY"]\nanchor = "after"\n'))


def test_add_phrases_from_a_lexicon(tmp_path):
    rule = ('[[rule]]\nname = "h"\naction = "add"\nlabel = "DATE"\nphrases_from = "holidays"\n'
            'phrases_except = ["lent"]\npattern = \'\'\'(?<![\\w\'’-])(?P<phi>(?i:{phrases}))(?![\\w\'’-])\'\'\'\n')
    pp = _rules(tmp_path, rule)
    text = "Home for Eid al-Adha and New\nYear’s Eve; christmas ok. Sister lent him cash."
    # longest phrase first, a line break for a space, either apostrophe, any case; the excepted word stays
    assert _labelled(pp, text, []) == [("Eid al-Adha", "DATE", "h"), ("New\nYear’s Eve", "DATE", "h"),
                                       ("christmas", "DATE", "h")]
    with pytest.raises(ConfigError, match="lacks: no such day"):
        _rules(tmp_path, rule.replace('["lent"]', '["lent", "no such day"]'))
    with pytest.raises(ConfigError, match="go together"):
        _rules(tmp_path, rule.replace("{phrases}", "Easter"))
    with pytest.raises(ConfigError, match="go together"):
        _rules(tmp_path, rule.replace('phrases_from = "holidays"\nphrases_except = ["lent"]\n', ""))
    with pytest.raises(ConfigError, match="unknown lexicon"):
        _rules(tmp_path, rule.replace('"holidays"', '"feast_days"'))
    with pytest.raises(ConfigError, match="needs phrases_from"):
        _rules(tmp_path, rule.replace('phrases_from = "holidays"\n', "").replace("{phrases}", "Easter"))


_DROP_MAKER = '''
[[rule]]
name = "maker"
action = "drop"
types = ["ORGANIZATION"]
all_in = ["device_makers"]
all_in_except = '\\d[\\w-]*|[A-Za-z]{1,2}\\d[\\w-]*|[A-Z]{1,3}'
'''


@pytest.mark.parametrize("surface,dropped", [
    ("Medtronic", True),
    ("Dexcom G7", True),        # a model number is not looked up
    ("NovaSeq 6000", True),
    ("G7", False),              # one listed word at least
    ("Dexcom Health Partners", False),
])
def test_drop_all_in_except_skips_model_numbers(tmp_path, surface, dropped):
    pp = _rules(tmp_path, _DROP_MAKER)
    doc = Document("d", f"Device: {surface}.")
    out = pp.apply(doc, [Span(8, 8 + len(surface), "ORGANIZATION", 0.8, "crf")])
    assert (out == []) is dropped


def test_all_in_except_must_be_a_valid_regex(tmp_path):
    with pytest.raises(ConfigError, match="all_in_except"):
        _rules(tmp_path, _DROP_MAKER.replace("'\\d[\\w-]*|[A-Za-z]{1,2}\\d[\\w-]*|[A-Z]{1,3}'", "'(unclosed'"))
