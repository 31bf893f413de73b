"""The game contract: all that the Table, the phone server, the pads and the touchscreen know of any game.

It lives outside `companion/games/`, so the catalogue, the table and every device import it without loading a
game. A game is one package under `companion/games/` that satisfies `Game` (module-level names and functions) plus
one line in the registry (`companion/games/__init__.py`). Its words live in its own catalogue folder
(`locale/<language>/*.po`), keyed by message keys; nothing here holds a sentence.

Everything a device shows comes from three things the rules describe themselves:
- a `Prompt`: who is asked now, and a `Question` per seat: a kind from the closed set below, a title and
  labelled choices, each with a pad slot where one is natural;
- the narration: `Line`s of what happened, and what the table must do with the physical pieces;
- the view: the game's board as plain data; and its board as parts (companion/board.py), drawn by one renderer
  per part on every screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol, TypedDict

from companion import snapshot

# The closed set of question kinds; every device renders each of them without knowing the game.
PICK = "pick"  # choose one of the choices (a secret pick when the question is secret)
BALLOT = "ballot"  # a weighted secret vote among candidates; revealed when everyone has voted
CARDS = "cards"  # a card window: pass, or play one of the cards (folded behind "Play a card…")
NUMBER = "number"  # a whole number between `low` and `high`, put in the action's `field`
ASSIGN = "assign"  # each item to one target, put in the action's `field` as {item: target}
KINDS = (PICK, BALLOT, CARDS, NUMBER, ASSIGN)


@dataclass(frozen=True)
class Message:
    """A sentence for a player: a catalogue key and its parameters (rendered in each reader's language)."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"key": self.key, "params": {name: _json(value) for name, value in self.params.items()}}


def _json(value: Any) -> Any:
    """A parameter as JSON: a nested message (a phase's name inside "Round 2 · {phase}") as its own JSON."""
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value


def msg(key: str, **params: Any) -> Message:
    return Message(key, params)


class Refusal(ValueError):
    """Something refused, said to whoever asked: a catalogue key (the code) and its parameters.

    `str()` is the English sentence (for logs and the command line); devices render `code` and `params` in
    the reader's own language.
    """

    def __init__(self, code: str, **params: Any):
        super().__init__(code)
        self.code = code
        self.params = params

    @property
    def message(self) -> Message:
        return Message(self.code, self.params)

    def text(self, lang: str = "en") -> str:
        from companion.catalogue import catalogue  # the catalogue reads files: only when a refusal is told

        return catalogue().text(self.message, lang)

    def __str__(self) -> str:
        return self.text("en")


class IllegalAction(Refusal):
    """An answer or a setup the rules refuse (the game's catalogue says why, in the player's terms)."""


@dataclass(frozen=True)
class Line:
    """One line of the narration.

    `act`: the line asks the table to do something with the physical pieces (put a zombie, remove a figure).
    `seats`: empty for a public line; otherwise only these seats may read it (a peek at secret dice), until a
    public line tells everyone at the reveal.
    """

    message: Message
    round: int
    act: bool = False
    seats: tuple[str, ...] = ()

    def to_json(self) -> dict:
        params = dict(self.message.params)
        for name, value in params.items():
            if type(value) is Message:  # a message of its own ("Corrected: {what} ..."), as its JSON
                params[name] = value.to_json()
        out = {"key": self.message.key, "params": params, "round": self.round}
        if self.act:
            out["act"] = True
        return out


_new = object.__new__


def line(round_: int, key: str, act: bool = False, seats: Sequence[str] = (), **params: Any) -> Line:
    """A line of the narration: equal to `Line(Message(key, params), round_, act, tuple(seats))`, made without the
    dataclasses' __init__ (a game says hundreds of lines, and `Narrated.say` makes each with this)."""
    message = _new(Message)
    fields = message.__dict__
    fields["key"] = key
    fields["params"] = params
    made = _new(Line)
    fields = made.__dict__
    fields["message"] = message
    fields["round"] = round_
    fields["act"] = act
    fields["seats"] = seats if type(seats) is tuple else tuple(seats)
    return made


class Narrated:
    """What a game's state inherits to tell its narration: `say` adds one line, in the state's round.

    The state is a frozen dataclass with `round` and `narration` (its Lines, oldest first). `evolve` is
    `dataclasses.replace`; a state that makes thousands per game may give a faster one of its own.
    """

    __slots__ = ()
    round: int
    narration: tuple[Line, ...]

    def evolve(self, **changes: Any) -> Any:
        return replace(self, **changes)

    def say(self, key: str, act: bool = False, seats: Sequence[str] = (), **params: Any) -> Any:
        """This state with one more line of the narration (`act`: the table does something to the pieces)."""
        return self.evolve(narration=self.narration + (line(self.round, key, act, seats, **params),))


@dataclass(frozen=True)
class Choice:
    """One answer a device can give: the complete action, its label, its pad button, its group.

    `group` "card": the choice plays a card and is folded behind "Play a card…" on a screen.
    `confirm`: the choice changes the game for good (a player dies, a phase ends): a screen asks for a second tap.
    """

    action: Mapping[str, Any]
    label: Message
    slot: int | None = None  # the pad button (1..6) behind this choice, where one is natural
    group: str | None = None
    note: Message | None = None  # one line more: what a card does, where a move ends, ...
    confirm: bool = False

    def to_json(self) -> dict:
        out: dict = {"action": dict(self.action), "label": self.label.to_json()}
        if self.slot is not None:
            out["slot"] = self.slot
        if self.group is not None:
            out["group"] = self.group
        if self.note is not None:
            out["note"] = self.note.to_json()
        if self.confirm:
            out["confirm"] = True
        return out


@dataclass(frozen=True)
class Item:
    """A labelled value: an item or a target of an assignment."""

    value: str
    label: Message

    def to_json(self) -> dict:
        return {"value": self.value, "label": self.label.to_json()}


@dataclass(frozen=True)
class Question:
    """What one seat is asked now, as every device shows it.

    PICK, BALLOT, CARDS: the answer is one of `choices`, sent as its action (the prompt's legal answers, labelled).
    NUMBER: the answer is `answer` with `field` set to a whole number from `low` to `high`.
    ASSIGN: the answer is `answer` with `field` set to {item value: target value} for every item; when `answer`
    already holds `field`, that assignment is the rules' proposal, and a screen may start from it.
    """

    id: str
    seat: str
    kind: str
    step: str
    title: Message
    secret: bool = False
    choices: tuple[Choice, ...] = ()
    answer: Mapping[str, Any] = field(default_factory=dict)
    field: str | None = None
    low: int | None = None
    high: int | None = None
    items: tuple[Item, ...] = ()
    targets: tuple[Item, ...] = ()
    facts: tuple[Message, ...] = ()  # what the decision needs to know, beside the question
    answered: bool = False  # a secret answer is in; it may still be changed until the reveal

    def to_json(self) -> dict:
        out: dict = {"id": self.id, "seat": self.seat, "kind": self.kind, "step": self.step,
                     "title": self.title.to_json(), "secret": self.secret,
                     "choices": [c.to_json() for c in self.choices], "answered": self.answered}
        if self.kind in (NUMBER, ASSIGN):
            out["answer"] = dict(self.answer)
            out["field"] = self.field
        if self.kind == NUMBER:
            out["low"], out["high"] = self.low, self.high
        if self.kind == ASSIGN:
            out["items"] = [i.to_json() for i in self.items]
            out["targets"] = [t.to_json() for t in self.targets]
        if self.facts:
            out["facts"] = [f.to_json() for f in self.facts]
        return out

    def choice_for(self, slot: int) -> Choice | None:
        """The choice behind pad button `slot` (the first listed one when several share it)."""
        return next((c for c in self.choices if c.slot == slot), None)


@dataclass(frozen=True)
class Prompt:
    """What the rules wait for from players: who is asked, what kind of answer, the legal answers.

    `options` maps each seat asked to its legal answers, each written as a complete action: the one place a game
    writes them. A seat's PICK, BALLOT or CARDS question labels exactly these, in this order (its choices are
    made from them, never worked out again). A NUMBER or an ASSIGN question states its range itself (low and high,
    items and targets): its seat's options are empty. `key` names where the game stands in its questions; `step`
    names the step for devices (a game's own word, shown only through the catalogue).
    """

    kind: str
    options: Mapping[str, list[dict]]
    secret: bool = False  # answers stay hidden until everyone asked has answered
    key: tuple = ()
    step: str = ""
    title: Message | None = None  # the question as the table screen says it ("Vote: the victim at 4 Parking")

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(self.options)

    @property
    def id(self) -> str:
        """Names this question: the same while it stays open, new once it is answered or closed."""
        return "-".join(str(part) for part in self.key)

    def public_json(self) -> dict:
        out = {"id": self.id, "kind": self.kind, "step": self.step, "waiting": list(self.seats),
               "secret": self.secret}
        if self.title is not None:
            out["title"] = self.title.to_json()
        return out


@dataclass(frozen=True)
class CupRequest:
    """Randomness the rules need from the table's cup.

    kind "roll": `count` dice, seen only by `visible_to` until revealed (public when `public`).
    kind "pick": a uniform random index in range(count), for a random choice between tied candidates.
    """

    kind: str
    count: int
    public: bool = True
    visible_to: tuple[str, ...] = ()


# -- the new-game form ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableOption:
    """A choice the group makes before the game: its values (each with a label) and the default."""

    name: str
    label: Message
    choices: tuple[Item, ...]
    default: Any

    def to_json(self) -> dict:
        return {"name": self.name, "label": self.label.to_json(), "default": self.default,
                "choices": [{"value": _option_value(c.value), "label": c.label.to_json()} for c in self.choices]}


def _option_value(value: str) -> Any:
    return {"true": True, "false": False}.get(value, value)


@dataclass(frozen=True)
class Setup:
    """The new-game form of a game: its title, player counts, seat colours in seating order, options."""

    title: Message
    min_players: int
    max_players: int
    colours: tuple[str, ...]
    options: tuple[TableOption, ...] = ()
    note: Message | None = None  # a seating rule worth saying on the form ("3 players: red, yellow, blue")

    def to_json(self, name: str) -> dict:
        out = {"game": name, "title": self.title.to_json(), "min_players": self.min_players,
               "max_players": self.max_players, "colours": list(self.colours),
               "options": [o.to_json() for o in self.options]}
        if self.note is not None:
            out["note"] = self.note.to_json()
        return out


# -- the rule at hand -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RuleBook:
    """A game's rules as data, told at the moment each applies (companion/rulebook.py reads it; no device does).

    `phases`: the rules in the order of play, each phase with its rules' ids. `about`: which rule is behind a
    question's title or a narration line, by message key or a key's prefix ("mall.n.breach" for
    "mall.n.breach.defence"; the longest prefix wins); every question title (`<family>.q.*`) and every narration
    key (`<family>.n.*`) of the game has one. `options`: the table options that change a rule.

    Its words are in the game's catalogue, in the four languages:
    - `<family>.rules.phase.<phase>`: a phase's heading;
    - `<family>.rules.<rule>.title` and `<family>.rules.<rule>`: a rule's name and the rule itself, in two or three
      short sentences (no placeholders: the whole book is printed without a moment);
    - `<family>.rules.<rule>.now` (where it helps): the moment's facts, from the parameters of every message the rule
      is behind ("It has {count}.");
    - `<family>.rules.option.<option>.<value>`: a table option's value that changes a rule ("Your table plays: …").
    """

    family: str  # the first word of the game's message keys ("mall")
    phases: tuple[tuple[str, tuple[str, ...]], ...]
    about: Mapping[str, str]
    options: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(rule for _, rules in self.phases for rule in rules)

    def rule_of(self, key: str) -> str | None:
        """The rule behind a message key: its own entry, else its longest prefix's, else None."""
        while key:
            rule = self.about.get(key)
            if rule is not None:
                return rule
            key = key.rpartition(".")[0]
        return None


# -- the interface ----------------------------------------------------------------------------------------------


class GameState(Protocol):
    """What the Table reads of any game's state."""

    players: tuple[str, ...]
    round: int

    @property
    def over(self) -> bool: ...

    winners: tuple[str, ...]


# The sounds a screen may play, a closed set like the question kinds. A game may name, in an optional module-level
# `SOUNDS: Mapping[str, str]`, the narration keys (or a key's family: "mall.n.breach" for "mall.n.breach.defence")
# whose public lines make one of them heard; a game without SOUNDS is silent.
SOUND_NAMES = ("dice", "breach", "reveal")


class Game(Protocol):
    """A game's rules, pure: no I/O, no randomness (dice and picks come in as events from the table's cup).
    Optional: `SOUNDS` (see SOUND_NAMES)."""

    NAME: str  # the registry's name, e.g. "mall-of-horror"
    SETUP: Setup
    LOCALE: Path  # the game's catalogue folder: LOCALE/<language>/*.po
    TERMS: Mapping[str, str]  # parameter name -> catalogue key prefix ("location" -> "mall.location")
    RULES: RuleBook  # its rules as data: which rule is behind each question and line, by phase (the rule at hand)
    STATS: Sequence[str]  # what its statistics count beyond scores and wins, by the catalogue keys of their labels

    def start(self, players: object, options: object = None, position: object = None) -> Any:
        """A new game, or one from a position; IllegalAction if the setup is not valid."""

    def decide(self, state: Any, action: object) -> list[dict]:
        """The events an answer produces once the rules accept it; IllegalAction (code + params) if not."""

    def apply(self, state: Any, event: dict) -> Any:
        """The state after one event: an answer as `decide` returned it, or the cup's {"roll": dice} or {"pick":
        index}. It trusts the event (decide checked it; the log holds only what was decided) and checks nothing
        again: an answer from anywhere else goes through `decide` first."""

    def logged(self, state: Any, answer: object) -> dict:
        """An answer read back from a save file, where it was stored as `decide` returned it: the event `apply`
        takes, once checked; IllegalAction if this game never accepted it here (the file may have changed). An
        answer an earlier version decided and this one no longer asks (a retired line) is accepted as stored."""

    def prompt(self, state: Any) -> Prompt | None:
        """What the state waits for from players; None when it waits for the cup or is over."""

    def question(self, state: Any, seat: str) -> Question | None:
        """What `seat` is asked now (also a voter who may still change his ballot), or None."""

    def cup_request(self, state: Any) -> CupRequest | None:
        """What the state waits for from the cup, or None."""

    def dice_revealed(self, state: Any) -> bool:
        """The secret dice of this round are on the table: every roll's nonce may be published."""

    def narration(self, state: Any) -> Sequence[Line]:
        """The whole game's narration so far, oldest first."""

    def view(self, state: Any, seat: str | None = None) -> dict:
        """What `seat` may see (None: the public board). Never a secret of another seat."""

    def record(self, state: Any) -> dict:
        """The game's own state for the table's record (replay's JSON), beside the common keys of `Record`:
        the table fills those in, so a game never writes them (its `view` keys may be in it)."""

    def table_options(self, state: Any) -> dict:
        """The table options this game is played with, every one resolved (the defaults included), by the
        names of SETUP's options: what a new game started with them would play."""

    def scores(self, state: Any) -> Mapping[str, int]:
        """Each seat's points where the game counts points (so far, or at the end); {} where it counts none."""

    def statistics(self, state: Any) -> Mapping[str, Mapping[str, int]]:
        """What this game makes worth counting across evenings, for a game (finished, read from its whole state and
        narration): each seat's figures by STATS key ({"red": {"mall.stat.rounds_chief": 2, ...}}), every key for
        every seat, 0 included. companion/stats.py sums them per person."""

    def parts(self, state: Any) -> Any:
        """The board as data (companion/board.py: a Board), public: what every screen draws with its parts."""

    def secrets(self, state: Any, seat: str) -> Sequence[Any]:
        """What `seat` alone may look at (Secret parts), beside the public board in its own view."""

    def edits(self, state: Any) -> Sequence[Any]:
        """What the table may correct on the board now (companion/board.py: Edit), each with its value now: the
        public facts only (never a cast ballot, an unrevealed roll or a seat's hidden choice)."""

    def correct(self, state: Any, changes: Mapping[str, Any]) -> Any:
        """The state with these facts of the board so ({Edit id: value}, each a value its Edit allows: checked
        before, by companion/correction.py, which also says each change in the narration of the state it hands over:
        keep its narration). IllegalAction in one
        line naming what is impossible (over capacity, a figure in two places, more pieces than the box has)."""


# -- what the screens read, and the record ---------------------------------------------------------------------


class PublicView(TypedDict):
    """The keys of every view the Table gives (`Table.view(None)`), whatever the game: all that a screen reads.

    A seat's view has these and `question`, `narration_mine` and `secrets`; the game's own keys sit beside them
    (a renderer never reads those: it draws `parts`).
    """

    game: str  # the registry's name
    players: list[str]  # the seats, in seating order
    names: dict[str, str]  # the people's names by seat, where given (companion/names.py): text, never markup
    round: int
    over: bool
    winners: list[str]
    scores: dict[str, int]  # each seat's points where the game counts points, else {}
    prompt: dict | None  # Prompt.public_json(): id, kind, step, waiting, secret, title
    narration: list[dict]  # the public lines on show (Line.to_json())
    undone: list[dict]  # the lines the last undo took back
    cup_rolls: list[dict]  # the latest rolls with their commitments
    can_undo: int  # how many answers undo may take back
    undo_why: dict | None  # why undo cannot take a step back now (Message JSON): the board can be corrected instead
    parts: dict  # the board as data: {"main": [...], "revealed": [...], "over": [...]} (companion/board.py)
    # The rule at hand: a line, the prompt and a seat's question carry the id of the rule behind them ("rule") and,
    # where it helps, the moment's facts ("now"); `rules` holds those rules' words by id (title, text, and the
    # options in force that change them); `first` the rules this moment meets for the first time, in first-game
    # mode (companion/rulebook.py).
    rules: dict[str, dict]
    first: list[str]
    # The grace before a reveal: while the last answer of a secret question waits (companion/table.py), the
    # question's id, the grace and the seconds left when the board last changed; else None.
    revealing: dict | None


PUBLIC_VIEW_KEYS = frozenset(PublicView.__annotations__)
SEAT_VIEW_KEYS = PUBLIC_VIEW_KEYS | {"question", "narration_mine", "secrets"}


class Record(TypedDict):
    """The keys of every game's record (`Table.record()`, what `companion replay` and `resume` print); the
    game's own state (`Game.record`) sits beside them."""

    game: str
    players: list[str]
    table_options: dict  # Game.table_options: each option resolved, by SETUP's names
    waiting: list[str]  # the seats asked now
    prompt: dict | None  # Prompt.public_json()
    options: dict[str, list[dict]]  # each waiting seat's legal answers, as complete actions ([] for a number or an
    # assignment, whose question states its range)
    narration: list[dict]  # the whole game's public narration
    over: bool
    winners: list[str]
    scores: dict[str, int]
    state: dict  # the whole state, exactly (companion/snapshot.py): fed back as a position, the game goes on from
    # this very moment (companion/position.py)


RECORD_KEYS = frozenset(Record.__annotations__)


def record_of(game: Game, state: Any) -> dict:
    """The record of a state of `game`: the keys of `Record`, with the game's own state (`Game.record`) beside."""
    current = game.prompt(state)
    common = {
        "game": game.NAME,
        "players": list(state.players),
        "table_options": dict(game.table_options(state)),
        "waiting": list(current.seats) if current else [],
        "prompt": current.public_json() if current else None,
        "options": {seat: list(actions) for seat, actions in current.options.items()} if current else {},
        "narration": [entry.to_json() for entry in game.narration(state) if not entry.seats],
        "over": bool(state.over),
        "winners": list(state.winners),
        "scores": dict(game.scores(state)),
        "state": snapshot.encode(state),
    }
    return {**game.record(state), **common}


__all__ = ["ASSIGN", "BALLOT", "CARDS", "KINDS", "NUMBER", "PICK", "PUBLIC_VIEW_KEYS", "RECORD_KEYS",
           "SEAT_VIEW_KEYS", "SOUND_NAMES", "PublicView", "Record", "Choice", "CupRequest", "Game",
           "GameState", "IllegalAction", "Item", "Line", "Message", "Prompt", "Question", "Refusal", "Setup",
           "TableOption", "line", "msg", "record_of"]
