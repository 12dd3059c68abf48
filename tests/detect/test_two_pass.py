import pytest

from notescrub.detect.base import Detector
from notescrub.detect.two_pass import PatientDictionary
from notescrub.errors import ConfigError
from notescrub.pipeline import Pipeline
from notescrub.types import Document, Span


def _docs():
    a = Document("n1", "Dr. Qolvanek saw Ymfgi Oduya today.", "P1", layers={
        "first": [Span(4, 12, "DOCTOR", 0.9, "first"), Span(17, 28, "PATIENT", 0.9, "first")]})
    b = Document("n2", "Oduya called; QOLVANEK returned the call. Oduyaville is a town.", "P1")
    c = Document("n3", "Oduya is unrelated here.", "P2")
    return a, b, c


def test_matches_across_a_patients_notes_only():
    a, b, c = _docs()
    out = PatientDictionary(sources=["first"]).detect_many([a, b, c])
    got_b = [(b.text[s.start:s.end], s.label) for s in out[1]]
    assert got_b == [("Oduya", "PATIENT"), ("QOLVANEK", "DOCTOR")]  # not inside "Oduyaville"
    assert out[2] == []  # another patient: no leakage


def test_low_score_and_common_words_are_not_harvested():
    d = Document("n1", "Mr. Will said well.", "P1", layers={"first": [
        Span(4, 8, "PATIENT", 0.9, "first"), Span(14, 18, "PATIENT", 0.2, "first")]})
    e = Document("n2", "I will call. well done. Will called.", "P1")
    out = PatientDictionary(sources=["first"], min_score=0.5).detect_many([d, e])
    # "will" is an ordinary word: only the capitalised mention matches; "well" scored too low
    assert [e.text[s.start:s.end] for s in out[1]] == ["Will"]


def test_medical_terms_are_never_harvested():
    d = Document("n1", "Mr. Foley here.", "P1", layers={"first": [Span(4, 9, "PATIENT", 0.9, "first")]})
    e = Document("n2", "Foley catheter placed.", "P1")
    assert PatientDictionary(sources=["first"]).detect_many([d, e])[1] == []


def test_runs_inside_a_pipeline_grouped_by_patient():
    class First(Detector):
        name = "first"

        def detect(self, doc):
            i = doc.text.find("Qolvanek")
            return [Span(i, i + 8, "DOCTOR", 0.9, self.name)] if doc.text.startswith("Dr.") and i >= 0 else []

    a, b, c = (Document(x.id, x.text, x.patient_id) for x in _docs())
    pipe = Pipeline([First(), PatientDictionary(sources=["first"])])
    docs = list(pipe.pipe([a, b, c]))
    assert [b.text[s.start:s.end] for s in docs[1].layer("phi")] == ["QOLVANEK"]


def _derived(texts_layers, **kw):
    docs = [Document(f"n{i}", t, "P1", layers={"crf": spans} if spans else None) for i, (t, spans) in enumerate(texts_layers)]
    det = PatientDictionary(sources=["crf"], derived_forms=True, **kw)
    return [[(d.text[s.start:s.end], s.label) for s in out] for d, out in zip(docs, det.detect_many(docs))]


def test_acronyms_of_facility_names_and_parenthesised_short_forms():
    first = "Transferred from Tallahala Correctional Facility (TCF) to Kessler Transplant Institute."
    spans = [Span(17, 47, "HOSPITAL", 0.95, "crf"), Span(58, 85, "HOSPITAL", 0.95, "crf")]
    out = _derived([(first, spans), ("Back to TCF today; KTI listed him. tcf and kti lower case are words.", [])])
    assert out[1] == [("TCF", "HOSPITAL"), ("KTI", "HOSPITAL")]


def test_declared_acronyms_that_spell_the_name_count_from_weaker_or_longer_spans():
    first = "Supplier Badger Home Medical Equipment (BHME). Transport by Appalachian Critical Care Transport (ACCT unit 4)."
    b = first.index("Appalachian")
    spans = [Span(0, 38, "ORGANIZATION", 0.63, "crf"),  # below min_score, one word too many
             Span(b, b + 35, "ORGANIZATION", 0.95, "crf")]
    out = _derived([(first, spans), ("BHME delivered the bed; ACCT crew left.", [])], min_score=0.7)
    assert out[1] == [("BHME", "ORGANIZATION"), ("ACCT", "ORGANIZATION")]
    # a parenthesis that does not spell consecutive initials, or a span below declared_min_score: nothing
    weak = [Span(0, 38, "ORGANIZATION", 0.3, "crf")]
    assert _derived([(first[:46], weak), ("BHME delivered the bed.", [])], min_score=0.7)[1] == []
    other = "Seen at Badger Home Medical Equipment (BMX unit 2)."
    assert _derived([(other, [Span(8, 37, "ORGANIZATION", 0.6, "crf")]), ("BMX here.", [])], min_score=0.7)[1] == []


