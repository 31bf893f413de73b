"""Zombiegeddon's board on the touchscreen: the phase, whose turn it is with his two actions as two big marks,
the turn order, who starts post-bomb, who has entered his largest zombie disc or handed in his score sheet (never
what), the revealed largest discs, and at the end every sheet's breakdown in one table. A seat's own sheet and
entry only behind hold-to-peek. Game knowledge of the screen lives here and nowhere else."""

from __future__ import annotations

from collections.abc import Callable

from kivy.app import App
from kivy.graphics import Color, Ellipse, Line, RoundedRectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.ui.widgets import ACT, CORNER, DIM, GOOD, INK, PANEL, Action, Chip, Text
from companion.ui.words import Words

KINDS = ("food", "zombies")  # the kinds of disc that score, when a view does not list them


def kinds(view: dict) -> list[str]:
    """The kinds of disc that score, one column and one sheet line each, as the rules list them."""
    listed = view.get("kinds")
    return [k for k in listed if isinstance(k, str)] if isinstance(listed, list) else list(KINDS)
SET_BONUS = "1→1  2→3  3→6  4→10  5→15  6+→20"


def colour_name(words: Words, seat: str) -> str:
    return words.t(f"colour.{seat}")


class ActionMarks(Widget):
    """A turn's actions: one big circle per action, filled once done."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.done, self.most = 0, 2
        self.bind(pos=self._draw, size=self._draw)

    def show(self, done: int, most: int) -> None:
        if (done, most) != (self.done, self.most):
            self.done, self.most = done, most
            self._draw()

    def _draw(self, *_args) -> None:
        self.canvas.clear()
        side = min(self.height, self.width / max(self.most, 1) - dp(8))
        with self.canvas:
            for k in range(self.most):
                x = self.x + k * (side + dp(8))
                y = self.y + (self.height - side) / 2
                Color(*(ACT if k < self.done else DIM))
                if k < self.done:
                    Ellipse(pos=(x, y), size=(side, side))
                else:
                    Line(circle=(x + side / 2, y + side / 2, side / 2 - 1), width=1)


class SeatCard(BoxLayout):
    """One player: his chip and what the table knows of him now (his turn, entered, handed in, his score)."""

    def __init__(self, words: Words, seat: str, **kwargs):
        super().__init__(orientation="vertical", padding=dp(6), spacing=dp(2), **kwargs)
        self.words, self.seat = words, seat
        self.add_widget(Chip(seat, colour_name(words, seat), font=dp(20), size_hint_y=None, height=dp(30)))
        self.status = Text(text="", base_font=dp(15), min_font=dp(9), ink=DIM)
        self.add_widget(self.status)
        self.correct = Action(text="", base_font=dp(13), min_font=dp(9), tone="quiet", size_hint_y=None,
                              height=0, opacity=0, disabled=True)
        self.correct.bind(on_release=lambda *_: self._answer())
        self.add_widget(self.correct)
        self.lit = False
        self.bind(pos=self._frame, size=self._frame)

    def show(self, status: str, lit: bool, ink, correct: str = "") -> None:
        self.status.text, self.status.ink = status, ink
        self.correct.text = correct
        self.correct.height, self.correct.opacity, self.correct.disabled = \
            (dp(48), 1, False) if correct else (0, 0, True)
        if lit != self.lit:
            self.lit = lit
            self._frame()

    def _answer(self) -> None:
        app = App.get_running_app()
        if app is not None and hasattr(app, "answer_for"):
            app.answer_for(self.seat)  # a sheet handed in is corrected behind the cover, by its owner

    def _frame(self, *_args) -> None:
        self.canvas.before.clear()
        with self.canvas.before:
            Color(*PANEL)
            RoundedRectangle(pos=self.pos, size=self.size, radius=[dp(8)], segments=CORNER)
            if self.lit:
                Color(*ACT)
                Line(rounded_rectangle=(self.x + 1, self.y + 1, self.width - 2, self.height - 2, dp(8), CORNER),
                     width=1)


class Board(BoxLayout):
    """The whole table at a glance: a heading, the seats in turn order, the turn or the entries, the legend."""

    def __init__(self, words: Words, **kwargs):
        super().__init__(orientation="vertical", spacing=dp(6), **kwargs)
        self.words = words
        self.heading = Text(text="", base_font=dp(22), min_font=dp(12), halign="left", valign="middle",
                            size_hint_y=None, height=dp(40))
        self.add_widget(self.heading)
        self.seats = GridLayout(rows=1, spacing=dp(6), size_hint_y=None, height=dp(120))
        self.add_widget(self.seats)
        self.middle = BoxLayout(orientation="vertical", spacing=dp(4))
        self.add_widget(self.middle)
        self.info = Text(text="", base_font=dp(14), min_font=dp(9), ink=DIM, size_hint_y=None, height=dp(40),
                         halign="left", valign="middle")
        self.add_widget(self.info)
        self.cards: dict[str, SeatCard] = {}
        self.marks = ActionMarks(size_hint_y=None, height=dp(56))
        self.key = None

    def update(self, view: dict) -> None:
        words = self.words
        players = list(view.get("players") or [])
        order = list(view.get("order") or players)
        key = (words.lang, repr(sorted(view.items(), key=lambda kv: kv[0])))
        if key == self.key:
            return
        self.key = key
        phase = view.get("phase") or "pre"
        self.heading.text = words.t(f"zg.phase.{phase}")
        if list(self.cards) != order:
            self.seats.clear_widgets()
            self.cards = {seat: self.cards.get(seat) or SeatCard(words, seat) for seat in order}
            for seat in order:
                self.seats.add_widget(self.cards[seat])
        for seat in order:
            self._seat(view, phase, seat)
        self.middle.clear_widgets()
        if phase in ("pre", "post"):
            self._turn(view)
        elif phase == "over":
            self._scores(view, players)
        else:
            self._entries(view)
        parts = [words.t("zg.board.order") + ": " + " → ".join(colour_name(words, s) for s in order)]
        if view.get("starter"):
            parts.append(words.t("zg.board.starter", colour=view["starter"]))
        parts.append(words.t("zg.board.legend") + " · " + SET_BONUS)
        self.info.text = "  ·  ".join(parts)

    def _seat(self, view: dict, phase: str, seat: str) -> None:
        words, card = self.words, self.cards[seat]
        if phase in ("pre", "post"):
            mine = view.get("turn") == seat
            status = words.t("zg.board.actions", count=view.get("actions") or 0,
                             most=view.get("actions_per_turn") or 2) if mine else ""
            card.show(status, mine, ACT)
        elif phase == "largest":
            if seat not in (view.get("asked") or []):
                card.show("", False, DIM)
            elif seat in (view.get("entered") or []):
                card.show(words.t("zg.board.entered"), False, GOOD)
            else:
                card.show(words.t("zg.board.waiting"), True, DIM)
        elif phase == "sheet":
            if seat in (view.get("handed_in") or []):
                card.show(words.t("zg.board.handed_in"), False, GOOD, words.t("zg.board.correct"))
            else:
                card.show(words.t("zg.board.filling"), True, DIM)
        else:
            total = ((view.get("scores") or {}).get(seat) or {}).get("total", 0)
            won = seat in (view.get("winners") or [])
            card.show(words.t("zg.board.score", total=total) + (" · " + words.t("zg.board.winner") if won else ""),
                      won, GOOD if won else INK)

    def _turn(self, view: dict) -> None:
        words = self.words
        turn = view.get("turn")
        if not turn:
            return
        self.middle.add_widget(Text(text=words.t("zg.board.turn", colour=turn), base_font=dp(36), min_font=dp(16),
                                    size_hint_y=None, height=dp(60)))
        self.marks.show(int(view.get("actions") or 0), int(view.get("actions_per_turn") or 2))
        holder = BoxLayout(size_hint_y=None, height=dp(60), padding=(dp(40), 0))
        if self.marks.parent is not None:
            self.marks.parent.remove_widget(self.marks)
        holder.add_widget(self.marks)
        self.middle.add_widget(holder)
        self.middle.add_widget(Text(text=words.t("zg.board.actions", count=view.get("actions") or 0,
                                                 most=view.get("actions_per_turn") or 2),
                                    base_font=dp(20), ink=DIM, size_hint_y=None, height=dp(36)))
        self.middle.add_widget(Widget())

    def _entries(self, view: dict) -> None:
        words = self.words
        revealed = list(view.get("revealed") or [])
        if view.get("phase") == "largest":
            title = words.t("zg.q.largest") if view.get("below") is None else \
                words.t("zg.q.next_largest", number=view["below"])
        else:
            title = words.t("zg.q.sheets")
        self.middle.add_widget(Text(text=title, base_font=dp(22), min_font=dp(12), size_hint_y=None, height=dp(70)))
        for shown in revealed:
            self.middle.add_widget(Text(text=words.t("zg.board.largest") + ": " + "  ·  ".join(
                f"{colour_name(words, s)} {n}" for s, n in shown.items()), base_font=dp(17), min_font=dp(10),
                ink=DIM, size_hint_y=None, height=dp(32)))
        self.middle.add_widget(Widget())

    def _scores(self, view: dict, players: list[str]) -> None:
        words = self.words
        scores = view.get("scores") or {}
        winners = set(view.get("winners") or [])
        columns = kinds(view)
        grid = GridLayout(cols=len(columns) + 3, spacing=dp(3), size_hint_y=None, row_default_height=dp(40),
                          row_force_default=True)
        grid.bind(minimum_height=grid.setter("height"))
        grid.add_widget(Widget())
        for column in (*columns, "tokens", "total"):
            grid.add_widget(Text(text=words.t(f"zg.board.col.{column}"), base_font=dp(15), min_font=dp(9),
                                 ink=DIM, wrap=False))
        for seat in sorted(players, key=lambda p: -((scores.get(p) or {}).get("total", 0))):
            s = scores.get(seat) or {}
            grid.add_widget(Chip(seat, colour_name(words, seat), font=dp(16)))
            for kind in columns:
                grid.add_widget(Text(text=words.t("zg.board.cell", count=s.get(kind, 0),
                                                  points=s.get(f"{kind}_points", 0), bonus=s.get(f"{kind}_bonus", 0)),
                                     base_font=dp(16), min_font=dp(9), wrap=False))
            grid.add_widget(Text(text=f"{s.get('tokens', 0)}×5={s.get('token_points', 0)}", base_font=dp(16),
                                 min_font=dp(9), wrap=False))
            grid.add_widget(Text(text=str(s.get("total", 0)), base_font=dp(22), min_font=dp(12), wrap=False,
                                 ink=GOOD if seat in winners else INK))
        self.middle.add_widget(grid)
        self.middle.add_widget(Widget())


# -- the seat's secrets, the revealed entries and the end ---------------------------------------------------------


def secrets(view: dict, words: Words) -> list[tuple[str, Callable[[], str], bool]]:
    """A seat's own entries, each read only while the finger holds the button (never urgent: nothing waits)."""
    out = []
    if isinstance(view.get("largest"), int):
        number = view["largest"]
        out.append((words.t("zg.board.my_largest_what"), lambda: words.t("zg.board.my_largest", number=number),
                    False))
    if isinstance(view.get("sheet"), dict) and isinstance(view.get("sheet_score"), dict):
        score = dict(view["sheet_score"])

        def show_sheet() -> str:
            lines = [words.t("zg.board.sheet_line", zg_kind=kind, count=score.get(kind, 0),
                             points=score.get(f"{kind}_points", 0), bonus=score.get(f"{kind}_bonus", 0))
                     for kind in kinds(view)]
            lines.append(words.t("zg.board.sheet_tokens", count=score.get("tokens", 0),
                                 points=score.get("token_points", 0)))
            lines.append(words.t("zg.board.sheet_total", total=score.get("total", 0)))
            return "\n".join(lines)

        out.append((words.t("zg.board.my_sheet"), show_sheet, False))
    return out


def revealed(view: dict, words: Words) -> tuple[str, list[str]] | None:
    """The last reveal of the largest zombie discs, while it is current."""
    shown = view.get("revealed")
    if not isinstance(shown, list) or not shown or not isinstance(shown[-1], dict):
        return None
    last = shown[-1]
    lines = ["  ·  ".join(f"{colour_name(words, s)} {n}" for s, n in last.items())]
    if view.get("starter"):
        lines.append(words.t("zg.board.starter", colour=view["starter"]))
    return words.t("zg.board.largest"), lines


def over(view: dict, words: Words) -> list[tuple[str, str, bool]]:
    scores = view.get("scores") or {}
    winners = set(view.get("winners") or [])
    ranked = sorted(view.get("players") or [], key=lambda p: -((scores.get(p) or {}).get("total", 0)))
    return [(p, words.t("zg.board.score", total=(scores.get(p) or {}).get("total", 0)), p in winners)
            for p in ranked]
