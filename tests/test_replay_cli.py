"""`companion replay SCRIPT.json`, run as a player or a test rig would: a real process, JSON in and out."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.catalogue import text
from companion.contract import Message, record_of
from companion.games import mall_of_horror as mall
from companion.simulate import random_game

ROOT = Path(__file__).resolve().parents[1]
FOUR = ["red", "blue", "yellow", "green"]
RECORD_KEYS = {"round", "phase", "chief", "elected", "characters", "zombies", "closed", "hands", "deck",
               "waiting", "prompt", "options", "over", "scores", "winners"}
POSITION_KEYS = {"round", "phase", "chief", "elected", "characters", "zombies", "closed", "hands", "deck",
                 "destinations", "cup", "played", "hidden"}


def run(*command: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, cwd=ROOT)


def replay(tmp_path: Path, script: object, name: str = "script.json") -> subprocess.CompletedProcess:
    path = tmp_path / name
    path.write_text(script if isinstance(script, str) else json.dumps(script), encoding="utf-8")
    return run(sys.executable, "-m", "companion", "replay", str(path))


def output(result: subprocess.CompletedProcess) -> dict:
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return json.loads(result.stdout)


def book(record: dict) -> dict:
    """The record without the narration and the whole state (a game started from a game's own position tells only
    what happens after it; the state holds the narration too)."""
    return {k: v for k, v in record.items() if k not in ("narration", "state")}


def one_line_error(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def script_of(events: list[dict], **script) -> dict:
    """A replay script playing these events: the cup's rolls and picks, and the players' actions."""
    return {
        "game": "mall-of-horror",
        "players": FOUR,
        **script,
        "dice": [e["roll"] for e in events if "roll" in e],
        "picks": [e["pick"] for e in events if "pick" in e],
        "actions": [e for e in events if "roll" not in e and "pick" not in e],
    }


@pytest.fixture(scope="module")
def whole_game() -> tuple[list[dict], dict]:
    """A whole 4-player game from placement, random legal answers and dice, and its final record."""
    events, state = random_game(mall, FOUR, random.Random(20240611))
    assert state.over
    return events, json.loads(json.dumps(book(record_of(mall, state))))


# -- output ---------------------------------------------------------------------------------------------------


def test_replay_prints_the_state_as_json_with_every_key(tmp_path):
    script = {"game": "mall-of-horror", "players": FOUR, "dice": [[1, 3], [5, 6]],
              "actions": [{"seat": "red", "go": 3, "character": "pinup"}]}
    record = output(replay(tmp_path, script))
    assert RECORD_KEYS | {"unplaced"} <= set(record)
    assert record["zombies"] == {"1": 0, "2": 0, "3": 0, "4": 0, "5": 0, "6": 0}
    assert (record["round"], record["phase"], record["chief"], record["elected"]) == (0, "placement", "red", False)
    assert record["characters"] == {"red": {"pinup": 3}}
    assert record["closed"] == [2]
    assert (record["hands"], record["deck"]) == (dict.fromkeys(FOUR, 1), 17)
    assert (record["waiting"], record["prompt"]["kind"]) == (["blue"], "pick")
    assert {(a["go"], a["character"]) for a in record["options"]["blue"]} == {
        (loc, kind) for loc in (5, 6) for kind in ("pinup", "tough", "gunman")}
    assert (record["over"], record["winners"]) == (False, [])
    assert record["scores"] == dict.fromkeys(FOUR, 15)
    assert record["unplaced"] == {"red": ["tough", "gunman"], "blue": ["pinup", "tough", "gunman"],
                                  "yellow": ["pinup", "tough", "gunman"], "green": ["pinup", "tough", "gunman"]}


def test_replay_lists_unplaced_characters_only_during_placement(tmp_path):
    position = {"characters": {"red": {"pinup": 1, "tough": 3}, "blue": {"pinup": 4}, "yellow": {"gunman": 4},
                               "green": {"tough": 6}}}
    record = output(replay(tmp_path, {"game": "mall-of-horror", "players": FOUR, "position": position}))
    assert RECORD_KEYS <= set(record)
    assert "unplaced" not in record
    asked = (record["phase"], record["prompt"]["kind"], sorted(record["waiting"]))
    assert asked == ("truck", "ballot", ["blue", "yellow"])


def test_replay_of_a_whole_game_from_placement_with_scripted_dice_is_deterministic(tmp_path, whole_game):
    events, final = whole_game
    script = script_of(events)
    first = output(replay(tmp_path, script, "first.json"))
    second = output(replay(tmp_path, script, "second.json"))
    assert first == second  # the narration too
    assert book(first) == final
    assert first["over"] is True
    assert first["winners"]


def test_replay_output_taken_at_the_start_of_a_phase_fed_back_as_position_continues(tmp_path, whole_game):
    events, final = whole_game
    cut = start_of_a_destination_phase(events)
    before = output(replay(tmp_path, script_of(events[:cut]), "before.json"))
    assert (before["phase"], before["prompt"]["kind"]) == ("destination", "pick")
    after = replay(tmp_path, script_of(events[cut:], position=before), "after.json")
    assert book(output(after)) == final


def test_replay_position_fields_of_an_output_at_the_start_of_a_phase_continue_the_game(tmp_path, whole_game):
    events, final = whole_game
    cut = start_of_a_destination_phase(events)
    before = output(replay(tmp_path, script_of(events[:cut]), "before.json"))
    position = {k: v for k, v in before.items() if k in POSITION_KEYS}
    assert "cup" in position  # the zombie dice were rolled before the destinations
    assert book(output(replay(tmp_path, script_of(events[cut:], position=position), "after.json"))) == final


def test_a_position_at_attack_needs_a_destination_only_for_players_with_no_character_left(tmp_path):
    # Blue is out: his zombie goes where he chose. The others have moved already: where they went is on the board.
    position = {"phase": "attack", "characters": {"red": {"pinup": 1, "tough": 3, "gunman": 5},
                                                  "yellow": {"pinup": 6, "tough": 3}, "green": {"pinup": 3}},
                "destinations": {"blue": 6}}
    record = output(replay(tmp_path, {"game": "mall-of-horror", "players": FOUR, "position": position}))
    assert record["round"] == 2  # no breach anywhere: the round ended
    assert record["zombies"]["6"] == 1  # Blue's zombie
    del position["destinations"]
    line = one_line_error(replay(tmp_path, {"game": "mall-of-horror", "players": FOUR, "position": position}))
    assert line.endswith("a position at attack needs the destination of every player with no character left "
                         "(his zombie goes there); missing: Blue")


def start_of_a_destination_phase(events: list[dict]) -> int:
    """How many events lead to the first moment of round 2's destination phase (nobody has chosen yet)."""
    state = mall.start(FOUR)
    for i, event in enumerate(events):
        state = mall.apply(state, event)
        if state.round == 2 and state.phase == "destination" and not state.destinations:
            return i + 1
    raise AssertionError("the game never reached round 2's destinations")


