"""`companion export`: the evening to keep, from the command line (issue 28)."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from finished import play_finished

from companion.export import evenings, filename
from companion.store import EventStore

REPO = Path(__file__).resolve().parent.parent


def companion(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})


@pytest.fixture(scope="module")
def two_evenings(tmp_path_factory):
    """Game 1 last week; games 2 and 3 tonight (their dates set back as a week's wait would)."""
    path = tmp_path_factory.mktemp("export") / "evenings.sqlite3"
    with EventStore(path) as store:
        for seed in (1, 2, 3):
            play_finished(store, "eaten-by-zombies", seed, names={"red": f"Anna{seed}"})
    import sqlite3

    week_ago = (datetime.now(UTC) - timedelta(days=7)).isoformat()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET started = ?, finished = ? WHERE id = 1", (week_ago, week_ago))
    return path


def test_the_latest_evening_is_written_under_its_own_name(two_evenings, tmp_path):
    done = companion("export", "--db", str(two_evenings), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    written = tmp_path / done.stdout.strip()
    with EventStore(two_evenings, readonly=True) as store:
        tonight = evenings(store.history())[0]
    assert sorted(r.id for r in tonight) == [2, 3]
    assert written.name == filename(tonight) and written.name.startswith("evening-")
    page = written.read_text(encoding="utf-8")
    assert "Anna2 (Red)" in page and "Anna3 (Red)" in page and "Anna1" not in page


def test_one_game_or_the_evening_of_a_game_in_a_language(two_evenings, tmp_path):
    out = tmp_path / "one.html"
    done = companion("export", "--db", str(two_evenings), "--game", "1", "--lang", "vi", "--out", str(out))
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    assert "<html lang='vi'>" in page and "Anna1 (Đỏ)" in page and "Anna2" not in page
    done = companion("export", "--db", str(two_evenings), "--evening", "1", "--out", str(out))
    assert done.returncode == 0 and "Anna1" in out.read_text(encoding="utf-8")


def test_a_game_that_is_not_there_is_said_and_nothing_is_written(two_evenings, tmp_path):
    done = companion("export", "--db", str(two_evenings), "--game", "9", cwd=tmp_path)
    assert done.returncode == 2 and "no finished game 9" in done.stderr and not list(tmp_path.iterdir())
    empty = tmp_path / "empty.sqlite3"
    EventStore(empty).close()
    done = companion("export", "--db", str(empty), cwd=tmp_path)
    assert done.returncode == 2 and "no finished game in" in done.stderr
