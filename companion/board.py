"""Boards as data: what the table sees, in a small closed vocabulary of parts that every screen draws.

A game describes its board with `parts(state) -> Board` and `secrets(state, seat) -> tuple[Secret, ...]`; the
touchscreen (companion/ui/parts.py) and the page (companion/web/static/parts.js) each have one renderer per part and
none per game. Every text is a catalogue
message (or a number or a seat's colour), so a board reads in every language. A rule fact (a capacity, a score
table) is said by the game in the parts it fills, never known by a renderer.

The parts: `Heading`, `Lines`, `Focus`, `Zones` (of `Zone`s holding `Token`s), `Grid` (of `Cell`s), `Cards` (of
`Card`s), `Seats` (of `SeatPanel`s), `Scores` (of `ScoreRow`s), `Ballot` and `Secret`.

A `Board` has three places, as every screen shows them, and a seat has its secrets:
- `main`: the board at a glance;
- `revealed`: what was just shown to everyone (a revealed ballot), while it is current;
- `secrets`: what one seat alone may look at, each behind a cover: from `secrets(state, seat)`, sent in that seat's
  view beside the public board (`view["secrets"]`), never in the board every view shares;
- `over`: the end: the scores and who won.

Text, inside parts, is a tuple of bits: a `Message` (plain words), `Label` (words that name what follows), `Chip` (a
seat: its colour, symbol and name), `Dice` (dice faces), `Pips` (done of most, as ●●○) and a plain number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.contract import Message, msg

# -- bits of text ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Label:
    """Words that name what follows them on a line ("Hands:"), drawn quieter."""

    message: Message


@dataclass(frozen=True)
class Chip:
    """A seat, drawn in its colour with its symbol and its colour's name."""

    seat: str


@dataclass(frozen=True)
class Dice:
    values: tuple[int, ...]


@dataclass(frozen=True)
class Pips:
    """`done` of `most` (a turn's actions): ●●○."""

    done: int
    most: int


Bit = Message | Label | Chip | Dice | Pips | int  # an int: a number, the same in every language
Text = tuple[Bit, ...]


SEP = Message("board.sep")  # a dot between two facts on one line
ARROW = Message("board.arrow")  # then: one seat after another


def text(*bits: Bit | str) -> Text:
    """A line of bits; a plain string is a catalogue key with no parameters."""
    return tuple(msg(b) if isinstance(b, str) else b for b in bits)


def bit_json(bit: Bit) -> dict:
    if isinstance(bit, int):
        return {"n": bit}
    if isinstance(bit, Message):
        return {"t": bit.to_json()}
    if isinstance(bit, Label):
        return {"label": bit.message.to_json()}
    if isinstance(bit, Chip):
        return {"chip": bit.seat}
    if isinstance(bit, Dice):
        return {"dice": list(bit.values)}
    return {"pips": [bit.done, bit.most]}


def text_json(line: Text) -> list[dict]:
    return [bit_json(b) for b in line]


# -- the parts ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Heading:
    """The board's top line (the round and the phase), with short texts at its side (the Chief's badge, the
    counts of the decks)."""

    line: Text
    side: tuple[Text, ...] = ()

    def to_json(self) -> dict:
        return {"part": "heading", "line": text_json(self.line), "side": [text_json(t) for t in self.side]}


@dataclass(frozen=True)
class Lines:
    """Lines of facts. `tone`: "plain", "hint" (quieter: a legend), "warning" or "act" (what lies on the table);
    `title`, over them where they stand alone (what was just revealed)."""

    lines: tuple[Text, ...]
    tone: str = "plain"
    title: Message | None = None

    def to_json(self) -> dict:
        out = {"part": "lines", "tone": self.tone, "lines": [text_json(line) for line in self.lines]}
        if self.title is not None:
            out["title"] = self.title.to_json()
        return out


