"""What Mall of Horror counts across evenings (the contract's STATS and `statistics`): each player's characters
lost, kind by kind, and the rounds he led as Chief of Security.

A character lost is read from the board: each of a player's characters (board.characters_for) no longer among the
living, so a figure the table corrected off the board or back onto it counts as the board says. The round's Chief is
read from the narration: each Chief election ends in one line naming who holds the badge for the round (elected,
alone in Security HQ, or kept: nobody there, HQ fallen, a second tie).
"""

from __future__ import annotations

from .board import GIRL, GUNMAN, PINUP, TOUGH, characters_for
from .narration import lines
from .state import State

KINDS = (PINUP, TOUGH, GUNMAN, GIRL)  # the Little Girl plays only at 3 players: 0 lost in the other games
LOST = {kind: f"mall.stat.lost.{kind}" for kind in KINDS}
ROUNDS_CHIEF = "mall.stat.rounds_chief"
STATS = (*LOST.values(), ROUNDS_CHIEF)

# The lines that end a round's Chief election, each naming (`colour`) who is Chief for the round.
CHIEF_OF_THE_ROUND = frozenset({"mall.n.vote.won.chief", "mall.n.vote.alone.chief", "mall.n.chief.closed",
                                "mall.n.chief.empty", "mall.n.vote.tie2.chief"})


def statistics(state: State) -> dict[str, dict[str, int]]:
    """Each seat's characters lost by kind and rounds as Chief, every key for every seat."""
    out = {seat: dict.fromkeys(STATS, 0) for seat in state.players}
    dealt = characters_for(len(state.players))
    for seat in state.players:
        living = {c.kind for c in state.of(seat)}
        for kind in dealt:
            out[seat][LOST[kind]] = int(kind not in living)
    for said in lines(state):
        if said.message.key in CHIEF_OF_THE_ROUND:
            chief = said.message.params.get("colour")
            if chief in out:
                out[chief][ROUNDS_CHIEF] += 1
    return out


__all__ = ["KINDS", "LOST", "ROUNDS_CHIEF", "STATS", "statistics"]
