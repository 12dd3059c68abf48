"""The review page in a real headless Chromium (Debian's chromium + chromium-driver, driven by Selenium).

Nothing is downloaded: Selenium is pointed at /usr/bin/chromium and /usr/bin/chromedriver
(or $NOTESCRUB_CHROMIUM / $NOTESCRUB_CHROMEDRIVER). Install them with
``sh scripts/install_test_browser.sh``; without them these tests fail and say so.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .helpers import ReviewServer, write_corpus

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("NOTESCRUB_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("NOTESCRUB_CHROMEDRIVER", "/usr/bin/chromedriver")
WAIT = 20


def _selenium() -> Any:
    try:
        from selenium import webdriver
    except ImportError:
        pytest.fail("the browser tests need selenium: pip install -e '.[dev]'")
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).is_file()]
    if missing:
        pytest.fail(f"the browser tests need Debian's chromium and chromium-driver ({', '.join(missing)} not found): "
                    "run 'sh scripts/install_test_browser.sh' (apt-get install chromium chromium-driver)")
    return webdriver


def make_driver(width: int = 1400, height: int = 1000) -> Any:
    """A headless Chromium driven through the system chromedriver (no download)."""
    webdriver = _selenium()
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must never fetch a browser or driver
    opts = Options()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={width},{height}", "--disable-extensions", "--no-first-run"):
        opts.add_argument(arg)
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[ReviewServer]:
    _selenium()
    root = tmp_path_factory.mktemp("review-browser")
    srv = ReviewServer(write_corpus(root / "notes.jsonl"), root / "review.sqlite")
    yield srv
    srv.stop()


@pytest.fixture()
def driver() -> Iterator[Any]:
    d = make_driver()
    yield d
    d.quit()


def _wait(driver: Any, condition: Any) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT).until(condition)


def _open(driver: Any, server: ReviewServer, note_id: str, reviewer: str) -> None:
    from selenium.webdriver.common.by import By

    driver.get(server.base + "/")
    _wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#queue tbody tr")) == 4)
    name = driver.find_element(By.ID, "reviewer")
    name.clear()
    name.send_keys(reviewer)
    driver.execute_script("document.getElementById('reviewer').dispatchEvent(new Event('change'))")
    row = next(r for r in driver.find_elements(By.CSS_SELECTOR, "#queue tbody tr")
               if r.find_elements(By.TAG_NAME, "td")[1].text == note_id)
    row.click()
    _wait(driver, lambda d: note_id in d.find_element(By.ID, "note-title").text)


def _marks(driver: Any) -> list[tuple[str, str]]:
    """(text of the span, its label) for every span shown in the note."""
    return [tuple(x) for x in driver.execute_script(
        "return [...document.querySelectorAll('#note-text mark.phi')].map(m => ["
        "[...m.querySelectorAll('.run')].map(r => r.textContent).join(''),"
        "(m.querySelector('.lbl') || {textContent: ''}).textContent])")]


def _press(driver: Any, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(key).perform()


def _click_mark(driver: Any, text: str) -> None:
    from selenium.webdriver.common.by import By

    for m in driver.find_elements(By.CSS_SELECTOR, "#note-text mark.phi"):
        if m.find_element(By.CLASS_NAME, "run").text == text:
            m.click()
            return
    raise AssertionError(f"no span {text!r} on the page")


def _select_text(driver: Any, word: str) -> None:
    """Select the first occurrence of ``word`` in the note as a user's drag would."""
    driver.execute_script("""
        const word = arguments[0];
        for (const run of document.querySelectorAll('#note-text .run')) {
          const i = run.textContent.indexOf(word);
          if (i >= 0) {
            window.getSelection().setBaseAndExtent(run.firstChild, i, run.firstChild, i + word.length);
            return;
          }
        }
        throw new Error('word not found');""", word)


def test_queue_is_ordered_by_risk_and_opens_a_note(driver, server):
    from selenium.webdriver.common.by import By

    _open(driver, server, "short-1", "alice")
    rows = driver.find_elements(By.CSS_SELECTOR, "#queue tbody tr")
    risks = [float(r.find_elements(By.TAG_NAME, "td")[2].text.rstrip("*")) for r in rows]
    assert risks == sorted(risks, reverse=True)
    assert ("Ruiz", "DOCTOR .95") in _marks(driver)
    preview = driver.find_element(By.ID, "preview").text
    assert preview and "Ruiz" not in preview and "555-123-4567" not in preview
    assert driver.find_elements(By.CSS_SELECTOR, "#preview mark")


