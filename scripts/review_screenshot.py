"""Take docs/review-screenshot.png: the review page on the bundled fictional sample note.

Starts the review server in this process (a temporary database, model en-default unless
--model), makes a few reviewer edits so every span state shows (accepted, rejected,
retyped, added), opens the note in Debian's headless Chromium through Selenium (the
``dev`` extra; ``sh scripts/install_test_browser.sh``) and saves the screenshot.

Usage::

    python scripts/review_screenshot.py [-o docs/review-screenshot.png] [--model en-default]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
from pathlib import Path

from notescrub.assemble import build
from notescrub.review.importer import prepare_review, preview_key
from notescrub.review.server import ReviewApp, ReviewConfig, make_server
from notescrub.review.store import ReviewStore

ROOT = Path(__file__).resolve().parents[1]
OTHERS = [
    "Seen by Dr. Ruiz on 3/18/2024 at Mercy Hospital. Call 555-123-4567.",
    "Mrs. Alvarez, 54, from Tucson was seen today by Dr. Kim.",
    "Follow up with Dr. Osei on 04/02/2024. Email osei@example.org.",
]


def _edits(store: ReviewStore, nid: int) -> None:
    note = store.note(nid)
    text, spans, v = note["text"], note["spans"], note["version"]

    def sid_of(value: str) -> int | None:
        return next((s["sid"] for s in spans if text[s["start"]:s["end"]] == value), None)

    for action, value, args in (("accept", "Henrik Lindqvist", {}), ("reject", "Monday", {}),
                                ("retype", "Maple Ridge Rehab", {"type": "ORGANIZATION"})):
        sid = sid_of(value)
        if sid is not None:
            v = store.edit(nid, v, "alice", action, {"sid": sid, **args})["version"]
    start = text.find("14:22")  # the time of the signature: part of the DATE in the i2b2-2014 guidelines
    if start >= 0 and not any(s["start"] < start + 5 and start < s["end"] and s["state"] != "rejected"
                              for s in store.note(nid)["spans"]):
        store.edit(nid, v, "alice", "add", {"start": start, "end": start + 5, "type": "DATE"})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--out", type=Path, default=ROOT / "docs" / "review-screenshot.png")
    ap.add_argument("--model", default="en-default")
    args = ap.parse_args()
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    from review.test_browser import make_driver  # the browser tests' driver: system chromium, no download

    tmp = Path(tempfile.mkdtemp())
    corpus = tmp / "notes.jsonl"
    notes = [{"id": "sample_note", "patient": "P1", "text": (ROOT / "examples" / "sample_note.txt").read_text()}]
    notes += [{"id": f"note-{i}", "patient": f"P{i + 2}", "text": t} for i, t in enumerate(OTHERS)]
    corpus.write_text("".join(json.dumps(n) + "\n" for n in notes))
    store = ReviewStore(tmp / "review.sqlite")
    prepare_review(store, corpus, None, lambda: build(args.model, None), args.model)
    _edits(store, 1)
    app = ReviewApp(store, preview_key(store), ReviewConfig(port=0, reviewer="alice"))
    server = make_server(app)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    driver = make_driver(1500, 1100)
    try:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        driver.get(f"http://127.0.0.1:{port}/#note-1")
        WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#note-text mark.phi"))
        WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#preview mark"))
        args.out.write_bytes(driver.get_screenshot_as_png())
    finally:
        driver.quit()
        server.shutdown()
    print(args.out)


if __name__ == "__main__":
    main()
