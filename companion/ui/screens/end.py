"""The end: the scores, the winners, and the narration of the game's last moments (why rescue came, how a tie was
broken): every line of the last step, and the lines before it up to a screenful; the whole game is in History."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.ui.screens.base import BaseScreen
from companion.ui.widgets import ACT, DIM, GOOD, Chip, Text

LINES = 12  # at least this many lines of the end, more when the last step brought more


class EndScreen(BaseScreen):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        # Made ahead of the game's end (app.on_start): laid out at the window's size now, so that the last answer
        # only fills it in.
        Clock.schedule_once(lambda _dt: setattr(self, "size", Window.size), 0)

    def update(self, force: bool = False) -> None:
        app = self.app
        view = app.view
        if view is None:
            return
        key = (repr(view.get("scores")), repr(view.get("winners")), view.get("round"), len(app.public_lines))
        if not self.changed("end", key, force):
            return
        ids = self.ids
        winners = list(view.get("winners") or [])
        ids.title.text = app.t("ui.winners" if len(winners) > 1 else "ui.winner", colours=winners) if winners \
            else app.t("ui.game_over")
        scores = ids.scores
        scores.clear_widgets()
        renderer = app.renderer()
        rows = renderer.over(view, app.words) if renderer is not None and hasattr(renderer, "over") else \
            [(seat, "", seat in winners) for seat in view.get("players") or []]
        for seat, score, won in rows:
            # Made at the width the scores' box gives it: its texts are fitted once, not first at Kivy's 100 px.
            row = BoxLayout(size_hint_y=None, height=dp(48), spacing=dp(6), width=scores.width)
            row.add_widget(Chip(seat, app.colour(seat), font=dp(22), size_hint_x=0.5))
            row.add_widget(Text(text=score, base_font=dp(22), ink=GOOD if won else (1, 1, 1, 1),
                                size_hint_x=0.28, wrap=False))
            row.add_widget(Text(text=app.t("ui.won") if won else "", base_font=dp(17), ink=GOOD,
                                size_hint_x=0.22))
            scores.add_widget(row)
        scores.add_widget(Widget())
        lines = ids.lines
        lines.clear_widgets()
        public = app.public_lines
        last = public[max(0, min(app.fresh_from, len(public) - LINES)):]
        for entry in reversed(last):  # newest first: who won, why rescue came
            lines.add_widget(Text(text=app.words.say(entry.message), grow=True, size_hint_y=None, base_font=dp(14),
                                  halign="left", ink=ACT if entry.act else DIM, width=lines.width))
