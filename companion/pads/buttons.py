"""Choices on buttons: a seat's question mapped to buttons 1..6, and presses handed to the table.

Pads know no game: the rules give each choice of a question its pad slot where one is natural (a location by
its number, a player by seating order, otherwise the k-th choice), and button k is the first choice with slot
k. A question with no slots (an assignment) is answered on a phone or the screen.

A number (a NUMBER question) is entered on a 6-button pad: button 1 −10, 2 −1, 3 +1, 4 +10, 5 back to the lowest
number, 6 OK sends it. The number starts at the question's lowest; each step lights the lamp briefly (a double
blink at the limits, where it stays), the table screen shows the number while it is not secret, and OK answers
like any press. A pad with fewer buttons cannot enter numbers: its press is refused as before.

A press answers the question its seat was asked when it was pressed: the board is read on the device's own
thread at the press (the serial hub's reader reads it as the line arrives) and the answer carries that
question's id, so a press that reaches the table after the question has changed (a phone answered first, or
the answer before it brought a new question) is refused as stale, never cast in the next question. A press
within SETTLE seconds after the seat's last question closed is refused too (a step of a number is not an
answer: it is taken): a firm double press must not answer the new question that the first press brought about
before the player has seen it.

A press with no open question for its seat, on a button with no choice, or while the seat's previous press is
still being taken, is refused and changes nothing. Refusals are told once per pad per few seconds (flood.py),
and a pad pressed faster than any hand can press is ignored for a while and named as stuck. Once a seat's answer
is accepted the seat is no longer asked, so a second press is refused: a secret ballot is never changed by an
accidental press on a pad that shows nothing.
Pads never show a choice, only signals: blinking while asked, a short solid light when an answer is accepted,
a double blink when refused.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial

from companion.catalogue import text
from companion.contract import NUMBER, Message, Question, Refusal
from companion.pads.flood import NOTICE_WINDOW, Notices, RateGuard
from companion.table import Table

BUTTONS = 6
NUMBER_STEPS = {1: -10, 2: -1, 3: 1, 4: 10}  # a number's buttons; 5 back to the lowest, 6 OK
NUMBER_RESET, NUMBER_OK = 5, 6
SETTLE = 0.5  # seconds after a seat's question closed: longer than a firm double press, shorter than reading

log = logging.getLogger("companion.pads")

Reply = Callable[[Message | None], None]  # on the loop: None if the press was accepted, else why it was refused
Say = Callable[[Message], None]  # news for the table screen and the terminal, in each reader's language


class PadError(Exception):
    """Pads that cannot run (no GPIO header, no table loop, a bad config); the message says what to do."""


def button_actions(question: Question | None) -> tuple[Mapping | None, ...]:
    """The action behind each of buttons 1..6 (None where a button has no choice)."""
    if question is None:
        return (None,) * BUTTONS
    return tuple(choice.action if choice else None
                 for choice in (question.choice_for(k) for k in range(1, BUTTONS + 1)))


def _log(message: Message) -> None:
    log.info(text(message))


@dataclass(frozen=True)
class NumberEntry:
    """A number question as a pad enters it: where the answer goes and its limits."""

    key: str  # names this very question (a new one starts again from `low`)
    low: int
    high: int
    answer: Mapping
    field: str
    secret: bool

    @classmethod
    def of(cls, question: Question | None) -> NumberEntry | None:
        if question is None or question.kind != NUMBER or question.field is None or question.choices:
            return None
        low = question.low if question.low is not None else 0
        high = question.high if question.high is not None else low
        key = repr((question.id, sorted(question.answer.items()), question.field, low, high))
        return cls(key, low, high, dict(question.answer), question.field, question.secret)

    def action(self, value: int) -> dict:
        return {**self.answer, self.field: value}


@dataclass(frozen=True)
class Board:
    """What every pad may do now: the action behind each button for each seat asked. Replaced, never changed."""

    actions: Mapping[str, tuple[Mapping | None, ...]] = field(default_factory=dict)
    secret: bool = False
    numbers: Mapping[str, NumberEntry] = field(default_factory=dict)  # seats asked a number
    prompt: str | None = None  # the id of the question asked: what a press read from this board answers
    asking: Mapping[str, tuple] = field(default_factory=dict)  # seat -> what its buttons answer (see _asking)
    closed: Mapping[str, float] = field(default_factory=dict)  # seat -> when its last question closed (this game)
    generation: int = 0  # the table's game

    def asked(self, seat: str) -> bool:
        return seat in self.actions


@dataclass(frozen=True)
class Seen:
    """What the pads showed at a press, and when: the press answers that board's question."""

    board: Board
    at: float


