"""Eaten by Zombies!'s statistics (issue 28): each player's zombies defeated and escapes.

Random whole games are checked against the states the game went through (each new outcome of a fight or a run,
and the field it was against; the statistics read the narration), then a short game played by hand.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.catalogue import LANGUAGES, catalogue
from companion.contract import msg
from companion.games import eaten_by_zombies as ebz
from companion.simulate import random_game

SEATS = ["red", "yellow", "blue", "green"]
GAMES = [(count, seed, rounding) for count in (2, 3, 4) for seed in range(8) for rounding in ("down", "up")]
DEFEATED, ESCAPES = "ebz.stat.zombies_defeated", "ebz.stat.escapes"


def check_shape(figures: dict, players) -> None:
    """Every seat has every key of STATS, each a whole number, none below 0."""
    assert list(figures) == list(players)
    for seat in players:
        assert list(figures[seat]) == list(ebz.STATS), seat
        assert all(type(n) is int and n >= 0 for n in figures[seat].values()), figures[seat]


def outcomes(players: list[str], options: dict, events: list[dict]):
    """Each fight or run as the states show it: (its outcome, the zombies it was against)."""
    state = ebz.start(players, options)
    for event in events:
        after = ebz.apply(state, event)
        if after.last is not None and after.last is not state.last and after.last.budget is None:  # not a purchase
            yield after.last, state.field
        state = after


def test_stats_are_the_zombies_defeated_and_the_escapes_each_a_label_in_the_four_languages():
    assert list(ebz.STATS) == [DEFEATED, ESCAPES]
    books = catalogue()
    for key in ebz.STATS:
        for lang in LANGUAGES:
            assert books.has(key, lang), f"{key} has no label in {lang}"
    assert books.text(msg(DEFEATED)) == "Zombies defeated" and books.text(msg(ESCAPES), "vi") == "Lần chạy thoát"


@pytest.mark.parametrize(("count", "seed", "rounding"), GAMES)
def test_random_games_count_the_zombies_of_each_fight_won_and_each_run_escaped(count, seed, rounding):
    players, options = SEATS[:count], {"run_rounding": rounding}
    events, final = random_game(ebz, players, random.Random(seed), options)
    defeated, escapes = Counter(), Counter()
    for outcome, field in outcomes(players, options, events):
        if outcome.result == "won":
            defeated[outcome.seat] += len(field)
        elif outcome.result == "escaped":
            escapes[outcome.seat] += 1
    figures = ebz.statistics(final)
    check_shape(figures, players)
    assert figures == {seat: {DEFEATED: defeated[seat], ESCAPES: escapes[seat]} for seat in players}


def test_over_many_games_zombies_are_defeated_and_runs_escape():
    """The figures above are not all zeros."""
    totals: Counter = Counter()
    for count, seed, rounding in GAMES:
        _, final = random_game(ebz, SEATS[:count], random.Random(seed), {"run_rounding": rounding})
        for figures in ebz.statistics(final).values():
            totals.update(figures)
    assert totals[DEFEATED] > 0 and totals[ESCAPES] > 0, totals


# -- a game played by hand ---------------------------------------------------------------------------------------


def act(state, *actions: dict):
    for action in actions:
        state = ebz.apply(state, ebz.decide(state, action)[0])
    return state


def test_a_fight_won_counts_every_zombie_of_the_field_and_a_run_escaped_counts_once():
    state = ebz.start(["red", "yellow"])
    for _ in range(4):  # the market's four action kinds, from the cup
        state = ebz.apply(state, {"pick": 0})
    check_shape(ebz.statistics(state), ["red", "yellow"])
    assert all(n == 0 for figures in ebz.statistics(state).values() for n in figures.values())
    # Red flips a level 2 and fights it with 2: the zombie joins his deck.
    state = act(state, {"seat": "red", "level": 2}, {"seat": "red", "speed": 3}, {"seat": "red", "fight": True},
                {"seat": "red", "value": 2}, {"seat": "red", "bonus": 0}, {"seat": "red", "refilled": True})
    assert ebz.statistics(state) == {"red": {DEFEATED: 1, ESCAPES: 0}, "yellow": {DEFEATED: 0, ESCAPES: 0}}
    # Yellow flips a level 1 of speed 4, Red adds nothing, Yellow runs with 4: escaped, the zombie stays.
    state = act(state, {"seat": "yellow", "level": 1}, {"seat": "yellow", "speed": 4}, {"seat": "red", "pass": True},
                {"seat": "yellow", "run": True}, {"seat": "yellow", "value": 4}, {"seat": "yellow", "bonus": 0},
                {"seat": "yellow", "refilled": True})
    assert ebz.statistics(state) == {"red": {DEFEATED: 1, ESCAPES: 0}, "yellow": {DEFEATED: 0, ESCAPES: 1}}
    # Red flips a level 4 beside the one that waited: he fights both with 5 and defeats the two.
    assert state.active == "red" and len(state.field) == 1
    state = act(state, {"seat": "red", "level": 4}, {"seat": "red", "speed": 1})
    if state.step == "add":
        state = act(state, {"seat": "yellow", "pass": True})
    state = act(state, {"seat": "red", "fight": True}, {"seat": "red", "value": 5})
    assert ebz.statistics(state) == {"red": {DEFEATED: 3, ESCAPES: 0}, "yellow": {DEFEATED: 0, ESCAPES: 1}}


def test_a_fight_lost_and_a_run_failed_count_nothing():
    state = ebz.start(["red", "yellow"])
    for _ in range(4):
        state = ebz.apply(state, {"pick": 0})
    state = act(state, {"seat": "red", "level": 4}, {"seat": "red", "speed": 2}, {"seat": "red", "fight": True},
                {"seat": "red", "value": 3})
    assert state.last.result == "lost"
    while state.active == "red":  # he says which removed cards were zombies (none), refills
        state = act(state, ebz.prompt(state).options["red"][0])
    state = act(state, {"seat": "yellow", "level": 1}, {"seat": "yellow", "speed": 5})
    if state.step == "add":
        state = act(state, {"seat": "red", "pass": True})
    state = act(state, {"seat": "yellow", "run": True}, {"seat": "yellow", "value": 4})
    assert state.last.result == "failed"
    assert ebz.statistics(state) == {"red": {DEFEATED: 0, ESCAPES: 0}, "yellow": {DEFEATED: 0, ESCAPES: 0}}
