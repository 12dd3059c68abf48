"""The HTTP service, against a real uvicorn process on 127.0.0.1 (one for the module, rules-en)."""

from __future__ import annotations

import http.client
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("presidio_anonymizer")

from tests.serve.helpers import Server

import notescrub

TOKEN = "test-token-0123456789abcdef"
MARK = "Zebulon Quartermaine"  # a name that must never reach a response error or the log
NOTE = f"Seen by Dr. {MARK} on 3/18/2024. Call 555-123-4567."
SAMPLE = (Path(__file__).resolve().parents[2] / "examples" / "sample_note.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def key_path(tmp_path_factory):
    return notescrub.SurrogateKey.from_seed("serve-tests").save(tmp_path_factory.mktemp("k") / "site.key")


@pytest.fixture(scope="module")
def server(key_path):
    srv = Server(["--model", "rules-en", "--workers", "1", "--queue", "2", "--timeout", "1.0",
                  "--max-body", "1000000", "--max-notes", "50", "--key-file", str(key_path)], token=TOKEN)
    yield srv
    srv.stop()
    assert MARK not in srv.log() and "Quartermaine" not in srv.log()


def test_probes_and_openapi_need_no_token(server):
    assert server.call("GET", "/health", auth=False)[:2] == (200, {"status": "ok"})
    assert server.call("GET", "/ready", auth=False)[:2] == (200, {"status": "ready"})
    status, spec, _ = server.call("GET", "/openapi.json", auth=False)
    assert status == 200 and {"/v1/deid", "/v1/annotate", "/analyze", "/anonymize"} <= set(spec["paths"])


def test_token_is_required_and_checked(server):
    status, body, headers = server.call("GET", "/v1/models", auth=False)
    assert status == 401 and body == {"error": "missing or wrong bearer token"}
    assert headers.get("www-authenticate") == "Bearer"
    assert server.call("GET", "/v1/models", auth=False, headers={"authorization": "Bearer " + TOKEN[:-1] + "X"})[0] == 401
    assert server.call("POST", "/v1/deid", {"text": NOTE}, auth=False)[0] == 401
    status, body, _ = server.call("GET", "/v1/models")
    assert status == 200 and body["served"]["name"] == "rules-en" and "en-default" in body["packaged"]


def test_deid_one_note_matches_the_library_and_releases_nothing_else(server, key_path):
    status, body, _ = server.call("POST", "/v1/deid", {"text": NOTE, "patient_id": "P1", "id": "n1"})
    assert status == 200 and set(body) == {"id", "text", "spans"} and body["id"] == "n1"
    expected = notescrub.deidentify(NOTE, key=key_path, model="rules-en", patient_id="P1")
    assert body["text"] == expected.text and MARK not in body["text"]
    assert [(s["start"], s["end"], s["type"]) for s in body["spans"]] == [(s.start, s.end, s.phi) for s in expected.spans]
    again = server.call("POST", "/v1/deid", {"text": NOTE, "patient_id": "P1"})[1]
    assert again["text"] == body["text"]  # the key file is loaded once: same surrogates every time


def test_deid_batch_modes_and_types(server):
    notes = [{"text": NOTE, "id": "a"}, {"text": "Call 555-123-4567 today.", "id": "b"}, {"text": "Nothing here."}]
    status, body, _ = server.call("POST", "/v1/deid", {"notes": notes, "mode": "tag", "types": ["PHONE"]})
    assert status == 200 and [r["id"] for r in body["results"]] == ["a", "b", "2"]
    assert body["results"][0]["text"] == f"Seen by Dr. {MARK} on 3/18/2024. Call [**PHONE**]."
    assert body["results"][2] == {"id": "2", "text": "Nothing here.", "spans": []}
    masked = server.call("POST", "/v1/deid", {"text": "Call 555-123-4567.", "mode": "mask"})[1]
    assert masked["text"] == "Call ***-***-****."


def test_annotate_returns_spans_and_never_the_text(server):
    status, body, _ = server.call("POST", "/v1/annotate", {"text": NOTE})
    assert status == 200 and set(body) == {"id", "spans", "risk", "suspects"}
    assert [(NOTE[s["start"]:s["end"]], s["phi"]) for s in body["spans"]][1:] == [("3/18/2024", "DATE"),
                                                                                   ("555-123-4567", "PHONE")]
    # review risk (packaged rules-en calibration): offsets and scores only, never the text
    assert isinstance(body["risk"], float) and 0 < len(body["suspects"]) <= 20
    assert all(set(s) == {"start", "end", "score", "type"} for s in body["suspects"])


def test_errors_are_json_and_never_quote_the_note(server):
    cases = [
        ({"text": NOTE, "mode": "shred"}, 422),
        ({"text": NOTE, "notes": [{"text": NOTE}]}, 422),
        ({"notes": [{"text": NOTE, "extra": MARK}]}, 422),
        ({"text": NOTE, "preset": "max-recall"}, 422),  # rules-en has no presets
        ({"text": [NOTE]}, 422),
    ]
    for body, code in cases:
        status, answer, _ = server.call("POST", "/v1/deid", body)
        assert status == code and "error" in answer and "Quartermaine" not in str(answer), body
    status, answer, _ = server.call("POST", "/v1/deid", raw=b'{"text": "' + MARK.encode() + b'"')
    assert status == 422 and "Quartermaine" not in str(answer)
    assert server.call("GET", "/no/such/path")[:2] == (404, {"error": "Not Found"})


def test_body_cap_413_by_length_and_while_streaming(server):
    # by the declared length: answered before any of the body is sent
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.putrequest("POST", "/v1/deid")
    conn.putheader("authorization", f"Bearer {TOKEN}")
    conn.putheader("content-length", "1000001")
    conn.endheaders()
    resp = conn.getresponse()
    assert resp.status == 413 and resp.read() == b'{"error":"request body larger than 1000000 bytes"}'
    conn.close()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    chunks = (b'{"text": "' if i == 0 else b"y" * 100_000 for i in range(12))
    conn.request("POST", "/v1/deid", body=chunks, encode_chunked=True,
                 headers={"authorization": f"Bearer {TOKEN}", "content-type": "application/json"})
    resp = conn.getresponse()
    assert resp.status == 413 and b"larger than" in resp.read()
    conn.close()
    assert server.call("POST", "/v1/deid", {"notes": [{"text": "a"}] * 51})[0] == 413


def test_presidio_analyze_shapes_from_presidio_docs(server):
    status, body, _ = server.call("POST", "/analyze", {"text": "John Smith drivers license is AC432223",
                                                       "language": "en"})
    assert status == 200 and isinstance(body, list)
    assert all(set(r) == {"analysis_explanation", "end", "entity_type", "score", "start"} for r in body)
    assert {"entity_type": "PERSON", "start": 0, "end": 10} in [
        {k: r[k] for k in ("entity_type", "start", "end")} for r in body]
    batch = server.call("POST", "/analyze", {"text": ["My phone number is 212-555-5555", "Nothing."],
                                             "language": "en", "entities": ["PHONE_NUMBER"],
                                             "return_decision_process": True})[1]
    assert [[(r["entity_type"], r["start"], r["end"]) for r in rs] for rs in batch] == [[("PHONE_NUMBER", 19, 31)], []]
    assert batch[0][0]["analysis_explanation"]["recognizer"] == "NotescrubRecognizer"
    high = server.call("POST", "/analyze", {"text": NOTE, "language": "en", "score_threshold": 1.01})[1]
    assert high == []
    assert server.call("POST", "/analyze", {"text": NOTE, "language": "es"})[0] == 400
    status, ents, _ = server.call("GET", "/supportedentities?language=en")
    assert status == 200 and {"PERSON", "DATE_TIME", "LOCATION", "PHONE_NUMBER", "US_SSN"} <= set(ents)


DOCS_ANONYMIZE = {
    "text": "hello world, my name is Jane Doe. My number is: 034453334",
    "anonymizers": {
        "DEFAULT": {"type": "replace", "new_value": "ANONYMIZED"},
        "PHONE_NUMBER": {"type": "mask", "masking_char": "*", "chars_to_mask": 4, "from_end": True},
    },
    "analyzer_results": [
        {"start": 24, "end": 32, "score": 0.8, "entity_type": "NAME"},
        {"start": 24, "end": 28, "score": 0.8, "entity_type": "FIRST_NAME"},
        {"start": 29, "end": 32, "score": 0.6, "entity_type": "LAST_NAME"},
        {"start": 48, "end": 57, "score": 0.95, "entity_type": "PHONE_NUMBER"},
    ],
}


def test_presidio_anonymize_gives_presidios_documented_answer(server):
    status, body, _ = server.call("POST", "/anonymize", DOCS_ANONYMIZE)
    assert status == 200
    assert body == {"text": "hello world, my name is ANONYMIZED. My number is: 03445****",
                    "items": [{"start": 50, "end": 59, "entity_type": "PHONE_NUMBER", "text": "03445****",
                               "operator": "mask"},
                              {"start": 24, "end": 34, "entity_type": "NAME", "text": "ANONYMIZED",
                               "operator": "replace"}]}
    # analyzer output feeds the anonymizer unchanged, as with Presidio's two services
    found = server.call("POST", "/analyze", {"text": NOTE, "language": "en"})[1]
    out = server.call("POST", "/anonymize", {"text": NOTE, "analyzer_results": found})[1]
    assert out["text"] == "Seen by Dr. <PERSON> on <DATE_TIME>. Call <PHONE_NUMBER>."
    bad = {**DOCS_ANONYMIZE, "anonymizers": {"DEFAULT": {"type": "no-such-operator"}}}
    status, body, _ = server.call("POST", "/anonymize", bad)
    assert status == 422 and "error" in body
    assert server.call("POST", "/anonymize", raw=b"not json")[0] == 400


def _fire(server, n, body):
    barrier, out = threading.Barrier(n), []

    def one():
        barrier.wait()
        t0 = time.monotonic()
        status = server.call("POST", "/v1/annotate", body)[0]
        out.append((status, time.monotonic() - t0))

    threads = [threading.Thread(target=one) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def test_overload_answers_503_at_once_and_accounts_for_every_request(server):
    server.wait_idle()
    before = server.call("GET", "/v1/stats")[1]
    results = _fire(server, 16, {"notes": [{"text": SAMPLE}] * 8})
    server.wait_idle()
    after = server.call("GET", "/v1/stats")[1]
    statuses = [s for s, _ in results]
    assert set(statuses) <= {200, 503, 504} and statuses.count(503) >= 10  # capacity is 1 worker + 2 waiting
    assert max(t for s, t in results if s == 503) < 1.0
    diff = {k: after[k] - before[k] for k in ("admitted", "completed", "rejected", "timed_out")}
    assert diff["rejected"] == statuses.count(503)
    assert diff["admitted"] == statuses.count(200) + statuses.count(504) == diff["completed"] + diff["timed_out"]
    assert server.call("POST", "/v1/deid", {"text": NOTE})[0] == 200  # and it still serves


def test_time_limit_504(server):
    server.wait_idle()
    status, body, _ = server.call("POST", "/v1/annotate", {"notes": [{"text": SAMPLE * 4}] * 50})
    assert status == 504 and body == {"error": "request exceeded the time limit of 1 s"}
    server.wait_idle()
    assert server.call("POST", "/v1/annotate", {"text": NOTE})[0] == 200
