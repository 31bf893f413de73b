"""The real phone page in Debian's Chromium: one browser context per phone, a whole round played from phones.

The table and its phone server run in this process on their own asyncio loop (a background thread); each phone
is a separate browser context (its own storage and WebSocket), phone-sized, with touch. The tests read what a
player sees and what his phone received, never the table's insides. Answers are found by their `data-answer`
(the action they send); what the page says is checked against the catalogue's own rendering, in the phone's
language, so the page and Python speak the same sentences.
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
from types import SimpleNamespace
from urllib.parse import urlparse

import pytest

from companion.box import Box, BoxOptions
from companion.catalogue import LANGUAGES, catalogue
from companion.contract import Message
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
ROOT = Path(__file__).parents[1]
SCREENSHOTS = ROOT / "tests" / "screenshots"  # for a person to look at (ignored by git)

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
HOLD_MS = 350  # a press this long is a hold (the page's HOLD_MS is 300): its release hides the secret at once
# The browser's locale -> the page's language.
LOCALES = {"en-GB": "en", "en-US": "en", "zh-CN": "zh-Hans", "zh-TW": "zh-Hant", "vi-VN": "vi"}

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not os.environ.get("CI"),  # in CI a missing browser is a failure
    reason="Debian's Chromium is not installed (sh scripts/setup test installs it)")


# -- the catalogue's own words ----------------------------------------------------------------------------------


def say(key: str, lang: str = "en", **params) -> str:
    """The catalogue's sentence, as Python renders it."""
    return catalogue().text(Message(key, params), lang)


def said(message: dict, lang: str = "en") -> str:
    """A message as sent to the page ({"key", "params"}), rendered by Python."""
    return catalogue().text(Message(message["key"], message.get("params", {})), lang)


def bare(text: str | None) -> str | None:
    """What the page says without the colours' symbols (the catalogue names colours, the page adds symbols)."""
    return None if text is None else re.sub("[" + "".join(SYMBOLS.values()) + "○✦]", "", text)


def shows(text: str) -> re.Pattern:
    """The text as the page shows it: words (and a colour's symbol and name) with any spacing between them."""
    return re.compile(r"\s*".join(map(re.escape, text.split())))


def chip(colour: str, lang: str = "en") -> str:
    return SYMBOLS[colour] + " " + say(f"colour.{colour}", lang)


def PHASE(name: str) -> dict:  # noqa: N802 — the board names its phase by its own key, as a nested message
    return {"key": f"mall.phase.{name}", "params": {}}


def mentions(value, seat: str) -> bool:
    """A narration line is about a seat when one of its parameters names it, however deep."""
    if value == seat:
        return True
    if isinstance(value, list):
        return any(mentions(v, seat) for v in value)
    if isinstance(value, dict):
        return any(mentions(v, seat) for v in value.values())
    return False


def answer_selector(action: dict) -> str:
    """The CSS selector of the control that sends `action` (its data-answer is the action's JSON)."""
    return "[data-answer=" + json.dumps(json.dumps(action, ensure_ascii=False, separators=(",", ":"))) + "]"


# -- the table, on its own loop -------------------------------------------------------------------------------


class LiveTable:
    """A Table and its PhoneServer on an asyncio loop in a background thread, as `companion serve` runs them."""

    def __init__(self, db: Path, players=FOUR, position=None, scripted=(), wifi=None, game=True,
                 name="mall-of-horror", options=None):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.run(self._start(db, players, position, scripted, wifi, game, name, options))

    async def _start(self, db, players, position, scripted, wifi, game, name, options) -> None:
        wifi_ssid, wifi_password = wifi if wifi else (None, None)
        # A secret question reveals at its last answer, as these tests expect (the grace before it has tests of its
        # own: table.set_reveal_grace).
        self.box = Box(BoxOptions(db=str(db), host="127.0.0.1", port=0, address="127.0.0.1", wifi_ssid=wifi_ssid,
                                  wifi_password=wifi_password, reveal_grace=0))
        await self.box.open()
        self.store, self.table, self.server = self.box.store, self.box.table, self.box.server
        self.table.cup = DiceCup(scripted=scripted)
        if game:
            self.table.new_game(name, list(players), options, position=position)

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

    def answer(self, action: dict) -> None:
        """An answer given at the table itself (not from a phone under test)."""
        self.call(self.table.answer, action)

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

    def __init__(self, browser, url: str | None = None, locale: str = "en-GB", viewport=None, init_script=None,
                 touch: bool = False):
        options = dict(PHONE, locale=locale)
        if viewport:  # a screen of that size: a laptop or the table's screen, or a phone held sideways (touch)
            options.update(viewport=viewport, is_mobile=touch, has_touch=touch)
        self.lang = LOCALES.get(locale, "en")
        self.context = browser.new_context(**options)
        if init_script:
            self.context.add_init_script(init_script)
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.sent: list[str] = []
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
        ws.on("framesent", lambda payload: self.sent.append(payload))

    def open(self, url: str) -> None:
        self.response = self.page.goto(url)
        expect(self.status).to_have_class(re.compile(r"\bconnected\b"))

    # -- what the phone received

    def messages(self) -> list[dict]:
        """Every message received, each frame parsed once (a whole game's frames are many and large)."""
        parsed = self.__dict__.setdefault("_parsed", [])
        for frame in self.frames[len(parsed):]:
            parsed.append(json.loads(frame))
        return parsed

    def count(self, kind: str) -> int:
        return sum(1 for message in self.messages() if message.get("type") == kind)

    def states(self) -> list[dict]:
        return [m for m in self.messages() if m.get("type") == "state"]

    def view(self) -> dict:
        """The last view the phone received ({} before the first, or with no game)."""
        states = self.states()
        return (states[-1]["view"] if states else None) or {}

    @property
    def seat(self) -> str | None:
        return next((m.get("seat") for m in reversed(self.messages()) if m.get("type") == "welcome"), None)

    def asked(self) -> dict | None:
        """The question this phone's seat was last sent (None: nothing to do)."""
        return self.view().get("question")

    # -- what the page shows

    @property
    def status(self):
        return self.page.locator("#status")

    @property
    def question(self):
        return self.page.locator("#question")

    def say(self, key: str, **params) -> str:
        return say(key, self.lang, **params)

    def shows_said(self, locator, expected, what: str = "", timeout: float = 10) -> None:
        """Wait until `locator` says `expected` (a string, or a function giving it), symbols aside."""
        seen: list[str | None] = [None]
        wanted: list[str | None] = [None]

        def matches() -> bool:
            wanted[0] = expected() if callable(expected) else expected
            seen[0] = bare(locator.text_content()) if locator.count() else None
            return seen[0] == wanted[0]
        try:
            self.wait_until(matches, what or f"the text {wanted[0]!r}", timeout)
        except AssertionError:
            raise AssertionError(f"the page says {seen[0]!r}, not {wanted[0]!r} ({what})") from None

    def shows_question(self, step: str | None = None) -> dict:
        """The page's question is the one the table asked, in the phone's language; returns it."""
        if step is not None:
            self.wait_until(lambda: (self.asked() or {}).get("step") == step, f"the question at step {step}")
        self.shows_said(self.question.locator(".question-title"), lambda: said(self.asked()["title"], self.lang),
                        "the question's title")
        return self.asked()

    def choice(self, action: dict):
        return self.page.locator("#question " + answer_selector(action))

    def unfold_cards(self, scope: str = "#question") -> None:
        fold = self.page.locator(f"{scope} button.play-card")
        if fold.count() and fold.get_attribute("aria-expanded") != "true":
            fold.click()
        expect(fold).to_have_attribute("aria-expanded", "true")

    def pick_card(self, action: dict, scope: str = "#question", question: dict | None = None) -> None:
        """Unfold the cards, tap the card, then its option if it has several: "play it?" is asked."""
        question = question or self.asked() or {}
        card = next(c for c in question.get("choices", []) if c["action"] == action)
        option = self.page.locator(f"{scope} [data-choice=" + answer_selector(action)[len("[data-answer="):])
        if not option.count():  # not already at this card's options
            self.unfold_cards(scope)
            self.page.locator(f"{scope} [data-card='{card['label']['key']}']").tap()
        if option.count():
            option.tap()
        expect(self.page.locator(f"{scope} .card-confirm")).to_be_visible()

    def tap(self, action: dict) -> None:
        button = self.choice(action)
        if not button.count() and self.page.locator("#question button.play-card").count():
            self.pick_card(action)
        button.tap()
        if button.evaluate_all("els => els.some((e) => e.dataset.armed === 'true')"):  # "Sure? Tap again"
            button.first.tap()

    def answer(self, action: dict) -> None:
        """Tap the answer and wait until the table has stored it and sent the new board."""
        acks, states = self.count("ack"), self.count("state")
        self.tap(action)
        self.wait_until(lambda: self.count("ack") > acks and self.count("state") > states, f"the answer {action}")

    def vote(self, colour: str) -> None:
        self.answer({"seat": self.seat, "vote": colour})
        expect(self.question.locator(".received")).to_have_text(self.say("page.vote_received"))

    def choose(self, action: dict) -> None:
        self.answer(action)
        expect(self.question.locator(".received")).to_have_text(self.say("page.answer_received"))

    def peek(self) -> str:
        """Hold the peek button down, read what shows, let go; checks it is gone again."""
        button = self.page.locator(".peek-button").first
        secret = self.page.locator(".peek-secret")
        expect(secret).to_have_count(0)
        button.hover()
        self.page.mouse.down()
        expect(secret).to_have_count(1)
        text = secret.inner_text()
        self.page.wait_for_timeout(HOLD_MS)  # a hold, not a tap (a tap opens the secret for a while)
        self.page.mouse.up()
        expect(secret).to_have_count(0)
        return re.sub(r"\s+", " ", text).strip()

    def peek_shows(self, expected: str) -> None:
        """Peek until the secret shown is `expected` (the page may still be drawing the last answer)."""
        seen: list[str] = []
        self.wait_until(lambda: seen.append(self.peek()) or seen[-1] == expected, f"the peek to show {expected!r}")

    def private_lines(self) -> list[str]:
        """Hold the narration's peek and read this seat's own lines (they are in the page only while held)."""
        button = self.page.locator("#narration .peek-button")
        lines = self.page.locator("#narration .peek-secret .line-text")
        expect(lines).to_have_count(0)
        button.hover()
        self.page.mouse.down()
        expect(self.page.locator("#narration .peek-secret")).to_have_count(1)
        shown = [bare(t) for t in lines.all_text_contents()]
        self.page.wait_for_timeout(HOLD_MS)
        self.page.mouse.up()
        expect(lines).to_have_count(0)
        return shown

    def ordered_lines(self) -> list[dict]:
        """This round's lines as the page lists them: latest first; on a seat's phone, of the latest five the
        lines naming it first (an older line about it never pushes a newer one below the fold)."""
        lines = list(reversed(self.view().get("narration", [])))
        if self.seat is None:
            return lines
        latest = lines[:5]
        about = [entry for entry in latest if mentions(entry.get("params"), self.seat)]
        return about + [entry for entry in latest if entry not in about] + lines[5:]

    def narration_matches(self) -> None:
        """The narration on the page is this round's, latest first, each line as the catalogue says it."""
        def lines() -> tuple[list, list]:
            wanted = [said(entry, self.lang) for entry in self.ordered_lines()]
            shown = [bare(t) for t in self.page.locator("#narration .lines.public .line-text").all_text_contents()]
            return wanted, shown
        self.wait_until(lambda: lines()[0] == lines()[1], "the narration")
        acts = [bool(entry.get("act")) for entry in self.ordered_lines()]
        marked = [("act" in (c or "").split()) for c in
                  (line.get_attribute("class") for line in self.page.locator("#narration .lines.public .line").all())]
        assert marked == acts

    def wait_until(self, condition, what: str, timeout: float = 10) -> None:
        """Let the page run (and its events arrive) until `condition()` holds."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"gave up waiting for {what}")
            self.page.wait_for_timeout(20)

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


def leaks_secret_dice(frame: str) -> bool:
    """A frame before the reveal holds the secret dice if it has cup_seen, the cup, or a roll's dice/nonce."""
    message = json.loads(frame)
    view = message.get("view") or {}
    if "cup_seen" in frame or "cup" in view:
        return True
    return any("dice" in roll or "nonce" in roll for roll in view.get("cup_rolls", []))


