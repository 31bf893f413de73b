"""The phone page in WebKit, the engine of every browser on an iPhone: one seat played in WebKitGTK (Debian's
webkit2gtk-driver: WebKitWebDriver driving its MiniBrowser, through Selenium) on a virtual X display (Xvfb, started
here), beside three seats in Chromium (Playwright), through a whole game: the Chief's election and its reveal, the
dice he alone may hold to see, the destinations' reveal with the cup's fairness checked by the WebKit page itself,
the box restarted in the middle (the page reconnects by itself and carries on), a tied vote and its re-vote, and
the end with its winner. Every answer the WebKit seat gives is acknowledged on its page and stored by the table.

Skipped, saying why, where WebKitWebDriver, its MiniBrowser, Xvfb, Selenium or Chromium is missing (`sh
scripts/setup test` installs them all).
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
from test_phone_browser import (
    CHROMIUM,
    FOUR,
    ZOMBIE_DICE,
    LiveTable,
    Phone,
    answer_selector,
    browser,  # noqa: F401 - the Chromium fixture, shared
    place,
    say,
    shows,
)

from companion.box import Box, BoxOptions
from companion.cup import DiceCup

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (scripts/setup test)")
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.webkitgtk.options import Options  # noqa: E402
from selenium.webdriver.webkitgtk.service import Service  # noqa: E402

MINIBROWSER = sorted(glob.glob("/usr/lib/*/webkit2gtk-4.*/MiniBrowser"))
# Round 3 at the Chief's election, five characters left: Red's Pin-up and Blue's Gunman in Security HQ vote; the
# dice 1 4 5 5 bring the Restroom 2 zombies (a die and the Pin-up attraction) against Red's and Yellow's Pin-ups
# there: a tie, a re-vote of all four, Red's Pin-up eaten, four characters left: the rescue, and the game's end.
LAST_ROUND = {
    "round": 3, "phase": "chief", "chief": "green",
    "characters": {"red": {"pinup": 5, "gunman": 6}, "blue": {"gunman": 5}, "yellow": {"pinup": 3},
                   "green": {"gunman": 6}},
    "zombies": {"3": 1, "5": 1}, "hands": dict.fromkeys(FOUR, 0), "deck": 12,
}


def _free_display() -> int:
    return next(n for n in range(90, 400) if not Path(f"/tmp/.X11-unix/X{n}").exists()
                and not Path(f"/tmp/.X{n}-lock").exists())


@pytest.fixture(scope="module")
def webkit():
    missing = [name for name, found in (("WebKitWebDriver", shutil.which("WebKitWebDriver")),
                                        ("WebKitGTK's MiniBrowser", MINIBROWSER), ("Xvfb", shutil.which("Xvfb")),
                                        ("chromium", Path(CHROMIUM).exists())) if not found]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (sh scripts/setup test installs webkit2gtk-driver, xvfb)")
    display = _free_display()
    xvfb = subprocess.Popen(["Xvfb", f":{display}", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    driver = None
    try:
        deadline = time.monotonic() + 20
        while not Path(f"/tmp/.X11-unix/X{display}").exists():
            assert xvfb.poll() is None and time.monotonic() < deadline, "Xvfb did not start"
            time.sleep(0.05)
        options = Options()
        options.binary_location = MINIBROWSER[-1]
        options.add_argument("--automation")  # MiniBrowser takes orders from WebKitWebDriver only with it
        service = Service(executable_path=shutil.which("WebKitWebDriver"), env={**os.environ, "DISPLAY": f":{display}"})
        driver = webdriver.WebKitGTK(options=options, service=service)
        driver.set_window_size(430, 932)  # an iPhone's size
        yield driver
    finally:
        if driver is not None:
            driver.quit()
        xvfb.terminate()
        xvfb.wait(10)


class WebKitSeat:
    """One seat's phone in WebKitGTK: what its page shows, read by its own JavaScript, and taps through WebDriver."""

    def __init__(self, driver, url: str):
        self.driver = driver
        driver.get(url)
        self.js("window.__errors = []; addEventListener('error', (e) => window.__errors.push(String(e.message)));"
                "addEventListener('unhandledrejection', (e) => window.__errors.push(String(e.reason)));")
        self.connected()

    def js(self, code: str, *args):
        return self.driver.execute_script(code, *args)

    def text(self, selector: str) -> str | None:
        found = self.js("const e = document.querySelector(arguments[0]); return e ? e.textContent : null", selector)
        return None if found is None else re.sub(r"\s+", " ", found).strip()

    def texts(self, selector: str) -> list[str]:
        return [re.sub(r"\s+", " ", t).strip() for t in
                self.js("return [...document.querySelectorAll(arguments[0])].map((e) => e.textContent)", selector)]

    def count(self, selector: str) -> int:
        return self.js("return document.querySelectorAll(arguments[0]).length", selector)

    def wait(self, condition, what: str, timeout: float = 15):
        deadline = time.monotonic() + timeout
        while True:
            try:
                found = condition()
            except (StaleElementReferenceException, WebDriverException):
                found = None  # the page drew itself anew meanwhile
            if found:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"WebKit: gave up waiting for {what}")
            time.sleep(0.05)

    def says(self, selector: str, expected: str | re.Pattern, what: str = "") -> None:
        def matches() -> bool:
            seen = self.text(selector)
            return seen is not None and (expected.search(seen) if isinstance(expected, re.Pattern)
                                         else seen == expected)
        try:
            self.wait(matches, what or selector)
        except AssertionError:
            raise AssertionError(f"WebKit: {selector} says {self.text(selector)!r}, not {expected!r}") from None

    def connected(self) -> None:
        self.wait(lambda: self.js("return document.querySelector('#status').classList.contains('connected')"),
                  "the page to connect")

    def tap(self, action: dict) -> None:
        """Tap the answer (and again where the page asks "sure?")."""
        selector = "#question " + answer_selector(action)

        def tapped() -> bool:
            self.driver.find_element(By.CSS_SELECTOR, selector).click()
            return True
        self.wait(tapped, f"the answer {action}")
        if self.count(selector + "[data-armed=true]"):
            self.wait(tapped, f"the second tap on {action}")

    def hold(self, selector: str) -> None:
        ActionChains(self.driver).move_to_element(self.driver.find_element(By.CSS_SELECTOR, selector)) \
            .click_and_hold().pause(0.4).perform()  # a hold, not a tap (a tap opens the secret for a while)

    def let_go(self) -> None:
        ActionChains(self.driver).release().perform()


