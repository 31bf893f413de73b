"""Eaten by Zombies!, pure rules: the deck-builder's referee and counter. The cards stay physical; the companion
counts the zombie cards by level wherever they are, checks each flip and addition, sums fight and flee values
against the field, says how many cards to remove and where the zombies go, runs the zombie players' turns and
applies their Powers. No I/O and no randomness here (the market's action kinds are the table cup's picks)."""

from __future__ import annotations

from pathlib import Path

from companion.contract import IllegalAction, Item, Line, Setup, TableOption, msg

from .engine import cup_request, picked, start
from .parts import parts, secrets
from .prompts import answered, check, prompt, question
from .state import COLOURS, LEVELS, State
from .view import record, scores, table_options, view

NAME = "eaten-by-zombies"
LOCALE = Path(__file__).parent / "locale"
TERMS: dict[str, str] = {}
SOUNDS = {"ebz.n.result.lost": "breach", "ebz.n.result.failed": "breach",
          "ebz.n.dies": "breach", "ebz.n.power": "reveal"}
SETUP = Setup(
    title=msg("ebz.title"), min_players=2, max_players=4, colours=COLOURS,
    options=(TableOption("run_rounding", msg("ebz.option.run_rounding"),
                         (Item("down", msg("ebz.option.run_rounding.down")),
                          Item("up", msg("ebz.option.run_rounding.up"))), "down"),),
    note=msg("ebz.setup.note"),
)


def decide(state: State, action: object) -> list[dict]:
    return [check(state, action)]


def logged(state: State, answer: object) -> dict:
    """A stored answer read back from the save file, checked as `decide` checks an answer."""
    return check(state, answer)


def apply(state: State, event: dict) -> State:
    if isinstance(event, dict) and set(event) == {"pick"}:
        return picked(state, event["pick"])
    if isinstance(event, dict) and "roll" in event:
        raise IllegalAction("ebz.refuse.shape")
    return answered(state, event)  # an answer `decide` accepted (or the log kept): never checked twice


def dice_revealed(state: State) -> bool:
    return True  # no secret dice in this game


def narration(state: State) -> tuple[Line, ...]:
    return state.narration


__all__ = ["LEVELS", "LOCALE", "NAME", "SETUP", "SOUNDS", "TERMS", "State", "apply", "cup_request",
           "decide", "dice_revealed", "logged", "narration", "parts", "prompt", "question", "record", "scores",
           "secrets", "start", "table_options", "view"]
