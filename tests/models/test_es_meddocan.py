"""The packaged Spanish model: CRF + document-level second pass, small, loadable, sensible."""

from pathlib import Path

from notescrub.modeldir import HybridModel
from notescrub.registry import load_model, model_dir, packaged_models
from notescrub.types import Document

NOTA = ("Nombre: Ramiro Sotomayor Quesada.\nFecha de ingreso: 14/02/2019.\n"
        "Remitido por el Dr. Sotomayor al Hospital Clinico de Valdemoro.")


def test_es_meddocan_is_packaged_small_and_a_crf_with_a_spanish_second_pass():
    assert "es-meddocan" in packaged_models()
    size = sum(p.stat().st_size for p in Path(model_dir("es-meddocan")).rglob("*") if p.is_file())
    assert size < 25 * 1024 * 1024
    pipe = load_model("es-meddocan")
    assert [d.name for d in pipe.detectors] == ["crf", "two_pass"]
    assert pipe.detectors[1].inner.lang == "es" and pipe.detectors[1].inner.sources == ["crf"]


def test_second_pass_tags_a_repeat_the_crf_left_in_the_same_document():
    doc = load_model("es-meddocan")(Document("n1", NOTA))
    got = {(doc.span_text(s), s.label, s.source) for s in doc.layer("phi")}
    assert ("Ramiro Sotomayor Quesada", "NOMBRE_SUJETO_ASISTENCIA", "crf") in got
    assert ("14/02/2019", "FECHAS", "crf") in got
    repeat = [(text, src) for text, _, src in got if text == "Sotomayor"]
    assert repeat == [("Sotomayor", "two_pass")]
    # the CRF alone leaves it
    first = HybridModel.load(model_dir("es-meddocan")).pipeline(overrides={"two_pass": {"enabled": False}})
    alone = first(Document("n1", NOTA))
    assert "Sotomayor" not in {alone.span_text(s) for s in alone.layer("phi")}
