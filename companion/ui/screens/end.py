"""The end: the scores, the winners, and the narration of the game's last moments (why rescue came, how a tie was
broken): every line of the last step, and the lines before it up to a screenful; the whole game is in History."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.ui import parts
from companion.ui.screens.base import BaseScreen
from companion.ui.widgets import ACT, DIM, GOOD, Chip, Text, show_only

LINES = 12  # at least this many lines of the end, more when the last step brought more


class EndScreen(BaseScreen):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.rows: dict[str, tuple] = {}  # by seat: its row, its score and its "won"
        self.line_widgets: list[Text] = []
        self.filler = Widget()  # below the rows
        # Made ahead of the game's end (app.on_start): laid out at the window's size now, so that the last answer
        # only fills it in.
        Clock.schedule_once(lambda _dt: setattr(self, "size", Window.size), 0)

    def make_ahead(self) -> None:
        """The rows of the game's players and the lines, made now and placed on the screen (laid out with it while
        nobody sees it): the last answer only gives them their words, each text rendered once at its width."""
        view = self.app.view
        rows = [self._row(seat)[0] for seat in (view.get("players") or [])] if view else []
        while len(self.line_widgets) < LINES:
            self.line_widgets.append(self._line())
        show_only(self.ids.scores, rows + [self.filler])
        show_only(self.ids.lines, list(self.line_widgets))

    def _row(self, seat: str) -> tuple:
        app = self.app
        if seat not in self.rows:
            # Made at the width the scores' box gives it: its texts are fitted once, not first at Kivy's 100 px.
            row = BoxLayout(size_hint_y=None, height=dp(48), spacing=dp(6), width=self.ids.scores.width)
            row.add_widget(Chip(seat, app.colour(seat), font=dp(22), size_hint_x=0.44))
            score = Text(text="", base_font=dp(22), size_hint_x=0.26, wrap=False)
            won = Text(text="", base_font=dp(17), ink=GOOD, size_hint_x=0.3)  # wide enough for "winner" unbroken
            row.add_widget(score)
            row.add_widget(won)
            self.rows[seat] = (row, score, won)
        return self.rows[seat]

    def _line(self) -> Text:
        return Text(text="", grow=True, size_hint_y=None, base_font=dp(14), halign="left", ink=DIM,
                    width=self.ids.lines.width)

    def update(self, force: bool = False) -> None:
        app = self.app
        view = app.view
        if view is None:
            return
        key = (repr(view.get("scores")), repr(view.get("winners")), view.get("round"), len(app.public_lines))
        if not self.changed("end", key, force):
            return
        if force:  # a new language: the rows say their seat in it
            self.rows, self.line_widgets = {}, []
        ids = self.ids
        winners = list(view.get("winners") or [])
        ids.title.text = app.t("ui.winners" if len(winners) > 1 else "ui.winner", colours=winners) if winners \
            else app.t("ui.game_over")
        rows = parts.over(view, app.words) or [(seat, "", seat in winners) for seat in view.get("players") or []]
        shown = []
        for seat, score, won in rows:
            row, score_text, won_text = self._row(seat)
            score_text.text = score
            score_text.ink = GOOD if won else (1, 1, 1, 1)
            won_text.text = app.t("ui.won") if won else ""
            shown.append(row)
        show_only(ids.scores, shown + [self.filler])
        public = app.public_lines
        last = public[max(0, min(app.fresh_from, len(public) - LINES)):]
        while len(self.line_widgets) < len(last):
            self.line_widgets.append(self._line())
        lines = []
        for widget, entry in zip(self.line_widgets, reversed(last), strict=False):  # newest first: who won, why
            widget.text = app.words.say(entry.message)
            widget.ink = ACT if entry.act else DIM
            lines.append(widget)
        show_only(ids.lines, lines)
