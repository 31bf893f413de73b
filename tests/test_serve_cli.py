"""`companion serve`: prints the host URL first, then a URL (and QR) per seat; resumes with the same seats."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def serve(*args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", "0",
                             *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def read_until_seats(process: subprocess.Popen, seats: int) -> list[str]:
    lines = []
    while sum(line.startswith("seat ") for line in lines) < seats:
        line = process.stdout.readline()
        assert line, f"serve stopped: {process.stderr.read()}"
        lines.append(line.rstrip("\n"))
    return lines


def stop(process: subprocess.Popen) -> int:
    process.send_signal(signal.SIGTERM)
    return process.wait(timeout=10)


def test_serve_prints_host_first_then_each_seat_with_a_qr_code(tmp_path):
    db = str(tmp_path / "serve.sqlite3")
    process = serve("--db", db, "--players", "red,blue,yellow,green")
    try:
        lines = read_until_seats(process, 4)
    finally:
        assert stop(process) == 0
    assert lines[0].startswith("host http://127.0.0.1:") and "/h/" in lines[0]
    seats = [line.split() for line in lines if line.startswith("seat ")]
    assert [s[1] for s in seats] == ["red", "blue", "yellow", "green"]
    assert all("/s/" in s[2] for s in seats)
    assert any("█" in line for line in lines)  # the QR codes drawn in the terminal

    again = serve("--db", db, "--no-qr")  # no --players: the unfinished game is resumed
    try:
        resumed = read_until_seats(again, 4)
    finally:
        stop(again)
    assert any(line.startswith("resumed game") for line in resumed)
    assert [line.split()[:2] for line in resumed if line.startswith("seat ")] == [s[:2] for s in seats]
    tokens = lambda ls: [line.split()[2].rsplit("/", 1)[1] for line in ls if line.startswith("seat ")]  # noqa: E731
    assert tokens(resumed) == tokens(lines)


def test_serve_without_a_game_waits_for_the_host_page(tmp_path):
    process = serve("--db", str(tmp_path / "empty.sqlite3"))
    try:
        first, second, third = (process.stdout.readline().strip() for _ in range(3))
    finally:
        stop(process)
    assert first.startswith("host ") and second.startswith("watch ") and "waiting for the host" in third


def test_serve_refuses_bad_players_and_foreign_files(tmp_path):
    bad = serve("--db", str(tmp_path / "x.sqlite3"), "--players", "red,pink,blue")
    assert bad.wait(timeout=10) == 2 and "pink" in bad.stderr.read()
    foreign = tmp_path / "notes.txt"
    foreign.write_text("my shopping list\n")
    refused = serve("--db", str(foreign))
    assert refused.wait(timeout=10) == 2 and "not a companion database" in refused.stderr.read()
    assert foreign.read_text() == "my shopping list\n"


def test_history_reads_a_save_file_a_running_table_holds(tmp_path):
    import subprocess
    import sys

    from companion.store import EventStore

    path = tmp_path / "running.sqlite3"
    with EventStore(path) as store:  # the table's process holds the save file
        store.new_game("mall-of-horror", ["red", "blue", "yellow"], {})
        done = subprocess.run([sys.executable, "-m", "companion", "history", "--db", str(path)],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "no finished games yet"
