"""The board parts on the touchscreen (companion/board.py): one renderer per part, none per game.

It offers what the screens ask of a board: `Board(words)` with `update(view)` and `items()`, `secrets(view, words)`,
and `revealed(view, words)`, all read from `view["parts"]`. The speed work lives here, so every
game gets it: each zone and each cell is drawn into a picture of its own (`Cached`) and again only when it changes,
and the widgets of a board are made once for its shape, then only given new words.
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.ui.widgets import (
    ACT,
    CORNER,
    DANGER,
    DIM,
    GOOD,
    INK,
    PANEL,
    TARGET,
    Action,
    Cached,
    Chip,
    Mark,
    Text,
    Token,
    seat_colour,
)
from companion.ui.words import Words

TONES = {"plain": INK, "hint": DIM, "warning": ACT, "act": ACT}
SEAT_INK = {"winner": GOOD, "good": GOOD, "act": ACT, "out": DIM, "danger": DANGER, "other": DANGER}
FACE_DOWN = (0.16, 0.17, 0.21, 1)
FACE_UP = (0.33, 0.35, 0.41, 1)
LYING = (0.98, 0.82, 0.25, 1)
CARD = (0.93, 0.91, 0.84, 1)
CARD_BIG = (0.76, 0.12, 0.1, 1)
CARD_INK = (0.1, 0.1, 0.1, 1)
MAX_CARDS = 8  # cards drawn side by side; more are summed up by a count


def say_line(words: Words, bits: list | None) -> str:
    """A line of bits as one text: words, a seat's colour name, dice faces, pips."""
    out = []
    for bit in bits or []:
        if "n" in bit:
            out.append(str(bit["n"]))
        elif "t" in bit:
            out.append(words.say(bit["t"]))
        elif "label" in bit:
            out.append(words.say(bit["label"]))
        elif "chip" in bit:
            out.append(words.seat(bit['chip']))
        elif "dice" in bit:
            out.append(" ".join(str(d) for d in bit["dice"]))
        elif "pips" in bit:
            done, most = bit["pips"]
            out.append("●" * done + "○" * max(0, most - done))
    return " ".join(text for text in out if text)


# -- a zone: a panel with its number, name, big count, capacity line and tokens ---------------------------------


