"""The real phone page in Debian's Chromium: one browser context per phone, a whole round played from phones.

The table and its phone server run in this process on their own asyncio loop (a background thread); each phone
is a separate browser context (its own storage and WebSocket), phone-sized, with touch. The tests read what a
player sees and what his phone received, never the table's insides.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import threading
import time
from pathlib import Path

import pytest

from companion.box import Box, BoxOptions
from companion.cup import DiceCup, commit
from companion.web.server import STATIC

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--no-first-run", "--disable-sync"]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 1}
FOUR = ["red", "blue", "yellow", "green"]
NO_CARDS = {"red": 0, "blue": 0, "yellow": 0, "green": 0}

# Round 3 starts at the Chief election. In Security HQ: Red's Pin-up (1 vote) and Blue's Gunman (2 votes).
# Blue is elected and alone sees the dice 1 4 5 5; Blue goes to the Supermarket (his Gunman moves there),
# Red and Yellow each bring a Pin-up into the Restroom, Green his Gunman to Megatoys. The Restroom then has
# 2 zombies (a die and the Pin-up attraction) against a defence of 2: a victim vote Red 1 : Yellow 1 ties,
# and the re-vote adds Blue and Green, who have nobody there.
ROUND = {
    "round": 3, "phase": "chief", "chief": "green",
    "characters": {"red": {"pinup": 5, "gunman": 6}, "blue": {"gunman": 5, "pinup": 6},
                   "yellow": {"pinup": 3, "tough": 6}, "green": {"pinup": 3, "gunman": 6}},
    "zombies": {"3": 1, "5": 1}, "hands": NO_CARDS, "deck": 12,
}
ZOMBIE_DICE = (1, 4, 5, 5)
NEXT_DICE = (2, 2, 6, 6)
# An attack: the Restroom is breached, Red's and Blue's Pin-ups are there (1 vote each).
ATTACK = {
    "round": 2, "phase": "attack", "chief": "red",
    "characters": {"red": {"pinup": 1, "tough": 3, "gunman": 5}, "blue": {"pinup": 1, "tough": 6, "gunman": 6},
                   "yellow": {"pinup": 6, "tough": 3}, "green": {"pinup": 3}},
    "zombies": {"1": 4}, "hands": NO_CARDS, "deck": 17,
    "destinations": {"red": 1, "blue": 1, "yellow": 6, "green": 3},
}
# The move phase: Red (Chief) moves first, any of his three characters to the Supermarket.
MOVE = {
    "round": 2, "phase": "move", "chief": "red",
    "characters": {"red": {"pinup": 1, "tough": 3, "gunman": 5}, "blue": {"pinup": 3, "tough": 6, "gunman": 6},
                   "yellow": {"pinup": 6, "tough": 1}, "green": {"pinup": 4}},
    "hands": NO_CARDS, "deck": 10,
    "destinations": {"red": 6, "blue": 1, "yellow": 3, "green": 3}, "cup": [2, 2, 2, 2],
}
SIX = ["red", "yellow", "blue", "green", "purple", "black"]
SYMBOLS = {"red": "●", "yellow": "▲", "blue": "■", "green": "◆", "purple": "★", "black": "✚"}
# Six players, one Pin-up each in the Supermarket with 4 zombies: a victim vote among all six colours.
SIX_VOTE = {
    "round": 2, "phase": "attack", "chief": "red",
    "characters": {c: {"pinup": 6, "tough": 1 if i < 3 else 3} for i, c in enumerate(SIX)},
    "zombies": {"6": 4}, "hands": dict.fromkeys(SIX, 0), "deck": 15,
    "destinations": dict.fromkeys(SIX, 6),
}

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not os.environ.get("CI"),  # in CI a missing browser is a failure
    reason="Debian's Chromium is not installed (sh scripts/setup test installs it)")


# -- the table, on its own loop -------------------------------------------------------------------------------


class LiveTable:
    """A Table and its PhoneServer on an asyncio loop in a background thread, as `companion serve` runs them."""

    def __init__(self, db: Path, players=FOUR, position=None, scripted=(), wifi=None, game=True):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.run(self._start(db, players, position, scripted, wifi, game))

    async def _start(self, db, players, position, scripted, wifi, game) -> None:
        wifi_ssid, wifi_password = wifi if wifi else (None, None)
        self.box = Box(BoxOptions(db=str(db), host="127.0.0.1", port=0, address="127.0.0.1", wifi_ssid=wifi_ssid,
                                  wifi_password=wifi_password))
        await self.box.open()
        self.store, self.table, self.server = self.box.store, self.box.table, self.box.server
        self.table.cup = DiceCup(scripted=scripted)
        if game:
            self.table.new_game("mall-of-horror", list(players), position=position)

    def run(self, coroutine, timeout: float = 15):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def call(self, function, *args):
        async def on_loop():
            return function(*args)
        return self.run(on_loop())

    def seat_url(self, seat: str) -> str:
        return self.call(lambda: self.server.seat_urls()[seat])

    @property
    def host_url(self) -> str:
        return self.server.host_url

    @property
    def spectator_url(self) -> str:
        return self.server.spectator_url

    def drop_connections(self) -> None:
        """The Wi-Fi hiccups: every WebSocket is closed by the server (not a takeover, not a new game)."""
        async def drop():
            for connection in list(self.server.connections):
                await connection.ws.close(code=1001, message=b"going away")
        self.run(drop())

    def close(self) -> None:
        self.run(self.box.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture
def live(tmp_path):
    tables: list[LiveTable] = []

    def start(**kwargs) -> LiveTable:
        table = LiveTable(tmp_path / f"table{len(tables)}.sqlite3", **kwargs)
        tables.append(table)
        return table

    yield start
    for table in tables:
        table.close()


# -- phones ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()


class Phone:
    """One phone: its own browser context, the page, and every WebSocket frame the page received."""

    def __init__(self, browser, url: str | None = None, locale: str = "en-GB", viewport=None, init_script=None):
        options = dict(PHONE, locale=locale)
        if viewport:
            options.update(viewport=viewport, is_mobile=False, has_touch=False)
        self.context = browser.new_context(**options)
        if init_script:
            self.context.add_init_script(init_script)
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.sockets = 0
        self.errors: list[str] = []
        self.page.on("websocket", self._socket)
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        self.page.on("console", lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None)
        self.response = None
        if url:
            self.open(url)

    def _socket(self, ws) -> None:
        self.sockets += 1
        ws.on("framereceived", lambda payload: self.frames.append(payload))

    def open(self, url: str) -> None:
        self.response = self.page.goto(url)
        expect(self.status).to_have_class(re.compile(r"\bconnected\b"))

    @property
    def status(self):
        return self.page.locator("#status")

    @property
    def question(self):
        return self.page.locator("#question")

    def option(self, label: str):
        return self.page.locator("#question button.option", has_text=label)

    def tap(self, label: str) -> None:
        self.option(label).tap()

    def answer(self, label: str) -> None:
        """Tap an option and wait until the table has stored it and sent the new board."""
        acks, states = self.count("ack"), self.count("state")
        self.tap(label)
        self.wait_until(lambda: self.count("ack") > acks and self.count("state") > states, f"the answer {label!r}")

    def vote(self, colour_name: str) -> None:
        self.answer(colour_name)
        expect(self.question.locator(".received")).to_have_text("Vote received ✓")

    def choose(self, label: str) -> None:
        self.answer(label)
        expect(self.question.locator(".received")).to_have_text("Answer received ✓")

    def peek(self) -> str:
        """Hold the peek button down, read what shows, let go; checks it is gone again."""
        button = self.page.locator(".peek-button").first
        secret = self.page.locator(".peek-secret")
        expect(secret).to_have_count(0)
        button.hover()
        self.page.mouse.down()
        expect(secret).to_have_count(1)
        text = secret.inner_text()
        self.page.mouse.up()
        expect(secret).to_have_count(0)
        return re.sub(r"\s+", " ", text).strip()

    def peek_shows(self, expected: str) -> None:
        """Peek until the secret shown is `expected` (the page may still be drawing the last answer)."""
        seen: list[str] = []
        self.wait_until(lambda: seen.append(self.peek()) or seen[-1] == expected, f"the peek to show {expected!r}")

    def wait_until(self, condition, what: str, timeout: float = 10) -> None:
        """Let the page run (and its events arrive) until `condition()` holds."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"gave up waiting for {what}")
            self.page.wait_for_timeout(20)

    def count(self, kind: str) -> int:
        return sum(1 for frame in self.frames if json.loads(frame).get("type") == kind)

    def states(self) -> list[dict]:
        return [m for m in map(json.loads, self.frames) if m.get("type") == "state"]

    def check_no_errors(self) -> None:
        assert self.errors == []

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def phones(browser):
    opened: list[Phone] = []

    def open_phone(url: str | None = None, **kwargs) -> Phone:
        phone = Phone(browser, url, **kwargs)
        opened.append(phone)
        return phone

    yield open_phone
    try:
        for phone in opened:
            phone.check_no_errors()
    finally:
        for phone in opened:
            phone.close()


