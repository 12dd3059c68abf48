"""E-mails and user names from the surrogate person's name, on fictional domains."""

import re

from notescrub.replace import Replacer, SurrogateKey
from notescrub.types import Document, Span

KEY = SurrogateKey(bytes(range(32)))


def _replace(text, parts, patient="P1"):
    spans, pos = [], 0
    for value, label in parts:
        i = text.index(value, pos)
        spans.append(Span(i, i + len(value), label))
        pos = i + len(value)
    res = Replacer("surrogate", key=KEY).replace(Document("d", text, patient, layers={"phi": spans}))
    return [res.text[s.start:s.end] for s in res.spans]


def _letters(text):
    return "".join(c for c in text.lower() if c.isalpha())


def test_email_is_built_from_the_surrogate_of_the_person_named_in_the_note():
    name, mail = _replace("Daughter Fatima Al-Sayegh, fatima.alsayegh96@postbox-mail.com",
                          [("Fatima Al-Sayegh", "PATIENT"), ("fatima.alsayegh96@postbox-mail.com", "EMAIL")])
    given, family = name.split(" ", 1)
    local, domain = mail.split("@")
    assert local == f"{_letters(given)}.{_letters(family)}" + local[-2:] and local[-2:].isdigit()
    assert domain.endswith(".example.com") and "postbox" not in domain


def test_initial_glued_to_a_surname_and_a_user_name_follow_the_person():
    name, user, mail = _replace("Dr. Kevin Dunne (kdunne3), k.dunne@hospital.edu",
                                [("Kevin Dunne", "DOCTOR"), ("kdunne3", "USERNAME"), ("k.dunne@hospital.edu", "EMAIL")])
    given, family = name.split()
    assert user == _letters(given)[0] + _letters(family) + user[-1] and user[-1].isdigit()
    assert mail == f"{_letters(given)[0]}.{_letters(family)}@" + mail.split("@")[1]
    assert re.fullmatch(r"[a-z]+\.example\.org", mail.split("@")[1])  # .edu is not reserved: example.org


def test_unknown_handles_look_like_names_not_random_letters():
    outs = _replace("a: zqxwvmk@tidewater-net.com b: amehrotra c: hgraves_fms",
                    [("zqxwvmk@tidewater-net.com", "EMAIL"), ("amehrotra", "USERNAME"), ("hgraves_fms", "USERNAME")])
    from notescrub.lexicons import lexicon
    from notescrub.replace.vocabulary import DictionaryVocabulary
    vocab = DictionaryVocabulary("en")
    surnames = lexicon("last_names") | {n.lower() for n in vocab.names("surname")}
    local = outs[0].split("@")[0]
    assert local in surnames
    assert outs[1] in surnames or outs[1][1:] in surnames  # a surname, or an initial and a surname
    head, tail = outs[2].split("_")
    assert (head in surnames or head[1:] in surnames) and tail in surnames


def test_same_address_same_surrogate_across_notes_of_a_patient():
    a = _replace("mail j.smith@x.org", [("j.smith@x.org", "EMAIL")])
    b = _replace("again J.Smith@x.org", [("J.Smith@x.org", "EMAIL")])
    assert a[0].lower() == b[0].lower()
