"""Eaten by Zombies!'s board on the touchscreen: the turn and who faces the zombies, the zombie deck and discard
with the flips a turn, the field's zombies as cards (level in red, speed by its arrow) with both sums, each seat
(human or zombie player, zombies among his cards, his Powers), the Powers in force with what they do, and the
last fight or run with the cards to remove and the budget. Game knowledge of the screen lives here only."""

from __future__ import annotations

from collections.abc import Callable

from kivy.graphics import Color, Line, RoundedRectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.ui.widgets import ACT, DANGER, DIM, INK, PANEL, Chip, Text
from companion.ui.words import Words

CARD_INK = (0.1, 0.1, 0.1, 1)
LEVEL_RED = (0.78, 0.12, 0.1, 1)
MAX_CARDS = 8  # zombie cards drawn side by side; more are summed up by the count


def colour_name(words: Words, seat: str) -> str:
    return words.t(f"colour.{seat}")


class ZombieCard(BoxLayout):
    """One zombie in the field: a pale card, its level big and red, its speed beside an arrow."""

    def __init__(self, words: Words, level: int, speed: int, **kwargs):
        super().__init__(orientation="vertical", padding=dp(3), **kwargs)
        self.add_widget(Text(text=str(level), base_font=dp(30), min_font=dp(14), wrap=False, ink=LEVEL_RED))
        self.add_widget(Text(text=f"→ {speed}", base_font=dp(17), min_font=dp(10), wrap=False, ink=CARD_INK,
                             size_hint_y=0.45))
        self.bind(pos=self._frame, size=self._frame)

    def _frame(self, *_args) -> None:
        self.canvas.before.clear()
        with self.canvas.before:
            Color(0.93, 0.91, 0.84, 1)
            RoundedRectangle(pos=self.pos, size=self.size, radius=[dp(6)])


class SeatCard(BoxLayout):
    """A seat: chip, human or zombie player, zombies among his cards (or in his hand), his Powers."""

    def __init__(self, words: Words, seat: str, **kwargs):
        super().__init__(orientation="vertical", padding=dp(4), spacing=dp(1), **kwargs)
        self.words, self.seat = words, seat
        self.add_widget(Chip(seat, colour_name(words, seat), font=dp(16), size_hint_y=None, height=dp(24)))
        self.status = Text(text="", base_font=dp(13), min_font=dp(8), ink=DIM, wrap=False)
        self.add_widget(self.status)
        self.held = Text(text="", base_font=dp(13), min_font=dp(8), wrap=False)
        self.add_widget(self.held)
        self.active = False
        self.bind(pos=self._frame, size=self._frame)

    def update(self, view: dict) -> None:
        words, seat = self.words, self.seat
        zombie = seat in (view.get("zombie_players") or [])
        powers = (view.get("powers") or {}).get(seat) or []
        status = words.t("ebz.board.zombie_player" if zombie else "ebz.board.human")
        if powers:
            status += " · " + words.t("ebz.board.powers", levels=" ".join(str(p) for p in powers))
        self.status.text = status
        self.status.ink = DANGER if zombie else DIM
        count = int((view.get("zombies_held") or {}).get(seat) or 0)
        self.held.text = words.t("ebz.board.in_hand" if zombie else "ebz.board.held", count=count)
        self.active = view.get("active") == seat
        self._frame()

    def _frame(self, *_args) -> None:
        self.canvas.before.clear()
        with self.canvas.before:
            Color(*PANEL)
            RoundedRectangle(pos=self.pos, size=self.size, radius=[dp(6)])
            if self.active:
                Color(*ACT)
                Line(rounded_rectangle=(self.x + 1, self.y + 1, self.width - 2, self.height - 2, dp(6)), width=1.5)


