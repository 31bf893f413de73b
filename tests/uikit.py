"""Drives the real touchscreen app offscreen, by touch, in a process of its own (one Kivy window per process).

    python tests/uikit.py game --out report.json [--lang en] [--seed 5] [--players red,yellow,blue]
    python tests/uikit.py screens --out folder [--size 800x480]

`game` plays a whole scripted game (a random legal game, its dice scripted into the table's cup) by touch events
on the widgets: the new-game form, a seat's button, the board's own answers, the cover, the answer's button, undo
and its confirmation, a look at the secret dice behind the cover. It writes what it saw: every text on the screen
after each step.
`screens` takes a screenshot of every screen in each language and checks each text: it fits its widget, its
font has every glyph, its key exists in the language.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_NO_ARGS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.box import Box, BoxOptions  # noqa: E402
from companion.ui.run import configure_kivy, open_window  # noqa: E402

SIZE = (800, 480)
if "--size" in sys.argv:
    SIZE = tuple(int(v) for v in sys.argv[sys.argv.index("--size") + 1].split("x"))
configure_kivy("offscreen", SIZE)
from kivy.config import Config  # noqa: E402

Config.set("graphics", "maxfps", "0")  # the tests wait for frames: as many as the machine draws

Window = open_window()  # the screens drawn at this window's scale

from kivy.clock import Clock  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy.uix.label import Label  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402

from companion.catalogue import LANGUAGES, catalogue  # noqa: E402
from companion.cup import DiceCup  # noqa: E402
from companion.games import GAMES  # noqa: E402
from companion.pads.buttons import SETTLE, button_actions  # noqa: E402
from companion.simulate import random_game  # noqa: E402
from companion.ui import people  # noqa: E402
from companion.ui.app import CompanionApp  # noqa: E402
from companion.ui.screens.board import NarrationLine, pinned_acts  # noqa: E402
from companion.ui.sound import sound_for  # noqa: E402
from companion.ui.widgets import Action, SeatButton  # noqa: E402

if "lucky-die" in sys.argv:  # the game only the tests know: its board is drawn by the parts every game uses
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import toy_game  # noqa: E402

    GAMES[toy_game.NAME] = toy_game
    catalogue.cache_clear()

# People at the table (issue 28): a Latin, a Chinese and a long Vietnamese name; Green plays without one.
NAMES = {"red": "Anna", "yellow": "陈小明", "blue": "Nguyễn Thị Hà"}
KEY_LEFT = re.compile(r"\b(ui|mall|page|colour|table|toy|protocol|list)\.[a-z0-9_.]+")


class Driver:
    def __init__(self, app: CompanionApp):
        self.app = app
        self.frames = 0
        Window.bind(on_flip=self._flip)

    def _flip(self, *_args) -> None:
        self.frames += 1

    async def settle(self, frames: int = 2) -> None:
        """Wait until the clock has ticked `frames` times since now and the screen is drawn up to date."""
        target = Clock.frames + frames
        deadline = time.monotonic() + 10
        while Clock.frames < target or Window.canvas.needs_redraw:
            if time.monotonic() > deadline:
                raise RuntimeError("the screen was not drawn for 10 s")
            await asyncio.sleep(0.002)

    async def until(self, test, seconds: float = 3.0) -> bool:
        """Wait for `test()` (a list's tap reaches its button only once the list knows it is not a scroll)."""
        deadline = time.monotonic() + seconds
        while not test():
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.005)
        await self.settle(2)
        return True

    # -- finding and touching widgets ---------------------------------------------------------------------

    def widgets(self, kind=object, where=None):
        root = where or self.app.manager.current_screen
        return [w for w in root.walk(restrict=True) if isinstance(w, kind)]

    def find(self, kind, test, where=None):
        found = [w for w in self.widgets(kind, where) if test(w)]
        if not found:
            raise LookupError(f"no {kind.__name__} on screen {self.app.manager.current}")
        return found[0]

    def armed(self, action: dict):
        """The answer button of `action` when a first tap armed it ("Sure? Tap again"), else None."""
        found = [w for w in self.widgets(Action) if getattr(w, "answer_action", None) == action
                 and getattr(w, "armed", False)]
        return found[0] if found else None

    async def tap(self, widget, hold: float = 0.0, during=None):
        self.show(widget)
        await self.settle(2)
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        if hold:
            await asyncio.sleep(hold)
            await self.settle(1)
            if during is not None:
                during()
        touch.touch_up()
        await self.settle(2)

    def show(self, widget) -> None:
        """Scroll a widget in a scrolling list into view, as a finger would."""
        parent = widget.parent
        while parent is not None and parent is not Window:
            if isinstance(parent, ScrollView):
                x, y = widget.to_window(*widget.pos)
                left, bottom = parent.to_window(*parent.pos)
                if bottom <= y and y + widget.height <= bottom + parent.height:
                    return  # in view already: scrolling now would make the tap a "stop the scroll" touch
                parent.scroll_to(widget, padding=10, animate=False)
                return
            parent = parent.parent

    def texts(self) -> list[str]:
        return [w.text for w in self.widgets(Label) if w.text]

    def answer_button(self, action: dict):
        """The button that sends `action` on this screen (the answer screen, or the board's own answers), or None."""
        found = [w for w in self.widgets(Action) if getattr(w, "answer_action", None) == action]
        return found[0] if found else None

    async def answer(self, action: dict) -> bool:
        """Tap the button that sends `action` here (unfolding the cards if it is one; a second tap where the
        first armed it: "Sure? Tap again"); False if this screen does not offer it."""
        button = self.answer_button(action)
        if button is None:
            toggle = [w for w in self.widgets(Action) if getattr(w, "answer_role", None) == "cards"]
            if not toggle or toggle[0].tone == "on":  # no cards here, or open already
                return False
            await self.tap(toggle[0])
            await self.until(lambda: self.answer_button(action) is not None, 2)
            button = self.answer_button(action)
            if button is None:
                return False
        await self.tap(button)
        again = self.armed(action)
        if again is not None:
            await self.tap(again)
        return True

    async def grace(self, seconds: int) -> bool:
        """The new-game form's grace before a reveal, by touch (False where the form has no such row)."""
        found = [w for w in self.widgets(Action) if getattr(w, "grace", None) == seconds]
        if not found:
            return False
        await self.tap(found[0])
        return self.app.table.reveal_grace == seconds

    async def look(self, button) -> dict:
        """A seat's secret, looked at from its button (the board's, the answer's): the cover, the secret, hidden
        again. What each showed."""
        app = self.app
        await self.tap(button)
        seen = {"button": button.text, "screen": app.manager.current, "cover": self.texts()}
        cover = app.manager.current_screen
        await self.tap(cover.ids.go)
        seen["stage"] = getattr(cover, "stage", None)
        seen["secret"] = cover.ids.message.text
        seen["secret_texts"] = self.texts()
        await self.tap(cover.ids.go)
        seen["after"] = self.texts()
        seen["back"] = app.manager.current
        return seen

    async def shoot_languages(self, path_of, glyphs, report: dict, before=None) -> dict[str, list[str]]:
        """The screen as it is, shot in each language (then back to English): each shot's path goes in
        report["shots"] and what is wrong on it in report["problems"]; returns each language's texts.
        `before()` runs once the language is set (to open a screen again, say)."""
        texts = {}
        for lang in LANGUAGES:
            self.app.words.used.clear()
            if self.app.lang != lang:
                self.app.set_lang(lang)
            if before is not None:
                before()
            await self.settle(3)
            path = path_of(lang)
            shot(path)
            report["shots"].append(str(path))
            report["problems"] += [f"{path.name}: {p}" for p in self.problems(lang, glyphs)]
            texts[lang] = self.texts()
        self.app.set_lang("en")
        return texts

    # -- checks of one screen ----------------------------------------------------------------------------

    def problems(self, lang: str, glyphs) -> list[str]:
        out = []
        for label in self.widgets(Label):
            if not label.text or label.opacity == 0:
                continue
            tw, th = label.texture_size
            if tw > label.width + 1 or th > label.height + 1:
                out.append(f"overflow {tw:.0f}x{th:.0f} in {label.width:.0f}x{label.height:.0f}: {label.text!r}")
            missing = glyphs(label.font_name, label._label.text or label.text)  # as drawn
            if missing:
                out.append(f"tofu {''.join(sorted(missing))!r} in font {Path(label.font_name).name}: {label.text!r}")
            if KEY_LEFT.search(label.text) or re.search(r"\{[a-z_]+\}", label.text):
                out.append(f"untranslated: {label.text!r}")
            if lang != "en" and english_left(lang, label.text):
                out.append(f"English left in {lang}: {label.text!r}")
        for key in sorted(self.app.words.used):
            if not catalogue().has(key, lang):
                out.append(f"missing in {lang}: {key}")
        return out