def test_declared_nicknames_are_found_in_the_patients_other_notes():
    first = 'Roster: PERRY, LANDON "BUG" 9 M; client: "deuce" = Dashawn Pryor-Banks; Mr. Hall "feels fine".'
    spans = [Span(8, 21, "PATIENT", 0.9, "crf"), Span(first.index("Dashawn"), first.index(";", 40), "PATIENT", 0.9, "crf"),
             Span(first.index("Hall"), first.index("Hall") + 4, "PATIENT", 0.9, "crf")]
    later = "Bug slept well. deuce at the tent. a bug bite. He feels fine."
    out = _derived([(first, spans), (later, [])])
    # "bug" is an ordinary word: only where capitalised; quoted speech after a name is no nickname
    assert out[1] == [("Bug", "PATIENT"), ("deuce", "PATIENT")]


def test_acronyms_that_are_medical_terms_or_from_short_names_are_not_used():
    # "Memorial Regional Imaging" -> MRI is a medical term; "Grant Hospital" has two words only
    text = "Seen at Memorial Regional Imaging and Grant Hospital."
    spans = [Span(8, 33, "HOSPITAL", 0.95, "crf"), Span(38, 52, "HOSPITAL", 0.95, "crf")]
    out = _derived([(text, spans), ("MRI brain today. GH follow-up.", [])])
    assert out[1] == []


def test_initials_of_names_only_where_initials_are_written():
    text = "Consultant: Eilidh Baker. Typed by: tk"
    spans = [Span(12, 24, "DOCTOR", 0.95, "crf")]
    other = "Our ref: EB/tk\nEB reviewed the scan.\n- EB\nEB\n"
    out = _derived([(text, spans), (other, [])])
    # next to a slash, after a dash at the end of a line, alone on a line; not inside a sentence
    assert out[1] == [("EB", "DOCTOR"), ("EB", "DOCTOR"), ("EB", "DOCTOR")]


def test_derived_forms_are_off_by_default():
    text = "From Tallahala Correctional Facility (TCF)."
    doc = Document("a", text, "P1", layers={"crf": [Span(5, 35, "HOSPITAL", 0.95, "crf")]})
    other = Document("b", "Back to TCF.", "P1")
    assert PatientDictionary(sources=["crf"]).detect_many([doc, other])[1] == []


def _spanish(lang):
    d = Document("n1", "Paciente: Biopsia Paz.", "P1", layers={"crf": [
        Span(10, 17, "NOMBRE_SUJETO_ASISTENCIA", 0.9, "crf"), Span(18, 21, "NOMBRE_SUJETO_ASISTENCIA", 0.9, "crf")]})
    e = Document("n2", "Se hizo biopsia. Vive en paz. Paz acudio.", "P1")
    out = PatientDictionary(sources=["crf"], lang=lang).detect_many([d, e])
    return [(e.text[s.start:s.end], s.label) for s in out[1]]


def test_spanish_ambiguity_checks_use_spanish_lexicons():
    # "biopsia" is a Spanish medical term (dropped), "paz" a common Spanish word (capitalised only)
    assert _spanish("es") == [("Paz", "NOMBRE_SUJETO_ASISTENCIA")]
    # the English checks know neither word: every occurrence would match
    assert [w for w, _ in _spanish("en")] == ["biopsia", "paz", "Paz"]


def test_unknown_language_is_refused():
    with pytest.raises(ConfigError, match="xx"):
        PatientDictionary(sources=["crf"], lang="xx")


def test_initials_that_are_medical_abbreviations_are_not_used():
    # Dr. David Moore -> DM, which is also diabetes mellitus in a problem list
    text = "Attending: David Moore."
    out = _derived([(text, [Span(11, 22, "DOCTOR", 0.95, "crf")]), ("PMH: DM/HTN/HLD.\nDM\n", [])])
    assert out[1] == []


