"""A correction of the board: the table says what the physical board holds, and the companion follows it.

The game says what may be corrected (`Game.edits`: companion/board.py's Edit, each with its value now and the values
it may take) and how its state changes (`Game.correct`, which refuses an impossible board in one line); this module
checks the changes against the edits and says each change in the narration, for every game alike:
"Corrected: zombies at 4 Parking 2 → 3".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.contract import Game, IllegalAction

MAX_CHANGES = 200  # more facts than any board has: a message that lists more is not a correction


def corrected(game: Game, state: Any, changes: object) -> Any:
    """The state after the correction `changes` ({Edit id: value}), each change said in the narration before what it
    sets off (`Game.correct` keeps the narration of the state it is given); IllegalAction
    (nothing changes) for an unknown fact, a value it may not take, or a board the rules find impossible."""
    if not isinstance(changes, Mapping) or not changes or len(changes) > MAX_CHANGES:
        raise IllegalAction("correction.shape")
    edits = {edit.id: edit for edit in game.edits(state)}
    for key, value in changes.items():
        edit = edits.get(key) if isinstance(key, str) else None
        if edit is None:
            raise IllegalAction("correction.unknown")
        if not edit.allows(value):
            raise IllegalAction("correction.value", what=edit.label)
    changed = {key: value for key, value in changes.items() if value != edits[key].value}
    if not changed:
        raise IllegalAction("correction.nothing")
    told = state  # each change said first: what the corrected board sets off (a vote asked again) is told after it
    for key, value in changed.items():
        edit = edits[key]
        told = told.say("correction.n.changed", what=edit.label, was=_said(edit, edit.value), now=_said(edit, value))
    return game.correct(told, changed)


def _said(edit: Any, value: object) -> Any:
    said = edit.said(value)
    return said if said is not None else "—"


def edits_json(game: Game, state: Any) -> list[dict]:
    """What a screen offers to correct now, as JSON."""
    return [edit.to_json() for edit in game.edits(state)]
