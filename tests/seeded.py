"""The table's cup with dice and picks from a seeded generator: the same game on every run, each roll with its
commitment as the real cup makes it."""

from __future__ import annotations

import random
import secrets

from companion.cup import DiceCup, Roll, commit


class SeededCup(DiceCup):
    """`nonces_seeded`: the nonces too come from the seed (then they shift the dice that follow: each test keeps
    the games its seed gives)."""

    def __init__(self, seed: int, nonces_seeded: bool = True) -> None:
        super().__init__()
        self.rng = random.Random(seed)
        self.nonces_seeded = nonces_seeded

    def roll(self, count: int, visible_to=()) -> Roll:
        dice = tuple(self.rng.randint(1, 6) for _ in range(count))
        nonce = f"{self.rng.getrandbits(128):032x}" if self.nonces_seeded else secrets.token_hex(16)
        return Roll(dice, nonce, commit(dice, nonce), tuple(visible_to))

    def pick(self, n: int) -> int:
        return self.rng.randrange(n)
