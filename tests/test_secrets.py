"""No seat ever sees another seat's ballot before the reveal, nor dice it may not see; the public view holds
neither. Checked on every view every seat receives during whole random games played through the Table.

The check is by non-interference: change a secret the seat may not know (another voter's ballot, another
player's secret destination, the zombie dice) and the seat's view must not change at all.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from companion.ballot import Ballot
from companion.cup import DiceCup
from companion.games import mall_of_horror as mall
from companion.games.mall_of_horror.state import evolve
from companion.games.mall_of_horror.view import REVEALED_PHASES
from companion.store import EventStore
from companion.table import Table

PLAYERS = {4: ["red", "blue", "yellow", "green"], 5: ["red", "yellow", "blue", "green", "purple"],
           6: ["red", "yellow", "blue", "green", "purple", "black"], 3: ["red", "yellow", "blue"]}


def other_ballots(state, seat):
    """The state with every other voter's ballot changed to another candidate."""
    vote = state.vote
    ballots = {}
    for voter, choice in vote.ballot.ballots.items():
        others = [c for c in vote.ballot.candidates if c != choice]
        ballots[voter] = choice if voter == seat else others[0]
    return evolve(state, vote=replace(vote, ballot=Ballot(vote.ballot.candidates, vote.ballot.weights, ballots)))


def other_destinations(state, seat):
    changed = {}
    for player, loc in state.destinations.items():
        if player == seat or (state.elected and player == state.chief):
            changed[player] = loc  # his own, or the elected Chief's public choice
        else:
            changed[player] = next(o for o in range(1, 7) if o != loc and state.is_open(o))
    return evolve(state, destinations=changed)


def other_dice(state):
    return evolve(state, cup=tuple(7 - d for d in state.cup))


def seen(state, seat):
    """All the rules tell `seat` about a state: its view, the open question (public part) and its own question."""
    prompt = mall.prompt(state)
    question = mall.question(state, seat) if seat is not None and not state.over else None
    return (mall.view(state, seat), prompt.public_json() if prompt else None,
            question.to_json() if question else None)


def assert_keeps_secrets(state, seat):
    told = seen(state, seat)
    if state.vote is not None and any(v != seat for v in state.vote.ballot.ballots):
        assert seen(other_ballots(state, seat), seat) == told, "a ballot leaked"
    if state.phase not in REVEALED_PHASES and any(p != seat for p in state.destinations):
        assert seen(other_destinations(state, seat), seat) == told, "a secret destination leaked"
    if state.cup is not None and state.phase not in REVEALED_PHASES and (seat is None or seat not in state.lookers):
        assert seen(other_dice(state), seat) == told, "the dice leaked"


def play_and_watch(store, players, seed):
    rng = random.Random(seed)
    table = Table(store, DiceCup())
    received = {seat: [] for seat in [*players, None]}

    def deliver():
        for seat in received:
            received[seat].append((table.state, table.view(seat)))

    table.subscribe(deliver)
    table.new_game("mall-of-horror", players, {"second_tie_victim": rng.choice(["character", "colour"])})
    while not table.state.over:
        prompt = mall.prompt(table.state)
        if prompt.kind == "ballot" and rng.random() < 0.1:
            table.close_ballot()
            continue
        seat = rng.choice(prompt.seats)
        table.answer(rng.choice(prompt.options[seat]))
        if table.can_undo and rng.random() < 0.1:
            table.undo()
    return received


@pytest.mark.parametrize("count,seed", [(3, 1), (4, 2), (4, 3), (5, 4), (6, 5), (6, 6)])
def test_no_seat_sees_another_seats_ballot_or_dice_it_may_not_see(tmp_path, count, seed):
    players = PLAYERS[count]
    with EventStore(tmp_path / "leak.sqlite3") as store:
        received = play_and_watch(store, players, seed)
    checked = 0
    for seat, deliveries in received.items():
        for state, view in deliveries:
            assert_keeps_secrets(state, seat)
            if seat is None:
                assert "ballot" not in view and "cup_seen" not in view and "destination" not in view
                assert "question" not in view
            elif view["question"] is not None:  # a seat is asked only its own question
                assert view["question"]["seat"] == seat
                assert view["question"]["id"] == view["prompt"]["id"]
            for roll in view["cup_rolls"]:
                if "dice" in roll:
                    continue
                assert set(roll) == {"commitment", "count"}
            checked += 1
    assert checked > 100


def test_the_public_view_never_holds_a_ballot_or_secret_dice(tmp_path):
    players = PLAYERS[5]
    with EventStore(tmp_path / "leak.sqlite3") as store:
        received = play_and_watch(store, players, 11)
    for state, view in received[None]:
        text = json.dumps(view)
        assert '"ballot":' not in text and '"cup_seen":' not in text
        if state.vote is not None:
            assert "ballots" not in view["vote"]
        if state.cup is not None and state.phase not in REVEALED_PHASES:
            assert "cup" not in view


def test_a_resumed_log_keeps_the_same_secrets(tmp_path):
    players = PLAYERS[4]
    path = tmp_path / "resume.sqlite3"
    with EventStore(path) as store:
        table = Table(store, DiceCup(scripted=[(1, 2, 3, 4)]))
        table.new_game("mall-of-horror", players, position={
            "round": 1, "phase": "arrival", "chief": "red", "elected": True,
            "characters": {"red": {"pinup": 1, "tough": 3, "gunman": 5}, "blue": {"pinup": 3, "tough": 6},
                           "yellow": {"pinup": 6, "tough": 1}, "green": {"pinup": 4, "gunman": 4}},
            "hands": {"red": 0, "blue": 0, "yellow": 0, "green": 0}, "deck": 17,
        })
        before = {seat: table.view(seat) for seat in [*players, None]}
    with EventStore(path) as store:
        resumed = Table(store)
        resumed.resume()
        after = {seat: resumed.view(seat) for seat in [*players, None]}
    assert after == before
    assert after["red"].get("cup_seen") and all("cup_seen" not in after[s] for s in ["blue", "yellow", "green", None])
