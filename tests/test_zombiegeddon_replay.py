"""`companion replay tests/scripts/zombiegeddon.json` through the real command: a whole Zombiegeddon game (a tie for
the post-bomb start settled by re-entry, a sheet corrected after it was handed in) printed as JSON, and stored so
that `companion history` lists it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.contract import IllegalAction
from companion.store import EventStore
from companion.table import Table

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "scripts" / "zombiegeddon.json"


def run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, env=env,
                          timeout=120, cwd=ROOT)


def test_the_script_plays_a_whole_game_through_the_real_command_and_is_stored(tmp_path):
    db = tmp_path / "zg.sqlite3"
    result = run("replay", str(SCRIPT), "--db", str(db), "--lang", "vi")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    record = json.loads(result.stdout)
    assert record["game"] == "zombiegeddon" and record["over"] and record["winners"] == ["blue"]
    assert record["starter"] == "blue" and record["revealed"] == [{"red": 4, "yellow": 6, "blue": 6},
                                                                 {"yellow": 3, "blue": 5}]
    assert record["scores"] == {"red": 49, "yellow": 53, "blue": 58}
    assert {seat: s["total"] for seat, s in record["breakdown"].items()} == record["scores"]
    assert record["breakdown"]["red"]["zombies"] == 3  # corrected after it was handed in
    lines = record["narration"]
    keys = [entry["key"] for entry in lines]
    assert keys.count("zg.n.score") == 3 and keys[-1] == "zg.n.winner"
    assert [entry["key"] for entry in lines if entry.get("act")] == [
        "zg.n.take_remaining", "zg.n.check.remove", "zg.n.check.shuffle", "zg.n.check.figures",
        "zg.n.check.tokens", "zg.n.take_remaining"]
    assert lines[-1]["text"] == "Xanh dương thắng với 58 điểm"
    history = run("history", "--db", str(db))
    assert history.returncode == 0 and "zombiegeddon  red, yellow, blue  won by blue" in history.stdout


def test_an_illegal_action_in_a_script_names_it_on_one_line(tmp_path):
    script = json.loads(SCRIPT.read_text(encoding="utf-8"))
    script["actions"] = script["actions"][:2] + [{"seat": "blue", "act": "action"}]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    result = run("replay", str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip() == ('companion replay: action 2 {"seat": "blue", "act": "action"}: '
                                     "It is Yellow's turn, not Blue's.")


def test_a_script_with_an_old_set_bonus_value_still_replays_as_the_value_it_now_is(tmp_path):
    totals = {}
    for value in ("every_kind", "scoring_kinds", "not_food_zombies", "printed_only"):
        script = json.loads(SCRIPT.read_text(encoding="utf-8"))
        script["options"]["set_bonus"] = value
        path = tmp_path / f"{value}.json"
        path.write_text(json.dumps(script), encoding="utf-8")
        result = run("replay", str(path))
        assert result.returncode == 0 and result.stderr == "", result.stderr
        record = json.loads(result.stdout)
        totals[value] = record["scores"]
        assert record["table_options"]["set_bonus"] in ("scoring_kinds", "printed_only")
    assert totals["every_kind"] == totals["scoring_kinds"] == {"red": 49, "yellow": 53, "blue": 58}
    assert totals["not_food_zombies"] == totals["printed_only"] == {"red": 33, "yellow": 32, "blue": 37}


OLD_SHEET = [  # a sheet of the version before the ruling: a weapons line, and a correction of it
    {"seat": "red", "line": "food", "number": 2}, {"seat": "red", "line": "food_points", "number": 5},
    {"seat": "red", "line": "zombies", "number": 0}, {"seat": "red", "line": "zombie_points", "number": 0},
    {"seat": "red", "line": "weapons", "number": 3}, {"seat": "red", "line": "tokens", "number": 0},
    {"seat": "red", "sheet": "hand_in"}, {"seat": "red", "sheet": "weapons"},
    {"seat": "red", "line": "weapons", "number": 4}, {"seat": "red", "sheet": "hand_in"},
]


@pytest.mark.parametrize(("old", "new", "red"), [("every_kind", "scoring_kinds", 5 + 3),
                                                 ("not_food_zombies", "printed_only", 5)])
def test_a_save_file_with_an_old_option_value_and_a_weapons_line_resumes_and_weapons_score_nothing(
        tmp_path, old, new, red):
    path = tmp_path / "old.sqlite3"
    with EventStore(path) as store:  # the save file as the older version wrote it
        game = store.new_game("zombiegeddon", ["red", "blue"], {"set_bonus": old, "post_bomb_tie": "reenter"})
        for action in ({"seat": "red", "act": "phase_end"}, {"seat": "red", "largest": 3},
                       {"seat": "blue", "largest": 1}, {"seat": "red", "act": "phase_end"}, *OLD_SHEET):
            store.append(game, {"answer": action})
    with EventStore(path) as store:
        table = Table(store)
        assert table.resume() is not None
        assert table.state.options["set_bonus"] == new and table.state.sheets["red"].ready
        with pytest.raises(IllegalAction, match="Weapons left at the end score nothing"):
            table.answer({"seat": "blue", "line": "weapons", "number": 1})  # a new answer: refused
        for number in (0, 0, 0, 0, 1):
            line = table.state.sheets["blue"].queue[0]
            table.answer({"seat": "blue", "line": line, "number": number})
        table.answer({"seat": "blue", "sheet": "hand_in"})
        assert table.state.over
        assert table.state.scores["red"]["total"] == red and table.state.scores["blue"]["total"] == 5
        assert store.unfinished() is None


def test_every_asking_of_a_score_sheet_has_its_own_id_and_an_answer_to_an_earlier_one_is_stale():
    """A phone that answered a line must see the next asking as new, even when it asks the same line again
    ("again" after the check): the bots of the soak stalled on a sheet asked under one id, `sheet`, throughout."""
    from companion.table import StaleQuestion

    table = Table()
    table.new_game("zombiegeddon", ["red", "blue"], None, {"phase": "sheet"})
    first = table.question("red")
    table.answer({**first.answer, first.field: 2}, question=first.id)
    second = table.question("red")
    assert second.id != first.id and second.id != table.rules.prompt(table.state).id
    with pytest.raises(StaleQuestion):  # the first line's answer, sent again: never taken as the second line's
        table.answer({**first.answer, first.field: 3}, question=first.id)
    while table.question("red").kind == "number":
        asked = table.question("red")
        table.answer({**asked.answer, asked.field: 0}, question=asked.id)
    check = table.question("red")
    table.answer({"seat": "red", "sheet": "again"}, question=check.id)
    again = table.question("red")
    assert again.title == first.title and again.id not in (first.id, second.id, check.id)
    assert table.question("blue").id != again.id  # each seat's asking is its own
