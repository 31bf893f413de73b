"""A changed secret answer tells the other readers nothing (issue 29, point 8): the first answer says who answered
("Red has voted", "Red has chosen a destination"), never what; changing it before the reveal adds no line and
changes nothing anyone else sees, so the table cannot learn that he changed his mind. In every game with secret
answers: Mall of Horror's ballots and secret destinations, Zombiegeddon's largest zombie disc and score sheet (Eaten
by Zombies! and District-Z ask nothing in secret: checked too).

Played through a real table on a real save file: every other seat's view and the public view (the board, the
narration, the prompt, the parts) are the same before and after the change, while the changer's own view shows his
new answer (so the change did happen).
"""

from __future__ import annotations

import random

import pytest
from seeded import SeededCup

from companion.games import GAMES
from companion.simulate import random_answer
from companion.store import EventStore
from companion.table import Table


@pytest.fixture
def table(tmp_path):
    store = EventStore(str(tmp_path / "save.sqlite3"))
    table = Table(store, cup=SeededCup(29))
    yield table
    store.close()


def others(table: Table, seat: str) -> dict:
    """What everyone but `seat` sees: the public view and every other seat's."""
    return {who: table.view(who) for who in [None, *table.state.players] if who != seat}


def public_lines(table: Table) -> list[dict]:
    return [entry.to_json() for entry in table.narration() if not entry.seats]


# -- Mall of Horror ---------------------------------------------------------------------------------------------

# The truck search: Red, Blue and Yellow each have a character in the Parking, so three vote.
TRUCK = {"round": 1, "phase": "truck", "characters": {"red": {"pinup": 4, "tough": 1}, "blue": {"pinup": 4},
                                                     "yellow": {"pinup": 4}, "green": {"pinup": 6}}}
# The destinations, nobody elected: everyone chooses in secret.
DESTINATIONS = {"round": 1, "phase": "destination", "cup": [1, 3, 5, 6],
                "characters": {"red": {"pinup": 1, "tough": 3}, "blue": {"pinup": 4}, "yellow": {"pinup": 5},
                               "green": {"pinup": 6}}}


def test_mall_a_changed_ballot_adds_no_line_and_changes_nothing_the_others_see(table):
    table.new_game("mall-of-horror", ["red", "blue", "yellow", "green"], position=TRUCK)
    before = public_lines(table)
    table.answer({"seat": "red", "vote": "blue"})
    first = public_lines(table)
    assert [line["key"] for line in first[len(before):]] == ["mall.n.voted"]  # who voted, once
    seen = others(table, "red")
    table.answer({"seat": "red", "vote": "yellow"})
    table.answer({"seat": "red", "vote": "red"})
    assert public_lines(table) == first
    assert others(table, "red") == seen
    assert table.view("red")["secrets"] != seen[None].get("secrets")  # (his own view holds his new ballot)
    assert any(s.get("lines") and {"chip": "red"} in s["lines"][0] for s in table.view("red")["secrets"])
    table.answer({"seat": "blue", "vote": "blue"})
    table.answer({"seat": "yellow", "vote": "blue"})  # the reveal: his last ballot, and one "has voted" each
    keys = [line["key"] for line in public_lines(table)]
    assert keys.count("mall.n.voted") == 3
    ballots = table.view()["parts"]["revealed"][0]["rows"]
    assert {"voter": "red", "weight": 1, "choice": "red"} in ballots


def test_mall_a_changed_secret_destination_adds_no_line_and_changes_nothing_the_others_see(table):
    table.new_game("mall-of-horror", ["red", "blue", "yellow", "green"], position=DESTINATIONS)
    table.answer({"seat": "red", "go": 6})
    first = public_lines(table)
    assert first[-1]["key"] == "mall.n.chose"
    seen = others(table, "red")
    table.answer({"seat": "red", "go": 4})
    assert public_lines(table) == first
    assert others(table, "red") == seen
    assert table.view("red")["destination"] == 4


# -- Zombiegeddon -----------------------------------------------------------------------------------------------


def test_zombiegeddon_a_changed_largest_disc_changes_nothing_the_others_see(table):
    table.new_game("zombiegeddon", ["red", "yellow", "blue"], position={"phase": "pre", "turn": "red"})
    table.answer({"seat": "red", "act": "phase_end"})  # post-bomb: everyone enters his largest zombie disc
    table.answer({"seat": "red", "largest": 5})
    first, seen = public_lines(table), others(table, "red")
    table.answer({"seat": "red", "largest": 9})
    assert public_lines(table) == first
    assert others(table, "red") == seen
    assert table.view("red")["largest"] == 9


def test_zombiegeddon_a_corrected_line_of_the_sheet_changes_nothing_the_others_see(table):
    table.new_game("zombiegeddon", ["red", "yellow", "blue"], position={"phase": "sheet"})
    for line_, number in (("food", 3), ("food_points", 12), ("zombies", 2), ("zombie_points", 9), ("tokens", 1)):
        table.answer({"seat": "red", "line": line_, "number": number})
    first, seen = public_lines(table), others(table, "red")
    table.answer({"seat": "red", "sheet": "food"})  # he corrects his food before handing the sheet in
    table.answer({"seat": "red", "line": "food", "number": 4})
    table.answer({"seat": "red", "line": "food_points", "number": 15})
    assert public_lines(table) == first
    assert others(table, "red") == seen
    assert table.view("red")["sheet"]["food"] == 4


# -- the games with no secret answer ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["eaten-by-zombies", "district-z"])
def test_a_game_with_no_secret_answer_asks_nothing_in_secret(table, game):
    rules = GAMES[game]
    rng = random.Random(29)
    table.new_game(game, ["red", "yellow", "blue"][:rules.SETUP.min_players + 1])
    asked = 0
    while not table.state.over and asked < 400:
        prompt = rules.prompt(table.state)
        assert not prompt.secret, prompt
        seat = rng.choice(prompt.seats)
        table.answer(random_answer(rules, table.state, seat, rng))
        asked += 1
    assert asked > 10
