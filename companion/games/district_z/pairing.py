"""The pairing of a combat round: each red die against at most one black die.

A red die higher than its black die kills a zombie, a lower one takes 1 damage, an equal one does nothing; every
black die left unpaired deals 1 damage. The best pairing has the most kills, then the least damage.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

Pairing = Mapping[int, int | None]  # red die index -> black die index (None: unpaired)


def outcome(red: Sequence[int], black: Sequence[int], pairing: Pairing) -> tuple[int, int]:
    """(kills, damage) of a pairing; ValueError if two red dice share a black die or an index is off."""
    used = [b for b in pairing.values() if b is not None]
    if len(set(used)) != len(used) or set(pairing) != set(range(len(red))) \
            or any(not 0 <= b < len(black) for b in used):
        raise ValueError("not a pairing")
    kills = sum(1 for r, b in pairing.items() if b is not None and red[r] > black[b])
    held = sum(1 for r, b in pairing.items() if b is not None and red[r] >= black[b])
    return kills, len(black) - held


def best_pairing(red: Sequence[int], black: Sequence[int]) -> dict[int, int | None]:
    """The pairing with the most kills, then the least damage (a dynamic programme over the black dice used).

    Damage is the black dice not held (held: paired with a red die at least as high), so the best pairing
    maximises kills × (blacks + 1) + held: one kill more outweighs every hold.
    """
    red, black = tuple(red), tuple(black)
    weight = len(black) + 1

    @cache
    def best(i: int, used: int) -> tuple[int, tuple[int | None, ...]]:
        if i == len(red):
            return 0, ()
        score, rest = best(i + 1, used)
        top = (score, (None, *rest))
        for b, value in enumerate(black):
            if used & (1 << b):
                continue
            gain = (weight + 1 if red[i] > value else 1 if red[i] == value else 0)
            if gain == 0:
                continue  # a lower red die paired only adds damage taken... never better than unpaired
            score, rest = best(i + 1, used | (1 << b))
            if score + gain > top[0]:
                top = (score + gain, (b, *rest))
        return top

    return dict(enumerate(best(0, 0)[1]))
