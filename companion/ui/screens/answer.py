"""Answering on the screen for one seat, whatever the game: the question by its kind (pick, ballot, card window,
number, assignment), with its facts; and the cover that hides every secret until the screen is in the right hands.

Pass-and-play: nothing secret shows on a screen the whole table faces. The seat's own secrets (its dice, its
ballot, its destination, its earlier secret answer marked as chosen) show only on a screen opened through the
cover ("Hand the screen to Red" / "I am Red: show…"); a question that holds no secret yet (a ballot not yet
answered) opens at once from the board, and the screen goes back to the board, which shows no secret, after the
answer. A secret answer can be changed until the reveal: the seat's button stays on the board ("answered · tap to
change"), and the last answer's grace counts down on the screen that gave it."""

from __future__ import annotations

import json
from collections.abc import Callable

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.contract import ASSIGN, BALLOT, NUMBER, Question, Refusal
from companion.ui import parts
from companion.ui.screens.base import BaseScreen
from companion.ui.widgets import ACT, DANGER, DIM, TARGET, Action, Chip, Panel, Text

CHOSEN = "✓ "  # before the answer a seat gave to a secret question, behind the cover (the phone's mark)


def is_secret(question: Question) -> bool:
    return question.secret or question.kind == BALLOT


def takes_two_taps(choice) -> bool:
    """A choice that changes the game for good (a player dies, a phase ends) or spends a one-use card: the first tap
    arms it ("Sure? Tap again"), the second sends it, as on a phone."""
    return bool(choice.confirm) or choice.group == "card"


