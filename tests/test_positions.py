"""A game entered at any moment: the table's record, taken between any two answers of a whole game (a half-collected
secret ballot included), fed back to `companion replay` as the `position` with the rest of the script, goes on
exactly as the whole script does, in every game (companion/snapshot.py, companion/position.py).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from companion import snapshot
from companion.contract import IllegalAction, record_of
from companion.games import GAMES
from companion.replay import ReplayError, play
from companion.simulate import random_game

sys.path.insert(0, str(Path(__file__).parent))
import toy_game  # noqa: E402

SCRIPTS = Path(__file__).parent / "scripts"


def script_of(game: str, players: list[str], events: list[dict], options: dict | None = None) -> dict:
    """A replay script playing these events: the cup's rolls and picks, and the players' answers."""
    return {"game": game, "players": players, "options": options or {},
            "dice": [e["roll"] for e in events if "roll" in e], "picks": [e["pick"] for e in events if "pick" in e],
            "actions": [e for e in events if "roll" not in e and "pick" not in e]}


def as_read(record: dict) -> dict:
    """A record as a file holds it (tuples are lists there)."""
    return json.loads(json.dumps(record))


def cut_after(script: dict, answers: int) -> dict:
    """The script cut after `answers` answers: replay's record there as the position, and the rest to play."""
    played = play({**script, "actions": script["actions"][:answers]})
    rolls = sum("roll" in event for event in played.events)
    picks = sum("pick" in event for event in played.events)
    return {"game": script["game"], "players": script["players"], "position": as_read(played.record()),
            "dice": script["dice"][rolls:], "picks": script["picks"][picks:], "actions": script["actions"][answers:]}


def every_cut_goes_on_the_same(script: dict, cuts: range | list[int]) -> int:
    final = as_read(play(script).record())
    checked = 0
    for answers in cuts:
        rest = cut_after(script, answers)
        assert as_read(play(rest).record()) == final, f"{script['game']}: cut after {answers} answers"
        checked += 1
    return checked


@pytest.mark.parametrize("name", sorted(path.stem for path in SCRIPTS.glob("*.json")))
def test_each_scripts_record_after_every_answer_fed_back_as_position_ends_the_same(name):
    script = json.loads((SCRIPTS / f"{name}.json").read_text())
    script.setdefault("dice", [])
    script.setdefault("picks", [])
    assert play(script).state.over  # a whole game
    assert every_cut_goes_on_the_same(script, range(len(script["actions"]) + 1)) == len(script["actions"]) + 1


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_random_whole_games_record_after_every_answer_fed_back_as_position_ends_the_same(name):
    game = GAMES[name]
    players = ["red", "yellow", "blue", "green"][:max(2, game.SETUP.min_players)] if name != "district-z" \
        else ["red", "blue"]
    events, state = random_game(game, players, random.Random(7), close_chance=0.1)
    assert state.over
    script = script_of(name, players, events)
    answers = len(script["actions"])
    # Every answer of a short game; of a long one, every answer of its first 40 and every 7th after them.
    cuts = list(range(answers + 1)) if answers <= 60 else [*range(40), *range(40, answers + 1, 7), answers]
    assert every_cut_goes_on_the_same(script, cuts) == len(cuts)


def test_a_half_collected_secret_ballot_is_in_the_record_and_goes_on():
    game = GAMES["mall-of-horror"]
    players = ["red", "yellow", "blue", "green"]
    events, _ = random_game(game, players, random.Random(11))
    script = script_of("mall-of-horror", players, events)
    for answers in range(len(script["actions"])):
        rest = cut_after(script, answers)
        prompt = rest["position"]["prompt"]
        if prompt and prompt["kind"] == "ballot" and prompt["secret"] and \
                len(prompt["waiting"]) < len(rest["position"]["players"]) and '"ballots": {"' in \
                json.dumps(rest["position"]["state"]):
            break
    else:
        pytest.fail("no half-collected ballot in this game")
    assert as_read(play(rest).record()) == as_read(play(script).record())


