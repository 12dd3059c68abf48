"""``notescrub serve`` start-up checks, and one service run with the default model (en-default)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from notescrub.cli.main import main


def test_missing_extra_names_the_install_command(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "fastapi", None)  # import fastapi -> ImportError
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'notescrub[serve]'" in err and "fastapi" in err


def test_non_loopback_needs_a_token(monkeypatch, capsys, tmp_path):
    pytest.importorskip("fastapi")
    pytest.importorskip("presidio_anonymizer")
    monkeypatch.delenv("NOTESCRUB_TOKEN", raising=False)
    assert main(["serve", "--host", "0.0.0.0"]) == 2
    assert "requires a bearer token" in capsys.readouterr().err
    short = tmp_path / "token"
    short.write_text("tooshort\n")
    assert main(["serve", "--host", "0.0.0.0", "--token-file", str(short)]) == 2
    err = capsys.readouterr().err
    assert "at least 16 characters" in err and "tooshort" not in err
    assert main(["serve", "--key-file", str(tmp_path / "missing.key")]) == 2
    assert "missing.key" in capsys.readouterr().err


def test_en_default_service_end_to_end():
    pytest.importorskip("fastapi")
    pytest.importorskip("presidio_anonymizer")
    from tests.serve.helpers import Server

    srv = Server(["--workers", "1", "--timeout", "600"], ready_timeout=600.0)  # a busy machine loads en-default slowly
    try:
        note = (Path(__file__).resolve().parents[2] / "examples" / "sample_note.txt").read_text(encoding="utf-8")
        status, body, _ = srv.call("POST", "/v1/annotate", {"text": note, "patient_id": "P1"})
        assert status == 200 and {"DOCTOR", "DATE", "PHONE"} <= {s["phi"] for s in body["spans"]}
        status, body, _ = srv.call("POST", "/v1/deid", {"text": note, "mode": "tag", "preset": "max-recall"})
        assert status == 200 and "[**DOCTOR**]" in body["text"]
        found = srv.call("POST", "/analyze", {"text": "Seen by Dr. Ruiz on 3/18/2024.", "language": "en"})[1]
        assert [r["entity_type"] for r in found] == ["PERSON", "DATE_TIME"]
        assert srv.call("GET", "/v1/models")[1]["served"]["preset"] == "high-recall"
    finally:
        srv.stop()
