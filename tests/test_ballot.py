"""The secret weighted ballot (companion/ballot.py), game-independent: one test per rule."""

from __future__ import annotations

import pytest

from companion.ballot import Ballot, BallotError


def ballot(**weights: int) -> Ballot:
    """A ballot whose candidates are red and blue, with the given voters and weights."""
    return Ballot(("red", "blue"), weights)


def test_weighted_votes_are_tallied_per_candidate():
    votes = ballot(red=2, blue=1, yellow=1).cast("red", "blue").cast("blue", "red").cast("yellow", "blue")
    assert votes.tally() == {"red": 1, "blue": 3}


def test_the_candidate_with_most_votes_leads_alone():
    votes = ballot(red=2, blue=1).cast("red", "blue").cast("blue", "red")
    assert votes.leaders() == ("blue",)


def test_a_tie_names_every_tied_candidate_in_candidate_order():
    votes = Ballot(("red", "blue", "yellow"), {"red": 1, "blue": 1, "yellow": 1})
    votes = votes.cast("red", "yellow").cast("blue", "red").cast("yellow", "blue")
    assert votes.leaders() == ("red", "blue", "yellow")
    two = Ballot(("red", "blue", "yellow"), {"green": 2, "purple": 2})
    assert two.cast("green", "yellow").cast("purple", "red").leaders() == ("red", "yellow")


def test_voter_may_vote_for_himself():
    assert ballot(red=1, blue=1).cast("red", "red").cast("blue", "blue").tally() == {"red": 1, "blue": 1}


def test_voters_need_not_be_candidates():
    # A re-vote: the outsiders vote, but only for the tied colours.
    votes = ballot(red=1, blue=1, green=1).cast("green", "red")
    assert votes.tally()["red"] == 1


def test_vote_for_non_candidate_rejected_with_clear_message():
    with pytest.raises(BallotError, match="Yellow is not a candidate; vote for one of Red, Blue"):
        ballot(red=1, blue=1).cast("red", "yellow")


def test_rejected_voter_may_vote_again():
    votes = ballot(red=1, blue=1)
    with pytest.raises(BallotError):
        votes.cast("red", "yellow")
    assert votes.missing == ("red", "blue")
    assert votes.cast("red", "blue").ballots == {"red": "blue"}


def test_only_listed_voters_may_vote():
    with pytest.raises(BallotError, match="Green does not vote in this ballot"):
        ballot(red=1, blue=1).cast("green", "red")


def test_ballot_may_change_until_reveal():
    votes = ballot(red=2, blue=1).cast("red", "blue").cast("red", "red")
    assert votes.ballots == {"red": "red"}
    assert votes.cast("blue", "blue").tally() == {"red": 2, "blue": 1}


def test_missing_lists_voters_yet_to_vote_in_listed_order():
    votes = Ballot(("red", "blue"), {"red": 1, "blue": 1, "yellow": 1}).cast("blue", "red")
    assert votes.missing == ("red", "yellow")
    assert not votes.complete


def test_complete_when_every_voter_has_voted():
    assert ballot(red=1, blue=2).cast("blue", "red").cast("red", "red").complete


def test_missing_voter_abstains():
    # The table closed the vote before Blue (2 votes) answered: his weight counts for nobody.
    votes = ballot(red=1, blue=2).cast("red", "blue")
    assert votes.tally() == {"red": 0, "blue": 1}
    assert votes.leaders() == ("blue",)


def test_nobody_voted_every_candidate_ties():
    assert ballot(red=1, blue=1).leaders() == ("red", "blue")


def test_casting_leaves_the_earlier_ballot_unchanged():
    before = ballot(red=1, blue=1)
    after = before.cast("red", "blue")
    assert before.ballots == {} and before.missing == ("red", "blue")
    assert after.ballots == {"red": "blue"}
