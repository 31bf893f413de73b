"""Answering on the screen for one seat, whatever the game: the question by its kind (pick, ballot, card window,
number, assignment), with its facts; and the cover that hides a secret question until the screen is in the
right hands, and hides it again after."""

from __future__ import annotations

import json

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.contract import ASSIGN, BALLOT, NUMBER, Question, Refusal
from companion.ui import parts
from companion.ui.screens.base import BaseScreen
from companion.ui.widgets import ACT, DANGER, DIM, TARGET, Action, Chip, HoldToPeek, Text


def is_secret(question: Question) -> bool:
    return question.secret or question.kind == BALLOT


class AnswerScreen(BaseScreen):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seat = ""
        self.question_id: str | None = None
        self.secret = False
        self.cards_open = False
        self.draft: object = None
        self.armed: tuple | None = None  # (question, action) tapped once: a second tap sends it
        self.error = ""

    def open(self, seat: str = "", **_options) -> None:
        self.seat = seat
        self.question_id = None
        self.cards_open = False
        self.draft = None
        self.armed = None
        self.error = ""
        self.keys.clear()

    def update(self, force: bool = False) -> None:
        app = self.app
        question = app.table.question(self.seat) if app.table.state is not None else None
        if question is None or (self.question_id is not None and question.id != self.question_id):
            self.leave()  # answered (here, on a phone or a pad) or closed: the table sees what happened
            return
        if self.question_id != question.id:
            self.question_id = question.id
            self.secret = is_secret(question)
            self.draft = None
            self.cards_open = False
        key = (json.dumps(question.to_json(), sort_keys=True, default=str), self.cards_open, repr(self.draft),
               self.error)
        if self.changed("question", key, force):
            self._draw(question)

    def why(self) -> None:
        """The rule behind this question, with the moment's facts; back to the question after."""
        app = self.app
        question = app.table.question(self.seat) if app.table.state is not None else None
        if question is None:
            return
        at_hand = app.table.rules_at_hand()
        rule = at_hand.of(question.title)
        if rule is not None:
            app.goto("rules", items=[(rule, at_hand.now(rule, question.title))], back="answer",
                     back_options={"seat": self.seat})

    def leave(self) -> None:
        """The question is answered or gone: a secret one is hidden again before anyone else sees the screen."""
        app = self.app
        if self.secret:
            app.goto("cover", seat=self.seat, stage="after")
        else:
            app.goto("board")

    def send(self, action: dict) -> None:
        app = self.app
        try:
            app.table.answer(action, question=self.question_id)
        except Refusal as refused:
            self.error = refused.text(app.lang)
            self.update(force=True)
            return
        self.error = ""
        self.leave()  # back to the board: the whole table reads what the answer did

    # -- drawing the question -----------------------------------------------------------------------------

    def _draw(self, question: Question) -> None:
        app = self.app
        words = app.words
        self.ids.who.clear_widgets()
        self.ids.who.add_widget(Chip(self.seat, app.colour(self.seat), font=dp(20)))
        body = self.ids.body
        body.clear_widgets()
        body.add_widget(Text(text=words.say(question.title), grow=True, base_font=dp(19),
                             size_hint_y=None, halign="left"))
        for fact in question.facts:
            body.add_widget(Text(text="· " + words.say(fact), grow=True, base_font=dp(15), ink=DIM,
                                 size_hint_y=None, halign="left"))
        if self.error:
            body.add_widget(Text(text=self.error, grow=True, base_font=dp(16), ink=DANGER, size_hint_y=None,
                                 halign="left"))
        if question.kind == NUMBER:
            body.add_widget(self._number(question))
        elif question.kind == ASSIGN:
            body.add_widget(self._assign(question))
        else:
            plain = [c for c in question.choices if c.group != "card"]
            cards = [c for c in question.choices if c.group == "card"]
            if plain:
                body.add_widget(self._choices(plain))
            if cards:
                toggle = Action(text=app.t("ui.hide_cards" if self.cards_open else "ui.play_card"),
                                size_hint_y=None, height=TARGET, tone="on" if self.cards_open else "normal")
                toggle.answer_role = "cards"
                toggle.bind(on_release=lambda *_: self._toggle_cards())
                body.add_widget(toggle)
                if self.cards_open:
                    body.add_widget(self._choices(cards))
        if is_secret(question):
            note = ("ui.answer_received" if question.answered else "ui.secret_answer")
            body.add_widget(Text(text=app.t(note), grow=True, base_font=dp(14), ink=ACT, size_hint_y=None))
        for what, reveal, _urgent in parts.secrets(app.table.view(self.seat), words):
            label = app.t("ui.hold_to_peek", seat=self.seat, what=what)
            body.add_widget(HoldToPeek(text=label, hidden_text=label, reveal=reveal, size_hint_y=None,
                                       height=dp(64)))
        self.ids.scroll.scroll_y = 1

    def _toggle_cards(self) -> None:
        self.cards_open = not self.cards_open
        self.update(force=True)

    def _choices(self, choices) -> GridLayout:
        words = self.app.words
        grid = GridLayout(cols=2, spacing=dp(6), size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for choice in choices:
            armed = choice.confirm and self.armed == (self.question_id, dict(choice.action))
            text = words.t("ui.confirm_again", choice=words.say(choice.label)) if armed else words.say(choice.label)
            if choice.note is not None:
                text += "\n" + words.say(choice.note)
            button = Action(text=text, size_hint_y=None, height=dp(72) if choice.note else dp(60), base_font=dp(17),
                            tone="on" if armed else "normal")
            button.answer_action = dict(choice.action)
            button.armed = armed
            button.bind(on_release=lambda _b, c=choice: self._chosen(c))
            grid.add_widget(button)
        return grid

    def _chosen(self, choice) -> None:
        """A choice that changes the game for good (a player dies, a phase ends) asks for a second tap."""
        action = dict(choice.action)
        if choice.confirm and self.armed != (self.question_id, action):
            self.armed = (self.question_id, action)
            self.update(force=True)
            return
        self.armed = None
        self.send(action)

    def _number(self, question: Question) -> BoxLayout:
        app = self.app
        low, high = question.low or 0, question.high if question.high is not None else question.low or 0
        value = self.draft if isinstance(self.draft, int) else low
        row = BoxLayout(size_hint_y=None, height=dp(72), spacing=dp(8))
        def step(text: str, by: int, font: float, role: str) -> Action:
            """A button that moves the number by `by`, kept between low and high."""
            button = Action(text=text, base_font=font, size_hint_x=None, width=dp(72),
                            enabled=value > low if by < 0 else value < high)
            button.answer_role = role
            button.bind(on_release=lambda *_: self._set_draft(min(high, max(low, value + by))))
            return button

        shown = Text(text=str(value), base_font=dp(40), size_hint_x=None, width=dp(90))
        shown.answer_role = "number"
        send = Action(text=app.t("ui.send"), tone="primary", base_font=dp(20))
        send.answer_role = "send"
        send.bind(on_release=lambda *_: self.send({**question.answer, question.field: value}))
        widgets = [step("−", -1, dp(30), "minus"), shown, step("+", 1, dp(30), "plus"), send]
        if high - low > 20:  # a wide range (a total, a count of dozens): steps of ten as well
            widgets = [step("−10", -10, dp(22), "minus10"), *widgets[:3], step("+10", 10, dp(22), "plus10"), send]
        for widget in widgets:
            row.add_widget(widget)
        box = BoxLayout(orientation="vertical", size_hint_y=None, height=dp(100))
        box.add_widget(Text(text=app.t("ui.number_range", low=low, high=high), base_font=dp(14), ink=DIM,
                            size_hint_y=None, height=dp(26)))
        box.add_widget(row)
        return box

    def _set_draft(self, value: object) -> None:
        self.draft = value
        self.update(force=True)

    def _assign(self, question: Question) -> BoxLayout:
        app = self.app
        words = app.words
        proposed = question.answer.get(question.field) if question.field else None  # the rules' suggestion
        chosen = dict(self.draft) if isinstance(self.draft, dict) else dict(proposed) if isinstance(proposed, dict) \
            else {}
        box = BoxLayout(orientation="vertical", spacing=dp(6), size_hint_y=None)
        box.bind(minimum_height=box.setter("height"))
        for item in question.items:
            row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(6))
            row.add_widget(Text(text=words.say(item.label), base_font=dp(17), size_hint_x=0.3, halign="left"))
            for target in question.targets:
                on = chosen.get(item.value) == target.value
                button = Action(text=words.say(target.label), tone="on" if on else "normal", base_font=dp(16))
                button.assign = (item.value, target.value)
                button.bind(on_release=lambda _b, i=item.value, t=target.value: self._set_draft(
                    {**chosen, i: t}))
                row.add_widget(button)
            box.add_widget(row)
        complete = all(item.value in chosen for item in question.items)
        send = Action(text=app.t("ui.send"), tone="primary", size_hint_y=None, height=dp(56), enabled=complete)
        send.answer_role = "send"
        send.bind(on_release=lambda *_: self.send({**question.answer, question.field: chosen}))
        box.add_widget(send)
        return box


