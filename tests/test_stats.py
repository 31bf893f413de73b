"""Statistics across evenings (issue 28): every finished game of a save file, per person and per game, checked
against each game's own record (read back through `companion resume`'s record of the same log)."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from finished import SEATS, play_finished

from companion.catalogue import LANGUAGES
from companion.games import GAMES
from companion.stats import Summaries, _made_by, statistics, wins_over_time
from companion.stats_report import report
from companion.store import EventStore
from companion.table import Table

REPO = Path(__file__).resolve().parent.parent
PEOPLE = ["Anna", "Bảo", "陈明", "Dee", "Eli"]


def evenings_of_random_games(store: EventStore, seed: int, count: int) -> list[int]:
    """`count` finished games of random games, random people at random seats (some seats without a name)."""
    rng = random.Random(seed)
    ids = []
    for n in range(count):
        game = rng.choice(sorted(GAMES))
        seats = SEATS[game]
        people = rng.sample(PEOPLE, len(seats))
        names = {seat: who for seat, who in zip(seats, people, strict=True) if rng.random() < 0.8}
        ids.append(play_finished(store, game, seed * 100 + n, names=names))
    return ids


def expected(store: EventStore) -> dict:
    """The figures from each game's own record, counted here the plain way."""
    played, wins, scores, counts, rounds = Counter(), Counter(), defaultdict(list), defaultdict(Counter), {}
    for record in store.history():
        table = Table(store)
        table.load(record)
        own = table.record()  # the game's own record of its end: winners and scores
        figures = table.rules.statistics(table.state)
        assert sorted(own["winners"]) == sorted(record.winners)
        rounds[record.id] = record.rounds
        for seat in record.players:
            who = record.names.get(seat) or f"colour:{seat}"
            played[record.game, who] += 1
            played[None, who] += 1
            wins[record.game, who] += seat in own["winners"]
            wins[None, who] += seat in own["winners"]
            if seat in own["scores"]:
                scores[record.game, who].append(own["scores"][seat])
            counts[record.game, who].update(figures[seat])
    return {"played": played, "wins": wins, "scores": scores, "counts": counts, "rounds": rounds}


@pytest.fixture(scope="module")
def evening(tmp_path_factory):
    path = tmp_path_factory.mktemp("stats") / "evenings.sqlite3"
    with EventStore(path) as store:
        ids = evenings_of_random_games(store, seed=28, count=14)
        Table(store).new_game("mall-of-horror", ["red", "yellow", "blue"], {}, names={"red": "Anna"})  # unfinished
        yield path, ids


def test_every_finished_game_is_counted_per_person_and_per_game_as_its_own_record_says(evening):
    path, ids = evening
    with EventStore(path, readonly=True) as store:
        stats = statistics(store)
        truth = expected(store)
    assert stats["games"] == len(ids) and stats["unreadable"] == []
    assert {g["game"] for g in stats["by_game"]} == {store_game for store_game, _ in truth["counts"]}
    for row in stats["people"]:
        assert row["played"] == truth["played"][None, row["person"]]
        assert row["wins"] == truth["wins"][None, row["person"]]
        assert row["win_rate"] == round(row["wins"] / row["played"], 3)
    assert sum(row["played"] for row in stats["people"]) == sum(len(t["people"]) for t in stats["timeline"])
    for game in stats["by_game"]:
        assert game["stats"] == list(GAMES[game["game"]].STATS)
        assert game["played"] == sum(t["game"] == game["game"] for t in stats["timeline"])
        for row in game["people"]:
            key = (game["game"], row["person"])
            assert (row["played"], row["wins"]) == (truth["played"][key], truth["wins"][key])
            points = truth["scores"][key]
            assert row["score_best"] == (max(points) if points else None)
            assert row["score_avg"] == (round(sum(points) / len(points), 1) if points else None)
            assert row["counts"] == {k: truth["counts"][key][k] for k in game["stats"]}


def test_a_person_is_a_name_or_a_colour_and_the_most_wins_come_first(evening):
    path, _ = evening
    with EventStore(path, readonly=True) as store:
        stats = statistics(store)
    for row in stats["people"]:
        if row["person"].startswith("colour:"):
            assert row["name"] is None and row["colour"] == row["person"].removeprefix("colour:")
        else:
            assert row["name"] == row["person"] in PEOPLE and row["colour"] is None
    order = [(-row["wins"], -row["played"]) for row in stats["people"]]
    assert order == sorted(order)


def test_the_timeline_is_oldest_first_and_wins_over_time_add_up(evening):
    path, ids = evening
    with EventStore(path, readonly=True) as store:
        stats = statistics(store)
    assert [t["id"] for t in stats["timeline"]] == sorted(ids)
    people = [row["person"] for row in stats["people"]]
    lines = wins_over_time(stats, people)
    for row in stats["people"]:
        line = lines[row["person"]]
        assert len(line) == len(ids) and line[-1] == row["wins"] and line == sorted(line)


