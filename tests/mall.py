"""Helpers for Mall of Horror tests: set up a position, give answers, roll the cup."""

from __future__ import annotations

from companion.contract import IllegalAction
from companion.games import mall_of_horror as mall
from companion.games.mall_of_horror import prompts
from companion.games.mall_of_horror.state import State

FOUR = ("red", "blue", "yellow", "green")

# Start of a move phase: Red (Chief) and Blue have one character each away from their destination.
MOVE = {
    "round": 2, "phase": "move", "chief": "red",
    "characters": {"red": {"pinup": 1, "tough": 3, "gunman": 5}, "blue": {"pinup": 3, "tough": 6, "gunman": 6},
                   "yellow": {"pinup": 6, "tough": 1}, "green": {"pinup": 4}},
    "hands": {"red": 1, "blue": 0, "yellow": 0, "green": 0}, "deck": 10,
    "destinations": {"red": 6, "blue": 1, "yellow": 3, "green": 3}, "cup": [2, 2, 2, 2],
}
# Start of an attack: the Restroom is breached (4 zombies; Red and Blue there, defence 2), so they vote.
ATTACK = {
    "round": 2, "phase": "attack", "chief": "red",
    "characters": {"red": {"pinup": 1, "tough": 3, "gunman": 5}, "blue": {"pinup": 1, "tough": 6, "gunman": 6},
                   "yellow": {"pinup": 6, "tough": 3}, "green": {"pinup": 3}},
    "zombies": {"1": 4}, "hands": {"red": 0, "blue": 0, "yellow": 0, "green": 0}, "deck": 17,
    "destinations": {"red": 1, "blue": 1, "yellow": 6, "green": 3},
}


def game(players=FOUR, options=None, **position) -> State:
    """The game at the start of `phase` (default: truck) with the given position fields."""
    position.setdefault("phase", "truck")
    return mall.start(list(players), options, position)


def act(state: State, *actions: dict) -> State:
    for action in actions:
        state = mall.apply(state, mall.decide(state, action)[0])
    return state


def roll(state: State, *dice: int) -> State:
    return mall.apply(state, {"roll": list(dice)})


def pick(state: State, index: int) -> State:
    return mall.apply(state, {"pick": index})


def vote(state: State, **ballots: str) -> State:
    """Everyone named votes (red="blue" means Red votes for Blue)."""
    for seat, colour in ballots.items():
        state = act(state, {"seat": seat, "vote": colour})
    return state


def passes(state: State) -> State:
    """Every seat asked in the current card window passes."""
    while state.step == "window":
        seat = state.window.seat
        state = act(state, {"seat": seat, "pass": True})
    return state


def waiting(state: State) -> tuple[str, ...]:
    current = prompts.prompt(state)
    return current.seats if current else ()


def asked(state: State) -> tuple[str, str] | None:
    """What kind of question is open, and at which step: ("ballot", "vote"), ("pick", "gift"), ("cards", "window")."""
    current = prompts.prompt(state)
    return (current.kind, current.step) if current else None


def refusal(state: State, action: object) -> IllegalAction:
    """The refusal a player gets for `action` (it must be refused)."""
    try:
        mall.decide(state, action)
    except IllegalAction as refused:
        return refused
    raise AssertionError(f"{action} was accepted")


def options(state: State, seat: str) -> list[dict]:
    current = prompts.prompt(state)
    return current.options.get(seat, []) if current else []


def where(state: State, colour: str) -> dict[str, int]:
    return {c.kind: c.location for c in state.of(colour)}


def zombies(state: State) -> dict[int, int]:
    return {loc: state.zombies[loc - 1] for loc in range(1, 7)}