class Choices(BoxLayout):
    """A question's choices as buttons, on the answer screen or on the board's question panel: the cards folded
    behind "Play a card…", a choice that takes two taps armed by the first, the seat's earlier secret answer marked
    (only where the screen is covered). It keeps its own state (cards open, the armed choice) for one question."""

    def __init__(self, send: Callable[[dict], None], cols: int = 2, narrow: bool = False, height: float = dp(60),
                 font: float = dp(17), **kwargs):
        super().__init__(orientation="vertical", spacing=dp(6), size_hint_y=None, **kwargs)
        self.bind(minimum_height=self.setter("height"))
        self.send = send
        self.cols = cols
        self.narrow = narrow  # a narrow column (the board's): choices with a note one to a row
        self.button_height = height
        self.font = font
        self.question: Question | None = None
        self.chosen: dict | None = None
        self.cards_open = False
        self.armed: dict | None = None  # the action tapped once: a second tap sends it

    def show(self, question: Question, chosen: dict | None = None) -> None:
        if self.question is None or self.question.id != question.id:
            self.cards_open, self.armed = False, None
        self.question, self.chosen = question, chosen
        self.draw()

    def open_cards(self, on: bool) -> None:
        self.cards_open, self.armed = on, None
        self.draw()

    def draw(self) -> None:
        app = App.get_running_app()
        self.clear_widgets()
        question = self.question
        if question is None:
            return
        plain = [c for c in question.choices if c.group != "card"]
        cards = [c for c in question.choices if c.group == "card"]
        if plain:
            self.add_widget(self._grid(plain))
        if cards:
            toggle = Action(text=app.t("ui.hide_cards" if self.cards_open else "ui.play_card"), size_hint_y=None,
                            height=TARGET, base_font=min(self.font, dp(16)), tone="on" if self.cards_open else "normal")
            toggle.answer_role = "cards"
            toggle.bind(on_release=lambda *_: self.open_cards(not self.cards_open))
            self.add_widget(toggle)
            if self.cards_open:
                self.add_widget(self._grid(cards))

    def _grid(self, choices) -> GridLayout:
        words = App.get_running_app().words
        cols = 1 if self.narrow and any(c.note is not None for c in choices) else self.cols
        grid = GridLayout(cols=cols, spacing=dp(6), size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for choice in choices:
            action = dict(choice.action)
            armed = takes_two_taps(choice) and self.armed == action
            chosen = self.chosen is not None and self.chosen == action
            label = words.say(choice.label)
            text = words.t("ui.confirm_again", choice=label) if armed else (CHOSEN + label if chosen else label)
            if choice.note is not None:
                text += "\n" + words.say(choice.note)
            button = Action(text=text, size_hint_y=None, base_font=self.font,
                            height=self.button_height + (dp(12) if choice.note else 0),
                            tone="on" if armed else "primary" if chosen else "normal")
            button.answer_action = action
            button.armed = armed
            button.chosen = chosen
            button.bind(on_release=lambda _b, c=choice: self._chosen(c))
            grid.add_widget(button)
        return grid

    def _chosen(self, choice) -> None:
        action = dict(choice.action)
        if takes_two_taps(choice) and self.armed != action:
            self.armed = action
            self.draw()
            return
        self.armed = None
        self.send(action)


class AnswerScreen(BaseScreen):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seat = ""
        self.question_id: str | None = None
        self.secret = False
        self.covered = False  # opened through the cover (or the seat answered here): its own secrets may show
        self.draft: object = None
        self.error = ""
        self.countdown_text: Text | None = None
        self.choices = Choices(self.send)

    def open(self, seat: str = "", covered: bool = False, **_options) -> None:
        self.seat = seat
        self.covered = covered
        self.question_id = None
        self.draft = None
        self.error = ""
        self.choices.question = None
        self.keys.clear()

    @property
    def cards_open(self) -> bool:
        return self.choices.cards_open

    @cards_open.setter
    def cards_open(self, on: bool) -> None:
        self.choices.open_cards(on)

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
        revealing = app.revealing_left(question.id) is not None
        chosen = app.chosen.get((self.seat, question.id)) if self.covered and (question.answered or revealing) \
            else None
        secrets = parts.secrets(app.table.view(self.seat), app.words)
        shown = [(what, reveal() if self.covered else "") for what, reveal, _urgent in secrets]
        key = (json.dumps(question.to_json(), sort_keys=True, default=str), repr(self.draft), self.error,
               self.covered, json.dumps(chosen, sort_keys=True), revealing, shown)
        if self.changed("question", key, force):
            self._draw(question, chosen, revealing, shown)
        self.countdown()

    def countdown(self) -> None:
        """The grace before the reveal, counted down while it runs (the app ticks it)."""
        left = self.app.revealing_left(self.question_id)
        if self.countdown_text is not None and left is not None:
            self.countdown_text.text = self.app.t("ui.revealing", seconds=left)

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
                     back_options={"seat": self.seat, "covered": self.covered})

    def leave(self) -> None:
        """The question is answered or gone: back to the board, which shows no secret (the screen may be passed on)."""
        self.app.goto("board")

    def send(self, action: dict) -> None:
        app = self.app
        try:
            app.table.answer(action, question=self.question_id)
        except Refusal as refused:
            self.error = refused.text(app.lang)
            self.update(force=True)
            return
        self.error = ""
        if self.secret:
            app.chosen[(self.seat, self.question_id)] = action
            asked = app.table.question(self.seat) if app.table.state is not None else None
            if app.revealing_left(self.question_id) is not None and asked is not None and asked.id == self.question_id:
                # The last answer waits out its grace: the seat that gave it holds the screen and may change it.
                self.covered = True
                self.update(force=True)
                return
        self.leave()  # back to the board: the whole table reads what the answer did

    def look(self) -> None:
        """This seat's secrets, behind the cover; back to this question after."""
        self.app.peek(self.seat, back="answer", back_options={"seat": self.seat, "covered": self.covered})

    # -- drawing the question -----------------------------------------------------------------------------

    def _draw(self, question: Question, chosen: dict | None, revealing: bool, shown: list[tuple[str, str]]) -> None:
        app = self.app
        words = app.words
        self.ids.who.clear_widgets()
        self.ids.who.add_widget(Chip(self.seat, app.colour(self.seat), font=dp(20)))
        body = self.ids.body
        body.clear_widgets()
        self.countdown_text = None
        if revealing:  # on top: the seat that answered last may still change it
            self.countdown_text = Text(grow=True, base_font=dp(18), ink=ACT, size_hint_y=None)
            self.countdown_text.role = "countdown"
            body.add_widget(self.countdown_text)
            self.countdown()
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
            self.choices.show(question, chosen)
            body.add_widget(self.choices)
        if is_secret(question):
            note = "ui.answer_received" if chosen is not None else "ui.secret_answer"
            body.add_widget(Text(text=app.t(note), grow=True, base_font=dp(14), ink=ACT, size_hint_y=None))
        if self.covered and shown:  # behind the cover: the seat's own secrets, to read while deciding
            panel = Panel(orientation="vertical", size_hint_y=None, padding=(dp(8), dp(4)), spacing=dp(2))
            panel.bind(minimum_height=panel.setter("height"))
            panel.role = "secrets"
            for what, lines in shown:
                panel.add_widget(Text(text=app.t("ui.touch.only_for", seat=self.seat, what=what), grow=True,
                                      base_font=dp(14), ink=DIM, size_hint_y=None, halign="left"))
                panel.add_widget(Text(text=lines, grow=True, base_font=dp(17), size_hint_y=None, halign="left"))
            body.add_widget(panel)
        elif shown:  # a question the whole table may see: the secrets stay behind the cover, a tap away
            for what, _lines in shown:
                look = Action(text=app.t("ui.touch.look_own", what=what), size_hint_y=None, height=dp(56),
                              base_font=dp(16), tone="quiet")
                look.role = "look"
                look.bind(on_release=lambda *_: self.look())
                body.add_widget(look)
        self.ids.scroll.scroll_y = 1

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
    """The hand-over cover: nothing secret shows until the seat says it holds the screen.

    stage "before": "Hand the screen to Red", then "I am Red: show my question" (`purpose` "answer": the question
    with Red's own secrets) or "I am Red: show my secret" (`purpose` "peek"). stage "secret": Red's secrets (the
    dice and where they send zombies...), until "Hide it again" goes back (`back`, the board unless told)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seat = ""
        self.stage = "before"
        self.purpose = "answer"
        self.back: tuple[str, dict] = ("board", {})

    def open(self, seat: str = "", stage: str = "before", purpose: str = "answer", back: str = "board",
             back_options: dict | None = None, **_options) -> None:
        self.seat, self.stage, self.purpose = seat, stage, purpose
        self.back = (back, dict(back_options or {}))
        self.keys.clear()

    def _secrets(self) -> list[tuple[str, Callable[[], str], bool]]:
        app = self.app
        return parts.secrets(app.table.view(self.seat), app.words) if app.table.state is not None else []

    def update(self, force: bool = False) -> None:
        app = self.app
        if self.purpose == "answer" and (app.table.state is None or app.table.question(self.seat) is None):
            app.goto("board")  # answered meanwhile (a phone, a pad) or closed
            return
        secrets = self._secrets() if self.purpose == "peek" else []
        if self.purpose == "peek" and not secrets:
            self.go_back()  # revealed meanwhile: nothing left to hide
            return
        lines = [reveal() for _what, reveal, _urgent in secrets] if self.stage == "secret" else []
        if not self.changed("cover", (self.seat, self.stage, self.purpose, lines), force):
            return
        ids = self.ids
        ids.who.clear_widgets()
        ids.who.add_widget(Chip(self.seat, app.colour(self.seat), font=dp(30)))
        if self.stage == "secret":
            ids.message.text = "\n".join(lines)
            ids.message.role = "secret"
            ids.go.text = app.t("ui.touch.hide")
            ids.back.opacity, ids.back.disabled = 0, True
            return
        ids.message.role = None
        ids.message.text = app.t("ui.hand_to", seat=self.seat)
        ids.go.text = app.t("ui.show_question" if self.purpose == "answer" else "ui.touch.show_secret", seat=self.seat)
        ids.back.text = app.t("ui.back")
        ids.back.opacity, ids.back.disabled = 1, False

    def go(self) -> None:
        app = self.app
        if self.stage == "secret":
            self.go_back()
        elif self.purpose == "peek":
            self.stage = "secret"
            self.update(force=True)
        else:
            app.goto("answer", seat=self.seat, covered=True)

    def go_back(self) -> None:
        """Hidden again, back where the peek was asked for (the board, or the seat's question)."""
        name, options = self.back
        if name == "answer" and (self.app.table.state is None or self.app.table.question(options.get("seat", ""))
                                 is None):
            name, options = "board", {}
        self.app.goto(name, **options)
