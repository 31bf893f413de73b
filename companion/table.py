"""The Table: the one place where a game changes.

Devices send answers; the table asks the rules, stores each accepted event in the log before anyone is told,
folds it into the state, rolls the cup when the rules ask for dice, and tells its subscribers. Everything runs
on one asyncio loop; a device thread hands its input over with `answer_threadsafe`.

The log holds four kinds of rows: {"answer": action}, {"roll": dice, "nonce", "commitment", "visible_to"},
{"pick": index} and {"undo": steps}. Folding the log rebuilds exactly the state before a power cut. An answer
from a device that numbers its own sends (a pad hub) also holds that device's tag, {"answer": action, "source":
tag}, so the device's press sent again after a restart is recognised as the one already stored.

When the save file takes no write (a full disk), nothing changes and whoever asked is told "not stored"; the
table says so (`storage_problem`) and, on its loop, tries again by itself: a roll the rules wait for is rolled
and stored as soon as storage works again, so the game never waits for a restart.

With a group-commit store (the box's) a change is committed at once and put on disk by a sync on a thread of
its own, so the loop never waits for the disk. The subscribers (the box's own screen among them) hear of a
change at once; what leaves the box waits for the disk (`when_stored`, `stored`, `on_disk`): a device's
acknowledgement, and every board the phone server sends.

A mis-tap is not final: the last answer of a secret question (the one that would close it, and so reveal it) is
held for `reveal_grace` seconds before it is folded. It is stored before it is acknowledged, as a setting of the
save file ("held:<game id>": the answer, its seat, the question it closes, when), not in the log; every view says
"revealing" (the question, the grace, the seconds left) so every device counts down alike. Within the grace the
same seat may answer again (the held answer is replaced, the grace is not lengthened: nothing a reader can see
changes) and the other seats may still change theirs; then the held answer is folded as any answer (one event)
and the setting cleared. Closing the ballot in the grace reveals at once; undo and corrections wait for the
reveal, as for any secret answer cast. A power cut in the grace folds the held answer at the restart: it was
acknowledged, a restart takes longer than any grace, and a box's clock after a cut cannot say how much was left.
A held answer whose question the log has closed (folded just before the cut, before its setting was cleared) is
known by the question's id, which is never asked again, and dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from companion.contract import Game, GameState, IllegalAction, Line, Message, Prompt, Refusal, record_of
from companion.correction import corrected, edits_json
from companion.cup import DiceCup, Roll
from companion.names import check_names
from companion.position import start as position_start
from companion.rulebook import Rules, first_met
from companion.store import EventStore, GameRecord, StorageError, StoreError

RECENT_ROLLS = 6  # rolls whose commitments every view carries
RETRY_DELAYS = (0.5, 5.0)  # seconds between tries of a write that failed: the first, and the longest
REVEAL_GRACE_MOST = 5  # seconds: the longest grace before the last secret answer is revealed
DEFAULT_REVEAL_GRACE = 3  # the box's grace while its save file keeps none (a Table alone reveals at once: 0)
REVEAL_GRACE_SETTING = "reveal_grace"  # the setting that keeps the table's grace
HELD = "held:"  # the setting that keeps a game's held answer: "held:<game id>" -> Held.to_json(), or null

log = logging.getLogger("companion.table")


class TableError(Refusal):
    """A table command that cannot be carried out (no game, nothing to undo, ...): a code and parameters."""


class NotStored(TableError):
    """A change the save file could not take (a full disk, a read-only file): nothing of it happened."""

    def __init__(self, error: StorageError):
        super().__init__("table.not_stored", detail=storage_reason(error).to_json())
        self.error = error


def storage_reason(error: StorageError) -> Message:
    """Why the save file took no write, as a sentence for players."""
    if error.reason in ("full", "readonly"):
        return Message(f"faults.storage.{error.reason}")
    return Message("faults.storage.io", {"detail": error.detail[:200]})


def check_reveal_grace(seconds: object) -> int:
    """`seconds` if it is a grace before a reveal the table takes (0 to REVEAL_GRACE_MOST), else a Refusal."""
    if type(seconds) is not int or not 0 <= seconds <= REVEAL_GRACE_MOST:
        raise TableError("table.reveal_grace", value=str(seconds)[:20], most=REVEAL_GRACE_MOST)
    return seconds


class StaleQuestion(TableError):
    """An answer to a question that is already closed (a slow phone, a double tap): refused, never applied."""

    def __init__(self) -> None:
        super().__init__("table.stale")


@dataclass(frozen=True)
class Held:
    """The last answer of a secret question, waiting out its grace before it is folded (and the question revealed)."""

    seat: str
    action: dict
    question: str  # the id of the prompt it closes
    source: dict | None  # the device's tag of the answer, stored with it once folded
    at: str  # when it was given (UTC, ISO 8601): for whoever reads the save file
    seconds: int  # the grace it waits out
    until: float  # time.monotonic() when the grace ends (this process only)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "action": self.action, "question": self.question, "source": self.source,
                "at": self.at, "seconds": self.seconds}


@dataclass
class CupRoll:
    roll: Roll
    public: bool
    revealed: bool

    def public_json(self) -> dict[str, Any]:
        """The commitment for everyone; the dice and nonce only once revealed, so anyone can check it."""
        out: dict[str, Any] = {"commitment": self.roll.commitment, "count": len(self.roll.dice)}
        if self.revealed:
            out["dice"] = list(self.roll.dice)
            out["nonce"] = self.roll.nonce
        return out


class Table:
    def __init__(self, store: EventStore | None = None, cup: DiceCup | None = None, roll_when_asked: bool = True,
                 reveal_grace: int = 0):
        """`reveal_grace`: the seconds the last secret answer waits before its reveal, where the save file keeps no
        grace of its own (a table without a store, the tests and benches: 0, at once; the box: DEFAULT_REVEAL_GRACE)."""
        self.store = store
        self.cup = cup or DiceCup()
        self.roll_when_asked = roll_when_asked  # replays roll from their own script instead
        self.rules: Game | None = None
        self.state: GameState | None = None
        self.game_id: int | None = None
        self.names: dict[str, str] = {}  # the people's names by seat, where given (companion/names.py)
        self.events: list[dict] = []  # this game's log, as stored
        self.rolls: list[CupRoll] = []
        self._undoable: list[Any] = []  # states before each answer that may still be taken back
        self.undone: list[Line] = []  # the narration the last undo took back, until the next change
        self._told_from = 0  # the narration's length before the last answer: what followed it stays on show
        self.first_game_mode = False  # each view names the rules this moment meets for the first time
        self._rules_at_hand: Rules | None = None
        self._answered: list[Message] = []  # the title of every question answered in this game, in order
        self.generation = 0  # counts the games set up or loaded on this table: a new one means new seats
        self._shared: tuple[dict, list[Line]] | None = None  # the seat-free part of views, until the next change
        self._subscribers: list[Callable[[], None]] = []
        self.loop: asyncio.AbstractEventLoop | None = None
        self.storage_problem: Message | None = None  # why the last write failed, until one succeeds
        self._retry: asyncio.TimerHandle | None = None
        self._retry_delay = RETRY_DELAYS[0]
        self._unsynced: list[tuple[int, Callable[[], None]]] = []  # (writes, callback) waiting for the disk
        self._syncing = False  # a sync runs on its thread
        self._synced_writes = 0  # the store's writes on disk, as the loop last heard from the sync
        self.reveal_grace = self._saved_grace(reveal_grace)
        self._held: Held | None = None  # the last answer of a secret question, in its grace
        self._held_due = False  # its grace is over: it is revealed as soon as the save file takes the write
        self._grace_timer: asyncio.TimerHandle | None = None
        self._revealing: tuple[dict, dict] | None = None  # (the public board it was measured on, "revealing")

    # -- games ----------------------------------------------------------------------------------------------

    def new_game(self, game: str, players: list[str], options: dict | None = None,
                 position: dict | None = None, names: dict | None = None, reveal_grace: int | None = None) -> None:
        """Start a game (IllegalAction if the setup is not valid, Refusal names.* if a name is not one,
        table.reveal_grace if the grace is not one; nothing is stored then). `names`: the people's names by seat,
        where given; `reveal_grace`: the table's grace from now on (`set_reveal_grace`), None to keep it."""
        from companion.games import get_game  # the registry, loaded where a game is started

        if reveal_grace is not None:
            check_reveal_grace(reveal_grace)
        rules = get_game(game)
        state = position_start(rules, players, options, position)
        names = check_names(list(state.players), names)
        if reveal_grace is not None:
            self.set_reveal_grace(reveal_grace)
        game_id = None
        if self.store is not None:  # stored before the table changes: a game that cannot be stored never starts
            game_id = self._store(self.store.new_game, game, list(players), dict(options or {}), position, names)
        self._reset(rules, state)
        self.game_id = game_id
        self.names = names
        self._settle_or_wait()
        self._notify()

    def resume(self) -> GameRecord | None:
        """Carry on the unfinished game in the store, folding its log; None if there is none."""
        if self.store is None:
            raise TableError("table.no_save_file")
        record = self.store.unfinished()
        if record is None:
            return None
        self.load(record)
        if self.roll_when_asked:  # a table that plays (not one that only reads the game) reveals by itself too
            self._fold_held_at_restart()
        self._settle_or_wait()
        self._notify()
        return record

    def load(self, record: GameRecord) -> None:
        """Fold a stored game's log into the table, exactly as it was played."""
        from companion.games import get_game

        rules = get_game(record.game)
        self._reset(rules, position_start(rules, list(record.players), record.options, record.position))
        self.game_id = record.id
        self.names = dict(record.names)
        try:
            events = self.store.events(record.id)
        except StoreError as error:
            raise TableError("table.cannot_resume", game=record.id, detail=str(error)) from None
        for seq, event in enumerate(events, start=1):
            try:
                self._fold(event)
            except (IllegalAction, KeyError, IndexError, TypeError, ValueError) as error:
                raise TableError("table.event_misfit", game=record.id, path=str(self.store.path), seq=seq,
                                 event=repr(event), detail=str(error)) from None
            self.events.append(event)
        if self.state.over and not record.is_finished:  # a save file from before the end was marked together
            with contextlib.suppress(NotStored):  # the game is over either way; marked at the next start
                self._store(self.store.finish, record.id, list(self.state.winners), self.state.round)

    def _reset(self, rules: Game, state: Any) -> None:
        self._cancel_grace()
        self._held, self._held_due, self._revealing = None, False, None  # the held answer stays with its own game
        self.rules, self.state, self.game_id = rules, state, None
        self.names = {}
        self.generation += 1
        self.events, self.rolls, self._undoable, self.undone = [], [], [], []
        self._told_from = 0
        self._shared = None
        self._rules_at_hand = None
        self._answered = []
        self._secret_cast: str | None = None  # the id of the secret question the last secret answer was cast in

    # -- commands -------------------------------------------------------------------------------------------

    def answer(self, action: object, question: str | None = None, source: dict | None = None) -> None:
        """A seat's answer (or {"close": true} from the table). IllegalAction if refused: nothing changes.

        `question` is the prompt id the device answered; an answer to a question already closed is refused,
        never applied to the next one. `source`: the device's own tag of this answer, stored with it (JSON).
        The last answer of a secret question is held for the grace (stored, not yet folded: see the module).
        """
        self._need_game()
        if self._waits_for_cup():
            self._settle()  # a roll that could not be stored: it goes first (NotStored if it still cannot)
        if question is not None and question != self._asked_id(action):
            raise StaleQuestion()
        held = self._held
        if held is not None and isinstance(action, dict) and "close" in action:
            self.reveal_now()  # the table closes the ballot in the grace: every ballot is in, so it is revealed
            return
        events = self.rules.decide(self.state, action)
        seat = action.get("seat") if isinstance(action, dict) else None
        closes = self._closes_secret(events) if self.reveal_grace or held is not None else None
        if held is not None and seat == held.seat:  # the held seat changes its answer within the grace
            if closes is not None:
                self._hold(replace(held, action=action, source=source))  # the grace is not lengthened
                return
            self._unhold()  # an answer that closes nothing now (a sheet taken back): taken as any answer
        elif held is None and closes is not None and self.reveal_grace and isinstance(seat, str):
            self._hold(Held(seat, action, closes.id, source, datetime.now(UTC).isoformat(timespec="seconds"),
                            self.reveal_grace, time.monotonic() + self.reveal_grace))
            self._start_grace()
            self._notify()
            return
        rows = [{"answer": event} for event in events]
        if source is not None and rows:
            rows[0]["source"] = source  # one tag per answer, on its first row
        try:
            self._record_answers(rows)
        except NotStored:
            if held is not None and self._held is None:  # the held answer stays as it was (in the file: if it can)
                self._held, self._shared = held, None
                with contextlib.suppress(NotStored):
                    self._hold(held)
                self._start_grace()
            raise
        if self._held is not None:
            self._check_held()  # another seat changed its answer: is the held one still the last?
        self._settle_or_wait()
        self._notify()

    def _closes_secret(self, events: list[dict]) -> Prompt | None:
        """The secret question these events (of an answer decided now) would close, or None: tried on the state,
        a closed prompt id (a new question, the cup, the end) means it was the last answer."""
        asked = self.rules.prompt(self.state)
        if asked is None or not asked.secret:
            return None
        state = self.state
        for event in events:
            state = self.rules.apply(state, event)
        after = self.rules.prompt(state)
        return asked if after is None or after.id != asked.id else None

    # -- the grace before a reveal --------------------------------------------------------------------------

    @property
    def held(self) -> Held | None:
        """The last answer of a secret question in its grace, or None."""
        return self._held

    def revealing(self) -> dict | None:
        """The grace as it stands now: {"question", "seconds", "left"} (views carry it as of the last change of
        the public board), or None when no answer is held."""
        held = self._held
        if held is None:
            return None
        return {"question": held.question, "seconds": held.seconds,
                "left": round(max(0.0, held.until - time.monotonic()), 1)}

    def reveal_now(self) -> None:
        """End the grace now (the timer on the loop does it when the grace is over): the held answer is folded as
        any answer, one event, and its question revealed. Nothing if no answer is held. NotStored if the save
        file takes no write: the answer stays held, and is revealed once it takes writes again."""
        held = self._held
        if held is None:
            return
        self._cancel_grace()
        self._held_due = True
        try:
            events = self.rules.decide(self.state, held.action)
        except IllegalAction as refused:  # the other seats' changes left it no answer: its seat is asked again
            log.warning("the held answer %r is no longer an answer (%s): its seat is asked again", held.action,
                        refused)
            self._unhold(quietly=True)
            self._notify()
            return
        rows = [{"answer": event} for event in events]
        if held.source is not None and rows:
            rows[0]["source"] = held.source
        self._record_answers(rows)
        self._unhold(quietly=True)  # a setting left behind names a closed question: dropped at the next start
        self._settle_or_wait()
        self._notify()

    def set_reveal_grace(self, seconds: int) -> None:
        """The seconds the last secret answer waits before its reveal, from the next one on (0 to
        REVEAL_GRACE_MOST; Refusal table.reveal_grace otherwise), kept in the save file."""
        check_reveal_grace(seconds)
        if self.store is not None:
            self._store(self.store.set_setting, REVEAL_GRACE_SETTING, seconds)
        self.reveal_grace = seconds

    def _saved_grace(self, default: int) -> int:
        """The grace the save file keeps, or `default`."""
        try:
            saved = self.store.setting(REVEAL_GRACE_SETTING) if self.store is not None else None
        except StoreError as error:  # read again at the next start; meanwhile the default
            log.warning("the reveal grace could not be read from the save file: %s", error)
            saved = None
        return saved if type(saved) is int and 0 <= saved <= REVEAL_GRACE_MOST else default

    def _hold(self, held: Held) -> None:
        """Keep `held` in the save file (NotStored if it takes no write: nothing changes), then on the table."""
        if self.store is not None and self.game_id is not None:
            self._store(self.store.set_setting, f"{HELD}{self.game_id}", held.to_json())
        if self._held is None or self._held.question != held.question:
            self._shared = None  # "revealing" appears
        self._held = held

    def _unhold(self, quietly: bool = False) -> None:
        """No answer held any more: cleared in the save file first (NotStored, unless `quietly`: a setting left
        behind names a question the log has closed, and is dropped at the next start)."""
        if self.store is not None and self.game_id is not None:
            try:
                self._store(self.store.set_setting, f"{HELD}{self.game_id}", None)
            except NotStored:
                if not quietly:
                    raise
        self._cancel_grace()
        self._held, self._held_due, self._shared = None, False, None

    def _check_held(self) -> None:
        """After another seat's answer in the grace: a held answer that no longer closes its question is folded
        now (it is not the last any more); one that is no answer any more is dropped (its seat is asked again)."""
        held = self._held
        try:
            events = self.rules.decide(self.state, held.action)
        except IllegalAction:
            self._unhold(quietly=True)
            return
        if self._closes_secret(events) is None:
            with contextlib.suppress(NotStored):  # held still, and revealed once the save file takes writes
                self.reveal_now()

    def _start_grace(self) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self._grace_timer = self.loop.call_later(max(0.0, self._held.until - time.monotonic()), self._grace_over)

    def _cancel_grace(self) -> None:
        if self._grace_timer is not None:
            self._grace_timer.cancel()
            self._grace_timer = None

    def _grace_over(self) -> None:
        self._grace_timer = None
        try:
            self.reveal_now()
        except NotStored:
            pass  # held, and revealed by the next try of the save file (_try_again)
        except Exception:
            log.exception("revealing the held answer failed")

    def _fold_held_at_restart(self) -> None:
        """The answer a power cut caught in its grace: folded now (see the module); one whose question the log has
        closed is dropped."""
        if self.store is None or self.game_id is None or self.state.over:
            return
        key = f"{HELD}{self.game_id}"
        try:
            saved = self.store.setting(key)
        except StoreError as error:
            log.warning("the held answer could not be read from the save file: %s", error)
            return
        if saved is None:
            return
        asked = self.rules.prompt(self.state)
        if (not isinstance(saved, dict) or asked is None or saved.get("question") != asked.id
                or saved.get("seat") not in asked.seats or not isinstance(saved.get("action"), dict)):
            with contextlib.suppress(NotStored):
                self._store(self.store.set_setting, key, None)
            return
        source = saved.get("source")
        self._held = Held(saved["seat"], saved["action"], asked.id, source if isinstance(source, dict) else None,
                          str(saved.get("at", "")), self.reveal_grace, time.monotonic())
        with contextlib.suppress(NotStored):  # held, and revealed once the save file takes writes
            self.reveal_now()

    def _asked_id(self, action: object) -> str | None:
        """The id of what the answering seat is asked now (the prompt's for the table's own answers): a device's
        answer names the question it answered, and one asked anew has an id of its own."""
        seat = action.get("seat") if isinstance(action, dict) else None
        if isinstance(seat, str) and seat in self.state.players:
            asked = self.rules.question(self.state, seat)
            if asked is not None:
                return asked.id
        current = self.rules.prompt(self.state)
        return current.id if current is not None else None

    def close_ballot(self) -> None:
        """Close the open ballot: voters who have not voted abstain. A deliberate, logged table action. In the
        grace before a reveal every ballot is in: the held one is folded and the ballot revealed at once."""
        self.answer({"close": True})

    @property
    def can_undo(self) -> int:
        """How many answers can be taken back (back to the last reveal or roll of the cup; none in a grace)."""
        return 0 if self._held is not None else len(self._undoable)

    def undo(self, steps: int = 1) -> None:
        """Take back the last answers entered by mistake. Never re-rolls dice nor reopens a revealed ballot."""
        self._need_game()
        if type(steps) is not int or steps < 1:
            raise TableError("table.undo_steps")
        if self.state.over:
            raise TableError("table.undo_over")
        if self._held is not None:  # a secret answer is in and its seat may still change it: undo waits
            raise TableError("table.undo_why.wait_reveal")
        if steps > len(self._undoable):
            raise TableError("table.undo_limit", count=len(self._undoable))
        self._record({"undo": steps})
        self._notify()

    def correct(self, changes: object) -> None:
        """The table corrects the board ({Edit id: value}: companion/correction.py): one event in the log, said in
        the narration, taken back by undo like a public answer. Refused (nothing changes) while a secret question
        is open with an answer cast in it (a correction waits for the reveal: it never shows nor changes a cast
        ballot; before the first answer, the question is asked of the corrected board) and once the game is over;
        IllegalAction for a fact or a value the game refuses."""
        self._need_game()
        if self._waits_for_cup():
            self._settle()
        why = self.correct_why
        if why is not None:
            raise TableError(why.key, **why.params)
        self._record({"correct": dict(changes) if isinstance(changes, dict) else changes})
        self._settle_or_wait()
        self._notify()

    @property
    def correct_why(self) -> Message | None:
        """Why the board cannot be corrected now (the game is over; a secret question has an answer cast), or None."""
        if self.state is None:
            return None
        if self.state.over:
            return Message("table.correct_over")
        if self._held is not None:
            return Message("table.correct_secret")
        asked = self.rules.prompt(self.state)
        if asked is not None and asked.secret and asked.id == self._secret_cast:
            return Message("table.correct_secret")
        return None

    def edits(self) -> list[dict]:
        """What the table may correct on the board now, as JSON (companion/board.py: Edit); none while it may not
        (`correct_why`)."""
        self._need_game()
        return [] if self.correct_why is not None else edits_json(self.rules, self.state)

    @property
    def undo_why(self) -> Message | None:
        """Why undo cannot take a step back now (None when it can, or before anything happened): the dice are
        rolled, the last answer was secret, the ballot was closed, the game is over; the board can be corrected
        instead."""
        if self.state is None or (self._undoable and self._held is None):
            return None
        if self.state.over:
            return Message("table.undo_over")
        if self._held is not None:
            return Message("table.undo_why.wait_reveal")
        last = next((event for event in reversed(self.events) if "undo" not in event), None)
        if last is None:
            return None if not self.events else Message("table.undo_why.taken_back")
        if "roll" in last:
            return Message("table.undo_why.rolled")
        if "pick" in last:
            return Message("table.undo_why.picked")
        if "answer" in last and "close" in last["answer"]:
            return Message("table.undo_why.closed")
        if "answer" in last and self.correct_why is not None:  # a secret answer cast in a question still open
            return Message("table.undo_why.wait_reveal")
        if "answer" in last:
            return Message("table.undo_why.secret")
        return Message("table.undo_why.taken_back")

    def roll(self) -> None:
        """Give the rules what they asked the cup for (dice or a random pick)."""
        request = self.rules.cup_request(self.state)
        if request is None:
            raise TableError("table.cup_idle")
        if request.kind == "roll":
            roll = self.cup.roll(request.count, request.visible_to)
            self._record({"roll": list(roll.dice), "nonce": roll.nonce, "commitment": roll.commitment,
                          "visible_to": list(roll.visible_to), "public": request.public})
        else:
            self._record({"pick": self.cup.pick(request.count)})

    def _waits_for_cup(self) -> bool:
        return self.roll_when_asked and not self.state.over and self.rules.cup_request(self.state) is not None

    def _settle(self) -> None:
        while self._waits_for_cup():
            self.roll()

    def _settle_or_wait(self) -> None:
        """Roll what the rules ask for; if storage fails the roll waits, and the table tries again by itself."""
        with contextlib.suppress(NotStored):
            self._settle()

    def _record(self, event: dict) -> None:
        """Check the event against the state, store it, then fold it in: stored before anyone is told."""
        after = self._folded(event)  # raises IllegalAction before anything is stored
        if self.store is not None:
            finish = (list(after.winners), after.round) if after.over else None
            self._store(self.store.append, self.game_id, event, finish)
        self.events.append(event)
        self._fold(event, after)

    def _record_answers(self, events: list[dict]) -> None:
        """The events of one answer: all stored in one transaction, or none (then nothing changes)."""
        states, state = [], self.state
        for event in events:
            state = self.rules.apply(state, event["answer"])
            states.append(state)
        if self.store is not None and events:
            finish = (list(state.winners), state.round) if state.over else None
            self._store(self.store.append_all, self.game_id, events, finish)
        for event, after in zip(events, states, strict=True):
            self.events.append(event)
            self._fold(event, after)

    # -- storage that fails -------------------------------------------------------------------------------

    def _store(self, write: Callable[..., Any], *args: Any) -> Any:
        """One write to the save file; NotStored (and a retry on the loop) if the storage takes none."""
        try:
            result = write(*args)
        except StorageError as error:
            self._storage_failed(error)
            raise NotStored(error) from None
        if self.storage_problem is not None:
            log.info("the save file takes writes again")
            self.storage_problem = None
            self._retry_delay = RETRY_DELAYS[0]
            if self._retry is not None:
                self._retry.cancel()
                self._retry = None
        return result

    def _storage_failed(self, error: StorageError) -> None:
        new = self.storage_problem is None
        self.storage_problem = Message("faults.storage.problem", {"reason": storage_reason(error).to_json()})
        if new:
            log.warning("%s; the table tries again by itself", error)
        if self.loop is not None and self._retry is None and not self.loop.is_closed():
            self._retry = self.loop.call_later(self._retry_delay, self._try_again)
            self._retry_delay = min(self._retry_delay * 2, RETRY_DELAYS[1])
        if new:
            self._notify()  # the screens say so

    def _try_again(self) -> None:
        """On the loop: the roll the game waits for, or a small write, until the save file takes it."""
        self._retry = None
        if self.store is None or self.storage_problem is None:
            return
        try:
            if self.state is not None and self._waits_for_cup():
                self._settle()
            elif self._held is not None and self._held_due:
                self.reveal_now()  # a grace that ended while the save file took no write
            else:
                self._store(self.store.probe)
        except NotStored:
            return  # _storage_failed has planned the next try
        except Exception:
            log.exception("trying the save file again failed")
            return
        if self._unsynced:
            self._start_sync()  # a sync that failed: what waits for it is tried again now
        self._notify()

    def close(self) -> None:
        """Stop trying the save file again and stop the grace's timer (the box is closing the save file; an answer
        held is folded at the next start)."""
        self._cancel_grace()
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None

    # -- folding the log ------------------------------------------------------------------------------------

    def _folded(self, event: dict) -> Any:
        if "undo" in event:
            return self._undoable[-event["undo"]]
        if "answer" in event:  # read back from a file that may have changed: checked once on the way in
            return self.rules.apply(self.state, self.rules.logged(self.state, event["answer"]))
        if "roll" in event:
            return self.rules.apply(self.state, {"roll": event["roll"]})
        if "pick" in event:
            return self.rules.apply(self.state, {"pick": event["pick"]})
        if "correct" in event:  # checked again on the way in, as an answer is
            return corrected(self.rules, self.state, event["correct"])
        raise IllegalAction("table.unknown_event", event=repr(event))

    def _fold(self, event: dict, after: Any = None) -> None:
        before = self.state
        asked = self.rules.prompt(before) if "answer" in event else None  # what the answer answered
        self._shared = None
        self.state = after if after is not None else self._folded(event)
        if "undo" in event:
            del self._undoable[-event["undo"]:]
            # What the undo took back is said until the next answer (a resumed table says it too).
            kept = len(self.rules.narration(self.state))
            self.undone = [entry for entry in self.rules.narration(before)[kept:] if not entry.seats]
        elif ("answer" in event and self._takes_back(asked, event["answer"])) or "correct" in event:
            self._undoable.append(before)
        else:
            self._undoable.clear()  # the cup rolled, or a secret answer: no undo past it
        if "answer" in event and asked is not None and asked.secret:
            self._secret_cast = asked.id  # a secret answer is cast in this question: no correction until it closes
        if "answer" in event or "correct" in event:
            if asked is not None and asked.title is not None:
                self._answered.append(asked.title)
            self.undone = []
            self._told_from = len(self.rules.narration(before))
        self._told_from = min(self._told_from, len(self.rules.narration(self.state)))
        if self.state.over:
            self._undoable.clear()  # the game is over and in the history
        if "roll" in event:
            public = event.get("public", True)
            roll = Roll(tuple(event["roll"]), event["nonce"], event["commitment"], tuple(event["visible_to"]))
            self.rolls.append(CupRoll(roll, public, revealed=public))
        # The rules reveal the dice of a round within it: once the table has left the round (the event that showed
        # them may have ended it too) or the game, its rolls are on the table for every phone's check.
        left_round = self.state.over or ("answer" in event and self.state.round != before.round)
        if any(not r.revealed for r in self.rolls) and (left_round or self.rules.dice_revealed(self.state)):
            for cup_roll in self.rolls:
                cup_roll.revealed = True

    @staticmethod
    def _takes_back(asked: Prompt | None, action: dict) -> bool:
        """A public answer (to `asked`) can be taken back; a secret one (a ballot, a secret destination) cannot."""
        if "close" in action:
            return False
        return asked is not None and not asked.secret

    # -- views ----------------------------------------------------------------------------------------------

    def view(self, seat: str | None = None) -> dict:
        """What `seat` may see (None: the public board). The only way state leaves the table.

        Beside the game's board: the prompt (and, for a seat, its own question), the narration on show (this
        round's and all since the last answer; a seat also gets the lines only it may read), what the last undo
        took back, and the cup's commitments.
        """
        self._need_game()
        state, rules = self.state, self.rules
        shared, shown = self._shared_view()
        out = rules.view(state, seat)
        out.update(shared)  # the same lists in every view of one moment: views are read, never changed
        if seat is not None:
            at_hand = self.rules_at_hand()
            question = self.question(seat)
            out["question"] = at_hand.tagged(question.to_json(), question.title) if question is not None else None
            if question is not None and self._held is not None and self._held.seat == seat:
                out["question"] = {**out["question"], "held": True}  # its answer is in, and may change in the grace
            mine = [entry for entry in shown if seat in entry.seats]
            out["narration_mine"] = [at_hand.tagged(entry.to_json(), entry.message) for entry in mine]
            more = [r for r in (at_hand.of(m) for m in [*(e.message for e in mine),
                                                           *([question.title] if question else [])])
                    if r is not None and r not in shared["rules"]]
            if more:  # the rules of this seat's own question and lines, beside the shared ones
                out["rules"] = {**shared["rules"], **at_hand.table(more)}
            # the seat's own secrets, beside the public board's parts (never inside them)
            out["secrets"] = [s.to_json() for s in rules.secrets(state, seat)]
        return out

    def _shared_view(self) -> tuple[dict, list[Line]]:
        """What every view of this moment holds whoever asks, and the narration on show: made once per change
        (a table with six phones asks for seven views of each)."""
        if self._shared is None:
            rules, state = self.rules, self.state
            prompt = rules.prompt(state)
            shown = self.shown_narration()
            at_hand = self.rules_at_hand()
            public = [entry for entry in shown if not entry.seats]
            asked = [prompt.title] if prompt is not None and prompt.title is not None else []
            shared = {  # contract.PublicView: the keys every screen reads, whatever the game
                "game": rules.NAME,
                "players": list(state.players),
                "names": dict(self.names),
                "round": state.round,
                "over": bool(state.over),
                "winners": list(state.winners),
                "scores": dict(rules.scores(state)),
                "prompt": at_hand.tagged(prompt.public_json(), prompt.title) if asked else
                (prompt.public_json() if prompt is not None else None),
                "narration": [at_hand.tagged(entry.to_json(), entry.message) for entry in public],
                "undone": [entry.to_json() for entry in self.undone],
                # The latest rolls with their commitments (this round's and the last reveal's), not the game's.
                "cup_rolls": [r.public_json() for r in self.rolls[-RECENT_ROLLS:]],
                "can_undo": self.can_undo,
                "undo_why": why.to_json() if (why := self.undo_why) is not None else None,
                # The words of the rules behind the lines and the question on show ("Why?"), by rule id.
                "rules": at_hand.table(r for r in (at_hand.of(m) for m in [*(e.message for e in public), *asked])
                                       if r is not None),
                "first": self._first_met(asked) if self.first_game_mode else [],
            }
            shared["parts"] = rules.parts(state).to_json()  # the board as data (companion/board.py)
            held = self._held
            if held is not None and shared["prompt"] is not None:  # the held seat has answered
                shared["prompt"] = {**shared["prompt"],
                                    "waiting": [s for s in shared["prompt"]["waiting"] if s != held.seat]}
            shared["revealing"] = self._revealing_shown(shared)
            self._shared = (shared, shown)
        return self._shared

    def _revealing_shown(self, board: dict) -> dict | None:
        """The grace as views carry it: the seconds left measured when the public board last changed, so that a
        change only its voter can see (his own ballot) makes every other view the same as before, byte for byte."""
        held = self._held
        if held is None:
            self._revealing = None
            return None
        last = self._revealing
        if last is not None and last[1]["question"] == held.question and last[0] == board:
            return last[1]
        revealing = self.revealing()
        self._revealing = (dict(board), revealing)
        return revealing

    def set_first_game_mode(self, on: bool) -> None:
        """First-game mode on or off: from now on each view names (or not) the rules met for the first time."""
        self.first_game_mode = bool(on)
        self._shared = None
        if self.state is not None:
            self._notify()

    def rules_at_hand(self) -> Rules:
        """The game's rule book with the table options it is played with, read against the catalogue."""
        if self._rules_at_hand is None:
            from companion.catalogue import catalogue  # the words: only once a view is made

            self._rules_at_hand = Rules(self.rules.RULES, self.rules.table_options(self.state), catalogue().has)
        return self._rules_at_hand

    def _first_met(self, asked: list[Message]) -> list[str]:
        """The rules this moment (the lines since the last answer and the question asked) meets for the first
        time in this game: first-game mode explains them before the table goes on."""
        lines = [entry for entry in self.narration() if not entry.seats]
        told = len([e for e in self.rules.narration(self.state)[:self._told_from] if not e.seats])
        return first_met(self.rules.RULES, [*(e.message for e in lines[:told]), *self._answered],
                         [*(e.message for e in lines[told:]), *asked])

    def question(self, seat: str):
        """What `seat` is asked now, or None. The held seat's question is answered (changeable in the grace)."""
        self._need_game()
        asked = None if self.state.over else self.rules.question(self.state, seat)
        if asked is not None and self._held is not None and self._held.seat == seat and not asked.answered:
            asked = replace(asked, answered=True)
        return asked

    def shown_narration(self) -> list[Line]:
        """The lines a screen shows now: this round's, and everything since the last answer (so the end of a
        round that moved on by itself, its last deaths and zombies, stays on show until the next answer)."""
        lines = self.narration()
        start = next((i for i, entry in enumerate(lines) if entry.round == self.state.round), len(lines))
        return lines[min(start, self._told_from):]

    def narration(self) -> list[Line]:
        """The whole game's narration so far, oldest first (secret lines included: filter by `seats`)."""
        if self.state is None:
            return []
        return list(self.rules.narration(self.state))

    def record(self) -> dict:
        """The table's own full record (replay's JSON; contract.Record): the keys every game's record has, and
        the game's own state beside them. Never shown to players as it is."""
        self._need_game()
        return record_of(self.rules, self.state)

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback` after every stored change; returns a function that unsubscribes."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback)

    # -- on disk before anyone is told ------------------------------------------------------------------

    @property
    def on_disk(self) -> bool:
        """Every change the table shows is on disk (always, without a group-commit store)."""
        store = self.store
        return store is None or not store.group_commit or self._synced_writes >= store.writes

    def when_stored(self, callback: Callable[[], None]) -> None:
        """Call `callback` once every write made so far is on disk: at once if it is. With a group-commit store
        the writes are synced on a thread of their own; all that are waiting share the next sync."""
        if self.on_disk:
            callback()
            return
        if self.loop is None or self.loop.is_closed():  # no loop to wait on: sync here
            self._sync_here()
            callback()
            return
        self._unsynced.append((self.store.writes, callback))
        self._start_sync()

    async def stored(self) -> None:
        """Wait until every change of the table is on disk (before a board is sent from it)."""
        while not self.on_disk:  # what was written while waiting is waited for too
            done = asyncio.get_running_loop().create_future()
            self.when_stored(lambda done=done: done.done() or done.set_result(None))
            await done

    def _sync_here(self) -> None:
        try:
            self.store.sync()
        except StorageError as error:
            raise NotStored(error) from None
        self._synced_writes = self.store.synced

    def _start_sync(self) -> None:
        if self._syncing:
            return  # the writes since it started wait for the next one
        self._syncing = True
        self.loop.run_in_executor(None, self.store.sync).add_done_callback(self._synced)

    def _synced(self, done: asyncio.Future) -> None:
        self._syncing = False
        error = done.exception()
        if error is not None:  # the disk failed: nothing more is told until a sync succeeds (tried again)
            log.error("the save file could not be synced: %s", error)
            self._storage_failed(error if isinstance(error, StorageError)
                                 else StorageError(self.store.path, "io", str(error) or type(error).__name__))
            return
        synced = self._synced_writes = self.store.synced
        ready = [callback for writes, callback in self._unsynced if writes <= synced]
        self._unsynced = [(writes, callback) for writes, callback in self._unsynced if writes > synced]
        for callback in ready:
            try:
                callback()
            except Exception:
                log.exception("a callback waiting for the disk failed")
        if self._unsynced:
            self._start_sync()

    def _notify(self) -> None:
        for callback in list(self._subscribers):
            try:
                callback()
            except Exception:  # one broken screen must not keep the others (or the table) from going on
                log.exception("a table subscriber failed")

    def _need_game(self) -> None:
        if self.state is None:
            raise TableError("table.no_game")

    # -- devices on other threads ---------------------------------------------------------------------------

    def answer_threadsafe(self, action: object, done: Callable[[Refusal | None], None] | None = None,
                          taken: Callable[[Refusal | None], None] | None = None, question: str | None = None,
                          source: dict | None = None, still: Callable[[], bool] | None = None) -> None:
        """From a device thread: hand the answer to the table's loop; `done(error or None)` runs on the loop, once
        the answer is on disk; `taken(error or None)` runs on the loop as soon as the table has taken or refused it
        (the table has moved on: a device may send its next answer before the disk has caught up). `question`
        and `source` as for `answer`: a press read on the device's thread answers the question asked then;
        `still()`, asked on the loop first, says whether what the device showed is still what is asked (False:
        refused as stale, as for a question that closed)."""
        if self.loop is None:
            raise TableError("table.no_loop")
        self.loop.call_soon_threadsafe(self._device_answer, action, done, taken, question, source, still)

    def _device_answer(self, action: object, done: Callable[[Refusal | None], None] | None,
                       taken: Callable[[Refusal | None], None] | None = None, question: str | None = None,
                       source: dict | None = None, still: Callable[[], bool] | None = None) -> None:
        """Whatever happens, the device hears back: a device left waiting would stay locked."""
        outcome: Refusal | None = None
        try:
            if still is not None and not still():
                raise StaleQuestion()
            self.answer(action, question, source)
        except Refusal as refused:
            outcome = refused
        except Exception as error:  # storage failed, or a bug: the answer is not stored, and the device is told
            log.exception("an answer from a device failed")
            outcome = TableError("table.not_stored", detail=str(error) or type(error).__name__)
        if taken:
            taken(outcome)
        if done and outcome is None:
            self.when_stored(lambda: done(None))  # acknowledged once it is on disk
        elif done:
            done(outcome)
