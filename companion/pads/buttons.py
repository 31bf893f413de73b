"""Choices on buttons: a seat's prompt mapped to buttons 1..6, and presses handed to the table.

The mapping is the same for every game and every kind of pad:

- kind "location": button k is the option whose "go" is k (locations 1-6 by number). A placement option also
  names a character; a pad cannot say which, so button k places the first unplaced character in the order the
  options list them (the rules list them in the order of the player's characters).
- kinds "ballot" and "gift": button k is the k-th player in seating order, matching the colour stickers on the
  pad; a player who is not a candidate (or oneself, for a gift) has no option.
- any other kind: button k is the k-th option in the list (only the first 6 can be reached from a pad).

A press with no open prompt for its seat, on a button with no option, or while the seat's previous press is
still being taken, is refused and changes nothing. Once a seat's answer is accepted the seat is no longer asked,
so a second press is refused: a secret ballot is never changed by an accidental press on a pad that shows nothing.
Pads never show a choice, only signals: blinking while asked, a short solid light when an answer is accepted,
a double blink when refused.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from companion.games.base import Prompt
from companion.table import Table

BUTTONS = 6
SEATED_KINDS = ("ballot", "gift")  # button k = the k-th player in seating order

log = logging.getLogger("companion.pads")

Reply = Callable[[str | None], None]  # on the loop: None if the press was accepted, else why it was refused
Say = Callable[[str], None]


class PadError(Exception):
    """Pads that cannot run (no GPIO header, no table loop, a bad config); the message says what to do."""


def button_actions(prompt: Prompt | None, seat: str, players: Sequence[str]) -> tuple[dict | None, ...]:
    """The action behind each of buttons 1..6 for `seat` (None where a button has no option)."""
    options = prompt.options.get(seat) if prompt is not None else None
    if not options:
        return (None,) * BUTTONS
    if prompt.kind == "location":
        by_place: dict[int, dict] = {}
        for option in options:
            by_place.setdefault(option.get("go"), option)  # the first listed character for that location
        return tuple(by_place.get(k) for k in range(1, BUTTONS + 1))
    if prompt.kind in SEATED_KINDS:
        by_player = {_target(option): option for option in options}
        slots = list(players[:BUTTONS]) + [None] * (BUTTONS - len(players[:BUTTONS]))
        return tuple(by_player.get(player) if player else None for player in slots)
    return tuple(options[:BUTTONS]) + (None,) * (BUTTONS - len(options[:BUTTONS]))


def _target(option: dict) -> Any:
    return option.get("vote", option.get("give"))


@dataclass(frozen=True)
class Board:
    """What every pad may do now: the action behind each button for each seat asked. Replaced, never changed."""

    actions: Mapping[str, tuple[dict | None, ...]] = field(default_factory=dict)
    secret: bool = False

    def asked(self, seat: str) -> bool:
        return seat in self.actions


class PadButtons:
    """Turns presses from any thread into answers on the table's loop.

    The loop publishes a fresh Board after every change of the table; a device thread reads that immutable Board
    to find the action behind a button and hands it over with `table.answer_threadsafe`, so no device thread ever
    reads or changes the Table itself. Create and `start` it on the loop's thread.
    """

    def __init__(self, table: Table, say: Say | None = None):
        self.table = table
        self.say: Say = say or log.info
        self._board = Board()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watchers: list[Callable[[str, bool], None]] = []
        self._in_flight: set[str] = set()
        self._lock = threading.Lock()
        self._unsubscribe: Callable[[], None] | None = None

    def start(self) -> None:
        if self.table.loop is None:
            raise PadError("the table is not running on a loop: start the pads from inside the running table")
        self._loop = self.table.loop
        self._unsubscribe = self.table.subscribe(self._refresh)
        self._refresh()

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    # -- what the pads show ------------------------------------------------------------------------------------

    def asked(self, seat: str) -> bool:
        return self._board.asked(seat)

    def watch(self, callback: Callable[[str, bool], None]) -> Callable[[], None]:
        """`callback(seat, asked)` on the loop whenever a seat starts or stops being asked."""
        self._watchers.append(callback)
        return lambda: self._watchers.remove(callback)

    def _refresh(self) -> None:
        before = self._board
        self._board = self._read_board()
        for seat in sorted(set(before.actions) ^ set(self._board.actions)):
            for callback in list(self._watchers):
                callback(seat, self._board.asked(seat))

    def _read_board(self) -> Board:
        table = self.table
        if table.state is None or table.rules is None:
            return Board()
        prompt = table.rules.prompt(table.state)
        if prompt is None:
            return Board()
        players = tuple(table.state.players)
        return Board({seat: button_actions(prompt, seat, players) for seat in prompt.options if prompt.options[seat]},
                     prompt.secret)

    # -- presses -----------------------------------------------------------------------------------------------

    def press(self, seat: str, button: int, reply: Reply | None = None) -> None:
        """A press on `seat`'s pad, from any thread; `reply(None or why refused)` follows on the loop."""
        loop = self._loop
        if loop is None:
            raise PadError("the pads are not started")
        board = self._board  # one immutable snapshot for the whole press
        action, reason = _choice(board, seat, button)
        if action is not None:
            with self._lock:
                if seat in self._in_flight:
                    action, reason = None, f"{seat.title()}'s previous press is still being taken"
                else:
                    self._in_flight.add(seat)
        try:
            if action is None:
                loop.call_soon_threadsafe(self._refused, reason, reply)
            else:
                self.table.answer_threadsafe(action, partial(self._answered, seat, board.secret, reply))
        except RuntimeError:  # the loop is closed: the companion is shutting down, the press goes nowhere
            log.debug("a pad press arrived after the table stopped")

    def _refused(self, reason: str, reply: Reply | None) -> None:
        self.say(reason)
        if reply is not None:
            reply(reason)

    def _answered(self, seat: str, secret: bool, reply: Reply | None, error: str | None) -> None:
        with self._lock:
            self._in_flight.discard(seat)
        if error is not None:
            # the rules' reason can name the refused vote or destination: never said aloud for a secret prompt
            shown = f"{seat.title()}'s pad press was refused" if secret else f"{seat.title()}'s pad press: {error}"
            self.say(shown)
        if reply is not None:
            reply(error)


def _choice(board: Board, seat: str, button: object) -> tuple[dict | None, str]:
    actor = seat.title()
    if type(button) is not int or not 1 <= button <= BUTTONS:
        return None, f"{actor}'s pad sent button {button!r}; pads have buttons 1 to {BUTTONS}"
    actions = board.actions.get(seat)
    if actions is None:
        return None, f"{actor} pressed a pad button but is not asked anything now"
    if actions[button - 1] is None:
        return None, f"{actor} pressed a pad button with no choice behind it now"
    return actions[button - 1], ""
