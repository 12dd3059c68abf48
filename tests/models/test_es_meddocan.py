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
    # the date rules of the model's post.toml run on the CRF's spans
    post = {c.name: c for c in HybridModel.load(model_dir("es-meddocan")).components}["post"]
    assert post.kind == "postprocess" and post.options == {"targets": ["crf"], "files": ["post.toml"]}
    from notescrub.detect.spans.postprocess import load_post_rules

    rules = load_post_rules([Path(model_dir("es-meddocan")) / "post.toml"])
    assert [(r.name, r.label) for r in rules] == [("add-numeric-date-es", "FECHAS"), ("add-month-year-es", "FECHAS")]


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


POST_FILE = Path(__file__).resolve().parents[2] / "src" / "notescrub" / "models" / "es-meddocan" / "post.toml"


def _added(text: str, spans: list | None = None) -> list[tuple[str, str]]:
    from notescrub.detect.spans.postprocess import PostProcessor

    doc = Document("d", text)
    return [(doc.span_text(s), s.label) for s in PostProcessor([POST_FILE]).apply(doc, spans or [])]


def test_date_rules_add_numeric_and_month_year_dates_the_crf_left():
    text = "El 22-7-04 se recolocó. PSA (enero 2001: 0.5, Agosto del 2003: 0.7). TC (30/01/02)."
    assert _added(text) == [("22-7-04", "FECHAS"), ("enero 2001", "FECHAS"), ("Agosto del 2003", "FECHAS"),
                            ("30/01/02", "FECHAS")]


def test_date_rules_leave_dose_schedules_ratios_and_spans_the_crf_found():
    from notescrub.types import Span

    assert _added("Amitriptilina (0-0-25 mg), morfina 10-0-10, cociente 3/4/5.6, versión 1.2.3") == []
    found = [Span(3, 24, "FECHAS", 0.9, "crf")]  # "21 de febrero de 2002": the CRF's span stays as it is
    assert _added("El 21 de febrero de 2002 ingresó.", found) == [("21 de febrero de 2002", "FECHAS")]
