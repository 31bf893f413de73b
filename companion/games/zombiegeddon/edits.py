"""The board is the truth: what a table may correct on Zombiegeddon's board, and the state with it so.

Before the end: the phase, whose turn it is and the actions done in it (pre- and post-bomb), and who starts
post-bomb (post-bomb). Once the sheets are revealed: each line of each sheet. Never a secret: while a largest zombie
disc or a line of a sheet is entered and not yet revealed, nothing can be corrected (it would be lost or shown).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from companion.board import Edit, EditChoice
from companion.contract import IllegalAction, msg

from .rules import ACTIONS_PER_TURN, LARGEST, OVER, POINTS_OF, POST, PRE, SHEET, State, high, lines, results

SET_PHASES = (PRE, LARGEST, POST, SHEET)  # the phases a table may set; the end comes with the sheets' reveal
TURNS = (PRE, POST)  # the phases with a turn


def edits(state: State) -> tuple[Edit, ...]:
    if state.phase == OVER:
        return tuple(Edit(f"sheet.{seat}.{line_}", seat, msg(f"zg.edit.sheet.{line_}", colour=seat),
                          state.sheets[seat].entries.get(line_, 0), 0, high(line_))
                     for seat in state.players for line_ in lines())
    if _secret_entered(state):
        return ()
    seats = tuple(EditChoice(seat, msg(f"colour.{seat}")) for seat in state.players)
    out = [Edit("phase", "", msg("zg.edit.phase"), state.phase,
                choices=tuple(EditChoice(phase, msg(f"zg.phase.{phase}")) for phase in SET_PHASES))]
    if state.phase in TURNS:
        out += [Edit("turn", "", msg("zg.edit.turn"), state.turn, choices=seats),
                Edit("actions", state.turn, msg("zg.edit.actions"), state.actions, 0, ACTIONS_PER_TURN - 1)]
    if state.phase == POST:
        out.append(Edit("starter", "", msg("zg.edit.starter"), state.starter, choices=seats))
    return tuple(out)


def _secret_entered(state: State) -> bool:
    """A largest zombie disc or a line of a sheet is entered, and not revealed yet."""
    return bool(state.entries) or any(sheet.answers for sheet in state.sheets.values())


def correct(state: State, changes: Mapping[str, object]) -> State:
    # A correction opens a new round of the narration: each question is asked again under an id never asked.
    state = replace(state, round=state.round + 1)
    if state.phase == OVER:
        return _sheets(state, changes)
    phase = changes.get("phase", state.phase)
    said = msg(f"zg.phase.{phase}")
    if ("turn" in changes or "actions" in changes) and phase not in TURNS:
        raise IllegalAction("zg.refuse.edit.no_turn", phase=said)
    if "starter" in changes and phase != POST:
        raise IllegalAction("zg.refuse.edit.no_starter", phase=said)
    if phase in TURNS:
        return _turn(state, phase, changes)
    if phase == LARGEST:  # everyone enters his largest zombie disc again, from the start
        return replace(state, phase=LARGEST, turn="", actions=0, starter=None, asked=state.players, entries={},
                       below=None, revealed=())
    return replace(state, phase=SHEET, turn="", actions=0, asked=(), entries={}, below=None)


def _turn(state: State, phase: str, changes: Mapping[str, object]) -> State:
    """Pre- or post-bomb. A turn under way goes on (its seat and actions, corrected where said); a phase entered from
    one without turns begins its first turn: the youngest's pre-bomb, the starter's post-bomb."""
    going_on = state.phase in TURNS
    turn = state.turn if going_on else ""
    actions = changes.get("actions", state.actions if going_on else 0)
    if phase == PRE:  # nothing is revealed before the bomb, and nobody starts post-bomb yet
        turn = changes.get("turn", turn or state.players[0])
        return replace(state, phase=PRE, turn=turn, actions=actions, starter=None, asked=(), below=None,
                       revealed=())
    turn = changes.get("turn", turn or state.starter or state.players[0])
    starter = changes.get("starter", state.starter or turn)  # pre-bomb's turn goes on as post-bomb's first
    return replace(state, phase=POST, turn=turn, actions=actions, starter=starter, asked=(), below=None)


def _sheets(state: State, changes: Mapping[str, object]) -> State:
    """The revealed sheets with their lines so: every breakdown and the winners worked out again."""
    sheets = dict(state.sheets)
    for key, number in changes.items():
        _, seat, line_ = key.split(".")
        sheets[seat] = replace(sheets[seat], entries={**sheets[seat].entries, line_: number})
    touched = {key.split(".")[1] for key in changes}
    for seat in (seat for seat in state.players if seat in touched):
        entries = sheets[seat].entries
        for kind, points in POINTS_OF.items():
            if entries.get(kind, 0) == 0 and entries.get(points, 0) != 0:
                raise IllegalAction("zg.refuse.edit.points_without_discs", colour=seat, kind=kind)
    state = replace(state, sheets=sheets)
    scores, winners = results(state)
    return replace(state, scores=scores, winners=winners)
