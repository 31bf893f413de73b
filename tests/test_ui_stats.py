"""The statistics screen on the touchscreen, offscreen, over a real save file of finished games played to their ends
by the games' random players through a table (every game, people with names in three scripts and seats without
one): each person's games and wins, and every figure of every game's table, read from the screen's labels, are
what companion.stats.statistics computes (on a copy of the save file the screen never opened); the bars' heights are
in proportion to the wins and named under them, the wins-over-time lines follow each person's wins game by game.
Reached by touch from the new game (no game on the table) and from the menu (a game on the table), Back where it
came from; with no finished game it says so. Shot in the four languages at 800x480 (into <tmp>/shots/kivy/), every
text on it checked as in test_ui_screens.

The touchscreen runs in a process of its own (one Kivy window per process): this file is also its script.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from companion.catalogue import LANGUAGES, catalogue
from companion.contract import Message
from companion.games import GAMES
from companion.simulate import play_table
from companion.stats import statistics, wins_over_time
from companion.stats_report import COLUMNS, figure, who
from companion.store import EventStore
from companion.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from seeded import SeededCup  # noqa: E402

SHOTS = Path(tempfile.gettempdir()) / "shots" / "kivy"
ENV = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
       "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), str(ROOT / "tests"), os.environ.get("PYTHONPATH")]))}
# The evenings: each game twice, the same people coming back under their names (Latin, Vietnamese, Chinese), others
# as their seat's colour only.
PEOPLE = {"Anna": "Anna", "Ha": "Nguyễn Thị Hà", "Ming": "陈小明", "Bo": "Bo"}
EVENINGS = [
    ("mall-of-horror", ["red", "yellow", "blue", "green"], {"red": "Anna", "yellow": "Ha", "blue": "Ming"}),
    ("zombiegeddon", ["red", "yellow", "blue"], {"red": "Bo", "yellow": "Anna"}),
    ("eaten-by-zombies", ["red", "yellow", "blue"], {"yellow": "Ha", "blue": "Anna"}),
    ("district-z", ["red", "yellow"], {"red": "Ming", "yellow": "Bo"}),
]
GAMES_PLAYED = 8
BARS_SHOWN = 10  # companion/ui/screens/stats.py shows the people with the most wins up to so many
LINES_SHOWN = 4


def fill(db: Path) -> None:
    store = EventStore(str(db))
    try:
        for n in range(GAMES_PLAYED):
            game, players, names = EVENINGS[n % len(EVENINGS)]
            table = Table(store, cup=SeededCup(100 + n))
            play_table(table, game, players, random.Random(n), names={s: PEOPLE[k] for s, k in names.items()})
    finally:
        store.close()


def child(tmp: Path, db: Path, *more: str) -> dict:
    out, log = tmp / f"report{'-'.join(more)}.json", tmp / f"kivy{'-'.join(more)}.log"
    with log.open("w") as errors:
        done = subprocess.run([sys.executable, __file__, "--db", str(db), "--out", str(out), *more], env=ENV,
                              cwd=ROOT, stdout=errors, stderr=subprocess.STDOUT, timeout=400)
    assert done.returncode == 0, log.read_text(encoding="utf-8", errors="replace")[-4000:]
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict:
    tmp = tmp_path_factory.mktemp("ui-stats")
    SHOTS.mkdir(parents=True, exist_ok=True)
    db = tmp / "save.sqlite3"
    fill(db)
    copy = tmp / "copy.sqlite3"
    shutil.copy(db, copy)  # the figures computed apart from the screen (which keeps summaries in its save file)
    store = EventStore(str(copy))
    try:
        expected = statistics(store)
    finally:
        store.close()
    assert expected["games"] == GAMES_PLAYED and not expected["unreadable"]
    return {"report": child(tmp, db), "expected": expected, "empty": child(tmp, tmp / "empty.sqlite3", "--empty")}


def cell(report: dict, scope: str, person: str, column: str) -> str:
    return report["cells"][f"{scope}|{person}|{column}"]


def test_every_persons_games_and_wins_are_on_the_screen_as_computed(run):
    report, expected = run["report"], run["expected"]
    assert report["title"] == catalogue().text(Message("stats.title_count", {"count": GAMES_PLAYED}), "en")
    for row in expected["people"]:
        person = row["person"]
        assert cell(report, "all", person, "person") == who(row, "en")
        assert cell(report, "all", person, "played") == str(row["played"])
        assert cell(report, "all", person, "wins") == str(row["wins"])
        assert cell(report, "all", person, "win_rate") == figure(row["win_rate"], "win_rate")
    names = {cell(report, "all", row["person"], "person") for row in expected["people"]}
    assert set(PEOPLE.values()) <= names  # named as given, in any script
    assert "Red" in names  # and a seat without a name, as its colour


def test_every_games_table_and_its_own_figures_are_as_computed(run):
    report, expected = run["report"], run["expected"]
    assert [g["game"] for g in expected["by_game"]] == [g for g in GAMES if any(e[0] == g for e in EVENINGS)]
    for game in expected["by_game"]:
        assert game["stats"], f"{game['game']} counts nothing of its own"
        for row in game["people"]:
            for column in COLUMNS:
                assert cell(report, game["game"], row["person"], column) == figure(row[column], column), column
            for key in game["stats"]:
                assert cell(report, game["game"], row["person"], key) == str(row["counts"][key]), key
    shown = {key.split("|")[0] for key in report["cells"]}
    assert shown == {"all"} | {g["game"] for g in expected["by_game"]}


def test_the_bars_are_in_proportion_to_the_wins_and_named_under_them(run):
    report, expected = run["report"], run["expected"]
    rows = expected["people"][:BARS_SHOWN]
    bars = report["bars"]
    assert list(bars) == [row["person"] for row in rows]
    most = max(row["wins"] for row in rows)
    assert most > 0
    per_win = bars[rows[0]["person"]]["height"] / rows[0]["wins"]
    assert per_win > 5
    for row in rows:
        bar = bars[row["person"]]
        assert bar["height"] == pytest.approx(row["wins"] * per_win, abs=0.01), row
        assert bar["name"] == who(row, "en")
        assert bar["figure"] == str(row["wins"])
    assert max(b["height"] for b in bars.values()) <= report["plot_height"] + 0.01


def test_the_wins_over_time_follow_each_persons_wins_game_by_game(run):
    report, expected = run["report"], run["expected"]
    top = [row["person"] for row in expected["people"][:LINES_SHOWN]]
    over_time = wins_over_time(expected, top)
    lines = report["lines"]
    assert list(lines) == top
    per_win = None
    for person in top:
        heights = lines[person]
        assert len(heights) == GAMES_PLAYED
        for height, wins in zip(heights, over_time[person], strict=True):
            if wins:
                per_win = per_win or height / wins
                assert height == pytest.approx(wins * per_win, abs=0.01)
            else:
                assert height == pytest.approx(0, abs=0.01)
    legend = report["legend"]
    assert legend == [f"{who(row, 'en')}: {row['wins']}" for row in expected["people"][:LINES_SHOWN]]


def test_reached_from_the_new_game_and_the_menu_and_back(run):
    report = run["report"]
    assert report["from_newgame"] == {"screen": "stats", "game_on_table": False, "back": "newgame"}
    assert report["from_menu"] == {"screen": "stats", "game_on_table": True, "title": report["title"],
                                   "back": "menu"}


def test_with_no_finished_game_it_says_so(run):
    empty = run["empty"]
    said = [catalogue().text(Message(key), "en") for key in ("stats.title", "stats.none", "ui.back")]
    assert sorted(empty["texts"]) == sorted(said)
    assert empty["charts"] == 0 and empty["back"] == "newgame"
    assert not empty["problems"], empty["problems"]


def test_the_screen_is_shot_in_four_languages_with_nothing_wrong(run):
    report = run["report"]
    names = {Path(p).name for p in report["shots"]}
    wanted = {f"stats-{part}-{lang}.png" for part in ("charts", "tables") for lang in LANGUAGES}
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
    parser.add_argument("--empty", action="store_true")
    args = parser.parse_args()
    report = asyncio.run(visit(args.db, args.empty))
    Path(args.out).write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    del uikit
    return 0


async def visit(db: str, empty: bool) -> dict:  # noqa: C901 - one scripted visit of the table, in order
    from kivy.uix.label import Label
    from uikit import Driver, Glyphs, open_box, run_with, shot

    from companion.ui import people
    from companion.ui.app import CompanionApp
    from companion.ui.charts import Chart

    box = open_box(db)
    await box.open()
    app = CompanionApp(box, lang="en")
    report: dict = {"shots": [], "problems": []}
    glyphs = Glyphs()

    def problems(lang: str, d: Driver) -> list[str]:
        # The people's names are theirs: never "English left" in a Chinese screen.
        return [p for p in d.problems(lang, glyphs)
                if not (p.startswith("English left") and any(n in p for n in PEOPLE.values()))]

    async def empty_visit(d: Driver) -> None:
        form = app.manager.current_screen
        await d.tap(form.ids.stats)
        screen = app.manager.current_screen
        report["texts"] = [w.text for w in d.widgets(Label) if w.text]
        report["charts"] = len(d.widgets(Chart))
        path = SHOTS / "stats-empty-en.png"
        shot(path)
        report["problems"] = [f"{path.name}: {p}" for p in problems("en", d)]
        await d.tap(screen.ids.back)
        report["back"] = app.manager.current

    async def script(d: Driver) -> None:
        form = app.manager.current_screen
        assert app.manager.current == "newgame", app.manager.current
        await d.tap(form.ids.stats)  # no game on the table
        screen = app.manager.current_screen
        assert await d.until(lambda: not people.cutting(), 120), "the faces were never cut for the names"
        await d.settle(3)
        report["title"] = screen.ids.title.text
        cells = [w for w in d.widgets(Label) if hasattr(w, "stat")]
        report["cells"] = {"|".join(w.stat): w.text for w in cells}
        chart = screen.bar_chart
        names = {w.person: w.text for w in chart.texts if hasattr(w, "person")}
        report["bars"] = {}
        for person, bar in chart.bars.items():
            top = bar.pos[1] + bar.size[1]
            figure_above = [w.text for w in chart.texts if not hasattr(w, "person")
                            and abs(w.y - top - 1) < 2 and w.x <= bar.pos[0] <= w.right]
            report["bars"][person] = {"height": bar.size[1], "name": names.get(person), "figure": figure_above[0]
                                      if figure_above else None}
        report["plot_height"] = chart.height - chart.name_band - chart.value_band
        lines = screen.line_chart
        report["lines"] = {person: [points[i + 1] - lines.games_band for i in range(0, len(points), 2)]
                           for person, points in lines.lines.items()}
        report["lines"] = {p: report["lines"][p] for p in [s.person for s in lines.series]}
        report["legend"] = [w.text for w in d.widgets(Label) if hasattr(w, "person") and w.parent is not None
                            and w not in chart.texts]
        report["from_newgame"] = {"screen": app.manager.current, "game_on_table": app.view is not None}
        await d.tap(screen.ids.back)
        report["from_newgame"]["back"] = app.manager.current

        game, players, _names = EVENINGS[0]
        app.table.new_game(game, players)  # a game on the table: the menu, from the board
        app.goto("board")
        await d.settle(3)
        await d.tap(app.manager.current_screen.ids.menu)
        await d.tap(app.manager.current_screen.ids.stats)
        screen = app.manager.current_screen
        report["from_menu"] = {"screen": app.manager.current, "game_on_table": app.view is not None,
                               "title": screen.ids.title.text}
        for lang in LANGUAGES:
            app.set_lang(lang)
            await d.settle(4)
            screen.ids.scroll.scroll_y = 1
            await d.settle(3)
            for part, scrolled in (("charts", 1), ("tables", 0.45)):
                screen.ids.scroll.scroll_y = scrolled
                await d.settle(3)
                path = SHOTS / f"stats-{part}-{lang}.png"
                shot(path)
                report["shots"].append(str(path))
            report["problems"] += [f"stats-{lang}: {p}" for p in problems(lang, d)]
        app.set_lang("en")
        await d.settle(2)
        await d.tap(screen.ids.back)
        report["from_menu"]["back"] = app.manager.current

    try:
        await run_with(app, empty_visit if empty else script)
    finally:
        await box.close()
    return report


if __name__ == "__main__":
    sys.exit(main())