def shows(text: str) -> re.Pattern:
    """The text as the page shows it: words (and a colour's symbol and name) with any spacing between them."""
    return re.compile(r"\s*".join(map(re.escape, text.split())))


def leaks_secret_dice(frame: str) -> bool:
    """A frame before the reveal holds the secret dice if it has cup_seen, the cup, or a roll's dice/nonce."""
    message = json.loads(frame)
    view = message.get("view") or {}
    if "cup_seen" in frame or "cup" in view:
        return True
    return any("dice" in roll or "nonce" in roll for roll in view.get("cup_rolls", []))


# -- a whole round from phones --------------------------------------------------------------------------------


def test_a_whole_round_is_played_from_four_phones(live, phones, tmp_path):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE, NEXT_DICE])
    red, blue, yellow, green = (phones(table.seat_url(seat)) for seat in ("red", "blue", "yellow", "green"))
    spectator = phones(table.spectator_url)
    everyone = [red, blue, yellow, green]

    # b) Chief election: only the players in Security HQ vote; the others see who is awaited.
    for voter in (red, blue):
        expect(voter.question.locator(".question-title")).to_have_text("Vote: Chief election")
        expect(voter.option("Red")).to_be_visible()
        expect(voter.option("Blue")).to_be_visible()
    expect(blue.question).to_contain_text("Your votes: 2")
    for idle in (yellow, green):
        expect(idle.question).to_have_text("Nothing to do right now.")
        expect(idle.page.locator("#waiting")).to_have_text(re.compile(r"Waiting on:\s*●\s*Red\s*■\s*Blue"))
    red.vote("Red")
    expect(green.page.locator("#waiting")).to_have_text(re.compile(r"Waiting on:\s*■\s*Blue$"))
    blue.answer("Blue")  # the last ballot: revealed at once
    for phone in everyone + [spectator]:
        revealed = phone.page.locator("#revealed")
        expect(revealed.locator("h2")).to_have_text("Ballots revealed — Chief election")
        expect(revealed.locator(".ballot-row[data-voter=blue]")).to_have_text(shows("■ Blue 2 votes → ■ Blue"))
        expect(revealed.locator(".leaders")).to_have_text(re.compile(r"Chosen:\s*■\s*Blue"))
        expect(phone.page.locator("#board .chief")).to_have_text(re.compile(r"Blue\s*✓ elected this round"))

    # c) The zombies arrive: the elected Chief alone may look, and only while he holds the button.
    expect(blue.page.locator("#secrets .peek-button")).to_have_text("Hold to peek at the dice")
    assert blue.page.locator(".die").count() == 0
    assert blue.peek() == "Zombie dice: " + " ".join(map(str, ZOMBIE_DICE))
    peek = blue.page.locator("#secrets .peek-button")
    peek.dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True})
    expect(blue.page.locator(".peek-secret .die")).to_have_count(4)
    blue.page.screenshot(path=tmp_path / "chief-peeking.png", full_page=True)
    peek.dispatch_event("pointercancel", {"pointerType": "touch"})  # a scroll, a call: hidden at once
    expect(blue.page.locator(".peek-secret")).to_have_count(0)
    peek.dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True})
    expect(blue.page.locator(".peek-secret")).to_have_count(1)
    peek.dispatch_event("pointerleave", {"pointerType": "touch"})  # the finger slides off
    expect(blue.page.locator(".peek-secret")).to_have_count(0)
    for other in (red, yellow, green, spectator):
        expect(other.page.locator("#secrets")).to_be_hidden()
        assert other.page.locator(".peek-button, .die").count() == 0
        expect(other.page.locator("#fairness .roll")).to_contain_text("sealed until the reveal")

    # d) Destinations: the elected Chief first and in public, then the others in secret.
    expect(blue.question.locator(".question-title")).to_have_text(
        "You are the elected Chief: choose your destination first. Everyone will see it.")
    expect(red.question).to_have_text("Nothing to do right now.")
    blue.answer("6 Supermarket")
    for phone in everyone:
        expect(phone.page.locator("#board .chief-destination")).to_have_text("The Chief goes to 6 Supermarket")
    for phone in (red, yellow, green):
        expect(phone.question.locator(".question-title")).to_have_text("Choose your destination in secret")
    expect(red.option("2 Cachou")).to_have_count(0)  # closed at 4 players
    red.choose("1 Restroom")
    red.peek_shows("Your destination: 1 Restroom")
    red.choose("3 Megatoys")  # changed his mind: allowed until everyone has chosen
    red.peek_shows("Your destination: 3 Megatoys")
    red.choose("1 Restroom")
    yellow.choose("1 Restroom")
    expect(green.page.locator("#board .chosen")).to_have_text(shows("Have chosen: ● Red ■ Blue ▲ Yellow"))
    assert "Restroom" not in green.page.locator("#board .chosen").inner_text()

    # Until the reveal, nothing any other page received holds the dice.
    for phone in (red, yellow, green, spectator):
        assert phone.frames and not any(leaks_secret_dice(frame) for frame in phone.frames)
    assert any("cup_seen" in frame for frame in blue.frames)  # the check above would see them

    green.answer("3 Megatoys")

    # e) The reveal: destinations, then the dice, with the commitment checked on every phone.
    for phone in everyone + [spectator]:
        board = phone.page.locator("#board")
        expect(board.locator(".cup .die")).to_have_text([str(d) for d in ZOMBIE_DICE])
        expect(board.locator(".destinations")).to_contain_text(re.compile(r"▲\s*Yellow → 1 Restroom"))
        expect(phone.page.locator("#fairness .roll[data-roll='1'] .verify")).to_have_text("✓ verified")
    expect(yellow.question.locator(".question-title")).to_have_text(
        "Move one character to your destination, 1 Restroom")
    yellow.answer("Pin-up: 3 Megatoys → 1 Restroom")
    expect(red.question.locator(".question-title")).to_have_text("Move one character to your destination, 1 Restroom")
    red.answer("Pin-up: 5 Security HQ → 1 Restroom")

    # f) The attack: Red's and Yellow's Pin-ups in the Restroom, 1 vote each. A tie.
    for voter in (red, yellow):
        expect(voter.question.locator(".question-title")).to_have_text("Vote: the victim at 1 Restroom")
    expect(blue.question).to_have_text("Nothing to do right now.")
    red.vote("Yellow")
    yellow.answer("Red")
    for phone in everyone:
        expect(phone.page.locator("#revealed .leaders")).to_have_text(re.compile(r"Tie:\s*▲\s*Yellow\s*●\s*Red"))
    # The re-vote: the same voters, and Blue and Green, who have nobody in the Restroom, with 1 vote each.
    for phone in everyone:
        expect(phone.question.locator(".revote")).to_have_text(
            re.compile(r"Re-vote after a tie, only for:\s*▲\s*Yellow\s*●\s*Red"))
        expect(phone.question.locator("button.option")).to_have_count(2)
    expect(green.question).to_contain_text("Your votes: 1")
    blue.vote("Red")

    # Blue's phone reloads mid-ballot: same seat, his ballot kept and still secret.
    blue.page.reload()
    expect(blue.status).to_have_class(re.compile(r"\bconnected\b"))
    expect(blue.page.locator("#who")).to_have_text(re.compile(r"You are\s*■\s*Blue"))
    expect(blue.question.locator(".received")).to_have_text("Vote received ✓")
    blue.peek_shows("Your vote: ● Red")
    expect(blue.question.locator("button.option")).to_have_count(2)  # he may still change it
    for phone in (red, yellow, green):
        expect(phone.page.locator("#waiting")).not_to_contain_text("Blue")
        for state in phone.states():  # the re-vote's ballots are nobody else's business until the reveal
            view = state["view"]
            if view.get("vote", {}).get("stage") == 2:
                assert view["revealed"]["stage"] == 1 and "blue" not in view["revealed"]["ballots"]
    blue.page.screenshot(path=tmp_path / "blue-after-reload.png", full_page=True)

    red.vote("Yellow")
    yellow.vote("Red")
    green.answer("Red")
    for phone in everyone:
        revealed = phone.page.locator("#revealed")
        expect(revealed.locator("h2")).to_have_text("Ballots revealed — victim at 1 Restroom (re-vote)")
        expect(revealed.locator(".ballot-row[data-voter=blue]")).to_have_text(re.compile(r"Blue\s*1 vote → ●\s*Red"))
        expect(revealed.locator(".tally")).to_have_text(re.compile(r"Tally:\s*▲\s*Yellow\s*1\s*●\s*Red\s*3"))
        # Red's only character there, his Pin-up, is eaten; the zombies leave; round 4 begins.
        restroom = phone.page.locator("#board .location[data-location='1']")
        expect(restroom.locator(".people li")).to_have_text([re.compile(r"▲\s*Yellow\s*Pin-up")])
        expect(restroom.locator(".zombies")).to_have_text("0 zombies")
        expect(phone.page.locator("#board .phase")).to_have_text("Round 4 · choose destination")
        expect(phone.page.locator("#fairness .roll[data-roll='2']")).to_contain_text("sealed until the reveal")
    for phone in (red, yellow, green, spectator):  # not before the reveal, and not after it either
        assert not any("cup_seen" in frame for frame in phone.frames)
    red.page.screenshot(path=tmp_path / "red-round-4.png", full_page=True)
    spectator.page.screenshot(path=tmp_path / "spectator-round-4.png", full_page=True)
    for shot in tmp_path.glob("*.png"):
        assert shot.stat().st_size > 10_000


