"""What Zombiegeddon counts across evenings (the contract's STATS and `statistics`): each kind of points a score
sheet adds up, apart: per kind of disc that scores its printed numbers and its set bonus, and the supply tokens.

They are read from the revealed sheets (`State.scores`, each sheet's breakdown, as corrected by the table): before
the reveal every figure is 0. Their sum is the player's score.
"""

from __future__ import annotations

from .rules import KINDS, State

# The breakdown's line (rules.score) -> the catalogue key of its label; a kind the box adds gets its two lines.
PARTS = {**{part: f"zg.stat.{part}" for kind in KINDS for part in (f"{kind}_points", f"{kind}_bonus")},
         "token_points": "zg.stat.token_points"}
STATS = tuple(PARTS.values())


def statistics(state: State) -> dict[str, dict[str, int]]:
    """Each seat's points by kind (0 before the sheets are revealed), every key for every seat."""
    out = {seat: dict.fromkeys(STATS, 0) for seat in state.players}
    for seat, breakdown in state.scores.items():
        if seat in out:
            out[seat] = {key: int(breakdown.get(part, 0)) for part, key in PARTS.items()}
    return out


__all__ = ["PARTS", "STATS", "statistics"]
