"""The seat page in WebKit (WebKitGTK through WebKitWebDriver: the engine of every iPhone browser, where VoiceOver is
the likeliest screen reader at a table), played as a blind or switch-access player does: axe-core finds no serious
or critical node; a plain activation (a click alone, as VoiceOver's double-tap or a switch sends it) opens his secret
and says it in the page's own voice, a second one takes it out of the page; the answer pressed keeps the focus
through "Sure? Tap again". (Reflow is measured in Chromium: MiniBrowser's window is never narrower than 447 px.)

Skipped, saying why, where WebKitWebDriver, its MiniBrowser or Xvfb is missing (`sh scripts/setup test`)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from test_accessibility import AXE, AXE_OPTIONS, SERIOUS
from test_phone_browser import LiveTable, answer_selector
from test_phone_webkit import WebKitSeat, webkit  # noqa: F401 - the WebKit fixture (Xvfb, WebKitWebDriver)

from companion.catalogue import catalogue
from companion.contract import Message

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (scripts/setup test)")
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

SCRIPT = Path(__file__).resolve().parent / "scripts" / "zombiegeddon.json"


def axe_in(seat: WebKitSeat) -> list:
    """axe-core run by WebKit itself: the serious and critical violations, with their nodes."""
    if not seat.js("return typeof window.axe === 'object'"):
        seat.js(AXE)
    results = seat.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, arguments[0]).then((r) => done(r.violations), (e) => done([{id: String(e)}]));",
        AXE_OPTIONS)
    return [(v["id"], v.get("impact"), [n["target"] for n in v.get("nodes", [])][:3]) for v in results
            if v.get("impact") in SERIOUS or "impact" not in v]


def focused(seat: WebKitSeat) -> dict:
    return seat.js("const n = document.activeElement; return {answer: n.dataset.answer || null, "
                   "armed: n.dataset.armed || null, inQuestion: !!n.closest('#question')};")


def enter(seat: WebKitSeat, selector: str, took) -> None:
    """Enter on `selector`, until `took()` says the press took effect. A press is sent again only when it did
    not: a node the page drew anew mid-press raises after its key went in (a second Enter would be a second press)."""
    def pressed() -> bool:
        if took():
            return True
        try:
            seat.driver.find_element(By.CSS_SELECTOR, selector).send_keys(Keys.ENTER)
        except (StaleElementReferenceException, NoSuchElementException):
            pass
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            if took():
                return True
            time.sleep(0.05)
        return False
    seat.wait(pressed, f"Enter on {selector}", 30)


def test_a_blind_players_seat_in_webkit(tmp_path, webkit):  # noqa: F811
    script = json.loads(SCRIPT.read_text(encoding="utf-8"))
    table = LiveTable(tmp_path / "table.sqlite3", name="zombiegeddon", players=script["players"],
                      options=script["options"])
    try:
        red = WebKitSeat(webkit, table.seat_url("red"))
        red.wait(lambda: red.count("#question .option"), "the first question")
        assert axe_in(red) == []
        stored = lambda: table.call(lambda: [e["answer"] for e in table.table.events  # noqa: E731
                                             if e.get("answer", {}).get("seat") == "red"])

        # An answer pressed by keyboard (a switch's "select"): stored, said, and the focus still on it.
        act = {"seat": "red", "act": "action"}
        red.js("document.querySelector(arguments[0]).focus()", "#question " + answer_selector(act))
        enter(red, "#question " + answer_selector(act), lambda: len(stored()) == 1)
        red.wait(lambda: focused(red)["answer"] == json.dumps(act, separators=(",", ":")), "the focus kept")
        for action in script["actions"][1:11]:
            table.answer(action)

        # "Sure? Tap again": the first press arms it, the focus stays, the second press sends it.
        ending = {"seat": "red", "act": "phase_end"}
        selector = "#question " + answer_selector(ending)
        now = table.call(lambda: table.table.question("red").id)  # the page has drawn the table's last state
        red.wait(lambda: red.js("return document.getElementById('question').dataset.question") == now,
                 "Red's turn again")
        red.js("document.querySelector(arguments[0]).focus()", selector)
        enter(red, selector, lambda: red.count(selector + "[data-armed=true]"))
        assert focused(red)["armed"] == "true"
        assert axe_in(red) == []
        enter(red, selector + "[data-armed=true]", lambda: stored()[-1] == ending)  # where the focus stayed

        # The largest disc, typed in secret; then his secret by a plain activation, and gone again.
        red.wait(lambda: red.count("#question input.number"), "the largest disc asked")
        field = webkit.find_element(By.CSS_SELECTOR, "#question input.number")
        field.clear()
        field.send_keys("4")
        webkit.find_element(By.CSS_SELECTOR, "#question button.send").click()
        red.wait(lambda: stored()[-1] == {"seat": "red", "largest": 4}, "the number stored")
        red.wait(lambda: red.count("#secrets .peek-button"), "the secret's button")
        red.js("document.querySelector('#secrets .peek-button').click()")  # a click alone: VoiceOver, a switch
        red.wait(lambda: red.count(".peek-secret") == 1, "the secret open")
        shown = red.text(".peek-secret")
        assert "4" in shown
        red.wait(lambda: "4" in (red.text("#say") or ""), "the secret said in the page's own voice")
        assert red.js("return document.querySelector('#secrets .peek-button').getAttribute('aria-expanded')") == "true"
        assert axe_in(red) == []
        red.js("document.querySelector('#secrets .peek-button').click()")
        red.wait(lambda: red.count(".peek-secret") == 0, "the secret closed")
        assert shown not in (red.text("body") or "")
        webkit.find_element(By.CSS_SELECTOR, "#secrets .peek-button").click()  # a tap (a pointer's short press)
        red.wait(lambda: red.count(".peek-secret") == 1, "the secret open by a tap")
        webkit.find_element(By.CSS_SELECTOR, "#secrets .peek-button").click()
        red.wait(lambda: red.count(".peek-secret") == 0, "the secret closed by a second tap")
        assert red.text("#question .received") == catalogue().text(Message("page.answer_received"), "en")

        assert red.js("return window.__errors || []") == []
    finally:
        table.close()
