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
    """The pairing with the most kills, then the least damage, for any number of dice.

    Damage is the black dice not held (held: paired with a red die at least as high), so the best pairing
    maximises kills × (blacks + 1) + held. Going up the die values, the black dice of lower values left unpaired
    are alike for every red die still to come (each kills any of them), so a programme over (value, how many
    such dice are left) is exact: at each value, how many red dice tie a black die of that value and how many
    kill a lower one.
    """
    red, black = tuple(red), tuple(black)
    weight = len(black) + 1
    values = sorted(set(red) | set(black))
    reds = [sum(1 for r in red if r == v) for v in values]
    blacks = [sum(1 for b in black if b == v) for v in values]

    @cache
    def best(i: int, pool: int) -> tuple[int, tuple[tuple[int, int], ...]]:
        if i == len(values):
            return 0, ()
        top: tuple[int, tuple[tuple[int, int], ...]] = (-1, ())
        for ties in range(min(reds[i], blacks[i]) + 1):
            for kills in range(min(reds[i] - ties, pool) + 1):
                score, rest = best(i + 1, pool - kills + blacks[i] - ties)
                score += kills * (weight + 1) + ties
                if score > top[0]:
                    top = (score, ((ties, kills), *rest))
        return top

    plan = best(0, 0)[1]
    pairing: dict[int, int | None] = {r: None for r in range(len(red))}
    pool: list[int] = []  # black dice of lower values, unpaired so far
    for v, (ties, kills) in zip(values, plan, strict=True):
        here_red = [r for r, value in enumerate(red) if value == v]
        here_black = [b for b, value in enumerate(black) if value == v]
        for r, b in zip(here_red[:ties], here_black[:ties], strict=True):
            pairing[r] = b
        for r in here_red[ties:ties + kills]:
            pairing[r] = pool.pop()
        pool += here_black[ties:]
    return pairing
