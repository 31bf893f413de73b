"""The statistics of every finished game of the save file (companion/stats.py): wins per person as bars, the wins of
the few with the most over time as lines, then a table of every game together and one per game (games, wins, win
rate, scores, rounds, minutes, and what the game itself counts). From the menu or the new game, with or without a
game on the table; each finished game is folded once (a Summaries kept by the screen)."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.stats import Summaries, statistics, wins_over_time
from companion.stats_report import COLUMNS, figure, who
from companion.store import StoreError
from companion.ui import people
from companion.ui.charts import BarChart, LineChart, Series, styles
from companion.ui.screens.base import BaseScreen
from companion.ui.widgets import DANGER, DIM, Mark, Panel, Text

log = logging.getLogger("companion.ui")

BARS_SHOWN = 10  # people with the most wins in the bar chart (the tables name everyone)
LINES_SHOWN = 4  # people with the most wins over time: more lines tangle at 800×480
EVERY_GAME = ("played", "wins", "win_rate")  # the columns of every game together


class StatsScreen(BaseScreen):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.summaries = Summaries()  # every finished game folded once, kept while the app runs
        self.back = "menu"
        self.stats: dict[str, Any] | None = None  # what the screen shows (the tests compare it)
        self.bar_chart: BarChart | None = None
        self.line_chart: LineChart | None = None

    def open(self, back: str = "menu", **_options) -> None:
        self.back = back

    def go_back(self) -> None:
        app = self.app
        app.goto(self.back if self.back == "newgame" or app.view is not None else "newgame")

    def _statistics(self) -> dict[str, Any] | None:
        app = self.app
        store = app.box.store if app.box.store is not None else getattr(app.table, "store", None)
        if store is None:
            return None
        try:
            return statistics(store, self.summaries)
        except (StoreError, OSError) as error:  # a save file that cannot be read: said as no game, and logged
            log.warning("the statistics could not be read: %s", error)
            return None

    def update(self, force: bool = False) -> None:
        stats = self._statistics()
        key = (stats["games"], tuple(stats["unreadable"]), tuple(g["id"] for g in stats["timeline"])) \
            if stats else None
        if not self.changed("stats", key, force):
            return
        self.stats = stats
        app = self.app
        if stats:  # names of any script: drawn again once the faces have learnt them
            people.learn(app, [row["name"] for row in stats["people"] if row["name"]],
                         done=lambda: self.update(force=True))
        body = self.ids.body
        body.clear_widgets()
        self.bar_chart = self.line_chart = None
        self.ids.scroll.scroll_y = 1
        if not stats or not stats["games"]:
            self.ids.title.text = app.t("stats.title")
            body.add_widget(Text(text=app.t("stats.none"), grow=True, size_hint_y=None, base_font=dp(18), ink=DIM))
            return
        self.ids.title.text = app.t("stats.title_count", count=stats["games"])
        if stats["unreadable"]:
            body.add_widget(Text(text=app.t("stats.unreadable", count=len(stats["unreadable"]),
                                            ids=", ".join(str(i) for i in stats["unreadable"])),
                                 grow=True, size_hint_y=None, base_font=dp(14), ink=DANGER, halign="left"))
        looks = styles([(row["person"], row["colour"]) for row in stats["people"]])
        body.add_widget(self._bars(stats, looks))
        body.add_widget(self._lines(stats, looks))
        body.add_widget(self._heading(app.t("stats.every_game")))
        body.add_widget(self._table("all", stats["people"], EVERY_GAME, []))
        for game in stats["by_game"]:
            title = app.words.say(game["title"])
            body.add_widget(self._heading(app.t("stats.game_line", game=title, count=game["played"],
                                                rounds=figure(game["rounds_avg"], ""),
                                                minutes=figure(game["minutes_avg"], ""))))
            body.add_widget(self._table(game["game"], game["people"], COLUMNS, []))
            if game["stats"]:
                body.add_widget(self._heading(app.t("ui.people.own_figures", game=title), small=True))
                body.add_widget(self._table(game["game"], game["people"], (), game["stats"]))

    # -- the charts -------------------------------------------------------------------------------------------

    def _bars(self, stats: Mapping[str, Any], looks: Mapping[str, str]) -> Panel:
        app = self.app
        rows = stats["people"][:BARS_SHOWN]
        panel = Panel(orientation="vertical", size_hint_y=None, padding=dp(6), spacing=dp(2))
        panel.add_widget(Text(text=app.t("stats.wins_chart"), size_hint_y=None, height=dp(28), base_font=dp(17),
                              halign="left"))
        chart = self.bar_chart = BarChart(size_hint_y=None, height=dp(190))
        chart.show([Series(row["person"], who(row, app.lang), (row["wins"],), looks[row["person"]]) for row in rows])
        panel.add_widget(chart)
        if len(stats["people"]) > len(rows):
            panel.add_widget(Text(text=app.t("ui.people.top_shown", shown=len(rows), count=len(stats["people"])),
                                  grow=True, size_hint_y=None, base_font=dp(13), ink=DIM, halign="left"))
        _fit_height(panel)
        return panel

    def _lines(self, stats: Mapping[str, Any], looks: Mapping[str, str]) -> Panel:
        app = self.app
        rows = stats["people"][:LINES_SHOWN]
        over_time = wins_over_time(stats, [row["person"] for row in rows])
        panel = Panel(orientation="vertical", size_hint_y=None, padding=dp(6), spacing=dp(2))
        panel.add_widget(Text(text=app.t("stats.wins_over_time"), size_hint_y=None, height=dp(28),
                              base_font=dp(17), halign="left"))
        side = BoxLayout(size_hint_y=None, height=dp(170), spacing=dp(8))
        chart = self.line_chart = LineChart()
        chart.show([Series(row["person"], who(row, app.lang), tuple(over_time[row["person"]]), looks[row["person"]])
                    for row in rows])
        side.add_widget(chart)
        legend = BoxLayout(orientation="vertical", size_hint_x=0.3, spacing=dp(4), padding=(0, dp(4)))
        for row in rows:  # each line named beside the chart, with its shape: the colour is not the only cue
            item = BoxLayout(size_hint_y=None, height=dp(30), spacing=dp(6))
            item.add_widget(Mark(seat=looks[row["person"]], size_hint=(None, None), size=(dp(16), dp(16)),
                                 pos_hint={"center_y": 0.5}))
            label = Text(text=f"{who(row, app.lang)}: {row['wins']}", base_font=dp(15), min_font=dp(9),
                         wrap=False, halign="left")
            label.person = row["person"]
            item.add_widget(label)
            legend.add_widget(item)
        legend.add_widget(BoxLayout())  # the items at the top
        side.add_widget(legend)
        panel.add_widget(side)
        panel.add_widget(Text(text=app.t("ui.people.games_axis"), size_hint_y=None, height=dp(22),
                              base_font=dp(13), ink=DIM))
        _fit_height(panel)
        return panel

    # -- the tables -------------------------------------------------------------------------------------------

    def _heading(self, text: str, small: bool = False) -> Text:
        return Text(text=text, grow=True, size_hint_y=None, base_font=dp(14 if small else 17), halign="left",
                    ink=DIM if small else (0.95, 0.95, 0.95, 1))

    def _table(self, scope: str, rows: Sequence[Mapping[str, Any]], columns: Sequence[str],
               counts: Sequence[str]) -> BoxLayout:
        """A row per person: who, then `columns` (figures of companion/stats.py) and `counts` (the game's own, by
        their catalogue keys). Each figure's label knows its (scope, person, column): the tests read them."""
        app = self.app
        heads = [app.t(f"stats.col.{c}") for c in columns] + [app.t(key) for key in counts]
        table = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(1))
        head = BoxLayout(size_hint_y=None, height=dp(40), spacing=dp(2))
        head.add_widget(Text(text=app.t("stats.col.person"), size_hint_x=2, base_font=dp(13), min_font=dp(8),
                             ink=DIM, halign="left"))
        for text in heads:
            head.add_widget(Text(text=text, base_font=dp(13), min_font=dp(8), ink=DIM))
        table.add_widget(head)
        for n, row in enumerate(rows):
            line = Panel(size_hint_y=None, height=dp(32), spacing=dp(2),
                         fill=(0.14, 0.15, 0.19, 1) if n % 2 == 0 else (0.1, 0.11, 0.14, 1))
            person = BoxLayout(size_hint_x=2, spacing=dp(4), padding=(dp(4), 0))
            if row.get("colour"):  # a seat without a name: its colour's shape beside its colour's word
                person.add_widget(Mark(seat=row["colour"], size_hint=(None, None), size=(dp(14), dp(14)),
                                       pos_hint={"center_y": 0.5}))
            name = Text(text=who(row, app.lang), base_font=dp(15), min_font=dp(8), wrap=False, halign="left")
            name.stat = (scope, row["person"], "person")
            person.add_widget(name)
            line.add_widget(person)
            cells = [(c, figure(row[c], c)) for c in columns] + [(k, str(row["counts"].get(k, 0))) for k in counts]
            for column, text in cells:
                cell = Text(text=text, base_font=dp(15), min_font=dp(8), wrap=False)
                cell.stat = (scope, row["person"], column)
                line.add_widget(cell)
            table.add_widget(line)
        _fit_height(table)
        return table


def _fit_height(box: BoxLayout) -> None:
    """A vertical box as high as what it holds (rows of fixed or growing heights)."""
    box.bind(minimum_height=box.setter("height"))
    box.height = box.minimum_height
