"""A new game, from the games' own forms: the game, the players in seating order, a name for each seat if the table
wants one (the names used before offered as buttons), the table options with their defaults, the language. Start, or
continue a game in progress: started the same way, then its board entered as it lies on the table (the board editor).

A name is typed with Kivy's own keyboard, docked at the bottom of the screen while a name's field has the focus (the
box has no keyboard: companion/ui/run.py); the form then makes room above it and shows the field."""

from __future__ import annotations

import logging

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.textinput import TextInput

from companion.catalogue import catalogue
from companion.contract import Message, Refusal
from companion.games import GAMES
from companion.ui import fonts, keyboard, people
from companion.ui.screens.base import BaseScreen
from companion.ui.widgets import DANGER, DIM, INK, TARGET, Action, Mark, Text

log = logging.getLogger("companion.ui")

LABEL_WIDTH = dp(150)  # the form's row labels
GRACE_MOST = 5  # seconds: the longest grace before a reveal the table takes (companion/table.py)
USED_SHOWN = 8  # names used before offered at once (the latest): two rows of buttons
WIDE_FROM = "\u2e80"  # from here on, characters the Latin font lacks (CJK and the forms around it)
FIELD = (0.2, 0.21, 0.25, 1)  # a name's field, and with the focus
FIELD_FOCUS = (0.3, 0.32, 0.4, 1)


