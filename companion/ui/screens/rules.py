"""The rule at hand on the touchscreen: the rule behind a line of the narration or a question ("Why?"), the rules a
first game meets for the first time (first-game mode: read, then "Got it"), or the game's whole book by phase with
the table options in force. Every word comes from the view's `rules` (companion/rulebook.py) and the catalogue."""

from __future__ import annotations

from kivy.metrics import dp

from companion.contract import Message
from companion.ui.screens.base import BaseScreen
from companion.ui.widgets import ACT, DIM, Text


class RulesScreen(BaseScreen):
    items: list[tuple[str, dict | None]] = []  # (rule id, the moment's facts) to show; [] for the whole book
    first = False  # first-game mode: the rules met for the first time, and "Got it"
    back = "board"
    back_options: dict = {}

    def open(self, items: list[tuple[str, dict | None]] = (), first: bool = False, back: str = "board",
             back_options: dict | None = None, **_options) -> None:
        self.items, self.first, self.back, self.back_options = list(items), first, back, dict(back_options or {})
        self.keys.clear()

    def update(self, force: bool = False) -> None:
        app = self.app
        view = app.view
        if not self.changed("rules", (repr(self.items), self.first, view is None), force):
            return
        ids = self.ids
        ids.close.text = app.t("rules.got_it" if self.first else "rules.close")
        box = ids.lines
        box.clear_widgets()
        if view is None:
            return
        say = app.words.say
        if self.items:
            words = view.get("rules") or {}
            at_hand = app.table.rules_at_hand()
            for n, (rule, now) in enumerate(self.items):
                told = words.get(rule) or at_hand.words(rule)
                title = say(_message(told["title"]))
                heading = app.t("rules.first", title=title) if self.first else title
                if n == 0:
                    ids.title.text = heading  # the first rule's heading is the screen's title
                else:
                    box.add_widget(_text(heading, dp(18), ACT))
                box.add_widget(_text(say(_message(told["text"])), dp(17)))
                if now is not None:
                    box.add_widget(_text(say(_message(now)), dp(16), ACT))
                for note in told["options"]:
                    box.add_widget(_text(say(_message(note)), dp(15), DIM))
            if self.first and app.sounds.speech:
                app.sounds.hear([("rules.first", t.text) for t in reversed(box.children)], app.lang, {})
            return
        rules = app.table.rules
        ids.title.text = app.t("rules.heading", game=rules.SETUP.title)
        for phase in app.table.rules_at_hand().whole():
            box.add_widget(_text(say(_message(phase["phase"])), dp(19), ACT))
            for rule in phase["rules"]:
                box.add_widget(_text(say(_message(rule["title"])), dp(16)))
                box.add_widget(_text(say(_message(rule["text"])), dp(14), (0.85, 0.85, 0.85, 1)))
                for note in rule["options"]:
                    box.add_widget(_text(say(_message(note)), dp(14), DIM))

    def leave(self) -> None:
        if self.app.view is None:
            self.app.goto("newgame")
        else:
            self.app.goto(self.back, **self.back_options)


def _message(json: dict) -> Message:
    return Message(json["key"], json.get("params", {}))


def _text(text: str, size: float, ink=(0.95, 0.95, 0.95, 1)) -> Text:
    return Text(text=text, grow=True, size_hint_y=None, base_font=size, halign="left", ink=ink)