def test_initials_declared_in_a_staff_key_match_everywhere():
    key = "Staff key: TK = Trudy Kolb RRT; RB = Roland Begay, MS\nObserver: Maribel Cota, MA (MC)"
    spans = [Span(16, 26, "DOCTOR", 0.95, "crf"), Span(37, 49, "DOCTOR", 0.95, "crf"), Span(64, 76, "DOCTOR", 0.95, "crf")]
    log = "02/07  NuStep 10 min   TK\n02/09  TM 1.0 mph   RB\n02/12  bands   MC\nmc and tk lower case are words"
    out = _derived([(key, spans), (log, [])])
    assert [x for x in out[0] if len(x[0]) == 2] == [("TK", "DOCTOR"), ("RB", "DOCTOR"), ("MC", "DOCTOR")]  # the key's own
    assert out[1] == [("TK", "DOCTOR"), ("RB", "DOCTOR"), ("MC", "DOCTOR")]


def test_declared_initials_must_be_the_names_initials():
    # "MD: John Smith" is a credential label, not initials of the name; "PS = Paul Sato" fits
    text = "MD: John Smith\nPS = Paul Sato"
    spans = [Span(4, 14, "DOCTOR", 0.95, "crf"), Span(20, 29, "DOCTOR", 0.95, "crf")]
    out = _derived([(text, spans), ("Seen by MD today.\nnote -- PS", [])])
    assert out[1] == [("PS", "DOCTOR")]


def test_initials_declared_for_a_titled_or_weaker_name_match_everywhere():
    # "PAG = Dr. Perpetua Adeyemi-Grant": a title after the legend's "=", hyphenated surname;
    # "TP = Tuan Pham" found by the tagger below min_score (0.65) but above declared_min_score
    key = "Legend: TP = Tuan Pham CHT; PAG = Dr. Perpetua Adeyemi-Grant"
    spans = [Span(13, 22, "PATIENT", 0.65, "crf"), Span(38, 60, "DOCTOR", 0.95, "crf")]
    log = "1  03/19  188/161  ok   TP     PAG\n2  03/20  204/176  ok   TP     PAG"
    out = _derived([(key, spans), (log, [])])
    assert out[1] == [("TP", "PATIENT"), ("PAG", "DOCTOR"), ("TP", "PATIENT"), ("PAG", "DOCTOR")]
    weaker = [Span(13, 22, "PATIENT", 0.4, "crf"), Span(38, 60, "DOCTOR", 0.95, "crf")]
    assert _derived([(key, weaker), (log, [])])[1] == [("PAG", "DOCTOR"), ("PAG", "DOCTOR")]  # below 0.5: not used


def test_initials_in_the_last_cell_of_a_log_row():
    text = "Sitter: Dana Ashby, CNA. Charge: Zora Quill."
    spans = [Span(8, 18, "DOCTOR", 0.95, "crf"), Span(33, 43, "DOCTOR", 0.95, "crf")]
    log = ("0200 | asleep, bed alarm on      | DA\n"
           "0300   turned, repositioned         ZQ\n"
           "0400 - voided, denies pain - ZQ\n"
           "0500 DA was paged about the alarm\n")
    out = _derived([(text, spans), (log, [])])
    # after a table bar, after a wide gap and after a dash at the end of a row; not in running text
    assert out[1] == [("DA", "DOCTOR"), ("ZQ", "DOCTOR"), ("ZQ", "DOCTOR")]


def test_credential_only_name_spans_are_not_harvested():
    text = "Attending: Lamar Whitsett, M.D.\ncc: Harold Pruitt, M.D., F.A.C.C."
    spans = [Span(text.index("M.D."), text.index("M.D.") + 4, "DOCTOR", 0.9, "crf"),
             Span(text.index("Lamar"), text.index("Lamar") + 14, "DOCTOR", 0.9, "crf")]
    later = "Signed: Ana Ruiz, M.D. Lamar Whitsett reviewed."
    doc_a = Document("a", text, "P1", layers={"crf": spans})
    doc_b = Document("b", later, "P1")
    out = PatientDictionary(sources=["crf"]).detect_many([doc_a, doc_b])[1]
    assert [later[s.start:s.end] for s in out] == ["Lamar Whitsett"]


def test_facility_acronyms_and_initials_that_look_like_credentials_are_harvested():
    # "RPH" is a hospital here (and the pharmacist credential "RPh" elsewhere); "P.S." a signer's initials
    text = "Flown to RPH. Note by P.S."
    spans = [Span(9, 12, "HOSPITAL", 0.9, "crf"), Span(22, 26, "DOCTOR", 0.9, "crf")]
    later = "Arrived RPH ED 02:50. -P.S."
    doc_a = Document("a", text, "P1", layers={"crf": spans})
    doc_b = Document("b", later, "P1")
    out = PatientDictionary(sources=["crf"]).detect_many([doc_a, doc_b])[1]
    assert [(later[s.start:s.end], s.label) for s in out] == [("RPH", "HOSPITAL"), ("P.S.", "DOCTOR")]