class ZoneCard(BoxLayout):
    def __init__(self, words: Words, **kwargs):
        super().__init__(orientation="vertical", padding=dp(4), spacing=dp(2), **kwargs)
        self.words, self.key, self.data = words, None, {}
        head = BoxLayout(size_hint_y=None, height=dp(30), spacing=dp(4))
        self.number = Text(text="", base_font=dp(20), wrap=False, size_hint_x=None, width=dp(26),
                           ink=(0.1, 0.1, 0.1, 1))
        head.add_widget(self.number)
        self.name = Text(text="", base_font=dp(17), min_font=dp(10), halign="left", valign="middle")
        head.add_widget(self.name)
        self.arrivals = BoxLayout(size_hint_x=None, width=0, spacing=dp(1))  # who goes here this round
        head.add_widget(self.arrivals)
        self.add_widget(head)
        middle = BoxLayout(size_hint_y=None, height=dp(58), spacing=dp(4))
        count = BoxLayout(orientation="vertical", size_hint_x=0.45)
        self.count = Text(text="", base_font=dp(40), min_font=dp(20), wrap=False)
        count.add_widget(self.count)
        self.count_word = Text(text="", base_font=dp(12), min_font=dp(8), ink=DIM, size_hint_y=None, height=dp(16))
        count.add_widget(self.count_word)
        middle.add_widget(count)
        self.detail = Text(text="", base_font=dp(15), min_font=dp(9), halign="center", valign="middle",
                           size_hint_x=0.55)
        middle.add_widget(self.detail)
        self.add_widget(middle)
        self.tokens = Widget()
        self.tokens.bind(size=self._place_tokens, pos=self._place_tokens)
        self.add_widget(self.tokens)
        self.people: list[tuple[str, str, bool]] = []
        self.names: list[str] = []  # each token's name, as the page says it: the colour, the figure, its note
        self._people_drawn: list | None = None
        self._naming = None  # the token whose name the line under the count shows now (a tap on it)
        self.bind(pos=self._frame, size=self._frame)

    def show(self, zone: dict) -> None:
        key = (repr(zone), self.words.lang)
        if key == self.key:
            return
        self.key, self.data = key, zone
        words = self.words
        self.number.text = str(zone.get("number") or "")
        self.name.text = words.say(zone.get("name"))
        count = zone.get("count")
        self.count.text = "" if count is None else str(count)
        self.count.ink = DANGER if count else DIM
        self.count_word.text = words.say(zone.get("count_word")) if zone.get("count_word") else ""
        self.detail.text = say_line(words, zone.get("detail"))
        if self._naming is not None:
            self._naming.cancel()
            self._naming = None
        self.detail.ink = DANGER if zone.get("closed") else INK
        arriving = list(zone.get("arriving") or [])
        if [m.seat for m in reversed(self.arrivals.children)] != arriving:
            self.arrivals.clear_widgets()
            for seat in arriving:
                self.arrivals.add_widget(Mark(seat=seat, size_hint=(None, None), size=(dp(14), dp(14)),
                                              pos_hint={"center_y": 0.5}))
            self.arrivals.width = dp(15) * len(arriving)
        self.people = [(t["seat"], t["mark"], bool(t.get("faded"))) for t in zone.get("tokens") or []]
        self.names = [" ".join(text for text in (words.seat(t['seat']), words.say(t.get("name")),
                                                  words.say(t.get("note")) if t.get("note") else "") if text)
                      for t in zone.get("tokens") or []]
        self._place_tokens()
        self._frame()

    # A token shows its seat's colour and symbol and a number: a tap on it says its name (whose, which figure) in
    # the line under the count for a few seconds, for whoever cannot tell the pieces apart.
    def on_touch_down(self, touch) -> bool:
        for i, token in enumerate(reversed(self.tokens.children)):
            if i < len(self.names) and token.collide_point(*touch.pos):
                self.name_token(i)
                return True
        return super().on_touch_down(touch)

    def name_token(self, index: int) -> None:
        if self._naming is not None:
            self._naming.cancel()
        self.detail.text = self.names[index]
        self.detail.ink = INK
        self._naming = Clock.schedule_once(lambda _dt: self._unname(), 4)

    def _unname(self) -> None:
        self._naming = None
        zone = self.data
        self.detail.text = say_line(self.words, zone.get("detail"))
        self.detail.ink = DANGER if zone.get("closed") else INK

    def _place_tokens(self, *_args) -> None:
        area, people = self.tokens, self.people
        if self._people_drawn != people:  # tokens change only with the pieces
            self._people_drawn = list(people)
            kept = {(t.seat, t.text, t.faded): t for t in area.children}
            area.clear_widgets()
            for seat, mark, faded in people:
                area.add_widget(kept.pop((seat, mark, faded), None) or Token(seat, mark, faded=faded))
        if not people:
            return
        side = max(dp(16), min(dp(52), area.height - dp(3)))  # as big as the card lets them be, smaller when crowded
        while side > dp(16):
            cols = max(1, int(area.width // (side + dp(3))))
            rows = max(1, int(area.height // (side + dp(3))))
            if cols * rows >= len(people):
                break
            side -= dp(2)
        cols = max(1, int(area.width // (side + dp(3))))
        for i, token in enumerate(reversed(area.children)):
            row, col = divmod(i, cols)
            token.size = (side, side)
            token.pos = (area.x + col * (side + dp(3)), area.top - (row + 1) * (side + dp(3)))

    def _frame(self, *_args) -> None:
        zone = self.data
        closed, ring = bool(zone.get("closed")), zone.get("ring")
        self.canvas.before.clear()
        with self.canvas.before:
            Color(*((0.1, 0.1, 0.12, 1) if closed else PANEL))
            RoundedRectangle(pos=self.pos, size=self.size, radius=[dp(8)], segments=CORNER)
            if zone.get("number"):
                Color(0.95, 0.95, 0.95, 1)
                RoundedRectangle(pos=(self.x + dp(4), self.top - dp(4) - dp(30)), size=(dp(26), dp(30)),
                                 radius=[dp(5)], segments=CORNER)
            if ring:
                Color(*(DANGER if ring == "danger" else ACT))
                Line(rounded_rectangle=(self.x + 1, self.y + 1, self.width - 2, self.height - 2, dp(8), CORNER),
                     width=2.2)
        self.canvas.after.clear()
        if closed:
            with self.canvas.after:  # the closed mark: a band across the card, as the physical token lies
                Color(*DANGER[:3], 0.35)
                Rectangle(pos=(self.x, self.y), size=(self.width, self.height - dp(36)))


# -- a cell of a grid: drawn on the canvas, with three short texts and a mark per seat there ----------------------


class CellCard(Widget):
    def __init__(self, words: Words, **kwargs):
        super().__init__(**kwargs)
        self.words = words
        self.label = Text(text="", base_font=dp(13), min_font=dp(8), wrap=False, halign="left", valign="top",
                          ink=DIM, pad=dp(2))
        self.count = Text(text="", base_font=dp(22), min_font=dp(10), wrap=False, halign="center",
                          valign="middle", pad=0)
        self.lying = Text(text="", base_font=dp(13), min_font=dp(8), wrap=False, halign="right", valign="bottom",
                          pad=dp(2))
        for child in (self.label, self.count, self.lying):
            child.size_hint = (None, None)
            self.add_widget(child)
        self.marks: list[Mark] = []
        self.key = None
        self.data: dict = {}
        self.bind(pos=self._layout, size=self._layout)

    def show(self, cell: dict) -> None:
        key = (repr(cell), self.words.lang)
        if key == self.key:
            return
        self.key, self.data = key, cell
        self.label.text = str(cell.get("label") or "")
        self.label.ink = INK if cell.get("up") else DIM
        self.count.text = str(cell["count"]) if cell.get("count") else ""
        self.lying.text = say_line(self.words, cell.get("lying"))
        self.lying.ink = LYING
        seats = list(cell.get("seats") or [])
        if [m.seat for m in self.marks] != seats:
            for mark in self.marks:
                self.remove_widget(mark)
            self.marks = [Mark(seat=s, size_hint=(None, None)) for s in seats]
            for mark in self.marks:
                self.add_widget(mark)
        self._layout()

    def _layout(self, *_args) -> None:
        x, y, w, h = self.x, self.y, self.width, self.height
        self.label.pos, self.label.size = (x + dp(2), y + h - dp(18)), (w * 0.6, dp(16))
        side = min(h * 0.48, w * 0.42)
        self.count.size = (side, side)
        self.count.pos = (x + w - side - dp(3), y + h - side - dp(3))
        self.lying.pos, self.lying.size = (x + w * 0.45, y + dp(1)), (w * 0.55 - dp(2), dp(16))
        mark = max(dp(8), min(h * 0.36, (w * 0.55) / max(len(self.marks), 1) - dp(2)))
        for i, m in enumerate(self.marks):
            m.size = (mark, mark)
            m.pos = (x + dp(3) + i * (mark + dp(2)), y + dp(3))
        self._draw()

    def _draw(self) -> None:
        cell = self.data
        self.canvas.before.clear()
        if not cell:
            return
        x, y, w, h = self.x, self.y, self.width, self.height
        with self.canvas.before:
            Color(*(FACE_UP if cell.get("up") else FACE_DOWN))
            Rectangle(pos=(x, y), size=(w, h))
            if not cell.get("up"):  # the back of a card: a few diagonal strokes
                Color(0.24, 0.25, 0.3, 1)
                for k in range(1, 4):
                    Line(points=[x + w * k / 4, y + 2, x + w * k / 4 - h * 0.3, y + h - 2], width=1)
            if cell.get("count"):
                side = min(h * 0.48, w * 0.42)
                Color(*DANGER)
                Ellipse(pos=(x + w - side - dp(3), y + h - side - dp(3)), size=(side, side))
            for i, seat in enumerate(cell.get("outline") or []):  # a seat's target, outlined in its colour
                Color(*seat_colour(seat), 1)
                inset = 1 + i * 3
                Line(rectangle=(x + inset, y + inset, w - 2 * inset, h - 2 * inset), width=1.3)
            if cell.get("lit"):
                Color(*ACT)
                Line(rectangle=(x + 1, y + 1, w - 2, h - 2), width=2.2)


# -- a card on the table, a seat's panel ---------------------------------------------------------------------------


class TableCard(BoxLayout):
    def __init__(self, big: str, small: str, **kwargs):
        super().__init__(orientation="vertical", padding=dp(3), **kwargs)
        self.add_widget(Text(text=big, base_font=dp(30), min_font=dp(14), wrap=False, ink=CARD_BIG))
        self.add_widget(Text(text=small, base_font=dp(17), min_font=dp(10), wrap=False, ink=CARD_INK,
                             size_hint_y=0.45))
        self.bind(pos=self._frame, size=self._frame)

    def _frame(self, *_args) -> None:
        self.canvas.before.clear()
        with self.canvas.before:
            Color(*CARD)
            RoundedRectangle(pos=self.pos, size=self.size, radius=[dp(6)])


class SeatCard(BoxLayout):
    """A seat's panel: its chip, its lines, and where the board offers it, a button that answers its question here."""

    def __init__(self, words: Words, seat: str, lines: int, **kwargs):
        super().__init__(orientation="vertical", padding=dp(4), spacing=dp(1), **kwargs)
        self.words, self.seat, self.lit = words, seat, False
        self.add_widget(Chip(seat, words.seat(seat), font=dp(16), size_hint_y=None, height=dp(24)))
        self.texts = [Text(text="", base_font=dp(13), min_font=dp(8), ink=DIM) for _ in range(lines)]
        for text in self.texts:
            self.add_widget(text)
        self.answer = Action(text="", base_font=dp(13), min_font=dp(9), tone="quiet", size_hint_y=None, height=0,
                             opacity=0, disabled=True)
        self.answer.bind(on_release=lambda *_: self._answer())
        self.add_widget(self.answer)
        self.bind(pos=self._frame, size=self._frame)

    def show(self, panel: dict) -> None:
        tone = panel.get("tone")
        for k, text in enumerate(self.texts):
            bits = (panel.get("lines") or [])[k] if k < len(panel.get("lines") or []) else []
            text.text = say_line(self.words, bits)
            text.ink = SEAT_INK.get(tone, INK if k == 0 else DIM) if k == 0 else DIM
        answer = panel.get("answer")
        self.answer.text = self.words.say(answer) if answer else ""
        self.answer.height, self.answer.opacity, self.answer.disabled = (TARGET, 1, False) if answer else (0, 0, True)
        self.lit = bool(panel.get("lit"))
        self._frame()

    def _answer(self) -> None:
        app = App.get_running_app()
        if app is not None and hasattr(app, "answer_for"):
            app.answer_for(self.seat)  # its question, on this screen (behind the cover where it is secret)

    def _frame(self, *_args) -> None:
        self.canvas.before.clear()
        with self.canvas.before:
            Color(*PANEL)
            RoundedRectangle(pos=self.pos, size=self.size, radius=[dp(6)], segments=CORNER)
            if self.lit:
                Color(*ACT)
                Line(rounded_rectangle=(self.x + 1, self.y + 1, self.width - 2, self.height - 2, dp(6), CORNER),
                     width=1.5)


class Pips(Widget):
    """Done of most: one big circle each, filled once done."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.done, self.most = 0, 0
        self.bind(pos=self._draw, size=self._draw)

    def show(self, done: int, most: int) -> None:
        if (done, most) != (self.done, self.most):
            self.done, self.most = done, most
            self._draw()

    def _draw(self, *_args) -> None:
        self.canvas.clear()
        if not self.most:
            return
        side = min(self.height, self.width / self.most - dp(8))
        # (x + width / 2: center_x is not yet up to date when a change of size calls this)
        left = self.x + self.width / 2 - (self.most * (side + dp(8)) - dp(8)) / 2
        with self.canvas:
            for k in range(self.most):
                x, y = left + k * (side + dp(8)), self.y + (self.height - side) / 2
                Color(*(ACT if k < self.done else DIM))
                if k < self.done:
                    Ellipse(pos=(x, y), size=(side, side))
                else:
                    Line(circle=(x + side / 2, y + side / 2, side / 2 - 1), width=1)


# -- the parts ----------------------------------------------------------------------------------------------------


class HeadingPart(BoxLayout):
    grows = False

    def __init__(self, words: Words, part: dict, **kwargs):
        super().__init__(size_hint_y=None, height=dp(40), spacing=dp(6), **kwargs)
        self.words = words
        self.line = Text(text="", base_font=dp(20), min_font=dp(12), halign="left", valign="middle", size_hint_x=0.55)
        self.add_widget(self.line)
        self.side = BoxLayout(size_hint_x=0.45, spacing=dp(4))
        self.add_widget(self.side)
        self.side_key = None

    def show(self, part: dict) -> None:
        """The side's texts: a seat in a text (the Chief's badge) as its chip, the others in one line."""
        words = self.words
        self.line.text = say_line(words, part.get("line"))
        side = [t for t in part.get("side") or [] if t]
        key = (repr(side), words.lang)
        if key == self.side_key:
            return
        self.side_key = key
        self.side.clear_widgets()
        self.line.size_hint_x = 0.55 if side else 1
        plain = [say_line(words, texts) for texts in side if not any("chip" in b for b in texts)]
        if plain:  # counts and the like: one line, a dot between them
            self.side.add_widget(Text(text="  ·  ".join(plain), base_font=dp(15), min_font=dp(9), halign="right",
                                      valign="middle"))
        for texts in side:
            chips = [b["chip"] for b in texts if "chip" in b]
            if not chips:
                continue
            words_only = say_line(words, [b for b in texts if "chip" not in b])
            if words_only:
                self.side.add_widget(Text(text=words_only, base_font=dp(14), min_font=dp(9), ink=DIM,
                                          halign="right", valign="middle"))
            for seat in chips:
                self.side.add_widget(Chip(seat, words.seat(seat), font=dp(17), size_hint_x=0.6))


class LinesPart(Text):
    """Lines of facts in one text, each line after the last (a dot between them), shrunk to fit."""

    grows = False

    def __init__(self, words: Words, part: dict, **kwargs):
        super().__init__(text="", base_font=dp(14), min_font=dp(8), size_hint_y=None, height=0,
                         halign="left", valign="middle", **kwargs)
        self.words = words

    def show(self, part: dict) -> None:
        """Its height follows its lines: none take no room (nothing lies on the table), several take two rows."""
        lines = [t for t in (say_line(self.words, line) for line in part.get("lines") or []) if t]
        self.text = "  ·  ".join(lines)
        self.height = 0 if not lines else dp(20) * (2 if len(lines) > 1 else 1) + dp(2)
        self.ink = TONES.get(part.get("tone") or "plain", INK)


class FocusPart(BoxLayout):
    """A few lines in the middle of the board, big (whose turn it is), with pips under the first."""

    grows = True

    def __init__(self, words: Words, part: dict, **kwargs):
        super().__init__(orientation="vertical", spacing=dp(4), **kwargs)
        self.words = words
        self.texts: list[Text] = []
        self.pips = Pips(size_hint_y=None, height=dp(56))

    def show(self, part: dict) -> None:
        lines = list(part.get("lines") or [])
        while len(self.texts) < len(lines):
            first = not self.texts
            self.texts.append(Text(text="", base_font=dp(34 if first else 19), min_font=dp(12), size_hint_y=None,
                                   height=dp(60 if first else 34), ink=INK if first else DIM))
        self.clear_widgets()
        for text, bits in zip(self.texts, lines, strict=False):
            pips = next((b["pips"] for b in bits if "pips" in b), None)
            words = [b for b in bits if "pips" not in b]
            if words or pips is None:
                text.text = say_line(self.words, words)
                self.add_widget(text)
            if pips is not None:  # drawn big, one circle per action
                self.pips.show(*pips)
                self.add_widget(self.pips)
        self.add_widget(Widget())


class ZonesPart(GridLayout):
    grows = True

    def __init__(self, words: Words, part: dict, **kwargs):
        super().__init__(cols=int(part.get("columns") or 3), spacing=dp(4), **kwargs)
        self.cards = [ZoneCard(words) for _ in part.get("zones") or []]
        for card in self.cards:  # each drawn once into a picture of its own, again when it changes
            self.add_widget(Cached(card))

    def show(self, part: dict) -> None:
        for card, zone in zip(self.cards, part.get("zones") or [], strict=False):
            card.show(zone)

    def items(self) -> list[tuple[str, str, Widget]]:
        return [(card.data.get("id") or "", card.name.text, card) for card in self.cards]


class GridPart(BoxLayout):
    grows = True

    def __init__(self, words: Words, part: dict, **kwargs):
        super().__init__(orientation="vertical", spacing=dp(2), **kwargs)
        self.grid = GridLayout(cols=int(part.get("width") or 1), spacing=dp(2))
        self.cells = [CellCard(words) for _ in part.get("cells") or []]
        for cell in self.cells:
            self.grid.add_widget(Cached(cell))
        self.add_widget(self.grid)

    def show(self, part: dict) -> None:
        for card, cell in zip(self.cells, part.get("cells") or [], strict=False):
            card.show(cell)

    def items(self) -> list[tuple[str, str, Widget]]:
        return [(card.data.get("id") or "", card.label.text, card) for card in self.cells]


class CardsPart(BoxLayout):
    grows = False

    def __init__(self, words: Words, part: dict, **kwargs):
        super().__init__(spacing=dp(6), size_hint_y=None, height=dp(112), **kwargs)
        self.words = words
        left = BoxLayout(orientation="vertical", size_hint_x=0.27)
        self.title = Text(text="", base_font=dp(16), min_font=dp(10), halign="left", valign="middle")
        left.add_widget(self.title)
        self.footer = Text(text="", base_font=dp(15), min_font=dp(9), halign="left", valign="middle", ink=ACT)
        left.add_widget(self.footer)
        self.add_widget(left)
        self.row = BoxLayout(spacing=dp(4), size_hint_x=0.73)
        self.add_widget(self.row)
        self.key = None

    def show(self, part: dict) -> None:
        words = self.words
        self.title.text = words.say(part.get("title"))
        self.footer.text = say_line(words, part.get("footer"))
        key = (repr(part.get("cards")), words.lang)
        if key == self.key:
            return
        self.key = key
        cards = list(part.get("cards") or [])
        self.row.clear_widgets()
        for card in cards[:MAX_CARDS]:
            self.row.add_widget(TableCard(str(card.get("big")), say_line(words, card.get("small")),
                                          size_hint=(None, 1), width=dp(66)))
        if len(cards) > MAX_CARDS:
            self.row.add_widget(Text(text=f"+{len(cards) - MAX_CARDS}", base_font=dp(22), wrap=False,
                                     size_hint_x=None, width=dp(44)))
        self.row.add_widget(Widget())


class SeatsPart(BoxLayout):
    """The seats side by side, each a panel; or a row each (a seat's symbol and one line)."""

    grows = False

    def __init__(self, words: Words, part: dict, **kwargs):
        seats = list(part.get("seats") or [])
        self.words, self.rows = words, bool(part.get("rows"))
        if self.rows:
            super().__init__(orientation="vertical", spacing=dp(1), size_hint_y=None, height=dp(20) * len(seats),
                             **kwargs)
            self.cards = []
            self.texts = []
            self.row_widgets = []
            for seat in seats:
                row = BoxLayout(spacing=dp(4), size_hint_y=None, height=dp(19))
                row.seat = seat["seat"]
                self.row_widgets.append(row)
                row.add_widget(Mark(seat=seat["seat"], size_hint=(None, None), size=(dp(16), dp(16)),
                                    pos_hint={"center_y": 0.5}))
                text = Text(text="", base_font=dp(13), min_font=dp(8), wrap=False, halign="left", valign="middle")
                row.add_widget(text)
                self.add_widget(row)
                self.texts.append(text)
            return
        lines = max([len(s.get("lines") or []) for s in seats] or [1])
        answers = any(s.get("answer") for s in seats)
        super().__init__(spacing=dp(4), size_hint_y=None,
                         height=max(dp(76), dp(30) + dp(20) * lines) + (TARGET if answers else 0), **kwargs)
        self.cards = [SeatCard(words, s["seat"], lines) for s in seats]
        self.row_widgets = []
        for card in self.cards:
            self.add_widget(card)

    def items(self) -> list[tuple[str, str, Widget]]:
        return [(widget.seat, self.words.seat(widget.seat), widget)
                for widget in self.cards or self.row_widgets]

    def show(self, part: dict) -> None:
        if self.rows:
            for text, panel in zip(self.texts, part.get("seats") or [], strict=False):
                name = self.words.seat(panel['seat'])
                text.text = " · ".join([name, *(say_line(self.words, line) for line in panel.get("lines") or [])])
                text.ink = SEAT_INK.get(panel.get("tone"), INK)
            return
        for card, panel in zip(self.cards, part.get("seats") or [], strict=False):
            card.show(panel)


class ScoresPart(GridLayout):
    """The end's table in the middle of the board: a row per seat, the columns' heads above."""

    grows = False

    def __init__(self, words: Words, part: dict, **kwargs):
        columns = list(part.get("columns") or [])
        rows = list(part.get("rows") or [])
        width = max([len(r.get("cells") or []) for r in rows] or [1])
        super().__init__(cols=1 + width, spacing=dp(3), size_hint_y=None, row_default_height=dp(40),
                         row_force_default=True, **kwargs)
        self.words = words
        self.bind(minimum_height=self.setter("height"))
        if columns:
            self.add_widget(Widget())
            for column in columns[:width]:
                self.add_widget(Text(text=words.say(column), base_font=dp(15), min_font=dp(9), ink=DIM, wrap=False))
        self.cells: list[tuple[list[Text], dict]] = []
        for row in rows:
            self.add_widget(Chip(row["seat"], words.seat(row['seat']), font=dp(16)))
            texts = [Text(text="", base_font=dp(16), min_font=dp(9), wrap=False) for _ in range(width)]
            for text in texts:
                self.add_widget(text)
            self.cells.append((texts, row))

    def show(self, part: dict) -> None:
        for (texts, _), row in zip(self.cells, part.get("rows") or [], strict=False):
            for k, (text, bits) in enumerate(zip(texts, row.get("cells") or [], strict=False)):
                text.text = say_line(self.words, bits)
                text.ink = GOOD if row.get("winner") and k == len(texts) - 1 else INK


PARTS: dict[str, type] = {"heading": HeadingPart, "lines": LinesPart, "focus": FocusPart, "zones": ZonesPart,
                          "grid": GridPart, "cards": CardsPart, "seats": SeatsPart, "scores": ScoresPart}


def shape(part: dict) -> tuple:
    """What a part's widgets are made for: a new shape makes them anew, the same shape only gives new words."""
    kind = part.get("part")
    if kind == "zones":
        return kind, part.get("columns"), len(part.get("zones") or [])
    if kind == "grid":
        return kind, part.get("width"), len(part.get("cells") or [])
    if kind == "seats":
        return kind, bool(part.get("rows")), tuple(s["seat"] for s in part.get("seats") or []), max(
            [len(s.get("lines") or []) for s in part.get("seats") or []] or [0]), any(
            s.get("answer") for s in part.get("seats") or [])
    if kind == "scores":
        return kind, repr(part.get("columns")), tuple(r["seat"] for r in part.get("rows") or [])
    return (kind,)


class Board(BoxLayout):
    """The whole board at a glance, drawn from its parts, top to bottom; the zones, the grid or the focus fill what
    is left."""

    def __init__(self, words: Words, **kwargs):
        super().__init__(orientation="vertical", spacing=dp(4), **kwargs)
        self.words = words
        self.shapes: list[tuple] = []
        self.widgets: list[Widget] = []
        self.key = None

    def update(self, view: dict) -> None:
        main = list((view.get("parts") or {}).get("main") or [])
        main = [p for p in main if p.get("part") in PARTS]
        key = (repr(main), self.words.lang)
        if key == self.key:
            return
        self.key = key
        shapes = [shape(p) for p in main]
        if shapes != self.shapes:
            kept = dict(zip(self.shapes, self.widgets, strict=False)) if len(set(self.shapes)) == len(self.shapes) \
                else {}
            self.clear_widgets()
            self.widgets = [kept.pop(s, None) or PARTS[p["part"]](self.words, p) for s, p in zip(shapes, main,
                                                                                                 strict=True)]
            self.shapes = shapes
            grows = any(w.grows for w in self.widgets)
            for k, widget in enumerate(self.widgets):
                if not grows and 0 < k < len(self.widgets) - 1:
                    self.add_widget(Widget(size_hint_y=0.3))  # no part fills the board: the space goes between them
                self.add_widget(widget)
        for widget, part in zip(self.widgets, main, strict=True):
            widget.show(part)

    def items(self) -> list[tuple[str, str, Widget]]:
        """The board's items a finger can point at, each as (its id, its name as shown, its widget): the zones, the
        cells and the seats' panels (the board editor offers each item's facts where the item is drawn)."""
        return [item for widget in self.widgets if hasattr(widget, "items") for item in widget.items()]


# -- the seat's secrets, the revealed ballot and the end ----------------------------------------------------------


def secrets(view: dict, words: Words) -> list[tuple[str, Callable[[], str], bool]]:
    """What a seat may look at alone, each read only while the finger holds the button."""
    out = []
    for secret in view.get("secrets") or []:  # a seat's own, beside the public board's parts
        if secret.get("part") != "secret":
            continue  # a line of its own, shown openly on its phone
        lines = list(secret.get("lines") or [])

        def reveal(lines: list = lines) -> str:
            return "\n".join(say_line(words, line) for line in lines)

        out.append((words.say(secret.get("label")), reveal, bool(secret.get("urgent"))))
    return out


def revealed(view: dict, words: Words) -> tuple[str, list[str]] | None:
    for part in (view.get("parts") or {}).get("revealed") or []:
        if part.get("part") == "ballot":
            title = words.t("ui.revealed", purpose=part.get("title"))
            if part.get("revote"):
                title += " · " + words.t("ui.revote")
            lines = [words.t("ui.ballot_line", voter=r["voter"], count=r["weight"], candidate=r["choice"])
                     if r.get("choice") else words.t("ui.ballot_abstained", voter=r["voter"], count=r["weight"])
                     for r in part.get("rows") or []]
            leaders = list(part.get("leaders") or [])
            return title, ["  ·  ".join(lines), words.t("ui.chosen" if len(leaders) == 1 else "ui.tie",
                                                        colours=leaders)]
        if part.get("part") == "lines" and part.get("title"):
            return words.say(part["title"]), [say_line(words, line) for line in part.get("lines") or []]
    return None
