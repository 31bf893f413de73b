"""Mall of Horror, pure rules: state, prompts, decisions and their effects. No I/O and no randomness here."""

from __future__ import annotations

from companion.games.base import CupRequest, IllegalAction, Prompt

from .engine import advance, apply, cup_request, steps
from .position import position_of, record, start
from .prompts import check, prompt
from .state import Options, State
from .view import view

NAME = "mall-of-horror"


def decide(state: State, action: object) -> list[dict]:
    """The events an answer produces: the answer itself, once the rules accept it."""
    if state.over:
        raise IllegalAction("the game is over")
    return [check(state, action)]


__all__ = [
    "NAME", "CupRequest", "IllegalAction", "Options", "Prompt", "State", "advance", "apply", "check",
    "cup_request", "decide", "position_of", "prompt", "record", "start", "steps", "view",
]
