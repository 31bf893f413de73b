"""The save file under faults: never refused when it is ours and whole, one process at a time, private, and a
write that does not reach the disk is a clear StorageError after which the store carries on."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion import store as store_module
from companion.store import EventStore, StorageError, StoreError, StoreInUse
from companion.table import Table

REPO = Path(__file__).resolve().parent.parent
SAVES = Path(__file__).with_name("saves")
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
PLAYERS = ["red", "blue"]


def python(code: str, *args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], env=ENV, capture_output=True,
                          text=True, timeout=120, **kwargs)


# -- one process at a time ------------------------------------------------------------------------------------


def test_a_second_process_on_the_save_file_is_told_it_is_in_use_by_companion_and_by_which_pid(tmp_path):
    path = tmp_path / "companion.sqlite3"
    with EventStore(path) as store:
        store.new_game("mall-of-horror", PLAYERS, {})
        result = python("""
            import sys
            from companion.store import EventStore, StoreInUse
            try:
                EventStore(sys.argv[1])
            except StoreInUse as error:
                print(error.pid, error)
        """, str(path))
        pid, message = result.stdout.strip().split(" ", 1)
        assert int(pid) == os.getpid()
        assert message == f"the save file {path} is in use by companion (pid {os.getpid()})"
        with pytest.raises(StoreInUse):  # a second store in the same process too
            EventStore(path)
        assert store.unfinished() is not None  # and the first one is untouched by the attempt
    with EventStore(path) as again:  # closed: free again
        assert again.unfinished() is not None


def test_a_reader_beside_the_running_table_sees_its_games_and_cannot_write(tmp_path):
    path = tmp_path / "companion.sqlite3"
    with EventStore(path) as store:
        game = store.new_game("mall-of-horror", PLAYERS, {})
        store.append(game, {"answer": {"seat": "red"}})
        with EventStore(path, readonly=True) as reader:
            assert reader.events(game) == [{"answer": {"seat": "red"}}]
            with pytest.raises(StorageError) as refused:
                reader.append(game, {"answer": {"seat": "blue"}})
            assert refused.value.reason == "readonly"
        assert store.append(game, {"answer": {"seat": "blue"}}) == 2


# -- private ----------------------------------------------------------------------------------------------------


def test_a_new_save_file_and_its_sidecars_are_readable_by_their_owner_only(tmp_path):
    path = tmp_path / "companion.sqlite3"
    old = os.umask(0o022)
    try:
        with EventStore(path) as store:
            store.new_game("mall-of-horror", PLAYERS, {})
            modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()}
    finally:
        os.umask(old)
    assert modes == {"companion.sqlite3": 0o600, "companion.sqlite3-wal": 0o600, "companion.sqlite3-shm": 0o600}


def test_an_older_save_file_readable_by_everyone_is_made_private(tmp_path):
    path = tmp_path / "companion.sqlite3"
    shutil.copyfile(SAVES / "companion-0.1.0-before-faults.save", path)
    path.chmod(0o644)
    EventStore(path).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


# -- files of earlier versions ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["companion-0.1.0-first-table.save", "companion-0.1.0-before-faults.save"])
def test_save_files_of_earlier_versions_open_and_their_game_resumes(tmp_path, name):
    """Made by the first Table (f0e8ac7) and by the version just before this one: a finished 4-player game and
    a 5-player game 30 answers in."""
    path = tmp_path / "companion.sqlite3"
    shutil.copyfile(SAVES / name, path)
    with EventStore(path) as store:
        [finished] = store.history()
        assert finished.players == ("red", "yellow", "blue", "green") and finished.winners
        table = Table(store, roll_when_asked=False)
        record = table.resume()
        assert record is not None and len(record.players) == 5
        assert sum("answer" in event for event in table.events) == 30
        assert table.rules.prompt(table.state) is not None  # it waits for the next answer, as it did


# -- a checkpoint cut short -----------------------------------------------------------------------------------


def wal_file(tmp_path: Path, appends: int = 300) -> tuple[Path, list[dict], bytes, bytes, int]:
    """A save file whose WAL holds the pages that make the main file grow: (path, events, main, wal, page)."""
    path = tmp_path / "grown.sqlite3"
    store = EventStore(path)
    store._db.execute("PRAGMA wal_autocheckpoint=0")
    game = store.new_game("mall-of-horror", PLAYERS, {})
    for i in range(appends):
        store.append(game, {"answer": {"seat": "red", "i": i, "note": "x" * 700}})
    events = store.events(game)
    main, wal = path.read_bytes(), Path(f"{path}-wal").read_bytes()
    store._db.close()  # no checkpoint on close: the file stays as a kill would leave it
    store._db = None
    store.close()
    return path, events, main, wal, int.from_bytes(main[16:18], "big")


def frames(wal: bytes, page: int) -> dict[int, bytes]:
    """The newest copy of each page in the WAL (all frames are committed here)."""
    out, at = {}, 32
    while at + 24 + page <= len(wal):
        out[int.from_bytes(wal[at:at + 4], "big")] = wal[at + 24:at + 24 + page]
        at += 24 + page
    return out


def test_a_checkpoint_cut_after_any_page_leaves_a_file_that_opens_with_every_event(tmp_path):
    """SQLite copies the WAL's pages into the file in page order: page 1 (with the new size) first. A cut
    after any of them leaves a main file shorter than its header says, and the WAL that completes it."""
    path, events, main, wal, page = wal_file(tmp_path)
    pages = frames(wal, page)
    assert max(pages) * page > len(main)
    for copied in range(len(pages) + 1):
        image = bytearray(main)
        for number in sorted(pages)[:copied]:
            image.extend(bytes(max(0, number * page - len(image))))
            image[(number - 1) * page:number * page] = pages[number]
        folder = tmp_path / f"cut{copied}"
        folder.mkdir()
        (folder / path.name).write_bytes(image)
        (folder / f"{path.name}-wal").write_bytes(wal)
        with EventStore(folder / path.name) as store:
            assert store.events(1) == events, f"cut after {copied} pages"
        shutil.rmtree(folder)


def test_a_main_file_missing_pages_its_wal_does_not_hold_is_still_refused(tmp_path):
    path, events, main, wal, page = wal_file(tmp_path, appends=200)
    with EventStore(path) as store:  # checkpointed: a whole file, then a small change in a fresh WAL
        store._db.execute("PRAGMA wal_autocheckpoint=0")
        store.set_setting("host_token", "abc")
        whole, small_wal = path.read_bytes(), Path(f"{path}-wal").read_bytes()
        store._db.close()
        store._db = None
    held = frames(small_wal, page)
    cut = len(whole) - 8 * page
    assert held and not any(number * page > cut for number in held)  # the lost pages are nowhere else
    path.write_bytes(whole[:cut])
    Path(f"{path}-wal").write_bytes(small_wal)
    with pytest.raises(StoreError, match="is corrupt"):
        EventStore(path)


def test_a_strangers_file_with_a_cut_transaction_is_refused_and_left_as_it_was(tmp_path):
    """A hot rollback journal is rolled back on a copy to see what the file is; the stranger's is untouched."""
    path = tmp_path / "notes.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (text)")
    db.commit()
    db.close()
    journal = Path(f"{path}-journal")
    journal.write_bytes(b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7" + bytes(504))  # a journal header, as if cut
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(StoreError, match=r"not a companion database \(it has tables: notes\)"):
        EventStore(path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


# -- storage that takes no write -----------------------------------------------------------------------------

# A disk that fills up (the file size limit of the process: the same short writes a full disk gives), then a
# clean stop whose checkpoint cannot grow the main file, then a start with room again.
DISK_FULL = """
    import os, resource, sys
    from companion.store import EventStore, StorageError

    path = sys.argv[1]
    store = EventStore(path)
    store._db.execute("PRAGMA wal_autocheckpoint=0")
    game = store.new_game("mall-of-horror", ["red", "blue"], {})
    answer = lambda i: {"answer": {"seat": "red", "i": i, "note": "x" * 3000}}
    for i in range(120):  # a main file of many pages...
        store.append(game, answer(i))
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    acked = 120
    for i in range(120, 160):  # ...and a WAL that makes it grow
        store.append(game, answer(i))
        acked += 1
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    room = max(os.path.getsize(path), os.path.getsize(path + "-wal")) + 100
    resource.setrlimit(resource.RLIMIT_FSIZE, (room, hard))  # no file may grow past this: the disk is full
    failures = []
    for i in range(acked, 200):
        try:
            store.append(game, answer(i))
            acked += 1
        except StorageError as error:
            failures.append(error.reason)
            break
    store.close()  # its checkpoint cannot grow the main file: the WAL stays beside a short file
    print(acked, len(failures), os.path.getsize(path), os.path.getsize(path + "-wal"), *sorted(set(failures)))
"""


def test_a_disk_full_episode_and_a_clean_stop_leave_a_file_that_opens_with_every_stored_answer(tmp_path):
    path = tmp_path / "companion.sqlite3"
    result = python(DISK_FULL, str(path))
    assert result.returncode == 0, result.stderr[-2000:]
    acked, failed, size, wal, *reasons = result.stdout.split()
    assert int(failed) == 1 and int(wal) > 0 and set(reasons) <= {"full", "io"}, result.stdout
    header = path.read_bytes()[:100]
    assert int(size) < int.from_bytes(header[28:32], "big") * int.from_bytes(header[16:18], "big")  # "cut short"
    with EventStore(path) as store:
        events = store.events(1)
    assert [e["answer"]["i"] for e in events] == list(range(int(acked)))


def test_a_failed_write_leaves_the_connection_ready_for_the_next(tmp_path):
    path = tmp_path / "companion.sqlite3"
    result = python("""
        import os, resource, sys
        from companion.store import EventStore, StorageError
        store = EventStore(sys.argv[1])
        game = store.new_game("mall-of-horror", ["red", "blue"], {})
        store.append(game, {"answer": {"n": 1}})
        soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        resource.setrlimit(resource.RLIMIT_FSIZE, (os.path.getsize(sys.argv[1] + "-wal"), hard))
        try:
            store.append_all(game, [{"answer": {"n": 2}}, {"answer": {"n": 3, "note": "y" * 9000}}])
        except StorageError as error:
            print("refused", error.reason)
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))  # room again
        print(store.append(game, {"answer": {"n": 4}}), [e["answer"]["n"] for e in store.events(game)])
    """, str(path))
    assert result.returncode == 0, result.stderr[-2000:]
    refused, after = result.stdout.splitlines()
    assert refused.startswith("refused ")
    assert after == "2 [1, 4]"  # nothing of the failed answer, and the next one stored


def test_a_full_disk_is_found_when_the_save_file_opens(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "MIN_FREE_BYTES", 1 << 62)
    with pytest.raises(StoreError, match=r"^the disk holding .* is full \(\d+ KB free, the companion needs"):
        EventStore(tmp_path / "companion.sqlite3")
    assert list(tmp_path.iterdir()) == []  # the new file it made is gone again


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes any file (the read-only folder is tested by serve)")
def test_a_read_only_save_file_is_found_when_it_opens(tmp_path):
    path = tmp_path / "companion.sqlite3"
    EventStore(path).close()
    path.chmod(0o444)
    with pytest.raises(StoreError, match=r"is read-only \(the file cannot be opened for writing\)"):
        EventStore(path)
