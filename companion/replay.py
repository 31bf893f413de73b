"""`companion replay SCRIPT.json`: play a script of actions and dice from a start or a position.

The script is played through a real Table (with a save file when `--db` is given), so a replayed game is
stored exactly like one played at the table and can be resumed.
"""

from __future__ import annotations

import json
from pathlib import Path

from companion.contract import IllegalAction
from companion.cup import DiceCup
from companion.store import EventStore
from companion.table import Table, TableError

SCRIPT_KEYS = {"game", "players", "options", "position", "dice", "picks", "actions"}


class ReplayError(Exception):
    """A script that cannot be played; the message is one line that names the failing action."""

    def __init__(self, message: str):
        # A value echoed from the script may hold a newline or a terminal escape: shown escaped, on one line.
        super().__init__("".join(c if c.isprintable() else repr(c)[1:-1] for c in message))


def load_script(path: str | Path) -> dict:
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise ReplayError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark, as some editors write, is not an error
    except UnicodeDecodeError as error:
        raise ReplayError(f"{path} is not UTF-8 text: byte {error.start} is {data[error.start]:#04x}") from None
    return read_script(text, str(path))


def read_script(text: str, source: str = "the script") -> dict:
    """The script in `text` (JSON), or ReplayError in one line."""
    def constant(name: str) -> None:  # Python reads NaN and Infinity; JSON has no such numbers
        raise ReplayError(f"{source} is not valid JSON: {name} is not a JSON number")

    try:
        script = json.loads(text, parse_constant=constant)
    except json.JSONDecodeError as error:
        raise ReplayError(f"{source} is not valid JSON: {error.msg} at line {error.lineno}") from None
    except RecursionError:
        raise ReplayError(f"{source} is not valid JSON: lists or objects nested too deep") from None
    except ValueError as error:  # an integer of thousands of digits
        raise ReplayError(f"{source} is not valid JSON: {error}") from None
    if not isinstance(script, dict):
        raise ReplayError(f"{source} must hold a JSON object with game, players and actions")
    return script


def play(script: dict, store: EventStore | None = None) -> Table:
    """Play the script on a table; the scripted dice and picks come first, then the real cup."""
    unknown = set(script) - SCRIPT_KEYS
    if unknown:
        raise ReplayError(f"unknown field(s) in script: {', '.join(repr(k) for k in sorted(unknown))}; "
                          f"known: {', '.join(sorted(SCRIPT_KEYS))}")
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
                raise ReplayError(f"{_cup_entry(request.kind, rolls, picks_used, dice, picks)}: {error}") from None
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


def _cup_entry(kind: str, rolls: int, picks_used: int, dice: list, picks: list) -> str:
    """Names the scripted roll or pick the cup was given ("dice 3 [1, 7]", "picks 0 5"), or the real cup's."""
    name, index, scripted = ("dice", rolls, dice) if kind == "roll" else ("picks", picks_used, picks)
    if index < len(scripted):
        return f"{name} {index} {json.dumps(scripted[index])}"
    return f"{name} {index} (the real cup)"
