"""District-Z's state: the city grid, the survivors, where the turn stands. Frozen: every change is a new state."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from companion.contract import Line, Narrated

SURVIVOR_CARDS = 6  # the box's survivor cards
DICE = 6  # the box has 6 dice of each colour (the "box_dice" option rolls no more than these)
CUP_MOST = 10  # the table's cup rolls at most 10 dice at once (cup.MAX_DICE): more are rolled in several goes
HANDS = 4  # one-handed slots a survivor carries
KINDS = ("one", "dual", "two", "free")  # one-handed, one-handed dual-wieldable, two-handed, no hands
HANDS_OF = {"one": 1, "dual": 1, "two": 2, "free": 0}
CORNERS = ("nw", "ne", "sw", "se")
OPPOSITE = {"nw": "se", "se": "nw", "ne": "sw", "sw": "ne"}
DIRECTIONS = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}
GRIDS = ("4x4", "5x5", "6x5")  # the box has 30 district cards: no city is bigger than 6 × 5


@dataclass(frozen=True)
class Gear:
    """An item card as the player entered it: how it is held, what it adds to attack and health."""

    kind: str
    attack: int = 0
    health: int = 0

    def to_json(self) -> dict:
        return {"kind": self.kind, "attack": self.attack, "health": self.health}

    def message(self) -> dict:
        return {"key": "dz.item", "params": {"kind": self.kind, "attack": self.attack, "health": self.health}}


@dataclass(frozen=True)
class Cell:
    up: bool = False
    zombies: int = 0
    items: tuple[Gear, ...] = ()
    objectives: int = 0  # objective cards lying here (dropped, or found by one who already held one)
    seen: bool = False  # the card was turned and seen as a district: it is never the objective card later


@dataclass(frozen=True)
class Survivor:
    seat: str
    corner: str | None = None
    number: int = 1  # the player's first, second... survivor card
    attack: int | None = None  # entered from the survivor card
    health: int | None = None
    damage: int = 0
    items: tuple[Gear, ...] = ()
    objective: bool = False
    pos: tuple[int, int] | None = None  # None: not on the board (new, or dead and waiting for his turn)
    out: bool = False  # dead with no survivor card left
    won: bool = False

    @property
    def life(self) -> int:
        return (self.health or 0) + sum(g.health for g in self.items)

    @property
    def hands(self) -> int:
        return sum(HANDS_OF[g.kind] for g in self.items)

    @property
    def active(self) -> bool:
        return not self.out and not self.won


@dataclass(frozen=True)
class Combat:
    """A fight against the zombies of one district, round by round."""

    then: str  # what follows once the zombies are dead: "event" (they were there before) or "end"
    use: tuple[int, ...] = ()  # the items used (indexes into the survivor's items)
    red: tuple[int, ...] = ()
    black: tuple[int, ...] = ()
    rounds: int = 0


@dataclass(frozen=True)
class Fight:
    """Survivor against survivor: one round, the higher sum chooses."""

    attacker: str
    defender: str
    red: tuple[int, ...] = ()
    other: tuple[int, ...] = ()


@dataclass(frozen=True)
class State(Narrated):
    players: tuple[str, ...]
    width: int = 6
    height: int = 5
    face_up_event: str = "roll"  # entering a face-up district rolls its event (the rules' body); "skip": the note's
    play_on: bool = False
    box_dice: bool = False  # at most the box's 6 dice of each colour (else one die per zombie and per attack point)
    round: int = 1
    step: str = "corner"
    turn: int = 0  # the index of the player asked now (or whose turn it is)
    asked: str | None = None  # who answers now when it is not the turn's player (a fight's winner, a drop)
    cells: tuple[Cell, ...] = ()
    survivors: tuple[Survivor, ...] = ()
    hidden_objectives: int = 0  # objective cards still face down in the city
    set_aside: int = 0  # district cards set aside, face down
    spare_survivors: int = 0  # survivor cards no one has used yet
    die: int | None = None  # the last event die
    start_flip: bool = False  # the card being told is the corner's, flipped at placement: no event
    draft: tuple = ()  # the item being entered: (kind, attack)
    after: str = ""  # where the turn goes once the items fit the hands again
    combat: Combat | None = None
    fight: Fight | None = None
    fought: tuple[str, ...] = ()  # whom the turn's player has fought this turn
    winners: tuple[str, ...] = ()
    lost: bool = False
    narration: tuple[Line, ...] = field(default=(), repr=False)

    @property
    def over(self) -> bool:
        return self.step == "over"

    @property
    def seat(self) -> str:
        return self.players[self.turn]

    def of(self, seat: str) -> Survivor:
        return self.survivors[self.players.index(seat)]

    @property
    def me(self) -> Survivor:
        return self.survivors[self.turn]

    def cell(self, pos: tuple[int, int]) -> Cell:
        return self.cells[pos[1] * self.width + pos[0]]

    def name(self, pos: tuple[int, int]) -> str:
        return f"{chr(ord('A') + pos[0])}{pos[1] + 1}"

    def corner_pos(self, corner: str) -> tuple[int, int]:
        return (0 if corner[1] == "w" else self.width - 1, 0 if corner[0] == "n" else self.height - 1)

    def with_cell(self, pos: tuple[int, int], **changes) -> State:
        index = pos[1] * self.width + pos[0]
        cells = list(self.cells)
        cells[index] = replace(cells[index], **changes)
        return replace(self, cells=tuple(cells))

    def with_survivor(self, seat: str, **changes) -> State:
        index = self.players.index(seat)
        survivors = list(self.survivors)
        survivors[index] = replace(survivors[index], **changes)
        return replace(self, survivors=tuple(survivors))

    def others_at(self, pos: tuple[int, int], seat: str) -> list[str]:
        return [s.seat for s in self.survivors if s.seat != seat and s.pos == pos and s.active]
