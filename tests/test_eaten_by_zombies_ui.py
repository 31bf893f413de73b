"""Eaten by Zombies! on the touchscreen, offscreen: the real app and box, a whole game (tests/scripts/
eaten-by-zombies.json) entered by touch from the new-game form to the end (flips in two taps, additions, fight or
run, the values with + and −, a zombie player's secret draws behind the cover), the board and the questions
photographed in the four languages and every text checked (fits, glyphs, no key or English left).

The driver runs in a process of its own (one Kivy window per process): `python tests/test_eaten_by_zombies_ui.py
OUT.json TMP`. Screenshots go to tests/screenshots/eaten-by-zombies/."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "scripts" / "eaten-by-zombies.json"
SHOTS = ROOT / "tests" / "screenshots" / "eaten-by-zombies"


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> dict:
    tmp = tmp_path_factory.mktemp("ebz-ui")
    out = tmp / "report.json"
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), str(ROOT / "tests"), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, __file__, str(out), str(tmp)], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(out.read_text(encoding="utf-8"))


def test_a_whole_game_of_eaten_by_zombies_is_played_by_touch_to_its_end(report):
    assert report["over"] and report["winners"] == ["yellow"]
    assert report["final_screen"] == "end"
    assert report["answers"] == len(json.loads(SCRIPT.read_text(encoding="utf-8"))["actions"])
    assert {"newgame", "board", "answer", "cover", "end"} <= set(report["screens"])
    assert report["kinds"] == ["number", "pick"]
    assert report["rounding"] == "up"  # chosen by touch on the form


def test_every_line_of_the_narration_appears_on_the_touchscreen(report):
    seen = "\n".join(report["seen"])
    missing = [line for line in report["narration"] if line not in seen]
    assert len(report["narration"]) > 60
    assert not missing, missing[:5]


def test_the_zombie_players_draws_stay_behind_the_cover(report):
    assert report["private"]  # his draws and put-backs are lines for him alone
    seen_on_board = "\n".join(report["board_texts"])
    assert not any(line in seen_on_board for line in report["private"])
    assert report["covered"] >= 2  # the secret questions (draw levels, put back) were handed over behind the cover
    # his hand of zombies, behind hold-to-peek on his own answer screen
    assert any("your hand of zombies" in text for text in report["zback_texts"])


def test_the_board_and_the_questions_in_four_languages_fit_and_say_everything_in_their_language(report):
    assert not report["problems"], "\n".join(report["problems"][:20])
    shots = {Path(p).name for p in report["shots"]}
    for name in ("board-field", "board-powers", "answer-choose", "answer-number", "answer-add", "end"):
        for lang in ("en", "zh-Hans", "zh-Hant", "vi"):
            assert f"{name}-{lang}-800x480.png" in shots
    texts = report["texts"]
    assert "战斗" in texts["answer-choose-zh-Hans"] and "逃跑" in texts["answer-choose-zh-Hans"]
    assert "戰鬥" in texts["answer-choose-zh-Hant"] and "殭屍威能" in texts["board-powers-zh-Hant"]
    assert "殭屍威能" in texts["board-powers-zh-Hans"] and "Chiến đấu" in texts["answer-choose-vi"]
    assert "Powers in force" in texts["board-powers-en"] and "8: humans may not add zombies" in texts["board-powers-en"]


# -- the driver (in its own process) --------------------------------------------------------------------------


async def drive(out: Path, tmp: Path) -> None:
    import asyncio
    import tempfile

    import uikit
    from uikit import Driver, Glyphs, open_box, run_with

    from companion.contract import NUMBER
    from companion.cup import DiceCup
    from companion.ui.app import CompanionApp
    from companion.ui.widgets import Action, SeatButton

    script = json.loads(SCRIPT.read_text(encoding="utf-8"))
    answers = script["actions"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    box = open_box(tempfile.mktemp(suffix=".sqlite3", dir=tmp))
    await box.open()
    box.table.cup = DiceCup(picks=script["picks"])
    app = CompanionApp(box, lang="en")
    glyphs = Glyphs()
    size = f"{uikit.Window.width}x{uikit.Window.height}"
    report: dict = {"seen": [], "board_texts": [], "screens": set(), "kinds": set(), "shots": [], "problems": [],
                    "texts": {}, "covered": 0, "answers": 0}

    async def capture(d: Driver, name: str) -> None:
        """The screen as it is, in each language (then back to English)."""
        texts = await d.shoot_languages(lambda lang: SHOTS / f"{name}-{lang}-{size}.png", glyphs, report)
        report["texts"].update({f"{name}-{lang}": "\n".join(shown) for lang, shown in texts.items()})
        await d.settle(2)

    async def tap_action(d: Driver, test) -> None:
        button = d.find(Action, test)
        await d.tap(button)
        again = d.armed(getattr(button, "answer_action", None))
        if again is not None:  # "Sure? Tap again": dying or giving up takes a second tap
            await d.tap(again)

    async def tap_until(d: Driver, test, done) -> None:
        """Tap the button until the form shows it was taken (a tap in a scrolling list may be read as a scroll)."""
        for _ in range(4):
            await d.until(lambda: d.find(Action, test).width > 40, 5)  # the form is laid out
            await tap_action(d, test)
            if await d.until(done, 3):
                return
        raise RuntimeError("the form did not take the tap")

    async def script_(d: Driver) -> None:
        table = app.table
        report["screens"].add(app.manager.current)
        form = app.manager.current_screen
        await tap_until(d, lambda w: getattr(w, "game", None) == "eaten-by-zombies",
                        lambda: form.game == "eaten-by-zombies")
        for n, colour in enumerate(script["players"]):
            await tap_until(d, lambda w, c=colour: getattr(w, "colour", None) == c,
                            lambda n=n: len(form.players) == n + 1)
        up = app.words.t("ebz.option.run_rounding.up")
        await tap_until(d, lambda w: isinstance(w, Action) and w.text == up,
                        lambda: form.options.get("run_rounding") == "up")
        await d.tap(form.ids.start)
        assert table.state is not None and table.rules.NAME == "eaten-by-zombies", "the game did not start"
        report["rounding"] = table.state.options.rounding
        if app.manager.current == "join":
            await d.tap(app.manager.current_screen.ids.back)
        shots_taken: set[str] = set()
        index, steps = 0, 0
        while index < len(answers):
            steps += 1
            if steps > 20 * len(answers):
                raise RuntimeError("the game does not go on")
            action = answers[index]
            screen = app.manager.current
            report["screens"].add(screen)
            texts = d.texts()
            report["seen"] += texts
            if screen == "board":
                report["board_texts"] += texts
                view = app.view or {}
                if "board-field" not in shots_taken and len(view.get("field") or []) >= 2:
                    shots_taken.add("board-field")
                    await capture(d, "board-field")
                if "board-powers" not in shots_taken and view.get("in_force") and len(view.get("field") or []) >= 2:
                    shots_taken.add("board-powers")
                    await capture(d, "board-powers")
                await d.tap(d.find(SeatButton, lambda w, s=action["seat"]: w.seat == s))
                await d.until(lambda: app.manager.current != "board")
            elif screen == "cover":
                if app.manager.current_screen.stage == "before":
                    report["covered"] += 1
                await d.tap(app.manager.current_screen.ids.go)
                await d.until(lambda: app.manager.current != "cover")
            elif screen == "answer":
                question = table.question(app.manager.current_screen.seat)
                report["kinds"].add(question.kind)
                if question.step == "zback":
                    report["zback_texts"] = d.texts()
                for name, step in (("answer-choose", "choose"), ("answer-number", "value"), ("answer-add", "add")):
                    if name not in shots_taken and question.step == step:
                        shots_taken.add(name)
                        await capture(d, name)
                before = len(table.events)
                if question.kind == NUMBER:  # +10 where the screen offers it, then +
                    tens, ones = divmod(action[question.field] - (question.low or 0), 10)
                    if not any(getattr(w, "answer_role", None) == "plus10" for w in d.widgets(Action)):
                        tens, ones = 0, 10 * tens + ones
                    for role, times in (("plus10", tens), ("plus", ones)):
                        for _ in range(times):
                            await tap_action(d, lambda w, r=role: getattr(w, "answer_role", None) == r)
                    await tap_action(d, lambda w: getattr(w, "answer_role", None) == "send")
                else:
                    await tap_action(d, lambda w, a=action: getattr(w, "answer_action", None) == a)
                if not await d.until(lambda b=before: len(table.events) > b, 5):
                    raise RuntimeError(f"the answer {action} was not taken")
                index += 1
                report["answers"] += 1
            elif screen == "end":
                break
            else:
                raise RuntimeError(f"unexpected screen {screen}")
        await d.settle(3)
        if app.manager.current == "board":  # the end shows itself once the last lines are read
            await d.until(lambda: app.manager.current == "end", 5)
        report["screens"].add(app.manager.current)
        report["seen"] += d.texts()
        await capture(d, "end")
        report["over"] = bool(table.state.over)
        report["winners"] = list(table.state.winners)
        report["final_screen"] = app.manager.current
        report["narration"] = [app.words.say(e.message) for e in table.narration() if not e.seats]
        report["private"] = [app.words.say(e.message) for e in table.narration() if e.seats]
        await asyncio.sleep(0)

    try:
        await run_with(app, script_)
    finally:
        await box.close()
    report["screens"] = sorted(report["screens"])
    report["kinds"] = sorted(report["kinds"])
    out.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    import asyncio

    sys.path.insert(0, str(ROOT / "tests"))
    asyncio.run(drive(Path(sys.argv[1]), Path(sys.argv[2])))
