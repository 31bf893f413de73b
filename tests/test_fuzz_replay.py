"""Bad replay scripts never crash: mutated valid scripts are played or refused in one line, never a traceback.

The valid scripts are random whole games (3 to 6 players, table options, ties drawn by the cup) cut anywhere,
and the same games restarted from positions taken at the start of a phase (hidden characters included).
The property test runs FUZZ_EXAMPLES mutated scripts in the process (default 300); the CLI test runs a seeded
sample of them through `companion replay` in real processes.
"""

from __future__ import annotations

import functools
import json
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from fuzzkit import Chooser, DrawChooser, RandomChooser, fuzz_settings, mutate
from hypothesis import given
from hypothesis import strategies as st

from companion.cli import _record
from companion.games import mall_of_horror as mall
from companion.replay import ReplayError, load_script, play, read_script
from companion.simulate import cup_event, random_game

ROOT = Path(__file__).resolve().parents[1]
GAMES = [  # seed, players, options: picks happen in the seeds that draw a tied victim
    (13, ["red", "yellow", "blue"], {"second_tie_victim": "colour"}),
    (9, ["red", "blue", "yellow", "green"], None),
    (2, ["red", "yellow", "blue", "green", "purple", "black"], {"threats_carry_to_revote": False}),
    (5, ["red", "yellow", "blue", "green", "purple"], {"end_timing": "round_end"}),
]

TIE = {  # Red and Blue tie twice in the Restroom's vote
    "game": "mall-of-horror", "players": ["red", "blue", "yellow", "green"],
    "position": {"round": 2, "phase": "attack", "chief": "yellow",
                 "characters": {"red": {"pinup": 1, "tough": 3, "gunman": 5}, "blue": {"pinup": 1, "tough": 6},
                                "yellow": {"pinup": 6, "tough": 3}, "green": {"pinup": 3}},
                 "zombies": {"1": 4}, "hands": {"red": 0, "blue": 0, "yellow": 0, "green": 0}, "deck": 17,
                 "destinations": {"red": 1, "blue": 1, "yellow": 6, "green": 3}},
    "actions": [{"seat": "red", "vote": "blue"}, {"seat": "blue", "vote": "red"},  # a tie: everyone votes again
                {"seat": "red", "vote": "blue"}, {"seat": "blue", "vote": "red"}, {"seat": "yellow", "vote": "red"},
                {"seat": "green", "vote": "blue"}],  # a tie again: the cup draws Red's or Blue's character
}

HIDDEN = {  # the Supermarket is breached; Blue's Gunman is hidden: he neither votes nor can be given up
    "game": "mall-of-horror", "players": ["red", "blue", "yellow", "green"],
    "position": {"round": 2, "phase": "attack", "chief": "red",
                 "characters": {"red": {"pinup": 1, "tough": 6, "gunman": 6}, "blue": {"pinup": 6, "tough": 6,
                                "gunman": 6}, "yellow": {"pinup": 3, "tough": 3, "gunman": 3},
                                "green": {"pinup": 5, "tough": 5, "gunman": 1}},
                 "zombies": {"6": 4}, "hands": {"red": 0, "blue": 0, "yellow": 0, "green": 0}, "deck": 14,
                 "destinations": {"red": 6, "blue": 6, "yellow": 3, "green": 5}, "hidden": {"blue": ["gunman"]}},
    "actions": [{"seat": "red", "vote": "blue"}, {"seat": "blue", "vote": "red"}, {"seat": "blue", "victim": "pinup"}],
}

LATE = {  # everything but the Parking closed, every living figure in it: Red and Blue have no legal destination
    "game": "mall-of-horror", "players": ["red", "blue", "yellow", "green"],
    "position": {"round": 6, "phase": "destination", "chief": "red", "closed": [1, 2, 3, 5, 6],
                 "characters": {"red": {"pinup": 4, "tough": 4, "gunman": 4}, "blue": {"pinup": 4, "tough": 4}},
                 "hands": {"red": 1, "blue": 1, "yellow": 0, "green": 0}, "deck": 5, "cup": [1, 2, 4, 5]},
}


def late_events(seed: int, most: int = 60) -> list[dict]:
    """Random legal events from the LATE position, to the end or `most` events."""
    rng = random.Random(seed)
    state = mall.start(LATE["players"], None, LATE["position"])
    events: list[dict] = []
    while not state.over and len(events) < most:
        request = mall.cup_request(state)
        if request is not None:
            event = cup_event(request, rng)
        else:
            prompt = mall.prompt(state)
            event = rng.choice(prompt.options[rng.choice(prompt.seats)])
        state = mall.apply(state, event)
        events.append(event)
    return events


