"""Mall of Horror's board on the touchscreen: all six locations at once (name and number, zombies as a big
number, the characters as tokens in their seat's colour and symbol with their points, capacity, closed marks),
the round, the phase and the Chief, the cards in hand and the deck; the seat's secrets behind hold-to-peek; the
revealed ballot; the scores at the end. Game knowledge of the screen lives here and nowhere else."""

from __future__ import annotations

import re
from collections.abc import Callable

from kivy.graphics import Color, Line, Rectangle, RoundedRectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.ui.widgets import ACT, CORNER, DANGER, DIM, INK, PANEL, Cached, Chip, Mark, Text, Token
from companion.ui.words import Words

LOCATIONS = (1, 2, 3, 4, 5, 6)
CAPACITY = {1: 3, 2: 4, 3: 4, 4: None, 5: 3, 6: 6}  # None: no limit
POINTS = {"pinup": 7, "tough": 5, "gunman": 3, "girl": 1}  # what each figure scores, printed on the token


def place(words: Words, loc: int) -> tuple[str, str]:
    """A location's number and name ("4", "Parking") as the catalogue says it ("4 Parking")."""
    text = words.say({"key": "mall.board.place", "params": {"location": loc}})
    match = re.match(r"^(\d+)\s*(.*)$", text)
    return (match.group(1), match.group(2)) if match else (str(loc), text)


def colour_name(words: Words, seat: str) -> str:
    return words.t(f"colour.{seat}")


class LocationCard(BoxLayout):
    def __init__(self, words: Words, loc: int, **kwargs):
        super().__init__(orientation="vertical", padding=dp(4), spacing=dp(2), **kwargs)
        self.words, self.loc, self.key = words, loc, None
        number, name = place(words, loc)
        head = BoxLayout(size_hint_y=None, height=dp(30), spacing=dp(4))
        self.number = Text(text=number, base_font=dp(20), wrap=False, size_hint_x=None, width=dp(26),
                           ink=(0.1, 0.1, 0.1, 1))
        head.add_widget(self.number)
        self.name = Text(text=name, base_font=dp(17), min_font=dp(10), halign="left", valign="middle")
        head.add_widget(self.name)
        self.arrivals = BoxLayout(size_hint_x=None, width=0, spacing=dp(1))  # who goes here this round
        head.add_widget(self.arrivals)
        self.add_widget(head)
        middle = BoxLayout(size_hint_y=None, height=dp(58), spacing=dp(4))
        zombies = BoxLayout(orientation="vertical", size_hint_x=0.45)
        self.zombies = Text(text="0", base_font=dp(40), min_font=dp(20), wrap=False)
        zombies.add_widget(self.zombies)
        self.zombie_word = Text(text="", base_font=dp(12), min_font=dp(8), ink=DIM, size_hint_y=None,
                                height=dp(16))
        zombies.add_widget(self.zombie_word)
        middle.add_widget(zombies)
        self.capacity = Text(text="", base_font=dp(15), min_font=dp(9), halign="center", valign="middle",
                             size_hint_x=0.55)
        middle.add_widget(self.capacity)
        self.add_widget(middle)
        self.tokens = Widget()
        self.tokens.bind(size=self._place_tokens, pos=self._place_tokens)
        self.add_widget(self.tokens)
        self.bind(pos=self._frame, size=self._frame)
        self.state = ("", False, False, False)

    def update(self, view: dict, people: list[tuple[str, str, bool]], arrivals: list[str]) -> None:
        closed = self.loc in (view.get("closed") or [])
        zombies = int((view.get("zombies") or {}).get(str(self.loc), 0))
        attacked = view.get("phase") == "attack" and view.get("location") == self.loc
        vote = view.get("vote") or {}
        voting = vote.get("location") == self.loc and vote.get("purpose") == "victim"
        key = (closed, zombies, attacked, voting, tuple(people), tuple(arrivals), self.words.lang)
        if key == self.key:
            return
        self.key = key
        words = self.words
        self.zombies.text = str(zombies)
        self.zombies.ink = DANGER if zombies else DIM
        self.zombie_word.text = words.t("ui.mall.zombies")
        capacity = CAPACITY[self.loc]
        if closed:
            self.capacity.text = words.t("mall.board.closed")
            self.capacity.ink = DANGER
        else:
            self.capacity.ink = INK
            self.capacity.text = (words.t("ui.mall.capacity_unlimited", people=len(people)) if capacity is None
                                  else words.t("ui.mall.capacity", people=len(people), capacity=capacity))
        if [m.seat for m in reversed(self.arrivals.children)] != list(arrivals):
            self.arrivals.clear_widgets()
            for seat in arrivals:
                self.arrivals.add_widget(Mark(seat=seat, size_hint=(None, None), size=(dp(14), dp(14)),
                                              pos_hint={"center_y": 0.5}))
            self.arrivals.width = dp(15) * len(arrivals)
        self.people = people
        self.state = ("closed" if closed else "", attacked, voting, bool(zombies))
        self._place_tokens()
        self._frame()

    def _place_tokens(self, *_args) -> None:
        area = self.tokens
        people = getattr(self, "people", [])
        if getattr(self, "_people_drawn", None) != people:  # tokens change only with the pieces
            self._people_drawn = list(people)
            kept = {(t.seat, t.text, t.faded): t for t in area.children}
            area.clear_widgets()
            for seat, kind, hidden in people:
                text = str(POINTS.get(kind, "?"))
                area.add_widget(kept.pop((seat, text, hidden), None) or Token(seat, text, faded=hidden))
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
        closed, attacked, voting, _ = self.state
        self.canvas.before.clear()
        with self.canvas.before:
            Color(*((0.1, 0.1, 0.12, 1) if closed else PANEL))
            RoundedRectangle(pos=self.pos, size=self.size, radius=[dp(8)], segments=CORNER)
            Color(*(0.95, 0.95, 0.95, 1))
            RoundedRectangle(pos=(self.x + dp(4), self.top - dp(4) - dp(30)), size=(dp(26), dp(30)), radius=[dp(5)],
                             segments=CORNER)
            if attacked or voting:
                Color(*(DANGER if attacked else ACT))
                Line(rounded_rectangle=(self.x + 1, self.y + 1, self.width - 2, self.height - 2, dp(8), CORNER),
                     width=2.2)
        self.canvas.after.clear()
        if closed:
            with self.canvas.after:  # the closed mark: a band across the card, as the physical token lies
                Color(*DANGER[:3], 0.35)
                Rectangle(pos=(self.x, self.y), size=(self.width, self.height - dp(36)))