def english_left(lang: str, text: str) -> bool:
    """English words in a text of another language (the catalogue test's rules; names the players keep)."""
    from test_catalogue import ENGLISH_WORDS, _left_english

    if text in LANGUAGES.values():
        return False  # a language's name, in that language, on the language buttons
    text = _left_english(re.sub(r"https?://\S+|[0-9a-f]{12,}|ZombieTable", " ", text))
    for name in NAMES.values():  # the people's names are theirs, in any language
        text = text.replace(name, " ")
    if lang.startswith("zh"):
        return bool(re.search(r"[A-Za-z]{3,}", text))
    return bool(ENGLISH_WORDS.search(text))


class Glyphs:
    """Which characters a font file lacks (fontTools' cmap)."""

    def __init__(self):
        self.maps: dict[str, set[int]] = {}

    def __call__(self, font: str, text: str) -> set[str]:
        from fontTools.ttLib import TTFont

        path = font if os.path.exists(font) else str(Path(__import__("kivy").__file__).parent / "data" / "fonts" /
                                                       (font if font.endswith(".ttf") else font + ".ttf"))
        if path not in self.maps:
            self.maps[path] = set(TTFont(path, lazy=True).getBestCmap())
        cmap = self.maps[path]
        return {ch for ch in text if not ch.isspace() and ord(ch) not in cmap}


def shot(path: Path) -> None:
    made = Window.screenshot(name=str(path))
    os.replace(made, path)