@dataclass(frozen=True)
class Focus:
    """What the table looks at now, big in the middle of the board: the first line large (whose turn it is),
    its pips drawn big, the others under it."""

    lines: tuple[Text, ...]

    def to_json(self) -> dict:
        return {"part": "focus", "lines": [text_json(line) for line in self.lines]}


@dataclass(frozen=True)
class Token:
    """A figure in a zone: in its seat's colour, `mark` printed on it (its points), named by `name`.
    `faded`: hidden from the others (drawn faded); `note` says so in words."""

    seat: str
    mark: str
    name: Message
    faded: bool = False
    note: Message | None = None

    def to_json(self) -> dict:
        out: dict = {"seat": self.seat, "mark": self.mark, "name": self.name.to_json()}
        if self.faded:
            out["faded"] = True
        if self.note is not None:
            out["note"] = self.note.to_json()
        return out


@dataclass(frozen=True)
class Zone:
    """A place on the board: a number and a name, a big count (zombies), a line under it (the capacity), its
    tokens, the seats arriving (marks), and its state: `closed`, `ring` ("danger": attacked, "act": voting)."""

    id: str
    name: Message
    number: str = ""
    count: int | None = None
    count_label: Message | None = None  # the count in words, as the page says it ("3 zombies")
    count_word: Message | None = None  # the word under the big number on the touchscreen ("zombies")
    detail: Text = ()
    tokens: tuple[Token, ...] = ()
    arriving: tuple[str, ...] = ()
    closed: bool = False
    ring: str | None = None
    note: Text = ()  # one more line for the page ("under attack")
    empty: Message | None = None  # said where no token stands ("nobody")

    def to_json(self) -> dict:
        out: dict = {"id": self.id, "name": self.name.to_json(), "number": self.number, "count": self.count,
                     "detail": text_json(self.detail), "tokens": [t.to_json() for t in self.tokens],
                     "arriving": list(self.arriving), "closed": self.closed, "ring": self.ring,
                     "note": text_json(self.note)}
        if self.count_label is not None:
            out["count_label"] = self.count_label.to_json()
        if self.count_word is not None:
            out["count_word"] = self.count_word.to_json()
        if self.empty is not None:
            out["empty"] = self.empty.to_json()
        return out


@dataclass(frozen=True)
class Zones:
    zones: tuple[Zone, ...]
    columns: int = 3  # on a wide screen; a phone stacks them as it must

    def to_json(self) -> dict:
        return {"part": "zones", "columns": self.columns, "zones": [z.to_json() for z in self.zones]}


@dataclass(frozen=True)
class Cell:
    """A cell of a grid: its label, face up or down, a count (zombie tokens), what lies there (`lying`, short
    symbols), the seats standing there, the seats whose target it is (outlined in their colours), and whether it is
    lit."""

    id: str
    label: str
    up: bool = False
    count: int | None = None
    lying: Text = ()
    seats: tuple[str, ...] = ()
    outline: tuple[str, ...] = ()
    lit: bool = False

    def to_json(self) -> dict:
        return {"id": self.id, "label": self.label, "up": self.up, "count": self.count, "lying": text_json(self.lying),
                "seats": list(self.seats), "outline": list(self.outline), "lit": self.lit}


@dataclass(frozen=True)
class Grid:
    width: int
    cells: tuple[Cell, ...]
    label: Message | None = None  # what the grid is, for a screen reader ("the city")
    legend: Message | None = None

    def to_json(self) -> dict:
        out: dict = {"part": "grid", "width": self.width, "cells": [c.to_json() for c in self.cells]}
        if self.label is not None:
            out["label"] = self.label.to_json()
        if self.legend is not None:
            out["legend"] = self.legend.to_json()
        return out


@dataclass(frozen=True)
class Card:
    """A card on the table: a big value, a small line under it, and who put it there (`by`)."""

    big: str
    small: Text = ()
    by: str | None = None
    title: Message | None = None  # what the big value is, for a screen reader

    def to_json(self) -> dict:
        out: dict = {"big": self.big, "small": text_json(self.small), "by": self.by}
        if self.title is not None:
            out["title"] = self.title.to_json()
        return out