def test_add_span_by_selection_persists_after_reload(driver, server):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    _open(driver, server, "short-2", "alice")
    Select(driver.find_element(By.ID, "add-type")).select_by_value("AGE")
    driver.find_element(By.ID, "note-text").click()
    _select_text(driver, "54")
    _press(driver, "n")
    _wait(driver, lambda d: ("54", "AGE +") in _marks(d))
    driver.refresh()
    _wait(driver, lambda d: ("54", "AGE +") in _marks(d))


def test_change_type_and_reject_persist_after_reload(driver, server):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    _open(driver, server, "short-1", "alice")
    _click_mark(driver, "Ruiz")
    Select(driver.find_element(By.ID, "type-select")).select_by_value("PATIENT")
    _wait(driver, lambda d: ("Ruiz", "DOCTOR\u2192PATIENT .95") in _marks(d))
    _click_mark(driver, "3/18/2024")
    _press(driver, "x")
    _wait(driver, lambda d: ("3/18/2024", "\u2715 DATE") in _marks(d))
    driver.refresh()
    _wait(driver, lambda d: "short-1" in d.find_element(By.ID, "note-title").text)
    marks = _marks(driver)
    assert ("Ruiz", "DOCTOR\u2192PATIENT .95") in marks and ("3/18/2024", "\u2715 DATE") in marks
    _, note = server.call("GET", "/api/notes/2")
    assert [(s["type"], s["state"]) for s in note["spans"][:2]] == [("PATIENT", "accepted"), ("DATE", "rejected")]


def test_two_sessions_on_one_note_get_a_conflict_message(server):
    from selenium.webdriver.common.by import By

    first, second = make_driver(), make_driver()
    try:
        _open(first, server, "short-3", "alice")
        _open(second, server, "short-3", "bob")
        _press(first, "x")  # alice rejects the first span
        _wait(first, lambda d: "\u2715 DOCTOR" in [label for _, label in _marks(d)])
        _press(second, "a")  # bob still sees the old version
        message = _wait(second, lambda d: d.find_element(By.ID, "message") if d.find_element(
            By.ID, "message").is_displayed() else False)
        assert "conflict" in message.get_attribute("class")
        assert message.text.startswith("Changed by alice at ") and "reload" in message.text
        second.find_element(By.ID, "btn-reload").click()
        _wait(second, lambda d: "\u2715 DOCTOR" in [label for _, label in _marks(d)])
        _press(second, "a")  # after reloading, bob's change goes through
        # the save is asynchronous: wait for the server to have it (a hidden message alone
        # can be seen before the request lands, on a loaded machine)
        _wait(second, lambda d: server.call("GET", "/api/notes/4")[1]["spans"][0]["state"] == "accepted")
        _wait(second, lambda d: not d.find_element(By.ID, "message").is_displayed())
        _, note = server.call("GET", "/api/notes/4")
        assert note["spans"][0]["state"] == "accepted" and note["updated_by"] == "bob"
    finally:
        first.quit()
        second.quit()


def test_two_sessions_on_different_notes_both_persist(server):
    from selenium.webdriver.common.by import By

    first, second = make_driver(), make_driver()
    try:
        _open(first, server, "sample", "carol")
        _open(second, server, "short-2", "dave")
        _press(first, "r")
        _press(second, "r")
        for d in (first, second):
            _wait(d, lambda d: d.find_element(By.ID, "note-status").text.startswith("reviewed"))
        assert not first.find_element(By.ID, "message").is_displayed()
        _wait(second, lambda d: not d.find_element(By.ID, "message").is_displayed())
        _, queue = server.call("GET", "/api/queue")
        by_id = {n["id"]: n for n in queue["notes"]}
        assert (by_id["sample"]["status"], by_id["sample"]["updated_by"]) == ("reviewed", "carol")
        assert (by_id["short-2"]["status"], by_id["short-2"]["updated_by"]) == ("reviewed", "dave")
    finally:
        first.quit()
        second.quit()


def test_undo_and_extent_keys(driver, server):
    _open(driver, server, "short-3", "erin")
    before = _marks(driver)
    assert before[0][0] == "Osei"
    _press(driver, "[")  # grow the first span's left edge by a word
    _wait(driver, lambda d: _marks(d)[0][0] == "Dr. Osei")
    _press(driver, "}")  # and its right edge: the next word, "on"
    _wait(driver, lambda d: _marks(d)[0][0] == "Dr. Osei on")
    _press(driver, "u")
    _wait(driver, lambda d: _marks(d)[0][0] == "Dr. Osei")
    _press(driver, "u")
    _wait(driver, lambda d: _marks(d) == before)


def test_screenshot_is_a_png(driver, server, tmp_path):
    _open(driver, server, "sample", "frank")
    png = driver.get_screenshot_as_png()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
