"""The end: the scores, each with what made it (the game's columns: which figures, which points), the winners, and
the narration of the game's last moments (why rescue came, how a tie was broken): every line of the last step, and
the lines before it up to a screenful; the whole game is in History."""

from __future__ import annotations

from dataclasses import dataclass

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.ui import parts
from companion.ui.screens.base import BaseScreen
from companion.ui.widgets import ACT, DIM, GOOD, INK, Chip, Text, show_only

LINES = 12  # at least this many lines of the end, more when the last step brought more
TOP = dp(40)  # a row's seat, total and "winner"


@dataclass(frozen=True)
class Score:
    """One seat's row of the end, as the game's scores part says it."""

    seat: str
    total: str  # the row's last cell: its total, or its result
    made_of: str  # the other cells, each after its column's name ("Survivors: A 7 + B 3")
    won: bool


def scores(view: dict, words) -> tuple[list[Score], str]:
    """The end's rows, best first, and the words under them (how a tie is broken), from the game's scores part; a
    game without one gives each player a row with nothing in it."""
    for part in (view.get("parts") or {}).get("over") or []:
        if part.get("part") != "scores":
            continue
        columns = [words.say(c) for c in part.get("columns") or []]
        rows = []
        for row in part.get("rows") or []:
            cells = [parts.say_line(words, cell) for cell in row.get("cells") or [[]]]
            made = [words.t("ui.end.cell", column=columns[i], value=cell) if i < len(columns) else cell
                    for i, cell in enumerate(cells[:-1]) if cell]
            joined = f"  {words.t('board.sep')}  ".join(made)
            rows.append(Score(row["seat"], cells[-1], joined, bool(row.get("winner"))))
        return rows, parts.say_line(words, part.get("footer"))
    winners = view.get("winners") or []
    return [Score(seat, "", "", seat in winners) for seat in view.get("players") or []], ""


class ScoreRow(BoxLayout):
    """A seat's row: its chip, its total and "winner" on top; what made the total under them, in smaller words."""

    def __init__(self, seat: str, name: str, width: float):
        super().__init__(orientation="vertical", size_hint_y=None, height=TOP, width=width, spacing=dp(2))
        self.seat = seat
        top = BoxLayout(size_hint_y=None, height=TOP, spacing=dp(6))
        self.chip = Chip(seat, name, font=dp(22), size_hint_x=0.44)
        top.add_widget(self.chip)
        self.total = Text(text="", base_font=dp(22), size_hint_x=0.26, wrap=False)
        self.won = Text(text="", base_font=dp(17), ink=GOOD, size_hint_x=0.3)  # wide enough for "winner" unbroken
        top.add_widget(self.total)
        top.add_widget(self.won)
        self.add_widget(top)
        # Fitted at the row's width at once: rendered once, not first at Kivy's 100 px.
        self.made_of = Text(text="", grow=True, size_hint_y=None, base_font=dp(13), halign="left", ink=DIM,
                            width=width)
        self.made_of.fbind("height", self._tall)
        self._shown = False

    def show(self, score: Score, won_word: str) -> None:
        self.total.text = score.total
        self.total.ink = GOOD if score.won else INK
        self.won.text = won_word if score.won else ""
        self.made_of.text = score.made_of
        if bool(score.made_of) != self._shown:  # a game whose rows have one cell shows none
            self._shown = bool(score.made_of)
            if self._shown:
                self.add_widget(self.made_of, index=0)
            else:
                self.remove_widget(self.made_of)
        self._tall()

    def _tall(self, *_args) -> None:
        self.height = TOP + (self.made_of.height + self.spacing if self._shown else 0)


class EndScreen(BaseScreen):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.rows: dict[str, ScoreRow] = {}  # by seat
        self.line_widgets: list[Text] = []
        self.footer: Text | None = None  # under the rows: how a tie on points is broken
        # Made ahead of the game's end (app.on_start): laid out at the window's size now, so that the last answer
        # only fills it in.
        Clock.schedule_once(lambda _dt: setattr(self, "size", Window.size), 0)

    def make_ahead(self) -> None:
        """The rows of the game's players and the lines, made now and placed on the screen (laid out with it while
        nobody sees it): the last answer only gives them their words, each text rendered once at its width. Not while
        the end is on the screen (a finished game shown before): its rows stay in their order."""
        if self.manager is not None and self.manager.current == self.name:
            return
        view = self.app.view
        rows = [self._row(seat) for seat in (view.get("players") or [])] if view else []
        while len(self.line_widgets) < LINES:
            self.line_widgets.append(self._line())
        show_only(self.ids.scores, rows)
        show_only(self.ids.lines, list(self.line_widgets))

    def _row(self, seat: str) -> ScoreRow:
        if seat not in self.rows:
            self.rows[seat] = ScoreRow(seat, self.app.colour(seat), self.ids.scores.width)
        return self.rows[seat]

    def _line(self) -> Text:
        return Text(text="", grow=True, size_hint_y=None, base_font=dp(14), halign="left", ink=DIM,
                    width=self.ids.lines.width)

    def _footer(self, words: str) -> list[Text]:
        if not words:
            return []
        if self.footer is None:
            self.footer = Text(text="", grow=True, size_hint_y=None, base_font=dp(13), halign="left", ink=DIM,
                               width=self.ids.scores.width)
        self.footer.text = words
        return [self.footer]

    def update(self, force: bool = False) -> None:
        app = self.app
        view = app.view
        if view is None:
            return
        key = (repr(view.get("scores")), repr(view.get("winners")), repr((view.get("parts") or {}).get("over")),
               view.get("round"), len(app.public_lines))
        if not self.changed("end", key, force):
            return
        if force:  # a new language: the rows say their seat in it
            self.rows, self.line_widgets, self.footer = {}, [], None
        ids = self.ids
        winners = list(view.get("winners") or [])
        ids.title.text = app.t("ui.winners" if len(winners) > 1 else "ui.winner", colours=winners) if winners \
            else app.t("ui.game_over")
        rows, footer = scores(view, app.words)
        shown = []
        for score in rows:
            row = self._row(score.seat)
            row.show(score, app.t("ui.won"))
            shown.append(row)
        show_only(ids.scores, shown + self._footer(footer))
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
