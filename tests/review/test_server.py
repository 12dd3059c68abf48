"""The review server as a real process: routes, conflicts, guards, token, logs without text."""

from __future__ import annotations

import json
import urllib.request

import pytest

from notescrub.review.server import ReviewApp, ReviewConfig
from notescrub.review.store import ReviewStore

from .helpers import ReviewServer, write_corpus


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("review-server")
    srv = ReviewServer(write_corpus(root / "notes.jsonl"), root / "review.sqlite")
    yield srv
    srv.stop()


def test_page_and_static_files(server):
    with urllib.request.urlopen(server.base + "/") as res:
        html = res.read().decode()
        csp = res.headers["Content-Security-Policy"]
    assert '<script src="/static/app.js"' in html and "http" not in html.replace("http-equiv", "")  # no CDN
    assert "script-src 'self'" in csp
    for name in ("app.js", "app.css"):
        with urllib.request.urlopen(f"{server.base}/static/{name}") as res:
            assert res.status == 200 and res.read()
    assert server.call("GET", "/static/../store.py")[0] == 404


def test_queue_note_edit_and_conflict(server):
    status, queue = server.call("GET", "/api/queue")
    assert status == 200 and len(queue["notes"]) == 4
    assert [n["priority"] for n in queue["notes"]] == sorted((n["priority"] for n in queue["notes"]), reverse=True)
    nid = next(n["nid"] for n in queue["notes"] if n["id"] == "short-1")
    status, note = server.call("GET", f"/api/notes/{nid}")
    assert status == 200 and note["text"].startswith("Seen by") and note["preview"]["text"] != note["text"]
    sid = note["spans"][0]["sid"]
    status, after = server.call("POST", f"/api/notes/{nid}/edit",
                                {"version": note["version"], "reviewer": "alice", "action": "reject", "args": {"sid": sid}})
    assert status == 200 and after["version"] == note["version"] + 1
    status, err = server.call("POST", f"/api/notes/{nid}/edit",
                              {"version": note["version"], "reviewer": "bob", "action": "accept", "args": {"sid": sid}})
    assert status == 409 and err["by"] == "alice" and "changed by alice" in err["error"]
    status, err = server.call("POST", f"/api/notes/{nid}/edit",
                              {"version": after["version"], "reviewer": "bob", "action": "add",
                               "args": {"start": 0, "end": 9999, "type": "DATE"}})
    assert status == 400 and "outside the note" in err["error"]


def test_guards(server):
    assert server.call("GET", "/api/queue", headers={"Host": "attacker.example"})[0] == 403
    req = urllib.request.Request(server.base + "/api/notes/1/edit", data=b"version=0", method="POST",
                                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    try:
        urllib.request.urlopen(req)
        raise AssertionError("a form post was accepted")
    except urllib.error.HTTPError as exc:
        assert exc.code == 415
    status, _ = server.call("POST", "/api/notes/1/edit", {"version": 0}, headers={"Origin": "http://evil.example"})
    assert status == 403


def test_logs_hold_no_note_text(server):
    server.call("GET", "/api/notes/1")
    log = server.log(expect="GET /api/notes/1 200")
    assert "GET /api/notes/1 200" in log and "POST /api/notes/" in log
    for secret in ("Okonkwo", "Ruiz", "555-123-4567", "Seen by"):
        assert secret not in log


def test_token_mode(tmp_path):
    token = "t" * 24
    (tmp_path / "token").write_text(token)
    (tmp_path / "token").chmod(0o600)
    srv = ReviewServer(write_corpus(tmp_path / "notes.jsonl", with_sample=False), tmp_path / "r.sqlite",
                       "--token-file", str(tmp_path / "token"))
    try:
        assert srv.call("GET", "/api/queue")[0] == 401
        assert srv.call("GET", "/health")[0] == 200
        assert srv.call("GET", "/api/queue", headers={"Authorization": f"Bearer {token}"})[0] == 200
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        with opener.open(f"{srv.base}/?token={token}") as res:  # sets the cookie and redirects to /
            assert res.status == 200 and res.url == srv.base + "/"
        with opener.open(srv.base + "/api/queue") as res:
            assert len(json.loads(res.read())["notes"]) == 3
        assert srv.call("GET", "/?token=wrong-token-wrong-token")[0] == 401
        assert token not in srv.log()
    finally:
        srv.stop()


def test_off_loopback_needs_a_token(tmp_path):
    from notescrub.errors import ConfigError

    with pytest.raises(ConfigError, match="requires a bearer token"):
        ReviewConfig(host="0.0.0.0").check()
    ReviewConfig(host="0.0.0.0", token="x" * 20).check()
    app = ReviewApp(ReviewStore(tmp_path / "r.sqlite"), None, ReviewConfig(token="x" * 20))  # type: ignore[arg-type]
    status, _, _ = app.handle("GET", "/api/queue", {"host": "127.0.0.1"}, b"")
    assert status == 401
