from notescrub.detect.base import Detector
from notescrub.detect.two_pass import PatientDictionary
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
