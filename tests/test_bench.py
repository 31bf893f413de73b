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


def test_bench_phones_runs_phones_against_companion_serve_and_prints_its_figures():
    result = subprocess.run([sys.executable, "-m", "companion", "bench", "phones", "--clients", "10",
                             "--answers", "60"], capture_output=True, text=True, env=ENV, cwd=REPO, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "10 phones (6 seats playing random games, 4 spectators in a process of their own)" in result.stdout
    assert "answer -> ack" in result.stdout and "server peak memory" in result.stdout
    assert "the save file's disk       fdatasync p50" in result.stdout
    acknowledged = int(result.stdout.split("answers acknowledged")[1].split()[0])
    assert acknowledged >= 60
    from companion.games import GAMES

    for game in GAMES:  # the page's bytes on the wire, per game (a weak Wi-Fi: issue 31)
        (line,) = [line for line in result.stdout.splitlines() if line.split()[:1] == [game]]
        assert " page " in line and " KB in " in line and "answered 304" in line, line


def test_revealed_text_finds_the_reveal_without_parsing():
    from companion.bench_phones import revealed_text

    raw = '{"v":1,"view":{"revealed":{"ballots":{"red":"blue"},"leaders":["blue"]},"cup":[1,2,3,4]}}'
    assert revealed_text(raw) == '"revealed":{"ballots":{"red":"blue"},"leaders":["blue"]'
    assert revealed_text('{"view":{}}') == ""


@pytest.mark.parametrize("game", ["mall-of-horror", "eaten-by-zombies", "zombiegeddon", "district-z"])
def test_bench_soak_plays_whole_games_back_to_back_with_no_stall_and_prints_its_windows(game):
    result = subprocess.run([sys.executable, "-m", "companion", "bench", "soak", "--game", game, "--minutes", "0.25",
                             "--players", "3"], capture_output=True, text=True, env=ENV, cwd=REPO, timeout=200)
    assert "STALL" not in result.stdout, result.stdout
    assert result.returncode == 0, result.stdout + result.stderr  # no stall, no traceback in the server's log
    assert "RSS MB   fds   save KB" in result.stdout and "slopes: memory" in result.stdout
    acks = [int(line.split()[5]) for line in result.stdout.splitlines() if line[:9].strip().replace(".", "").isdigit()]
    assert sum(acks) > 10  # the bots really played
    presses = int(result.stdout.split("pad presses ")[-1].split()[0])
    assert presses > 5 and f"({presses} answered OK or NO by the box)" in result.stdout  # every press heard back


def test_the_soak_calls_it_a_stall_when_every_asked_seat_was_answered_and_nothing_comes():
    from companion.bench_soak import Seat, Soak

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
