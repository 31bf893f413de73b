"""The board at a glance: the game's board (drawn from its parts), who the table waits on (press a seat to answer for
it; where one seat answering here is asked and nothing is secret, its answers stand on the board), the seats that
may still change a secret answer and the grace before its reveal, a seat whose phone went, the secret dice (look at
your phone, or here behind the hand-over cover: the board itself never shows a secret), the last revealed ballot
while it is current, and this round's narration with the lines that ask for a physical action standing out. Where
Undo is grey it says why, beside a button that corrects the board."""

from __future__ import annotations

import json

from kivy.app import App
from kivy.graphics import Color, InstructionGroup, RoundedRectangle
from kivy.metrics import dp
from kivy.properties import BooleanProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.contract import CARDS, PICK, Refusal
from companion.ui import parts
from companion.ui.screens.answer import Choices, is_secret
from companion.ui.screens.base import BaseScreen
from companion.ui.widgets import (
    ACT,
    CORNER,
    DANGER,
    DIM,
    TARGET,
    Action,
    SeatButton,
    Text,
    settle_height,
    show_only,
)

NARRATION_SHOWN = 14  # lines of the round on the board, past those of the last step; the others are in History
SPARE_LINES = 24  # narration widgets kept off the screen for the next lines (a step says up to about twenty)


def pinned_acts(public: list, fresh_from: int, round_now: int | None) -> list[int]:
    """The last step's lines that ask the table to act, of a round the step ended (newest first): kept on top."""
    return [index for index in reversed(range(fresh_from, len(public)))
            if public[index].act and public[index].round != round_now]


