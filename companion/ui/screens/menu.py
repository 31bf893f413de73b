"""The table's menu: the language (switched at once, every word from the catalogue), a new game, the history."""

from __future__ import annotations

from kivy.metrics import dp

from companion.ui import fonts
from companion.ui.screens.base import BaseScreen
from companion.ui.widgets import DANGER, Action


class MenuScreen(BaseScreen):
    def update(self, force: bool = False) -> None:
        app = self.app
        if not self.changed("menu", (app.view is None,), force):
            return
        box = self.ids.languages
        box.clear_widgets()
        for code, name in app.words.languages().items():
            button = Action(text=name, tone="on" if code == app.lang else "normal", base_font=dp(20),
                            font_name=fonts.font_for(code))
            button.fixed_font = True
            button.language = code
            button.bind(on_release=lambda _b, c=code: app.set_lang(c))
            box.add_widget(button)
        self.ids.cjk.text = app.t("ui.no_cjk_font", package="fonts-noto-cjk") if app.no_cjk else ""
        self.ids.cjk.color = DANGER
        self.ids.back.disabled = app.view is None
        self.ids.back.opacity = 0 if app.view is None else 1



