"""The touchscreen app: the table's own screen, on the box's asyncio loop.

It knows no game. It draws the board from the parts the game describes (companion/ui/parts.py), asks every
question by its kind for any seat (one at a time, secret ones behind a cover), shows the narration, and offers the
table's controls: join, undo with a confirmation (and why not, when it cannot), correcting the board, history with
the fairness of the cup, a new game, the language.
Layouts are in kv/ (one file per screen); the words are the catalogue's.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import math
import time
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics.opengl import glFinish
from kivy.lang import Builder
from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.box import Box
from companion.catalogue import LANGUAGES
from companion.contract import Line
from companion.ui import fonts, keyboard, parts, people
from companion.ui.sound import Sounds
from companion.ui.widgets import BG, Text
from companion.ui.words import Words

log = logging.getLogger("companion.ui")


def _layouts() -> Path:
    """The kv files: the installed package's companion/kv (a wheel), else the checkout's own kv/ (run from it)."""
    packaged = Path(__file__).resolve().parents[1] / "kv"
    return packaged if packaged.is_dir() else Path(__file__).resolve().parents[2] / "kv"


KV = _layouts()
LANG_SETTING = "screen_language"
MUTED_SETTING = "screen_muted"
SPEECH_SETTING = "screen_speech"

MADE_AHEAD = 2.0  # seconds after start when the end screen is made, before anyone needs it


class CompanionApp(App):
    lang = StringProperty("en")
    font = StringProperty("")
    view = ObjectProperty(None, allownone=True)  # the public view, None with no game
    connected = ListProperty([])  # seats with a phone connected
    dropped = ListProperty([])  # seats whose phone went and did not come back: answered on the screen

    def __init__(self, box: Box, lang: str | None = None, **kwargs):
        super().__init__(**kwargs)
        self.box = box
        fonts.learn_names(self._names_used())  # the faces the screen opens draw the people's names from the start
        self.words = Words(lang or self._setting(LANG_SETTING) or "en")
        self.sounds = Sounds(muted=bool(self._setting(MUTED_SETTING)), speech=bool(self._setting(SPEECH_SETTING)))
        self.listening = False  # lines there before the first refresh (a resumed game) are not heard again
        self.lang = self.words.lang
        self.font = self.words.font
        self.fresh_from = 0  # narration lines from this index on came with the current step
        self.prompt_id: str | None = None
        self.lines_seen = 0
        self.notice = ""  # news from the devices (a pad hub unplugged)
        self.redraws = 0  # frames drawn after a change (the bench reads it)
        self._unsubscribe = None
        self._refresh = Clock.create_trigger(self.refresh, 0)
        # Widgets dropped from the screen are cycles (kv bindings): collected soon, with their textures, rather than
        # whenever Python's collector gets round to it (the screen's memory would grow by a third meanwhile); and
        # just after a frame is shown, not between an answer and its frame.
        self._collect = Clock.create_trigger(self._collect_soon, 1)
        self._collect_due = False
        self._drawn_at = 0.0
        self.alerts = None  # over every screen: takeovers, storage problems (companion/ui/screens/join.py)
        self._set_aside = True  # what is made at the start is set aside from collections (until a new language)
        self._devices_seen = None
        self.explained: set[str] = set()  # first-game mode: the rules this screen has explained in this game
        self._explained_in = None  # ... in which game (the table's generation)
        # Pass-and-play: each secret answer given on this screen, by (seat, question id), marked as chosen behind
        # the cover while it may still be changed (the table keeps no one's choice where others may read it).
        self.chosen: dict[tuple[str, str], dict] = {}
        self._chosen_in = None  # ... in which game
        self.view_at = 0.0  # when the view was made: the grace's countdown runs from its "left"
        self._ticking = None  # the countdown's clock, while a grace runs
        self._had_phone: set[str] = set()  # seats that had a phone in this game (their drop is said)
        self._phones_in = None

    # -- words --------------------------------------------------------------------------------------------

    def t(self, key: str, _lang: str | None = None, **params) -> str:
        """A sentence in the table's language (kv passes app.lang to redraw on a change of language)."""
        return self.words.t(key, **params)

    def set_lang(self, code: str) -> None:
        if code not in LANGUAGES:
            return
        self.words.set(code)
        self.font = self.words.font
        self.lang = code
        # The screens' words are all made again: what was set aside as living as long as the app may be dropped now
        # (set aside, it would never be collected), and nothing is set aside any more.
        self._set_aside = False
        gc.unfreeze()
        for widget in self.root.walk(restrict=False) if self.root else ():
            if isinstance(widget, Text) and not getattr(widget, "fixed_font", False):
                widget.font_name = self.font
        if self.box.store is not None:
            try:
                self.box.store.set_setting(LANG_SETTING, code)
            except Exception:
                log.warning("the language could not be kept in the save file")
        self.refresh(force=True)

    def _names_used(self) -> list[str]:
        if self.box.store is None:
            return []
        try:
            return self.box.store.names_used()
        except Exception:  # a damaged setting: the names come as the games show them
            return []

    def _setting(self, key: str):
        if self.box.store is None:
            return None
        try:
            return self.box.store.setting(key)
        except Exception:  # an old save file without settings: the default
            return None

    def set_sound(self, muted: bool | None = None, speech: bool | None = None) -> None:
        """The mute switch and the spoken narration's switch, kept in the save file like the language."""
        for value, attribute, key in ((muted, "muted", MUTED_SETTING), (speech, "speech", SPEECH_SETTING)):
            if value is None:
                continue
            setattr(self.sounds, attribute, value)
            if self.box.store is not None:
                try:
                    self.box.store.set_setting(key, value)
                except Exception:
                    log.warning("the sound switches could not be kept in the save file")

    @property
    def no_cjk(self) -> bool:
        return fonts.missing_cjk()

    # -- the app ------------------------------------------------------------------------------------------

    @property
    def table(self):
        return self.box.table

    def build(self):
        self.title = self.words.t("ui.title")
        Window.clearcolor = BG
        keyboard.install()  # a text field's keyboard, docked on the screen (the box has none)
        Builder.load_file(str(KV / "widgets.kv"))
        self.manager = ScreenManager(transition=NoTransition())
        self.screen("board")  # the others are made the first time they are shown
        return self.manager

    def screen(self, name: str):
        """The screen called `name`, made (with its kv/<name>.kv) the first time it is asked for."""
        manager = self.manager
        if not manager.has_screen(name):
            from companion.ui import screens

            Builder.load_file(str(KV / f"{name}.kv"))
            manager.add_widget(screens.SCREEN_CLASSES[name](name=name))
        return manager.get_screen(name)

    def on_start(self) -> None:
        Window.bind(on_flip=self._drawn)
        self._unsubscribe = self.table.subscribe(self._refresh)
        self.box.tell = self._told
        from companion.ui.screens.join import Alerts

        self.alerts = Alerts(self)
        if self.box.server is not None:
            self.box.server.on_devices_changed = Clock.create_trigger(self._devices_changed, 0)
        Clock.schedule_interval(self._poll, 1.5)
        Window.bind(on_keyboard=self._key)
        self.refresh(force=True)
        if self.view is None:
            self.goto("newgame")
        Clock.schedule_once(self._make_ahead, MADE_AHEAD)
        if self._set_aside:
            gc.freeze()  # what is made by now lives as long as the app: later collections leave it alone

    def _make_ahead(self, _dt) -> None:
        """What a step would otherwise make while the table waits for its frame: the end screen (the last answer
        shows it at once) and the narration's lines."""
        self.screen("end").make_ahead()
        self.screen("board").make_ahead()
        # They too live as long as the app: out of every later collection, which would otherwise walk them all
        # (about 40,000 objects, 15-25 ms) each time it looks for the widgets a step dropped.
        if self._set_aside:
            gc.collect()
            gc.freeze()

    def on_stop(self) -> None:
        self.sounds.close()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _drawn(self, *_args) -> None:
        # One frame at a time: the next is not queued before this one is drawn. Software GL (llvmpipe) would
        # otherwise queue frames, each holding its memory, and a new text's texture would wait behind them all.
        glFinish()
        self._drawn_at = time.monotonic()
        if self._collect_due:
            self._collect_due = False
            asyncio.get_running_loop().call_later(0.01, gc.collect)

    def _collect_soon(self, _dt) -> None:
        if time.monotonic() - self._drawn_at > 0.5:
            gc.collect()  # the screen is still: now
        else:
            self._collect_due = True  # after the next frame

    def _told(self, message) -> None:
        self.notice = self.words.say(message)
        self._refresh()

    def _key(self, _window, key, *_args) -> bool:
        if key == 27:  # Escape / Android back: to the board, never out of the app
            if self.manager.current != "board" and self.view is not None:
                self.goto("board")
            return True
        return False

    def _devices_changed(self, _dt=None) -> None:
        """A seat's device came, went or asks for the seat, or a problem changed: the screens that show it."""
        server = self.box.server
        if server is None:
            return
        seen = (server.connected(), server.claimed(), sorted((s, r.id) for s, r in server.requests.items()),
                [(m.key, repr(m.params)) for m in server.problems.values()])
        if seen != self._devices_seen:
            self._devices_seen = seen
            self.connected = seen[0]
            self.dropped = self._dropped_seats(seen[0])
            self.refresh()

    def _poll(self, _dt) -> None:
        server = self.box.server
        connected = server.connected() if server is not None else []
        dropped = self._dropped_seats(connected)
        if connected != list(self.connected) or dropped != list(self.dropped):
            self.connected, self.dropped = connected, dropped
            self.refresh()

    def _dropped_seats(self, connected: list[str]) -> list[str]:
        """The seats whose phone went: the server's news where it gives it (a phone gone for a few seconds, not a
        reload), else the seats that had a phone in this game and have none now."""
        server, table = self.box.server, self.table
        if server is None or table is None or table.state is None or table.state.over:
            return []
        if hasattr(server, "dropped"):
            return sorted(server.dropped())
        if self._phones_in != table.generation:
            self._phones_in, self._had_phone = table.generation, set()
        self._had_phone.update(connected)
        return sorted(self._had_phone - set(connected))

    # -- keeping up with the table ------------------------------------------------------------------------

    def refresh(self, *_args, force: bool = False) -> None:
        table = self.table
        self.view = table.view(None) if table is not None and table.state is not None else None
        self.view_at = time.monotonic()
        view = self.view
        if table is not None and self._chosen_in != table.generation:
            self._chosen_in, self.chosen = table.generation, {}
        self._count_down(view)
        self.words.names = dict(view["names"]) if view is not None else {}
        people.learn(self, self.words.names.values())  # a name in a script the faces lack: cut again, elsewhere
        public = [entry for entry in table.narration() if not entry.seats] if view is not None else []
        prompt_id = view["prompt"]["id"] if view and view.get("prompt") else None
        if prompt_id != self.prompt_id or len(public) < self.lines_seen:
            # A new step: the lines it brought stand out until the next one.
            self.fresh_from = min(self.lines_seen, len(public))
            self.prompt_id = prompt_id
        if self.listening and len(public) > self.lines_seen:
            self._hear(public[self.lines_seen:])
        self.listening = True
        self.lines_seen = len(public)
        self.public_lines = public
        Window.allow_screensaver = view is None or bool(view.get("over"))  # no blanking during a game
        if self.alerts is not None:
            self.alerts.update()
        current = self.manager.current
        if view is None and current not in ("newgame", "menu", "stats"):
            self.goto("newgame")
            return
        if view is not None and view.get("over") and current in ("board", "answer", "cover", "confirm", "correct"):
            self.goto("end")
            return
        if view is not None and not view.get("over") and current == "end":
            self.goto("board")
            return
        if view is not None and view.get("first") and current == "board" and self._explain_first(view["first"]):
            return
        screen = self.manager.current_screen
        screen.update(force=force)
        self._collect()
        if force:
            for other in self.manager.screens:
                if other is not screen:
                    other.stale = True
        self.redraws += 1

    def _explain_first(self, first: list[str], back: str = "board") -> bool:
        """First-game mode: the rules this moment meets for the first time are explained before the table goes on
        (each once in a game, then "Got it" back to the board). True if the screen went to them."""
        if self._explained_in != self.table.generation:
            self._explained_in, self.explained = self.table.generation, set()
        new = [rule for rule in first if rule not in self.explained]
        if not new:
            return False
        self.explained.update(new)
        self.goto("rules", items=[(rule, None) for rule in new], first=True, back=back)
        return True

    def _hear(self, lines: list[Line]) -> None:
        """A step's new public lines are heard once the screen shows them (the next frame): their sounds unless the
        effects are off, and the lines spoken when speech is on (each switch applied by Sounds.hear)."""
        if self.sounds.muted and not self.sounds.speaks:
            return
        said = [(entry.message.key, self.words.say(entry.message)) for entry in lines]
        game_sounds = getattr(self.table.rules, "SOUNDS", None) or {}
        Clock.schedule_once(lambda _dt: self.sounds.hear(said, self.lang, game_sounds), 0)

    def goto(self, name: str, **options) -> None:
        if name in ("board", "end") and self.view is not None and self.view.get("first") \
                and self._explain_first(self.view["first"], back=name):
            return  # first-game mode: what the table meets for the first time, before the board (or the end)
        screen = self.screen(name)
        screen.open(**options)
        self.manager.current = name
        if self.alerts is not None:
            self.alerts.update()
        screen.update(force=getattr(screen, "stale", False))
        screen.stale = False

    # -- what the screens share ---------------------------------------------------------------------------

    def colour(self, seat: str) -> str:
        """A seat's colour, with its person's name where one was given ("Anna (Red)")."""
        return self.words.seat(seat)

    def answer_for(self, seat: str) -> None:
        """Answer `seat`'s question on the screen. Where the question would show a secret (the seat's own dice, its
        ballot, its earlier secret answer to change), the screen is first handed to the seat behind the cover; a
        question that shows none opens at once (a fresh ballot: the seat's tap, its answer, done)."""
        question = self.table.question(seat) if self.table.state is not None else None
        if question is None:
            return
        from companion.ui.screens.answer import is_secret

        shows_secret = bool(self.secrets_of(seat)) or (is_secret(question) and (
            question.answered or (seat, question.id) in self.chosen))
        if shows_secret:
            self.goto("cover", seat=seat, stage="before")
        else:
            self.goto("answer", seat=seat)

    def peek(self, seat: str, back: str = "board", back_options: dict | None = None) -> None:
        """`seat` looks at its secrets (its dice...): behind the cover, hidden again before the screen goes back."""
        self.goto("cover", seat=seat, stage="before", purpose="peek", back=back, back_options=back_options)

    def secrets_of(self, seat: str) -> list:
        """What `seat` alone may look at now (what, reveal(), urgent): shown only behind its cover."""
        if self.table.state is None:
            return []
        return parts.secrets(self.table.view(seat), self.words)

    def on_screen(self, seat: str) -> bool:
        """The seat answers on this screen: it has no phone connected (or its phone went)."""
        return seat not in self.connected

    def revealing_left(self, question: str | None = None) -> int | None:
        """Whole seconds left of the grace before a secret question's reveal (of `question`, when named), or None:
        asked of the table itself (the view carries the seconds left as of its last change of the board)."""
        table = self.table
        if table is None or table.state is None:
            return None
        fresh = getattr(table, "revealing", None)
        revealing = fresh() if callable(fresh) else (self.view or {}).get("revealing")
        if not revealing or (question is not None and revealing.get("question") != question):
            return None
        left = float(revealing.get("left") or 0) - (0 if callable(fresh) else time.monotonic() - self.view_at)
        return max(0, math.ceil(left))

    def held_seat(self) -> str | None:
        """The seat whose last secret answer waits out its grace (it may change it meanwhile), or None."""
        held = getattr(self.table, "held", None) if self.table is not None else None
        return getattr(held, "seat", None)

    def _count_down(self, view: dict | None) -> None:
        """While a grace runs, the screen's countdown is told the time four times a second."""
        running = bool(view and view.get("revealing"))
        if running and self._ticking is None:
            self._ticking = Clock.schedule_interval(self._tick, 0.25)
        elif not running and self._ticking is not None:
            self._ticking.cancel()
            self._ticking = None

    def _tick(self, _dt) -> None:
        screen = self.manager.current_screen if self.manager is not None else None
        if screen is not None and hasattr(screen, "countdown"):
            screen.countdown()

    def undo_preview(self) -> list[Line]:
        """The public lines the next undo takes back (what the confirmation says)."""
        table = self.table
        states = getattr(table, "_undoable", None)
        if not states:
            return []
        before = len([e for e in table.rules.narration(states[-1]) if not e.seats])
        return [e for e in table.narration() if not e.seats][before:]
