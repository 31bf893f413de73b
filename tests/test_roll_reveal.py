"""A roll is revealed the moment the rules reveal it (issue 29): a roll of a round the table has left is on the
table for every phone's fairness check, even when the event that revealed it also ended the round."""

from __future__ import annotations

import random

import pytest
from seeded import SeededCup

from companion.games import GAMES
from companion.simulate import random_answer
from companion.table import Table

COLOURS = GAMES["mall-of-horror"].SETUP.colours


# Seeds whose games (3 to 6 players, chosen by the seed) end a round in the event that reveals its dice: sealed
# until the next round's reveal before the fix. Others beside them.
@pytest.mark.parametrize("seed", [84, 97, 268, 1, 2, 3])
def test_every_roll_of_a_round_gone_by_is_revealed(seed):
    rng = random.Random(seed)
    count = rng.choice([3, 4, 5, 6])
    table = Table(cup=SeededCup(seed))
    table.new_game("mall-of-horror", ["red", "yellow", "blue"] if count == 3 else list(COLOURS[:count]), {})
    rolled_in: list[int] = []  # the round each roll of the table was made in
    while not table.state.over:
        rolled_in += [table.state.round] * (len(table.rolls) - len(rolled_in))
        sealed = [n for n, (roll, made) in enumerate(zip(table.rolls, rolled_in, strict=True))
                  if made < table.state.round and not roll.revealed]
        assert not sealed, f"rolls {sealed} of an earlier round are still sealed in round {table.state.round}"
        seat = rng.choice(table.rules.prompt(table.state).seats)
        table.answer(random_answer(table.rules, table.state, seat, rng))
    assert all(roll.revealed for roll in table.rolls)
    assert all("dice" in roll for roll in table.view(None)["cup_rolls"])  # every phone can check them now