class BoardScreen(BaseScreen):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.board = None
        self.board_name = None
        self.revealed_at = None  # (revealed ballot, round, phase) when it first showed
        self.lines: dict = {}  # narration widgets on the screen, by line
        self.seat_buttons: dict = {}  # the seats waited on, by seat and note
        self.waiting_parts: dict | None = None
        self.spare_lines: list[NarrationLine] = []  # narration widgets off the screen, for the next lines
        self.spare_heads: list[Text] = []  # the same for the rounds' headings
        self.revealed_texts: list[Text] = []  # the revealed ballot's heading and lines
        self.peek_widgets: dict = {}  # the secrets to look at, by seat, what and whether on a phone
        self.more = None  # the button to the round's earlier lines
        self.direct_panel: BoxLayout | None = None  # the one seat's answers, on top of the list
        self.direct_choices: Choices | None = None
        self.direct_error = ""  # why the board's answer was refused
        self.direct_seat = ""
        self.undo_row = None  # why Undo is grey, beside the button that corrects the board (kv/board.kv)

    def update(self, force: bool = False) -> None:
        app = self.app
        view = app.view
        if view is None:
            return
        if force:  # a new language: nothing drawn before is kept
            self.lines, self.seat_buttons, self.waiting_parts, self.spare_lines = {}, {}, None, []
            self.spare_heads, self.revealed_texts, self.peek_widgets, self.more = [], [], {}, None
        self._board(view, force)
        self._controls(view, force)
        self._waiting(view, force)
        self._direct(view, force)
        self._peeks(view, force)
        self._revealed(view, force)
        self._narration(view, force)

    # -- the board ---------------------------------------------------------------------------------------

    def _board(self, view: dict, force: bool) -> None:
        app = self.app
        area = self.ids.board_area
        if force or self.board is None or self.board_name != (view.get("game"), app.lang):
            area.clear_widgets()
            self.board_name = (view.get("game"), app.lang)
            self.board = parts.Board(app.words)  # every game's board, from the parts it describes
            area.add_widget(self.board)
        self.board.update(view)

    def _controls(self, view: dict, force: bool) -> None:
        app = self.app
        steps = int(view.get("can_undo") or 0)
        undo = self.ids.undo
        undo.enabled = steps > 0
        undo.text = app.t("ui.undo_n", count=steps) if steps else app.t("ui.undo")
        why = view.get("undo_why") if not steps else None
        # Where Undo is grey, why, and the board's correction one tap away: on top of the list, and only then. (The
        # row is held here: kv's ids are weak, and it leaves the screen while Undo works.)
        row = self.undo_row = self.undo_row or self.ids.undo_why.__self__
        if why:
            self.ids.undo_reason.text = app.words.say(why)
            self.ids.correct.text = app.t("ui.correct.open")
            if row.parent is None:  # just above the narration
                listed = self.ids.listed
                listed.add_widget(row, index=listed.children.index(self.ids.narration.__self__) + 1)
        elif row.parent is not None:
            row.parent.remove_widget(row)

    # -- who the table waits on ----------------------------------------------------------------------------

    def _waiting(self, view: dict, force: bool) -> None:
        """Its widgets are made once and only their words change: a new question draws the new words, no more.
        The seats asked (tap one to answer for it here), and those that gave a secret answer they may still change;
        while the last secret answer waits out its grace, the countdown ("Revealing in 3 s: change your answer?")."""
        app = self.app
        prompt = view.get("prompt")
        revealing = view.get("revealing")
        answered = self._answered_here(view)
        drops = self._drop_news()
        key = (json.dumps(prompt, sort_keys=True), tuple(app.connected), tuple(app.dropped), app.notice,
               json.dumps(revealing.get("question") if revealing else None), tuple(answered), drops)
        if not self.changed("waiting", key, force):
            return
        parts = self.waiting_parts
        if parts is None:
            parts = self.waiting_parts = {
                "notice": Text(grow=True, base_font=dp(14), ink=ACT, size_hint_y=None),
                "dropped": Text(grow=True, base_font=dp(14), ink=ACT, size_hint_y=None, halign="left"),
                "revealing": Text(grow=True, base_font=dp(16), ink=ACT, size_hint_y=None, halign="left"),
                "none": Text(grow=True, base_font=dp(15), ink=DIM, size_hint_y=None),
                "title": Text(grow=True, base_font=dp(16), size_hint_y=None, halign="left"),
                "on": Text(grow=True, base_font=dp(13), ink=DIM, size_hint_y=None, halign="left"),
                "seats": GridLayout(cols=2, spacing=dp(4), size_hint_y=None),
                "close": Action(size_hint_y=None, height=dp(48), base_font=dp(14), tone="quiet"),
                "spacer": Widget(size_hint_y=None, height=TARGET),
            }
            parts["revealing"].role = "countdown"
            parts["seats"].bind(minimum_height=parts["seats"].setter("height"))
            parts["close"].bind(on_release=lambda *_: self.ask_close())
        shown = []
        if app.notice and app.notice not in drops:
            parts["notice"].text = app.notice
            shown.append(parts["notice"])
        if drops:  # a seat's phone went: said beside its button, which answers here
            parts["dropped"].text = "\n".join(drops)
            shown.append(parts["dropped"])
        waiting = list(prompt.get("waiting") or []) if prompt else []
        if not waiting and not answered:
            parts["none"].text = app.t("ui.waiting_none")
            shown.append(parts["none"])
        else:
            if prompt and prompt.get("title"):
                parts["title"].text = app.words.say(prompt["title"])
                shown.append(parts["title"])
            if revealing:
                shown.append(parts["revealing"])
                self.countdown()
            elif waiting:
                parts["on"].text = app.t("ui.waiting_on")
                shown.append(parts["on"])
            buttons = []
            for seat in [s for s in (view.get("players") or []) if s in waiting or s in answered]:
                if revealing or seat in answered:
                    note = app.t("ui.touch.answered")
                elif seat in app.dropped:
                    note = app.t("ui.touch.phone_off")
                elif seat in app.connected:
                    note = app.t("ui.on_phone")
                else:
                    note = app.t("ui.tap_to_answer")
                button = self.seat_buttons.get((seat, note))  # kept for the next time this seat is waited on
                if button is None:
                    button = self.seat_buttons[(seat, note)] = SeatButton(seat, app.colour(seat), note=note)
                    button.bind(on_release=lambda _b, s=seat: app.answer_for(s))
                button.answered = bool(revealing) or seat in answered
                buttons.append(button)
            if len(buttons) == 1:  # half the width, as with two or more: its words keep their size
                buttons.append(parts["spacer"])
            show_only(parts["seats"], buttons)
            shown.append(parts["seats"])
            if prompt and prompt.get("kind") == "ballot" and waiting and not revealing:
                parts["close"].text = app.t("ui.close_ballot")
                shown.append(parts["close"])
        show_only(self.ids.waiting, shown)

    def countdown(self) -> None:
        """The grace before a reveal, counted down (the app ticks it while it runs)."""
        parts = self.waiting_parts
        left = self.app.revealing_left()
        if parts is not None and left is not None:
            parts["revealing"].text = self.app.t("ui.revealing", seconds=left)

    def _answered_here(self, view: dict) -> list[str]:
        """The seats answering on this screen that gave a secret answer to the open question, which they may still
        change until the reveal (a phone changes its own)."""
        prompt = view.get("prompt")
        if not prompt or not prompt.get("secret"):
            return []
        app = self.app
        waiting = set(prompt.get("waiting") or [])
        held = app.held_seat()  # its answer waits out the grace: asked still, answered all the same
        out = []
        for seat in view.get("players") or []:
            if seat in waiting or not app.on_screen(seat):
                continue
            question = app.table.question(seat)
            if question is not None and (question.answered or seat == held):
                out.append(seat)
        return out

    def _drop_news(self) -> tuple[str, ...]:
        """The devices' news that a seat's phone went (it is answered here now), in the screen's language."""
        server = self.app.box.server
        if server is None:
            return ()
        return tuple(self.app.words.say(message) for message in server.problems.values()
                     if message.key == "devices.seat_dropped")

    # -- the one seat asked, answering on the board -----------------------------------------------------------

    def _direct(self, view: dict, force: bool) -> None:
        """Where one seat answering here is asked and nothing is secret, its answers stand on the board, below its
        button (which still opens the question with its facts and its rule)."""
        found = self._direct_question(view)
        key = (json.dumps(found.to_json(), sort_keys=True, default=str) if found else None, self.direct_error)
        if not self.changed("direct", key, force):
            return
        listed = self.ids.listed
        if found is None:
            self.direct_error = ""
            if self.direct_panel is not None and self.direct_panel.parent is not None:
                listed.remove_widget(self.direct_panel)
            return
        panel = self.direct_panel
        if panel is None:  # made once: a new language draws its buttons again, with their state (cards open...)
            panel = self.direct_panel = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(4))
            panel.bind(minimum_height=panel.setter("height"))
            panel.role = "direct"
            self.direct_choices = Choices(self._send_direct, cols=2, narrow=True, height=dp(52), font=dp(15))
        panel.clear_widgets()
        if self.direct_error:  # why the answer was refused, above the answers
            panel.add_widget(Text(text=self.direct_error, grow=True, base_font=dp(14), ink=DANGER, size_hint_y=None,
                                  halign="left"))
        self.direct_choices.show(found)
        panel.add_widget(self.direct_choices)
        self.direct_seat = found.seat
        waiting = self.ids.waiting.__self__
        if panel.parent is None or listed.children.index(panel) != listed.children.index(waiting) - 1:
            if panel.parent is not None:
                panel.parent.remove_widget(panel)
            listed.add_widget(panel, index=listed.children.index(waiting))  # right below who is asked
        self.ids.scroll.scroll_y = 1

    def _direct_question(self, view: dict):
        prompt = view.get("prompt")
        if not prompt or prompt.get("secret") or view.get("revealing") or len(prompt.get("waiting") or []) != 1:
            return None
        seat = prompt["waiting"][0]
        if not self.app.on_screen(seat) or self.app.secrets_of(seat):
            return None  # (a seat with a secret, the Chief's dice: its question shows them, behind its cover)
        question = self.app.table.question(seat)
        if question is None or is_secret(question) or question.kind not in (PICK, CARDS) or not question.choices:
            return None
        return question

    def _send_direct(self, action: dict) -> None:
        app = self.app
        question = app.table.question(self.direct_seat) if app.table.state is not None else None
        try:
            app.table.answer(action, question=question.id if question is not None else None)
        except Refusal as refused:
            self.direct_error = refused.text(app.lang)
            self._direct(app.view, force=False)
            return
        self.direct_error = ""

    def ask_undo(self) -> None:
        app = self.app
        steps = app.table.can_undo if app.table.state is not None else 0
        if not steps:
            return
        preview = app.undo_preview()

        def words() -> tuple[str, list[str], str]:
            lines = [app.words.say(entry.message) for entry in preview] or [app.t("ui.undo_no_lines")]
            return app.t("ui.undo_confirm", count=steps), lines, app.t("ui.undo_yes")

        app.goto("confirm", words=words, action=lambda: app.table.undo())

    def ask_close(self) -> None:
        app = self.app
        app.goto("confirm", words=lambda: (app.t("ui.close_confirm"), [], app.t("ui.close_yes")),
                 action=lambda: app.table.close_ballot())

    # -- secrets to look at now -----------------------------------------------------------------------------

    def _peeks(self, view: dict, force: bool) -> None:
        """A seat the table waits on to look at its secret (the Chief's dice): on its phone, or here behind the
        hand-over cover (its button names the secret, never shows it). A seat asked now looks in its question."""
        app = self.app
        asked = set((view.get("prompt") or {}).get("waiting") or [])
        found = []
        for seat in view.get("players") or []:
            if seat in asked and app.on_screen(seat):
                continue  # its button opens its question behind the cover, the secret beside it
            for what, _reveal, urgent in app.secrets_of(seat):
                if urgent:
                    found.append((seat, what))
        key = (found, tuple(app.connected))
        if not self.changed("peeks", key, force):
            return
        box = self.ids.peeks
        shown = []
        for seat, what in found:
            on_phone = not app.on_screen(seat)
            widget = self.peek_widgets.get((seat, what, on_phone))
            if widget is None:  # made the first time, kept for the next (the dice come every round)
                if on_phone:
                    widget = Text(text=app.t("ui.look_at_phone", seat=seat, what=what), grow=True, base_font=dp(15),
                                  ink=ACT, size_hint_y=None)
                else:
                    widget = Action(text=app.t("ui.touch.look", seat=seat, what=what), size_hint_y=None,
                                    height=dp(56), base_font=dp(15))
                    widget.role = "peek"
                    widget.seat = seat
                    widget.bind(on_release=lambda _b, s=seat: app.peek(s))
                self.peek_widgets[(seat, what, on_phone)] = widget
            shown.append(widget)
        show_only(box, shown)
        settle_height(box)

    # -- the revealed ballot, while it is current -----------------------------------------------------------

    def _revealed(self, view: dict, force: bool) -> None:
        app = self.app
        shown = (view.get("parts") or {}).get("revealed") or None
        now = (view.get("round"), view.get("phase"))
        if shown is None:
            self.revealed_at = None
        elif self.revealed_at is None or self.revealed_at[0] != shown:
            self.revealed_at = (shown, now)
        current = self.revealed_at is not None and self.revealed_at[1] == now
        result = parts.revealed(view, app.words) if current else None
        if not self.changed("revealed", json.dumps(result), force):
            return
        box = self.ids.revealed
        if result is None:
            box.clear_widgets()
            settle_height(box)
            return
        title, lines = result
        texts = [title, *lines]  # its title says the step it was cast in (and the round, where the game has them)
        while len(self.revealed_texts) < len(texts):  # made once, then given each reveal's words
            self.revealed_texts.append(_revealed_text(first=not self.revealed_texts))
        for widget, text in zip(self.revealed_texts, texts, strict=False):
            widget.width = box.width - dp(12)  # (its padding)
            widget.text = text
        show_only(box, self.revealed_texts[:len(texts)])

    # -- this round's narration ---------------------------------------------------------------------------

    def _narration(self, view: dict, force: bool) -> None:
        """This round's lines, and the lines the last step brought even when they closed the round before: every line
        of the last step, then the round's older ones up to NARRATION_SHOWN lines, and past them a button to the
        rest in History (a round can say sixty lines; the screen shows about ten, and laying out all
        of them after every step cost more than drawing the frame). A line already on the screen keeps its widget:
        a new step adds its own lines and recolours the others, and a line that leaves shows a later one."""
        app = self.app
        public = app.public_lines
        undone = view.get("undone") or []
        this_round = len(public) - len(view.get("narration") or [])
        start = min(this_round, app.fresh_from)
        key = (len(public), start, app.fresh_from, json.dumps(undone), view.get("round"))
        if not self.changed("narration", key, force):
            return
        made, self.lines = self.lines, {}

        def kept(key, make) -> Text:
            widget = made.pop(key, None) or make()
            self.lines[key] = widget
            return widget

        width = self.ids.narration.width  # given before the text: rendered once, at the width it is shown at

        def line(text: str, act: bool, taken_back: bool = False) -> NarrationLine:
            if self.spare_lines:  # a line that left the screen shows the new one: a new text, no new widget
                widget = self.spare_lines.pop()
                widget.width = width
                widget.show(text, act, taken_back)
                return widget
            return NarrationLine(text, act=act, taken_back=taken_back, width=width)

        def head(round_: int) -> Text:
            widget = self.spare_heads.pop() if self.spare_heads else _round_head()
            widget.width = width
            widget.text = app.t("ui.narration", round=round_)
            return widget

        shown = []
        count = 0
        if undone:
            shown.append(kept(("undone", app.lang), lambda: Text(
                text=app.t("ui.undone"), grow=True, base_font=dp(14), ink=DIM, size_hint_y=None, halign="left")))
            for entry in undone:
                text = app.words.say(entry)
                shown.append(kept(("taken", text), lambda t=text: line(t, False, taken_back=True)))
                count += 1
        shown_round = None
        at_hand = app.table.rules_at_hand()

        def said(index: int) -> NarrationLine:
            entry = public[index]
            text = app.words.say(entry.message)
            rule = at_hand.of(entry.message)
            if rule is not None:  # a tap on the line shows the rule behind it ("Why?")
                text = app.t("rules.line", text=text)
            widget = kept((index, text, entry.act), lambda t=text, a=entry.act: line(t, a))
            widget.why = (rule, at_hand.now(rule, entry.message)) if rule is not None else None
            widget.fresh = index >= app.fresh_from
            return widget

        # The last step's instructions for the pieces stay on top when the step also ended the round: under the new
        # round's heading they fell below it, out of sight.
        pinned = pinned_acts(public, app.fresh_from, view.get("round"))
        if pinned:
            shown.append(kept(("pinned", app.lang), lambda: Text(
                text=app.t("ui.acts_of_last_round"), grow=True, base_font=dp(14), ink=ACT, size_hint_y=None,
                halign="left")))
            shown.extend(said(index) for index in pinned)
            count += len(pinned)
        for index in reversed(range(start, len(public))):
            if index in pinned:
                continue
            if count >= NARRATION_SHOWN and index < app.fresh_from:
                shown.append(self._more_lines())
                break
            entry = public[index]
            if entry.round != shown_round:
                shown_round = entry.round
                shown.append(kept(("round", entry.round, app.lang), lambda r=entry.round: head(r)))
            shown.append(said(index))
            count += 1
        show_only(self.ids.narration, shown)
        for key, widget in made.items():  # off the screen now: kept to show a later line
            if isinstance(widget, NarrationLine) and len(self.spare_lines) < SPARE_LINES:
                self.spare_lines.append(widget)
            elif key[0] == "round" and len(self.spare_heads) < 2:
                self.spare_heads.append(widget)
        self.ids.scroll.scroll_y = 1

    def _more_lines(self) -> Action:
        """The button to the round's earlier lines, made once (again after a change of language)."""
        app = self.app
        if self.more is not None:
            return self.more
        more = self.more = Action(text=app.t("ui.narration_more"), size_hint_y=None, height=TARGET, base_font=dp(14),
                      tone="quiet")
        more.role = "more"
        more.bind(on_release=lambda *_: app.goto("history", newest=True))
        return more

    def make_ahead(self) -> None:
        """Narration lines made before anyone needs them (app.on_start): a step shows its lines in them."""
        while len(self.spare_lines) < SPARE_LINES:
            self.spare_lines.append(NarrationLine("", act=False))
        while len(self.spare_heads) < 2:
            self.spare_heads.append(_round_head())
        while len(self.revealed_texts) < 3:
            self.revealed_texts.append(_revealed_text(first=not self.revealed_texts))