def box_options(**options) -> BoxOptions:
    """A box on this machine for a test: a secret question revealed at its last answer, as a script expects, unless
    told (the box's own default waits a few seconds, for a mis-tap to be changed)."""
    import dataclasses

    if "reveal_grace" in {f.name for f in dataclasses.fields(BoxOptions)}:
        options.setdefault("reveal_grace", 0)
    return BoxOptions(host="127.0.0.1", port=0, address="127.0.0.1", **options)


def open_box(db: str, players: list[str] | None = None) -> Box:
    return Box(box_options(db=db, players=players))


async def drop_a_phone(box: Box, seat: str, grace: float = 0.2) -> None:
    """A seat's phone comes (a socket of its own, bound to the seat) and goes: the box says so once its drop grace is
    over (shortened here)."""
    import aiohttp

    server = box.server
    if hasattr(server, "drop_grace"):
        server.drop_grace = grace
    url = server.url(f"/ws/{box.tokens.seats[seat]}").replace("http://", "ws://", 1) + "?device=" + "k" * 20 + seat
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as socket:
        await socket.receive(timeout=5)  # its welcome: the seat is bound to this device


async def run_with(app: CompanionApp, script) -> None:
    """The app and a script on the one loop; the app stops when the script ends (or fails)."""
    errors: list[BaseException] = []

    async def wrapped():
        driver = Driver(app)
        try:
            await driver.settle(3)
            await script(driver)
        except BaseException as error:  # reported after the window is closed, with what the screen showed
            errors.append(error)
            try:
                shot(Path(tempfile.gettempdir()) / "ui-failed.png")
                print("on the screen:", [w.text for w in driver.widgets(Label) if w.text], file=sys.stderr)
            except Exception:
                pass
        finally:
            app.stop()

    await asyncio.gather(app.async_run(async_lib="asyncio"), wrapped())
    if errors:
        raise errors[0]


# -- what the table hears, phones and pads ----------------------------------------------------------------------


class Ears:
    """Stands in for the speaker and for espeak-ng: records each sound played and each text that would be said."""

    available = True

    def __init__(self):
        self.played: list[str] = []
        self.spoken: list[tuple[str, str]] = []

    def play(self, path: str, keep: bool = True) -> float:
        self.played.append(Path(path).stem.rsplit("-", 1)[0])  # "dice-1.wav" -> "dice"
        return 0.0

    async def record(self, text: str, lang: str, path: Path) -> bool:
        self.spoken.append((text, lang))
        return False


CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--no-first-run", "--disable-sync"]
BROWSER_LOCALES = {"en": "en-GB", "zh-Hans": "zh-CN", "zh-Hant": "zh-TW", "vi": "vi-VN"}


class BrowserPhone:
    """A phone: the real phone page in Debian's Chromium (Playwright's async API, on the app's own loop)."""

    async def open(self, url: str, lang: str) -> None:
        from playwright.async_api import async_playwright

        self.playwright = await async_playwright().start()
        self.browser = await self.playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        self.context = await self.browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale=BROWSER_LOCALES[lang])
        self.page = await self.context.new_page()
        self.acks = 0
        self.errors: list[str] = []
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        await self.page.goto(url)
        # the page shows its status line only when the connection is lost
        await self.page.locator("#status.connected").wait_for(state="attached", timeout=15000)

    def _frame(self, payload) -> None:
        try:
            message = json.loads(payload)
        except (TypeError, ValueError):
            return
        if message.get("type") == "ack" and message.get("question"):
            self.acks += 1

    async def answer(self, action: dict) -> str:
        """Tap the page's control that sends `action` (unfolding the cards if it is one); returns the question's
        title as the page shows it."""
        selector = "[data-answer=" + json.dumps(json.dumps(action, ensure_ascii=False, separators=(",", ":"))) + "]"
        button = self.page.locator("#question " + selector)
        fold = self.page.locator("#question button.play-card")
        deadline = time.monotonic() + 15
        quoted = json.dumps(json.dumps(action, ensure_ascii=False, separators=(",", ":")))
        card = self.page.locator("#question [data-answers*=" + quoted + "]")  # a card: tap it, then its option
        option = self.page.locator("#question [data-choice=" + quoted + "]")
        from playwright.async_api import TimeoutError as PageChanged

        while not await button.count():
            # The page may draw the question again between counting a control and using it (the table moved on):
            # each use waits a second at most, then the page is looked at afresh.
            try:
                if await fold.count() and await fold.get_attribute("aria-expanded", timeout=1000) != "true":
                    await fold.click(timeout=1000)
                elif await option.count():
                    await option.click(timeout=1000)
                elif await card.count():
                    await card.click(timeout=1000)
            except PageChanged:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the phone never showed {action}")
            await asyncio.sleep(0.05)
        title = await self.page.locator("#question .question-title").text_content()
        await button.tap()
        return title or ""

    async def close(self) -> None:
        await self.context.close()
        await self.browser.close()
        await self.playwright.stop()


PAD_PINS = [17, 27, 22, 5, 6, 13]  # hardware/README.md's red pad: buttons 1..6


def pad_config(folder: str, seat: str) -> str:
    path = Path(folder) / f"pads-{seat}.toml"
    path.write_text(f"[gpio.seats.{seat}]\nbuttons = {PAD_PINS}\nled = 26\n", encoding="utf-8")
    return str(path)


