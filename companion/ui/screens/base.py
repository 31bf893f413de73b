"""What every screen has: it redraws from the app's view when told, and only what changed."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty
from kivy.uix.screenmanager import Screen


class BaseScreen(Screen):
    stale = BooleanProperty(False)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.keys: dict[str, object] = {}

    @property
    def app(self):
        return App.get_running_app()

    def open(self, **options) -> None:
        """Called before the screen is shown, with what it shows (a seat, a question...)."""

    def update(self, force: bool = False) -> None:
        """Redraw from the app's view."""

    def changed(self, part: str, key: object, force: bool = False) -> bool:
        """True when `part` must be redrawn: what it shows (`key`) or the language changed."""
        full = (self.app.lang, key)
        if not force and self.keys.get(part) == full:
            return False
        self.keys[part] = full
        return True