def test_a_finished_game_is_folded_once(evening):
    path, ids = evening
    summaries = Summaries()
    with EventStore(path, readonly=True) as store:
        first = statistics(store, summaries)
        games = dict(summaries._known)
        assert len(games) == len(ids)
        assert statistics(store, summaries) == first
        assert all(summaries._known[key] is games[key] for key in games)


def test_a_game_whose_log_no_longer_folds_is_left_out_and_said(tmp_path):
    path = tmp_path / "torn.sqlite3"
    with EventStore(path) as store:
        ids = [play_finished(store, "mall-of-horror", seed, names={"red": "Anna"}) for seed in (1, 2)]
    with sqlite3.connect(path) as db:  # the first game's first answer changed into one no rule takes
        db.execute("UPDATE events SET event = ? WHERE game_id = ? AND seq = (SELECT MIN(seq) FROM events WHERE "
                   "game_id = ? AND event LIKE '%answer%')", (json.dumps({"answer": {"bogus": 1}}), ids[0], ids[0]))
    with EventStore(path, readonly=True) as store:
        stats = statistics(store)
    assert stats["unreadable"] == [ids[0]] and stats["games"] == 1
    assert "1 game could not be read and is left out (game 1)." in report(stats, "en")


def test_no_finished_game_says_so(tmp_path):
    with EventStore(tmp_path / "empty.sqlite3") as store:
        stats = statistics(store)
        assert stats == {"games": 0, "unreadable": [], "people": [], "by_game": [], "timeline": []}
        assert report(stats, "en") == ["No finished game yet: the statistics begin with the first game played to "
                                       "its end."]


# -- companion stats -------------------------------------------------------------------------------------------


def companion(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, cwd=REPO,
                          timeout=120)


def test_companion_stats_json_prints_the_statistics(evening):
    path, _ = evening
    done = companion("stats", "--db", str(path), "--json")
    assert done.returncode == 0, done.stderr
    with EventStore(path, readonly=True) as store:
        assert json.loads(done.stdout) == statistics(store)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_companion_stats_prints_every_person_and_game_in_the_language(evening, lang):
    path, _ = evening
    done = companion("stats", "--db", str(path), "--lang", lang)
    assert done.returncode == 0, done.stderr
    with EventStore(path, readonly=True) as store:
        stats = statistics(store)
    out = done.stdout
    assert "stats." not in out and "{" not in out
    for row in stats["people"]:
        assert (row["name"] or "") in out
    for game in stats["by_game"]:
        for key in game["stats"]:
            assert key not in out  # each label said in words
    header = [line for line in out.splitlines() if line.strip()][2]  # the first table's heading
    assert len(header.split()) >= 3


def test_companion_stats_on_a_missing_save_file_says_so(tmp_path):
    done = companion("stats", "--db", str(tmp_path / "nowhere.sqlite3"))
    assert done.returncode != 0 and done.stderr.strip() and "Traceback" not in done.stderr


def test_a_box_that_starts_again_reads_the_summaries_it_kept_instead_of_folding_every_game(tmp_path):
    path = tmp_path / "kept.sqlite3"
    with EventStore(path) as store:
        ids = evenings_of_random_games(store, seed=5, count=4)
    with EventStore(path, readonly=True) as store:  # `companion stats` beside the box: it keeps nothing
        reader = Summaries()
        truth = statistics(store, reader)
        assert reader.folded == 4 and not any(store.setting(f"summary:{i}") for i in ids)
    with EventStore(path) as store:  # the box: folds each game once and keeps it
        first = Summaries()
        assert statistics(store, first) == truth and first.folded == 4
    with EventStore(path) as store:  # the box started again
        again = Summaries()
        assert statistics(store, again) == truth and again.folded == 0
        kept = store.setting(f"summary:{ids[0]}")
        kept["made_by"] = "0.0.1 an older companion"
        store.set_setting(f"summary:{ids[0]}", kept)
        store.set_setting(f"summary:{ids[1]}", {"made_by": _made_by(store.game(ids[1]).game),
                                                        "summary": {"id": "torn"}})
    with EventStore(path) as store:  # a summary an older companion kept, or a torn one, is folded again
        renewed = Summaries()
        assert statistics(store, renewed) == truth and renewed.folded == 2


def test_games_folded_beside_the_box_are_kept_by_the_box_afterwards(tmp_path):
    path = tmp_path / "beside.sqlite3"
    with EventStore(path) as box:
        ids = evenings_of_random_games(box, seed=6, count=3)
        summaries = Summaries()
        with EventStore(path, readonly=True) as reader:  # the host page folds in a thread, with a store that reads
            truth = statistics(reader, summaries)
        assert summaries.folded == 3 and not any(box.setting(f"summary:{i}") for i in ids)
        assert summaries.keep(box) == 3 and all(box.setting(f"summary:{i}") for i in ids)  # then, on the loop
        assert summaries.keep(box) == 0
    with EventStore(path) as box:
        again = Summaries()
        assert statistics(box, again) == truth and again.folded == 0
