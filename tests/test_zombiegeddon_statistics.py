"""Zombiegeddon's statistics (issue 28): each kind of points a score sheet adds up, apart.

Random whole games are checked against each sheet's own lines, scored here the plain way (printed numbers, the
set bonus by count, 5 a supply token), against the narration's score line and against the score; then sheets
filled in by hand, under both set-bonus options.
"""

from __future__ import annotations

import random

import pytest

from companion.catalogue import LANGUAGES, catalogue
from companion.contract import msg
from companion.games import zombiegeddon as zg
from companion.simulate import random_game

SEATS = ["red", "yellow", "blue", "green"]
BONUS = {0: 0, 1: 1, 2: 3, 3: 6, 4: 10, 5: 15}  # the set bonus by count; 6 or more: 20
OPTIONS = [{"set_bonus": "scoring_kinds"}, {"set_bonus": "printed_only"},
           {"set_bonus": "scoring_kinds", "post_bomb_tie": "turn_order"}]
GAMES = [(count, seed, options) for count in (2, 3, 4) for seed in range(5) for options in OPTIONS]
FOOD, FOOD_BONUS = "zg.stat.food_points", "zg.stat.food_bonus"
ZOMBIES, ZOMBIES_BONUS = "zg.stat.zombies_points", "zg.stat.zombies_bonus"
TOKENS = "zg.stat.token_points"


def check_shape(figures: dict, players) -> None:
    """Every seat has every key of STATS, each a whole number, none below 0."""
    assert list(figures) == list(players)
    for seat in players:
        assert list(figures[seat]) == list(zg.STATS), seat
        assert all(type(n) is int and n >= 0 for n in figures[seat].values()), figures[seat]


def plain(entries: dict, bonus: bool) -> dict[str, int]:
    """A sheet's points by kind, scored here from its lines."""
    def set_bonus(count: int) -> int:
        return BONUS.get(count, 20) if bonus else 0

    return {FOOD: entries["food_points"], FOOD_BONUS: set_bonus(entries["food"]),
            ZOMBIES: entries["zombie_points"], ZOMBIES_BONUS: set_bonus(entries["zombies"]),
            TOKENS: 5 * entries["tokens"]}


def test_stats_are_each_kind_of_points_of_the_sheet_each_a_label_in_the_four_languages():
    assert list(zg.STATS) == [FOOD, FOOD_BONUS, ZOMBIES, ZOMBIES_BONUS, TOKENS]
    books = catalogue()
    for key in zg.STATS:
        for lang in LANGUAGES:
            assert books.has(key, lang), f"{key} has no label in {lang}"
    assert books.text(msg(TOKENS)) == "Supply tokens: points" and books.text(msg(ZOMBIES_BONUS), "zh-Hant") == \
        "殭屍：成套加分"


@pytest.mark.parametrize(("count", "seed", "options"), GAMES)
def test_random_games_count_each_kind_of_points_as_the_sheets_lines_score_and_they_add_up_to_the_score(count, seed,
                                                                                                      options):
    players = SEATS[:count]
    _, final = random_game(zg, players, random.Random(seed), options)
    figures = zg.statistics(final)
    check_shape(figures, players)
    bonus = options["set_bonus"] == "scoring_kinds"
    said = {entry.message.params["colour"]: entry.message.params for entry in final.narration
            if entry.message.key == "zg.n.score"}
    for seat in players:
        assert figures[seat] == plain(final.sheets[seat].entries, bonus)
        assert sum(figures[seat].values()) == zg.scores(final)[seat] == said[seat]["total"]
        assert (figures[seat][FOOD], figures[seat][ZOMBIES_BONUS], figures[seat][TOKENS]) == \
               (said[seat]["food_points"], said[seat]["zombies_bonus"], said[seat]["token_points"])


# -- sheets filled in by hand ------------------------------------------------------------------------------------


def act(state, *actions: dict):
    for action in actions:
        state = zg.apply(state, zg.decide(state, action)[0])
    return state


def sheet(seat: str, food: int, food_points: int, zombies: int, zombie_points: int, tokens: int) -> list[dict]:
    numbers = {"food": food, "food_points": food_points, "zombies": zombies, "zombie_points": zombie_points,
               "tokens": tokens}
    return [*({"seat": seat, "line": line, "number": n} for line, n in numbers.items()),
            {"seat": seat, "sheet": "hand_in"}]


@pytest.mark.parametrize(("option", "bonuses"), [("scoring_kinds", (6, 20, 0, 1)), ("printed_only", (0, 0, 0, 0))])
def test_sheets_filled_in_by_hand_count_their_printed_numbers_set_bonuses_and_tokens_once_revealed(option, bonuses):
    state = zg.start(["red", "yellow"], {"set_bonus": option}, {"phase": "sheet"})
    state = act(state, *sheet("red", 3, 12, 7, 40, 2))
    before = zg.statistics(state)  # Red's sheet is in, Yellow's not: nothing is revealed yet
    check_shape(before, ["red", "yellow"])
    assert all(n == 0 for figures in before.values() for n in figures.values())
    state = act(state, *sheet("yellow", 0, 0, 1, 5, 0))
    assert state.over
    red_food, red_zombies, yellow_food, yellow_zombies = bonuses
    assert zg.statistics(state) == {
        "red": {FOOD: 12, FOOD_BONUS: red_food, ZOMBIES: 40, ZOMBIES_BONUS: red_zombies, TOKENS: 10},
        "yellow": {FOOD: 0, FOOD_BONUS: yellow_food, ZOMBIES: 5, ZOMBIES_BONUS: yellow_zombies, TOKENS: 0},
    }
