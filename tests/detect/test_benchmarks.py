"""The ``pipeline`` benchmark target runs a whole model over a corpus (figures are not asserted)."""

import json

import pytest

from notescrub.cli.main import main
from notescrub.errors import ConfigError


@pytest.fixture
def tiny_corpus(tmp_path):
    path = tmp_path / "notes.jsonl"
    notes = [{"id": f"n{i}", "patient": f"p{i % 2}", "text": f"Seen 03/1{i}/2091 by Dr. Ruiz. Call 617-555-014{i}."}
             for i in range(3)]
    path.write_text("\n".join(json.dumps(n) for n in notes) + "\n", encoding="utf-8")
    return path


def test_pipeline_target_with_model_option(tiny_corpus, capsys, monkeypatch):
    monkeypatch.delenv("NOTESCRUB_BENCH_MODEL", raising=False)
    rc = main(["bench", "pipeline", "--model", "rules-en", "--corpus", str(tiny_corpus), "--repeat", "1", "--json"])
    assert rc == 0
    res = json.loads(capsys.readouterr().out)
    assert res["benchmark"] == "pipeline" and res["model"] == "rules-en"
    assert res["documents"] == 3 and res["tokens_per_pass"] > 0
    assert res["notes_per_s_cpu_median"] > 0 and res["max_rss_mib"] > 0


def test_pipeline_target_unknown_model(tiny_corpus, monkeypatch):
    monkeypatch.setenv("NOTESCRUB_BENCH_MODEL", "/nonexistent/model")
    from notescrub.bench import run_benchmark
    from notescrub.errors import ModelError

    with pytest.raises((ModelError, ConfigError)):
        run_benchmark("pipeline", [str(tiny_corpus)], repeat=1)