class PadButtons:
    """Turns presses from any thread into answers on the table's loop.

    The loop publishes a fresh Board after every change of the table; a device thread reads that immutable Board
    to find the action behind a button and hands it over with `table.answer_threadsafe`, so no device thread ever
    reads or changes the Table itself. Create and `start` it on the loop's thread.
    """

    def __init__(self, table: Table, say: Say | None = None, settle: float = SETTLE,
                 clock: Callable[[], float] = time.monotonic):
        self.table = table
        self.say: Say = say or _log
        self.settle = settle
        self.clock = clock
        self.notice_window = NOTICE_WINDOW
        self.guard = RateGuard(clock=clock)  # per seat: a stuck button is ignored before it reaches the loop
        self._notices: Notices | None = None
        self._board = Board()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watchers: list[Callable[[str, bool], None]] = []
        self._in_flight: set[str] = set()
        self._drafts: dict[str, tuple[str, int]] = {}  # seat -> (number question key, number so far)
        self._lock = threading.Lock()
        self._unsubscribe: Callable[[], None] | None = None

    def start(self) -> None:
        if self.table.loop is None:
            raise PadError("the table is not running on a loop: start the pads from inside the running table")
        self._loop = self.table.loop
        self._notices = Notices(self._loop, self.say, self.notice_window)
        self._unsubscribe = self.table.subscribe(self._refresh)
        self._refresh()

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._notices is not None:
            self._notices.close()

    def seen(self) -> Seen:
        """From any thread: the board the pads show now, and the time: what a press arriving now answers."""
        return Seen(self._board, self.clock())

    @property
    def refusals(self) -> int:
        """Refused presses so far (told or summed up)."""
        return self._notices.refusals if self._notices is not None else 0

    def refused(self, pad: object, message: Message, more: Callable[[int], Message]) -> None:
        """On the loop: a refused press told, at most once per `pad` per few seconds (the rest summed up)."""
        if self._notices is None:
            self.say(message)
        else:
            self._notices.refused(pad, message, more)

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
        table, before = self.table, self._board
        closed = dict(before.closed) if before.generation == table.generation else {}
        prompt = table.rules.prompt(table.state) if table.state is not None and table.rules is not None else None
        asked = {seat: table.question(seat) for seat in prompt.seats} if prompt is not None else {}
        questions = {seat: q for seat, q in asked.items() if q is not None}
        numbers = {seat: entry for seat, q in questions.items() if (entry := NumberEntry.of(q)) is not None}
        actions = {seat: button_actions(q) for seat, q in questions.items()}
        asking = {seat: _asking(prompt.id, q, actions[seat], numbers.get(seat)) for seat, q in questions.items()}
        now = self.clock()
        for seat, what in before.asking.items():
            if before.generation == table.generation and asking.get(seat) != what:
                closed[seat] = now  # answered, closed or asked anew: a press for it must not answer the next
        if prompt is None:
            return Board(closed=closed, generation=table.generation)
        return Board(actions, prompt.secret, numbers, prompt.id, asking, closed, table.generation)

    # -- presses -----------------------------------------------------------------------------------------------

    def press(self, seat: str, button: int, reply: Reply | None = None, keys: int = BUTTONS,
              seen: Seen | None = None, source: dict | None = None, guard: bool = True) -> None:
        """A press on `seat`'s pad, from any thread; `reply(None or why refused)` follows on the loop.

        `keys`: how many buttons the pad has (a number is entered only on a pad with all six). `seen`: the board
        at the press, when it was read earlier than now (the serial reader's); `source`: the device's tag of the
        press, stored with the answer; `guard`: False when the device has checked its press rate itself.
        """
        loop = self._loop
        if loop is None:
            raise PadError("the pads are not started")
        seen = seen or self.seen()  # one immutable snapshot for the whole press
        board = seen.board
        if guard:
            verdict = self.guard.check(seat)
            if verdict != "ok":
                if verdict == "jammed":
                    self._post(self._stuck, seat, reply)
                return  # a stuck pad: not even handed to the loop
        entry = board.numbers.get(seat) if keys >= BUTTONS else None
        if entry is not None and type(button) is int and 1 <= button <= BUTTONS:
            action, reason = self._number(seat, entry, button, reply)
            if action is None and reason is None:
                return  # a step of the number: told on the loop already
        else:
            action, reason = _choice(board, seat, button)
        closed = board.closed.get(seat)
        if action is not None and closed is not None and seen.at - closed < self.settle:
            # an answer just after the seat's last question closed: the press was meant for that one
            action, reason = None, Message("pads.too_soon", {"seat": seat})
        if action is not None:
            with self._lock:
                if seat in self._in_flight:
                    action, reason = None, Message("pads.busy", {"seat": seat})
                else:
                    self._in_flight.add(seat)
        try:
            if action is None:
                loop.call_soon_threadsafe(self._refused, seat, reason, reply)
            else:
                self.table.answer_threadsafe(dict(action), partial(self._answered, seat, board.secret, reply),
                                             taken=partial(self._taken, seat), question=board.asking[seat][1],
                                             source=source, still=partial(self._still, seat, board.asking[seat]))
        except RuntimeError:  # the loop is closed: the companion is shutting down, the press goes nowhere
            log.debug("a pad press arrived after the table stopped")

    def _still(self, seat: str, asking: tuple) -> bool:
        """On the loop: the seat is still asked what its pad's press answered (the board is the table's now)."""
        return self._board.asking.get(seat) == asking

    def _post(self, callback: Callable[..., None], *args: object) -> None:
        try:
            self._loop.call_soon_threadsafe(callback, *args)
        except RuntimeError:  # the loop is closed: the companion is shutting down
            log.debug("a pad press arrived after the table stopped")

    def _number(self, seat: str, entry: NumberEntry, button: int,
                reply: Reply | None) -> tuple[Mapping | None, Message | None]:
        """A press on a pad entering a number: a step (told here), or OK (the action to send)."""
        with self._lock:
            key, value = self._drafts.get(seat, (None, entry.low))
            if key != entry.key:
                value = entry.low
            if button == NUMBER_OK:
                return entry.action(value), None
            wanted = entry.low if button == NUMBER_RESET else value + NUMBER_STEPS[button]
            new = min(entry.high, max(entry.low, wanted))
            self._drafts[seat] = (entry.key, new)
        at_limit = new != wanted and new == value
        self._loop.call_soon_threadsafe(self._stepped, seat, entry, new, at_limit, reply)
        return None, None

    def _stepped(self, seat: str, entry: NumberEntry, value: int, at_limit: bool, reply: Reply | None) -> None:
        """On the loop: the number so far shown on the table screen (unless secret), the lamp told."""
        said = Message("pads.number_limit", {"seat": seat, "low": entry.low, "high": entry.high}) \
            if at_limit else None
        if not entry.secret:
            self.say(said or Message("pads.number_draft", {"seat": seat, "number": value}))
        if reply is not None:
            reply(said)

    def _refused(self, seat: str, reason: Message, reply: Reply | None) -> None:
        self.refused(seat, reason, lambda count: Message("pads.refused_more", {"seat": seat, "count": count}))
        if reply is not None:
            reply(reason)

    def _stuck(self, seat: str, reply: Reply | None) -> None:
        said = Message("pads.stuck_seat", {"seat": seat, "seconds": round(self.guard.rest)})
        log.warning("%s's pad is pressed faster than a hand can: ignored for %.0f s", seat, self.guard.rest)
        self.say(said)
        if reply is not None:
            reply(said)  # its lamp shows the presses refused

    def _taken(self, seat: str, error: Refusal | None) -> None:
        """The table has taken (or refused) the seat's press: its next press, on the board the table shows now, is
        not a second press of the same one (its acknowledgement still waits for the disk)."""
        with self._lock:
            self._in_flight.discard(seat)
            if error is None:
                self._drafts.pop(seat, None)  # a number sent: the next one starts again from its lowest

    def _answered(self, seat: str, secret: bool, reply: Reply | None, error: Refusal | None) -> None:
        """The press's outcome, once it is on disk (or refused): said, and told to the pad."""
        said = None
        if error is not None:
            # the rules' reason can name the refused vote or destination: never said aloud for a secret prompt
            if error.code == "table.stale":
                said = Message("pads.stale", {"seat": seat})
            elif secret:
                said = Message("pads.refused_secret", {"seat": seat})
            else:
                said = Message("pads.refused", {"seat": seat, "reason": error.message.to_json()})
            self.refused(seat, said, lambda count: Message("pads.refused_more", {"seat": seat, "count": count}))
        if reply is not None:
            reply(said)


def _asking(prompt: str, question: Question, actions: tuple, entry: NumberEntry | None) -> tuple:
    """What a press answers: the question's ids and what its buttons send. A question whose facts change while its
    buttons answer the same (another seat has answered) is still the same question; one asked again, or with other
    answers behind the buttons, is not (even under the same id: the next line of a form)."""
    return prompt, question.id, actions, entry.key if entry is not None else None


def _choice(board: Board, seat: str, button: object) -> tuple[Mapping | None, Message | None]:
    if type(button) is not int or not 1 <= button <= BUTTONS:
        return None, Message("pads.bad_button", {"seat": seat, "button": repr(button)[:20], "count": BUTTONS})
    actions = board.actions.get(seat)
    if actions is None:
        return None, Message("pads.not_asked", {"seat": seat})
    if all(action is None for action in actions):
        return None, Message("pads.not_on_pad", {"seat": seat})
    if actions[button - 1] is None:
        return None, Message("pads.no_choice", {"seat": seat})
    return actions[button - 1], None
