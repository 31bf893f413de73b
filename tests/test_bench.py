"""The benchmarks run and print their figures (the figures themselves are never asserted)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}


def test_bench_table_plays_games_through_a_table_and_prints_the_p99():
    result = subprocess.run([sys.executable, "-m", "companion", "bench", "table", "--games", "2"],
                            capture_output=True, text=True, env=ENV, cwd=REPO, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "p99" in result.stdout and "goal < 5 ms" in result.stdout
    assert "events per second" in result.stdout


def test_bench_rules_prints_games_per_second_and_events_per_game():
    result = subprocess.run([sys.executable, "-m", "companion", "bench", "rules", "--games", "5"],
                            capture_output=True, text=True, env=ENV, cwd=REPO, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "games per second" in result.stdout and "median events a game" in result.stdout


GAMES_AND_TITLES = [("mall-of-horror", "Mall of Horror"), ("eaten-by-zombies", "Eaten by Zombies!"),
                    ("zombiegeddon", "Zombiegeddon"), ("district-z", "District-Z")]


@pytest.mark.parametrize("what", ["rules", "table"])
@pytest.mark.parametrize("game, title", GAMES_AND_TITLES)
def test_bench_rules_and_table_play_the_game_they_are_given(what, game, title):
    result = subprocess.run([sys.executable, "-m", "companion", "bench", what, "--game", game, "--games", "2"],
                            capture_output=True, text=True, env=ENV, cwd=REPO, timeout=120)
    assert result.returncode == 0, result.stderr
    assert f"games of {title} " in result.stdout.splitlines()[0]


def test_a_bench_refuses_a_game_it_does_not_know_in_one_line():
    result = subprocess.run([sys.executable, "-m", "companion", "bench", "rules", "--game", "chess"],
                            capture_output=True, text=True, env=ENV, cwd=REPO, timeout=120)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and "chess" in result.stderr and "district-z" in result.stderr


@pytest.mark.parametrize("game", ["eaten-by-zombies", "zombiegeddon"])
def test_bench_phones_plays_another_game_when_told(game):
    """The seat phones answer every kind of question their game asks (numbers and sheets too), seat by seat."""
    result = subprocess.run([sys.executable, "-m", "companion", "bench", "phones", "--game", game, "--clients", "6",
                             "--answers", "40"], capture_output=True, text=True, env=ENV, cwd=REPO, timeout=300)
    assert result.returncode == 0, result.stderr
    assert f"6 phones (4 seats playing random games of {game}, 2 spectators" in result.stdout
    assert int(result.stdout.split("answers acknowledged")[1].split()[0]) >= 40


def test_revealed_text_finds_every_games_revealed_ballots_on_its_board():
    from companion.bench.phones import revealed_text

    raw = ('{"v":1,"view":{"parts":{"main":[],"revealed":[{"part":"ballot","title":{"key":"t","params":{"c":["red"]}},'
           '"rows":[{"voter":"red","weight":1,"choice":"blue"}],"tally":[["blue",1]],"leaders":["blue"]}],"over":[]}}}')
    assert revealed_text(raw).startswith('"revealed":[{"part":"ballot"')
    assert revealed_text(raw).endswith('"leaders":["blue"]}]')
    assert revealed_text('{"view":{"parts":{"revealed":[]}}}') == ""


def test_bench_phones_runs_phones_against_companion_serve_and_prints_its_figures():
    result = subprocess.run([sys.executable, "-m", "companion", "bench", "phones", "--clients", "10",
                             "--answers", "60"], capture_output=True, text=True, env=ENV, cwd=REPO, timeout=300)
    assert result.returncode == 0, result.stderr
    assert ("10 phones (6 seats playing random games of mall-of-horror, 4 spectators in a process of their own)"
            in result.stdout)
    assert "answer -> ack" in result.stdout and "server peak memory" in result.stdout
    assert "the save file's disk       fdatasync p50" in result.stdout
    acknowledged = int(result.stdout.split("answers acknowledged")[1].split()[0])
    assert acknowledged >= 60
    from companion.games import GAMES

    for game in GAMES:  # the page's bytes on the wire, per game (a weak Wi-Fi: issue 31)
        (line,) = [line for line in result.stdout.splitlines() if line.split()[:1] == [game]]
        assert " page " in line and " KB in " in line and "answered 304" in line, line


@pytest.mark.parametrize("game", ["mall-of-horror", "eaten-by-zombies", "zombiegeddon", "district-z"])
def test_bench_soak_plays_whole_games_back_to_back_with_no_stall_and_prints_its_windows(game):
    result = subprocess.run([sys.executable, "-m", "companion", "bench", "soak", "--game", game, "--minutes", "0.25",
                             "--players", "3"], capture_output=True, text=True, env=ENV, cwd=REPO, timeout=200)
    assert "STALL" not in result.stdout, result.stdout
    assert result.returncode == 0, result.stdout + result.stderr  # no stall, no traceback in the server's log
    assert "RSS MB   fds   save KB" in result.stdout and "slopes: memory" in result.stdout
    assert "MB/min (second half " in result.stdout
    acks = [int(line.split()[5]) for line in result.stdout.splitlines() if line[:9].strip().replace(".", "").isdigit()]
    assert sum(acks) > 10  # the bots really played
    presses = int(result.stdout.split("pad presses ")[-1].split()[0])
    assert presses > 5 and f"({presses} answered OK or NO by the box)" in result.stdout  # every press heard back


def test_the_soak_calls_it_a_stall_when_every_asked_seat_was_answered_and_nothing_comes():
    from companion.bench.soak import Seat, Soak

    soak = Soak("mall-of-horror", ["red", "blue"], 1)
    view = {"over": False, "prompt": {"id": "q1", "waiting": ["red"]}, "question": {"id": "q1"}}
    red, blue = Seat("red", None, view=view, question="q1", acked=True), Seat("blue", None, view=view)
    soak.last_message -= 60
    assert soak.stalled([red, blue])
    red.acked, red.tries = False, [{"seat": "red", "vote": "blue"}]  # an answer still to try: not a stall yet
    assert not soak.stalled([red, blue])
    red.tries, red.rounds = [], 3  # three times through every answer, none accepted: stuck
    assert soak.stalled([red, blue])
    red.acked, soak.last_message = True, soak.last_message + 60  # a message just came: not a stall
    assert not soak.stalled([red, blue])