def place(location: int, lang: str = "en") -> str:
    return say(f"mall.location.{location}", lang)


def character(kind: str, lang: str = "en") -> str:
    return say(f"mall.character.{kind}", lang)


def purpose(vote: dict) -> dict:
    """What a revealed vote was for, as its board says it: the round it was cast in, and what (a victim vote says
    where)."""
    if vote["purpose"] == "victim":
        what = {"key": "mall.board.vote_at", "params": {"purpose": "victim", "location": vote["location"]}}
    else:
        what = {"key": f"mall.purpose.{vote['purpose']}", "params": {}}
    return {"key": "mall.board.ballot_round", "params": {"round": vote.get("round", "?"), "what": what}}


# -- a whole round from phones --------------------------------------------------------------------------------


def test_a_whole_round_is_played_from_four_phones(live, phones, tmp_path):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE, NEXT_DICE])
    red, blue, yellow, green = (phones(table.seat_url(seat)) for seat in ("red", "blue", "yellow", "green"))
    spectator = phones(table.spectator_url)
    everyone = [red, blue, yellow, green]

    # b) Chief election: only the players in Security HQ vote; the others see who is awaited.
    for voter in (red, blue):
        asked = voter.shows_question("vote")
        assert asked["kind"] == "ballot" and asked["secret"]
        expect(voter.choice({"seat": voter.seat, "vote": "red"})).to_be_visible()
        expect(voter.choice({"seat": voter.seat, "vote": "blue"})).to_be_visible()
        expect(voter.question.locator(".secret-hint")).to_have_text(voter.say("page.secret_answer"))
    assert blue.asked()["title"]["params"]["count"] == 2  # his votes' weight, said in his question
    for idle in (yellow, green):
        expect(idle.question).to_have_text(idle.say("page.nothing_to_do"))
        expect(idle.page.locator("#waiting .waiting-seats")).to_have_text(
            re.compile(r"Waiting on:\s*●\s*Red\s*■\s*Blue"))
        idle.shows_said(idle.page.locator("#waiting .prompt-title"), said(idle.view()["prompt"]["title"]))
    red.vote("red")
    expect(green.page.locator("#waiting .waiting-seats")).to_have_text(re.compile(r"Waiting on:\s*■\s*Blue$"))
    blue.answer({"seat": "blue", "vote": "blue"})  # the last ballot: revealed at once
    for phone in everyone + [spectator]:
        revealed = phone.page.locator("#revealed")
        phone.shows_said(revealed.locator("h2"), lambda phone=phone: say(
            "page.revealed", purpose=purpose(phone.view().get("revealed") or {"purpose": "?"})))
        expect(revealed.locator(".ballot-row[data-voter=blue]")).to_have_text(
            shows(f"■ Blue {say('page.votes', count=2)} → ■ Blue"))
        expect(revealed.locator(".leaders")).to_have_text(re.compile(r"Chosen:\s*■\s*Blue"))
        expect(phone.page.locator("#board .heading-side")).to_have_text(
            re.compile(re.escape(say("mall.board.chief")) + r"\s*■\s*Blue\s*" + re.escape(say("mall.board.elected"))))
        phone.narration_matches()

    # c) The zombies arrive: the elected Chief alone may look, and only while he holds the button.
    blue.wait_until(lambda: blue.view().get("narration_mine"), "the Chief's own line")
    mine = blue.view()["narration_mine"]  # what the dice show, said to the Chief alone
    assert mine and all(not phone.view()["narration_mine"] for phone in (red, yellow, green))
    assert "narration_mine" not in spectator.view()
    assert blue.private_lines() == [said(entry) for entry in reversed(mine)]
    expect(blue.page.locator("#narration .peek-button")).to_have_text(say("page.peek_mine"))
    for other in (red, yellow, green, spectator):
        expect(other.page.locator("#narration .peek-button")).to_have_count(0)
    expect(blue.page.locator("#secrets .peek-button")).to_have_text(
        say("page.peek_what", what=say("mall.board.secret_dice")))
    assert blue.page.locator(".die").count() == 0
    peeked = blue.peek()
    assert peeked.startswith(say("mall.board.zombie_dice") + " " + " ".join(map(str, ZOMBIE_DICE)))
    for location, count in ((1, 1), (4, 1), (5, 2)):  # the dice as the locations they send zombies to
        assert say("mall.board.dice_to", count=count, location=location) in peeked
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
        expect(other.page.locator("#fairness .roll")).to_contain_text(say("page.sealed"))

    # d) Destinations: the elected Chief first and in public, then the others in secret.
    asked = blue.shows_question("chief")
    assert not asked["secret"]
    expect(red.question).to_have_text(say("page.nothing_to_do"))
    blue.answer({"seat": "blue", "go": 6})
    for phone in everyone:
        expect(phone.page.locator("#board .part-line.act").first).to_have_text(
            say("mall.board.chief_goes", location=6))
    for phone in (red, yellow, green):
        assert phone.shows_question("secret")["secret"]
    expect(red.choice({"seat": "red", "go": 2})).to_have_count(0)  # closed at 4 players
    red.choose({"seat": "red", "go": 1})
    red.peek_shows(say("mall.board.your_destination") + " " + place(1))
    red.choose({"seat": "red", "go": 3})  # changed his mind: allowed until everyone has chosen
    red.peek_shows(say("mall.board.your_destination") + " " + place(3))
    expect(red.question.locator(".receipt .hint")).to_have_text(say("page.change_answer"))
    red.choose({"seat": "red", "go": 1})
    yellow.choose({"seat": "yellow", "go": 1})
    chosen = green.page.locator("#board .part-line.act", has_text=say("mall.board.chosen"))
    expect(chosen).to_have_text(shows("Have chosen: ● Red ■ Blue ▲ Yellow"))
    assert place(1) not in chosen.inner_text()

    # Until the reveal, nothing any other page received holds the dice.
    for phone in (red, yellow, green, spectator):
        assert phone.frames and not any(leaks_secret_dice(frame) for frame in phone.frames)
    assert any("cup_seen" in frame for frame in blue.frames)  # the check above would see them

    green.answer({"seat": "green", "go": 3})

    # e) The reveal: destinations, then the dice, with the commitment checked on every phone.
    for phone in everyone + [spectator]:
        board = phone.page.locator("#board")
        cup = board.locator(".part-line.act", has_text=say("mall.board.zombie_dice"))
        expect(cup.locator(".die")).to_have_text([str(d) for d in ZOMBIE_DICE])
        destinations = board.locator(".part-line.act", has_text=say("mall.board.destinations"))
        expect(destinations).to_contain_text(shows("▲ Yellow → " + place(1)))
        expect(phone.page.locator("#fairness .roll[data-roll='1'] .verify")).to_have_text(say("page.verified"))
    yellow.shows_question("move")
    move = {"seat": "yellow", "move": "pinup"}
    label = next(c["label"] for c in yellow.asked()["choices"] if c["action"] == move)
    yellow.shows_said(yellow.choice(move).locator(".option-label"), said(label), "the move's label")
    yellow.answer(move)
    red.shows_question("move")
    red.answer({"seat": "red", "move": "pinup"})

    # f) The attack: Red's and Yellow's Pin-ups in the Restroom, 1 vote each. A tie.
    for voter in (red, yellow):
        voter.shows_question("vote")
    expect(blue.question).to_have_text(say("page.nothing_to_do"))
    red.vote("yellow")
    yellow.answer({"seat": "yellow", "vote": "red"})
    for phone in everyone:
        expect(phone.page.locator("#revealed .leaders")).to_have_text(re.compile(r"Tie:\s*▲\s*Yellow\s*●\s*Red"))
        phone.narration_matches()
    # The re-vote: the same voters, and Blue and Green, who have nobody in the Restroom, with 1 vote each.
    for phone in everyone:
        asked = phone.shows_question("vote")
        assert asked["title"]["params"]["colours"] == ["yellow", "red"]  # only the tied colours
        expect(phone.question.locator("button.option")).to_have_count(2)
        expect(phone.question.locator(".question-title .chip")).to_have_count(2)  # named with their symbols
    assert green.asked()["title"]["params"]["count"] == 1
    blue.vote("red")

    # Blue's phone reloads mid-ballot: same seat, his ballot kept and still secret.
    blue.page.reload()
    expect(blue.status).to_have_class(re.compile(r"\bconnected\b"))
    expect(blue.page.locator("#who")).to_have_text(re.compile(r"You are\s*■\s*Blue"))
    expect(blue.question.locator(".received")).to_have_text(say("page.vote_received"))
    blue.peek_shows(say("board.your_vote") + " ● Red")
    expect(blue.question.locator("button.option")).to_have_count(2)  # he may still change it
    for phone in (red, yellow, green):
        expect(phone.page.locator("#waiting")).not_to_contain_text("Blue")
        for state in phone.states():  # the re-vote's ballots are nobody else's business until the reveal
            view = state["view"]
            if view.get("vote", {}).get("stage") == 2:
                assert view["revealed"]["stage"] == 1 and "blue" not in view["revealed"]["ballots"]
    blue.page.screenshot(path=tmp_path / "blue-after-reload.png", full_page=True)

    red.vote("yellow")
    yellow.vote("red")
    green.answer({"seat": "green", "vote": "red"})
    for phone in everyone:
        revealed = phone.page.locator("#revealed")
        phone.shows_said(revealed.locator("h2"), lambda phone=phone: say(
            "page.revealed", purpose=purpose(phone.view().get("revealed") or {"purpose": "?"})) + " (" +
            say("page.revote") + ")")
        expect(revealed.locator(".ballot-row[data-voter=blue]")).to_have_text(
            re.compile(r"Blue\s*" + re.escape(say("page.votes", count=1)) + r" → ●\s*Red"))
        expect(revealed.locator(".tally")).to_have_text(re.compile(r"Tally:\s*▲\s*Yellow\s*1\s*●\s*Red\s*3"))
        # Red's only character there, his Pin-up, is eaten; the zombies leave; round 4 begins.
        restroom = phone.page.locator("#board .zone[data-zone='1']")
        expect(restroom.locator(".tokens li")).to_have_text([shows("▲ Yellow " + character("pinup"))])
        expect(restroom.locator(".zone-count")).to_have_text(say("mall.board.zombies", count=0))
        expect(phone.page.locator("#board .phase")).to_have_text(
            say("mall.board.round", round=4, phase=PHASE("destination")))
        expect(phone.page.locator("#fairness .roll[data-roll='2']")).to_contain_text(say("page.sealed"))
        phone.narration_matches()
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
    red.vote("blue")
    blue.answer({"seat": "blue", "vote": "blue"})
    for phone in (red, blue):
        over = phone.page.locator("#over")
        expect(over.locator("h2")).to_have_text(say("mall.board.over"))
        expect(over.locator("tr.winner")).to_have_text(
            re.compile(r"◆\s*Green.*" + re.escape(say("board.points", count=12)) + r"\s*" + say("page.winner")))
        expect(over.locator("tbody tr")).to_have_count(4)
        expect(over.locator("tbody tr").last).to_have_text(re.compile(r"■\s*Blue.*" + say("board.points", count=0)))
        expect(phone.question).to_be_hidden()
    red.wait_until(lambda: red.page.evaluate("window.__wake") == ["screen", "release"], "the wake lock's release")
    # Blue's browser has no Wake Lock: the page plays on without it (no error; checked by the fixture).