class CoverScreen(BaseScreen):
    """Before: "hand the screen to Red" (nothing of the question shows). After: the answer is in and hidden."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seat = ""
        self.stage = "before"

    def open(self, seat: str = "", stage: str = "before", **_options) -> None:
        self.seat, self.stage = seat, stage
        self.keys.clear()

    def update(self, force: bool = False) -> None:
        app = self.app
        if self.stage == "before" and (app.table.state is None or app.table.question(self.seat) is None):
            app.goto("board")
            return
        if not self.changed("cover", (self.seat, self.stage), force):
            return
        ids = self.ids
        ids.who.clear_widgets()
        ids.who.add_widget(Chip(self.seat, app.colour(self.seat), font=dp(30)))
        if self.stage == "before":
            ids.message.text = app.t("ui.hand_to", seat=self.seat)
            ids.go.text = app.t("ui.show_question", seat=self.seat)
            ids.back.text = app.t("ui.back")
            ids.back.opacity, ids.back.disabled = 1, False
        else:
            ids.message.text = app.t("ui.hidden_again", seat=self.seat)
            ids.go.text = app.t("ui.back_to_table")
            ids.back.opacity, ids.back.disabled = 0, True

    def go(self) -> None:
        app = self.app
        if self.stage == "before":
            app.goto("answer", seat=self.seat)
        else:
            app.goto("board")
