"""Zombiegeddon's board as parts (companion/board.py): the phase, the seats in turn order (whose turn it is with
his actions, who has entered his largest zombie disc or handed in his score sheet, never what), whose turn it is
big with his two actions as pips, the revealed largest discs and who starts post-bomb, the turn order and the
scoring legend; a seat's own entries as its secrets; every sheet's breakdown at the end."""

from __future__ import annotations

from companion.board import (
    ARROW,
    SEP,
    Board,
    Chip,
    Focus,
    Heading,
    Label,
    Lines,
    Pips,
    ScoreRow,
    Scores,
    SeatPanel,
    Seats,
    Secret,
)
from companion.contract import msg

from . import rules
from .rules import LARGEST, OVER, POST, PRE, SCORING_KINDS, SET_BONUS, SET_BONUS_OPTION, SHEET, State, score


def parts(state: State) -> Board:
    phase = state.phase
    order = state.order or state.players
    main = [Heading((msg(f"zg.phase.{phase}"),)), Seats(tuple(_seat(state, seat) for seat in order)),
            Focus(_focus(state)), Lines(_legend(state, order), tone="hint")]
    return Board(main=tuple(main), revealed=_revealed(state), over=_over(state) if phase == OVER else (),
                 title=msg("zg.title"))


def _seat(state: State, seat: str) -> SeatPanel:
    phase = state.phase
    if phase in (PRE, POST):
        if state.turn != seat:
            return SeatPanel(seat, ((),))
        return SeatPanel(seat, ((msg("zg.board.actions", count=state.actions, most=rules.ACTIONS_PER_TURN),),),
                         lit=True, tone="act")
    if phase == LARGEST:
        if seat not in state.asked:
            return SeatPanel(seat, ((),))
        if seat in state.entries:
            return SeatPanel(seat, ((msg("zg.board.entered"),),), tone="good")
        return SeatPanel(seat, ((msg("zg.board.waiting"),),), lit=True)
    if phase == SHEET:
        if state.sheets[seat].ready:  # handed in: its owner may still correct it, behind the cover
            return SeatPanel(seat, ((msg("zg.board.handed_in"),),), tone="good", answer=msg("zg.board.correct"))
        return SeatPanel(seat, ((msg("zg.board.filling"),),), lit=True)
    won = seat in state.winners
    total = (state.scores.get(seat) or {}).get("total", 0)
    line = (msg("zg.board.score", total=total), *((SEP, msg("zg.board.winner")) if won else ()))
    return SeatPanel(seat, (line,), lit=won, tone="winner" if won else None)


def _focus(state: State) -> tuple:
    phase = state.phase
    if phase in (PRE, POST):
        if not state.turn:
            return ()
        return ((msg("zg.board.turn", colour=state.turn),), (Pips(state.actions, rules.ACTIONS_PER_TURN),),
                (msg("zg.board.actions", count=state.actions, most=rules.ACTIONS_PER_TURN),))
    if phase == LARGEST:
        title = msg("zg.q.largest") if state.below is None else msg("zg.q.next_largest", number=state.below)
        return ((title,), *(_entries(shown) for shown in state.revealed))
    if phase == SHEET:
        return ((msg("zg.q.sheets"),), *(_entries(shown) for shown in state.revealed))
    return ((msg("zg.phase.over"),),)


def _entries(shown) -> tuple:
    """A reveal of the largest zombie discs: each seat and the number he entered."""
    bits: list = [Label(msg("zg.board.largest"))]
    for k, (seat, number) in enumerate(shown.items()):
        bits += [*((SEP,) if k else ()), Chip(seat), number]
    return tuple(bits)


def _legend(state: State, order) -> tuple:
    turns: list = [Label(msg("zg.board.order"))]
    for k, seat in enumerate(order):
        turns += [*((ARROW,) if k else ()), Chip(seat)]
    lines = [tuple(turns)]
    if state.starter:
        lines.append((msg("zg.board.starter", colour=state.starter),))
    lines.append(_scoring(state))
    return tuple(lines)


def _scoring(state: State) -> tuple:
    """What a disc scores at this table: printed values, and the set bonus by count where the table plays it."""
    if state.options[SET_BONUS_OPTION] != SCORING_KINDS:
        return (msg("zg.board.legend.printed_only"),)
    steps: list = [msg("zg.board.legend")]
    for count in range(1, len(SET_BONUS)):
        last = count == len(SET_BONUS) - 1
        steps += [SEP, msg("zg.board.bonus_last" if last else "zg.board.bonus_step", count=count,
                           bonus=SET_BONUS[count])]
    return tuple(steps)


def _revealed(state: State) -> tuple:
    """The last reveal of the largest zombie discs, while the game stands where it was made."""
    if not state.revealed or state.phase == OVER:
        return ()
    lines = [_entries(state.revealed[-1])[1:]]
    if state.starter:
        lines.append((msg("zg.board.starter", colour=state.starter),))
    return (Lines(tuple(lines), title=msg("zg.board.largest")),)


def _over(state: State) -> tuple:
    columns = (*(msg(f"zg.board.col.{kind}") for kind in rules.KINDS), msg("zg.board.col.tokens"),
               msg("zg.board.col.total"))
    ranked = sorted(state.players, key=lambda p: -((state.scores.get(p) or {}).get("total", 0)))
    rows = []
    for seat in ranked:
        s = state.scores.get(seat) or {}
        cells = [(msg("zg.board.cell", count=s.get(kind, 0), points=s.get(f"{kind}_points", 0),
                      bonus=s.get(f"{kind}_bonus", 0)),) for kind in rules.KINDS]
        cells.append((msg("zg.board.tokens_cell", count=s.get("tokens", 0), points=s.get("token_points", 0)),))
        cells.append((msg("zg.board.score", total=s.get("total", 0)),))
        rows.append(ScoreRow(seat, tuple(cells), seat in state.winners))
    return (Scores(msg("zg.phase.over"), columns, tuple(rows), footer=_scoring(state)),)


def secrets(state: State, seat: str) -> tuple[Secret, ...]:
    """A seat's own entries: his largest zombie disc, his score sheet so far."""
    out = []
    if seat in state.entries:
        mine = msg("zg.board.my_largest", number=state.entries[seat])
        out.append(Secret(msg("zg.board.my_largest_what"), ((mine,),)))
    if state.phase == SHEET and seat in state.sheets:
        s = score(state.sheets[seat].entries, state.options[SET_BONUS_OPTION])
        lines = [(msg("zg.board.sheet_line", kind=kind, count=s.get(kind, 0), points=s.get(f"{kind}_points", 0),
                      bonus=s.get(f"{kind}_bonus", 0)),) for kind in rules.KINDS]
        lines.append((msg("zg.board.sheet_tokens", count=s.get("tokens", 0), points=s.get("token_points", 0)),))
        lines.append((msg("zg.board.sheet_total", total=s.get("total", 0)),))
        out.append(Secret(msg("zg.board.my_sheet"), tuple(lines)))
    return tuple(out)
