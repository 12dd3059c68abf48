"""The language plausibility check behind the pipeline's 'does not look like en' warning."""

from notescrub.text.language import common_share, looks_like

HEADER = ("SMITH, JOHN A  DOB: 4/5/1950  MRN 00123456\nATTENDING: WILLIAMS, MARY\n"
          "Neuro consult for Mr. Smith.")
SPANISH = ("Varón de 45 años que acude a urgencias por dolor abdominal de tres días de evolución, "
           "sin fiebre ni vómitos, con antecedentes de apendicectomía en la infancia.")


def test_header_heavy_english_is_english():
    share, n = common_share(HEADER, "en")
    assert n >= 8 and share < 0.3  # below the threshold ...
    assert looks_like(HEADER, "en")  # ... but no other language fits better


def test_spanish_is_not_english_and_is_spanish():
    assert not looks_like(SPANISH, "en")
    assert looks_like(SPANISH, "es")


def test_almost_no_frequent_word_is_refused():
    assert not looks_like("qzxv wrrk plmt zzqa hhjk tvvb xxlq kkrw mmnp", "en")


def test_unknown_language_always_passes():
    assert looks_like(SPANISH, "de")