class RestartingTable(LiveTable):
    """A LiveTable on a fixed port, so that the box can be closed and opened again as a restart does."""

    def __init__(self, db: Path, **kwargs):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.db = db
        super().__init__(db, **kwargs)

    async def _start(self, db, players, position, scripted, wifi, game, name, options) -> None:
        await self._open(scripted)
        self.table.new_game(name, list(players), options, position=position)

    async def _open(self, scripted) -> None:
        self.box = Box(BoxOptions(db=str(self.db), host="127.0.0.1", port=self.port, address="127.0.0.1"))
        await self.box.open()  # without players: the unfinished game resumes
        self.store, self.table, self.server = self.box.store, self.box.table, self.box.server
        self.table.cup = DiceCup(scripted=scripted)

    def restart(self) -> None:
        self.run(self.box.close())
        self.run(self._open(()))

    def stored(self, seat: str) -> list[dict]:
        return self.call(lambda: [e["answer"] for e in self.table.events if e.get("answer", {}).get("seat") == seat])


def test_a_whole_game_with_one_seat_in_webkit_beside_chromium_seats(tmp_path, browser, webkit):  # noqa: F811
    table = RestartingTable(tmp_path / "table.sqlite3", position=LAST_ROUND, scripted=[ZOMBIE_DICE])
    chromium: list[Phone] = []
    try:
        red, yellow, green = (Phone(browser, table.seat_url(seat)) for seat in ("red", "yellow", "green"))
        chromium = [red, yellow, green]
        blue = WebKitSeat(webkit, table.seat_url("blue"))
        blue.says("#who", re.compile(r"You are\s*■\s*Blue"))

        # The Chief's election: a secret ballot, acknowledged on the page, stored, then revealed on every phone.
        blue.says("#question .secret-hint", say("page.secret_answer"))
        blue.tap({"seat": "blue", "vote": "blue"})
        blue.says("#question .received", say("page.vote_received"), "the vote's receipt")
        assert table.stored("blue") == [{"seat": "blue", "vote": "blue"}]
        red.answer({"seat": "red", "vote": "red"})  # the last ballot: revealed at once
        blue.says("#revealed .leaders", re.compile(r"Chosen:\s*■\s*Blue"), "the reveal")
        blue.says("#revealed .ballot-row[data-voter=red]", shows(f"● Red {say('page.votes', count=1)} → ● Red"))

        # The zombie dice: the elected Chief sees them only while he holds the button down.
        blue.says("#secrets .peek-button", say("page.peek_what", what=say("mall.board.secret_dice")))
        assert blue.count(".peek-secret") == 0 and blue.count(".die") == 0
        blue.hold("#secrets .peek-button")
        blue.wait(lambda: blue.count(".peek-secret .die") == 4, "the dice while held")
        assert blue.texts(".peek-secret .die") == [str(die) for die in ZOMBIE_DICE]
        blue.let_go()
        blue.wait(lambda: blue.count(".peek-secret") == 0, "the dice hidden again")

        # Destinations: the Chief's in public from WebKit, then the others' in secret.
        blue.wait(lambda: blue.count("#question " + answer_selector({"seat": "blue", "go": 6})), "his question")
        blue.tap({"seat": "blue", "go": 6})
        blue.says("#board .part-line.act", say("mall.board.chief_goes", location=6))
        assert table.stored("blue")[-1] == {"seat": "blue", "go": 6}
        red.choose({"seat": "red", "go": 1})
        yellow.choose({"seat": "yellow", "go": 1})
        green.answer({"seat": "green", "go": 3})
        # The reveal, and the cup's commitment checked by WebKit's own page.
        blue.wait(lambda: blue.texts("#board .part-line.act .die") == [str(die) for die in ZOMBIE_DICE],
                  "the dice shown")
        blue.says("#board", re.compile(re.escape("Yellow → " + place(1))))
        blue.says("#fairness .roll[data-roll='1'] .verify", say("page.verified"), "the fairness check")

        # The box restarts: every page reconnects by itself and is asked the same question again.
        table.restart()
        blue.wait(lambda: table.call(lambda: len(table.server.connections)) == 4, "all four phones back")
        blue.connected()
        for phone in chromium:
            phone.wait_until(lambda phone=phone: "connected" in (phone.status.get_attribute("class") or ""),
                             "the reconnection")
        red.wait_until(lambda: (red.asked() or {}).get("step") == "move", "Red's move after the restart")
        red.answer({"seat": "red", "move": "pinup"})  # (Yellow's only character goes by itself)

        # A tie in the Restroom, then the re-vote, in which Blue (in WebKit) votes too.
        red.vote("yellow")
        yellow.answer({"seat": "yellow", "vote": "red"})  # the last ballot of the first vote
        blue.wait(lambda: blue.count("#question " + answer_selector({"seat": "blue", "vote": "red"})), "the re-vote")
        blue.says("#revealed .leaders", re.compile(r"Tie:\s*▲\s*Yellow\s*●\s*Red"))
        blue.tap({"seat": "blue", "vote": "red"})
        blue.says("#question .received", say("page.vote_received"), "the re-vote's receipt")
        assert table.stored("blue")[-1] == {"seat": "blue", "vote": "red"}
        red.vote("yellow")
        yellow.vote("red")
        green.answer({"seat": "green", "vote": "red"})

        # Red's Pin-up is eaten, four characters are left: the rescue comes, the game is over.
        blue.says("#revealed .tally", re.compile(r"Tally:\s*▲\s*Yellow\s*1\s*●\s*Red\s*3"))
        blue.says("#over h2", say("mall.board.over"), "the end")
        blue.says("#over tr.winner", re.compile(r"▲\s*Yellow.*" + re.escape(say("page.winner"))))
        assert blue.count("#over tbody tr") == 4
        assert table.call(lambda: table.table.state.over)
        assert blue.js("return window.__errors || []") == []
        webkit.save_screenshot(str(tmp_path / "webkit-end.png"))
        assert (tmp_path / "webkit-end.png").stat().st_size > 10_000
        for phone in chromium:
            phone.check_no_errors()
    finally:
        for phone in chromium:
            phone.close()
        table.close()