# -- the end of the game, and the screen kept on ------------------------------------------------------------

# Five characters live; Blue's Pin-up dies in the Restroom and four are left: rescue, at once.
LAST_ATTACK = {
    "round": 5, "phase": "attack", "chief": "red",
    "characters": {"red": {"pinup": 1}, "blue": {"pinup": 1}, "yellow": {"pinup": 6},
                   "green": {"pinup": 3, "tough": 3}},
    "zombies": {"1": 4}, "hands": {"red": 0, "blue": 0, "yellow": 2, "green": 0}, "deck": 5,
    "destinations": {"red": 1, "blue": 1, "yellow": 6, "green": 3},
}
FAKE_WAKE_LOCK = """
window.__wake = [];
Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {request(kind) {
  window.__wake.push(kind);
  return Promise.resolve({release() { window.__wake.push("release"); return Promise.resolve(); },
                          addEventListener() {}});
}}});
"""


def test_the_screen_stays_on_while_the_game_runs_and_the_end_shows_scores_and_winners(live, phones):
    table = live(position=LAST_ATTACK)
    red = phones(table.seat_url("red"), init_script=FAKE_WAKE_LOCK)
    no_wake_lock = "Object.defineProperty(navigator, 'wakeLock', {value: undefined})"
    blue = phones(table.seat_url("blue"), init_script=no_wake_lock)
    red.wait_until(lambda: red.page.evaluate("window.__wake") == ["screen"], "the wake lock")
    red.vote("Blue")
    blue.answer("Blue")
    for phone in (red, blue):
        over = phone.page.locator("#over")
        expect(over.locator("h2")).to_have_text("Rescue has come: the game is over.")
        expect(over.locator("tr.winner")).to_have_text(re.compile(r"◆\s*Green\s*12 points\s*Winner"))
        expect(over.locator("tbody tr")).to_have_count(4)
        expect(over.locator("tbody tr").last).to_have_text(re.compile(r"■\s*Blue\s*0 points"))
        expect(phone.question).to_be_hidden()
    red.wait_until(lambda: red.page.evaluate("window.__wake") == ["screen", "release"], "the wake lock's release")
    # Blue's browser has no Wake Lock: the page plays on without it (no error; checked by the fixture).


