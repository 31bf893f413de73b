"""District-Z's statistics (issue 28): each player's zombies killed, deaths and objective cards found.

Random whole games are checked against the states the game went through (zombie tokens leaving the city on a
player's turn, objective cards turned up from the face-down city on his turn) and against the final survivors
(each death brings a new survivor card, or puts the player out); the statistics read the narration. Then a game
played by hand.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from test_district_z import Play

from companion.catalogue import LANGUAGES, catalogue
from companion.contract import msg
from companion.games import district_z as dz
from companion.simulate import random_game

SEATS = ["red", "yellow", "blue", "green"]
OPTIONS = [None, {"grid": "4x4", "box_dice": True}, {"play_on": True, "face_up_event": "skip"}]
GAMES = [(count, seed, options) for count in (1, 2, 3, 4) for seed in range(5) for options in OPTIONS]
KILLED, DEATHS, FOUND = "dz.stat.zombies_killed", "dz.stat.deaths", "dz.stat.objectives_found"


def check_shape(figures: dict, players) -> None:
    """Every seat has every key of STATS, each a whole number, none below 0."""
    assert list(figures) == list(players)
    for seat in players:
        assert list(figures[seat]) == list(dz.STATS), seat
        assert all(type(n) is int and n >= 0 for n in figures[seat].values()), figures[seat]


def zombies_in_the_city(state) -> int:
    return sum(cell.zombies for cell in state.cells)


def test_stats_are_kills_deaths_and_objectives_found_each_a_label_in_the_four_languages():
    assert list(dz.STATS) == [KILLED, DEATHS, FOUND]
    books = catalogue()
    for key in dz.STATS:
        for lang in LANGUAGES:
            assert books.has(key, lang), f"{key} has no label in {lang}"
    assert books.text(msg(KILLED)) == "Zombies killed" and books.text(msg(FOUND), "zh-Hans") == "找到的地区目标卡"


@pytest.mark.parametrize(("count", "seed", "options"), GAMES)
def test_random_games_count_the_kills_deaths_and_objectives_found_as_the_states_show_them(count, seed, options):
    players = SEATS[:count]
    events, final = random_game(dz, players, random.Random(seed), options)
    killed, found = Counter(), Counter()
    state = dz.start(players, options)
    for event in events:
        after = dz.apply(state, event)
        gone = zombies_in_the_city(state) - zombies_in_the_city(after)
        if gone > 0:  # tokens leave the city only when the turn's survivor kills them
            killed[state.seat] += gone
        found[state.seat] += state.hidden_objectives - after.hidden_objectives
        state = after
    figures = dz.statistics(final)
    check_shape(figures, players)
    for seat in players:
        survivor = final.of(seat)
        died = survivor.number - 1 + survivor.out  # each death brings his next survivor card, or puts him out
        assert figures[seat] == {KILLED: killed[seat], DEATHS: died, FOUND: found[seat]}


def test_over_many_games_zombies_are_killed_survivors_die_and_objectives_are_found():
    """The figures above are not all zeros."""
    totals: Counter = Counter()
    for count, seed, options in GAMES:
        _, final = random_game(dz, SEATS[:count], random.Random(seed), options)
        for figures in dz.statistics(final).values():
            totals.update(figures)
    assert all(totals[key] > 0 for key in dz.STATS), totals


# -- a game played by hand ---------------------------------------------------------------------------------------


def test_a_game_played_by_hand_counts_each_kill_each_death_and_each_objective_card_found():
    game = Play(("red", "blue")).answer(corner="nw").answer(corner="se").survivor(2, 4).answer(found="district")
    check_shape(dz.statistics(game.state), ["red", "blue"])
    assert all(n == 0 for figures in dz.statistics(game.state).values() for n in figures.values())
    # Red turns up an objective card, then meets 2 zombies: the suggested pairing kills both.
    game.answer(move="e").answer(found="objective").pick(1)
    game.roll(5).answer(outcome="zombies").answer(zombies=2).roll(6, 6).roll(1, 1)
    game.answer(pairs={"r1": "b1", "r2": "b2"})
    assert dz.statistics(game.state) == {"red": {KILLED: 2, DEATHS: 0, FOUND: 1},
                                         "blue": {KILLED: 0, DEATHS: 0, FOUND: 0}}
    # Blue (health 1) pairs his own way: 1 killed and 1 damage; the next round's 1 damage more kills him.
    game.survivor(2, 1).answer(found="district").answer(move="n").answer(found="district")
    game.roll(5).answer(outcome="zombies").answer(zombies=2).roll(6, 2).roll(1, 1)
    game.answer(pairs={"r1": "b1", "r2": "none"})
    game.roll(1, 1).roll(5).answer(pairs={"r1": "b1", "r2": "none"})
    assert "dz.n.respawn" in game.keys()
    assert dz.statistics(game.state) == {"red": {KILLED: 2, DEATHS: 0, FOUND: 1},
                                         "blue": {KILLED: 1, DEATHS: 1, FOUND: 0}}
    # Red, holding his objective card, turns up a second one: found too, though it stays where it lies.
    game.answer(move="s").answer(found="objective")
    assert "dz.n.objective_left" in game.keys()
    assert dz.statistics(game.state)["red"] == {KILLED: 2, DEATHS: 0, FOUND: 2}
