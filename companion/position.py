"""Where a game starts: its setup, a position the game reads itself (`Game.start`), or the table's record taken at
any moment, which carries the whole state (companion/snapshot.py) and goes on exactly from there, for every game.
"""

from __future__ import annotations

import json
from typing import Any

from companion.contract import Game, IllegalAction, record_of
from companion.snapshot import Unreadable, classes_of, decode


def start(game: Game, players: object, options: object = None, position: object = None) -> Any:
    """A game from its setup, from a position the game reads (`Game.start`), or from a record (any moment of any
    game, exactly)."""
    if is_record(position):
        return restored(game, players, options, position)
    return game.start(players, options, position)


def is_record(position: object) -> bool:
    """A position that is a table's record (it carries the whole state), rather than a game's own position."""
    return isinstance(position, dict) and "state" in position


def restored(game: Game, players: object, options: object, position: dict) -> Any:
    """The state a record holds (`position["state"]`), checked: a state of this game, for these players and
    options, and every other field of the record as this state's record has it (a field changed beside the
    state would be silently ignored otherwise). IllegalAction in one line if not."""
    if position.get("game", game.NAME) != game.NAME:
        raise IllegalAction("position.other_game", game=game.NAME)
    if not options:  # the record's own table options, unless the script gives them again
        options = position.get("table_options")
    fresh = game.start(players, options)  # checks the players and the options as a new game would
    try:
        state = decode(position["state"], classes_of(type(fresh)))
    except Unreadable as error:
        raise IllegalAction(f"position.unreadable.{error.why}", where=error.where, **error.params) from None
    if type(state) is not type(fresh):
        raise IllegalAction("position.other_game", game=game.NAME)
    if tuple(state.players) != tuple(fresh.players):
        raise IllegalAction("position.other_players", position=", ".join(state.players),
                            players=", ".join(fresh.players))
    if game.table_options(state) != game.table_options(fresh):
        raise IllegalAction("position.other_options", position=json.dumps(game.table_options(state)),
                            options=json.dumps(game.table_options(fresh)))
    try:
        told = json.loads(json.dumps(record_of(game, state)))
    except Exception:  # noqa: BLE001 -- a file's state, well typed, that this game's own books cannot make sense of
        raise IllegalAction("position.inconsistent") from None
    for key in sorted(set(told) | set(position)):
        if told.get(key) != position.get(key):
            raise IllegalAction("position.field_differs", field=key)
    return state
