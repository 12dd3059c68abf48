import random

import pytest

from notescrub.synth.names import (
    NAME_FORMS,
    Person,
    make_person,
    misspell,
    oov_name,
    render,
)


@pytest.mark.parametrize("form", NAME_FORMS)
def test_render_forms_value_is_clean(form):
    rng = random.Random(1)
    p = make_person(rng, role="DOCTOR")
    _prefix, value, _suffix = render(p, form, rng)
    assert value and value == value.strip()
    assert "Dr." not in value and not value.endswith(("MD", "RN"))


def test_title_and_credential_stay_outside():
    p = Person("Jane", "Ruiz", "F", "mexican", title="Dr.", credential="MD", role="DOCTOR")
    assert render(p, "sig", random.Random(0))[1:] == ("Jane Ruiz", ", MD")
    assert render(p, "dr_last", random.Random(0)) == ("Dr. ", "Ruiz", "")


def test_many_cultures_and_invented_names():
    rng = random.Random(3)
    cultures = {make_person(rng).culture for _ in range(600)}
    assert len(cultures) >= 30
    assert all(oov_name(random.Random(i)).isalpha() for i in range(50))


def test_misspelling_differs():
    rng = random.Random(0)
    assert all(misspell(n, rng) != n for n in ("Raghunathan", "Foley", "Etxeberria", "Li"))
