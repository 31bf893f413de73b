"""The game so far: every public line of the narration by round, and the fairness of the dice cup (each roll's
commitment, then its dice and nonce once revealed, checked here)."""

from __future__ import annotations

from kivy.metrics import dp

from companion.cup import verify
from companion.ui.screens.base import BaseScreen
from companion.ui.widgets import ACT, DANGER, DIM, GOOD, Text


class HistoryScreen(BaseScreen):
    newest = False  # opened at the end of the game so far (the board's "earlier lines of this round")
    pinned = False  # held at the newest line while the lines are laid out, until a finger scrolls

    def open(self, newest: bool = False, **_options) -> None:
        self.newest = newest

    def on_kv_post(self, base_widget) -> None:
        super().on_kv_post(base_widget)
        self.ids.lines.bind(height=self._keep_newest)
        # The scroll view's damped effect may still carry scroll_y off the bottom a few frames after the lines grew.
        self.ids.lines.parent.bind(scroll_y=self._keep_newest, on_scroll_start=self._let_go)

    def _keep_newest(self, *_args) -> None:
        if self.pinned and self.ids.lines.parent.scroll_y != 0:
            self.ids.lines.parent.scroll_y = 0

    def _let_go(self, *_args) -> None:
        self.pinned = False

    def on_leave(self, *args) -> None:
        self.pinned = False
        return super().on_leave(*args)

    def update(self, force: bool = False) -> None:
        if self.newest:
            self.newest = False
            self.pinned = True  # each line wraps to its height after it is added: stay at the newest
            self.ids.lines.parent.scroll_y = 0

        app = self.app
        table = app.table
        lines = [entry for entry in table.narration() if not entry.seats] if table.state is not None else []
        rolls = [r.public_json() for r in table.rolls] if table.state is not None else []
        if not self.changed("history", (len(lines), repr(rolls)), force):
            return
        box = self.ids.lines
        box.clear_widgets()
        current = None
        for entry in lines:
            if entry.round != current:
                current = entry.round
                box.add_widget(Text(text=app.t("ui.round", round=current), grow=True, size_hint_y=None,
                                    base_font=dp(16), halign="left"))
            box.add_widget(Text(text=("▶ " if entry.act else "") + app.words.say(entry.message), grow=True,
                                size_hint_y=None, base_font=dp(14), halign="left", ink=ACT if entry.act else
                                (0.9, 0.9, 0.9, 1)))
        if not lines:
            box.add_widget(Text(text=app.t("ui.nothing_yet"), grow=True, size_hint_y=None, ink=DIM))
        fair = self.ids.rolls
        fair.clear_widgets()
        fair.add_widget(Text(text=app.t("ui.fairness_hint"), grow=True, size_hint_y=None, base_font=dp(13),
                             ink=DIM, halign="left"))
        for n, roll in reversed(list(enumerate(rolls, start=1))):
            fair.add_widget(Text(text=app.t("ui.roll", n=n, count=roll["count"]), grow=True, size_hint_y=None,
                                 base_font=dp(15), halign="left"))
            fair.add_widget(Text(text=app.t("ui.commitment", value=roll["commitment"]), grow=True,
                                 size_hint_y=None, base_font=dp(12), halign="left", ink=DIM))
            if "dice" in roll:
                ok = verify(roll["commitment"], roll["dice"], roll["nonce"])
                fair.add_widget(Text(text=app.t("ui.roll_open", dice=" ".join(str(d) for d in roll["dice"]),
                                                nonce=roll["nonce"]), grow=True, size_hint_y=None,
                                     base_font=dp(12), halign="left"))
                fair.add_widget(Text(text=app.t("ui.verified" if ok else "ui.mismatch"), grow=True,
                                     size_hint_y=None, base_font=dp(14), ink=GOOD if ok else DANGER,
                                     halign="left"))
            else:
                fair.add_widget(Text(text=app.t("ui.sealed"), grow=True, size_hint_y=None, base_font=dp(13),
                                     halign="left", ink=DIM))
