"""Charts drawn with Kivy's canvas: a bar chart (a figure per person) and a line chart (figures over time, a line per
person). Each says its figures and names in text on its axes, beside or under what it draws: a colour is never the
only cue (every line has its seat's shape at its points too, the legend names them). No markup: a name is drawn as
typed. Game-free: the statistics screen (companion/ui/screens/stats.py) hands them plain figures."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.metrics import dp
from kivy.uix.relativelayout import RelativeLayout

from companion.ui.widgets import CIRCLE, DIM, SEATS, UNKNOWN, Text, fan, shape_points

# The looks a person's bar and line take, by a seat's colour and shape: a person who sat as a colour without a name
# keeps that colour's; the others take the first one not taken (black last: it hardly shows on the dark ground).
STYLE_ORDER = ("blue", "yellow", "green", "red", "purple", "orange", "white", "black")
AXIS = (0.45, 0.47, 0.52, 1)
GRID = (0.22, 0.23, 0.27, 1)
OUTLINE = (0.85, 0.85, 0.85, 1)


@dataclass(frozen=True)
class Series:
    """What one person's bar or line shows: `label` in text, `values` (one for a bar), in `style`'s colour and shape
    (a seat colour's name)."""

    person: str
    label: str
    values: tuple[int, ...]
    style: str


def styles(people: Sequence[tuple[str, str | None]]) -> dict[str, str]:
    """A seat style for each person, given as (person, their own seat colour or None for a name)."""
    out = {person: colour for person, colour in people if colour}
    free = [style for style in STYLE_ORDER if style not in out.values()] or list(STYLE_ORDER)
    for n, person in enumerate(p for p, colour in people if not colour):
        out[person] = free[n % len(free)]
    return out


def ticks(top: int, most: int = 5) -> list[int]:
    """Whole figures for an axis from 0 to at least `top`, at most `most` steps of 1, 2, 5, 10, 20, 50... apart."""
    step = 1
    while (max(top, 1) + step - 1) // step > most:
        step = next(s * 10 ** k for k in range(0, 12) for s in (1, 2, 5) if s * 10 ** k > step)
    last = max(1, -(-top // step)) * step
    return list(range(0, last + 1, step))


class Chart(RelativeLayout):
    """What both charts share: a left band with the value axis's figures, text children placed by hand. Drawn in its
    own coordinates: a scrolling list moves it without drawing it again."""

    figure_band = dp(34)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.series: list[Series] = []
        self.texts: list[Text] = []
        self.fbind("size", self._redraw)

    def _text(self, text: str, x: float, y: float, width: float, height: float, **options) -> Text:
        options.setdefault("base_font", dp(13))
        options.setdefault("min_font", dp(8))
        label = Text(text=text, size_hint=(None, None), size=(width, height), pos=(x, y), **options)
        self.add_widget(label)
        self.texts.append(label)
        return label

    def _clear(self) -> None:
        self.canvas.clear()
        for label in self.texts:
            self.remove_widget(label)
        self.texts = []

    def _value_axis(self, top: int, x0: float, y0: float, x1: float, y1: float) -> list[int]:
        """The value axis from 0 to `top` up the left, its figures and a grid line at each; the ticks drawn."""
        marks = ticks(top)
        for mark in marks:
            y = y0 + (y1 - y0) * mark / marks[-1]
            with self.canvas:
                Color(*GRID)
                Line(points=[x0, y, x1, y], width=1)
            self._text(str(mark), 0, y - dp(9), self.figure_band - dp(6), dp(18), halign="right", wrap=False,
                       ink=DIM)
        with self.canvas:
            Color(*AXIS)
            Line(points=[x0, y1, x0, y0, x1, y0], width=1.2)
        return marks

    def _redraw(self, *_args) -> None:
        self._clear()
        if self.series and self.width > 1 and self.height > 1:
            self.draw()

    def draw(self) -> None:
        raise NotImplementedError


class BarChart(Chart):
    """A bar per person, its height its figure: the figure over the bar, the person's name under it."""

    name_band = dp(36)
    value_band = dp(20)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bars: dict[str, Rectangle] = {}  # each person's bar as drawn (the tests measure them)

    def show(self, series: Sequence[Series]) -> None:
        self.series = list(series)
        self._redraw()

    def draw(self) -> None:
        x0, y0 = self.figure_band, self.name_band
        x1, y1 = self.width - dp(4), self.height - self.value_band
        top = max(s.values[0] for s in self.series)
        scale = ticks(top)[-1]
        slot = (x1 - x0) / len(self.series)
        wide = min(dp(56), slot * 0.6)
        self._value_axis(top, x0, y0, x1, y1)
        self.bars = {}
        for n, series in enumerate(self.series):
            value = series.values[0]
            colour = SEATS.get(series.style, UNKNOWN)[0]
            centre = x0 + slot * (n + 0.5)
            high = (y1 - y0) * value / scale
            with self.canvas:
                Color(*colour, 1)
                self.bars[series.person] = Rectangle(pos=(centre - wide / 2, y0), size=(wide, high))
                if high > 0:  # an edge: a dark colour's bar still shows on the dark ground
                    Color(*OUTLINE)
                    Line(rectangle=(centre - wide / 2, y0, wide, high), width=1)
            self._text(str(value), centre - slot / 2, y0 + high + dp(1), slot, self.value_band - dp(2),
                       wrap=False)
            name = self._text(series.label, centre - slot / 2 + dp(1), 0, slot - dp(2), self.name_band - dp(2),
                              base_font=dp(13), valign="top")
            name.person = series.person


class LineChart(Chart):
    """A line per person over the games, oldest first: the figures up the left, the games' numbers along the bottom,
    each point marked with the person's shape."""

    games_band = dp(22)
    MARKED = 24  # up to so many games every point is marked, after that only the last

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.lines: dict[str, list[float]] = {}  # each person's line's points as drawn (the tests read them)

    def show(self, series: Sequence[Series]) -> None:
        self.series = list(series)
        self._redraw()

    def draw(self) -> None:
        count = max(len(s.values) for s in self.series)
        x0, y0 = self.figure_band, self.games_band
        x1, y1 = self.width - dp(12), self.height - dp(10)
        top = max(max(s.values, default=0) for s in self.series)
        scale = self._value_axis(top, x0, y0, x1, y1)[-1]

        def at(n: int, value: int) -> tuple[float, float]:
            x = x0 + (x1 - x0) * (n / (count - 1) if count > 1 else 0.5)
            return x, y0 + (y1 - y0) * value / scale

        for n in sorted({0, count - 1, *range(0, count, max(1, -(-count // 6)))}):
            x, _y = at(n, 0)
            self._text(str(n + 1), x - dp(20), 0, dp(40), self.games_band - dp(2), wrap=False, ink=DIM)
        self.lines = {}
        side = dp(9)
        for series in reversed(self.series):  # the most wins drawn last, on top
            colour, shape = SEATS.get(series.style, UNKNOWN)
            points = [v for n, value in enumerate(series.values) for v in at(n, value)]
            self.lines[series.person] = points
            with self.canvas:
                Color(*colour, 1)
                if len(points) >= 4:
                    Line(points=points, width=dp(1.5))
                marked = range(len(series.values)) if count <= self.MARKED else [len(series.values) - 1]
                for n in marked:
                    cx, cy = points[2 * n], points[2 * n + 1]
                    marker(shape, cx, cy, side)


def marker(shape: str, cx: float, cy: float, side: float) -> None:
    """A seat's shape at a point, in the current colour (the seat's: companion/ui/widgets.py Mark draws the same)."""
    if shape == "circle":
        Ellipse(pos=(cx - side / 2, cy - side / 2), size=(side, side), segments=CIRCLE)
    elif shape == "ring":
        Line(circle=(cx, cy, side / 2 - 1, 0, 360, CIRCLE), width=1.5)
    elif shape == "cross":
        arm = side * 0.18
        Rectangle(pos=(cx - arm, cy - side / 2), size=(2 * arm, side))
        Rectangle(pos=(cx - side / 2, cy - arm), size=(side, 2 * arm))
    else:
        fan(shape_points(shape, cx, cy, side / 2), cx, cy)
