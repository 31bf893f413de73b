"""Zombiegeddon played start to finish on the touchscreen, offscreen, by touch: the new-game form (the game, the
colours, an option), every turn's actions, the secret entries behind the cover (numbers by − and +), a sheet
corrected after it was handed in (from the board's seat card), the end with every sheet's breakdown. On the way,
screenshots of the board at each phase, a number question and the end in four languages, each checked (no text
overflowing, no missing glyph, no key or English left) — kept in tests/screenshots/zombiegeddon/.

The driver runs in a process of its own (one Kivy window per process): `python tests/test_zombiegeddon_ui.py OUT`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "tests" / "screenshots" / "zombiegeddon"
ENV = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
       "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), str(ROOT / "tests"), os.environ.get("PYTHONPATH")]))}
PLAYERS = ["red", "yellow"]
LINES = ("food", "food_points", "zombies", "zombie_points", "tokens")


def lines(seat: str, *numbers: int) -> list[dict]:
    return [{"seat": seat, "line": line, "number": n} for line, n in zip(LINES, numbers, strict=True)]


def turn(seat: str, act: str = "action") -> dict:
    return {"seat": seat, "act": act}


# A whole game with small numbers (each entered by taps): a tie at 2 re-entered, Red corrects his tokens after
# handing his sheet in, Yellow's zombie total entered with +10.
ACTIONS = [turn("red"), turn("red"), turn("yellow"), turn("yellow", "phase_end"),
           {"seat": "red", "largest": 2}, {"seat": "yellow", "largest": 2},
           {"seat": "red", "largest": 1}, {"seat": "yellow", "largest": 0},
           turn("red"), turn("red"), turn("yellow", "phase_end"),
           *lines("red", 1, 2, 0, 0, 1), {"seat": "red", "sheet": "hand_in"}, *lines("yellow", 0, 0, 2, 12, 2),
           {"seat": "red", "sheet": "tokens"}, {"seat": "red", "line": "tokens", "number": 2},
           {"seat": "red", "sheet": "hand_in"}, {"seat": "yellow", "sheet": "hand_in"}]


def test_a_whole_game_by_touch_with_screenshots_in_four_languages(tmp_path):
    out = tmp_path / "report.json"
    done = subprocess.run([sys.executable, __file__, str(out), str(tmp_path)], env=ENV, cwd=ROOT,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-4000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["over"] and report["winners"] == ["yellow"]
    assert report["final_screen"] == "end"
    assert {"newgame", "board", "cover", "answer", "end"} <= set(report["screens"])
    assert report["answers"] == report["expected"] and report["corrected"]
    assert report.get("confirmed", 0) >= 2  # pre-bomb's end and the game's end each took "Sure? Tap again"
    assert not report["problems"], "\n".join(report["problems"][:20])
    assert len(report["shots"]) == 7 * 4 and all(Path(p).stat().st_size > 10_000 for p in report["shots"])
    seen = "\n".join(report["seen"])
    # what the board says while the game goes on, and the end's breakdown
    assert "Red's turn" in seen and "Actions: 1 of 2" in seen and "sheet in ✓" in seen and "entered ✓" in seen
    assert "Yellow: 25 points (food 0 discs: 0 printed + 0 set bonus and zombies 2 discs: 12 printed + 3 set " \
        "bonus" in seen
    assert "Red: 13 points" in seen and "Yellow wins with 25 points" in seen
    assert report["tens"] == 1  # a total entered with +10 once, then +1 twice
    assert "Starts post-bomb: Red" in seen
    # while the entries are secret the board says who has entered, and nothing of what
    before = "\n".join(report["board_before_reveal"])
    assert "entered ✓" in before and "Largest zombie discs:" not in before


# -- the driver (its own process) -----------------------------------------------------------------------------


def drive(out: Path, tmp: str) -> None:
    import asyncio
    import tempfile

    import uikit
    from uikit import Driver, Glyphs, open_box, run_with

    from companion.ui.app import CompanionApp
    from companion.ui.parts import SeatCard
    from companion.ui.widgets import Action, SeatButton

    players, actions = PLAYERS, ACTIONS
    SHOTS.mkdir(parents=True, exist_ok=True)
    glyphs = Glyphs()
    report: dict = {"seen": [], "screens": set(), "shots": [], "problems": [], "answers": 0, "corrected": False,
                    "expected": len(actions), "board_before_reveal": [], "tens": 0}

    async def main() -> None:
        box = open_box(tempfile.mktemp(suffix=".sqlite3", dir=tmp))
        await box.open()
        app = CompanionApp(box, lang="en")
        taken: set[str] = set()

        async def capture(d: Driver, name: str) -> None:
            if name in taken:
                return
            taken.add(name)
            texts = await d.shoot_languages(lambda lang: SHOTS / f"{name}-{lang}.png", glyphs, report)
            report["seen"] += texts["en"]
            await d.settle(2)

        async def script_(d: Driver) -> None:
            table = app.table
            report["screens"].add(app.manager.current)
            await d.tap(d.find(Action, lambda w: getattr(w, "game", None) == "zombiegeddon"))
            for colour in players:
                await d.tap(d.find(Action, lambda w, c=colour: getattr(w, "colour", None) == c))
            await d.tap(app.manager.current_screen.ids.start)
            assert table.state is not None and table.rules.NAME == "zombiegeddon"
            index, steps = 0, 0
            while index < len(actions):
                steps += 1
                if steps > 40 * len(actions):
                    raise RuntimeError("the game does not go on")
                action = actions[index]
                screen = app.manager.current
                report["screens"].add(screen)
                report["seen"] += d.texts()
                if screen == "join":
                    await d.tap(app.manager.current_screen.ids.back)
                    continue
                if screen == "board":
                    phase = table.state.phase
                    if phase == "largest" and not table.state.revealed:
                        report["board_before_reveal"] += d.texts()
                    if phase == "pre" and table.state.actions == 1:
                        await capture(d, "board-turn")
                    if phase == "largest" and table.state.entries:
                        await capture(d, "board-largest")
                    if phase == "post" and table.state.turn == table.state.starter:
                        await capture(d, "board-post")
                    seat = action["seat"]
                    waiting = table.rules.prompt(table.state).seats
                    if seat in waiting:
                        await d.tap(d.find(SeatButton, lambda w, s=seat: w.seat == s))
                    else:  # a sheet handed in, corrected from its seat card
                        await capture(d, "board-sheets")
                        card = d.find(SeatCard, lambda w, s=seat: w.seat == s)
                        await d.tap(card.answer)
                        report["corrected"] = True
                    await d.until(lambda: app.manager.current != "board")
                elif screen == "cover":
                    await d.tap(app.manager.current_screen.ids.go)
                    await d.until(lambda: app.manager.current != "cover")
                elif screen == "answer":
                    question = table.question(app.manager.current_screen.seat)
                    before = len(table.events)
                    if question.kind == "number":
                        wanted = action[question.field]
                        if question.field == "number" and wanted >= 2:
                            await capture(d, "answer-number")
                        tens, ones = divmod(wanted - question.low, 10)
                        for _ in range(tens):  # a wide range has steps of ten
                            await d.tap(d.find(Action, lambda w: getattr(w, "answer_role", None) == "plus10"))
                            report["tens"] += 1
                        for _ in range(ones):
                            await d.tap(d.find(Action, lambda w: getattr(w, "answer_role", None) == "plus"))
                        await d.tap(d.find(Action, lambda w: getattr(w, "answer_role", None) == "send"))
                    else:
                        await d.tap(d.find(Action, lambda w, a=action: getattr(w, "answer_action", None) == a))
                        again = d.armed(action)
                        if again is not None:  # "Sure? Tap again": ending a phase takes a second tap
                            assert len(table.events) == before  # the first tap sent nothing
                            report["confirmed"] = report.get("confirmed", 0) + 1
                            await capture(d, "answer-armed")
                            await d.tap(d.armed(action))
                    if not await d.until(lambda b=before: len(table.events) > b):
                        raise RuntimeError(f"the answer {action} was not taken")
                    report["answers"] += 1
                    index += 1
                else:
                    raise RuntimeError(f"unexpected screen {screen}")
            await d.until(lambda: app.manager.current == "end", 5)
            report["screens"].add(app.manager.current)
            await capture(d, "end")
            report["seen"] += d.texts()
            report["over"] = bool(table.state.over)
            report["winners"] = list(table.state.winners)
            report["final_screen"] = app.manager.current

        try:
            await run_with(app, script_)
        finally:
            await box.close()

    asyncio.run(main())
    report["screens"] = sorted(report["screens"])
    assert uikit
    out.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "tests"))
    drive(Path(sys.argv[1]), sys.argv[2])
