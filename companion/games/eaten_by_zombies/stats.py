"""What Eaten by Zombies! counts across evenings (the contract's STATS and `statistics`): the zombies each player
defeated in the fights he won, and the runs he escaped from.

Both are read from the narration, which says every outcome: a fight won puts the field's zombies into the
winner's discard ("ebz.n.to_player", with their count), a run that succeeds says "ebz.n.result.escaped".
"""

from __future__ import annotations

from .state import State

ZOMBIES_DEFEATED = "ebz.stat.zombies_defeated"
ESCAPES = "ebz.stat.escapes"
STATS = (ZOMBIES_DEFEATED, ESCAPES)


def statistics(state: State) -> dict[str, dict[str, int]]:
    """Each seat's zombies defeated and escapes, every key for every seat."""
    out = {seat: dict.fromkeys(STATS, 0) for seat in state.players}
    for said in state.narration:
        key, params = said.message.key, said.message.params
        seat = params.get("colour")
        if seat not in out:
            continue
        if key == "ebz.n.to_player":
            out[seat][ZOMBIES_DEFEATED] += int(params["count"])
        elif key == "ebz.n.result.escaped":
            out[seat][ESCAPES] += 1
    return out


__all__ = ["ESCAPES", "STATS", "ZOMBIES_DEFEATED", "statistics"]
