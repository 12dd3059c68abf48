"""Document-recurrence features (notescrub.features.document) and the ``document`` group."""

from notescrub.features import DEFAULT_GROUPS, Featurizer
from notescrub.features.document import MAX_LINES, document_table
from notescrub.text.views import token_view
from notescrub.types import Document


def _feats(text):
    view = token_view(Document("d", text))
    table, ids = document_table(view)
    return [(t.text, table[k]) for t, k in zip(view.tokens, ids)]


def test_a_recurring_word_gets_the_header_keys_of_its_other_lines():
    got = dict((w, f) for w, f in _feats("Nombre: Quelmar.\nMedico: Ruiz.\nVisto por Quelmar y Ruiz.")[:4])
    # "Quelmar" on line 0 is told it also stands on the line headed "visto", not its own line's key
    assert got["Quelmar"] == ["doc:again", "doc:head=visto"]
    last = _feats("Nombre: Quelmar.\nMedico: Ruiz.\nVisto por Quelmar y Ruiz.")
    assert last[-2] == ("Ruiz", ["doc:again", "doc:head=medico"])
    assert last[-4] == ("Quelmar", ["doc:again", "doc:head=nombre"])


def test_words_seen_once_punctuation_and_same_line_repeats_get_nothing():
    got = _feats("Dolor toracico. Dolor leve.\nAlta hoy.")
    assert all(f == [] for _, f in got)  # "Dolor" twice but on one line; "." is punctuation


def test_frequent_words_get_doc_many_only():
    heads = ["uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho"][: MAX_LINES + 1]
    got = _feats("\n".join(f"{h} de algo" for h in heads))
    assert {tuple(f) for w, f in got if w == "de"} == {("doc:many",)}
    assert all(f == [] for w, f in got if w in heads)


def test_featurizer_group_is_opt_in_and_survives_the_config_round_trip():
    doc = Document("d", "Apellidos: Quelmar.\nVista por Quelmar.")
    assert "document" not in DEFAULT_GROUPS
    plain = Featurizer(lang="es")
    assert not any(a.startswith("doc:") for t in plain.attributes(doc) for a in t)
    f = Featurizer(groups=(*DEFAULT_GROUPS, "document"), lang="es")
    feats = f.attributes(doc)
    assert "doc:head=vista" in feats[2] and "doc:head=apellidos" in feats[-2]
    again = Featurizer.from_config(f.to_config())
    assert again.attributes(doc) == feats
