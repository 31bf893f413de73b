"""A new game, from the games' own forms: the game, the players in seating order, the table options with their
defaults, the language. Start, or continue a game in progress: started the same way, then its board entered as it
lies on the table (the board editor)."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.contract import Refusal
from companion.games import GAMES
from companion.ui import fonts
from companion.ui.screens.base import BaseScreen
from companion.ui.widgets import DANGER, DIM, Action, Mark, Text


class NewGameScreen(BaseScreen):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.game = next(iter(GAMES))
        self.players: list[str] = []
        self.options: dict = {}
        self.error = ""

    def open(self, **_options) -> None:
        self.error = ""
        self.keys.clear()

    def update(self, force: bool = False) -> None:
        app = self.app
        if self.game not in GAMES:
            self.game = next(iter(GAMES))
        setup = GAMES[self.game].SETUP
        key = (self.game, tuple(self.players), repr(sorted(self.options.items())), self.error, app.view is None,
               app.table.first_game_mode)
        if not self.changed("form", key, force):
            return
        words = app.words
        ids = self.ids
        ids.title.text = app.t("ui.new_game_title", game=setup.title)
        ids.back.disabled = app.view is None
        ids.back.opacity = 0 if app.view is None else 1
        form = ids.form
        form.clear_widgets()
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
            hint += " " + words.say(setup.note)
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
        row = self._row(app.t("ui.language"))
        for code, name in words.languages().items():
            button = Action(text=name, tone="on" if code == app.lang else "normal", base_font=dp(15),
                            font_name=fonts.font_for(code))
            button.fixed_font = True
            button.bind(on_release=lambda _b, c=code: app.set_lang(c))
            row.add_widget(button)
        form.add_widget(row)
        if self.error:
            form.add_widget(Text(text=self.error, grow=True, size_hint_y=None, base_font=dp(15), ink=DANGER))
        count = len(self.players)
        ids.start.enabled = ids.continue_game.enabled = setup.min_players <= count <= setup.max_players
        ids.start.text = app.t("ui.start_game", count=count)
        ids.continue_game.text = app.t("ui.continue_game")

    def _row(self, label: str) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(4))
        row.add_widget(Text(text=label, base_font=dp(14), min_font=dp(9), halign="left", size_hint_x=0.28,
                            ink=DIM))
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
        self.update()

    def start(self, entering: bool = False) -> None:
        """Start the game chosen; `entering`: a game in progress, whose board the table then enters as it lies."""
        app = self.app
        setup = GAMES[self.game].SETUP
        options = {o.name: self.options.get(o.name, o.default) for o in setup.options}
        try:
            app.table.new_game(self.game, list(self.players), options)
        except Refusal as refused:
            self.error = refused.text(app.lang)
            self.update(force=True)
            return
        self.players, self.options, self.error = [], {}, ""
        then = "join" if app.box.server is not None else "board"
        if entering:
            app.goto("correct", then=then, entering=True)
        else:
            app.goto(then)


def _corner(button, *_args) -> None:
    for child in button.children:
        if isinstance(child, Mark):
            child.pos = (button.x + dp(4), button.top - dp(20))
