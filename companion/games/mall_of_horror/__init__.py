"""Mall of Horror, pure rules: state, prompts, decisions and their effects. No I/O and no randomness here."""

from __future__ import annotations

from pathlib import Path

from companion.contract import CupRequest, IllegalAction, Line, Prompt

from .correction import correct, edits
from .engine import advance, apply, cup_request, steps
from .narration import lines
from .parts import parts, secrets
from .position import position_of, record, scores, start, table_options
from .prompts import check, prompt, question
from .rulebook import RULES
from .setup import SETUP, SOUNDS, TERMS
from .state import Options, State
from .stats import STATS, statistics
from .view import REVEALED_PHASES, view

NAME = "mall-of-horror"
LOCALE = Path(__file__).parent / "locale"


def decide(state: State, action: object) -> list[dict]:
    """The events an answer produces: the answer itself, once the rules accept it."""
    if state.over:
        raise IllegalAction("mall.refuse.over")
    return [check(state, action)]


def logged(state: State, answer: object) -> dict:
    """A stored answer read back from the save file, checked as `decide` checks an answer."""
    return decide(state, answer)[0]


def dice_revealed(state: State) -> bool:
    """The zombie dice of the round are on the table once the destinations are revealed."""
    return state.cup is not None and state.phase in REVEALED_PHASES


def narration(state: State) -> tuple[Line, ...]:
    return lines(state)


__all__ = [
    "LOCALE", "NAME", "RULES", "SETUP", "SOUNDS", "STATS", "TERMS", "CupRequest", "IllegalAction", "Options", "Prompt",
    "State", "advance", "apply", "check", "correct", "cup_request", "decide", "dice_revealed", "edits", "logged",
    "narration", "parts", "position_of", "prompt", "question", "record", "scores", "secrets", "start", "statistics",
    "steps", "table_options", "view",
]
