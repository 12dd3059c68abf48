"""``notescrub deid``: surrogate phones are fictional unless ``--real-phone-numbers``."""

from notescrub.cli.main import main
from notescrub.io import read_corpus, write_corpus
from notescrub.replace.keys import SurrogateKey
from notescrub.replace.phones import is_fictional, nanp_parts
from notescrub.types import Document, Span

NOTE = "Call (617) 284-4016 or fax 617.736.5000 today.\n"


def _corpus(tmp_path):
    spans = [Span(NOTE.index(v), NOTE.index(v) + len(v), lab) for v, lab in (("(617) 284-4016", "PHONE"),
                                                                             ("617.736.5000", "FAX"))]
    path = tmp_path / "in.jsonl"
    write_corpus([Document("n1", NOTE, "P1", layers={"gold": spans})], path)
    key = tmp_path / "site.key"
    SurrogateKey(bytes(range(32))).save(key)
    return path, key


def _numbers(path):
    [doc] = read_corpus(path)
    return [doc.span_text(s) for s in doc.layer("gold")]


def test_fictional_by_default_and_real_exchanges_on_request(tmp_path):
    src, key = _corpus(tmp_path)
    out, real = tmp_path / "out.jsonl", tmp_path / "real.jsonl"
    assert main(["deid", str(src), "-o", str(out), "--spans-from-input", "--key-file", str(key)]) == 0
    assert main(["deid", str(src), "-o", str(real), "--spans-from-input", "--key-file", str(key),
                 "--real-phone-numbers"]) == 0
    phone, fax = _numbers(out)
    assert phone[0] == "(" and fax.count(".") == 2
    assert is_fictional(phone) and is_fictional(fax)
    assert all(nanp_parts(n) and not is_fictional(n) for n in _numbers(real))
