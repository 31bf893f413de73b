"""What District-Z counts across evenings (the contract's STATS and `statistics`): each player's zombies killed,
his survivors' deaths, and the objective cards he found.

All three are read from the narration: each combat round's pairing says the zombies its survivor killed
("dz.n.paired", "dz.n.paired_own"), each death says whose survivor died ("dz.n.death"), and each district turned up
as an objective card says who found it, whether he took it or, holding one already, left it there
("dz.n.objective", "dz.n.objective_left"). An objective picked up or taken in a fight is not found again.
"""

from __future__ import annotations

from .state import State

ZOMBIES_KILLED = "dz.stat.zombies_killed"
DEATHS = "dz.stat.deaths"
OBJECTIVES_FOUND = "dz.stat.objectives_found"
STATS = (ZOMBIES_KILLED, DEATHS, OBJECTIVES_FOUND)

PAIRINGS = frozenset({"dz.n.paired", "dz.n.paired_own"})
FOUND = frozenset({"dz.n.objective", "dz.n.objective_left"})


def statistics(state: State) -> dict[str, dict[str, int]]:
    """Each seat's zombies killed, deaths and objectives found, every key for every seat."""
    out = {seat: dict.fromkeys(STATS, 0) for seat in state.players}
    for said in state.narration:
        key, params = said.message.key, said.message.params
        seat = params.get("colour")
        if seat not in out:
            continue
        if key in PAIRINGS:
            out[seat][ZOMBIES_KILLED] += int(params["kills"])
        elif key == "dz.n.death":
            out[seat][DEATHS] += 1
        elif key in FOUND:
            out[seat][OBJECTIVES_FOUND] += 1
    return out


__all__ = ["DEATHS", "OBJECTIVES_FOUND", "STATS", "ZOMBIES_KILLED", "statistics"]
