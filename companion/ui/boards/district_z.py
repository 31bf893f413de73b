"""District-Z's board on the touchscreen: the city grid at a glance (each district's name, face down or up, its
zombie tokens as a red number, items and objective cards lying there, the survivors as their seat's symbol, each
player's target corner outlined in his colour, the turn's district lit), the round and whose turn, the dice of the
combat or the fight on the table, and one line per survivor (attack, health, damage, items, objective). Nothing of
this game is secret. Game knowledge of the screen lives here and nowhere else."""

from __future__ import annotations

from collections.abc import Callable

from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.ui.widgets import ACT, DANGER, DIM, GOOD, INK, Cached, Mark, Text, seat_colour
from companion.ui.words import Words

FACE_DOWN = (0.16, 0.17, 0.21, 1)
FACE_UP = (0.33, 0.35, 0.41, 1)
OBJECTIVE = (0.98, 0.82, 0.25, 1)


def colour_name(words: Words, seat: str) -> str:
    return words.t(f"colour.{seat}")


class District(Widget):
    """One card of the city: drawn on the canvas, with three short texts and a mark per survivor there."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.name = Text(text="", base_font=dp(13), min_font=dp(8), wrap=False, halign="left", valign="top",
                         ink=DIM, pad=dp(2))
        self.zombies = Text(text="", base_font=dp(22), min_font=dp(10), wrap=False, halign="center",
                            valign="middle", pad=0)
        self.lying = Text(text="", base_font=dp(13), min_font=dp(8), wrap=False, halign="right", valign="bottom",
                          pad=dp(2))
        for child in (self.name, self.zombies, self.lying):
            child.size_hint = (None, None)
            self.add_widget(child)
        self.marks: list[Mark] = []
        self.key = None
        self.data: dict = {}
        self.bind(pos=self._layout, size=self._layout)

    def show(self, data: dict) -> None:
        key = tuple(sorted((k, repr(v)) for k, v in data.items()))
        if key == self.key:
            return
        self.key, self.data = key, data
        self.name.text = data["cell"]
        self.name.ink = INK if data["up"] else DIM
        self.zombies.text = str(data["zombies"]) if data["zombies"] else ""
        parts = []
        if data["objectives"]:
            parts.append("★" * data["objectives"])
        if data["items"]:
            parts.append(f"▣{data['items']}")
        self.lying.text = " ".join(parts)
        self.lying.ink = OBJECTIVE if data["objectives"] else INK
        seats = list(data["seats"])
        if [m.seat for m in self.marks] != seats:
            for mark in self.marks:
                self.remove_widget(mark)
            self.marks = [Mark(seat=s, size_hint=(None, None)) for s in seats]
            for mark in self.marks:
                self.add_widget(mark)
        self._layout()

    def _layout(self, *_args) -> None:
        x, y, w, h = self.x, self.y, self.width, self.height
        self.name.pos, self.name.size = (x + dp(2), y + h - dp(18)), (w * 0.6, dp(16))
        side = min(h * 0.48, w * 0.42)
        self.zombies.size = (side, side)
        self.zombies.pos = (x + w - side - dp(3), y + h - side - dp(3))
        self.lying.pos, self.lying.size = (x + w * 0.45, y + dp(1)), (w * 0.55 - dp(2), dp(16))
        mark = max(dp(8), min(h * 0.36, (w * 0.55) / max(len(self.marks), 1) - dp(2)))
        for i, m in enumerate(self.marks):
            m.size = (mark, mark)
            m.pos = (x + dp(3) + i * (mark + dp(2)), y + dp(3))
        self._draw()

    def _draw(self) -> None:
        data = self.data
        self.canvas.before.clear()
        if not data:
            return
        x, y, w, h = self.x, self.y, self.width, self.height
        with self.canvas.before:
            Color(*(FACE_UP if data["up"] else FACE_DOWN))
            Rectangle(pos=(x, y), size=(w, h))
            if not data["up"]:  # the back of a card: a few diagonal strokes, as the compass side looks
                Color(0.24, 0.25, 0.3, 1)
                for k in range(1, 4):
                    Line(points=[x + w * k / 4, y + 2, x + w * k / 4 - h * 0.3, y + h - 2], width=1)
            if data["zombies"]:
                side = min(h * 0.48, w * 0.42)
                Color(*DANGER)
                Ellipse(pos=(x + w - side - dp(3), y + h - side - dp(3)), size=(side, side))
            for i, seat in enumerate(data["targets"]):  # a player's target corner, outlined in his colour
                Color(*seat_colour(seat), 1)
                inset = 1 + i * 3
                Line(rectangle=(x + inset, y + inset, w - 2 * inset, h - 2 * inset), width=1.3)
            if data["turn"]:
                Color(*ACT)
                Line(rectangle=(x + 1, y + 1, w - 2, h - 2), width=2.2)


class Board(BoxLayout):
    """The whole city at a glance: the heading, the grid, the dice on the table, the survivors."""

    def __init__(self, words: Words, **kwargs):
        super().__init__(orientation="vertical", spacing=dp(3), **kwargs)
        self.words = words
        self.heading = Text(text="", base_font=dp(19), min_font=dp(11), halign="left", valign="middle",
                            size_hint_y=None, height=dp(30))
        self.add_widget(self.heading)
        self.grid = GridLayout(cols=6, spacing=dp(2))
        self.add_widget(self.grid)
        self.table = Text(text="", base_font=dp(15), min_font=dp(9), halign="left", valign="middle",
                          size_hint_y=None, height=dp(26), ink=ACT)
        self.add_widget(self.table)
        self.people = GridLayout(cols=1, spacing=(dp(4), dp(1)), size_hint_y=None, height=dp(20))
        self.add_widget(self.people)
        self.info = Text(text="", base_font=dp(12), min_font=dp(8), ink=DIM, size_hint_y=None, height=dp(30),
                         halign="left", valign="middle")
        self.add_widget(self.info)
        self.districts: list[District] = []
        self.shape = None
        self.rows: dict[str, tuple[Mark, Text]] = {}
        self.key = None

    def update(self, view: dict) -> None:
        words = self.words
        key = (words.lang, repr(sorted((k, repr(v)) for k, v in view.items() if k not in ("narration", "cup_rolls"))))
        if key == self.key:
            return
        self.key = key
        grid = view.get("grid") or {}
        width, height = int(grid.get("width") or 6), int(grid.get("height") or 5)
        if self.shape != (width, height):
            self.shape = (width, height)
            self.grid.clear_widgets()
            self.grid.cols = width
            self.districts = [District() for _ in range(width * height)]
            for district in self.districts:  # each drawn once into a picture of its own, again when it changes
                self.grid.add_widget(Cached(district))
        survivors = view.get("survivors") or {}
        players = list(view.get("players") or [])
        turn = view.get("turn")
        here: dict[str, list[str]] = {}
        targets: dict[str, list[str]] = {}
        for seat in players:
            s = survivors.get(seat) or {}
            if s.get("cell"):
                here.setdefault(s["cell"], []).append(seat)
            if s.get("target") and not s.get("out"):
                targets.setdefault(s["target"], []).append(seat)
        turn_cell = (survivors.get(turn) or {}).get("cell") if turn else None
        for district, cell in zip(self.districts, view.get("cells") or [], strict=False):
            district.show({**cell, "seats": here.get(cell["cell"], []), "targets": targets.get(cell["cell"], []),
                           "turn": cell["cell"] == turn_cell})
        round_ = words.t("dz.board.round", round=view.get("round") or 1)
        if view.get("over"):
            self.heading.text = round_ + " · " + words.t("dz.board.lost" if view.get("lost") else "dz.board.over")
        else:
            self.heading.text = round_ + (" · " + words.t("dz.board.turn", colour=turn) if turn else "")
        self.table.text = self._table(view)
        self._people(view, players, survivors)
        self.info.text = words.t("dz.board.stock", hidden=view.get("hidden_objectives", 0),
                                 aside=view.get("set_aside", 0), spare=view.get("spare_survivors", 0)) + \
            "\n" + words.t("dz.board.legend")

    def _table(self, view: dict) -> str:
        words = self.words
        combat, fight = view.get("combat"), view.get("fight")
        if isinstance(combat, dict):
            parts = [words.t("dz.board.combat", cell=combat.get("cell"), count=combat.get("zombies"),
                             attack=combat.get("attack"))]
            if combat.get("red"):
                parts.append(words.t("dz.board.red") + " " + " ".join(str(d) for d in combat["red"]))
            if combat.get("black"):
                parts.append(words.t("dz.board.black") + " " + " ".join(str(d) for d in combat["black"]))
            return "  ·  ".join(parts)
        if isinstance(fight, dict):
            parts = [words.t("dz.board.fight", colour=fight.get("attacker"), to_seat=fight.get("defender"))]
            for dice in (fight.get("red"), fight.get("other")):
                if dice:
                    parts.append(" ".join(str(d) for d in dice) + f" (Σ {sum(dice)})")
            return "  ·  ".join(parts)
        if view.get("die") and view.get("step") in ("outcome", "special", "zombies", "item_kind", "item_attack",
                                                    "item_health"):
            return words.t("dz.board.event") + " " + str(view["die"])
        return ""

    def _people(self, view: dict, players: list[str], survivors: dict) -> None:
        words = self.words
        if list(self.rows) != players:
            self.people.clear_widgets()
            self.rows = {}
            for seat in players:
                row = BoxLayout(spacing=dp(4), size_hint_y=None, height=dp(19))
                mark = Mark(seat=seat, size_hint=(None, None), size=(dp(16), dp(16)), pos_hint={"center_y": 0.5})
                text = Text(text="", base_font=dp(13), min_font=dp(8), wrap=False, halign="left", valign="middle")
                row.add_widget(mark)
                row.add_widget(text)
                self.people.add_widget(row)
                self.rows[seat] = (mark, text)
            self.people.height = dp(20) * len(players)
        for seat in players:
            s = survivors.get(seat) or {}
            self.rows[seat][1].text, self.rows[seat][1].ink = _line(words, seat, s)


def _line(words: Words, seat: str, s: dict) -> tuple[str, tuple]:
    name = colour_name(words, seat)
    if s.get("won"):
        return f"{name}: {words.t('dz.board.won')}", GOOD
    if s.get("out"):
        return f"{name}: {words.t('dz.board.out')}", DIM
    if s.get("attack") is None or s.get("health") is None:
        return f"{name}: {words.t('dz.board.waiting')}", DIM
    parts = [f"{name} {s.get('cell') or ''}".strip(),
             words.t("dz.board.survivor", attack=s["attack"], health=s["health"], damage=s.get("damage", 0))]
    if s.get("items"):
        parts.append(words.t("dz.board.items", count=len(s["items"]), hands=s.get("hands", 0)))
    if s.get("objective"):
        parts.append("★ → " + str(s.get("target")))
    hurt = s.get("damage", 0) and s["health"] - s["damage"] <= 1
    return " · ".join(parts), (DANGER if hurt else INK)


# -- secrets (none), the revealed ballot (none) and the end -------------------------------------------------------


def secrets(view: dict, words: Words) -> list[tuple[str, Callable[[], str], bool]]:
    return []  # every die of District-Z is rolled in the open


def revealed(view: dict, words: Words) -> tuple[str, list[str]] | None:
    return None


def over(view: dict, words: Words) -> list[tuple[str, str, bool]]:
    winners = list(view.get("winners") or [])
    survivors = view.get("survivors") or {}
    players = list(view.get("players") or [])
    ranked = winners + [p for p in players if p not in winners]
    out = []
    for seat in ranked:
        s = survivors.get(seat) or {}
        result = "won" if seat in winners else "out" if s.get("out") else "alive"
        out.append((seat, words.t(f"dz.board.result.{result}"), seat in winners))
    return out


__all__ = ["Board", "over", "revealed", "secrets"]