def press_pad(button: int) -> None:
    """A press and release on the pad's button, from this (non-loop) thread, as gpiozero's callbacks arrive."""
    from gpiozero import Device

    pin = Device.pin_factory.pin(PAD_PINS[button - 1])
    pin.drive_low()
    time.sleep(0.06)
    pin.drive_high()
    time.sleep(0.04)


def narration_in_order(app: CompanionApp) -> bool:
    """The board's narration, top to bottom, is the latest lines newest first (and the newest line is there), after
    the last step's instructions of a round it ended, kept on top."""
    lines = [w.text.removeprefix("▶ ") for w in reversed(app.manager.current_screen.ids.narration.children)
             if isinstance(w, NarrationLine)]
    at_hand = app.table.rules_at_hand()  # a line with a rule behind it ends in the catalogue's mark ("Why?")
    public = [app.t("rules.line", text=app.words.say(e.message)) if at_hand.of(e.message) else app.words.say(e.message)
              for e in app.public_lines]
    pinned = pinned_acts(app.public_lines, app.fresh_from, app.view.get("round"))
    wanted = [public[i] for i in pinned] + [text for i, text in reversed(list(enumerate(public))) if i not in pinned]
    return bool(lines) and lines == wanted[:len(lines)]


# -- a whole game by touch ------------------------------------------------------------------------------------


async def play_toy(args) -> dict:
    """Lucky Die by touch: an assignment, secret ballots and a number, its board drawn from its parts."""
    from companion.contract import ASSIGN, NUMBER

    players = ["red", "blue"]
    db = tempfile.mktemp(suffix=".sqlite3", dir=args.tmp)
    box = open_box(db)
    await box.open()
    box.table.cup = DiceCup(scripted=[(3,)] * 20)
    app = CompanionApp(box, lang=args.lang)
    report = {"seen": [], "screens": set(), "kinds": set()}

    async def script(d: Driver):
        table = app.table
        await d.tap(d.find(Action, lambda w: getattr(w, "game", None) == "lucky-die"))
        for colour in players:
            await d.tap(d.find(Action, lambda w, c=colour: getattr(w, "colour", None) == c))
        await d.tap(app.manager.current_screen.ids.start)
        assert table.state is not None and table.rules.NAME == "lucky-die"
        for _ in range(200):
            screen = app.manager.current
            report["screens"].add(screen)
            report["seen"] += d.texts()
            if screen in ("join", "end") and table.state.over:
                break
            if screen == "join":
                await d.tap(app.manager.current_screen.ids.back)
            elif screen == "board":
                if table.state.tokens and "board_shot" not in report:  # its board, drawn from its parts
                    await d.settle(2)
                    report["board_shot"] = str(Path(args.tmp) / f"toy-board-{args.lang}.png")
                    shot(Path(report["board_shot"]))
                    report["board_texts"] = d.texts()
                seat = table.rules.prompt(table.state).seats[0]
                await d.tap(d.find(SeatButton, lambda w, s=seat: w.seat == s))
                await d.until(lambda: app.manager.current != "board")
            elif screen == "cover":
                await d.tap(app.manager.current_screen.ids.go)
                await d.until(lambda: app.manager.current != "cover")
            elif screen == "answer":
                question = table.question(app.manager.current_screen.seat)
                report["kinds"].add(question.kind)
                before = len(table.events)
                if question.kind == NUMBER:  # guess 3: the scripted cup rolls 3
                    for _step in range(3 - question.low):
                        await d.tap(d.find(Action, lambda w: getattr(w, "answer_role", None) == "plus"))
                    await d.tap(d.find(Action, lambda w: getattr(w, "answer_role", None) == "send"))
                elif question.kind == ASSIGN:  # every item to the last target
                    for item in question.items:
                        target = question.targets[-1].value
                        await d.tap(d.find(Action, lambda w, i=item.value, t=target: getattr(w, "assign", None)
                                           == (i, t)))
                    await d.tap(d.find(Action, lambda w: getattr(w, "answer_role", None) == "send"))
                else:
                    action = dict(question.choices[0].action)
                    await d.tap(d.find(Action, lambda w, a=action: getattr(w, "answer_action", None) == a))
                if not await d.until(lambda b=before: len(table.events) > b):
                    raise RuntimeError(f"the {question.kind} answer was not taken")
        await d.settle(3)
        report["screens"].add(app.manager.current)
        report["seen"] += d.texts()
        report["over"] = bool(table.state.over)
        report["winners"] = list(table.state.winners)
        report["narration"] = [app.words.say(e.message) for e in table.narration() if not e.seats]

    try:
        await run_with(app, script)
    finally:
        await box.close()
    report["screens"] = sorted(report["screens"])
    report["kinds"] = sorted(report["kinds"])
    return report


