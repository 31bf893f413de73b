"""Correct the board (the board is the truth), or enter a game in progress as it lies: the board drawn by the same
part renderers, every zone, cell or seat panel the table may correct framed; a tap on one offers its facts (a whole
number with − and +, or its choices as buttons), and the facts of the board as a whole have a list of their own.
Changes gather in a draft the screen shows; Apply sends them to the table in one correction (a refusal is said
here, and nothing changes); Cancel leaves. It knows no game: the facts are the table's (`Table.edits()`)."""

from __future__ import annotations

import json

from kivy.clock import Clock
from kivy.graphics import Color, Line, RoundedRectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.contract import Refusal
from companion.ui import parts
from companion.ui.screens.base import BaseScreen
from companion.ui.widgets import ACT, CORNER, DANGER, DIM, INK, TARGET, Action, Text, show_only

WHOLE = ""  # the board as a whole: an Edit's `at` for the round, the phase...


def same(a: object, b: object) -> bool:
    """The same value of a fact (JSON's true is no 1)."""
    return type(a) is type(b) and a == b


class CorrectScreen(BaseScreen):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.draft: dict[str, object] = {}  # edit id -> the value the table says
        self.at: str | None = None  # the item whose facts are shown (WHOLE: the board as a whole), None: none yet
        self.refused: Refusal | None = None
        self.then = "board"  # where Apply and Cancel go
        self.entering = False  # a game in progress is entered, just started from the new-game form
        self.edits: dict[str, dict] = {}
        self.places: dict[str, list[dict]] = {}  # item id -> its facts, in the table's order
        self.board = None
        self.board_name = None
        self.items: dict[str, tuple[str, object]] = {}  # item id -> (its name as shown, its widget)
        self._watched: set[int] = set()
        self.small: list[str] = []  # framed items smaller than a finger: offered as buttons too
        self._frame_soon = Clock.create_trigger(self._frame_items, 0)

    def open(self, then: str = "board", entering: bool = False, **_options) -> None:
        self.draft, self.at, self.refused = {}, None, None
        self.then, self.entering = then, entering
        self.keys.clear()

    # -- drawing -----------------------------------------------------------------------------------------------

    def update(self, force: bool = False) -> None:
        app = self.app
        view = app.view
        if view is None or app.table.state is None:
            return
        edits = app.table.edits()
        self.edits = {edit["id"]: edit for edit in edits}
        # What the table no longer offers, or now says itself, leaves the draft.
        self.draft = {key: value for key, value in self.draft.items()
                      if key in self.edits and not same(self.edits[key]["value"], value)}
        self._board(view, force)
        self.places = {}
        for edit in edits:  # a fact of an item the board does not draw goes with the board as a whole
            at = edit["at"] if edit["at"] in self.items else WHOLE
            self.places.setdefault(at, []).append(edit)
        if self.at is not None and self.at not in self.places:
            self.at = None
        refused = None if self.refused is None else (self.refused.code, repr(self.refused.params))
        why = app.table.correct_why
        key = (json.dumps(edits, sort_keys=True), repr(sorted(self.draft.items())), self.at, refused, self.entering,
               why.key if why is not None else None)
        if self.changed("facts", key, force):
            self._words()
            self._facts()
            self._draft()
        self._frame_soon()

    def _board(self, view: dict, force: bool) -> None:
        app = self.app
        area = self.ids.board_area
        if force or self.board is None or self.board_name != (view.get("game"), app.lang):
            area.clear_widgets()
            self.board_name = (view.get("game"), app.lang)
            self.board = parts.Board(app.words)  # the same renderers as the board screen's
            area.add_widget(self.board)
            self._watched = set()
        self.board.update(view)
        self.items = {}
        for at, name, widget in self.board.items():
            self.items[at] = (name, widget)
            for watched in (widget, widget.parent):  # framed again wherever the layout puts it
                if watched is not None and id(watched) not in self._watched:
                    self._watched.add(id(watched))
                    watched.fbind("pos", self._frame_soon)
                    watched.fbind("size", self._frame_soon)

    def _words(self) -> None:
        app = self.app
        ids = self.ids
        ids.title.text = app.t("ui.correct.entering" if self.entering else "ui.correct.title")
        ids.whole.text = app.t("ui.correct.whole")
        ids.whole.enabled = WHOLE in self.places
        ids.whole.tone = "on" if self.at == WHOLE else "normal"
        ids.apply.text = app.t("ui.correct.apply")
        ids.apply.enabled = bool(self.draft)
        ids.discard.text = app.t("ui.clear")
        ids.discard.enabled = bool(self.draft)
        ids.cancel.text = app.t("ui.cancel")

    def _facts(self) -> None:
        """The facts of the item tapped (or of the board as a whole), each with what it may become."""
        app = self.app
        shown: list = []
        if self.at is None:
            why = app.table.correct_why
            if not self.places and why is not None:  # the table's own reason: a secret answer cast, the game over
                shown.append(Text(text=app.words.say(why), grow=True, size_hint_y=None, base_font=dp(15),
                                  ink=DIM))
                hint = None
            elif not self.places:
                hint = "ui.correct.none"
            elif set(self.places) == {WHOLE}:
                hint = "ui.correct.hint_whole"
            else:
                hint = "ui.correct.hint"
            if hint is not None:
                shown.append(Text(text=app.t(hint), grow=True, size_hint_y=None, base_font=dp(15), ink=DIM))
        else:
            name = app.t("ui.correct.whole") if self.at == WHOLE else self.items[self.at][0]
            shown.append(Text(text=name, grow=True, size_hint_y=None, base_font=dp(17), halign="left"))
            for edit in self.places[self.at]:
                shown.append(Text(text=app.words.say(edit["label"]), grow=True, size_hint_y=None, base_font=dp(14),
                                  ink=DIM, halign="left"))
                shown.append(self._choices(edit) if "choices" in edit else self._number(edit))
        show_only(self.ids.facts, shown)
        self.ids.facts_scroll.scroll_y = 1

    def _number(self, edit: dict) -> BoxLayout:
        """A whole number between its bounds: − and + beside it."""
        value = self.draft.get(edit["id"], edit["value"])
        value = value if type(value) is int else (edit["low"] or 0)
        low, high = edit.get("low"), edit.get("high")
        row = BoxLayout(size_hint_y=None, height=TARGET, spacing=dp(6))
        minus = Action(text="−", base_font=dp(26), enabled=low is None or value > low)
        minus.edit, minus.role = edit["id"], "minus"
        minus.bind(on_release=lambda *_: self.set(edit["id"], value - 1))
        shown = Text(text=str(value), base_font=dp(26), wrap=False, ink=ACT if edit["id"] in self.draft else INK)
        shown.edit, shown.role = edit["id"], "value"
        plus = Action(text="+", base_font=dp(26), enabled=high is None or value < high)
        plus.edit, plus.role = edit["id"], "plus"
        plus.bind(on_release=lambda *_: self.set(edit["id"], value + 1))
        for widget in (minus, shown, plus):
            row.add_widget(widget)
        return row

    def _choices(self, edit: dict) -> GridLayout:
        """One button per value it may take, the one it has now lit."""
        app = self.app
        value = self.draft.get(edit["id"], edit["value"])
        grid = GridLayout(cols=2, spacing=dp(4), size_hint_y=None, row_default_height=TARGET, row_force_default=True)
        grid.bind(minimum_height=grid.setter("height"))
        for choice in edit["choices"]:
            button = Action(text=app.words.say(choice["label"]), base_font=dp(15),
                            tone="on" if same(choice["value"], value) else "normal")
            button.edit, button.role, button.value = edit["id"], "choice", choice["value"]
            button.bind(on_release=lambda _b, v=choice["value"]: self.set(edit["id"], v))
            grid.add_widget(button)
        return grid

    def _draft(self) -> None:
        """The changes gathered, as the narration will say them, and the table's refusal if it refused."""
        app = self.app
        shown: list = []
        if self.refused is not None:  # first: the draft may be longer than its box
            shown.append(Text(text=self.refused.text(app.lang), grow=True, size_hint_y=None, base_font=dp(14),
                              ink=DANGER, halign="left"))
        for key, value in self.draft.items():
            edit = self.edits[key]
            text = app.t("ui.correct.change", what=edit["label"], was=self.said(edit, edit["value"]),
                         now=self.said(edit, value))
            shown.append(Text(text=text, grow=True, size_hint_y=None, base_font=dp(14), halign="left"))
        if not self.draft:
            shown.append(Text(text=app.t("ui.correct.nothing_yet"), grow=True, size_hint_y=None, base_font=dp(14),
                              ink=DIM, halign="left"))
        show_only(self.ids.draft, shown)
        self.ids.draft_scroll.scroll_y = 1

    def said(self, edit: dict, value: object):
        """`value` as the narration says it: a choice's words (a message), the number, or a dash for none."""
        for choice in edit.get("choices") or []:
            if same(choice["value"], value):
                return choice["label"]
        return value if type(value) is int else "—"

    def _frame_items(self, *_args) -> None:
        """A frame around each item that has facts to correct; the one tapped filled. (Once laid out: then the items
        smaller than a finger, a seat's row, are known, and offered as buttons beside the board's own facts.)"""
        area = self.ids.board_area
        small = [at for at, (_name, widget) in self.items.items()
                 if at in self.places and (widget.width < TARGET - 1 or widget.height < TARGET - 1)]
        if self.changed("places", (small, self.at)):
            self.small = small
            self._small_places()
        area.canvas.after.clear()
        with area.canvas.after:
            for at, (_name, widget) in self.items.items():
                if at not in self.places or widget.parent is None:
                    continue
                x, y = area.to_widget(*widget.to_window(*widget.pos))
                w, h = widget.size
                if at == self.at:
                    Color(*ACT[:3], 0.22)
                    RoundedRectangle(pos=(x, y), size=(w, h), radius=[dp(8)], segments=CORNER)
                Color(*ACT)
                Line(rounded_rectangle=(x + 1, y + 1, w - 2, h - 2, dp(8), CORNER), width=3 if at == self.at else 1.5)

    def _small_places(self) -> None:
        buttons = []
        for at in self.small:
            button = Action(text=self.items[at][0], base_font=dp(15), tone="on" if at == self.at else "normal")
            button.place, button.role = at, "place"
            button.bind(on_release=lambda _b, a=at: self.pick(a))
            buttons.append(button)
        show_only(self.ids.places, buttons)
        self.ids.places.cols = max(1, min(4, len(buttons)))

    # -- touch ---------------------------------------------------------------------------------------------------

    def on_touch_down(self, touch) -> bool:
        """A touch on the board picks the item under it (a token is not named, a seat's question not answered)."""
        area = self.ids.board_area
        window = self.to_window(*touch.pos)
        if not area.collide_point(*area.to_widget(*window)):
            return super().on_touch_down(touch)
        for at, (_name, widget) in self.items.items():
            if at in self.places and widget.parent is not None and widget.collide_point(*widget.to_widget(*window)):
                self.pick(at)
                break
        return True

    def pick(self, at: str) -> None:
        """Show the facts of item `at` (WHOLE: the board as a whole)."""
        if at in self.places:
            self.at = at
            self.update()

    # -- the draft -----------------------------------------------------------------------------------------------

    def set(self, key: str, value: object) -> None:
        edit = self.edits.get(key)
        if edit is None:
            return
        if same(edit["value"], value):
            self.draft.pop(key, None)  # back to what the table says: no change
        else:
            self.draft[key] = value
        self.refused = None
        self.update()

    def discard(self) -> None:
        self.draft, self.refused = {}, None
        self.update()

    def apply(self) -> None:
        """The draft to the table in one correction; a refusal stays on this screen, and nothing changes."""
        app = self.app
        if not self.draft:
            return
        try:
            app.table.correct(dict(self.draft))
        except Refusal as refused:
            self.refused = refused
            self.update()
            return
        self.draft, self.refused = {}, None
        app.goto(self.then)

    def leave(self) -> None:
        self.draft, self.refused = {}, None
        self.app.goto(self.then)