# -- refusals -------------------------------------------------------------------------------------------------


def test_illegal_action_exits_2_with_one_line_naming_the_action(tmp_path):
    script = {
        "game": "mall-of-horror", "players": FOUR,
        "dice": [[1, 3], [1, 3], [1, 3], [1, 5]],
        "actions": [
            {"seat": "red", "go": 1, "character": "pinup"},
            {"seat": "blue", "go": 3, "character": "pinup"},
            {"seat": "yellow", "go": 1, "character": "tough"},
            {"seat": "green", "go": 3, "character": "gunman"},  # the dice show 1 and 5
            {"seat": "red", "go": 1, "character": "tough"},
        ],
    }
    line = one_line_error(replay(tmp_path, script))
    assert line.startswith("companion replay: action 3 ")
    assert line.endswith("Green cannot place at 3 Megatoys: the dice show 1 and 5")


def test_action_after_the_game_is_over_is_refused(tmp_path, whole_game):
    events, _ = whole_game
    script = script_of(events)
    extra = len(script["actions"])
    script["actions"].append({"seat": "red", "pass": True})
    line = one_line_error(replay(tmp_path, script))
    assert line.startswith(f"companion replay: action {extra} ")
    assert line.endswith("the game is over")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"game": "mall-of-horror", "players": ["red", "blue", "yellow"', "is not valid JSON"),
        ('["red", "blue", "yellow", "green"]', "must hold a JSON object with game, players and actions"),
    ],
)
def test_malformed_script_exits_2_with_a_clear_line(tmp_path, text, message):
    line = one_line_error(replay(tmp_path, text))
    assert line.startswith("companion replay: ")
    assert message in line


