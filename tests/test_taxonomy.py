import pytest

from notescrub import taxonomy
from notescrub.errors import LabelError


def test_every_scheme_maps_onto_known_subtypes():
    subs = set(taxonomy.subtypes())
    assert len(subs) >= 25
    for scheme in taxonomy.SCHEMES:
        for label in taxonomy.scheme_labels(scheme):
            mapped = taxonomy.canonical(label, scheme)
            assert mapped is None or mapped in subs


def test_scheme_specific_lookup():
    assert taxonomy.canonical("ID", scheme="i2b2-2006") == "IDNUM"
    assert taxonomy.canonical("TERRITORIO") == "CITY"
    with pytest.raises(LabelError):
        taxonomy.canonical("X", scheme="nope")


def test_native_category_keeps_meddocan_categories():
    assert taxonomy.native_category("FAMILIARES_SUJETO_ASISTENCIA") == "OTHER"
    assert taxonomy.native_category("DOCTOR") == "NAME"


def test_hipaa_eval_quirk():
    assert "IDNUM" in taxonomy.hipaa_eval_subtypes()
    assert "IDNUM" not in taxonomy.hipaa_eval_subtypes(compat_official=True)
    assert "DOCTOR" not in taxonomy.hipaa_eval_subtypes()


def test_require_label():
    assert taxonomy.require_label("FECHAS") == "DATE"
    with pytest.raises(LabelError):
        taxonomy.require_label("NOT_A_LABEL")