# -- languages ------------------------------------------------------------------------------------------------

LANGUAGE_WORDS = {
    # locale: (title, the Chief election question, words of the glossary on the board)
    "en-GB": ("Mall of Horror", "Vote: Chief election",
              ["1 Restroom", "5 Security HQ", "Chief of Security:", "Pin-up", "Gunman", "1 zombie", "Red"]),
    "zh-CN": ("丧尸商场", "投票：警卫员选举",
              ["1 洗手间", "5 保安监控室", "警卫员：", "美女", "枪手", "1 个丧尸", "红"]),
    "zh-TW": ("喪屍商場", "投票：警衛員選舉",
              ["1 洗手間", "5 保安監控室", "警衛員：", "美女", "槍手", "1 個殭屍", "紅"]),
    "vi-VN": ("Mall of Horror", "Bỏ phiếu: bầu Trưởng An ninh",
              ["1 Nhà vệ sinh", "5 Security HQ (trung tâm an ninh)", "Trưởng An ninh:", "Pin-up", "Gunman",
               "1 zombie", "Đỏ"]),
}


@pytest.mark.parametrize("locale", list(LANGUAGE_WORDS))
def test_the_page_speaks_the_phones_language_with_the_glossary_words(live, phones, locale):
    title, question, words = LANGUAGE_WORDS[locale]
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    red = phones(table.seat_url("red"), locale=locale)
    expect(red.page).to_have_title(title)
    expect(red.page.locator("#title")).to_have_text(title)
    expect(red.question.locator(".question-title")).to_have_text(question)
    board = red.page.locator("#board")
    for word in words:
        expect(board).to_contain_text(word)