def test_the_toy_game_goes_on_from_a_record_too_with_no_code_of_its_own():
    players = ["red", "blue"]
    events, state = random_game(toy_game, players, random.Random(3))
    state = toy_game.start(players)
    for event in events[:len(events) // 2]:
        state = toy_game.apply(state, event)
    record = as_read(record_of(toy_game, state))
    from companion.position import start

    assert start(toy_game, players, None, record) == state


# -- impossible positions: refused in one line ---------------------------------------------------------------


def a_record(name: str = "mall-of-horror", answers: int = 5) -> dict:
    game = GAMES[name]
    players = ["red", "yellow", "blue", "green"] if name != "district-z" else ["red", "blue"]
    events, _ = random_game(game, players, random.Random(5))
    return cut_after(script_of(name, players, events), answers)


def refusal(script: dict) -> str:
    with pytest.raises(ReplayError) as caught:
        play(script)
    line = str(caught.value)
    assert "\n" not in line
    return line


def test_a_record_with_a_field_changed_beside_its_state_is_refused():
    script = a_record()
    script["position"]["zombies"]["1"] += 1
    assert refusal(script) == "setup: The position's zombies does not agree with its state: a record is fed " \
        "back whole, or not at all (give the game's own position fields instead)."


@pytest.mark.parametrize("change, says", [
    (lambda s: s.update(round="three"), "The position's state.round must be int."),
    (lambda s: s.update(players=["red", 7]), "The position's state.players must be tuple[str, ...]."),
    (lambda s: s["characters"][0].update({"@": "Popen"}), "names \"Popen\", which is no part of this game."),
    (lambda s: s["characters"][0].pop("hidden"), "(Character) must have exactly these fields: colour, kind, "
                                                  "location, hidden."),
    (lambda s: s.update(closed={"@nope": []}), "The position's state.closed has a tag no game writes."),
])
def test_an_impossible_state_is_refused_in_one_line_naming_where(change, says):
    script = a_record()
    change(script["position"]["state"])
    assert says in refusal(script)


def test_a_record_of_other_players_or_options_or_another_game_is_refused():
    script = a_record()
    assert "The position's players are red, yellow, blue, green, not red, yellow, blue." in refusal(
        {**script, "players": ["red", "yellow", "blue"]})
    assert "was played with the table options" in refusal({**script, "options": {"end_timing": "round_end"}})
    assert "This position is not a game of zombiegeddon." in refusal(
        {**script, "game": "zombiegeddon", "players": ["red", "yellow", "blue", "green"]})


def test_a_snapshot_reads_back_only_what_it_wrote():
    classes = snapshot.classes_of(type(GAMES["district-z"].start(["red"])))
    value = {"a": (1, "x", None), 3: frozenset({1, 2}), "@odd": [True], "l": [1, (2,)]}
    assert snapshot.decode(as_read(snapshot.encode(value)), classes) == value
    with pytest.raises(snapshot.Unreadable):
        snapshot.decode({"@": "State", "players": []}, classes)
    with pytest.raises(TypeError):
        snapshot.encode(object())


def test_every_game_without_a_position_of_its_own_says_a_record_will_do():
    for name in ("district-z", "eaten-by-zombies"):
        with pytest.raises(IllegalAction) as caught:
            GAMES[name].start(["red", "blue"], None, {"round": 2})
        assert "record" in str(caught.value) or caught.value.key.endswith("position")


def test_the_command_goes_on_from_a_record_and_refuses_an_impossible_one_with_exit_2_and_one_line(tmp_path):
    from test_replay_cli import one_line_error, output, replay

    for name in ("district-z", "eaten-by-zombies"):  # the games with no position of their own
        script = a_record(name, answers=9)
        whole = as_read(play({**script}).record())
        assert output(replay(tmp_path, script, f"{name}.json")) == whole
        script["position"]["state"]["round"] = -1 if name == "district-z" else "one"
        line = one_line_error(replay(tmp_path, script, f"{name}-bad.json"))
        assert line.startswith("companion replay: setup: The position's ")