class Board(BoxLayout):
    """The whole board at a glance: a heading line, six locations in two rows, the cards and the legend."""

    def __init__(self, words: Words, **kwargs):
        super().__init__(orientation="vertical", spacing=dp(4), **kwargs)
        self.words = words
        head = BoxLayout(size_hint_y=None, height=dp(40), spacing=dp(6))
        self.heading = Text(text="", base_font=dp(20), min_font=dp(12), halign="left", valign="middle",
                            size_hint_x=0.55)
        head.add_widget(self.heading)
        self.chief = BoxLayout(size_hint_x=0.45, spacing=dp(4))
        head.add_widget(self.chief)
        self.add_widget(head)
        grid = GridLayout(cols=3, spacing=dp(4))
        self.cards = {loc: LocationCard(words, loc) for loc in LOCATIONS}
        for loc in LOCATIONS:  # each drawn once into a picture of its own, again when it changes
            grid.add_widget(Cached(self.cards[loc]))
        self.add_widget(grid)
        self.info = Text(text="", base_font=dp(14), min_font=dp(9), ink=DIM, size_hint_y=None, height=dp(40),
                         halign="left", valign="middle")
        self.add_widget(self.info)
        self.key = None
        self.chief_seat = None

    def update(self, view: dict) -> None:
        words = self.words
        players = list(view.get("players") or [])
        key = (words.lang, view.get("round"), view.get("phase"), view.get("chief"), view.get("elected"),
               repr(view.get("hands")), view.get("deck"), repr(view.get("unplaced")), repr(view.get("dice")),
               repr(view.get("cup")), repr(view.get("chosen")), view.get("chief_destination"))
        if key != self.key:
            self.key = key
            round_ = view.get("round")
            self.heading.text = (words.t("mall.board.round", round=round_, phase=view.get("phase"))
                                 if round_ else words.t("mall.board.setup", phase=view.get("phase")))
            if self.chief_seat != view.get("chief"):  # the badge is drawn again only when it changes hands
                self.chief_seat = chief = view.get("chief")
                if chief and not self.chief.children:
                    self.chief.add_widget(Text(text=words.t("mall.board.chief"), base_font=dp(14), min_font=dp(9),
                                               ink=DIM, halign="right", valign="middle"))
                    self.chief.add_widget(Chip(chief, colour_name(words, chief), font=dp(17), size_hint_x=0.6))
                elif chief:
                    self.chief.children[0].show(chief, colour_name(words, chief))
                else:
                    self.chief.clear_widgets()
            self.info.text = self._info(view, players)
        destinations = view.get("destinations") or {}
        chief_goes = view.get("chief_destination")
        for loc in LOCATIONS:
            people = []
            for seat in players:
                hidden = (view.get("hidden") or {}).get(seat) or []
                for kind, where in ((view.get("characters") or {}).get(seat) or {}).items():
                    if where == loc:
                        people.append((seat, kind, kind in hidden))
            arrivals = [s for s in players if destinations.get(s) == loc]
            if chief_goes == loc and view.get("chief") and view["chief"] not in arrivals:
                arrivals.append(view["chief"])
            self.cards[loc].update(view, people, arrivals)

    def _info(self, view: dict, players: list[str]) -> str:
        words = self.words
        parts = []
        if isinstance(view.get("dice"), list):
            parts.append(words.t("mall.board.placement_dice") + " " + " ".join(str(d) for d in view["dice"]))
        if isinstance(view.get("cup"), list):
            parts.append(words.t("mall.board.zombie_dice") + " " + " ".join(str(d) for d in view["cup"]))
        hands = view.get("hands") or {}
        parts.append(words.t("mall.board.hands") + " " + ", ".join(
            f"{colour_name(words, p)} {hands.get(p, 0)}" for p in players))
        parts.append(words.t("mall.board.deck", count=view.get("deck") or 0))
        parts.append(" ".join(f"{POINTS[k]} = {words.t('mall.character.' + k)}" for k in POINTS
                              if k != "girl" or len(players) == 3))
        return "  ·  ".join(parts)


