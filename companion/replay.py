"""`companion replay SCRIPT.json`: play a script of actions and dice from a start or a position."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.games import get_game
from companion.games.base import IllegalAction

SCRIPT_KEYS = {"game", "players", "options", "position", "dice", "picks", "actions"}


class ReplayError(Exception):
    """A script that cannot be played; the message is one line that names the failing action."""


@dataclass
class Replay:
    rules: object
    state: object
    events: list[dict]


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


def play(script: dict, on_event: Callable[[dict], None] | None = None) -> Replay:
    """Play the script; each accepted event is passed to on_event (the store, for instance)."""
    unknown = set(script) - SCRIPT_KEYS
    if unknown:
        raise ReplayError(f"unknown field(s) in script: {', '.join(sorted(unknown))}")
    try:
        rules = get_game(script.get("game", "mall-of-horror"))
        state = rules.start(script.get("players"), script.get("options"), script.get("position"))
    except IllegalAction as error:
        raise ReplayError(f"setup: {error}") from None
    dice = _list(script, "dice")
    picks = _list(script, "picks")
    actions = _list(script, "actions")
    events: list[dict] = []

    def accept(event: dict, where: str):
        nonlocal state
        try:
            state = rules.apply(state, event)
        except IllegalAction as error:
            raise ReplayError(f"{where}: {error}") from None
        events.append(event)
        if on_event:
            on_event(event)

    next_action = 0
    rolls = 0
    while not state.over:
        request = rules.cup_request(state)
        if request is not None:
            if request.kind == "roll" and dice:
                roll = dice.pop(0)
                accept({"roll": roll}, f"dice {rolls} {json.dumps(roll)}")
                rolls += 1
            elif request.kind == "pick" and picks:
                accept({"pick": picks.pop(0)}, "random pick")
            elif next_action < len(actions) or (request.kind == "roll" and dice):
                # The script has more to play: the cup rolls for real.
                if request.kind == "roll":
                    accept({"roll": [secrets.randbelow(6) + 1 for _ in range(request.count)]}, "cup")
                else:
                    accept({"pick": secrets.randbelow(request.count)}, "cup")
            else:
                break
            continue
        if next_action >= len(actions):
            break
        action = actions[next_action]
        where = f"action {next_action} {json.dumps(action)}"
        try:
            events_of_action = rules.decide(state, action)
        except IllegalAction as error:
            raise ReplayError(f"{where}: {error}") from None
        for event in events_of_action:
            accept(event, where)
        next_action += 1
    if next_action < len(actions):
        raise ReplayError(f"action {next_action} {json.dumps(actions[next_action])}: the game is over")
    return Replay(rules, state, events)


def _list(script: dict, key: str) -> list:
    value = script.get(key, [])
    if not isinstance(value, list):
        raise ReplayError(f"{key} must be a list")
    return list(value)
