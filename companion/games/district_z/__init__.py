"""District-Z (pre-release rules, seed 004): the city grid of district cards, the event die, combat against
zombies with the best pairing of red against black dice proposed, survivor against survivor, health, death and
respawn, the first to his target corner with an objective card wins. Pure rules: dice and picks come from the cup.
"""

from __future__ import annotations

from pathlib import Path

from companion.contract import Item, Line, Setup, TableOption, msg

from .engine import COLOURS, apply, check, cup_request, decide, logged, prompt, question, start
from .pairing import best_pairing, outcome
from .parts import parts, secrets
from .state import GRIDS, State
from .view import record, scores, table_options, view

NAME = "district-z"
LOCALE = Path(__file__).parent / "locale"
# Parameter name -> catalogue prefix, in dz.* messages only (Zombiegeddon names its own "kind" too).
TERMS = {"dir": "dz.dir", "corner": "dz.corner", "kind": "dz.kind"}
SOUNDS = {"dz.n.event": "dice", "dz.n.combat": "dice", "dz.n.fight_dice": "dice", "dz.n.death": "breach"}


def _choice(option: str, value: str) -> Item:
    return Item(value, msg(f"dz.option.{option}.{value}"))


SETUP = Setup(
    title=msg("dz.title"), min_players=1, max_players=4, colours=COLOURS,
    options=(
        TableOption("grid", msg("dz.option.grid"), tuple(_choice("grid", g) for g in GRIDS), "6x5"),
        TableOption("face_up_event", msg("dz.option.face_up_event"),
                    (_choice("face_up_event", "roll"), _choice("face_up_event", "skip")), "roll"),
        TableOption("play_on", msg("dz.option.play_on"),
                    (_choice("play_on", "false"), _choice("play_on", "true")), False),
        TableOption("box_dice", msg("dz.option.box_dice"),
                    (_choice("box_dice", "false"), _choice("box_dice", "true")), False),
    ),
    note=msg("dz.setup.note"),
)


def dice_revealed(state: State) -> bool:
    return True  # every roll of this game is made in the open


def narration(state: State) -> tuple[Line, ...]:
    return state.narration


__all__ = ["LOCALE", "NAME", "SETUP", "SOUNDS", "TERMS", "State", "apply", "best_pairing", "check",
           "cup_request", "decide", "dice_revealed", "logged", "narration", "outcome", "parts", "prompt", "question",
           "record", "scores", "secrets", "start", "table_options", "view"]