def test_the_language_is_switched_with_a_visible_control_and_remembered(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    red = phones(table.seat_url("red"), locale="en-US")
    switch = red.page.locator("#lang")
    expect(switch).to_be_visible()
    expect(switch.locator("option")).to_have_text(["English", "简体中文", "繁體中文", "Tiếng Việt"])
    expect(red.page.locator("#lang-label")).to_have_text("Language")
    switch.select_option("zh-Hant")
    expect(red.question.locator(".question-title")).to_have_text("投票：警衛員選舉")
    expect(red.option("紅")).to_contain_text("●")
    expect(red.page.locator("#board")).to_contain_text("5 保安監控室")
    expect(red.page.locator("html")).to_have_attribute("lang", "zh-Hant")
    red.page.reload()
    expect(red.status).to_have_class(re.compile(r"\bconnected\b"))
    expect(red.question.locator(".question-title")).to_have_text("投票：警衛員選舉")  # remembered
    switch.select_option("vi")
    expect(red.page.locator("#lang-label")).to_have_text("Ngôn ngữ")
    expect(red.question.locator(".question-title")).to_have_text("Bỏ phiếu: bầu Trưởng An ninh")
    switch.select_option("zh-Hans")
    expect(red.page.locator("#status")).to_have_text("已连接")
    expect(red.page.locator("#board h2")).to_have_text("版图")
    # Another phone keeps its own language.
    blue = phones(table.seat_url("blue"), locale="en-US")
    expect(blue.question.locator(".question-title")).to_have_text("Vote: Chief election")


def test_every_language_has_every_word(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    red = phones(table.seat_url("red"))
    tables = red.page.evaluate("""() => {
        const keys = (o) => Object.keys(o).sort().join(",");
        const out = {strings: {}};
        for (const [lang, strings] of Object.entries(I18N.STRINGS)) out.strings[lang] = keys(strings);
        for (const [name, table] of Object.entries(I18N.tables)) {
            out[name] = Object.fromEntries(Object.entries(table).map(([lang, t]) => [lang, keys(t)]));
        }
        return out;
    }""")
    for name, by_language in tables.items():
        assert set(by_language) == {"en", "zh-Hans", "zh-Hant", "vi"}, name
        assert len(set(by_language.values())) == 1, f"{name}: a language lacks a word"
    # Every I18N.t key the page asks for exists (a missing key would show as itself).
    used = set(re.findall(r"\bt\(\s*\"(\w+)\"\s*[,)]", (STATIC / "app.js").read_text()))
    assert used <= set(tables["strings"]["en"].split(","))


# -- colour-blind players -----------------------------------------------------------------------------------


def test_every_colour_is_shown_with_its_name_and_its_symbol(live, phones, tmp_path):
    table = live(players=SIX, position=SIX_VOTE)
    purple = phones(table.seat_url("purple"))
    expect(purple.question.locator(".question-title")).to_have_text("Vote: the victim at 6 Supermarket")
    buttons = purple.question.locator("button.option")
    expect(buttons).to_have_count(6)
    names = {"red": "Red", "yellow": "Yellow", "blue": "Blue", "green": "Green", "purple": "Purple", "black": "Black"}
    for colour in SIX:
        button = purple.option(names[colour])
        expect(button.locator(f".chip.c-{colour} .sym")).to_have_text(SYMBOLS[colour])
        expect(button.locator(f".chip.c-{colour} .name")).to_have_text(names[colour])
    people = purple.page.locator("#board .location[data-location='6'] .people li")
    expect(people).to_have_text([re.compile(rf"{re.escape(SYMBOLS[c])}\s*{names[c]}\s*Pin-up") for c in SIX])
    # Every chip anywhere on the page has a symbol and a name, whatever its colour.
    for chip in purple.page.locator(".chip").all():
        assert chip.locator(".sym").inner_text() in SYMBOLS.values() and chip.locator(".name").inner_text()
    purple.page.screenshot(path=tmp_path / "six-colours.png")


# -- escaping and the Content-Security-Policy -----------------------------------------------------------------


def routed_phone(phones, url: str):
    """A phone whose WebSocket goes through the test, which can slip in messages of its own."""
    phone = phones()
    routes = []

    def route(ws) -> None:
        ws.connect_to_server()  # everything passes through both ways
        routes.append(ws)

    phone.page.route_web_socket(re.compile(r"/ws/"), route)
    phone.open(url)
    return phone, routes


def test_text_from_the_table_is_shown_as_text_never_as_html(live, phones):
    script = (STATIC / "app.js").read_text()
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
        assert sink not in script
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    red, routes = routed_phone(phones, table.seat_url("red"))
    expect(red.question.locator(".question-title")).to_have_text("Vote: Chief election")
    view = table.call(table.table.view, "red")
    attack = '<img src=/nothing id=injected onerror="window.pwned=1">'
    view["warnings"] = [attack]
    view["cup_rolls"] = [{"commitment": attack, "count": 4}]
    view["players"] = [*view["players"], attack]
    view["characters"][attack] = {"<b>pinup</b>": 1}
    routes[-1].send(json.dumps({"v": 1, "type": "state", "view": view, "connected": []}))
    routes[-1].send(json.dumps({"v": 1, "type": "error", "code": "refused", "message": attack}))
    expect(red.page.locator("#error .error-text")).to_have_text("Refused: " + attack)
    expect(red.page.locator("#board .warning")).to_have_text("Warning: " + attack)
    expect(red.page.locator("#fairness code")).to_have_text(attack)
    expect(red.page.locator("#board .location[data-location='1'] .people")).to_contain_text(
        re.compile(re.escape(attack) + r"\s*<b>pinup</b>"))
    assert red.page.locator("#injected, b").count() == 0
    assert red.page.evaluate("window.pwned") is None


def test_the_wifi_name_is_shown_as_text_on_the_host_page(live, phones):
    ssid = '<img src=/nothing id=injected onerror="window.pwned=1">'
    table = live(position=ROUND, scripted=[ZOMBIE_DICE], wifi=(ssid, "password"))
    host = phones(table.host_url)
    expect(host.page.locator(".qr-card.wifi figcaption")).to_have_text("First join the table's Wi-Fi: " + ssid)
    assert host.page.locator("#injected").count() == 0
    assert host.page.evaluate("window.pwned") is None


def test_the_page_is_served_with_a_strict_content_security_policy_and_no_inline_code(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    red = phones(table.seat_url("red"))
    policy = red.response.headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";") if d.strip())
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["connect-src"] == "'self'"
    assert "unsafe" not in policy
    html = (STATIC / "index.html").read_text()
    assert re.findall(r"<script\b[^>]*>", html) and all("src=" in tag for tag in re.findall(r"<script\b[^>]*>", html))
    assert "<style" not in html and not re.search(r"\sstyle=|\son\w+=", html)
    assert not re.search(r"https?://", html)  # nothing fetched from outside
    # The stylesheet and scripts run under that policy (a violation would be a console error: see the fixture).
    assert red.page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(22, 24, 29)"
    for static in ("app.js", "i18n.js", "sha256.js", "style.css", "manifest.json"):
        response = red.page.request.get(table.server.url(f"/static/{static}"))
        assert response.ok and "default-src 'none'" in response.headers["content-security-policy"]


# -- the fairness of the cup ----------------------------------------------------------------------------------


def test_the_pages_sha256_agrees_with_pythons_and_checks_the_cups_commitment(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    red = phones(table.seat_url("red"))
    for text in ["", "abc", "a" * 55, "a" * 56, "a" * 64, "a" * 1000, "丧尸 xác sống ✚"]:
        assert red.page.evaluate("(t) => SHA256.sha256(t)", text) == hashlib.sha256(text.encode()).hexdigest()
    nonce = "00ff" * 8
    in_page = red.page.evaluate("([d, n]) => SHA256.commitment(d, n)", [[3, 5, 1, 6], nonce])
    assert in_page == commit([3, 5, 1, 6], nonce)


def test_a_commitment_that_does_not_match_its_dice_is_flagged(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    red, routes = routed_phone(phones, table.seat_url("red"))
    view = table.call(table.table.view, "red")
    nonce = "ab" * 16
    view["cup_rolls"] = [
        {"commitment": commit([1, 2, 3, 4], nonce), "count": 4, "dice": [1, 2, 3, 4], "nonce": nonce},
        {"commitment": commit([1, 2, 3, 4], nonce), "count": 4, "dice": [6, 2, 3, 4], "nonce": nonce},
    ]
    routes[-1].send(json.dumps({"v": 1, "type": "state", "view": view, "connected": []}))
    expect(red.page.locator("#fairness .roll[data-roll='1'] .verify")).to_have_text("✓ verified")
    expect(red.page.locator("#fairness .roll[data-roll='2'] .verify")).to_have_text("✗ does not match")


# -- the host -------------------------------------------------------------------------------------------------

WIDE = {"width": 1280, "height": 900}


def test_the_host_shows_the_qr_codes_closes_a_ballot_and_answers_for_a_missing_phone(live, phones, tmp_path):
    table = live(position=ATTACK, wifi=("TableNet", "zombies!"))
    host = phones(table.host_url, viewport=WIDE)
    cards = host.page.locator("#join .qr-card")
    expect(cards).to_have_count(6)
    expect(cards.first).to_have_class(re.compile(r"\bwifi\b"))  # the Wi-Fi first: phones join the network
    expect(cards.first.locator("figcaption")).to_have_text("First join the table's Wi-Fi: TableNet")
    token = table.server.tokens.host
    sources = [img.get_attribute("src") for img in cards.locator("img").all()]
    assert sources == [f"/qr/{token}/{what}.svg" for what in ("wifi", "red", "blue", "yellow", "green", "watch")]
    host.wait_until(lambda: host.page.evaluate(
        "[...document.querySelectorAll('#join img')].every((i) => i.complete && i.naturalWidth > 0)"), "the QR codes")
    for seat, url in table.call(table.server.seat_urls).items():
        expect(host.page.locator(f".qr-card.seat[data-seat={seat}] .url")).to_have_text(url)
    expect(host.page.locator(".qr-card.spectator .url")).to_have_text(table.spectator_url)

    red = phones(table.seat_url("red"))
    expect(host.page.locator("#host .phone[data-seat=red]")).to_have_text(re.compile(r"Red\s*✓ connected"))
    expect(host.page.locator("#host .phone[data-seat=blue]")).to_have_text(re.compile(r"Blue\s*✗ not connected"))
    red.vote("Blue")
    # Blue's phone is missing: the host answers for Blue, from the table's screen.
    answer_for = host.page.locator("#host .answer-for")
    expect(answer_for.locator(".seat-pick")).to_have_text([re.compile(r"■\s*Blue")])
    expect(answer_for.locator(".question-title")).to_have_text("Vote: the victim at 1 Restroom")
    answer_for.locator("button.option", has_text="Red").click()
    expect(host.page.locator("#revealed .leaders")).to_have_text(re.compile(r"Tie:\s*●\s*Red\s*■\s*Blue"))
    # The re-vote: Red votes; the host closes the ballot, and the missing voters abstain.
    expect(red.question.locator(".revote")).to_be_visible()
    red.vote("Blue")
    close = host.page.locator("#close-ballot")
    expect(close).to_be_enabled()
    host.page.screenshot(path=tmp_path / "host.png", full_page=True)
    close.click()
    revealed = host.page.locator("#revealed")
    expect(revealed.locator("h2")).to_have_text("Ballots revealed — victim at 1 Restroom (re-vote)")
    expect(revealed.locator(".ballot-row[data-voter=yellow]")).to_have_text(shows("Yellow 1 vote → did not vote"))
    expect(revealed.locator(".leaders")).to_have_text(re.compile(r"Chosen:\s*■\s*Blue"))
    expect(host.page.locator("#host .received")).to_have_text("Done ✓")
    expect(close).to_be_disabled()
    expect(red.page.locator("#revealed .leaders")).to_have_text(re.compile(r"Chosen:\s*■\s*Blue"))
    # The options sent to the host for a missing seat are public: the host's frames hold no one's secrets.
    host_states = host.states()
    assert any(state["host"]["options"] for state in host_states)
    for state in host_states:
        assert not {"ballot", "destination", "cup_seen", "options"} & set(state["view"])


def test_the_host_can_take_back_an_answer_given_for_a_seat(live, phones):
    table = live(position=MOVE)
    host = phones(table.host_url, viewport=WIDE)
    undo = host.page.locator("#undo")
    expect(undo).to_be_disabled()
    answer_for = host.page.locator("#host .answer-for")
    expect(answer_for.locator(".question-title")).to_have_text("Move one character to your destination, 6 Supermarket")
    answer_for.locator("button.option", has_text="Tough Guy: 3 Megatoys → 6 Supermarket").click()
    expect(host.page.locator("#board .location[data-location='6']")).to_contain_text("Tough Guy")
    expect(undo).to_have_text("Undo the last answer (1 possible)")
    undo.click()
    expect(undo).to_be_disabled()
    megatoys = host.page.locator("#board .location[data-location='3'] .people")
    expect(megatoys).to_contain_text(shows("● Red Tough Guy"))
    expect(answer_for.locator(".seat-pick")).to_have_text([re.compile(r"●\s*Red")])


def test_the_host_sets_up_a_new_game_and_old_seats_are_sent_away(live, phones):
    table = live(game=False)
    host = phones(table.host_url, viewport=WIDE)
    form = host.page.locator("#newgame")
    expect(form.locator("h2")).to_have_text("New game")
    start = host.page.locator("#start-game")
    expect(start).to_be_disabled()
    for colour in ("red", "yellow", "blue"):
        form.locator(f".colour-pick[data-colour={colour}]").click()
    expect(form.locator(".seating li")).to_have_text([re.compile(r"●\s*Red"), re.compile(r"▲\s*Yellow"),
                                                      re.compile(r"■\s*Blue")])
    host.page.locator("#opt-end-timing").select_option("round_end")
    start.click()
    expect(host.page.locator("#join .qr-card.seat")).to_have_count(3)
    expect(host.page.locator("#board .phase")).to_have_text("Setup · placement of the characters")
    assert table.call(lambda: table.table.state.options.end_timing) == "round_end"

    red = phones(table.seat_url("red"))
    expect(red.question.locator(".question-title")).to_contain_text("Place a character (dice: ")
    expect(red.question.locator("button.option").first).to_have_text(
        re.compile(r"^(Pin-up|Tough Guy|Gunman|Little Girl) → \d (Restroom|Megatoys|Parking|Security HQ|Supermarket)$"))
    host.page.locator("#newgame summary").click()
    for colour in ("red", "yellow", "blue"):
        expect(form.locator(f".colour-pick[data-colour={colour}]")).to_have_attribute("aria-pressed", "true")
    start.click()
    expect(red.page.locator("#notice")).to_have_text("A new game has started: scan your new seat's QR code.")
    expect(red.status).to_have_text("Disconnected")
    expect(red.question).to_be_hidden()


# -- one seat, one phone; reconnecting ------------------------------------------------------------------------


def test_a_second_device_takes_the_seat_over_and_the_first_stays_away(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    first = phones(table.seat_url("red"))
    second = phones(table.seat_url("red"))
    expect(first.page.locator("#notice .notice-text")).to_have_text("This seat was opened on another device.")
    expect(first.status).to_have_text("Disconnected")
    expect(first.question).to_be_hidden()
    first.page.wait_for_timeout(1500)  # three reconnection delays: a wrong reconnect would take the seat back
    assert first.sockets == 1
    expect(second.page.locator("#notice")).to_be_hidden()
    second.vote("Blue")


def test_a_phone_reconnects_after_the_network_drops_and_keeps_its_ballot(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    red = phones(table.seat_url("red"))
    red.vote("Blue")
    table.drop_connections()
    red.wait_until(lambda: red.sockets == 2, "a new connection")
    expect(red.status).to_have_class(re.compile(r"\bconnected\b"))
    expect(red.question.locator(".received")).to_have_text("Vote received ✓")
    red.peek_shows("Your vote: ■ Blue")


def test_a_phone_that_comes_back_after_a_new_game_is_told_its_link_is_gone(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    red = phones(table.seat_url("red"))
    table.call(table.server.tokens.for_game, None, FOUR)  # new seat tokens while the phone slept
    table.drop_connections()
    expect(red.page.locator("#notice")).to_have_text(re.compile("This link is not \\(or no longer\\) a seat"))
    expect(red.status).to_have_text("Disconnected")
    red.page.wait_for_timeout(1000)
    assert red.sockets == 2


def test_the_phone_remembers_its_seat_link(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    url = table.seat_url("red")
    red = phones(url)
    red.page.goto(table.server.url("/static/index.html"))  # e.g. a home-screen shortcut without the token
    expect(red.page).to_have_url(url)
    expect(red.page.locator("#who")).to_have_text(shows("You are ● Red"))
    stranger = phones()
    stranger.page.goto(table.server.url("/static/index.html"))
    expect(stranger.page.locator("#notice")).to_have_text(
        "This page needs a seat's link. Scan the QR code on the table's screen.")


# -- cards ----------------------------------------------------------------------------------------------------


def test_a_security_camera_lets_its_player_peek_at_the_dice_too(live, phones):
    table = live(position={**ROUND, "hands": {**NO_CARDS, "yellow": 1}}, scripted=[ZOMBIE_DICE])
    red, blue, yellow = (phones(table.seat_url(seat)) for seat in ("red", "blue", "yellow"))
    red.vote("Red")
    blue.answer("Blue")
    expect(yellow.question.locator(".question-title")).to_have_text(
        "Zombie arrival: play Security Camera to look at the dice, or pass")
    expect(yellow.question.locator("button.option")).to_have_text(["Pass", "Security Camera"])
    assert yellow.page.locator(".peek-button").count() == 0
    yellow.answer("Security Camera")
    expect(yellow.page.locator("#secrets .peek-button")).to_be_visible()
    assert yellow.peek() == "Zombie dice: 1 4 5 5"
    assert blue.peek() == "Zombie dice: 1 4 5 5"
    assert red.page.locator("#secrets .peek-button, .die").count() == 0
    assert not any("cup_seen" in frame for frame in red.frames)


def test_card_windows_and_sprints_are_labelled_with_the_cards_names(live, phones):
    table = live(position={**ATTACK, "hands": {**NO_CARDS, "red": 1}})
    red = phones(table.seat_url("red"))
    expect(red.question.locator(".question-title")).to_have_text("Zombie attack at 1 Restroom: play cards or pass")
    expect(red.question.locator("button.option")).to_have_text([
        "Pass", "Threat", "Hardware", "Hidden: Pin-up", "Weapon: kill 2 (Shotgun, Chainsaw, Grenades)",
        "Weapon: kill 1 (Gun, Fire Axe, Baseball Bat)"])
    red.answer("Threat")
    expect(red.question.locator(".question-title")).to_have_text("Vote: the victim at 1 Restroom")
    expect(red.question).to_contain_text("Your votes: 2")  # 1 for his Pin-up, 1 for the Threat

    table = live(position={**MOVE, "hands": {**NO_CARDS, "red": 1}})
    red = phones(table.seat_url("red"))
    expect(red.option("Sprint → 4 Parking")).to_be_visible()
    expect(red.option("Sprint → 2 Cachou")).to_have_count(0)  # closed
    red.answer("Sprint → 4 Parking")
    expect(red.question.locator(".question-title")).to_have_text("Sprint: which character runs?")
    expect(red.question.locator("button.option")).to_have_text(
        ["Pin-up (1 Restroom)", "Tough Guy (3 Megatoys)", "Gunman (5 Security HQ)"])


def test_the_truck_searcher_gives_a_card_by_colour(live, phones):
    table = live(position={"round": 2, "phase": "truck", "chief": "red", "hands": NO_CARDS, "deck": 10,
                           "characters": {"red": {"pinup": 4}, "blue": {"pinup": 6, "tough": 6},
                                          "yellow": {"pinup": 3}, "green": {"pinup": 1}}})
    red = phones(table.seat_url("red"))
    expect(red.question.locator(".question-title")).to_have_text("Give one of the truck's cards to:")
    expect(red.question.locator("button.option")).to_have_text([shows("■ Blue"), shows("▲ Yellow"), shows("◆ Green")])
    red.answer("Green")
    expect(red.page.locator("#board .hands")).to_have_text(shows("Action cards in hand: ● Red 1 ■ Blue 0 ▲ Yellow 0 "
                                                                 "◆ Green 1 · Truck deck: 8"))


def test_the_host_gives_the_next_pad_pressed_to_a_seat_and_sees_the_hubs_news(live, phones):
    table = live(position=MOVE)
    given = []
    table.server.give_pad = lambda seat: (given.append(seat), table.server.notice(f"press a pad for {seat}"))
    host = phones(table.host_url, viewport=WIDE)
    table.call(table.server._changed)  # the host learns there is a pad hub
    give = host.page.locator("#host .give-pad")
    expect(give).to_contain_text("Give the next pad pressed on the hub to:")
    give.locator("button.seat-pick", has_text="Blue").click()
    expect(host.page.locator("#host .received")).to_have_text("press a pad for blue")
    assert given == ["blue"]


def test_without_a_pad_hub_the_host_page_offers_no_pads(live, phones):
    table = live(position=MOVE)
    host = phones(table.host_url, viewport=WIDE)
    expect(host.page.locator("#host .answer-for")).to_be_visible()
    assert host.page.locator("#host .give-pad").count() == 0
