"""What each seat may see: the public board, plus that seat's own secrets. The only way state leaves the table.

Before the reveal, a ballot is seen only by its voter (others see only that he has voted), a secret destination
only by its player, and the zombie dice only by the seats allowed to look (the elected Chief, Security Camera
players). The public view (seat None) holds no secret at all.
"""

from __future__ import annotations

from companion.contract import msg

from .board import BOARD_ZOMBIES, LOCATIONS
from .prompts import cup_request
from .state import Phase, State, Step, Vote, remembered

REVEALED_PHASES = (Phase.MOVE, Phase.ATTACK, Phase.OVER)  # the zombie dice and destinations are on the table


def view(state: State, seat: str | None = None) -> dict:
    """The view of `seat` (None: the public view, for the table screen and spectators)."""
    out = dict(_public(state))  # a copy to add this seat's own fields to (the nested values are shared)
    if seat is None:
        return out
    out["seat"] = seat
    if state.vote is not None and seat in state.vote.ballot.ballots:
        out["ballot"] = state.vote.ballot.ballots[seat]
    if seat in state.destinations and "destinations" not in out:
        out["destination"] = state.destinations[seat]
    if state.cup is not None and seat in state.lookers and state.phase not in REVEALED_PHASES:
        out["cup_seen"] = list(state.cup)
    return out


def board(state: State) -> dict:
    """The public facts of the board, in the one shape every view and the table's record share."""
    out: dict = {
        "round": state.round,
        "phase": state.phase,
        "chief": state.chief,
        "elected": state.elected,
        "characters": {p: {c.kind: c.location for c in state.of(p) if c.location} for p in state.players},
        "hidden": {p: [c.kind for c in state.of(p) if c.hidden] for p in state.players},
        "zombies": {str(loc): state.zombies[loc - 1] for loc in LOCATIONS},
        "closed": sorted(state.closed),
        "hands": dict(state.hands),
        "deck": state.deck,
        "over": state.over,
        "scores": {p: state.score(p) for p in state.players},
        "winners": list(state.winners),
    }
    if state.phase == Phase.PLACEMENT:
        out["unplaced"] = {p: [c.kind for c in state.of(p) if not c.location] for p in state.players}
    on_board = sum(state.zombies)
    if on_board > BOARD_ZOMBIES:
        out["warnings"] = [msg("mall.warning.figures", count=on_board, figures=BOARD_ZOMBIES).to_json()]
    return out


@remembered  # a table asks for the view of every seat, and the board's parts, of one state in a row
def _public(state: State) -> dict:
    out: dict = {"players": list(state.players), **board(state)}
    request = cup_request(state)
    if request is not None:
        out["rolling"] = {"kind": request.kind, "count": request.count, "public": request.public}
    if state.phase == Phase.PLACEMENT and state.dice:
        out["dice"] = list(state.dice)
    if state.vote is not None:
        out["vote"] = _vote(state.vote, with_ballots=False)
    if state.revealed is not None:
        out["revealed"] = _vote(state.revealed, with_ballots=True)
    if state.phase in REVEALED_PHASES:
        if state.cup is not None:
            out["cup"] = list(state.cup)
        if state.destinations:
            out["destinations"] = dict(state.destinations)
    else:
        if state.step == Step.SECRET:
            out["chosen"] = [p for p in state.players if p in state.destinations]
        if state.elected and state.chief in state.destinations:
            out["chief_destination"] = state.destinations[state.chief]
        if state.cup is not None:
            out["cup_rolled"] = True
    if state.window is not None:
        out["window"] = {"kind": state.window.kind, "location": state.window.location, "seat": state.window.seat}
    if state.phase == Phase.ATTACK:
        out["location"] = state.location
    if state.victim_colour:
        out["victim_colour"] = state.victim_colour
    if state.searcher:
        out["searcher"] = state.searcher
    return out


def _vote(vote: Vote, with_ballots: bool) -> dict:
    out = {
        "purpose": vote.purpose,
        "round": vote.round,
        "location": vote.location,
        "stage": vote.stage,
        "candidates": list(vote.ballot.candidates),
        "weights": dict(vote.ballot.weights),
        "voted": [v for v in vote.ballot.weights if v in vote.ballot.ballots],
    }
    if with_ballots:
        out["ballots"] = dict(vote.ballot.ballots)
        out["tally"] = vote.ballot.tally()
        out["leaders"] = list(vote.ballot.leaders())
    return out
