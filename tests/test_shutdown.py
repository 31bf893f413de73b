"""Safe shutdown and restart: from the touchscreen's menu (with its confirmation) and from a GPIO power button
(gpiozero's MockFactory), the app stops, the box closes (the save file checkpointed and let go) and only then is
the machine told to power off or restart; the save file is checkpointed when the table is idle.

The touchscreen runs for real (`companion.ui.run.run`, Kivy offscreen) in a process of its own, driven by touches;
`systemctl` is replaced by a recorder (COMPANION_POWER_COMMAND) that also checks, at the moment it is called, that
the save file is closed: unlocked, and its write-ahead log empty.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from companion import power
from companion.box import Box, BoxOptions
from companion.store import EventStore

REPO = Path(__file__).resolve().parents[1]
SHOTS = REPO / "tests" / "screenshots" / "power"

DRIVER = textwrap.dedent('''
    import asyncio, json, os, sys, time
    os.environ["SDL_VIDEODRIVER"] = "offscreen"
    from companion.box import BoxOptions
    from companion.ui import run as ui_run

    plan = json.loads(sys.argv[1])
    seen = []

    async def drive():
        from kivy.app import App
        from kivy.clock import Clock
        from kivy.core.window import Window
        from kivy.tests.common import UnitTestTouch

        app = None
        for _ in range(600):
            app = App.get_running_app()
            if app is not None and getattr(app, "manager", None) is not None and Clock.frames > 3:
                break
            await asyncio.sleep(0.05)

        async def frames(n=3):
            target = Clock.frames + n
            while Clock.frames < target:
                await asyncio.sleep(0.02)

        async def tap(widget):
            x, y = widget.to_window(*widget.center)
            touch = UnitTestTouch(x, y)
            touch.touch_down()
            await frames(1)
            touch.touch_up()
            await frames(3)

        for step in plan["steps"]:
            if step[0] == "goto":
                app.goto(step[1])
                await frames()
            elif step[0] == "tap":
                screen, name = step[1], step[2]
                await tap(app.screen(screen).ids[name])
            elif step[0] == "shot":
                await frames()
                Window.screenshot(step[1])
            elif step[0] == "say":
                screen = app.manager.current
                ids = app.screen(screen).ids
                seen.append({"screen": screen, "texts": {k: getattr(w, "text", None) for k, w in ids.items()
                                                          if isinstance(getattr(w, "text", None), str)}})
                with open(plan["seen"], "w") as out:
                    json.dump(seen, out)
            elif step[0] == "press":
                from gpiozero import Device

                pin = Device.pin_factory.pin(step[1])
                pin.drive_low()
                await asyncio.sleep(step[2])
                if step[3]:
                    pin.drive_high()
            elif step[0] == "wait":
                await asyncio.sleep(step[1])
        app.stop()  # still running after every step: the power-off did not happen

    async def main():
        options = BoxOptions(db=plan["db"], host="127.0.0.1", port=0, players=plan.get("players"))
        task = asyncio.ensure_future(drive())
        code = await ui_run.run(options, lang=plan.get("lang", "en"), power_button=plan.get("button"))
        if task.done() and task.exception():
            raise task.exception()
        task.cancel()
        return code

    sys.exit(asyncio.run(main()))
''')

# The stand-in for systemctl: records its argument, and whether the save file was closed when it was called.
RECORDER = textwrap.dedent('''
    import fcntl, json, os, sys
    db, record = sys.argv[1], sys.argv[2]
    fd = os.open(db, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        locked = False
    except OSError:
        locked = True
    wal = os.path.getsize(db + "-wal") if os.path.exists(db + "-wal") else 0
    with open(record, "a") as out:
        out.write(json.dumps({"action": sys.argv[3], "locked": locked, "wal": wal}) + "\\n")
''')


def _run_app(tmp_path: Path, plan: dict, env: dict[str, str], timeout: float = 240) -> tuple[int, str, list]:
    plan = {"db": str(tmp_path / "box.sqlite3"), "seen": str(tmp_path / "seen.json"), **plan}
    full_env = {**os.environ, "KIVY_NO_ARGS": "1", "XDG_CACHE_HOME": str(tmp_path / "cache"),
                "XDG_DATA_HOME": str(tmp_path / "data"), **env}
    done = subprocess.run([sys.executable, "-c", DRIVER, json.dumps(plan)], cwd=REPO, env=full_env,
                          capture_output=True, text=True, timeout=timeout)
    seen = json.loads(Path(plan["seen"]).read_text()) if Path(plan["seen"]).exists() else []
    return done.returncode, done.stdout + done.stderr, seen


def test_shut_down_from_the_menu_closes_the_box_before_systemctl(tmp_path):
    SHOTS.mkdir(parents=True, exist_ok=True)
    record = tmp_path / "systemctl.jsonl"
    db = tmp_path / "box.sqlite3"
    recorder = f"{sys.executable} -c '{RECORDER}' {db} {record}"
    plan = {"players": ["red", "blue", "yellow"], "steps": [
        ["goto", "menu"], ["shot", str(SHOTS / "menu-en.png")], ["say"],
        ["tap", "menu", "restart"], ["say"], ["tap", "confirm", "no"],  # a change of mind: nothing happens
        ["goto", "menu"], ["tap", "menu", "power_off"], ["shot", str(SHOTS / "confirm-poweroff-en.png")], ["say"],
        ["tap", "confirm", "yes"], ["wait", 30],  # the app stops: the wait is cut short
    ]}
    code, said, seen = _run_app(tmp_path, plan, {"COMPANION_POWER_COMMAND": recorder})
    assert code == 0, said
    calls = [json.loads(line) for line in record.read_text().splitlines()]
    assert calls == [{"action": "poweroff", "locked": False, "wal": 0}], said  # once, after the box let go
    menu, asked_restart, asked_off = seen
    assert menu["texts"]["power_off"] == "Shut down" and menu["texts"]["restart"] == "Restart"
    assert asked_restart["screen"] == "confirm" and asked_restart["texts"]["title"] == "Restart the box?"
    assert asked_off["texts"]["title"] == "Shut the box down?" and asked_off["texts"]["yes"] == "Yes, shut down"
    with EventStore(db) as store:  # the game is whole in the file and resumes
        assert store.unfinished() is not None and store.unfinished().players == ("red", "blue", "yellow")


def test_power_button_held_powers_off_through_the_kiosk_unit_in_vietnamese(tmp_path):
    plan = {"players": ["red", "blue", "yellow"], "lang": "vi", "button": 17, "steps": [
        ["goto", "menu"], ["say"], ["shot", str(SHOTS / "menu-vi.png")],
        ["press", 17, 0.3, True],  # a short press: nothing
        ["wait", 0.5], ["say"],
        ["press", 17, power.HOLD_SECONDS + 1, False], ["wait", 30],  # held: the box powers off
    ]}
    code, said, seen = _run_app(tmp_path, plan, {"GPIOZERO_PIN_FACTORY": "mock", "COMPANION_POWER": "exit",
                                                 "COMPANION_POWER_COMMAND": "false"})
    assert code == power.EXIT_CODES["poweroff"], said
    assert "poweroff (the kiosk unit does it)" in said
    menu, after_short_press = seen
    assert menu["texts"]["power_off"] == "Tắt máy" and menu["texts"]["restart"] == "Khởi động lại"
    assert after_short_press["screen"] == "menu"  # still running after the short press
    wal = Path(f"{tmp_path / 'box.sqlite3'}-wal")
    assert not wal.exists() or wal.stat().st_size == 0


def test_finish_runs_the_command_or_says_why_it_could_not(tmp_path, monkeypatch, capsys):
    record = tmp_path / "called"
    monkeypatch.delenv("COMPANION_POWER", raising=False)
    monkeypatch.setenv("COMPANION_POWER_COMMAND", f"sh -c 'echo \"$0\" >> {record}'")
    assert power.finish(None) == 0 and not record.exists()
    assert power.finish("reboot") == 0
    assert record.read_text() == "reboot\n"
    monkeypatch.setenv("COMPANION_POWER_COMMAND", str(tmp_path / "no-such-systemctl"))
    assert power.finish("poweroff") == 1
    assert "cannot poweroff" in capsys.readouterr().err
    monkeypatch.setenv("COMPANION_POWER_COMMAND", "false")  # systemctl refused (no right to power off)
    assert power.finish("poweroff") == 1
    monkeypatch.setenv("COMPANION_POWER", "exit")
    assert power.finish("reboot") == power.EXIT_CODES["reboot"] == 11
    with pytest.raises(ValueError):
        power.finish("halt-and-catch-fire")


def test_power_button_on_mock_pins_short_press_does_nothing_held_asks_poweroff():
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    asked = []
    button = power.PowerButton(5, asked.append, hold=0.3, pin_factory=factory)
    pin = factory.pin(5)
    try:
        pin.drive_low()
        pin.drive_high()  # released at once
        time.sleep(0.6)
        assert asked == []
        pin.drive_low()
        deadline = time.monotonic() + 10
        while not asked and time.monotonic() < deadline:
            time.sleep(0.05)
        assert asked == ["poweroff"]
    finally:
        button.close()
    assert button.button.closed


def test_the_save_file_is_checkpointed_once_the_table_is_idle(tmp_path):
    db = tmp_path / "box.sqlite3"
    wal = Path(f"{db}-wal")

    async def play() -> list[int]:
        box = Box(BoxOptions(db=str(db), host="127.0.0.1", port=0, players=["red", "blue", "yellow"]))
        box.idle_checkpoint = 0.2
        await box.open()
        sizes = [wal.stat().st_size]  # the new game is in the WAL
        try:
            for _ in range(200):
                await asyncio.sleep(0.05)
                if wal.stat().st_size == 0:
                    break
            sizes.append(wal.stat().st_size)  # idle: checkpointed, the WAL emptied
            box.store.set_setting("probe", 1)
            sizes.append(wal.stat().st_size)
            for _ in range(200):
                await asyncio.sleep(0.05)
                if wal.stat().st_size == 0:
                    break
            sizes.append(wal.stat().st_size)
        finally:
            await box.close()
        return sizes

    first, idle, written, idle_again = asyncio.run(play())
    assert first > 0 and written > 0
    assert idle == 0 and idle_again == 0
    with EventStore(db) as store:
        assert store.unfinished() is not None and store.setting("probe") == 1


def test_checkpoint_says_false_when_a_reader_holds_the_log(tmp_path):
    db = tmp_path / "box.sqlite3"
    with EventStore(db) as store:
        store.set_setting("a", 1)
        reader = EventStore(db, readonly=True)
        try:
            reader._db.execute("BEGIN")
            reader._db.execute("SELECT count(*) FROM meta").fetchone()  # a read transaction on the WAL's pages
            store.set_setting("b", 2)
            assert store.checkpoint() is False  # TRUNCATE cannot reset the log under a reader: nothing is lost
            reader._db.execute("COMMIT")
        finally:
            reader.close()
        assert store.checkpoint() is True
        assert Path(f"{db}-wal").stat().st_size == 0
    assert store.checkpoint() is False  # closed: nothing to do