async def play_game(args) -> dict:
    rules = GAMES[args.game]
    players = args.players.split(",")
    events, final = random_game(rules, players, random.Random(args.seed))
    answers = [e for e in events if "roll" not in e and "pick" not in e]
    db = tempfile.mktemp(suffix=".sqlite3", dir=args.tmp)
    pads = None
    if args.pad:  # a GPIO pad for one seat, on gpiozero's mock pins
        from gpiozero import Device
        from gpiozero.pins.mock import MockFactory

        Device.pin_factory = MockFactory()
        pads = pad_config(args.tmp or tempfile.gettempdir(), args.pad)
    box = Box(box_options(db=db, pads=pads))
    await box.open()
    box.table.cup = DiceCup(scripted=[tuple(e["roll"]) for e in events if "roll" in e],
                            picks=[e["pick"] for e in events if "pick" in e])
    app = CompanionApp(box, lang=args.lang)
    ears = Ears()
    app.sounds.player = app.sounds.voice = ears
    app.sounds.line_gap = 0  # no pause between the lines said: nobody listens, and a game says hundreds
    report = {"answers": len(answers), "seen": [], "steps": 0, "undo": None, "peeks": [], "screens": set(),
              "order": []}

    sound = {"speech_on": False, "spoken_from": None, "muted_at": None, "unmuted_at": None}

    async def script(d: Driver):
        table = app.table
        assert app.manager.current == "newgame", app.manager.current
        for colour in players:  # the new-game form, by touch: the colours in seating order, then start
            await d.tap(d.find(Action, lambda w, c=colour: getattr(w, "colour", None) == c))
        report["grace_row"] = await d.grace(0)  # revealed at the last answer: this script changes none
        if args.first_game:  # first-game mode, chosen on the form: each rule explained the first time it comes
            await d.tap(d.find(Action, lambda w: getattr(w, "role", None) == "first_game"))
            report["first"] = {"explained": [], "why_line": None, "why_question": None}
        await d.tap(app.manager.current_screen.ids.start)
        assert table.state is not None and list(table.state.players) == players
        phone = None
        if args.phone:  # a phone answers for one seat at the same time: the real page in Chromium
            phone = BrowserPhone()
            await phone.open(box.server.seat_urls()[args.phone], args.lang)
            report["phone"] = {"seat": args.phone, "answers": 0, "acks": 0, "titles": []}
            await d.until(lambda: args.phone in app.connected, 10)
        if args.pad:
            report["pad"] = {"seat": args.pad, "answers": 0, "on_screen": 0}
        if app.manager.current == "join":
            report["screens"].add("join")
            report["join_texts"] = d.texts()
            await d.tap(app.manager.current_screen.ids.back)
        undone = False
        looked: set = set()  # (round, seat): the secret dice looked at
        index = 0
        while index < len(answers):
            action = answers[index]
            screen = app.manager.current
            report["screens"].add(screen)
            report["seen"] += d.texts()
            if screen == "board" and not (app.view or {}).get("undone"):
                report["order"].append(narration_in_order(app))
            report["steps"] += 1
            if report["steps"] > 20 * len(answers) + 50:
                raise RuntimeError("the game does not go on")
            if screen == "board" and phone is not None and action["seat"] == args.phone:
                before = len(table.events)
                choice = next(c for c in table.question(args.phone).choices if dict(c.action) == action)
                report["phone"]["titles"].append(await phone.answer(dict(choice.action)))
                report["phone"]["answers"] += 1
                if not await d.until(lambda b=before: len(table.events) > b, 15):
                    raise RuntimeError(f"the phone's answer {action} was not taken")
                index += 1
                continue
            if screen == "board" and args.pad and action["seat"] == args.pad:
                actions = button_actions(table.question(args.pad))
                if action in actions:  # on the pad's buttons: pressed there (else the screen answers for it)
                    before = len(table.events)
                    await asyncio.sleep(SETTLE)  # the player looks at his question: a press sooner is the last one's
                    await asyncio.to_thread(press_pad, actions.index(action) + 1)
                    report["pad"]["answers"] += 1
                    if not await d.until(lambda b=before: len(table.events) > b, 10):
                        raise RuntimeError(f"the pad's press for {action} was not taken")
                    index += 1
                    continue
                report["pad"]["on_screen"] += 1
            if screen == "board" and not sound["speech_on"]:  # spoken narration switched on in the menu, by touch
                await switch(d, "speech")
                sound["speech_on"] = True
                sound["spoken_from"] = len(app.public_lines)
            if screen == "board" and index >= len(answers) // 2 and sound["muted_at"] is None:
                await app.sounds.said()  # the last steps' sounds and voice are out (mute silences what is queued)
                await switch(d, "sounds")  # muted, until a line that makes a sound has come and gone unheard
                sound["muted_at"], sound["played_before"] = len(app.public_lines), len(ears.played)
                sound["spoken_before"] = len(ears.spoken)
            if screen == "board" and sound["muted_at"] is not None and sound["unmuted_at"] is None:
                keys = [e.message.key for e in app.public_lines[sound["muted_at"]:]]
                if any(sound_for(k, table.rules.SOUNDS) for k in keys):
                    sound["unmuted_at"], sound["played_muted"] = len(app.public_lines), len(ears.played)
                    sound["spoken_muted"] = len(ears.spoken)
                    await switch(d, "sounds")
            if screen == "board" and args.first_game and report["first"]["why_line"] is None:
                await why_of_a_line(d, report)
            if screen == "answer" and args.first_game and report["first"]["why_question"] is None:
                await why_of_the_question(d, report)
            if screen == "board":
                peek = [w for w in d.widgets(Action) if getattr(w, "role", None) == "peek"
                        and (table.state.round, w.seat) not in looked]
                if peek and len(report["peeks"]) < 3:  # the secret dice, behind the cover: once a round
                    looked.add((table.state.round, peek[0].seat))
                    secret = [line for _w, reveal, _u in app.secrets_of(peek[0].seat) for line in
                              reveal().splitlines()]
                    report["peeks"].append({**await d.look(peek[0]), "lines": secret})
                    continue
                if "more" not in report and any(getattr(w, "role", None) == "more" for w in d.widgets(Action)):
                    await earlier_lines(d, report)
                if not undone and table.can_undo and index > 3:
                    undone = True
                    await self_undo(d, report)
                    # the answer taken back is given again: go back in the script to it
                    taken = report["undo"]["steps_back"]
                    index -= taken
                    continue
                before = len(table.events)
                if await d.answer(action):  # one seat asked, nothing secret: answered on the board itself
                    if not await d.until(lambda b=before: len(table.events) > b):
                        raise RuntimeError(f"the answer {action} was not taken on the board")
                    report["on_board"] = report.get("on_board", 0) + 1
                    index += 1
                    continue
                await d.tap(d.find(SeatButton, lambda w, s=action["seat"]: w.seat == s))
                await d.until(lambda: app.manager.current != "board")
            elif screen == "cover":
                await d.tap(app.manager.current_screen.ids.go)
                await d.until(lambda: app.manager.current != "cover")
            elif screen == "answer":
                before = len(table.events)
                await answer(d, action)
                if not await d.until(lambda b=before: len(table.events) > b):
                    raise RuntimeError(f"the answer {action} was not taken")
                index += 1
            elif screen == "end":
                break
            elif screen == "rules" and args.first_game:  # first-game mode explains: read, then "Got it"
                rules = app.manager.current_screen
                assert rules.first, "the rules screen came by itself, not in first-game mode"
                report["first"]["explained"] += [rule for rule, _now in rules.items]
                report["first"].setdefault("texts", []).append(d.texts())
                await d.tap(rules.ids.close)
                await d.until(lambda: app.manager.current != "rules")
            else:
                raise RuntimeError(f"unexpected screen {screen}")
        await d.settle(3)
        while args.first_game and app.manager.current == "rules":  # the end's rules met for the first time
            rules = app.manager.current_screen
            report["first"]["explained"] += [rule for rule, _now in rules.items]
            await d.tap(rules.ids.close)
            await d.settle(2)
        report["screens"].add(app.manager.current)
        report["seen"] += d.texts()
        report["over"] = bool(table.state.over)
        report["final_screen"] = app.manager.current
        report["winners"] = list(table.state.winners)
        report["expected_winners"] = list(final.winners)
        report["narration"] = [app.words.say(e.message) for e in table.narration() if not e.seats]
        report["keys"] = [e.message.key for e in table.narration() if not e.seats]
        report["private"] = [app.words.say(e.message) for e in table.narration() if e.seats]
        await asyncio.sleep(1.5)  # the last step's sounds and voice
        await asyncio.wait_for(app.sounds.said(), 30)
        report["sound"] = {**sound, "played": ears.played, "spoken": ears.spoken}
        import gc

        walked = {id(thing) for thing in gc.get_objects()}  # what Python's collections still walk
        end = app.manager.get_screen("end")  # made ahead, with its kv layout (its rows may be made at the end)
        ahead = [end, *end.ids.values()]
        report["collected"] = {"ahead": len(ahead), "walked": sum(id(w) in walked for w in ahead)}
        if phone is not None:
            report["phone"]["acks"] = phone.acks
            report["phone"]["errors"] = phone.errors
            await phone.close()

    async def why_of_a_line(d: Driver, report: dict) -> None:
        """A tap on a line of the narration shows the rule behind it; back to the board."""
        from companion.ui.screens.board import NarrationLine

        lines = [w for w in d.widgets(NarrationLine) if w.why is not None]
        if not lines:
            return
        line = lines[0]
        await d.tap(line)
        await d.until(lambda: app.manager.current == "rules")
        rules = app.manager.current_screen
        report["first"]["why_line"] = {"line": line.text, "rule": line.why[0], "items": rules.items,
                                       "first": rules.first, "texts": d.texts()}
        await d.tap(rules.ids.close)
        await d.until(lambda: app.manager.current != "rules")
        report["first"]["why_line"]["back"] = app.manager.current

    async def why_of_the_question(d: Driver, report: dict) -> None:
        """"Why?" beside a question shows its rule, with the moment's facts; back to the same question."""
        seat = app.manager.current_screen.seat
        await d.tap(app.manager.current_screen.ids.why)
        await d.until(lambda: app.manager.current == "rules")
        rules = app.manager.current_screen
        report["first"]["why_question"] = {"seat": seat, "items": rules.items, "texts": d.texts()}
        await d.tap(rules.ids.close)
        await d.until(lambda: app.manager.current != "rules")
        report["first"]["why_question"]["back"] = (app.manager.current, app.manager.current_screen.seat)

    async def switch(d: Driver, which: str) -> None:
        """Menu -> the sounds' or the voice's switch -> back to the board, by touch."""
        await d.tap(app.manager.current_screen.ids.menu)
        menu = app.manager.current_screen
        before = (app.sounds.muted, app.sounds.speech)
        await d.tap(menu.ids[which])
        assert (app.sounds.muted, app.sounds.speech) != before, f"the {which} switch did nothing"
        report["seen"] += d.texts()
        await d.tap(menu.ids.back)

    async def earlier_lines(d: Driver, report: dict) -> None:
        """The board shows the round's newest lines; its button to the others opens History at the newest."""
        from companion.ui.screens.board import NARRATION_SHOWN

        board = app.manager.current_screen
        shown = [w for w in board.ids.narration.children if isinstance(w, NarrationLine)]
        fresh = len(app.public_lines) - app.fresh_from
        await d.tap(d.find(Action, lambda w: getattr(w, "role", None) == "more"))
        await d.settle(3)
        history = app.manager.current_screen
        scroll = history.ids.lines.parent
        heights = [history.ids.lines.height]  # each line wraps to its height a frame after it is added
        while len(heights) < 3 or len(set(heights[-3:])) > 1:  # wait until the list stops growing
            assert len(heights) < 300, "the history's lines never stopped growing"
            await d.settle(1)
            heights.append(history.ids.lines.height)
        last = app.words.say(app.public_lines[-1].message)
        newest = [w for w in history.ids.lines.children if w.text.endswith(last)]
        bottom = scroll.to_window(*scroll.pos)[1]
        visible = bool(newest) and bottom <= newest[0].to_window(*newest[0].pos)[1] <= bottom + scroll.height
        report["more"] = {"shown": len(shown), "limit": max(NARRATION_SHOWN, fresh), "screen": app.manager.current,
                          "scroll_y": scroll.scroll_y, "newest_visible": visible,
                          "round_lines": len(app.view.get("narration") or [])}
        await d.tap(history.ids.back)
        assert app.manager.current == "board"

    async def self_undo(d: Driver, report: dict) -> None:
        steps = app.table.can_undo
        events = len(app.table.events)
        preview = [app.words.say(e.message) for e in app.undo_preview()]
        await d.tap(app.manager.current_screen.ids.undo)
        assert app.manager.current == "confirm"
        shown = d.texts()
        await d.tap(app.manager.current_screen.ids.yes)
        undone_texts = d.texts()
        report["undo"] = {"can_undo": steps, "preview": preview, "shown": shown, "after": undone_texts,
                          "steps_back": 1, "events_before": events}

    async def answer(d: Driver, action: dict) -> None:
        if not await d.answer(action):
            raise LookupError(f"no button sends {action} on screen {app.manager.current}")

    try:
        await run_with(app, script)
    finally:
        await box.close()
    report["screens"] = sorted(report["screens"])
    return report


