"""Tests of the rule engine and the packaged English rules (examples written for the tests)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notescrub.detect.rules.detector import RulesDetector, load_rules, packaged_rule_files
from notescrub.errors import ConfigError, ModelError
from notescrub.registry import load_model
from notescrub.types import Document

DET = RulesDetector()


def found(text: str) -> list[tuple[str, str]]:
    doc = Document("t", text)
    return [(doc.span_text(s), s.label) for s in DET.detect(doc)]


POSITIVE = [
    # DATE, every common clinical format
    ("Seen 4/7 and again 04/07/2093.", [("4/7", "DATE"), ("04/07/2093", "DATE")]),
    ("Admitted 2093-04-07 via ED", [("2093-04-07", "DATE")]),
    ("Biopsy 7-Apr-93 showed", [("7-Apr-93", "DATE")]),
    ("surgery on April 7th, 2093 went", [("April 7th, 2093", "DATE")]),
    ("follow up Sept 2093", [("Sept 2093", "DATE")]),
    ("on 7 April 2093 she", [("7 April 2093", "DATE")]),
    ("we will call on Tuesday.", [("Tuesday", "DATE")]),
    ("visit planned the week after Easter", [("Easter", "DATE")]),
    ("her appointment on the 14th at noon", [("14th", "DATE")]),
    ("diagnosed in 2087; quit in March", [("2087", "DATE"), ("March", "DATE")]),
    ("symptoms since early May", [("May", "DATE")]),
    ("Admit date:12/01/2090Reported", [("12/01/2090", "DATE")]),
    ("stay 3/2-3/9/2094 uneventful", [("3/2", "DATE"), ("3/9/2094", "DATE")]),
    # AGE, only the number
    ("HPI: 58 yo woman", [("58", "AGE")]),
    ("a 58-year-old man", [("58", "AGE")]),
    ("A/P: 73M with", [("73", "AGE")]),
    ("a seventy-three-year-old farmer", [("seventy-three", "AGE")]),
    ("father died in his 80s", [("80s", "AGE")]),
    ("Age: 102   Sex: F", [("102", "AGE")]),
    ("aged 44, she", [("44", "AGE")]),
    # CONTACT
    ("call (401) 555-0199 x221 today", [("(401) 555-0199 x221", "PHONE")]),
    ("Tel 401.555.0199  Fax 401.555.0198", [("401.555.0199", "PHONE"), ("401.555.0198", "FAX")]),
    ("pager 5-1234 or beeper 22871", [("5-1234", "PHONE"), ("22871", "PHONE")]),
    ("email j.doe@clinic-mail.org please", [("j.doe@clinic-mail.org", "EMAIL")]),
    ("see https://portal.example.org/a?b=1.", [("https://portal.example.org/a?b=1", "URL")]),
    ("login from 203.0.113.7.", [("203.0.113.7", "IPADDR")]),
    # IDs with their trigger words
    ("SSN 900-12-3456 on file", [("900-12-3456", "SSN")]),
    ("MRN: QX-4410293  FIN: 20-330-11921", [("QX-4410293", "MEDICALRECORD"), ("20-330-11921", "ACCOUNT")]),
    ("Unit No. 7781029", [("7781029", "MEDICALRECORD")]),
    ("Accession #: RX88-10293", [("RX88-10293", "IDNUM")]),
    ("NPI 1234567890", [("1234567890", "IDNUM")]),
    ("DEA AB1234563)", [("AB1234563", "LICENSE")]),
    ("member ID ZZP-4471-1029", [("ZZP-4471-1029", "HEALTHPLAN")]),
    ("pump serial # TQ-55102-AX", [("TQ-55102-AX", "DEVICE")]),
    ("VIN 1HGCM82633A004352", [("1HGCM82633A004352", "VEHICLE")]),
    ("user: mkowalski2 logged", [("mkowalski2", "USERNAME")]),
    # addresses
    ("lives at 77 Birch Hollow Road, Apt 5, Elmton, VT 05001",
     [("77 Birch Hollow Road, Apt 5", "STREET"), ("Elmton", "CITY"), ("VT", "STATE"), ("05001", "ZIP")]),
    # contextual names; titles and credentials stay outside
    ("Seen by Dr. Amara Osei today", [("Amara Osei", "DOCTOR")]),
    ("note cc Dr. Dr. Lena Hoyt (typo)", [("Lena Hoyt", "DOCTOR")]),  # a doubled title: the name after the second
    ("Tomasz Wrobel, MD", [("Tomasz Wrobel", "DOCTOR")]),
    ("Mrs. Delacroix reports", [("Delacroix", "PATIENT")]),
    ("her daughter Ifeoma called", [("Ifeoma", "PATIENT")]),
    ("He works as a welder.", [("welder", "PROFESSION")]),
]


@pytest.mark.parametrize("text, expected", POSITIVE)
def test_positive_examples(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


NEGATIVE = [
    "ABG 7.31/52/88 on BiPAP",          # blood gas
    "BP 132/78, HR 88",                 # blood pressure
    "sacubitril-valsartan 24/26 mg BID",  # dose
    "2/6 systolic murmur",              # murmur grade
    "pain 5/10 at rest",                # pain score
    "strength 4/5 in the RUE",          # motor score
    "given at 1400, again at 2200",     # times
    "for 3 days, 2 weeks ago",          # durations
    "call 911 or 988",                  # public numbers
    "14 F catheter placed",             # catheter size is not an age
    "Temp 101 F overnight",             # temperature
    "she may need a Foley catheter",    # modal 'may', eponym
    "history of Parkinson's disease",   # eponym
    "Graves' disease, Bell's palsy",    # eponyms
    "took 2000 mg of vitamin C",         # dose
    "glucose 1/2 normal saline",        # fraction
]


@pytest.mark.parametrize("text", NEGATIVE)
def test_negative_examples(text: str) -> None:
    assert found(text) == []


def test_id_propagates_to_other_occurrences() -> None:
    doc = Document("t", "MRN: KQ-7712093\n...\nkq7712093 pod 1")
    spans = DET.detect(doc)
    assert [(doc.span_text(s), s.label) for s in spans] == [("KQ-7712093", "MEDICALRECORD"), ("kq7712093", "MEDICALRECORD")]


def test_spans_record_their_rule_and_source() -> None:
    s = DET.detect(Document("t", "DOB 01/02/2090"))[0]
    assert s.source == "rules" and s.meta["rule"] == "date-mdy" and 0 < s.score <= 1


def test_label_filter() -> None:
    det = RulesDetector(labels=["PHONE"])
    doc = Document("t", "03/18/2090 call 617-555-0100")
    assert [s.label for s in det.detect(doc)] == ["PHONE"]


def test_packaged_files_load_with_unique_names() -> None:
    rs = load_rules()
    assert len(rs) > 50 and len(set(rs.names)) == len(rs.names)
    assert "en_dates.toml" in packaged_rule_files("en")


# -- bad input: malformed rule files fail at load, naming the rule -------------------------
def write(tmp_path: Path, body: str) -> Path:
    p = tmp_path / "bad.toml"
    p.write_text(body, encoding="utf-8")
    return p


@pytest.mark.parametrize(
    "body, message",
    [
        ('[[rule]]\nname = "r1"\nlabel = "DATE"\npattern = \'(\'\n', r"bad\.toml:2: rule 'r1': bad regex in pattern"),
        ('[[rule]]\nname = "r2"\nlabel = "NOPE"\npattern = \'x\'\n', r"rule 'r2': unknown PHI label 'NOPE'"),
        ('[[rule]]\nname = "r3"\nlabel = "DATE"\npattern = \'x\'\n\n[[rule]]\nname = "r3"\nlabel = "DATE"\npattern = \'y\'\n',
         r"bad\.toml:7: duplicate rule name 'r3'"),
        ('[[rule]]\nname = "r4"\nlabel = "DATE"\npattern = \'x\'\nscroe = 1\n', r"rule 'r4': unknown key\(s\) \['scroe'\]"),
        ('[[rule]]\nname = "r5"\nlabel = "DATE"\npattern = \'<<NOPE>>\'\n', r"rule 'r5': unknown macro <<NOPE>>"),
        ('[[rule]]\nname = "r6"\nlabel = "DATE"\npattern = \'<<lex:nope>>\'\n', r"rule 'r6': unknown lexicon 'nope'"),
        ('[[rule]]\nname = "r7"\nlabel = "DATE"\npattern = \'x\'\nscore = 2\n', r"rule 'r7': score must be"),
        ('[[rule]]\nname = "r8"\nlabel = "DATE"\npattern = \'x\'\nvalidate = ["nope"]\n', r"rule 'r8': unknown validator"),
        ('[[rule]]\nname = "r9"\nlabel = "DATE"\npattern = \'x\'\ncontext = { before = "(" }\n', r"rule 'r9': bad regex in context.before"),
        ('[[rule]]\nname = "r10"\nlabel = "DATE"\n', r"rule 'r10': pattern must be"),
        ('[[rule]\nname = "x"\n', r"bad\.toml:1: invalid TOML"),
        ('[[rule]]\nlabel = "DATE"\npattern = \'x\'\n', r"rule #1 has no 'name'"),
        ('[[rule]]\nname = "r11"\nlabel = "DATE"\npattern = \'x\'\nreject_if_in = ["nope"]\n', r"rule 'r11': unknown lexicon 'nope'"),
    ],
)
def test_malformed_rule_files_fail_at_load(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_rules([write(tmp_path, body)])


def test_custom_rule_file_with_context_negative_and_block(tmp_path: Path) -> None:
    p = write(tmp_path, """