@dataclass(frozen=True)
class Cards:
    """A row of cards (the field's zombies) under a title, with a line under them (their sums)."""

    title: Message
    cards: tuple[Card, ...]
    footer: Text = ()

    def to_json(self) -> dict:
        return {"part": "cards", "title": self.title.to_json(), "cards": [c.to_json() for c in self.cards],
                "footer": text_json(self.footer)}


@dataclass(frozen=True)
class SeatPanel:
    """A seat's lines; `lit`: the seat whose turn it is (or who is awaited); `tone`: "winner", "good" (done),
    "act", "out", "other" (a zombie player), "danger" (nearly dead) or None. `answer`: a screen shared by the table
    offers a button with these words that answers this seat's question there (a sheet handed in, corrected)."""

    seat: str
    lines: tuple[Text, ...] = ()
    lit: bool = False
    tone: str | None = None
    answer: Message | None = None

    def to_json(self) -> dict:
        out = {"seat": self.seat, "lines": [text_json(line) for line in self.lines], "lit": self.lit,
               "tone": self.tone}
        if self.answer is not None:
            out["answer"] = self.answer.to_json()
        return out


@dataclass(frozen=True)
class Seats:
    """The seats side by side, each a panel; `rows`: a row each instead, for one long line per seat."""

    seats: tuple[SeatPanel, ...]
    rows: bool = False

    def to_json(self) -> dict:
        return {"part": "seats", "rows": self.rows, "seats": [s.to_json() for s in self.seats]}


@dataclass(frozen=True)
class ScoreRow:
    seat: str
    cells: tuple[Text, ...]
    winner: bool = False

    def to_json(self) -> dict:
        return {"seat": self.seat, "cells": [text_json(c) for c in self.cells], "winner": self.winner}


@dataclass(frozen=True)
class Scores:
    """The end's table: a row per seat, best first, the winners marked; `columns` head the cells. A row's last cell
    is its total or its result: where a screen has room for one cell (the touchscreen's end), it shows that one."""

    title: Message
    columns: tuple[Message, ...]
    rows: tuple[ScoreRow, ...]
    footer: Text = ()

    def to_json(self) -> dict:
        return {"part": "scores", "title": self.title.to_json(), "columns": [c.to_json() for c in self.columns],
                "rows": [r.to_json() for r in self.rows], "footer": text_json(self.footer)}


@dataclass(frozen=True)
class BallotRow:
    voter: str
    weight: int
    choice: str | None  # None: abstained


@dataclass(frozen=True)
class Ballot:
    """A revealed secret ballot: what it was for, every voter's weight and choice, the tally and who leads."""

    title: Message
    rows: tuple[BallotRow, ...]
    tally: tuple[tuple[str, int], ...]
    leaders: tuple[str, ...]
    revote: bool = False

    def to_json(self) -> dict:
        return {"part": "ballot", "title": self.title.to_json(), "revote": self.revote,
                "rows": [{"voter": r.voter, "weight": r.weight, "choice": r.choice} for r in self.rows],
                "tally": [[seat, n] for seat, n in self.tally], "leaders": list(self.leaders)}


@dataclass(frozen=True)
class Secret:
    """What one seat alone may look at, behind a cover: `label` on the cover, `lines` under it. `urgent`: the table
    waits for this seat to look (the Chief's secret dice)."""

    label: Message
    lines: tuple[Text, ...]
    urgent: bool = False
    hint: Text = ()  # said beside the cover, not behind it (who else may look)

    def to_json(self) -> dict:
        return {"part": "secret", "label": self.label.to_json(), "lines": [text_json(line) for line in self.lines],
                "urgent": self.urgent, "hint": text_json(self.hint)}