def _round_head() -> Text:
    """A round's heading in the narration ("Round 2: what happened")."""
    return Text(grow=True, base_font=dp(13), ink=DIM, size_hint_y=None, halign="left")


def _revealed_text(first: bool) -> Text:
    """A line of the revealed ballot: its heading (the first) a size larger."""
    return Text(grow=True, base_font=dp(15) if first else dp(14), size_hint_y=None, halign="left")


class NarrationLine(Text):
    """One line: a line asking for a physical action is marked, and stands out (amber) until the next step.
    Only its colours change with the step: its text is not drawn again. The amber box behind it is on the canvas
    only while it shows (software GL would fill an invisible one too, every frame)."""

    act = BooleanProperty(False)
    fresh = BooleanProperty(False)
    why: tuple[str, dict | None] | None = None  # the rule behind the line and the moment's facts: a tap shows them

    def __init__(self, text: str, act: bool, taken_back: bool = False, **kwargs):
        self.taken_back = taken_back
        self._box = RoundedRectangle(radius=[dp(4)], segments=CORNER)
        self._highlight = InstructionGroup()
        self._highlight.add(Color(*ACT))
        self._highlight.add(self._box)
        self._lit = False
        super().__init__(text=("▶ " if act else "") + text, act=act, grow=True, size_hint_y=None, halign="left",
                         base_font=dp(15) if act else dp(14), **kwargs)
        self.fbind("fresh", self._tint)
        self.fbind("pos", self._place_box)
        self.fbind("size", self._place_box)
        self._tint()

    def on_touch_down(self, touch) -> bool:
        if self.why is not None and self.collide_point(*touch.pos):
            touch.ud["narration_line"] = id(self)  # a tap begun here (a list hands a lifted finger to all its lines)
        return super().on_touch_down(touch)

    def on_touch_up(self, touch) -> bool:
        if self.why is not None and touch.ud.get("narration_line") == id(self) and self.collide_point(*touch.pos) \
                and touch.grab_current is None:
            App.get_running_app().goto("rules", items=[self.why])
            return True
        return super().on_touch_up(touch)

    def show(self, text: str, act: bool, taken_back: bool = False) -> None:
        self.why = None
        self.taken_back, self.act, self.fresh = taken_back, act, False
        self.base_font = dp(15) if act else dp(14)
        self.text = ("▶ " if act else "") + text
        self._tint()

    def _tint(self, *_args) -> None:
        if self.act:
            self.ink = (0.1, 0.08, 0.02, 1) if self.fresh else ACT
        else:
            self.ink = DIM if self.taken_back or not self.fresh else (0.95, 0.95, 0.95, 1)
        lit = self.act and self.fresh
        if lit != self._lit:
            self._lit = lit
            if lit:
                self.canvas.before.add(self._highlight)
                self._place_box()
            else:
                self.canvas.before.remove(self._highlight)

    def _place_box(self, *_args) -> None:
        if self._lit:
            self._box.pos, self._box.size = self.pos, self.size

