"""Invariants of Mall of Horror over random legal games (random answers to every prompt, random dice)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.contract import BALLOT, CARDS, PICK
from companion.games import mall_of_horror as mall
from companion.games.mall_of_horror import engine
from companion.games.mall_of_horror.board import CAPACITY, DECK, DECK_SIZE, LOCATIONS
from companion.games.mall_of_horror.engine import PHASES
from companion.simulate import random_game

PLAYERS = {
    3: ["red", "yellow", "blue"],
    4: ["red", "blue", "yellow", "green"],
    5: ["red", "yellow", "blue", "green", "purple"],
    6: ["red", "yellow", "blue", "green", "purple", "black"],
}

table_options = st.fixed_dictionaries({
    "threats_carry_to_revote": st.booleans(),
    "second_tie_victim": st.sampled_from(["character", "colour"]),
    "end_timing": st.sampled_from(["immediate", "round_end"]),
})
slow = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def fold(players, options, events):
    state = mall.start(players, options)
    for event in events:
        state = mall.apply(state, event)
    return state


def every_state(players, options, events):
    """Every intermediate state of the game, automatic steps included."""
    state = mall.start(players, options)
    yield state
    for event in events:
        for step in engine.steps(engine.apply_one(state, event)):
            yield step
            state = step


# Every question is one of the kinds every device knows, at the step that asks it.
QUESTION_STEPS = {(PICK, "place"), (PICK, "chief"), (PICK, "secret"), (PICK, "gift"), (PICK, "move"),
                  (PICK, "sprint"), (PICK, "victim"), (BALLOT, "vote"), (CARDS, "window")}


def assert_sound(state) -> None:
    current = mall.prompt(state)
    if current is not None:
        assert (current.kind, current.step) in QUESTION_STEPS, (current.kind, current.step)
        assert current.secret == (current.step in ("vote", "secret"))
    assert all(n >= 0 for n in state.zombies), state.zombies
    assert all(n >= 0 for n in state.hands.values()), state.hands
    assert state.deck >= 0
    assert all(0 <= state.played[k] <= DECK[k] for k in DECK), state.played
    in_transit = 1 if state.step == "gift" else 0  # the truck searcher still holds the card he gives
    assert state.deck + sum(state.hands.values()) + sum(state.played.values()) + in_transit == DECK_SIZE
    for loc in LOCATIONS:
        present = len(state.at(loc))
        if CAPACITY[loc] is not None:
            assert present <= CAPACITY[loc], f"{present} characters in location {loc}"
        if loc in state.closed:
            assert present == 0 and state.zombies[loc - 1] == 0


@pytest.mark.parametrize("count", [3, 4, 5, 6])
@given(seed=st.integers(0, 2**32 - 1), options=table_options, close=st.sampled_from([0.0, 0.2]))
@slow
def test_random_games_end_and_stay_sound(count, seed, options, close):
    events, final = random_game(mall, PLAYERS[count], random.Random(seed), options, close_chance=close)
    assert final.over
    assert final.winners and set(final.winners) <= set(PLAYERS[count])
    for state in every_state(PLAYERS[count], options, events):
        assert_sound(state)


@given(seed=st.integers(0, 2**32 - 1), count=st.sampled_from([3, 4, 5, 6]), options=table_options)
@slow
def test_the_same_events_always_fold_to_the_same_state(seed, count, options):
    events, final = random_game(mall, PLAYERS[count], random.Random(seed), options)
    once, twice = fold(PLAYERS[count], options, events), fold(PLAYERS[count], options, events)
    assert once == twice == final
    assert mall.record(once) == mall.record(final)


@given(seed=st.integers(0, 2**32 - 1), count=st.sampled_from([3, 4, 5, 6]), options=table_options)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_record_at_the_start_of_a_phase_fed_back_as_a_position_continues_the_same_game(seed, count, options):
    players = PLAYERS[count]
    events, final = random_game(mall, players, random.Random(seed), options)
    expected = mall.record(final)
    state = mall.start(players, options)
    checked = 0
    for i, event in enumerate(events):
        for step in engine.steps(engine.apply_one(state, event)):
            if step.step == "start" and step.phase in PHASES:
                resumed = mall.start(players, options, mall.position_of(step))
                for later in events[i + 1:]:
                    resumed = mall.apply(resumed, later)
                assert mall.record(resumed) == expected, f"from {step.phase} of round {step.round}"
                checked += 1
            state = step
    assert checked >= 6  # at least one round's phases were fed back


def test_more_than_thirty_zombies_is_a_warning_never_a_crash():
    state = mall.start(PLAYERS[4], None, {
        "phase": "arrival", "chief": "red",
        "characters": {"red": {"pinup": 1, "tough": 3, "gunman": 5}, "blue": {"pinup": 3, "tough": 6},
                       "yellow": {"pinup": 6}},
        "zombies": {"1": 12, "3": 12, "5": 9, "6": 2},
    })
    assert mall.cup_request(state).kind == "roll"
    record = mall.record(state)
    assert sum(record["zombies"].values()) > 30
    assert record["warnings"][0]["params"]["figures"] == 30