# -- languages ------------------------------------------------------------------------------------------------

# The glossary's words (../shared/rules/glossary.md) each language's board must use.
GLOSSARY = {
    "en-GB": ["Restroom", "Security HQ", "Chief of Security", "Pin-up", "Gunman", "zombie", "Red"],
    "zh-CN": ["洗手间", "保安监控室", "警卫员", "美女", "枪手", "丧尸", "红"],
    "zh-TW": ["洗手間", "保安監控室", "警衛員", "美女", "槍手", "殭屍", "紅"],
    "vi-VN": ["Nhà vệ sinh", "Security HQ", "Trưởng An ninh", "Pin-up", "Gunman", "zombie", "Đỏ"],
}


@pytest.mark.parametrize("locale", list(GLOSSARY))
def test_the_page_speaks_the_phones_language_with_the_glossary_words(live, phones, locale):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    red = phones(table.seat_url("red"), locale=locale)
    lang = red.lang
    expect(red.page).to_have_title(say("page.title", lang))
    expect(red.page.locator("#title")).to_have_text(say("page.title", lang))
    expect(red.page.locator("html")).to_have_attribute("lang", lang)
    red.shows_question("vote")
    red.shows_said(red.choice({"seat": "red", "vote": "blue"}).locator(".option-label"),
                   said(red.asked()["choices"][1]["label"], lang))
    board = red.page.locator("#board")
    for word in GLOSSARY[locale]:
        expect(board).to_contain_text(word)
    for location in (1, 5):
        expect(board.locator(f".zone[data-zone='{location}'] .zone-title")).to_have_text(
            shows(place(location, lang)))
    red.narration_matches()
    assert any(json.loads(frame) == {"v": 1, "type": "lang", "lang": lang} for frame in red.sent)