@dataclass(frozen=True)
class Base:
    """A valid script: the events of a game from a start (a position or placement) and its setup."""

    players: list
    options: dict | None
    position: dict | None
    events: list

    def script(self, cut: int) -> dict:
        events = self.events[:cut]
        out: dict = {"game": "mall-of-horror", "players": self.players}
        if self.options is not None:
            out["options"] = self.options
        if self.position is not None:
            out["position"] = self.position
        out["dice"] = [e["roll"] for e in events if "roll" in e]
        out["picks"] = [e["pick"] for e in events if "pick" in e]
        out["actions"] = [e for e in events if "roll" not in e and "pick" not in e]
        return out


@functools.cache
def bases() -> tuple[Base, ...]:
    out = []
    for seed, players, options in GAMES:
        events, _ = random_game(mall, players, random.Random(seed), options, close_chance=0.1)
        out.append(Base(players, options, None, events))
        state, starts = mall.start(players, options), []
        for i, event in enumerate(events):
            after = mall.apply(state, event)
            if after.phase != state.phase and mall.cup_request(after) is None:
                starts.append((i + 1, after))
            state = after
        for i, state in starts[1::3]:  # every third phase start: truck, chief, destination, move, attack...
            base = Base(players, options, json.loads(json.dumps(mall.position_of(state))), events[i:i + 60])
            try:
                play(base.script(len(base.events)))
            except ReplayError:
                continue  # a record taken inside a phase does not always restart it: keep those that do
            out.append(base)
    out += [Base(LATE["players"], None, LATE["position"], late_events(seed)) for seed in (1, 2)]
    out += [Base(TIE["players"], None, TIE["position"], [*TIE["actions"], {"pick": 1}]),
            Base(HIDDEN["players"], None, HIDDEN["position"], HIDDEN["actions"])]
    return tuple(out)


def mutated_script(c: Chooser) -> str:
    """A valid script cut anywhere, then mutated one to three times, as the text of a file."""
    base = c.pick(bases())
    script = base.script(c.integer(0, len(base.events)))
    # More often than the rest: the cup's picks and dice, hidden characters, and the last answers (the deepest
    # states the script reaches).
    focus = [("picks", i) for i in range(len(script["picks"]))]
    focus += [("dice", i, j) for i, roll in enumerate(script["dice"][:3]) for j in range(len(roll))]
    focus += [("actions", i) for i in range(len(script["actions"]))[-3:]]
    focus += [("position", "hidden", colour) for colour in (base.position or {}).get("hidden", {})]
    return json.dumps(mutate(c, script, focus=focus))


def replay_in_process(text: str) -> str | None:
    """None if the script plays (and its record prints); the one-line refusal otherwise."""
    try:
        table = play(read_script(text, "script.json"))
    except ReplayError as error:
        return str(error)
    json.dumps(_record(table, "vi"), ensure_ascii=False)
    return None


def test_the_valid_scripts_play_and_some_draw_a_tied_victim():
    assert len(bases()) >= 12
    assert sum(1 for b in bases() for e in b.events if "pick" in e) >= 3
    assert any("hidden" in (b.position or {}) for b in bases())
    for base in bases():
        assert replay_in_process(json.dumps(base.script(len(base.events)))) is None


@fuzz_settings(300)
@given(st.data())
def test_property_mutated_scripts_play_or_are_refused_in_one_line(data):
    refusal = replay_in_process(mutated_script(DrawChooser(data)))
    if refusal is not None:
        assert refusal and "\n" not in refusal and "\r" not in refusal


# -- the issue's cases and a sample through the real command ----------------------------------------------------

def companion(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, env=env,
                          timeout=120, cwd=ROOT)


def replay_file(path: Path, text: str | bytes) -> subprocess.CompletedProcess:
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return companion("replay", str(path))