# -- what the table may correct ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class EditChoice:
    """One value an `Edit` may take, with the words that name it ("6 Supermarket", "dead", "face up")."""

    value: int | str | bool | None
    label: Message

    def to_json(self) -> dict:
        return {"value": self.value, "label": self.label.to_json()}


@dataclass(frozen=True)
class Edit:
    """One fact of the board the table may correct (the board is the truth: a zombie never put down, a figure
    moved to the wrong place), said by the game (`Game.edits`) so that no screen knows the game.

    `at`: the id of the part's item it belongs to on the board (a zone's id, a cell's id, a seat), where a screen
    offers it when that item is tapped; "" for the board as a whole (the round, the phase). `label`: what it is
    ("zombies at 4 Parking", "Blue's Tough Guy"). `value`: what it is now. The values it may take: a whole number
    from `low` to `high` (drawn with − and +), or one of `choices` (a place for a figure, a phase, face up or down).
    Never a secret: a cast ballot, an unrevealed roll or a seat's hidden choice is no Edit.
    """

    id: str
    at: str
    label: Message
    value: int | str | bool | None
    low: int | None = None
    high: int | None = None
    choices: tuple[EditChoice, ...] = ()

    def allows(self, value: object) -> bool:
        """Whether `value` is one this fact may take."""
        if self.choices:
            return any(type(value) is type(c.value) and value == c.value for c in self.choices)
        return type(value) is int and (self.low is None or value >= self.low) and \
            (self.high is None or value <= self.high)

    def said(self, value: object) -> Message | int | None:
        """`value` as the narration says it: a choice's words, or the number."""
        for choice in self.choices:
            if type(value) is type(choice.value) and value == choice.value:
                return choice.label
        return value if type(value) is int else None

    def to_json(self) -> dict:
        out: dict[str, Any] = {"id": self.id, "at": self.at, "label": self.label.to_json(), "value": self.value}
        if self.choices:
            out["choices"] = [c.to_json() for c in self.choices]
        else:
            out["low"], out["high"] = self.low, self.high
        return out


Part = Heading | Lines | Focus | Zones | Grid | Cards | Seats | Scores | Ballot | Secret
PART_NAMES = ("heading", "lines", "focus", "zones", "grid", "cards", "seats", "scores", "ballot", "secret")


@dataclass(frozen=True)
class Board:
    main: tuple[Part, ...] = ()
    revealed: tuple[Part, ...] = ()
    over: tuple[Part, ...] = ()
    title: Message | None = None  # the game's name over the board

    def to_json(self) -> dict:
        out: dict[str, Any] = {"main": [p.to_json() for p in self.main],
                               "revealed": [p.to_json() for p in self.revealed],
                               "over": [p.to_json() for p in self.over]}
        if self.title is not None:
            out["title"] = self.title.to_json()
        return out


def ballot(title: Message, weights: dict[str, int], ballots: dict[str, str], tally: dict[str, int],
           leaders: Sequence[str], revote: bool = False) -> Ballot:
    """The revealed ballot as every game that votes shows it: each voter's weight and choice, the tally as the
    ballot counted it (companion/ballot.py), who leads."""
    rows = tuple(BallotRow(v, w, ballots.get(v)) for v, w in weights.items())
    return Ballot(title, rows, tuple(tally.items()), tuple(leaders), revote)


def scores_by_total(title: Message, players: Sequence[str], totals: dict[str, int], winners: Sequence[str],
                    cell: Any = None, columns: tuple[Message, ...] = ()) -> Scores:
    """The end as a table of totals, best first (`cell(seat)` gives a row's cells; the points by default)."""
    ranked = sorted(players, key=lambda p: -(totals.get(p) or 0))
    rows = tuple(ScoreRow(p, cell(p) if cell else (text(msg("board.points", count=totals.get(p) or 0)),),
                          p in winners) for p in ranked)
    return Scores(title, columns, rows)

