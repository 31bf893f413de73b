"""District-Z on the touchscreen, offscreen: a whole two-player game by touch (the new-game form with its grid option,
each seat's button, every kind of answer: corners and moves picked, numbers stepped, the dice pairing sent as the
rules propose it), to the end screen; then a four-player city mid-combat, the board and the pairing question
screenshot in four languages at 800×480, every text checked (fits its box, its font has the glyphs, translated).

Run by pytest, this file starts itself as a script in a process of its own (one Kivy window per process):
    python tests/test_district_z_ui.py --out report.json --shots tests/screenshots/district-z
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "tests" / "screenshots" / "district-z"

# The touch game: solo on a 4 × 4 city: an item at B1, the objective card and two zombies at C1, then the walk to
# D4, the corner opposite. Answers in order, then the cup's dice and picks.
R, B = "red", "blue"
TOUCH = [
    (R, {"attack": 3}), (R, {"health": 4}), (R, {"found": "district"}),
    (R, {"move": "e"}), (R, {"found": "district"}), (R, {"outcome": "item"}), (R, {"kind": "dual"}),
    (R, {"bonus": 1}), (R, {"bonus": 0}),
    (R, {"move": "e"}), (R, {"found": "objective"}), (R, {"outcome": "zombies"}), (R, {"zombies": 2}),
    (R, {"use": [0]}), (R, "pairs"), (R, {"keep": True}),
    (R, {"move": "s"}), (R, {"found": "district"}), (R, {"outcome": "nothing"}),
    (R, {"move": "s"}), (R, {"found": "district"}), (R, {"outcome": "nothing"}),
    (R, {"move": "e"}), (R, {"found": "district"}), (R, {"outcome": "nothing"}),
    (R, {"move": "s"}), (R, {"found": "district"}), (R, {"outcome": "nothing"}),
]
TOUCH_DICE = [(2,), (1,), (5, 6, 1, 2), (2, 3), (3,), (5,), (6,), (4,)]

# The screenshots' city: four players' first turns (an item, a fight won, an objective card found), then red meets
# four zombies.
Y, G = "yellow", "green"
CITY = [
    (R, {"corner": "nw"}), (Y, {"corner": "ne"}), (B, {"corner": "sw"}), (G, {"corner": "se"}),
    (R, {"attack": 3}), (R, {"health": 5}), (R, {"found": "district"}), (R, {"move": "e"}),
    (R, {"found": "district"}), (R, {"outcome": "nothing"}),
    (Y, {"attack": 2}), (Y, {"health": 4}), (Y, {"found": "district"}), (Y, {"move": "s"}),
    (Y, {"found": "district"}), (Y, {"outcome": "item"}), (Y, {"kind": "two"}), (Y, {"bonus": 2}),
    (Y, {"bonus": 1}),
    (B, {"attack": 2}), (B, {"health": 6}), (B, {"found": "district"}), (B, {"move": "n"}),
    (B, {"found": "district"}), (B, {"outcome": "zombies"}), (B, {"zombies": 3}), (B, "pairs"), (B, "pairs"),
    (G, {"attack": 3}), (G, {"health": 4}), (G, {"found": "district"}), (G, {"move": "w"}),
    (G, {"found": "objective"}), (G, {"outcome": "nothing"}),
    (R, {"move": "s"}), (R, {"found": "district"}), (R, {"outcome": "zombies"}), (R, {"zombies": 4}),
]
CITY_DICE = [(1,), (2,), (4,), (6, 1), (3, 4, 2), (5, 5), (2, 3), (5,), (3,), (4, 2, 6), (3, 3, 5, 1)]


def action(table, seat: str, fields) -> dict:
    """The answer as a device sends it ("pairs": the rules' proposal, as the screen starts from it)."""
    if fields == "pairs":
        return dict(table.question(seat).answer)
    return {"seat": seat, **fields}


def test_district_z_is_played_to_its_end_by_touch_and_reads_well_in_four_languages(tmp_path):
    out = tmp_path / "report.json"
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, __file__, "--out", str(out), "--tmp", str(tmp_path),
                           "--shots", str(SHOTS)], env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["over"] and report["winners"] == ["red"] and report["final_screen"] == "end"
    assert report["answers"] == len(TOUCH) and set(report["kinds"]) == {"pick", "number", "assign"}
    seen = "\n".join(report["seen"])
    missing = [line for line in report["narration"] if line not in seen]
    assert not missing, f"never on the screen: {missing[:5]}"
    assert "Red" in "\n".join(report["end"])  # the end screen names the winner
    assert not report["problems"], "\n".join(report["problems"][:20])
    shots = report["shots"]
    assert len(shots) == 4 * 4 and all(Path(p).stat().st_size > 10_000 for p in shots)
    board = report["board_texts"]  # the city mid-combat, as each language reads it
    assert "紅骰 4 2 6" in "\n".join(board["zh-Hant"]) and "黑骰 3 3 5 1" in "\n".join(board["zh-Hant"])
    assert "红骰 4 2 6" in "\n".join(board["zh-Hans"]) and "Xí ngầu đỏ 4 2 6" in "\n".join(board["vi"])
    pair = "\n".join(report["pair_texts"]["zh-Hant"])
    assert "紅骰 1：4" in pair and "黑骰 4：1" in pair and "不配對" in pair


