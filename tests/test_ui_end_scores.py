"""The touchscreen's end screen says what made each score (issue 29): for Mall of Horror each seat's living
characters with their points and the total, the action cards in hand when they broke a tie on points (with the
rule under the rows), best first, the winners marked; for a game whose scores have columns of their own
(Zombiegeddon's sheets) the same from its columns. Whole games are played by the games' random players through a
table into a real save file; the end screen shows each finished game as the table folds it, offscreen at 800x480,
and what it shows is read against the game's own final state (never against the parts the screen draws). Shot in the
four languages into <tmp>/shots/i29/end/, every text checked as in test_ui_screens (it fits, its glyphs exist, no
key or English left).

The touchscreen runs in a process of its own (one Kivy window per process): this file is also its script.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from companion.catalogue import LANGUAGES, catalogue
from companion.contract import Message
from companion.games.mall_of_horror.board import POINTS
from companion.simulate import play_table
from companion.store import EventStore
from companion.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from seeded import SeededCup  # noqa: E402

SHOTS = Path(tempfile.gettempdir()) / "shots" / "i29" / "end"
ENV = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
       "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), str(ROOT / "tests"), os.environ.get("PYTHONPATH")]))}
FOUR = ["red", "yellow", "blue", "green"]
SIX = ["red", "yellow", "blue", "green", "purple", "black"]


def en(key: str, **params) -> str:
    return catalogue().text(Message(key, params), "en")


def finished_games(db: Path) -> dict[str, dict]:
    """Whole games into the save file, each the first seed that gives what it stands for: a Mall of Horror game won
    by one seat, one whose top score is tied (the cards in hand decide), one at six players (more rows than the
    screen's height), and a Zombiegeddon game. Each with its id and the final state's facts the screen must say."""
    wanted = {
        "mall-won": ("mall-of-horror", FOUR, lambda s: _top_tied(s) == 1 and max(len(s.of(p)) for p in s.players) > 1),
        "mall-tie": ("mall-of-horror", FOUR, lambda s: _top_tied(s) > 1),
        "mall-six": ("mall-of-horror", SIX, lambda s: True),
        "zombiegeddon": ("zombiegeddon", ["red", "yellow", "blue"], lambda s: True),
    }
    store = EventStore(str(db))
    out = {}
    try:
        for name, (game, players, fits) in wanted.items():
            for seed in range(200):
                table = Table(store, cup=SeededCup(seed))
                game_id = play_table(table, game, players, random.Random(seed))
                if fits(table.state):
                    out[name] = {"id": game_id, "game": game, **_facts(game, table.state)}
                    break
            else:
                raise AssertionError(f"no seed gave {name}")
    finally:
        store.close()
    return out


def _top_tied(state) -> int:
    scores = [state.score(p) for p in state.players]
    return scores.count(max(scores))


def _facts(game: str, state) -> dict:
    """What the end must say of each seat, from the rules' final state: its total, and what made it."""
    if game == "zombiegeddon":
        return {"winners": list(state.winners),
                "seats": {p: {"total": state.scores[p]["total"]} for p in state.players}}
    seats = {p: {"total": state.score(p), "figures": {c.kind: POINTS[c.kind] for c in state.of(p)},
                 "cards": state.hands[p]} for p in state.players}
    return {"winners": list(state.winners), "tied": _top_tied(state) > 1, "seats": seats}


def child(tmp: Path, db: Path, games: dict) -> dict:
    out, log = tmp / "report.json", tmp / "kivy.log"
    with log.open("w") as errors:
        done = subprocess.run([sys.executable, __file__, "--db", str(db), "--out", str(out),
                               "--games", json.dumps({name: g["id"] for name, g in games.items()})],
                              env=ENV, cwd=ROOT, stdout=errors, stderr=subprocess.STDOUT, timeout=600)
    assert done.returncode == 0, log.read_text(encoding="utf-8", errors="replace")[-4000:]
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict:
    tmp = tmp_path_factory.mktemp("ui-end")
    SHOTS.mkdir(parents=True, exist_ok=True)
    db = tmp / "save.sqlite3"
    games = finished_games(db)
    return {"games": games, "report": child(tmp, db, games)}


def rows(run: dict, name: str) -> list[dict]:
    return run["report"]["games"][name]["rows"]


@pytest.mark.parametrize("name", ["mall-won", "mall-tie", "mall-six"])
def test_each_mall_row_says_its_living_characters_with_their_points_and_the_total(run, name):
    facts = run["games"][name]
    shown = rows(run, name)
    assert [r["seat"] for r in shown] and {r["seat"] for r in shown} == set(facts["seats"])
    for row in shown:
        seat = facts["seats"][row["seat"]]
        assert row["chip"] == en(f"colour.{row['seat']}")
        assert row["total"] == en("board.points", count=seat["total"])
        assert sum(seat["figures"].values()) == seat["total"]  # (the rules' score is its figures' points)
        for kind, points in seat["figures"].items():
            assert f"{en(f'mall.character.{kind}')} {points}" in row["made_of"], (row, kind)
        if not seat["figures"]:
            assert en("mall.board.no_survivor") in row["made_of"]
        assert row["won"] == (row["seat"] in facts["winners"])
        assert bool(row["won_word"]) == row["won"]


@pytest.mark.parametrize("name", ["mall-won", "mall-tie", "mall-six"])
def test_best_first_and_the_winners_on_top(run, name):
    facts = run["games"][name]
    order = [(-facts["seats"][r["seat"]]["total"], -facts["seats"][r["seat"]]["cards"]) for r in rows(run, name)]
    assert order == sorted(order)
    assert [r["seat"] for r in rows(run, name)][:len(facts["winners"])] == sorted(
        facts["winners"], key=lambda s: [r["seat"] for r in rows(run, name)].index(s))


def test_a_tie_on_points_shows_the_cards_in_hand_and_the_rule_that_breaks_it(run):
    facts = run["games"]["mall-tie"]
    assert facts["tied"]
    for row in rows(run, "mall-tie"):
        cards = str(facts["seats"][row["seat"]]["cards"])
        assert en("ui.end.cell", column=en("mall.board.col.cards"), value=cards) in row["made_of"], row
    assert run["report"]["games"]["mall-tie"]["footer"] == en("mall.board.tiebreak")
    for row in rows(run, "mall-won"):  # no tie: the cards are no part of the score
        assert en("mall.board.col.cards") not in row["made_of"]
    assert run["report"]["games"]["mall-won"]["footer"] == ""


def test_the_end_names_the_winners(run):
    for name in ("mall-won", "mall-tie"):
        winners = run["games"][name]["winners"]
        key = "ui.winners" if len(winners) > 1 else "ui.winner"
        assert run["report"]["games"][name]["title"] == en(key, colours=winners)


def test_a_game_with_columns_of_its_own_shows_them_too(run):
    facts = run["games"]["zombiegeddon"]
    for row in rows(run, "zombiegeddon"):
        assert str(facts["seats"][row["seat"]]["total"]) in row["total"]
        for column in ("zg.board.col.food", "zg.board.col.zombies", "zg.board.col.tokens"):
            assert en(column) in row["made_of"], row


def test_every_row_of_six_players_can_be_scrolled_to(run):
    six = run["report"]["games"]["mall-six"]
    assert len(six["rows"]) == 6
    assert six["last_row_reached"], "the last row cannot be scrolled into the screen"


def test_the_end_is_shot_in_four_languages_with_nothing_wrong(run):
    report = run["report"]
    names = {Path(p).name for p in report["shots"]}
    wanted = {f"end-{name}-{lang}-800x480.png" for name in ("mall-won", "mall-tie", "zombiegeddon")
              for lang in LANGUAGES}
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
    parser.add_argument("--games", required=True)
    args = parser.parse_args()
    report = asyncio.run(visit(args.db, json.loads(args.games)))
    Path(args.out).write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    del uikit
    return 0


async def visit(db: str, games: dict[str, int]) -> dict:
    from uikit import Driver, Glyphs, open_box, run_with

    from companion.ui.app import CompanionApp
    from companion.ui.screens.end import ScoreRow

    box = open_box(db)
    await box.open()
    app = CompanionApp(box, lang="en")
    report: dict = {"shots": [], "problems": [], "games": {}}
    glyphs = Glyphs()

    def read(screen) -> dict:
        shown = [w for w in screen.ids.scores.children[::-1] if isinstance(w, ScoreRow)]
        footer = [w.text for w in screen.ids.scores.children[::-1] if not isinstance(w, ScoreRow)]
        return {"title": screen.ids.title.text, "footer": footer[0] if footer else "",
                "rows": [{"seat": r.seat, "chip": r.chip.label.text, "total": r.total.text,
                          "made_of": r.made_of.text if r.made_of.parent is not None else "",
                          "won_word": r.won.text, "won": r.won.text != ""} for r in shown]}

    async def script(d: Driver) -> None:
        for name, game_id in games.items():
            app.table.load(box.store.game(game_id))  # the finished game, folded from its log
            app.refresh(force=True)
            app.goto("end")
            await d.settle(4)
            screen = app.manager.current_screen
            assert app.manager.current == "end", app.manager.current
            report["games"][name] = read(screen)
            if name == "mall-six":  # more rows than the screen: the last one scrolls into view
                last = [w for w in screen.ids.scores.children if isinstance(w, ScoreRow)][0]
                d.show(last)
                await d.settle(3)
                _, y = last.to_window(*last.pos)
                scroll = screen.ids.scores.parent
                _, bottom = scroll.to_window(*scroll.pos)
                report["games"][name]["last_row_reached"] = y >= bottom - 1
                continue
            await d.shoot_languages(lambda lang, n=name: SHOTS / f"end-{n}-{lang}-800x480.png", glyphs, report,
                                    lambda: app.goto("end"))

    try:
        await run_with(app, script)
    finally:
        await box.close()
    return report


if __name__ == "__main__":
    sys.exit(main())