# -- every screen, every language ------------------------------------------------------------------------------


async def all_screens(args) -> dict:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rules = GAMES["mall-of-horror"]
    players = ["red", "yellow", "blue", "green"]
    events, _ = random_game(rules, players, random.Random(args.seed))
    db = tempfile.mktemp(suffix=".sqlite3", dir=args.tmp)
    box = Box(box_options(db=db, wifi_ssid="ZombieTable", wifi_password="brains"))
    await box.open()
    box.table.cup = DiceCup(scripted=[tuple(e["roll"]) for e in events if "roll" in e],
                            picks=[e["pick"] for e in events if "pick" in e])
    app = CompanionApp(box, lang="en")
    glyphs = Glyphs()
    report: dict = {"shots": [], "problems": []}
    size = f"{Window.width}x{Window.height}"

    async def capture(d: Driver, name: str, goto=None, **options) -> None:
        await d.shoot_languages(lambda lang: out / f"{name}-{lang}-{size}.png", glyphs, report,
                                (lambda: app.goto(goto, **options)) if goto else None)

    def form_end() -> None:
        app.goto("newgame")
        app.manager.current_screen.ids.scroll.scroll_y = 0  # its last rows: first-game mode, the grace

    async def script(d: Driver):
        table = app.table
        if hasattr(table, "set_reveal_grace"):
            table.set_reveal_grace(0)  # each last answer revealed at once, but where the grace is shot
        await capture(d, "newgame", "newgame")
        await d.shoot_languages(lambda lang: out / f"newgame-end-{lang}-{size}.png", glyphs, report, form_end)
        await capture(d, "menu", "menu")
        table.new_game("mall-of-horror", players, names=NAMES)  # names beside colours on every screen after
        await d.settle(2)
        await d.until(lambda: not people.cutting(), 180)  # the Chinese faces learn the names (slow under load)
        await capture(d, "join", "join")
        await capture(d, "board-start", "board")
        await capture(d, "rules-whole", "rules", back="menu")  # the whole book, from the menu
        first = table.rules.prompt(table.state).seats[0]
        await capture(d, "answer", "answer", seat=first)
        app.goto("board")
        shown = {"revealed": False, "cover": False, "undo": False, "cards": False, "peek": False, "direct": False,
                 "revealing": False, "dropped": False, "secrets": False, "pinned": False}
        for event in events:
            if "roll" in event or "pick" in event:
                continue
            prompt = table.rules.prompt(table.state)
            if not shown["cover"] and prompt.secret:
                shown["cover"] = True
                await capture(d, "cover", "cover", seat=prompt.seats[0], stage="before")
            if not shown["cards"] and prompt.kind == "cards":
                shown["cards"] = True
                seat = prompt.seats[0]
                shown["direct"] = True
                app.goto("board")  # the one seat's answers on the board: pass, or the cards unfolded
                await d.settle(2)
                await capture(d, "board-direct", None)
                app.manager.current_screen.direct_choices.open_cards(True)
                await capture(d, "board-direct-cards", None)
                app.goto("answer", seat=seat)
                app.manager.current_screen.cards_open = True
                await capture(d, "answer-cards", None)
            if not shown["secrets"] and app.secrets_of(prompt.seats[0]):
                shown["secrets"] = True  # its question behind its cover: the secret (the Chief's dice) beside it
                await capture(d, "answer-secrets", "answer", seat=prompt.seats[0], covered=True)
            if not shown["dropped"] and not prompt.secret and len(prompt.seats) == 1 and shown.get("round2"):
                shown["dropped"] = True  # the seat asked had a phone, and it went: answered here
                await drop_a_phone(box, prompt.seats[0])
                await d.until(lambda s=prompt.seats[0]: s in app.dropped, 10)
                app.goto("board")
                await capture(d, "board-dropped", None)
            if not shown["revealing"] and prompt.secret and len(prompt.seats) == 1 and \
                    hasattr(table, "set_reveal_grace"):
                shown["revealing"] = True  # the last secret answer waits out its grace (no timer: shot at leisure)
                seat, loop = prompt.seats[0], table.loop
                table.loop = None
                table.set_reveal_grace(5)
                app.goto("board")
                table.answer(event)
                app.chosen[(seat, prompt.id)] = dict(event)
                await d.settle(2)
                await capture(d, "board-revealing", "board")
                await capture(d, "answer-revealing", "answer", seat=seat, covered=True)
                table.set_reveal_grace(0)
                table.reveal_now()
                table.loop = loop
                app.goto("board")
                await d.settle(1)
                continue
            if not shown["undo"] and table.can_undo:
                shown["undo"] = True
                app.goto("board")
                await d.settle(2)
                app.manager.get_screen("board").ask_undo()
                await capture(d, "confirm-undo", None)
            app.goto("board")
            table.answer(event)
            await d.settle(1)
            peeks = [w for w in d.widgets(Action) if getattr(w, "role", None) == "peek"]
            if not shown["peek"] and app.manager.current == "board" and peeks:
                shown["peek"] = True
                await capture(d, "board-dice", "board")
                await capture(d, "cover-peek", "cover", seat=peeks[0].seat, stage="before", purpose="peek")
                await capture(d, "peek", "cover", seat=peeks[0].seat, stage="secret", purpose="peek")
                app.goto("board")
            if not shown["revealed"] and app.view.get("revealed") and app.manager.current == "board":
                shown["revealed"] = True
                await capture(d, "board-revealed", "board")
            pinned = pinned_acts(app.public_lines, app.fresh_from, app.view.get("round"))
            if not shown["pinned"] and pinned and app.manager.current == "board":
                shown["pinned"] = True  # the step ended the round: its instructions stay on top of the new round
                await capture(d, "board-pinned", "board")
                lines = [w for w in reversed(app.manager.current_screen.ids.narration.children)
                         if isinstance(w, NarrationLine)]
                first = app.words.say(app.public_lines[pinned[0]].message)
                assert first in lines[0].text, (first, [w.text for w in lines[:3]])
                assert narration_in_order(app)
            if table.state.round == 2 and not shown.get("round2") and app.manager.current == "board":
                shown["round2"] = True
                await capture(d, "board-round2", "board")
                at_hand = table.rules_at_hand()  # "Why?" of a line that says its facts, and first-game mode
                said = [(at_hand.of(e.message), e.message) for e in app.public_lines]
                rule, message = next(((r, m) for r, m in reversed(said) if r and at_hand.now(r, m)), said[-1])
                await capture(d, "rules-why", "rules", items=[(rule, at_hand.now(rule, message))])
                met = list(dict.fromkeys(r for r, _ in said if r))[:2]
                await capture(d, "rules-first", "rules", items=[(r, None) for r in met], first=True)
        await capture(d, "history", "history")
        await capture(d, "end", "end")
        report["shown"] = shown
        import gc

        await asyncio.sleep(2.5)  # past the screens made ahead
        report["set_aside"] = gc.get_freeze_count()  # after changes of language: nothing (it could never be freed)

    try:
        await run_with(app, script)
    finally:
        await box.close()
    return report


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["game", "screens"])
    parser.add_argument("--out", required=True)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--game", default="mall-of-horror")
    parser.add_argument("--players", default="red,yellow,blue")
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--tmp", default=None)
    parser.add_argument("--phone", default=None, help="game: a phone (the page in Chromium) answers for this seat")
    parser.add_argument("--pad", default=None, help="game: a GPIO pad (gpiozero's mock pins) answers for this seat")
    parser.add_argument("--first-game", action="store_true", help="game: first-game mode, chosen on the form")
    args = parser.parse_args()
    if args.what == "game":
        report = asyncio.run(play_toy(args) if args.game == "lucky-die" else play_game(args))
        Path(args.out).write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    else:
        report = asyncio.run(all_screens(args))
        Path(args.out, "report.json").write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