def assert_one_line_refusal(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("companion replay: "), done.stderr
    return lines[0]


def test_a_tie_is_drawn_by_the_scripted_pick():
    assert replay_in_process(json.dumps({**TIE, "picks": [1]})) is None


def test_a_pick_out_of_range_exits_2_with_one_line_naming_the_pick(tmp_path):
    line = assert_one_line_refusal(replay_file(tmp_path / "pick.json", json.dumps({**TIE, "picks": [5]})))
    assert line.startswith("companion replay: picks 0 5: ")
    assert "range(" in line or "5" in line


def test_a_pick_out_of_range_names_the_pick_even_with_dice_scripted():
    refusal = replay_in_process(json.dumps({**TIE, "dice": [[1, 2, 3, 4]], "picks": [-1]}))
    assert refusal is not None and refusal.startswith("picks 0 -1: ")


def test_a_hidden_entry_that_is_a_list_exits_2_with_one_line(tmp_path):
    script = {"game": "mall-of-horror", "players": ["red", "blue", "yellow", "green"],
              "position": {"characters": {"red": {"pinup": 1}}, "hidden": {"red": [["pinup"]]}}}
    line = assert_one_line_refusal(replay_file(tmp_path / "hidden.json", json.dumps(script)))
    assert "hidden" in line
    script["position"]["hidden"] = {"red": [{"pinup": True}]}
    assert "hidden" in assert_one_line_refusal(replay_file(tmp_path / "hidden.json", json.dumps(script)))


def test_files_that_are_not_json_text_are_refused_in_one_line(tmp_path):
    for name, text in [("deep", "[" * 100_000 + "]" * 100_000), ("digits", '{"picks": [' + "9" * 5000 + "]}"),
                       ("latin1", b'{"players": ["r\xe9d"]}'), ("empty", ""), ("nan", '{"picks": [NaN]}'),
                       ("infinity", '{"dice": [[-Infinity]]}'), ("directory", None)]:
        path = tmp_path / f"{name}.json"
        if text is None:
            path.mkdir()
        else:
            path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        with pytest.raises(ReplayError) as refused:
            load_script(path)
        assert str(path) in str(refused.value) and "\n" not in str(refused.value), str(refused.value)
    (tmp_path / "bom.json").write_text("\ufeff" + json.dumps({**TIE, "picks": [0]}), encoding="utf-8")
    assert play(load_script(tmp_path / "bom.json")).state.round == 3


def test_a_sample_of_mutated_scripts_through_companion_replay_exits_0_or_2_without_a_traceback(tmp_path):
    rng = random.Random(16)
    scripts = [mutated_script(RandomChooser(rng)) for _ in range(int(os.environ.get("FUZZ_CLI_SAMPLE", 12)))]
    scripts += [json.dumps(base.script(rng.randrange(len(base.events)))) for base in bases()[:2]]  # and valid ones

    def run(numbered: tuple[int, str]) -> tuple[str, subprocess.CompletedProcess]:
        number, text = numbered
        return text, replay_file(tmp_path / f"mutated{number}.json", text)

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run, enumerate(scripts)))
    for text, done in results:
        assert "Traceback" not in done.stderr, f"{text}\n{done.stderr}"
        assert done.returncode in (0, 2), f"{text}\n{done.stderr}"
        if done.returncode == 2:
            assert len(done.stderr.splitlines()) == 1, done.stderr
        else:
            assert json.loads(done.stdout)["phase"]
    assert {done.returncode for _, done in results} == {0, 2}


@pytest.mark.parametrize("options", ["[" * 100_000, '{"end_timing": [[]]}'])
def test_odd_table_options_on_the_command_line_exit_2_with_one_line(tmp_path, options):
    done = companion("serve", "--options", options, "--players", "red,blue,yellow", "--db", str(tmp_path / "o.db"),
                     "--host", "127.0.0.1", "--port", "0", "--no-qr")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.splitlines()) == 1 and "option" in done.stderr, done.stderr


# -- District-Z and Eaten by Zombies!: a start or an answer of the wrong JSON type -------------------------------

OTHER_GAMES_BAD_TYPES = [
    {"game": "eaten-by-zombies", "players": ["yellow", {}]},  # a TypeError traceback at engine.py:34 before
    {"game": "district-z", "players": ["red", {}]},
    {"game": "district-z", "players": "red"},
    {"game": "district-z", "players": ["red"], "options": {"box_dice": [1]}},
    {"game": "district-z", "players": ["red"], "options": ["grid"]},
    {"game": "eaten-by-zombies", "players": ["red", "blue"], "options": {"market": {}}},
    {"game": "eaten-by-zombies", "players": ["red", "blue"], "options": {"market": "9" * 5000}},
    {"game": "eaten-by-zombies", "players": ["red", "blue"], "picks": [0, 0, 0, 0],
     "actions": [{"seat": "red", "level": "\ud800"}]},
    {"game": "eaten-by-zombies", "players": ["red", "blue"], "picks": [0, 0, 0, 0],
     "actions": [{"seat": "red", "level": 1}, {"seat": "red", "speed": [None]}]},
    {"game": "district-z", "players": ["red"], "actions": [{"seat": "red", "attack": True}]},
    {"game": "district-z", "players": ["red"], "actions": [{"seat": ["red"], "attack": 2}]},
]


@pytest.mark.parametrize("script", OTHER_GAMES_BAD_TYPES)
def test_district_z_and_eaten_by_zombies_scripts_of_wrong_json_types_are_refused_in_one_line(script):
    refusal = replay_in_process(json.dumps(script))
    assert refusal is not None and "\n" not in refusal
    refusal.encode("utf-8")  # a lone surrogate is never repeated


def test_a_lone_surrogate_in_an_eaten_by_zombies_level_exits_2_with_one_line(tmp_path):
    line = assert_one_line_refusal(replay_file(tmp_path / "surrogate.json", json.dumps(OTHER_GAMES_BAD_TYPES[7])))
    assert "level must be a whole number" in line
