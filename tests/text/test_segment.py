"""Lines, sentences (robust to fixed-width hard wraps) and section headings."""

import pytest

from notescrub.text.segment import lines, section_at, sections, sentences


def _sents(text):
    return [text[a:b] for a, b in sentences(text)]


WRAPPED = (
    "HISTORY OF PRESENT ILLNESS:\n"
    "The patient is a 71 year old woman with a long history of heart failure who\n"
    "presents with three days of worsening dyspnea and orthopnea at home. She was\n"
    "seen in clinic last week and her diuretic dose was increased without relief.\n"
    "\n"
    "PLAN\n"
    "Diuresis.\n"
)


def test_lines_offsets_and_crlf():
    text = "ab\r\ncd\n\nef"
    assert [text[a:b] for a, b in lines(text)] == ["ab", "cd", "", "ef"]


def test_hard_wrapped_sentences_are_joined():
    sents = _sents(WRAPPED)
    assert sents[0] == "HISTORY OF PRESENT ILLNESS:"
    assert sents[1].startswith("The patient is") and sents[1].endswith("orthopnea at home.")
    assert "\n" in sents[1]  # crosses the hard wrap
    assert sents[2].startswith("She was\nseen in clinic")
    assert sents[-2:] == ["PLAN", "Diuresis."]


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Seen by Dr. Ruiz today. Plan as above.", ["Seen by Dr. Ruiz today.", "Plan as above."]),
        ("Short line\nAnother short line", ["Short line", "Another short line"]),
        ("Meds:\n- aspirin\n- lasix", ["Meds:", "- aspirin", "- lasix"]),
        ("", []),
        ("Nº. 5 given. Next dose 6.", ["Nº. 5 given.", "Next dose 6."]),
    ],
)
def test_sentence_cases(text, expected):
    assert _sents(text) == expected


@pytest.mark.parametrize(
    "text,names",
    [
        ("HPI:\nfoo\nPHYSICAL EXAM\nbar", ["HPI", "PHYSICAL EXAM"]),
        ("Social history: lives alone.\nPlan: home", ["SOCIAL HISTORY", "PLAN"]),
        ("ANTECEDENTES PERSONALES\nNo alergias.", ["ANTECEDENTES PERSONALES"]),
        ("Seen today at 10:30 by the team.", []),
        ("BP 120/80\nOK", []),
    ],
)
def test_section_headings(text, names):
    assert [h.name for h in sections(text)] == names


def test_section_at():
    text = "HPI:\nfoo\nPLAN\nbar"
    hs = sections(text)
    assert section_at(hs, text.index("foo")) == "HPI"
    assert section_at(hs, text.index("bar")) == "PLAN"
    assert section_at(hs, 0) == "HPI"
