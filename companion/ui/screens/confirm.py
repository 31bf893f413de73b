"""A question to the table before something that cannot be taken back lightly: undo, closing a ballot. It says
what will happen (for an undo: how many steps may be taken back and the lines that go)."""

from __future__ import annotations

from collections.abc import Callable

from kivy.metrics import dp

from companion.contract import Refusal
from companion.ui.screens.base import BaseScreen
from companion.ui.widgets import DANGER, DIM, Text


class ConfirmScreen(BaseScreen):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.words: Callable[[], tuple[str, list[str], str]] = lambda: ("", [], "")
        self.action: Callable[[], None] | None = None
        self.error = ""

    def open(self, words: Callable[[], tuple[str, list[str], str]] | None = None,
             action: Callable[[], None] | None = None, **_options) -> None:
        """`words()` gives the title, the lines and the yes-button's text, in the language of the moment."""
        self.words, self.action, self.error = words or (lambda: ("", [], "")), action, ""
        self.keys.clear()

    def update(self, force: bool = False) -> None:
        app = self.app
        title, lines, yes = self.words()
        if not self.changed("confirm", (title, tuple(lines), yes, self.error), force):
            return
        ids = self.ids
        ids.title.text = title
        ids.yes.text = yes
        ids.no.text = app.t("ui.cancel")
        box = ids.lines
        box.clear_widgets()
        for line in lines:
            box.add_widget(Text(text=line, grow=True, size_hint_y=None, base_font=dp(16), halign="left"))
        if self.error:
            box.add_widget(Text(text=self.error, grow=True, size_hint_y=None, base_font=dp(16), ink=DANGER))
        if not lines and not self.error:
            box.add_widget(Text(text="", size_hint_y=None, height=dp(4), ink=DIM))

    def confirm(self) -> None:
        app = self.app
        try:
            if self.action is not None:
                self.action()
        except Refusal as refused:
            self.error = refused.text(app.lang)
            self.update(force=True)
            return
        app.goto("board")
