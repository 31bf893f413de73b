"""Names at the new game on the touchscreen, offscreen, by touch: a name's field beside each seat chosen, typed on the
screen's own docked keyboard (the box has no keyboard), the form making room above it; a too-long name and a name
given twice refused in one line, the table left without a game; names holding Kivy markup and HTML ("[b]Bo[/b]",
"<i>Al</i>", "[color=ff0000]Z") started, then shown as typed on the board, the join, answer, end and history screens
and the next new-game form (where the names used before are offered, and fill the field with the focus or the next
empty one), with no label of the app reading markup. The form with names is shot in the four languages at 800x480
(into <tmp>/shots/kivy/) and every text on it checked as in test_ui_screens.

The touchscreen runs in a process of its own (one Kivy window per process): this file is also its script.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from companion.catalogue import LANGUAGES
from companion.contract import Refusal
from companion.names import MAX_NAME
from companion.store import EventStore

ROOT = Path(__file__).resolve().parents[1]
SHOTS = Path(tempfile.gettempdir()) / "shots" / "kivy"
ENV = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
       "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), str(ROOT / "tests"), os.environ.get("PYTHONPATH")]))}
GAME = "mall-of-horror"
SEATS = ["red", "yellow", "blue", "green"]
TYPED = "Anna"  # typed key by key on the screen's keyboard (⇧ a n n a)
TOO_LONG = "x" * (MAX_NAME + 1)
TWICE = "anna"  # Anna again, whatever the case
MARKUP = {"yellow": "[b]Bo[/b]", "blue": "<i>Al</i>", "green": "[color=ff0000]Z"}
NAMES = {"red": TYPED, **MARKUP}
SCREENS = ["board", "join", "answer", "history", "end", "newgame"]


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict:
    tmp = tmp_path_factory.mktemp("ui-names")
    SHOTS.mkdir(parents=True, exist_ok=True)
    db, out, log = tmp / "save.sqlite3", tmp / "report.json", tmp / "kivy.log"
    with log.open("w") as errors:
        done = subprocess.run([sys.executable, __file__, "--db", str(db), "--out", str(out)], env=ENV, cwd=ROOT,
                              stdout=errors, stderr=subprocess.STDOUT, timeout=400)
    assert done.returncode == 0, log.read_text(encoding="utf-8", errors="replace")[-4000:]
    return {"report": json.loads(out.read_text(encoding="utf-8")), "db": db}


def test_each_seat_chosen_has_a_name_field_in_seating_order(run):
    assert run["report"]["fields"] == SEATS


def test_a_name_is_typed_by_touch_on_the_docked_keyboard_above_which_the_form_makes_room(run):
    typing = run["report"]["typing"]
    assert typing["keyboard"] > 200, typing  # the keyboard docked at the bottom of the 480 px screen
    assert typing["room"] == pytest.approx(typing["keyboard"], abs=1)
    assert typing["field_bottom"] >= typing["keyboard"] - 1, "the field with the focus lies under the keyboard"
    assert typing["field_top"] <= typing["scroll_top"] + 1, "the field with the focus is scrolled out of the form"
    assert typing["key_height"] >= 47, "the keyboard's keys are smaller than a finger"
    assert typing["text"] == TYPED
    closed = run["report"]["closed"]
    assert closed == {"keyboard": 0, "room": 0, "start_shown": True, "focus": False}


def test_a_too_long_name_is_refused_in_one_line_and_nothing_starts(run):
    refused = run["report"]["too_long"]
    expected = Refusal("names.too_long", seat="yellow", most=MAX_NAME, count=len(TOO_LONG)).text("en")
    assert refused == {"error": expected, "started": False, "screen": "newgame"}


def test_a_name_given_twice_is_refused_in_one_line_and_nothing_starts(run):
    refused = run["report"]["twice"]
    expected = Refusal("names.twice", seat="yellow", to_seat="red", name=TWICE).text("en")
    assert refused == {"error": expected, "started": False, "screen": "newgame"}


def test_the_game_starts_with_the_names_typed(run):
    started = run["report"]["started"]
    assert started["view_names"] == NAMES
    assert started["screen"] in ("board", "join")
    store = EventStore(str(run["db"]))
    try:
        assert store.unfinished() is None  # the game was played to its end (the end screen)
        assert store.history()[0].names == NAMES  # kept in the save file with the game
    finally:
        store.close()


@pytest.mark.parametrize("screen", SCREENS)
def test_names_are_shown_literally_and_no_label_reads_markup(run, screen):
    seen = run["report"]["screens"][screen]
    assert seen["markup"] == [], f"labels reading markup on {screen}: {seen['markup']}"
    texts = "\n".join(seen["texts"])
    shown = [name for name in NAMES.values() if name in texts]
    if screen in ("board", "join", "end", "newgame"):  # every seat is named there
        assert shown == list(NAMES.values()), f"{screen} shows {shown} of {list(NAMES.values())}:\n{texts}"
    else:  # a seat's question, the narration so far: a name at least, as typed
        assert shown, f"no name shown as typed on {screen}:\n{texts}"


def test_the_names_used_before_are_offered_and_fill_a_field(run):
    used = run["report"]["used"]
    store = EventStore(str(run["db"]))
    try:
        given = store.names_used()
    finally:
        store.close()
    assert sorted(given) == sorted(NAMES.values())
    assert used["offered"] == given  # the latest first, as typed
    # Tapped with no field focused: the first empty field in seating order; with a field focused: that one, and the
    # keyboard stays up on the next empty field.
    assert used["first_empty"] == {"red": NAMES["blue"], "yellow": "", "blue": ""}
    assert used["focused"] == {"red": NAMES["yellow"], "yellow": "", "blue": ""}
    assert used["focus_moved_to"] == ["yellow"] and used["keyboard"]
    assert used["lit"] == [NAMES["yellow"]]  # the name a field holds is lit among those offered


def test_the_form_with_names_is_shot_in_four_languages_with_nothing_wrong(run):
    report = run["report"]
    names = {Path(p).name for p in report["shots"]}
    wanted = {f"newgame-names-{lang}.png" for lang in LANGUAGES} | {"newgame-keyboard-en.png"}
    assert wanted <= names, sorted(wanted - names)
    for path in report["shots"]:
        assert Path(path).stat().st_size > 5000, f"{path} is (nearly) empty"
    assert not report["problems"], "\n".join(report["problems"][:40])


# -- the touchscreen's side (run as a script, in its own process) ----------------------------------------------


def main() -> int:
    import argparse
    import asyncio

    import uikit  # opens the offscreen window at 800x480

    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    report = asyncio.run(visit(args.db))
    Path(args.out).write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    del uikit
    return 0


async def visit(db: str) -> dict:  # noqa: C901 - one scripted visit of the table, in order
    import random

    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch
    from kivy.uix.label import Label
    from uikit import Driver, Glyphs, open_box, run_with, shot

    from companion.simulate import random_answer
    from companion.ui import keyboard
    from companion.ui.app import CompanionApp
    from companion.ui.widgets import Action

    box = open_box(db)
    await box.open()
    app = CompanionApp(box, lang="en")
    report: dict = {"shots": [], "problems": [], "screens": {}}
    glyphs = Glyphs()

    def board_keyboard():
        shown = [w for w in Window.children if isinstance(w, keyboard.TouchKeyboard)]
        return shown[0] if shown else None

    async def press_key(d: Driver, name: str) -> None:
        """A finger on the docked keyboard's key that types `name` (or is the special key `name`)."""
        board = board_keyboard()
        assert board is not None, "no keyboard on the screen"
        await d.settle(2)  # the keys of the shift state are laid out
        layout = board.available_layouts[board.layout]
        for line in range(1, layout["rows"] + 1):
            for index, key in enumerate(layout[f"{board.layout_mode}_{line}"]):
                if name in (key[1], key[2]):
                    (x, y), (w, h) = board.layout_geometry[f"LINE_{line}"][index]
                    touch = UnitTestTouch(*board.to_parent(x + w / 2, y + h / 2))
                    touch.touch_down()
                    await d.settle(1)
                    touch.touch_up()
                    await d.settle(2)
                    return
        raise LookupError(f"no key {name!r} on the keyboard ({board.layout_mode})")

    def seen_now() -> dict:
        """Every label of the app (the screen and what lies over it): its text, and those reading markup."""
        labels = [w for root in Window.children for w in root.walk(restrict=False) if isinstance(w, Label)]
        fields = [w.text for w in app.manager.current_screen.walk() if hasattr(w, "hint_text") and w.text]
        return {"texts": [w.text for w in labels if w.text] + fields,
                "markup": [w.text for w in labels if w.markup]}

    def problems(lang: str, d: Driver) -> list[str]:
        # The people's names are theirs: never "English left" in a Chinese screen.
        return [p for p in d.problems(lang, glyphs)
                if not (p.startswith("English left") and any(n in p for n in [*NAMES.values(), TOO_LONG, TWICE]))]

    async def script(d: Driver) -> None:
        table = app.table
        form = app.manager.current_screen
        assert app.manager.current == "newgame", app.manager.current
        await d.tap(d.find(Action, lambda w: getattr(w, "game", None) == GAME))
        for colour in SEATS:
            await d.tap(d.find(Action, lambda w, c=colour: getattr(w, "colour", None) == c))
        report["fields"] = [seat for seat in form.players if form.fields[seat].parent is not None]

        # Red's name, key by key on the keyboard that docks when its field is touched.
        red = form.fields["red"]
        await d.tap(red)
        await d.settle(4)
        board = board_keyboard()
        for key in ["shift", "A", "n", "n", "a"]:
            await press_key(d, key)
        scroll = form.ids.scroll
        report["typing"] = {
            "keyboard": keyboard.height(), "room": form.keyboard_room, "text": red.text,
            "field_bottom": red.to_window(red.x, red.y)[1], "field_top": red.to_window(red.x, red.top)[1],
            "scroll_top": scroll.to_window(scroll.x, scroll.top)[1],
            "key_height": min(h for line in range(1, 6) for _pos, (_w, h) in board.layout_geometry[f"LINE_{line}"])
            * board.scale,
        }
        path = SHOTS / "newgame-keyboard-en.png"
        shot(path)
        report["shots"].append(str(path))
        report["problems"] += [f"{path.name}: {p}" for p in problems("en", d)]
        await press_key(d, "enter")  # ⏎: the name is done, the keyboard goes
        await d.settle(3)
        report["closed"] = {"keyboard": keyboard.height(), "room": form.keyboard_room,
                            "start_shown": form.actions.parent is not None and form.ids.start.opacity == 1,
                            "focus": red.focus}

        async def start_with(yellow: str) -> dict:
            form.fields["yellow"].text = yellow
            await d.tap(form.ids.start)
            await d.settle(3)
            return {"error": form.error, "started": table.state is not None, "screen": app.manager.current}

        report["too_long"] = await start_with(TOO_LONG)
        report["twice"] = await start_with(TWICE)
        for seat, name in MARKUP.items():
            form.fields[seat].text = name
        await d.settle(2)
        for lang in LANGUAGES:  # the form with names, before it starts
            app.set_lang(lang)
            await d.settle(4)
            path = SHOTS / f"newgame-names-{lang}.png"
            shot(path)
            report["shots"].append(str(path))
            report["problems"] += [f"{path.name}: {p}" for p in problems(lang, d)]
        app.set_lang("en")
        await d.settle(2)
        await d.tap(form.ids.start)
        await d.settle(3)
        report["started"] = {"view_names": dict(app.view["names"]), "screen": app.manager.current}

        # Every screen that names a seat, with the names as typed.
        async def look(name: str, **options) -> None:
            app.goto(name, **options)
            await d.settle(4)
            report["screens"][name] = seen_now()

        await look("board")
        await look("join")
        prompt = table.rules.prompt(table.state)
        await look("answer", seat=prompt.seats[0])
        rng = random.Random(3)
        for _ in range(20_000):  # the rest of the game, answered at the table
            if table.state.over:
                break
            seat = rng.choice(table.rules.prompt(table.state).seats)
            table.answer(random_answer(table.rules, table.state, seat, rng))
        await d.settle(4)
        assert table.state.over
        await look("history")
        await look("end")

        # The next new game: the names used before offered, as typed, filling a field.
        await look("newgame")
        form = app.manager.current_screen
        for colour in ["red", "yellow", "blue"]:
            await d.tap(d.find(Action, lambda w, c=colour: getattr(w, "colour", None) == c))
        report["screens"]["newgame"] = seen_now()  # the names offered, on buttons
        offered = [w.used_name for w in d.widgets(Action) if hasattr(w, "used_name")]

        def used(name: str):
            return d.find(Action, lambda w: getattr(w, "used_name", None) == name)

        await d.tap(used(NAMES["blue"]))  # no field has the focus: the first empty one takes it
        first_empty = {seat: form.fields[seat].text for seat in ["red", "yellow", "blue"]}
        await d.tap(form.fields["red"])  # a field with the focus takes the name tapped, over its own
        await d.settle(3)
        await d.tap(used(NAMES["yellow"]))
        await d.settle(3)
        report["used"] = {"offered": offered, "first_empty": first_empty,
                          "focused": {seat: form.fields[seat].text for seat in ["red", "yellow", "blue"]},
                          "focus_moved_to": [seat for seat in ["red", "yellow", "blue"] if form.fields[seat].focus],
                          "keyboard": keyboard.height() > 0, "lit": sorted(w.used_name for w in form.used_buttons
                                                                            if w.tone == "on")}

    try:
        await run_with(app, script)
    finally:
        await box.close()
    return report


if __name__ == "__main__":
    sys.exit(main())
