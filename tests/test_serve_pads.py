"""`companion serve --pads CONFIG`: the pads of a real table process, a pad hub on a pty pair."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from companion.pads.fake_hub import FakeHub
from companion.store import EventStore

REPO = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(REPO)}


def serve(db: Path, pads: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--db", str(db), "--host", "127.0.0.1", "--port", "0",
         "--players", "red,blue,yellow,green", "--no-qr", "--pads", str(pads)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)


def stored_answers(db: Path) -> list[dict]:
    with EventStore(db, readonly=True) as store:  # beside the running table, which holds the save file
        game = store.unfinished()
        return [e["answer"] for e in store.events(game.id) if "answer" in e] if game else []


def test_a_pad_on_the_hub_answers_for_its_seat_in_a_running_table(tmp_path):
    hub = FakeHub()
    path = hub.plug()
    config = tmp_path / "pads.toml"
    config.write_text(f'[serial]\nport = "{path}"\n[serial.pads]\n1 = "red"\n2 = "blue"\n')
    db = tmp_path / "table.sqlite3"
    process = serve(db, config)
    try:
        assert process.stdout.readline().startswith("host ")
        assert hub.wait_for(lambda h: h.lamps.get(1) == "ASK", timeout=10)  # Red (the Chief) places first
        assert hub.lamps.get(2) != "ASK"
        for button in range(1, 7):  # Red presses every button: only a location the dice show is taken
            hub.press(1, button)
        assert hub.wait_for(lambda h: len(h.replies) == 6 and not h.unacked, timeout=10)
        deadline = time.monotonic() + 10
        while not stored_answers(db) and time.monotonic() < deadline:
            time.sleep(0.05)
        answers = stored_answers(db)
        assert len(answers) == 1 and answers[0]["seat"] == "red" and answers[0]["go"] in range(1, 7)
        assert sorted(hub.replies.values()).count("OK") == 1
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0, process.stderr.read()
        hub.unplug()


def test_gpio_pads_without_a_gpio_header_say_so_and_stop(tmp_path):
    config = tmp_path / "pads.toml"
    config.write_text("[gpio.seats.red]\nbuttons = [5, 6, 13]\nled = 20\n")
    process = serve(tmp_path / "table.sqlite3", config)
    assert process.wait(timeout=20) == 2
    assert "no GPIO header found" in process.stderr.read()


def test_a_bad_pads_config_is_named_with_its_mistake(tmp_path):
    config = tmp_path / "pads.toml"
    config.write_text("[gpio.seats.red]\nbuttons = [5, 6, 99]\n")
    process = serve(tmp_path / "table.sqlite3", config)
    assert process.wait(timeout=20) == 2
    error = process.stderr.read()
    assert str(config) in error and "99" in error
