"""`companion replay SCRIPT.json`: play a script of actions and dice from a start or a position.

The script is played through a real Table (with a save file when `--db` is given), so a replayed game is
stored exactly like one played at the table and can be resumed.
"""

from __future__ import annotations

import json
from pathlib import Path

from companion.cup import DiceCup
from companion.games.base import IllegalAction
from companion.store import EventStore
from companion.table import Table, TableError

SCRIPT_KEYS = {"game", "players", "options", "position", "dice", "picks", "actions"}


class ReplayError(Exception):
    """A script that cannot be played; the message is one line that names the failing action."""


def load_script(path: str | Path) -> dict:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ReplayError(f"cannot read {path}: {error.strerror}") from None
    try:
        script = json.loads(text)
    except json.JSONDecodeError as error:
        raise ReplayError(f"{path} is not valid JSON: {error.msg} at line {error.lineno}") from None
    if not isinstance(script, dict):
        raise ReplayError(f"{path} must hold a JSON object with game, players and actions")
    return script


def play(script: dict, store: EventStore | None = None) -> Table:
    """Play the script on a table; the scripted dice and picks come first, then the real cup."""
    unknown = set(script) - SCRIPT_KEYS
    if unknown:
        raise ReplayError(f"unknown field(s) in script: {', '.join(sorted(unknown))}")
    dice, picks, actions = _list(script, "dice"), _list(script, "picks"), _list(script, "actions")
    try:
        cup = DiceCup(scripted=[_dice(roll, i) for i, roll in enumerate(dice)], picks=picks)
    except (ValueError, TypeError) as error:
        raise ReplayError(f"dice: {error}") from None
    table = Table(store, cup, roll_when_asked=False)
    try:
        table.new_game(script.get("game", "mall-of-horror"), script.get("players"), script.get("options"),
                       script.get("position"))
    except (IllegalAction, ValueError) as error:
        raise ReplayError(f"setup: {error}") from None

    rolls = picks_used = next_action = 0
    while not table.state.over:
        request = table.rules.cup_request(table.state)
        if request is not None:
            scripted = rolls < len(dice) if request.kind == "roll" else picks_used < len(picks)
            if not scripted and next_action >= len(actions):
                break  # nothing left to play: leave the cup waiting
            try:
                table.roll()
            except (ValueError, IllegalAction) as error:
                raise ReplayError(f"dice {rolls} {json.dumps(dice[rolls]) if scripted else ''}: {error}") from None
            if request.kind == "roll":
                rolls += 1
            else:
                picks_used += 1
            continue
        if next_action >= len(actions):
            break
        action = actions[next_action]
        try:
            table.answer(action)
        except (IllegalAction, TableError) as error:
            raise ReplayError(f"action {next_action} {json.dumps(action)}: {error}") from None
        next_action += 1
    if next_action < len(actions):
        raise ReplayError(f"action {next_action} {json.dumps(actions[next_action])}: the game is over")
    return table


def _dice(roll: object, index: int) -> tuple[int, ...]:
    if not isinstance(roll, list):
        raise ValueError(f"roll {index} must be a list of dice, e.g. [3, 5], not {roll!r}")
    return tuple(roll)


def _list(script: dict, key: str) -> list:
    value = script.get(key, [])
    if not isinstance(value, list):
        raise ReplayError(f"{key} must be a list")
    return list(value)
