"""The state of a Mall of Horror game: plain frozen values, and the questions one can ask of them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import wraps
from typing import TypeVar

from companion.ballot import Ballot
from companion.contract import IllegalAction, Line, Narrated
from companion.games.checks import described, name_of, same, word

from .board import (
    CAPACITY,
    GUNMAN,
    LOCATIONS,
    PARKING,
    PINUP,
    POINTS,
    SUPERMARKET,
    SUPERMARKET_BREACH,
    TOUGH,
    rescue_at,
)


class Phase:
    """Where the game stands: placement, the six phases of a round (rulebook a-f), the end.

    The names are plain strings in a namespace, not an enum.StrEnum: the engine reads them thousands of times a
    game, and an Enum member lookup made the whole rules bench 16 % slower (callgrind), these 3 %.
    """

    PLACEMENT = "placement"
    TRUCK = "truck"
    CHIEF = "chief"
    ARRIVAL = "arrival"
    DESTINATION = "destination"
    MOVE = "move"
    ATTACK = "attack"
    OVER = "over"


class Step:
    """Where a phase stands: what the engine does next, or what it waits for."""

    START = "start"  # the phase has not run its first automatic step yet
    ROLL = "roll"  # the cup rolls (placement dice, the first zombies, the four zombie dice)
    PLACE = "place"  # a player places a character
    ZOMBIES = "zombies"  # the first zombies, after placement
    VOTE = "vote"  # a secret ballot is open
    PICK = "pick"  # the cup draws lots after a second tie
    GIFT = "gift"  # the truck searcher gives a card
    CHIEF = "chief"  # the elected Chief chooses his destination first, in public
    SECRET = "secret"  # everyone else chooses a destination in secret
    WINDOW = "window"  # a card window: play a card or pass, in turn
    DONE = "done"  # the camera window is over
    MOVE = "move"  # a player moves a character
    SPRINT = "sprint"  # a player who played Sprint says which character runs
    BREACH = "breach"  # the attack looks at the next location
    AFTER_WINDOW = "after_window"  # the attack's card window is over: breached still?
    VICTIM = "victim"  # the loser of a victim vote chooses who dies
    NEXT = "next"  # the attack moves on to the next location
    OVER = "over"


@dataclass(frozen=True)
class Options:
    """The table options a group chooses before the game (defaults are the rules' default rulings)."""

    threats_carry_to_revote: bool = True
    second_tie_victim: str = "character"  # "character": a random character; "colour": a random colour
    end_timing: str = "immediate"  # "immediate" or "round_end"

    @classmethod
    def from_json(cls, data: object) -> Options:
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise IllegalAction("mall.refuse.options_object", example='{"end_timing": "round_end"}',
                                got=described(data))
        allowed = {
            "threats_carry_to_revote": (True, False),
            "second_tie_victim": ("character", "colour"),
            "end_timing": ("immediate", "round_end"),
        }
        for name, value in data.items():
            if name not in allowed:
                raise IllegalAction("mall.refuse.unknown_option", name=name_of(name), options=list(allowed))
            if not any(same(value, legal) for legal in allowed[name]):
                first, second = (word(legal) for legal in allowed[name])
                raise IllegalAction("mall.refuse.option_value", option=name, first=first, second=second,
                                    got=described(value))
        return cls(**data)

    def to_json(self) -> dict:
        return {
            "threats_carry_to_revote": self.threats_carry_to_revote,
            "second_tie_victim": self.second_tie_victim,
            "end_timing": self.end_timing,
        }


@dataclass(frozen=True)
class Character:
    colour: str
    kind: str
    location: int  # 1..6; 0 while not yet placed
    hidden: bool = False  # hidden by a Hidden card for the rest of the round


@dataclass(frozen=True)
class Vote:
    purpose: str  # "truck", "chief" or "victim"
    location: int
    ballot: Ballot
    stage: int = 1  # 1: the vote; 2: the re-vote after a first tie
    threats: Mapping[str, int] = field(default_factory=dict)  # Threats played for this vote
    round: int = 0  # the round it is cast in: a ballot revealed at a round's end is still said as that round's


@dataclass(frozen=True)
class Window:
    """A card window: the seats asked, one after the other, to play cards or pass."""

    kind: str  # "camera" (zombie arrival) or "attack" (before a victim vote)
    location: int  # the location under attack; 0 for the camera window
    seats: tuple[str, ...]
    turn: int = 0

    @property
    def seat(self) -> str:
        return self.seats[self.turn]


@dataclass(frozen=True)
class State(Narrated):
    players: tuple[str, ...]  # seating order, clockwise
    options: Options
    chief: str
    characters: tuple[Character, ...]  # the living ones (and, during placement, the unplaced ones)
    zombies: tuple[int, ...]  # zombies at locations 1..6
    closed: frozenset[int]
    hands: Mapping[str, int]  # action cards in each player's hand
    deck: int  # cards in the truck deck
    played: Mapping[str, int]  # cards that have left the game, by deck entry (see board.DECK)
    round: int = 0  # 0 during setup
    phase: str = Phase.PLACEMENT
    step: str = Step.START
    elected: bool = False  # the Chief was elected this round
    # What this round has decided so far.
    cup: tuple[int, ...] | None = None  # the four zombie dice, secret until the reveal
    lookers: frozenset[str] = frozenset()  # seats who may look at the cup before the reveal
    destinations: Mapping[str, int] = field(default_factory=dict)
    hardware: Mapping[int, int] = field(default_factory=dict)  # Hardware played at each location
    threats: Mapping[str, int] = field(default_factory=dict)  # Threats played for the coming vote
    zombie_players: frozenset[str] = frozenset()  # eliminated players who chose a location this round
    # Where the phase stands.
    turn: int = 0  # placement: placements made; move: index into `order`
    order: tuple[str, ...] = ()  # who moves, in turn
    dice: tuple[int, ...] | None = None  # the two public placement dice
    sprint: int | None = None  # where the player moving now sprints to
    location: int = 0  # the location the attack resolves now
    vote: Vote | None = None
    window: Window | None = None
    victim_colour: str | None = None  # this player chooses which of his characters dies
    lottery: tuple[tuple[str, str], ...] = ()  # (colour, kind) drawn at random after a second tie
    searcher: str | None = None  # the truck searcher, about to give a card
    drawn: int = 0  # cards the truck searcher drew
    revealed: Vote | None = None  # the last ballot revealed, with every ballot in it
    winners: tuple[str, ...] = ()
    # The whole game's narration, oldest first, one contract.Line per line, made when it is said (every step says
    # itself: see engine): the rounds before this one in `earlier`, this round's lines in `narration`, where
    # Narrated's `say` adds them (so adding a line copies only this round's). Read it all with
    # `mall_of_horror.narration(state)`.
    earlier: tuple[Line, ...] = ()
    narration: tuple[Line, ...] = ()

    def evolve(self, **changes: object) -> State:
        """`dataclasses.replace`, without re-running __init__: the engine makes thousands of states a game (Narrated's
        `say` evolves with it too). A state holds its fields and nothing else (no cache rides in it)."""
        fields = self.__dict__.copy()
        fields.update(changes)
        if len(fields) != _FIELD_COUNT:  # a name that is no field added a key
            raise TypeError(f"State has no field(s) {sorted(fields.keys() - _STATE_FIELDS)}")
        new = object.__new__(State)
        object.__setattr__(new, "__dict__", fields)
        return new

    # -- questions ------------------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == Phase.OVER

    def at(self, location: int) -> list[Character]:
        return [c for c in self.characters if c.location == location]

    def of(self, colour: str) -> list[Character]:
        return [c for c in self.characters if c.colour == colour]

    def alive(self, colour: str) -> bool:
        return any(c.colour == colour for c in self.characters)

    def is_open(self, location: int) -> bool:
        return location in LOCATIONS and location not in self.closed

    def has_room(self, location: int) -> bool:
        capacity = CAPACITY[location]
        return capacity is None or len(self.at(location)) < capacity

    def clockwise(self, start: str | None = None) -> list[str]:
        """All players, clockwise from `start` (the Chief by default)."""
        i = self.players.index(start or self.chief)
        return list(self.players[i:] + self.players[:i])

    def defence(self, location: int) -> int:
        present = self.at(location)
        return len(present) + sum(c.kind == TOUGH for c in present) + self.hardware.get(location, 0)

    def breached(self, location: int) -> bool:
        zombies = self.zombies[location - 1]
        if location == SUPERMARKET and zombies >= SUPERMARKET_BREACH:
            return True
        return zombies >= self.defence(location)

    def visible_colours(self, location: int) -> list[str]:
        """Players with a non-hidden character at the location, clockwise from the Chief."""
        present = {c.colour for c in self.at(location) if not c.hidden}
        return [p for p in self.clockwise() if p in present]

    def vote_weight(self, colour: str, location: int) -> int:
        mine = [c for c in self.at(location) if c.colour == colour and not c.hidden]
        return len(mine) + sum(c.kind == GUNMAN for c in mine)

    def score(self, colour: str) -> int:
        return sum(POINTS[c.kind] for c in self.characters if c.colour == colour)

    def rescued(self) -> bool:
        """Rescue: every living character in one location other than Parking, or few enough alive."""
        places = {c.location for c in self.characters}
        if len(self.characters) <= rescue_at(len(self.players)):
            return True
        return len(places) == 1 and PARKING not in places

    def pinups(self) -> dict[int, int]:
        return {loc: sum(c.kind == PINUP for c in self.at(loc)) for loc in LOCATIONS}

    def crowds(self) -> dict[int, int]:
        return {loc: len(self.at(loc)) for loc in LOCATIONS}


_STATE_FIELDS = frozenset(State.__dataclass_fields__)
_FIELD_COUNT = len(_STATE_FIELDS)


evolve = State.evolve  # the engine's evolve(state, **changes)


Made = TypeVar("Made")


def remembered(work: Callable[[State], Made]) -> Callable[[State], Made]:
    """`work(state)`, worked out once for each of the last two states asked and kept beside them, never inside
    (a state is frozen and holds no cache). An entry is keyed by identity and holds the state itself, so that an
    identity is not reused while it is kept; there are two entries, so the cache never grows."""
    last: tuple = (None, None)
    before: tuple = (None, None)

    @wraps(work)
    def remembered_work(state: State) -> Made:
        nonlocal last, before
        if last[0] is state:
            return last[1]
        if before[0] is state:
            return before[1]
        made = work(state)
        before, last = last, (state, made)
        return made

    return remembered_work