def test_unknown_game_exits_2_with_a_clear_line(tmp_path):
    line = one_line_error(replay(tmp_path, {"game": "chess", "players": FOUR, "actions": []}))
    assert "Unknown game chess" in line
    assert "mall-of-horror" in line


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["red", "blue"], "Mall of Horror is for 3 to 6 players, not 2"),
        (["red", "yellow", "green"], "a 3-player game uses Red, Yellow and Blue"),
        (["red", "pink", "blue", "green"], "'pink' is not a colour of the game"),
        ("red, blue, yellow", "players must be a list of colours"),
        (None, "players must be a list of colours"),
    ],
)
def test_bad_players_exit_2_with_a_clear_line(tmp_path, players, message):
    line = one_line_error(replay(tmp_path, {"game": "mall-of-horror", "players": players, "actions": []}))
    assert line.startswith(f"companion replay: setup: {message}")


def test_missing_script_exits_2_with_a_clear_line(tmp_path):
    result = run(sys.executable, "-m", "companion", "replay", str(tmp_path / "nowhere.json"))
    assert "cannot read" in one_line_error(result)


# -- the command ----------------------------------------------------------------------------------------------


def test_python_m_companion_works():
    result = run(sys.executable, "-m", "companion", "--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("companion ")
    help_text = run(sys.executable, "-m", "companion", "--help")
    assert help_text.returncode == 0
    assert "replay" in help_text.stdout


def test_companion_console_script_works(tmp_path):
    # The script pip installed beside this Python (the project's .venv), else one on PATH.
    beside = Path(sys.executable).parent / "companion"
    command = str(beside) if beside.exists() else shutil.which("companion")
    if command is None:
        pytest.skip("the `companion` console script is not installed (sh scripts/setup installs it)")
    script = {"game": "mall-of-horror", "players": FOUR, "dice": [[2, 6]]}
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    record = output(run(command, "replay", str(path)))
    assert (record["phase"], record["waiting"]) == ("placement", ["red"])
    assert {a["go"] for a in record["options"]["red"]} == {6}


def test_replay_prints_the_narration_and_with_lang_its_text(tmp_path):
    script = {"game": "mall-of-horror", "players": FOUR, "dice": [[1, 3], [5, 6]],
              "actions": [{"seat": "red", "go": 3, "character": "pinup"}]}
    plain = output(replay(tmp_path, script))["narration"]
    assert plain and all(set(line) <= {"key", "params", "round", "act"} for line in plain)
    placed = [line for line in plain if line.get("act") and line["params"].get("character") == "pinup"]
    assert placed and placed[0]["params"]["location"] == 3 and placed[0]["params"]["colour"] == "red"
    path = tmp_path / "lang.json"
    path.write_text(json.dumps(script))
    for lang in ("en", "zh-Hans", "zh-Hant", "vi"):
        done = run(sys.executable, "-m", "companion", "replay", str(path), "--lang", lang)
        assert done.returncode == 0, done.stderr
        told = json.loads(done.stdout)["narration"]
        assert [{k: v for k, v in line.items() if k != "text"} for line in told] == plain
        assert all(line["text"] == text(Message(line["key"], line["params"]), lang) for line in told)
    assert any("Megatoys" in line["text"] for line in told)
    refused = run(sys.executable, "-m", "companion", "replay", str(path), "--lang", "fr")
    assert refused.returncode == 2 and "invalid choice" in refused.stderr