[macros]
CODE = 'Z\\d{3}'
[[rule]]
name = "code"
label = "IDNUM"
pattern = '<<CODE>>'
score = 0.5
context = { before = 'code\\s*$', window = 10, boost = 0.4 }
negative = { after = '^\\s*mg' }
[[rule]]
name = "no-test-codes"
block = true
pattern = 'TEST Z\\d{3}'
""")
    det = RulesDetector([p])
    doc = Document("t", "code Z123, Z456, Z789 mg, TEST Z999")
    got = [(doc.span_text(s), round(s.score, 2)) for s in det.detect(doc)]
    assert got == [("Z123", 0.9), ("Z456", 0.5)]


def test_unknown_packaged_file() -> None:
    with pytest.raises(ConfigError, match=r"no packaged rule file 'en_nope\.toml'"):
        load_rules(["en_nope.toml"])


# -- packaged model ---------------------------------------------------------------------------
def test_load_model_rules_en() -> None:
    from notescrub.registry import load_model

    pipe = load_model("rules-en")
    doc = pipe(Document("t", "Dr. Ruiz saw Mr. Kowalczyk on 3/18/2090 at Halvorsen Memorial Hospital."))
    labels = [(doc.span_text(s), s.label) for s in doc.layer("phi")]
    assert ("Ruiz", "DOCTOR") in labels and ("3/18/2090", "DATE") in labels
    assert ("Halvorsen Memorial Hospital", "HOSPITAL") in labels


def test_rules_model_dirs_with_bad_content_are_refused_naming_the_file(tmp_path: Path) -> None:
    (tmp_path / "model.json").write_text(json.dumps({"kind": "rules", "rules": ["missing.toml"]}), encoding="utf-8")
    with pytest.raises(ModelError, match=r"missing\.toml") as info:
        load_model(tmp_path)
    assert str(tmp_path / "model.json") in str(info.value)
    (tmp_path / "model.json").write_text(json.dumps({"kind": "rules", "dictionary": "yes"}), encoding="utf-8")
    with pytest.raises(ModelError, match="'dictionary' must be a table"):
        load_model(tmp_path)
    (tmp_path / "model.json").write_text(json.dumps({"kind": "rules", "resolver": "magic"}), encoding="utf-8")
    with pytest.raises(ModelError, match="unknown resolver 'magic'"):
        load_model(tmp_path)


# -- properties -------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("0123456789/-.:, aMDrJnF()\n#x@")), max_size=80))
def test_spans_are_in_range_and_disjoint(text: str) -> None:
    spans = DET.detect(Document("h", text))
    for a, b in itertools.pairwise(spans):
        assert a.end <= b.start
    assert all(0 <= s.start < s.end <= len(text) for s in spans)


# -- en-dev target (reads ../shared at run time) --------------------------------------------
@pytest.mark.slow
def test_structured_recall_on_en_dev(en_dev_dir: Path) -> None:
    structured = {"DATE", "AGE", "PHONE", "FAX", "EMAIL", "URL", "IPADDR", "SSN", "ZIP", "MEDICALRECORD",
                  "ACCOUNT", "IDNUM", "HEALTHPLAN", "LICENSE", "DEVICE", "VEHICLE", "BIOID"}
    n = hit = 0
    for line in (en_dev_dir / "en-dev.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        pred = DET.detect(Document(r["id"], r["text"]))
        for g in r["spans"]:
            if g["type"] in structured:
                n += 1
                hit += any(p.start == g["start"] and p.end == g["end"] and p.label == g["type"] for p in pred)
    assert hit / n >= 0.98


def test_blocks_shared_between_detectors_are_the_same_ranges():
    from notescrub.detect.dictionary import DictionaryDetector
    from notescrub.detect.rules.detector import RulesDetector, load_rules
    from notescrub.detect.rules.negative_cues import share_negative_cues

    text = "Parkinson's disease and Crohn's disease, seen by Dr. Parkinson. " * 2
    a = RulesDetector(load_rules(["en_blocks.toml"]), name="a", propagate=False)
    b = RulesDetector(load_rules(["en_blocks.toml"]), name="b", propagate=False)
    d = DictionaryDetector()
    assert a.negative_cues is not b.negative_cues  # each detector owns its cues ...
    assert share_negative_cues([a, b, d, DictionaryDetector(lang="es")]) == 2  # ... until the assembly shares them
    assert b.negative_cues is a.negative_cues is d.negative_cues
    expected = sorted((s, e) for r in a._blocks for s, e, _ in r.matches(text))
    assert expected and a.blocks(text) == expected
    got = b.blocks(text)  # served from the shared memo
    assert got == expected and d.negative_cues.ranges(text) == expected
    got.append((0, 1))  # callers may change their copy
    assert a.blocks(text) == expected
    other = text.replace("Crohn", "Smith")
    assert a.blocks(other) == sorted((s, e) for r in a._blocks for s, e, _ in r.matches(other))


def test_user_rule_file_with_a_quadratic_pattern_gets_a_warning(tmp_path, caplog):
    f = tmp_path / "mine.toml"
    f.write_text('[[rule]]\nname = "slow-id"\nlabel = "IDNUM"\npattern = \'\'\'ID\\s*:?\\s*(?P<phi>\\d{5})\'\'\'\n'
                 '[[rule]]\nname = "fast-id"\nlabel = "IDNUM"\npattern = \'\'\'ID\\s*+:?\\s*(?P<phi>\\d{5})\'\'\'\n',
                 encoding="utf-8")
    with caplog.at_level("WARNING", logger="notescrub.detect.rules.detector"):
        load_rules([f])
    msgs = [r.getMessage() for r in caplog.records]
    assert len(msgs) == 1 and "slow-id" in msgs[0] and "mine.toml" in msgs[0]


def test_hybrid_model_feeders_share_one_negative_cue_object():
    from notescrub.assemble import build

    pipe = build("en-default", None)
    stacked = next(c.inner for c in pipe.detectors if hasattr(c.inner, "feeders"))
    cues = [f.negative_cues for f in stacked.feeders if hasattr(f, "negative_cues")]
    assert len(cues) == 2 and cues[0] is cues[1] and cues[0].rules