# -- the script, in its own process ------------------------------------------------------------------------------


def main() -> int:
    import argparse
    import asyncio

    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--tmp", default=None)
    parser.add_argument("--shots", default=str(SHOTS))
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "tests"))
    report = asyncio.run(play(args))
    Path(args.out).write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


async def play(args) -> dict:
    import tempfile

    import uikit
    from uikit import Driver, Glyphs, open_box, run_with

    from companion.contract import ASSIGN, NUMBER
    from companion.cup import DiceCup
    from companion.ui.app import CompanionApp
    from companion.ui.widgets import Action, SeatButton

    shots_dir = Path(args.shots)
    shots_dir.mkdir(parents=True, exist_ok=True)
    db = tempfile.mktemp(suffix=".sqlite3", dir=args.tmp)
    box = open_box(db)
    await box.open()
    box.table.cup = DiceCup(scripted=TOUCH_DICE, picks=[0])
    app = CompanionApp(box, lang="en")
    glyphs = Glyphs()
    size = f"{uikit.Window.width}x{uikit.Window.height}"
    report: dict = {"seen": [], "kinds": set(), "answers": 0, "shots": [], "problems": [], "board_texts": {},
                    "pair_texts": {}}

    async def capture(d: Driver, name: str, goto=None, **options) -> None:
        texts = await d.shoot_languages(lambda lang: shots_dir / f"{name}-{lang}-{size}.png", glyphs, report,
                                        (lambda: app.goto(goto, **options)) if goto else None)
        if name == "board-combat":
            report["board_texts"] = texts
        if name == "answer-pair":
            report["pair_texts"] = texts
        await d.settle(2)

    async def script(d: Driver) -> None:
        table = app.table
        await d.tap(d.find(Action, lambda w: getattr(w, "game", None) == "district-z"))
        for colour in (R,):
            await d.tap(d.find(Action, lambda w, c=colour: getattr(w, "colour", None) == c))
        await d.tap(d.find(Action, lambda w: w.text == "4 × 4"))
        await capture(d, "newgame")
        await d.tap(app.manager.current_screen.ids.start)
        assert table.state is not None and table.rules.NAME == "district-z" and table.state.width == 4
        index, steps = 0, 0
        while index < len(TOUCH):
            steps += 1
            if steps > 20 * len(TOUCH):
                raise RuntimeError("the game does not go on")
            screen = app.manager.current
            report["seen"] += d.texts()
            seat, fields = TOUCH[index]
            if screen == "join":
                await d.tap(app.manager.current_screen.ids.back)
            elif screen == "board":
                await d.tap(d.find(SeatButton, lambda w, s=seat: w.seat == s))
                await d.until(lambda: app.manager.current != "board")
            elif screen == "answer":
                question = table.question(seat)
                report["kinds"].add(question.kind)
                wanted = action(table, seat, fields)
                before = len(table.events)
                if question.kind == NUMBER:
                    for _ in range(wanted[question.field] - question.low):
                        await d.tap(d.find(Action, lambda w: getattr(w, "answer_role", None) == "plus"))
                    await d.tap(d.find(Action, lambda w: getattr(w, "answer_role", None) == "send"))
                elif question.kind == ASSIGN:  # the proposal is on the screen already: sent as it is
                    await d.tap(d.find(Action, lambda w: getattr(w, "answer_role", None) == "send"))
                else:
                    await d.tap(d.find(Action, lambda w, a=wanted: getattr(w, "answer_action", None) == a))
                if not await d.until(lambda b=before: len(table.events) > b, 5):
                    raise RuntimeError(f"the answer {wanted} was not taken on {screen}")
                assert table.events[before]["answer"] == wanted, (table.events[before], wanted)
                index += 1
                report["answers"] += 1
            else:
                raise RuntimeError(f"unexpected screen {screen}")
        await d.until(lambda: app.manager.current == "end", 5)
        await d.settle(3)
        report["seen"] += d.texts()
        report["end"] = d.texts()
        report["final_screen"] = app.manager.current
        report["over"] = bool(table.state.over)
        report["winners"] = list(table.state.winners)
        report["narration"] = [app.words.say(e.message) for e in table.narration() if not e.seats]
        await capture(d, "end", "end")

        # The screenshots' city: four players, red meets four zombies and pairs his dice.
        table.cup = DiceCup(scripted=CITY_DICE)
        table.new_game("district-z", [R, Y, B, G])
        app.goto("board")
        for seat, fields in CITY:
            table.answer(action(table, seat, fields))
        await capture(d, "board-combat", "board")
        await capture(d, "answer-pair", "answer", seat=R)
        app.goto("board")

    try:
        await run_with(app, script)
    finally:
        await box.close()
    report["kinds"] = sorted(report["kinds"])
    return report


if __name__ == "__main__":
    sys.exit(main())
