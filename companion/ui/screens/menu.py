"""The table's menu: the language (switched at once, every word from the catalogue), the sound effects and the
spoken narration (a switch each, kept in the save file, and a line saying what the table hears), a new game,
correcting the board, the history, the statistics of every finished game (with or without a game on the table),
shutting the box down or restarting it (after a confirmation)."""

from __future__ import annotations

from kivy.metrics import dp

from companion.ui import fonts
from companion.ui.screens.base import BaseScreen
from companion.ui.widgets import DANGER, Action


class MenuScreen(BaseScreen):
    def update(self, force: bool = False) -> None:
        app = self.app
        sounds = app.sounds
        over = app.view is None or bool(app.view.get("over"))
        if not self.changed("menu", (app.view is None, over, sounds.muted, sounds.speech, sounds.hearing()), force):
            return
        self.ids.sounds.text = app.t("voice.effects_off" if sounds.muted else "voice.effects_on")
        self.ids.sounds.tone = "normal" if sounds.muted else "on"
        self.ids.speech.text = app.t("ui.speech_on" if sounds.speaks else "ui.speech_off")
        self.ids.speech.tone = "on" if sounds.speaks else "normal"
        self.ids.speech.enabled = sounds.voice.available
        self.ids.hearing.text = app.t(f"voice.hearing.{sounds.hearing()}")  # what plays, the switches aside
        self.ids.speech_note.text = "" if sounds.voice.available else app.t("ui.speech_missing", program="espeak-ng")
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
        self.ids.cjk.ink = DANGER
        self.ids.rules.disabled = app.view is None  # the rules of the game on the table
        self.ids.correct.disabled = app.view is None or bool(app.view.get("over"))  # its board, while it is played
        self.ids.back.disabled = app.view is None
        self.ids.back.opacity = 0 if app.view is None else 1

    def ask_power(self, action: str) -> None:
        """Shut down ("poweroff") or restart ("reboot") the box, once the table has said yes: the app stops, the box
        closes (the save file checkpointed), then the machine goes (companion.power.finish)."""
        app = self.app

        def words() -> tuple[str, list[str], str]:
            return (app.t(f"ui.power.{action}_confirm"), [app.t("ui.power.saved")], app.t(f"ui.power.{action}_yes"))

        def go() -> None:
            from kivy.clock import Clock

            from companion.ui.run import ask_power

            Clock.schedule_once(lambda _dt: ask_power(app, action))

        app.goto("confirm", words=words, action=go)

    def toggle_sounds(self) -> None:
        self.app.set_sound(muted=not self.app.sounds.muted)
        self.update()

    def toggle_speech(self) -> None:
        self.app.set_sound(speech=not self.app.sounds.speech)
        self.update()
