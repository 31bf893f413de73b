"""Eaten by Zombies!: the state of the table's books (plain, frozen data), the setup and the options.

The cards stay physical. The companion counts the zombie cards by level wherever they are (the zombie deck, the
zombie discard, the field, each player's cards, the zombie players' Powers), so it can refuse a flip of a level
the deck no longer holds and say where every zombie goes.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dc_field

from companion.contract import IllegalAction, Line, Narrated
from companion.games.checks import described, name_of

LEVELS = (1, 2, 4, 6, 8)
SPEEDS = (1, 2, 3, 4, 5, 6)
BASE_DECK = (5, 4, 3, 2, 1)  # 2 players: 15 cards; one more of each level per player above 2
COLOURS = ("red", "yellow", "blue", "green")
ROUNDINGS = ("down", "up")
DEFAULT_MARKET = 12  # the box's other action kinds, numbered (the seed names none); a list of names replaces it
MAX_VALUE = 60  # a fight or flee value entered
MAX_BONUS = 20  # diamond bonuses entered
MAX_POWERS = 3
HAND = 6

Pile = tuple[int, int, int, int, int]  # zombie cards by level, in the order of LEVELS
EMPTY: Pile = (0, 0, 0, 0, 0)


def pile_add(pile: Pile, level: int, n: int = 1) -> Pile:
    i = LEVELS.index(level)
    return pile[:i] + (pile[i] + n,) + pile[i + 1:]


def pile_sum(a: Pile, b: Pile) -> Pile:
    return tuple(x + y for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def pile_has(pile: Pile, level: int) -> bool:
    return level in LEVELS and pile[LEVELS.index(level)] > 0


def pile_json(pile: Pile) -> dict[str, int]:
    return {str(level): n for level, n in zip(LEVELS, pile, strict=True)}


def deck_for(players: int) -> Pile:
    return tuple(n + players - 2 for n in BASE_DECK)  # type: ignore[return-value]


@dataclass(frozen=True)
class Zombie:
    level: int
    speed: int
    by: str | None = None  # who added it from his hand (None: flipped from the zombie deck)


@dataclass(frozen=True)
class Outcome:
    """The last fight or run: what was played against what, and what follows."""

    seat: str
    how: str  # "fight" or "run"
    value: int
    need: int
    result: str  # "won", "lost", "escaped", "failed"
    remove: int
    budget: int | None = None


@dataclass(frozen=True)
class Options:
    rounding: str = "down"  # an escape removes half the speed sum, rounded down (the ruling) or up
    market: tuple = tuple(range(1, DEFAULT_MARKET + 1))  # ints: numbered kinds; strings: the table's names


@dataclass(frozen=True)
class State(Narrated):
    players: tuple[str, ...]
    options: Options
    total: int
    deck: Pile
    round: int = 0  # the turn number (each turn is a round of the narration)
    step: str = "market"
    market: tuple = ()  # the drawn action kinds, in the order drawn
    discard: Pile = EMPTY
    field: tuple[Zombie, ...] = ()
    cards: dict = dc_field(default_factory=dict)  # seat -> Pile: zombies among a human's cards, a zombie player's hand
    powers: dict = dc_field(default_factory=dict)  # seat -> levels kept face up as Powers, oldest first
    dead: tuple[str, ...] = ()  # the zombie players, in the order they died
    active: str | None = None
    reshuffles: int = 0
    flips_left: int = 0
    flips_total: int = 0
    level: int | None = None  # a level entered, waiting for its speed
    adders: tuple[str, ...] = ()  # who is still to be asked to add a zombie, in turn
    how: str | None = None  # "fight" or "run", once chosen
    value: int | None = None
    remove_left: int = 0  # removed cards that may still be declared zombies
    drawn_left: int = 0
    drawn_total: int = 0
    last: Outcome | None = None
    winners: tuple[str, ...] = ()
    narration: tuple[Line, ...] = ()

    @property
    def over(self) -> bool:
        return self.step == "over"

    @property
    def humans(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self.dead)

    @property
    def in_force(self) -> tuple[int, ...]:
        """The Powers in force: every level some zombie player keeps face up."""
        return tuple(level for level in LEVELS if any(level in kept for kept in self.powers.values()))

    def held(self, seat: str) -> Pile:
        return self.cards.get(seat, EMPTY)

    @property
    def level_sum(self) -> int:
        return sum(z.level for z in self.field)

    @property
    def speed_sum(self) -> int:
        return sum(z.speed for z in self.field)

    @property
    def zombie_count(self) -> int:
        """Every zombie card the books hold: deck, discard, field, players' cards, Powers."""
        return (sum(self.deck) + sum(self.discard) + len(self.field) + sum(sum(p) for p in self.cards.values())
                + sum(len(kept) for kept in self.powers.values()))

    def by_level(self) -> Pile:
        """The same, level by level."""
        out = pile_sum(self.deck, self.discard)
        for zombie in self.field:
            out = pile_add(out, zombie.level)
        for pile in self.cards.values():
            out = pile_sum(out, pile)
        for kept in self.powers.values():
            for level in kept:
                out = pile_add(out, level)
        return out

    def neighbours(self, seat: str) -> tuple[str, ...]:
        i, n = self.players.index(seat), len(self.players)
        return tuple(dict.fromkeys((self.players[(i - 1) % n], self.players[(i + 1) % n])))

    def after(self, seat: str) -> tuple[str, ...]:
        """The other seats, from the left of `seat` round the table."""
        i = self.players.index(seat)
        return tuple(self.players[(i + k) % len(self.players)] for k in range(1, len(self.players)))


def read_options(options: object, players: int) -> Options:
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise IllegalAction("ebz.refuse.options", got=described(options))
    unknown = [name for name in options if name not in ("run_rounding", "market")]
    if unknown:
        raise IllegalAction("ebz.refuse.option_unknown", name=name_of(unknown[0]))
    rounding = options.get("run_rounding", "down")
    if not isinstance(rounding, str) or rounding not in ROUNDINGS:
        raise IllegalAction("ebz.refuse.rounding", got=described(rounding))
    market = options.get("market", DEFAULT_MARKET)
    need = 2 * players
    if isinstance(market, str) and market.isdecimal() and market.isascii() and len(market) <= 3:
        market = int(market)
    if type(market) is int:
        if not need <= market <= 60:
            raise IllegalAction("ebz.refuse.market", count=need)
        kinds: tuple = tuple(range(1, market + 1))
    elif isinstance(market, list) and all(isinstance(k, str) and 0 < len(k.strip()) <= 40 and k.isprintable()
                                          for k in market):
        kinds = tuple(dict.fromkeys(k.strip() for k in market))
        if not need <= len(kinds) <= 60:
            raise IllegalAction("ebz.refuse.market", count=need)
    else:
        raise IllegalAction("ebz.refuse.market", count=need)
    return Options(rounding, kinds)


def kind_param(kind: object) -> object:
    """A market kind as a narration parameter: a numbered kind is a message, a name the table gave stays as it is."""
    if isinstance(kind, int):
        return {"key": "ebz.kind.number", "params": {"number": kind}}
    return kind