def test_the_language_is_switched_with_a_visible_control_and_remembered(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    red = phones(table.seat_url("red"), locale="en-US")
    switch = red.page.locator("#lang")
    expect(switch).to_be_visible()
    expect(switch.locator("option")).to_have_text(list(LANGUAGES.values()))
    expect(red.page.locator("#lang-label")).to_have_text("Language")
    switch.select_option("zh-Hant")
    red.lang = "zh-Hant"
    red.shows_question()
    expect(red.choice({"seat": "red", "vote": "red"})).to_contain_text("●")
    expect(red.choice({"seat": "red", "vote": "red"})).to_contain_text(say("colour.red", "zh-Hant"))
    expect(red.page.locator("#board")).to_contain_text(place(5, "zh-Hant"))
    expect(red.page.locator("html")).to_have_attribute("lang", "zh-Hant")
    red.wait_until(lambda: any(json.loads(f) == {"v": 1, "type": "lang", "lang": "zh-Hant"} for f in red.sent),
                   "the table to be told the language")
    red.page.reload()
    expect(red.status).to_have_class(re.compile(r"\bconnected\b"))
    red.shows_question()  # remembered
    expect(red.page.locator("html")).to_have_attribute("lang", "zh-Hant")
    switch.select_option("vi")
    red.lang = "vi"
    expect(red.page.locator("#lang-label")).to_have_text("Ngôn ngữ")
    red.shows_question()
    switch.select_option("zh-Hans")
    expect(red.page.locator("#status")).to_have_text("已连接")
    expect(red.page.locator("#board h2")).to_contain_text("版图")
    # Another phone keeps its own language.
    blue = phones(table.seat_url("blue"), locale="en-US")
    blue.shows_question("vote")
    expect(blue.page.locator("html")).to_have_attribute("lang", "en")


def _keys_in(path: Path, prefix: str) -> set[str]:
    return set(re.findall(r"[\"'`](" + re.escape(prefix) + r"[a-z0-9_.]*[a-z0-9_])[\"'`]", path.read_text()))


def test_every_word_the_page_uses_is_in_every_language_and_every_page_word_is_used():
    english = catalogue().messages["en"]
    used = _keys_in(STATIC / "app.js", "page.") | _keys_in(STATIC / "host.js", "page.")
    used |= {f"page.status.{s}" for s in ("connecting", "connected", "reconnecting", "stopped")}
    used |= _keys_in(STATIC / "parts.js", "page.")  # the board parts' renderers
    for rules in sorted((ROOT / "companion" / "games" / "mall_of_horror").glob("*.py")):  # its board's words
        used |= _keys_in(rules, "mall.board.")
    used |= {f"mall.board.location_name.{loc}" for loc in range(1, 7)}
    for lang in LANGUAGES:
        missing = sorted(k for k in used if not catalogue().messages[lang].get(k))
        assert not missing, f"{lang} lacks {missing}"
    page_words = {k for k in english if k.startswith("page.")}
    assert page_words - used == set(), "words of page.po no page uses"
    board_words = {k for k in english if k.startswith("mall.board.")}
    assert board_words - used == set(), "words of board.po the game's board does not use"


SAMPLES = [
    ("page.refused", {"message": "x"}),
    ("page.votes", {"count": 1}), ("page.votes", {"count": 0}), ("page.votes", {"count": 3}),
    ("page.roll", {"n": 2, "count": 4}),
    ("page.new_game_count", {"low": 3, "high": 6}),
    ("mall.board.round", {"round": 4, "phase": "destination"}),
    ("mall.board.setup", {"phase": "placement"}),
    ("mall.board.chief_goes", {"location": 4}),
    ("mall.board.dice_to", {"count": 2, "location": 5}),
    ("page.revealed", {"purpose": {"key": "mall.purpose.victim", "params": {"location": 1}}}),
    ("page.wifi_qr", {"ssid": "{not a placeholder}"}),
    ("page.server_error", {}),  # a missing parameter stays visible as {message}
    ("list.and", {}),
    ("page.no.such.key", {"colour": "red"}),
]


def test_the_page_renders_every_message_as_python_does(live, phones):
    """The page's t(): plurals, terms, lists of terms, nested messages, missing parameters, in every language."""
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    samples = list(SAMPLES)
    view = table.call(table.table.view, "red")
    samples.append((view["question"]["title"]["key"], view["question"]["title"]["params"]))  # colours, a list
    samples += [(c["label"]["key"], c["label"]["params"]) for c in view["question"]["choices"]]
    for locale in GLOSSARY:
        red = phones(table.seat_url("red"), locale=locale)
        for key, params in samples:
            page = red.page.evaluate("([key, params]) => Page.say({key, params})", [key, params])
            assert page == say(key, red.lang, **params), (locale, key, params)
        red.close()


# -- a refusal and a narration line, wholly in the phone's language ------------------------------------------

# Names kept as they are in the other languages (../shared/rules/glossary.md), and words of the trade.
KEPT = ["Mall of Horror", "Pin-up", "Tough Guy", "Gunman", "Little Girl", "Cachou", "Megatoys", "Parking Lot",
        "Parking", "Security HQ", "Security Camera", "Threat", "Sprint", "Hardware", "Hidden", "Shotgun", "Chainsaw",
        "Grenades", "Gun", "Fire Axe", "Baseball Bat", "Action", "Voting Wheel", "Closed", "zombie", "Zombie",
        "Wi-Fi", "QR"]
ENGLISH = re.compile(r"\b(the|and|your|you|is|are|of|with|to|for|not|this|that|has|have|from|who|what|cannot|"
                     r"must|now|here|there|will|waits?|votes?|dice|players?|table|Red|Blue|Yellow|Green)\b")


def english_left(text: str, lang: str) -> list[str]:
    for name in sorted(KEPT, key=len, reverse=True):
        text = text.replace(name, " ")
    if lang.startswith("zh"):
        return re.findall(r"[A-Za-z]{2,}", text)
    return ENGLISH.findall(text)


@pytest.mark.parametrize("locale", ["zh-CN", "vi-VN"])
def test_a_refusal_and_the_narration_are_wholly_in_the_phones_language(live, phones, locale, tmp_path):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    yellow, routes = routed_phone(phones, table.seat_url("yellow"), locale=locale)
    lang = yellow.lang
    table.answer({"seat": "red", "vote": "blue"})
    table.answer({"seat": "blue", "vote": "blue"})
    question = table.call(lambda: table.table.rules.prompt(table.table.state).id)

    def moved_on() -> bool:  # the board after both votes has reached the page (it goes once on disk)
        states = [m for m in yellow.messages() if m.get("type") == "state" and m.get("view")]
        return bool(states) and states[-1]["view"]["prompt"]["id"] == question
    yellow.wait_until(moved_on, "the board after Red's and Blue's votes")
    # Yellow has no character in Security HQ; a vote from his phone anyway (the page never offers it):
    routes[-1].server.send(json.dumps({"v": 1, "type": "answer", "question": question,
                                       "action": {"seat": "yellow", "vote": "red"}}))
    error = None

    def refused() -> bool:
        nonlocal error
        error = next((m for m in yellow.messages() if m.get("type") == "error"), None)
        return error is not None
    yellow.wait_until(refused, "the refusal")
    assert error["code"] in ("refused", "stale") and error["message"] == say(error["key"], lang, **error["params"])
    shown = yellow.page.locator("#error .error-text")
    wanted = error["message"] if error["code"] == "stale" else say("page.refused", lang, message=error["message"])
    yellow.shows_said(shown, wanted, "the refusal")
    assert not english_left(bare(shown.text_content()), lang), shown.text_content()

    yellow.narration_matches()
    lines = [bare(t) for t in yellow.page.locator("#narration .line-text").all_text_contents()]
    assert lines, "the round's narration is shown"
    for line in lines:
        assert not english_left(line, lang), line
    yellow.page.screenshot(path=tmp_path / f"refusal-{lang}.png", full_page=True)


# -- colour-blind players -----------------------------------------------------------------------------------


def test_every_colour_is_shown_with_its_name_and_its_symbol(live, phones, tmp_path):
    table = live(players=SIX, position=SIX_VOTE)
    purple = phones(table.seat_url("purple"))
    purple.shows_question("vote")
    buttons = purple.question.locator("button.option")
    expect(buttons).to_have_count(6)
    for colour in SIX:
        button = purple.choice({"seat": "purple", "vote": colour})
        expect(button.locator(f".chip.c-{colour} .sym")).to_have_text(SYMBOLS[colour])
        expect(button.locator(f".chip.c-{colour} .name")).to_have_text(say(f"colour.{colour}"))
    people = purple.page.locator("#board .zone[data-zone='6'] .tokens li")
    expect(people).to_have_text([shows(f"{chip(c)} {character('pinup')}") for c in SIX])
    # Every chip anywhere on the page has a symbol and a name, whatever its colour.
    for chip_node in purple.page.locator(".chip").all():
        assert chip_node.locator(".sym").inner_text() in SYMBOLS.values() and chip_node.locator(".name").inner_text()
    purple.page.screenshot(path=tmp_path / "six-colours.png")


# -- escaping and the Content-Security-Policy -----------------------------------------------------------------


def routed_phone(phones, url: str, **kwargs):
    """A phone whose WebSocket goes through the test, which can slip in messages of its own either way."""
    phone = phones(**kwargs)
    routes = []

    def route(ws) -> None:
        server = ws.connect_to_server()  # everything passes through both ways
        routes.append(SimpleNamespace(send=ws.send, server=server))  # send: to the page; server.send: as the page

    phone.page.route_web_socket(re.compile(r"/ws/"), route)
    phone.open(url)
    return phone, routes


def test_text_from_the_table_is_shown_as_text_never_as_html(live, phones):
    for script in sorted(STATIC.glob("*.js")):
        text = script.read_text()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
            assert sink not in text, f"{script.name}: {sink}"
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    red, routes = routed_phone(phones, table.seat_url("red"))
    red.shows_question("vote")
    view = table.call(table.table.view, "red")
    attack = '<img src=/nothing id=injected onerror="window.pwned=1">'
    warning = {"part": "lines", "tone": "warning", "lines": [[{"t": {"key": attack, "params": {}}}]]}
    view["parts"]["main"].append(warning)
    view["cup_rolls"] = [{"commitment": attack, "count": 4}]
    view["players"] = [*view["players"], attack]
    zones = next(p for p in view["parts"]["main"] if p["part"] == "zones")
    zones["zones"][0]["tokens"].append({"seat": attack, "mark": "7", "name": {"key": "<b>pinup</b>", "params": {}}})
    view["narration"] = [{"key": "page.refused", "params": {"message": attack}, "round": 3, "act": True}]
    view["question"]["title"] = {"key": attack, "params": {}}
    view["question"]["choices"][0]["label"] = {"key": "page.server_error", "params": {"message": attack}}
    routes[-1].send(json.dumps({"v": 1, "type": "state", "view": view, "connected": []}))
    routes[-1].send(json.dumps({"v": 1, "type": "error", "code": "refused", "message": attack}))
    expect(red.page.locator("#error .error-text")).to_have_text(say("page.refused", message=attack))
    expect(red.page.locator("#board .part-line.warning")).to_have_text(say("page.warning") + " " + attack)
    expect(red.page.locator("#fairness code")).to_have_text(attack)
    expect(red.page.locator("#narration .line-text")).to_have_text(say("page.refused", message=attack))
    expect(red.question.locator(".question-title")).to_have_text(attack)
    expect(red.question.locator("button.option").first).to_have_text(say("page.server_error", message=attack))
    expect(red.page.locator("#board .zone[data-zone='1'] .tokens")).to_contain_text(
        re.compile(re.escape(attack) + r"\s*.*<b>pinup</b>"))
    assert red.page.locator("#injected, b").count() == 0
    assert red.page.evaluate("window.pwned") is None


def test_the_wifi_name_is_shown_as_text_on_the_host_page(live, phones):
    ssid = '<img src=/nothing id=injected onerror="window.pwned=1">'
    table = live(position=ROUND, scripted=[ZOMBIE_DICE], wifi=(ssid, "password"))
    host = phones(table.host_url)
    expect(host.page.locator(".qr-card.wifi figcaption")).to_have_text(say("page.wifi_qr", ssid=ssid))
    assert host.page.locator("#injected").count() == 0
    assert host.page.evaluate("window.pwned") is None


def test_a_seats_phone_fetches_one_script_and_one_style_sheet_and_only_the_host_fetches_the_hosts_tools(
        live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    fetched: dict[str, list[str]] = {"red": [], "host": []}
    red, host = phones(), phones()
    for who, phone in (("red", red), ("host", host)):
        phone.page.on("request", lambda request, who=who: fetched[who].append(urlparse(request.url).path))
    red.open(table.seat_url("red"))
    red.shows_question("vote")
    expect(red.page.locator("#board")).to_be_visible()
    host.open(table.host_url)
    expect(host.page.locator("#close-ballot")).to_be_visible()  # the host's controls, drawn by host.js
    expect(host.page.locator(".qr-card.seat").first).to_be_visible()
    statics = {who: sorted(p for p in paths if p.startswith("/static/")) for who, paths in fetched.items()}
    assert [p for p in statics["red"] if p.endswith((".js", ".css"))] == ["/static/page.css", "/static/page.js"]
    assert {"/static/host.js", "/static/host.css"} <= set(statics["host"])
    # The host's tools come after the page's own styles: they win a tie, as they did inside one style sheet.
    sheets = host.page.evaluate("[...document.styleSheets].map((s) => new URL(s.href).pathname)")
    assert sheets == ["/static/page.css", "/static/host.css"]
    red.answer({"seat": "red", "vote": "blue"})  # the seat still answers from the one script


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
    # What the page loads is governed by the page's policy: not sniffed as another type, and no policy of its own.
    for static in ("page.js", "page.css", "host.js", "host.css", "app.js", "style.css", "manifest.json",
                   "../../i18n/vi.json"):
        response = red.page.request.get(table.server.url(f"/static/{static}").replace("/static/../../", "/"))
        assert response.ok and response.headers["x-content-type-options"] == "nosniff", static


# -- the shell knows no game --------------------------------------------------------------------------------

# Mall of Horror's words and knowledge: no file of the page may hold them (every board is drawn from its parts).
MALL_WORDS = re.compile(
    r"Pin-?up|Tough Guy|Gunman|Little Girl|Restroom|Cachou|Megatoys|Parking|Supermarket|Security HQ|"
    r"Security Camera|Chief|Threat|Sprint|Weapon|Shotgun|Chainsaw|Grenades|Fire Axe|Baseball Bat|"
    r"\bpinup\b|\btough\b|\bgunman\b|\bgirl\b|\bcamera\b|\bweapon\b|\bhardware\b|\bsprint\b|\bthreat\b|"
    r"\bmall\b|horror|capacit|\bLOCATIONS\b|\btruck\b|\bvictim\b|\bchief\b|"
    r"[\"'](go|vote|give|move|play|pass|kills)[\"']|\.(go|vote|give|move|play|kills)\b(?!-)|"  # its verbs
    r"[{,]\s*(go|vote|give|move|play|pass|kills)\s*:|"
    r"\b1\s*,\s*2\s*,\s*3\s*,\s*4\s*,\s*5\s*,\s*6\b",  # its six locations
    re.IGNORECASE)


SHELL = sorted(path.name for path in STATIC.iterdir() if path.suffix in (".js", ".css", ".html"))


def test_no_mall_of_horror_word_is_left_in_the_shell():
    assert {"app.js", "host.js", "parts.js", "rules.js", "index.html"} <= set(SHELL)
    for name in SHELL:
        text = (STATIC / name).read_text()
        found = sorted({m.group(0) for m in MALL_WORDS.finditer(text)})
        assert not found, f"{name} knows Mall of Horror: {found}"
    # The game's names from its own catalogue too (in English, as a developer would write them).
    names = [text for key, text in catalogue().messages["en"].items() if isinstance(text, str)
             and re.match(r"mall\.(location|character|card)\.", key)]
    for name in SHELL:
        text = (STATIC / name).read_text()
        for word in names:
            word = re.sub(r"^\d+\s+", "", word)
            assert word not in text, f"{name} holds {word!r}"
    assert MALL_WORDS.search('{"seat": "red", "go": 4}') and MALL_WORDS.search("action.vote")  # the check bites


def test_without_its_board_renderer_the_page_still_shows_the_question_and_the_narration(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    table.answer({"seat": "red", "vote": "blue"})
    table.answer({"seat": "blue", "vote": "blue"})  # Blue is elected: some narration
    blue = phones()
    # The parts' renderers did not load (they are in the page's one script: the name they go by is held empty).
    blue.page.add_init_script("Object.defineProperty(window, 'BoardParts', { get: () => undefined, set: () => {} })")
    blue.open(table.seat_url("blue"))
    blue.shows_question("chief")
    expect(blue.page.locator("#board .no-board")).to_have_text(say("page.no_board"))
    blue.narration_matches()
    blue.answer({"seat": "blue", "go": 6})


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
    expect(red.page.locator("#fairness .roll[data-roll='1'] .verify")).to_have_text(say("page.verified"))
    expect(red.page.locator("#fairness .roll[data-roll='2'] .verify")).to_have_text(say("page.mismatch"))


# -- the host -------------------------------------------------------------------------------------------------

WIDE = {"width": 1280, "height": 900}


def test_the_host_shows_the_qr_codes_closes_a_ballot_and_answers_for_a_missing_phone(live, phones, tmp_path):
    table = live(position=ATTACK, wifi=("TableNet", "zombies!"))
    host = phones(table.host_url, viewport=WIDE)
    cards = host.page.locator("#join .qr-card")
    expect(cards).to_have_count(6)
    expect(cards.first).to_have_class(re.compile(r"\bwifi\b"))  # the Wi-Fi first: phones join the network
    expect(cards.first.locator("figcaption")).to_have_text(say("page.wifi_qr", ssid="TableNet"))
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
    red.vote("blue")
    # Blue's phone is missing: the host answers for Blue, from the table's screen.
    answer_for = host.page.locator("#host .answer-for")
    expect(answer_for.locator(".seat-pick")).to_have_text([re.compile(r"■\s*Blue")])
    host.shows_said(answer_for.locator(".question-title"),
                    lambda: said(host.states()[-1]["host"]["questions"]["blue"]["title"]))
    answer_for.locator(answer_selector({"seat": "blue", "vote": "red"})).click()
    expect(host.page.locator("#revealed .leaders")).to_have_text(re.compile(r"Tie:\s*●\s*Red\s*■\s*Blue"))
    # The re-vote: Red votes; the host closes the ballot, and the missing voters abstain.
    red.wait_until(lambda: (red.asked() or {}).get("title", {}).get("params", {}).get("colours") == ["red", "blue"]
                   and "revealed" in red.view(), "the re-vote")
    red.shows_question("vote")
    red.vote("blue")
    close = host.page.locator("#close-ballot")
    expect(close).to_be_enabled()
    host.page.screenshot(path=tmp_path / "host.png", full_page=True)
    close.click()
    revealed = host.page.locator("#revealed")
    host.shows_said(revealed.locator("h2"), lambda: say("page.revealed", purpose=purpose(
        host.view().get("revealed") or {"purpose": "?"})) + " (" + say("page.revote") + ")")
    assert host.view()["revealed"]["purpose"] == "victim" and host.view()["revealed"]["location"] == 1
    expect(revealed.locator(".ballot-row[data-voter=yellow]")).to_have_text(
        shows(f"Yellow {say('page.votes', count=1)} → {say('page.abstained')}"))
    expect(revealed.locator(".leaders")).to_have_text(re.compile(r"Chosen:\s*■\s*Blue"))
    expect(host.page.locator("#host .received")).to_have_text(say("page.done"))
    expect(close).to_be_disabled()
    expect(red.page.locator("#revealed .leaders")).to_have_text(re.compile(r"Chosen:\s*■\s*Blue"))
    host.narration_matches()
    # The questions sent to the host for a missing seat are public: the host's frames hold no one's secrets.
    host_states = host.states()
    assert any(state["host"]["questions"] for state in host_states)
    for state in host_states:
        assert not {"ballot", "destination", "cup_seen", "question", "narration_mine"} & set(state["view"])
        for asked in state["host"]["questions"].values():
            assert not asked["answered"]  # a voter who has voted is not asked for again


def test_the_host_can_take_back_an_answer_given_for_a_seat(live, phones):
    table = live(position=MOVE)
    host = phones(table.host_url, viewport=WIDE)
    undo = host.page.locator("#undo")
    expect(undo).to_be_disabled()
    answer_for = host.page.locator("#host .answer-for")
    host.shows_said(answer_for.locator(".question-title"),
                    lambda: said(host.states()[-1]["host"]["questions"]["red"]["title"]))
    answer_for.locator(answer_selector({"seat": "red", "move": "tough"})).click()
    expect(host.page.locator("#board .zone[data-zone='6']")).to_contain_text(character("tough"))
    expect(undo).to_have_text(say("page.undo_n", count=1))
    undo.click()  # a confirmation first: a mis-tap takes nothing back
    expect(host.page.locator("#host .confirm")).to_contain_text(say("page.undo_confirm"))
    host.page.locator("#undo-cancel").click()
    expect(host.page.locator("#host .confirm")).to_have_count(0)
    expect(undo).to_be_enabled()
    expect(host.page.locator("#board .zone[data-zone='6']")).to_contain_text(character("tough"))
    undo.click()
    host.page.locator("#undo-yes").click()
    expect(undo).to_be_disabled()
    megatoys = host.page.locator("#board .zone[data-zone='3'] .tokens")
    expect(megatoys).to_contain_text(shows("● Red " + character("tough")))
    expect(answer_for.locator(".seat-pick")).to_have_text([re.compile(r"●\s*Red")])
    undone = host.view()["undone"]  # what the undo took back is said, struck through
    assert undone, "the undo takes back a narrated move"
    expect(host.page.locator("#narration .taken-back")).to_have_count(len(undone))
    host.shows_said(host.page.locator("#narration .taken-back .line-text").first, said(undone[0]))


def test_the_host_sets_up_a_new_game_and_old_seats_are_sent_away(live, phones):
    table = live(game=False)
    host = phones(table.host_url, viewport=WIDE)
    form = host.page.locator("#newgame")
    expect(form.locator("h2")).to_have_text(say("page.new_game") + " · " + say("mall.title"))
    start = host.page.locator("#start-game")
    expect(start).to_be_disabled()
    for colour in ("red", "yellow", "blue"):
        form.locator(f".colour-pick[data-colour={colour}]").click()
    expect(form.locator(".seating li")).to_have_text([re.compile(r"●\s*Red"), re.compile(r"▲\s*Yellow"),
                                                      re.compile(r"■\s*Blue")])
    games = host.states()[-1]["host"]["games"]
    mall = next(g for g in games if g["game"] == "mall-of-horror")
    for option in mall["options"]:  # every table option, labelled, its default chosen
        select = form.locator(f"select[data-option={option['name']}]")
        host.shows_said(select.locator("xpath=.."), said(option["label"]) + "".join(
            said(c["label"]) for c in option["choices"]))
        expect(select.locator("option:checked")).to_have_text(
            said(next(c["label"] for c in option["choices"] if c["value"] == option["default"])))
    form.locator("select[data-option=end_timing]").select_option("round_end")
    start.click()
    expect(host.page.locator("#join .qr-card.seat")).to_have_count(3)
    expect(host.page.locator("#board .phase")).to_have_text(say("mall.board.setup", phase=PHASE("placement")))
    assert table.call(lambda: table.table.state.options.end_timing) == "round_end"
    sent = [json.loads(f) for f in host.sent if json.loads(f).get("type") == "new_game"]
    assert sent[-1]["game"] == "mall-of-horror" and sent[-1]["players"] == ["red", "yellow", "blue"]

    red = phones(table.seat_url("red"))
    asked = red.shows_question("place")
    first = asked["choices"][0]
    red.shows_said(red.choice(first["action"]).locator(".option-label"), said(first["label"]))
    host.page.locator("#newgame summary").click()
    for colour in ("red", "yellow", "blue"):
        expect(form.locator(f".colour-pick[data-colour={colour}]")).to_have_attribute("aria-pressed", "true")
    start.click()
    expect(red.page.locator("#notice")).to_have_text(say("page.new_game_started"))
    expect(red.status).to_have_text(say("page.status.stopped"))
    expect(red.question).to_be_hidden()


# -- one seat, one phone; reconnecting ------------------------------------------------------------------------


def test_a_second_device_takes_the_seat_over_once_the_first_allows_it_and_the_first_stays_away(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    first = phones(table.seat_url("red"))
    second = phones(table.seat_url("red"))  # another phone (its own key): it waits, seeing no secret
    expect(second.question).to_have_text(second.say("faults.page.waiting", seat="red"))
    assert all("question" not in state["view"] for state in second.states())
    expect(first.question.locator(".takeover p")).to_have_text(first.say("faults.page.asked", seat="red"))
    first.page.locator(".takeover-allow").tap()
    expect(first.page.locator("#notice .notice-text")).to_have_text(say("page.taken_over"))
    expect(first.status).to_have_text(say("page.status.stopped"))
    expect(first.question).to_be_hidden()
    first.page.wait_for_timeout(1500)  # three reconnection delays: a wrong reconnect would take the seat back
    assert first.sockets == 1
    expect(second.page.locator("#notice")).to_be_hidden()
    second.vote("blue")


def test_a_phone_reconnects_after_the_network_drops_and_keeps_its_ballot(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    red = phones(table.seat_url("red"))
    red.vote("blue")
    table.drop_connections()
    expect(red.question.locator(".offline")).to_have_text(say("page.offline"))  # no tap lost in the gap
    red.wait_until(lambda: red.sockets == 2, "a new connection")
    expect(red.status).to_have_class(re.compile(r"\bconnected\b"))
    expect(red.question.locator(".received")).to_have_text(say("page.vote_received"))
    expect(red.question.locator(".offline")).to_have_count(0)
    red.peek_shows(say("board.your_vote") + " ■ Blue")


def test_a_phone_that_comes_back_after_a_new_game_is_told_its_link_is_gone(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    red = phones(table.seat_url("red"))
    table.call(table.server.tokens.for_game, None, FOUR)  # new seat tokens while the phone slept
    table.drop_connections()
    expect(red.page.locator("#notice")).to_have_text(say("page.unknown_token"))
    expect(red.status).to_have_text(say("page.status.stopped"))
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
    expect(stranger.page.locator("#notice")).to_have_text(say("page.no_token"))


# -- cards ----------------------------------------------------------------------------------------------------


def test_a_security_camera_lets_its_player_peek_at_the_dice_too(live, phones):
    table = live(position={**ROUND, "hands": {**NO_CARDS, "yellow": 1}}, scripted=[ZOMBIE_DICE])
    red, blue, yellow = (phones(table.seat_url(seat)) for seat in ("red", "blue", "yellow"))
    red.vote("red")
    blue.answer({"seat": "blue", "vote": "blue"})
    asked = yellow.shows_question("window")
    assert asked["kind"] == "cards"
    camera = {"seat": "yellow", "play": "camera"}
    # The card is folded behind "Play a card…"; passing is one tap.
    expect(yellow.question.locator("button.option")).to_have_count(1)
    expect(yellow.choice({"seat": "yellow", "pass": True})).to_be_visible()
    expect(yellow.choice(camera)).to_have_count(0)
    expect(yellow.question.locator("button.play-card")).to_have_text(say("page.play_card"))
    assert yellow.page.locator(".peek-button").count() == 0
    yellow.unfold_cards()
    card = next(c for c in asked["choices"] if c["action"] == camera)
    offered = yellow.question.locator(f"[data-card='{card['label']['key']}']")
    yellow.shows_said(offered.locator(".option-label"), said(card["label"]))
    yellow.shows_said(offered.locator(".option-note"), said(card["note"]))
    yellow.answer(camera)  # the card, then "play it?"
    expect(yellow.page.locator("#secrets .peek-button")).to_be_visible()
    assert yellow.peek().startswith(say("mall.board.zombie_dice") + " 1 4 5 5")
    assert blue.peek().startswith(say("mall.board.zombie_dice") + " 1 4 5 5")
    assert red.page.locator("#secrets .peek-button, .die").count() == 0
    assert not any("cup_seen" in frame for frame in red.frames)


def test_card_windows_and_sprints_are_labelled_with_the_cards_names(live, phones):
    table = live(position={**ATTACK, "hands": {**NO_CARDS, "red": 1}})
    red = phones(table.seat_url("red"))
    asked = red.shows_question("window")
    cards = [c for c in asked["choices"] if c.get("group") == "card"]
    assert [c["action"].get("play") for c in cards] == ["threat", "hardware", "hidden", "weapon", "weapon"]
    expect(red.question.locator("button.option")).to_have_count(len(asked["choices"]) - len(cards))
    red.unfold_cards()
    buttons = red.question.locator(".options.cards button.option")
    expect(buttons).to_have_count(len(cards))  # one Hidden card: his Pin-up alone is there
    assert [b.get_attribute("data-card") for b in buttons.all()] == [c["label"]["key"] for c in cards]
    for card in cards:
        offered = red.question.locator(f"[data-card='{card['label']['key']}']")
        red.shows_said(offered.locator(".option-label"), said(card["label"]))
        red.shows_said(offered.locator(".option-note"), said(card["note"]))
    red.pick_card({"seat": "red", "play": "hidden", "character": "pinup"})
    expect(red.question.locator(".card-confirm .confirm-text")).to_have_text(shows(
        say("page.card_confirm", choice={"key": "mall.choice.play.hidden", "params": {"character": "pinup"}})))
    red.question.locator(".card-back").tap()  # not this one
    red.answer({"seat": "red", "play": "threat"})
    assert red.shows_question("vote")["title"]["params"]["count"] == 2  # 1 for his Pin-up, 1 for the Threat

    table = live(position={**MOVE, "hands": {**NO_CARDS, "red": 1}})
    red = phones(table.seat_url("red"))
    red.shows_question("move")
    red.unfold_cards()
    red.question.locator("[data-card='mall.choice.play.sprint']").tap()  # the card, then where
    expect(red.question.locator("[data-choice]")).to_have_count(5)
    expect(red.question.locator("[data-choice='" + json.dumps({"seat": "red", "play": "sprint", "go": 2},
                                                              separators=(",", ":")) + "']")).to_have_count(0)
    red.answer({"seat": "red", "play": "sprint", "go": 4})
    asked = red.shows_question("sprint")
    assert [json.loads(b.get_attribute("data-answer")) for b in red.question.locator("button.option").all()] == [
        {"seat": "red", "move": kind} for kind in ("pinup", "tough", "gunman")]
    for choice in asked["choices"]:
        red.shows_said(red.choice(choice["action"]).locator(".option-label"), said(choice["label"]))


def test_the_truck_searcher_gives_a_card_by_colour(live, phones):
    table = live(position={"round": 2, "phase": "truck", "chief": "red", "hands": NO_CARDS, "deck": 10,
                           "characters": {"red": {"pinup": 4}, "blue": {"pinup": 6, "tough": 6},
                                          "yellow": {"pinup": 3}, "green": {"pinup": 1}}})
    red = phones(table.seat_url("red"))
    red.shows_question("gift")
    expect(red.question.locator("button.option")).to_have_text([shows("■ Blue"), shows("▲ Yellow"), shows("◆ Green")])
    red.answer({"seat": "red", "give": "green"})
    expect(red.page.locator("#board .part-line.hint", has_text=say("mall.board.hands"))).to_have_text(shows(
        f"{say('mall.board.hands')} ● Red 1 · ■ Blue 0 · ▲ Yellow 0 · ◆ Green 1 · {say('mall.board.deck', count=8)}"))
    red.narration_matches()


def test_the_host_gives_the_next_pad_pressed_to_a_seat_and_sees_the_hubs_news(live, phones):
    table = live(position=MOVE)
    given = []
    news = Message("pads.press_to_give", {"seat": "blue"})
    table.server.give_pad = lambda seat: (given.append(seat), table.server.notice(news))
    host = phones(table.host_url, viewport=WIDE)
    table.call(table.server._changed)  # the host learns there is a pad hub
    give = host.page.locator("#host .give-pad")
    expect(give).to_contain_text(say("page.give_pad"))
    give.locator("button.seat-pick", has_text="Blue").click()
    expect(host.page.locator("#host .received")).to_have_text(say(news.key, **news.params))
    assert given == ["blue"]


def test_without_a_pad_hub_the_host_page_offers_no_pads(live, phones):
    table = live(position=MOVE)
    host = phones(table.host_url, viewport=WIDE)
    expect(host.page.locator("#host .answer-for")).to_be_visible()
    assert host.page.locator("#host .give-pad").count() == 0


# -- screenshots for a person to look at -----------------------------------------------------------------------

SIZES = {"phone": {"width": 390, "height": 844}, "small": {"width": 800, "height": 480}}


@pytest.mark.parametrize("locale", list(GLOSSARY))
def test_screenshots_of_the_main_screens_in_every_language(live, phones, locale):
    """Screens kept in tests/screenshots/ for a person to check by eye: a ballot, a secret pick, the Chief's
    peek, a card window, the narration after a reveal, the host's screen; nothing overflows sideways."""
    lang = LOCALES[locale]
    folder = SCREENSHOTS / lang
    folder.mkdir(parents=True, exist_ok=True)
    for size, viewport in SIZES.items():
        table = live(position={**ROUND, "hands": {**NO_CARDS, "yellow": 1}}, scripted=[ZOMBIE_DICE],
                     wifi=("TableNet", "zombies!"))
        red, blue, yellow = (phones(table.seat_url(seat), locale=locale, viewport=viewport, touch=True)
                             for seat in ("red", "blue", "yellow"))
        host = phones(table.host_url, locale=locale, viewport=viewport, touch=True)

        def shot(phone: Phone, name: str, size: str = size) -> None:
            wide = phone.page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth")
            assert not wide, f"{name} scrolls sideways at {size} in {lang}"
            phone.page.screenshot(path=folder / f"{size}-{name}.png")

        red.shows_question("vote")
        shot(red, "1-ballot")
        red.vote("blue")
        shot(red, "2-vote-received")
        shot(host, "3-host")
        blue.answer({"seat": "blue", "vote": "blue"})
        yellow.shows_question("window")
        yellow.unfold_cards()
        shot(yellow, "4-card-window")
        blue.page.locator("#secrets .peek-button").dispatch_event("pointerdown", {"pointerType": "touch",
                                                                                  "isPrimary": True})
        expect(blue.page.locator(".peek-secret")).to_have_count(1)
        shot(blue, "5-chief-peeking")
        blue.page.locator("#secrets .peek-button").dispatch_event("pointerup", {"pointerType": "touch"})
        yellow.answer({"seat": "yellow", "pass": True})
        blue.answer({"seat": "blue", "go": 6})
        red.shows_question("secret")
        shot(red, "6-secret-destination")
        red.page.locator("#narration").scroll_into_view_if_needed()
        shot(red, "7-narration")
        host.page.locator("#board").scroll_into_view_if_needed()
        shot(host, "8-host-board")
        for phone in (red, blue, yellow, host):
            phone.close()


# -- the rule at hand on a phone (companion/rulebook.py, static/rules.js) ----------------------------------------


@pytest.mark.parametrize("locale", ["en-GB", "zh-CN", "zh-TW", "vi-VN"])
def test_why_beside_a_ballot_a_card_window_and_a_line_and_first_game_mode_on_a_phone(live, phones, locale):
    lang = LOCALES[locale]
    folder = SCREENSHOTS / lang
    folder.mkdir(parents=True, exist_ok=True)
    table = live(position={**ROUND, "hands": {**NO_CARDS, "yellow": 1}}, scripted=[ZOMBIE_DICE])
    table.call(table.table.set_first_game_mode, True)
    red, blue, yellow = (phones(table.seat_url(seat), locale=locale, viewport=SIZES["phone"], touch=True)
                         for seat in ("red", "blue", "yellow"))

    # First-game mode: the seat asked reads the rules this moment meets for the first time, until "Got it".
    asked = red.shows_question("vote")
    view = table.call(table.table.view, "red")
    first = red.page.locator("#first .first-time")
    expect(first).to_have_count(1)
    assert first.get_attribute("data-rules").split() == [r for r in view["first"] if r in view["rules"]]
    assert asked["rule"] in view["first"]
    expect(first.locator("h3").first).to_have_text(
        say("rules.first", lang, title=view["rules"][view["first"][0]]["title"]))
    red.page.screenshot(path=folder / "phone-first-game.png")
    first.locator(".got-it").click()
    expect(red.page.locator("#first .first-time")).to_have_count(0)
    red.page.reload()  # explained once in this game on this phone, a reload included
    red.shows_question("vote")
    expect(red.page.locator("#first .first-time")).to_have_count(0)

    def opens_why(phone, where, item: dict, name: str) -> None:
        why = where.locator("details.why").first
        expect(why.locator("summary")).to_have_text(say("rules.why", lang))
        why.locator("summary").click()
        words = table.call(table.table.view, phone_seat(phone))["rules"][item["rule"]]
        expect(why.locator(".rule-title")).to_have_text(said(words["title"], lang))
        expect(why.locator(".rule-text")).to_have_text(said(words["text"], lang))
        if "now" in item:
            expect(why.locator(".rule-now")).to_have_text(bare(said(item["now"], lang)))
        wide = phone.page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth")
        assert not wide, f"{name} scrolls sideways in {lang}"
        phone.page.screenshot(path=folder / f"phone-why-{name}.png")

    def phone_seat(phone) -> str:
        return next(s for s, p in (("red", red), ("blue", blue), ("yellow", yellow)) if p is phone)

    opens_why(red, red.question, red.shows_question("vote"), "ballot")
    red.vote("blue")
    blue.answer({"seat": "blue", "vote": "blue"})
    window = yellow.shows_question("window")
    opens_why(yellow, yellow.question, window, "card-window")
    line = table.call(table.table.view, "yellow")["narration"][-1]
    opens_why(yellow, yellow.page.locator(f"#narration .line[data-key='{line['key']}']").first, line, "line")
