"""A simultaneous secret ballot with weighted votes, independent of any game.

Voters cast (and may change) one ballot each until the reveal; the reveal tallies the weights and names the
leaders. What a tie means is the game's business: the ballot only says who is tied.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


class BallotError(ValueError):
    """A ballot that cannot be accepted; the message says why, for the voter."""


@dataclass(frozen=True)
class Ballot:
    candidates: tuple[str, ...]
    weights: Mapping[str, int]  # voter -> number of votes
    ballots: Mapping[str, str] = field(default_factory=dict)  # voter -> candidate, secret until the reveal

    def cast(self, voter: str, candidate: str) -> Ballot:
        if voter not in self.weights:
            raise BallotError(f"{voter.title()} does not vote in this ballot")
        if candidate not in self.candidates:
            names = ", ".join(c.title() for c in self.candidates)
            raise BallotError(f"{candidate.title()} is not a candidate; vote for one of {names}")
        return Ballot(self.candidates, self.weights, {**self.ballots, voter: candidate})

    @property
    def missing(self) -> tuple[str, ...]:
        """Voters who have not voted yet, in the order they were listed."""
        return tuple(v for v in self.weights if v not in self.ballots)

    @property
    def complete(self) -> bool:
        return not self.missing

    def tally(self) -> dict[str, int]:
        """Weighted votes per candidate; voters who did not vote abstain."""
        votes = dict.fromkeys(self.candidates, 0)
        for voter, candidate in self.ballots.items():
            votes[candidate] += self.weights[voter]
        return votes

    def leaders(self) -> tuple[str, ...]:
        """The candidates with the most votes, in candidate order: one is a winner, more is a tie."""
        votes = self.tally()
        top = max(votes.values())
        return tuple(c for c in self.candidates if votes[c] == top)