class NewGameScreen(BaseScreen):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.game = next(iter(GAMES))
        self.players: list[str] = []
        self.options: dict = {}
        self.refusal: Refusal | None = None  # why Start was refused, said in the screen's language
        self.fields: dict[str, TextInput] = {}  # a name's field by seat colour, kept while the form is drawn again
        self.used: list[str] = []  # the names given before in this save file, the latest first
        self.used_buttons: list[Action] = []  # ... as the form offers them
        self._room = Clock.create_trigger(self._make_room, 0)

    def on_kv_post(self, base_widget) -> None:
        super().on_kv_post(base_widget)
        self.actions = self.ids.actions  # held here: kv's ids are weak, and the row leaves the page while typing

    @property
    def error(self) -> str:
        return self.refusal.text(self.app.lang) if self.refusal is not None else ""

    def open(self, **_options) -> None:
        self.refusal = None
        self.keys.clear()
        self.used = self._names_used()
        people.learn(self.app, self.used[:USED_SHOWN], done=lambda: self.update(force=True))

    def on_leave(self, *args) -> None:
        for field in self.fields.values():  # the keyboard goes with the form
            field.focus = False
        return super().on_leave(*args)

    def _names_used(self) -> list[str]:
        app = self.app
        store = app.box.store if app.box.store is not None else getattr(app.table, "store", None)
        if store is None:
            return []
        try:
            return store.names_used()
        except Exception:  # noqa: BLE001 - a save file that cannot be read: no names offered, the form still works
            log.warning("the names used before could not be read from the save file")
            return []

    def update(self, force: bool = False) -> None:
        app = self.app
        if self.game not in GAMES:
            self.game = next(iter(GAMES))
        setup = GAMES[self.game].SETUP
        key = (self.game, tuple(self.players), repr(sorted(self.options.items())), repr(self.refusal), app.view is None,
               app.table.first_game_mode, getattr(app.table, "reveal_grace", None))
        if not self.changed("form", key, force):
            return
        words = app.words
        ids = self.ids
        ids.title.text = app.t("ui.new_game_title", game=setup.title)
        ids.back.disabled = app.view is None
        ids.back.opacity = 0 if app.view is None else 1
        ids.back.size_hint_x = 0.001 if app.view is None else 0.3  # no gap where it is not (Statistics at the edge)
        form = ids.form
        for field in self.fields.values():  # kept (with its text and focus), laid out again below
            if field.parent is not None:
                field.parent.remove_widget(field)
        form.clear_widgets()
        self.used_buttons = []
        if self.error:  # at the top, where the form is scrolled to: the line is seen where it is said
            form.add_widget(Text(text=self.error, grow=True, size_hint_y=None, base_font=dp(15), ink=DANGER))
            ids.scroll.scroll_y = 1
        # The language first: a table that does not read the screen's language finds its own at once.
        row = self._row(app.t("ui.language"))
        for code, name in words.languages().items():
            button = Action(text=name, tone="on" if code == app.lang else "normal", base_font=dp(15),
                            font_name=fonts.font_for(code))
            button.fixed_font = True
            button.bind(on_release=lambda _b, c=code: app.set_lang(c))
            row.add_widget(button)
        form.add_widget(row)
        if len(GAMES) > 1:
            row = self._row(app.t("ui.game"))
            for name, game in GAMES.items():
                button = Action(text=words.say(game.SETUP.title), tone="on" if name == self.game else "normal")
                button.game = name
                button.bind(on_release=lambda _b, n=name: self._set(game=n))
                row.add_widget(button)
            form.add_widget(row)
        hint = app.t("ui.players_hint", low=setup.min_players, high=setup.max_players)
        if setup.note is not None:
            hint += " " + self._plain(setup.note)  # its colours alone: the names on the table are another game's
        form.add_widget(Text(text=hint, grow=True, size_hint_y=None, base_font=dp(14), ink=DIM, halign="left"))
        colours = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(4))
        for colour in setup.colours:
            on = colour in self.players
            name = app.t(f"colour.{colour}")  # the colour alone: the names are the game's, after its start
            label = f"{self.players.index(colour) + 1}. {name}" if on else name
            button = Action(text=label, tone="on" if on else "normal", base_font=dp(16))
            button.colour = colour
            button.add_widget(Mark(seat=colour, size=(dp(16), dp(16))))
            button.bind(pos=_corner, size=_corner)
            button.bind(on_release=lambda _b, c=colour: self._toggle(c))
            colours.add_widget(button)
        form.add_widget(colours)
        if self.players:
            self._names(form)
        for option in setup.options:
            row = self._row(words.say(option.label))
            current = self.options.get(option.name, option.default)
            for choice in option.choices:
                value = {"true": True, "false": False}.get(choice.value, choice.value)
                button = Action(text=words.say(choice.label), tone="on" if value == current else "normal",
                                base_font=dp(14))
                button.bind(on_release=lambda _b, n=option.name, v=value: self._option(n, v))
                row.add_widget(button)
            form.add_widget(row)
        first = app.table.first_game_mode
        row = self._row(app.t("rules.menu"))
        button = Action(text=app.t("rules.first_game"), tone="on" if first else "normal", base_font=dp(14))
        button.role = "first_game"
        button.bind(on_release=lambda _b: self._first_game(not first))
        row.add_widget(button)
        form.add_widget(row)
        self._grace(form)
        count = len(self.players)
        ids.start.enabled = ids.continue_game.enabled = setup.min_players <= count <= setup.max_players
        ids.start.text = app.t("ui.start_game", count=count)
        ids.continue_game.text = app.t("ui.continue_game")

    def _grace(self, form) -> None:
        """The seconds the last secret answer waits before its reveal (a mis-tap changed meanwhile): the table's
        own setting, kept in the save file, set here for this game and the next."""
        app = self.app
        table = app.table
        if not hasattr(table, "set_reveal_grace"):
            return
        row = self._row(app.t("ui.reveal_grace"))
        for seconds in range(GRACE_MOST + 1):
            button = Action(text=app.t("ui.touch.seconds", seconds=seconds), base_font=dp(15),
                            tone="on" if seconds == table.reveal_grace else "normal")
            button.grace = seconds
            button.bind(on_release=lambda _b, n=seconds: self._set_grace(n))
            row.add_widget(button)
        form.add_widget(row)

    def _set_grace(self, seconds: int) -> None:
        try:
            self.app.table.set_reveal_grace(seconds)
        except Refusal as refused:
            self.refusal = refused
        self.update(force=True)

    def _names(self, form) -> None:
        """A name's field for each seat chosen (in seating order, two to a row), then the names used before."""
        app = self.app
        hint = app.t("names.hint") + " " + app.t("ui.people.keyboard")
        form.add_widget(Text(text=app.t("names.label"), size_hint_y=None, height=dp(26), base_font=dp(16),
                             halign="left"))
        form.add_widget(Text(text=hint, grow=True, size_hint_y=None, base_font=dp(13), ink=DIM, halign="left"))
        grid = GridLayout(cols=2, spacing=dp(6), size_hint_y=None, row_default_height=TARGET,
                          row_force_default=True)
        grid.bind(minimum_height=grid.setter("height"))
        for colour in self.players:
            cell = BoxLayout(spacing=dp(6))
            cell.add_widget(Mark(seat=colour, size_hint=(None, None), size=(dp(22), dp(22)),
                                 pos_hint={"center_y": 0.5}))
            cell.add_widget(self._field(colour))
            grid.add_widget(cell)
        form.add_widget(grid)
        if not self.used:
            return
        row = self._row(app.t("names.used_before"))
        shown = self.used[:USED_SHOWN]
        buttons = GridLayout(cols=4, spacing=dp(4))
        for name in shown:
            button = Action(text=name, base_font=dp(15))
            button.used_name = name
            button.bind(on_release=lambda _b, n=name: self.use_name(n))
            buttons.add_widget(button)
            self.used_buttons.append(button)
        self._tones()
        row.height = (dp(52) + dp(4)) * ((len(shown) + 3) // 4) - dp(4)
        row.add_widget(buttons)
        form.add_widget(row)

    def _field(self, colour: str) -> TextInput:
        """The field of a seat's name (made once per colour): one line, its seat said in its hint."""
        field = self.fields.get(colour)
        if field is None:
            field = TextInput(multiline=False, write_tab=False, font_size=dp(18), padding=[dp(8), dp(12)],
                              background_normal="", background_active="", background_color=FIELD,
                              foreground_color=INK, cursor_color=INK, hint_text_color=DIM)
            field.seat = colour
            field.unfocus_on_touch = False  # a tap elsewhere (a name used before) leaves the keyboard up: ⏎ closes it
            field.bind(focus=self._focused, text=self._tones)
            field.bind(text=self._face)
            self.fields[colour] = field
        field.hint_text = self._plain(Message("names.field", {"seat": colour}))
        self._face(field)
        return field

    def _face(self, field: TextInput, *_args) -> None:
        """The screen's font, or the Chinese face for a name the Latin font cannot draw (陈 on a screen in English),
        as every text of the screen does (companion/ui/widgets.py Text)."""
        font = self.app.font
        if font == fonts.latin() and any(c >= WIDE_FROM for c in field.text):
            font = fonts.wide_font() or font
        if field.font_name != font:
            field.font_name = font

    def _plain(self, message: Message) -> str:
        """A sentence whose seats are their colours alone: the names on the table are its game's, not the form's."""
        words = self.app.words
        words.used.add(message.key)
        return catalogue().text(message, words.lang)

    def _focused(self, field: TextInput, focus: bool) -> None:
        field.background_color = FIELD_FOCUS if focus else FIELD
        self._room()

    def _make_room(self, _dt=None) -> None:
        """While a name is typed, the screen's keyboard covers the bottom of it: the form (and Start) stand above
        the keyboard, and the field with the focus is scrolled into view."""
        focused = next((field for field in self.fields.values() if field.focus and field.parent is not None), None)
        room = keyboard.height() if focused is not None else 0
        self.ids.page.padding = [dp(6), dp(6), dp(6), dp(6) + room]
        # Start and its row wait while a name is typed: the form keeps the room (the keyboard's ⏎ closes it).
        actions = self.actions
        if room and actions.parent is not None:
            actions.parent.remove_widget(actions)
        elif not room and actions.parent is None:
            self.ids.page.add_widget(actions, index=0)
        if focused is not None:
            Clock.schedule_once(lambda _dt: self.ids.scroll.scroll_to(focused.parent, padding=dp(6),
                                                                       animate=False), 0)

    @property
    def keyboard_room(self) -> float:
        """How much of the screen's bottom the form leaves to the keyboard now (the tests read it)."""
        return self.ids.page.padding[3] - dp(6)

    def use_name(self, name: str) -> None:
        """A name used before, tapped: into the field with the focus (the keyboard then moves on to the next empty
        one), else into the first empty one, in seating order."""
        chosen = [self.fields[c] for c in self.players if c in self.fields]
        focused = next((f for f in chosen if f.focus), None)
        target = focused or next((f for f in chosen if not f.text.strip()), None)
        if target is None:
            return
        target.text = name
        if focused is not None:
            following = chosen[chosen.index(focused) + 1:] + chosen[:chosen.index(focused)]
            after = next((f for f in following if not f.text.strip()), None)
            if after is not None:
                after.focus = True
            else:
                focused.focus = False

    def _tones(self, *_args) -> None:
        """A name used before is lit while a field holds it."""
        typed = {field.text.strip().casefold() for field in self.fields.values() if field.parent is not None}
        for button in self.used_buttons:
            button.tone = "on" if button.used_name.casefold() in typed else "normal"

    def names(self) -> dict[str, str]:
        """The names typed for the seats chosen, as typed (the table checks them)."""
        return {c: self.fields[c].text for c in self.players if c in self.fields and self.fields[c].text != ""}

    def _row(self, label: str) -> BoxLayout:
        """A row of the form: its label in a column of its own width (not a share of the buttons': "Gam/e" once
        wrapped beside four games), then its buttons."""
        row = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(4))
        row.add_widget(Text(text=label, base_font=dp(14), min_font=dp(9), halign="left", size_hint_x=None,
                            width=LABEL_WIDTH, ink=DIM))
        return row

    def _set(self, game: str) -> None:
        self.game, self.players, self.options = game, [], {}
        self.update()

    def _toggle(self, colour: str) -> None:
        if colour in self.players:
            self.players.remove(colour)
        else:
            self.players.append(colour)
        self.update()

    def _option(self, name: str, value: object) -> None:
        self.options[name] = value
        self.update()

    def _first_game(self, on: bool) -> None:
        self.app.box.set_first_game_mode(on)
        self.update()

    def clear(self) -> None:
        self.players = []
        for field in self.fields.values():
            field.focus = False
            field.text = ""
        self.update()

    def start(self, entering: bool = False) -> None:
        """Start the game chosen; `entering`: a game in progress, whose board the table then enters as it lies."""
        app = self.app
        setup = GAMES[self.game].SETUP
        options = {o.name: self.options.get(o.name, o.default) for o in setup.options}
        try:
            app.table.new_game(self.game, list(self.players), options, names=self.names() or None)
        except Refusal as refused:
            self.refusal = refused
            self.update(force=True)
            return
        self.players, self.options, self.refusal = [], {}, None
        for field in self.fields.values():
            field.focus = False
            field.text = ""
        then = "join" if app.box.server is not None else "board"
        if entering:
            app.goto("correct", then=then, entering=True)
        else:
            app.goto(then)


def _corner(button, *_args) -> None:
    for child in button.children:
        if isinstance(child, Mark):
            child.pos = (button.x + dp(4), button.top - dp(20))
