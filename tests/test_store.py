"""The event log is the save file: it keeps every event, survives a kill, leaves a stranger's file alone."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from datetime import UTC, datetime
from pathlib import Path

import pytest

from companion.store import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    EventStore,
    GameRecord,
    StoreError,
    default_db_path,
)

REPO = Path(__file__).resolve().parent.parent
PLAYERS = ["Red", "Blue", "Yellow"]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "companion.sqlite3"


@pytest.fixture
def store(db_path: Path) -> EventStore:
    with EventStore(db_path) as opened:
        yield opened


def make_foreign_db(path: Path, *, wal: bool = False) -> None:
    db = sqlite3.connect(path)
    if wal:
        db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE foo (x)")
    db.execute("INSERT INTO foo VALUES (42)")
    db.commit()
    db.close()


def make_companion_db(path: Path, games: int = 3) -> None:
    with EventStore(path) as store:
        for _ in range(games):
            game_id = store.new_game("mall_of_horror", PLAYERS, {}, None)
            for i in range(100):
                store.append(game_id, {"type": "filler", "i": i, "text": "x" * 200})


def assert_refused_untouched(path: Path, match: str) -> None:
    before = path.read_bytes()
    neighbours = sorted(p.name for p in path.parent.iterdir())
    with pytest.raises(StoreError, match=match):
        EventStore(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == neighbours


# --- events ------------------------------------------------------------------------------------------------


def test_events_come_back_in_order_with_seq_from_one(store: EventStore) -> None:
    game_id = store.new_game("mall_of_horror", PLAYERS, {"variant": "basic"}, None)
    events = [
        {"type": "roll", "dice": [3, 5]},
        {"type": "vote", "seat": "Red", "for": "Blue"},
        {"n": "Ünïcode"},
    ]
    assert [store.append(game_id, event) for event in events] == [1, 2, 3]
    assert store.events(game_id) == events


def test_each_game_has_its_own_seq(store: EventStore) -> None:
    first = store.new_game("mall_of_horror", PLAYERS, {}, None)
    second = store.new_game("mall_of_horror", PLAYERS, {}, None)
    assert store.append(first, {"a": 1}) == 1
    assert store.append(second, {"b": 1}) == 1
    assert store.append(first, {"a": 2}) == 2
    assert store.events(first) == [{"a": 1}, {"a": 2}]
    assert store.events(second) == [{"b": 1}]


def test_a_new_game_has_no_events(store: EventStore) -> None:
    assert store.events(store.new_game("mall_of_horror", PLAYERS, {}, None)) == []


def test_everything_survives_reopening(db_path: Path) -> None:
    position = {"zones": {"Parking": {"zombies": 2}}}
    with EventStore(db_path) as store:
        game_id = store.new_game("mall_of_horror", PLAYERS, {"seats": 3}, position)
        store.append(game_id, {"type": "start"})
    with EventStore(db_path) as store:
        assert store.events(game_id) == [{"type": "start"}]
        assert store.append(game_id, {"type": "next"}) == 2
        record = store.game(game_id)
    assert record.players == tuple(PLAYERS)
    assert record.options == {"seats": 3}
    assert record.position == position


@pytest.mark.parametrize("event", [[1, 2], "roll", 7, None, ("type", "roll")])
def test_an_event_that_is_not_a_json_object_is_refused_and_not_stored(
    store: EventStore, event: object
) -> None:
    game_id = store.new_game("mall_of_horror", PLAYERS, {}, None)
    with pytest.raises(ValueError, match="must be a JSON object"):
        store.append(game_id, event)  # type: ignore[arg-type]
    assert store.events(game_id) == []
    assert store.append(game_id, {"ok": True}) == 1


@pytest.mark.parametrize("event", [{"dice": {1, 2}}, {"x": float("nan")}, {"when": datetime.now(UTC)}])
def test_an_event_json_cannot_hold_is_refused_and_not_stored(
    store: EventStore, event: dict[str, object]
) -> None:
    game_id = store.new_game("mall_of_horror", PLAYERS, {}, None)
    with pytest.raises(ValueError, match="cannot be saved as JSON"):
        store.append(game_id, event)
    assert store.events(game_id) == []


def test_unknown_game_is_a_clear_key_error(store: EventStore) -> None:
    for call in (lambda: store.append(99, {}), lambda: store.events(99), lambda: store.game(99)):
        with pytest.raises(KeyError, match="there is no game 99"):
            call()


def test_new_game_refuses_malformed_arguments(store: EventStore) -> None:
    with pytest.raises(ValueError, match="players"):
        store.new_game("mall_of_horror", "RedBlue", {}, None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="options"):
        store.new_game("mall_of_horror", PLAYERS, [], None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="position"):
        store.new_game("mall_of_horror", PLAYERS, {}, [])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="named"):
        store.new_game("", PLAYERS, {}, None)
    assert store.unfinished() is None


# --- games: unfinished, finish, history -------------------------------------------------------------------


def test_game_record_of_a_running_game(store: EventStore) -> None:
    game_id = store.new_game("mall_of_horror", PLAYERS, {"a": 1}, None)
    record = store.game(game_id)
    assert isinstance(record, GameRecord)
    assert (record.id, record.game, record.players, record.options, record.position) == (
        game_id,
        "mall_of_horror",
        ("Red", "Blue", "Yellow"),
        {"a": 1},
        None,
    )
    assert record.started.tzinfo is not None
    assert abs((datetime.now(UTC) - record.started).total_seconds()) < 60
    assert (record.finished, record.winners, record.rounds, record.is_finished) == (None, None, None, False)


def test_unfinished_is_the_newest_running_game(store: EventStore) -> None:
    assert store.unfinished() is None
    first = store.new_game("mall_of_horror", PLAYERS, {}, None)
    second = store.new_game("mall_of_horror", PLAYERS, {}, None)
    assert store.unfinished() == store.game(second)
    store.finish(second, ["Red"], 5)
    assert store.unfinished() == store.game(first)
    store.finish(first, ["Blue"], 3)
    assert store.unfinished() is None


def test_unfinished_survives_reopening(db_path: Path) -> None:
    with EventStore(db_path) as store:
        game_id = store.new_game("mall_of_horror", PLAYERS, {}, None)
        store.append(game_id, {"type": "start"})
    with EventStore(db_path) as store:
        running = store.unfinished()
        assert running is not None and running.id == game_id
        assert store.events(running.id) == [{"type": "start"}]


def test_finish_records_winners_and_rounds(store: EventStore) -> None:
    game_id = store.new_game("mall_of_horror", PLAYERS, {}, None)
    store.finish(game_id, ["Blue", "Yellow"], 7)
    record = store.game(game_id)
    assert record.is_finished and record.finished is not None
    assert record.finished >= record.started
    assert (record.winners, record.rounds) == (("Blue", "Yellow"), 7)


def test_a_finished_game_takes_no_more_events_and_cannot_finish_twice(store: EventStore) -> None:
    game_id = store.new_game("mall_of_horror", PLAYERS, {}, None)
    store.append(game_id, {"type": "start"})
    store.finish(game_id, ["Red"], 1)
    with pytest.raises(ValueError, match=f"game {game_id} is finished"):
        store.append(game_id, {"type": "late"})
    with pytest.raises(ValueError, match="already finished"):
        store.finish(game_id, ["Blue"], 2)
    assert store.events(game_id) == [{"type": "start"}]
    assert store.game(game_id).winners == ("Red",)


def test_finish_refuses_a_winner_who_did_not_play(store: EventStore) -> None:
    game_id = store.new_game("mall_of_horror", PLAYERS, {}, None)
    with pytest.raises(ValueError, match="Green did not play"):
        store.finish(game_id, ["Red", "Green"], 4)
    with pytest.raises(ValueError, match="rounds"):
        store.finish(game_id, ["Red"], -1)
    assert not store.game(game_id).is_finished


def test_history_lists_finished_games_newest_first(store: EventStore) -> None:
    assert store.history() == []
    games = [store.new_game("mall_of_horror", PLAYERS, {"n": n}, None) for n in range(4)]
    store.finish(games[2], ["Red"], 3)
    store.finish(games[0], ["Blue"], 4)
    store.finish(games[1], [], 6)  # everyone eaten
    assert [record.id for record in store.history()] == [games[2], games[1], games[0]]
    assert store.history()[1].winners == ()


# --- the file: schema, pragmas, strangers ----------------------------------------------------------------


def test_new_file_carries_schema_version_and_application_id(db_path: Path) -> None:
    EventStore(db_path).close()
    db = sqlite3.connect(db_path)
    assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    assert db.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
    assert dict(db.execute("SELECT key, value FROM meta"))["application"] == "companion"
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"meta", "games", "events"}
    db.close()


def test_wal_and_full_sync_are_on(store: EventStore, db_path: Path) -> None:
    # synchronous is per connection, so it is read from the store's own connection.
    assert store._db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert store._db.execute("PRAGMA synchronous").fetchone() == (2,)  # 2 = FULL
    assert store._db.execute("PRAGMA foreign_keys").fetchone() == (1,)
    other = sqlite3.connect(db_path)
    assert other.execute("PRAGMA journal_mode").fetchone() == ("wal",)  # persistent in the file
    other.close()


def test_empty_file_is_initialised(db_path: Path) -> None:
    db_path.touch()
    with EventStore(db_path) as store:
        assert store.append(store.new_game("mall_of_horror", PLAYERS, {}, None), {"a": 1}) == 1


def test_empty_sqlite_database_is_initialised(db_path: Path) -> None:
    sqlite3.connect(db_path).execute("VACUUM").connection.close()
    with EventStore(db_path) as store:
        assert store.history() == []


def test_missing_directory_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot open"):
        EventStore(tmp_path / "nowhere" / "x.sqlite3")


def test_foreign_database_is_refused_untouched(db_path: Path) -> None:
    make_foreign_db(db_path)
    assert_refused_untouched(db_path, r"is not a companion database \(it has tables: foo\)")


def test_foreign_wal_database_is_refused_untouched(db_path: Path) -> None:
    make_foreign_db(db_path, wal=True)
    assert_refused_untouched(db_path, r"is not a companion database \(it has tables: foo\)")


def test_database_of_another_application_is_refused_untouched(db_path: Path) -> None:
    db = sqlite3.connect(db_path)
    db.execute("PRAGMA application_id = 1234")
    db.execute("CREATE TABLE games (x)")
    db.commit()
    db.close()
    assert_refused_untouched(db_path, "is not a companion database")


def test_database_with_only_another_application_id_is_refused_untouched(db_path: Path) -> None:
    db = sqlite3.connect(db_path)
    db.execute("PRAGMA application_id = 1234")
    db.close()
    assert_refused_untouched(db_path, r"is not a companion database \(application id 0x4d2\)")


@pytest.mark.parametrize(
    "content",
    [
        b"hello, this is a shopping list\n",
        os.urandom(8192),
        b"\x00" * 4096,
        b"SQLite format 2\x00" + b"\x00" * 84,
    ],
)
def test_file_that_is_not_sqlite_is_refused_untouched(db_path: Path, content: bytes) -> None:
    db_path.write_bytes(content)
    assert_refused_untouched(db_path, r"is not a companion database \(it is not an SQLite file\)")


def test_sqlite_header_with_garbage_after_it_is_refused_untouched(db_path: Path) -> None:
    db_path.write_bytes(b"SQLite format 3\x00" + os.urandom(8192))
    assert_refused_untouched(db_path, "is corrupt")


@pytest.mark.parametrize("keep", [0.0001, 0.01, 0.1, 0.5, 0.9, 0.99])
def test_truncated_database_is_refused_untouched(tmp_path: Path, db_path: Path, keep: float) -> None:
    whole = tmp_path / "whole.sqlite3"
    make_companion_db(whole)
    data = whole.read_bytes()
    db_path.write_bytes(data[: max(1, int(len(data) * keep))])
    assert_refused_untouched(db_path, "is corrupt")


@pytest.mark.parametrize("pages_lost", [1, 2, 5, 12])
def test_database_cut_at_a_page_boundary_is_refused_untouched(
    tmp_path: Path, db_path: Path, pages_lost: int
) -> None:
    whole = tmp_path / "whole.sqlite3"
    make_companion_db(whole)
    data = whole.read_bytes()
    page_size = int.from_bytes(data[16:18], "big")
    assert len(data) > (pages_lost + 1) * page_size
    db_path.write_bytes(data[: len(data) - pages_lost * page_size])
    assert_refused_untouched(db_path, "is corrupt")


def test_newer_schema_is_refused_untouched(db_path: Path) -> None:
    make_companion_db(db_path, games=1)
    db = sqlite3.connect(db_path)
    db.execute("PRAGMA user_version = 9")
    db.close()
    assert_refused_untouched(db_path, r"was written by a newer companion \(schema 9, this one knows 1\)")


def test_our_file_missing_a_table_is_corrupt(db_path: Path) -> None:
    make_companion_db(db_path, games=1)
    db = sqlite3.connect(db_path)
    db.execute("DROP TABLE events")
    db.close()
    assert_refused_untouched(db_path, r"is corrupt: .*missing tables \['events'\]")


def test_error_messages_name_the_file(db_path: Path) -> None:
    make_foreign_db(db_path)
    with pytest.raises(StoreError) as caught:
        EventStore(db_path)
    assert str(caught.value).startswith(str(db_path))


def test_default_db_path_is_in_the_user_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = default_db_path()
    assert path == tmp_path / "data" / "companion" / "companion.sqlite3"
    assert path.parent.is_dir()


# --- power cut ---------------------------------------------------------------------------------------------

APPENDER = textwrap.dedent(
    """
    import sys
    from companion.store import EventStore

    store = EventStore(sys.argv[1])
    game_id = store.new_game("mall_of_horror", ["Red", "Blue"], {}, None)
    print("game", game_id, flush=True)
    for i in range(100_000):
        seq = store.append(game_id, {"type": "tick", "i": i})
        print(seq, flush=True)
    """
)


def test_sigkill_right_after_append_loses_no_reported_event(db_path: Path) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
    }
    child = subprocess.Popen(
        [sys.executable, "-c", APPENDER, str(db_path)], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert child.stdout is not None
        header = child.stdout.readline().split()
        assert header[0] == "game", header
        game_id = int(header[1])
        reported = [int(child.stdout.readline()) for _ in range(200)]
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        # Lines already in the pipe were reported before the kill, so they count too.
        reported += [int(line) for line in child.stdout.read().split()]
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        if child.stdout is not None:
            child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    assert reported == list(range(1, len(reported) + 1))

    with EventStore(db_path) as store:
        events = store.events(game_id)
        assert len(events) >= len(reported)
        assert events[: len(reported)] == [{"type": "tick", "i": seq - 1} for seq in reported]
        assert store.unfinished() is not None
        assert store.append(game_id, {"type": "after the kill"}) == len(events) + 1


def test_the_file_on_disk_is_valid_json_rows(store: EventStore, db_path: Path) -> None:
    game_id = store.new_game("mall_of_horror", PLAYERS, {}, None)
    store.append(game_id, {"type": "roll", "commitment": "ab" * 32})
    other = sqlite3.connect(db_path)
    rows = other.execute("SELECT game_id, seq, event FROM events").fetchall()
    other.close()
    assert [(g, s, json.loads(e)) for g, s, e in rows] == [
        (game_id, 1, {"type": "roll", "commitment": "ab" * 32})
    ]


def test_settings_are_kept_in_the_save_file(tmp_path):
    path = tmp_path / "settings.sqlite3"
    with EventStore(path) as store:
        assert store.setting("host") is None
        store.set_setting("host", "abc")
        store.set_setting("tokens:1", {"red": "t1"})
        store.set_setting("host", "def")
    with EventStore(path) as store:
        assert store.setting("host") == "def"
        assert store.setting("tokens:1") == {"red": "t1"}


def _posix_locks(path: Path) -> list[str]:
    """This process's POSIX locks on `path` (SQLite's), from /proc/locks."""
    inode = os.stat(path).st_ino
    return [line for line in Path("/proc/locks").read_text().splitlines()
            if " POSIX " in line and f":{inode} " in line and f" {os.getpid()} " in line]


@pytest.mark.skipif(not Path("/proc/locks").exists(), reason="Linux's /proc/locks")
def test_a_reader_beside_the_writer_in_one_process_leaves_sqlites_locks_alone(db_path: Path) -> None:
    with EventStore(db_path) as writer:
        writer.new_game("mall-of-horror", ["red", "yellow", "blue"], {})
        held = _posix_locks(db_path)  # SQLite's shared lock of a connection in WAL mode
        assert held
        with EventStore(db_path, readonly=True) as reader:  # the host page's statistics, in a thread
            assert reader.history() == []
        assert _posix_locks(db_path) == held  # closing a descriptor of the file would have dropped them all
    with EventStore(db_path, readonly=True) as reader:  # no writer here: the header is checked as ever
        assert reader.history() == []