class Board(BoxLayout):
    """The whole table at a glance: the turn, the zombie deck, the field, the seats, the Powers, the last outcome."""

    def __init__(self, words: Words, **kwargs):
        super().__init__(orientation="vertical", spacing=dp(4), **kwargs)
        self.words = words
        head = BoxLayout(size_hint_y=None, height=dp(34), spacing=dp(6))
        self.heading = Text(text="", base_font=dp(19), min_font=dp(11), halign="left", valign="middle",
                            size_hint_x=0.42)
        head.add_widget(self.heading)
        self.counts = Text(text="", base_font=dp(15), min_font=dp(9), halign="right", valign="middle",
                           size_hint_x=0.58)
        head.add_widget(self.counts)
        self.add_widget(head)
        self.add_widget(Widget(size_hint_y=0.3))
        field = BoxLayout(spacing=dp(6), size_hint_y=None, height=dp(112))
        left = BoxLayout(orientation="vertical", size_hint_x=0.27)
        self.field_title = Text(text="", base_font=dp(16), min_font=dp(10), halign="left", valign="middle")
        left.add_widget(self.field_title)
        self.sums = Text(text="", base_font=dp(15), min_font=dp(9), halign="left", valign="middle", ink=ACT)
        left.add_widget(self.sums)
        field.add_widget(left)
        self.cards = BoxLayout(spacing=dp(4), size_hint_x=0.73)
        field.add_widget(self.cards)
        self.add_widget(field)
        self.add_widget(Widget(size_hint_y=0.3))
        self.seats = BoxLayout(size_hint_y=None, height=dp(70), spacing=dp(4))
        self.add_widget(self.seats)
        self.powers = Text(text="", base_font=dp(14), min_font=dp(8), halign="left", valign="middle",
                           size_hint_y=None, height=dp(40))
        self.add_widget(self.powers)
        self.last = Text(text="", base_font=dp(14), min_font=dp(8), halign="left", valign="middle", ink=DIM,
                         size_hint_y=None, height=dp(24))
        self.add_widget(self.last)
        self.seat_cards: dict[str, SeatCard] = {}
        self.key = None

    def update(self, view: dict) -> None:
        key = (self.words.lang, view.get("round"), view.get("step"), view.get("active"), view.get("deck"),
               view.get("discard"), view.get("flips"), repr(view.get("field")), repr(view.get("zombies_held")),
               repr(view.get("powers")), repr(view.get("in_force")), repr(view.get("last")), view.get("over"),
               repr(view.get("zombie_players")))
        if key == self.key:
            return
        self.key = key
        words = self.words
        players = list(view.get("players") or [])
        if view.get("active"):
            self.heading.text = words.t("ebz.board.turn", round=view.get("round"), colour=view["active"])
        elif view.get("over"):
            self.heading.text = words.t("ebz.board.over")
        else:
            self.heading.text = words.t("ebz.board.setup")
        self.counts.text = "  ·  ".join([
            f"{words.t('ebz.board.deck')} {view.get('deck', 0)}",
            f"{words.t('ebz.board.discard')} {view.get('discard', 0)}",
            words.t("ebz.board.flips", flips=view.get("flips", 1))])
        field = list(view.get("field") or [])
        self.field_title.text = words.t("ebz.board.field") if field else words.t("ebz.board.empty")
        self.sums.text = words.t("ebz.board.sums", level_sum=view.get("level_sum", 0),
                                 speed_sum=view.get("speed_sum", 0)) if field else ""
        self.cards.clear_widgets()
        for zombie in field[:MAX_CARDS]:
            self.cards.add_widget(ZombieCard(words, zombie.get("level"), zombie.get("speed"),
                                             size_hint=(None, 1), width=dp(66)))
        if len(field) > MAX_CARDS:
            self.cards.add_widget(Text(text=f"+{len(field) - MAX_CARDS}", base_font=dp(22), wrap=False,
                                       size_hint_x=None, width=dp(44)))
        self.cards.add_widget(Widget())
        if list(self.seat_cards) != players:
            self.seats.clear_widgets()
            self.seat_cards = {seat: SeatCard(words, seat) for seat in players}
            for card in self.seat_cards.values():
                self.seats.add_widget(card)
        for card in self.seat_cards.values():
            card.update(view)
        in_force = list(view.get("in_force") or [])
        if in_force:
            self.powers.text = words.t("ebz.board.in_force") + ": " + "; ".join(
                words.t(f"ebz.power.{level}") for level in in_force)
            self.powers.ink = DANGER
        else:
            self.powers.text = words.t("ebz.board.no_power")
            self.powers.ink = DIM
        self.last.text = last_text(view, words)
        self.last.ink = INK if view.get("last") else DIM


def last_text(view: dict, words: Words) -> str:
    last = view.get("last")
    if not isinstance(last, dict):
        return words.t("ebz.board.rounding." + ("up" if view.get("rounding") == "up" else "down"))
    parts = [words.t(f"ebz.board.last.{'fight' if last.get('how') == 'fight' else 'run'}", colour=last.get("seat"),
                     value=last.get("value"), need=last.get("need")),
             words.t(f"ebz.board.result.{last.get('result')}")]
    if last.get("remove"):
        parts.append(words.t("ebz.board.remove", count=last["remove"]))
    if last.get("budget") is not None:
        parts.append(words.t("ebz.board.budget", budget=last["budget"]))
    return " · ".join(parts)


# -- the seat's secrets and the end ---------------------------------------------------------------------------


def secrets(view: dict, words: Words) -> list[tuple[str, Callable[[], str], bool]]:
    """A zombie player's hand of zombies, by level, read only while the finger holds the button."""
    hand = view.get("hand")
    if not isinstance(hand, dict) or not any(hand.values()):
        return []
    levels = dict(hand)

    def show() -> str:
        return "  ".join(words.t("ebz.board.hand_levels", level=level, count=n) for level, n in levels.items() if n)

    return [(words.t("ebz.board.your_hand"), show, False)]


def over(view: dict, words: Words) -> list[tuple[str, str, bool]]:
    winners = set(view.get("winners") or [])
    zombies = set(view.get("zombie_players") or [])
    players = list(view.get("players") or [])
    ranked = sorted(players, key=lambda p: (p not in winners, players.index(p)))
    return [(p, words.t("ebz.board.end.zombie" if p in zombies else "ebz.board.end.human"), p in winners)
            for p in ranked]


__all__ = ["Board", "over", "secrets"]