# -- the seat's secrets, the revealed ballot and the end ----------------------------------------------------


def secrets(view: dict, words: Words) -> list[tuple[str, Callable[[], str], bool]]:
    """What a seat may look at alone: the secret zombie dice (the elected Chief, a Security Camera), its own
    ballot, its secret destination. Each is read only while the finger holds the button; the dice are urgent (the
    table waits for the seat to look)."""
    out = []
    if isinstance(view.get("cup_seen"), list):
        dice = list(view["cup_seen"])

        def show_dice() -> str:
            counts: dict[int, int] = {}
            for d in sorted(dice):
                counts[d] = counts.get(d, 0) + 1
            return " ".join(str(d) for d in dice) + "\n" + "\n".join(
                words.t("mall.board.dice_to", count=n, location=loc) for loc, n in counts.items())

        out.append((words.t("ui.mall.secret_dice"), show_dice, True))
    if isinstance(view.get("ballot"), str):
        ballot = view["ballot"]
        out.append((words.t("ui.secret_vote"), lambda: words.t("ui.your_vote", colour=ballot), False))
    if isinstance(view.get("destination"), int):
        destination = view["destination"]
        out.append((words.t("ui.secret_destination"),
                    lambda: words.t("mall.board.your_destination") + " " + words.t(f"mall.location.{destination}"),
                    False))
    return out


def revealed(view: dict, words: Words) -> tuple[str, list[str]] | None:
    vote = view.get("revealed")
    if not isinstance(vote, dict):
        return None
    purpose = {"key": f"mall.purpose.{vote.get('purpose')}", "params": {"location": vote.get("location")}}
    title = words.t("ui.revealed", purpose=purpose)
    if vote.get("stage") == 2:
        title += " · " + words.t("ui.revote")
    ballots = vote.get("ballots") or {}
    lines = []
    for voter, weight in (vote.get("weights") or {}).items():
        chosen = ballots.get(voter)
        lines.append(words.t("ui.ballot_line", voter=voter, count=weight, candidate=chosen) if chosen
                     else words.t("ui.ballot_abstained", voter=voter, count=weight))
    leaders = list(vote.get("leaders") or [])
    return title, ["  ·  ".join(lines), words.t("ui.chosen" if len(leaders) == 1 else "ui.tie", colours=leaders)]


def over(view: dict, words: Words) -> list[tuple[str, str, bool]]:
    scores = view.get("scores") or {}
    winners = set(view.get("winners") or [])
    ranked = sorted(view.get("players") or [], key=lambda p: -(scores.get(p) or 0))
    return [(p, words.t("ui.points", count=scores.get(p) or 0), p in winners) for p in ranked]


__all__ = ["Board", "over", "revealed", "secrets"]
