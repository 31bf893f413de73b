"""The event log: one SQLite file that is the save file of every game played on the box.

Each append is its own committed transaction (WAL, synchronous=FULL), so an event that ``append`` returned
for survives a power cut. The box opens its store with ``group_commit``: a commit then only writes the WAL
(synchronous=NORMAL, which SQLite keeps consistent through a power cut), and ``sync`` puts every commit made so
far on disk with one fdatasync of the WAL, on a thread of its own while the loop goes on; nothing leaves the box
before ``synced`` has caught up with ``writes`` (see ``Table.when_stored``). Answers that come in during one
sync share the next: on a slow SD card the loop never waits for the disk, and the disk is asked less.

A file that is not ours is never written to: it is inspected through a read-only connection first, and anything
unexpected is a ``StoreError`` that says what the file is. SQLite's own checks decide whether a file is damaged
(its header, ``quick_check``, the write-ahead log it replays): a main file shorter than its header says is normal
while the WAL still holds the newest pages (a checkpoint cut by a kill or a full disk), so it is refused only
when there is no WAL to complete it.

One process at a time: the file is locked (flock) while a store is open, and a second one is told which
process holds it. The save file holds the seat links, so it is created readable by its owner only (0600);
SQLite gives its -wal and -shm files the same mode. Storage that cannot take a write (a read-only file or
folder, a full disk) is found when the store opens; a write that fails later is a ``StorageError`` naming the
reason, and the connection is left ready for the next write.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import shutil
import sqlite3
import stat
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

import platformdirs

from companion import __version__

SCHEMA_VERSION = 1
APPLICATION_ID = int.from_bytes(b"CMPN", "big")  # PRAGMA application_id: a signed 32-bit int, this is > 0
SQLITE_MAGIC = b"SQLite format 3\x00"
SQLITE_HEADER_SIZE = 100
WAL_HEADER_SIZE = 32
WAL_MAGIC = (0x377F0682, 0x377F0683)  # a WAL's first 4 bytes (its checksums' byte order in the last bit)
_WRITING: set[str] = set()  # the save files a store of this process writes (their resolved paths)
NAMES = "names:"  # the setting that keeps a game's names: "names:<game id>" -> {seat: name}
MIN_FREE_BYTES = 1024 * 1024  # less free space than this on the save file's disk is a full disk

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    options TEXT NOT NULL,
    position TEXT,
    started TEXT NOT NULL,
    finished TEXT,
    winners TEXT,
    rounds INTEGER
);
CREATE TABLE events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""
_TABLES = {"meta", "games", "events"}
_GAME_COLUMNS = "id, game, players, options, position, started, finished, winners, rounds"


class StoreError(Exception):
    """The save file cannot be used; the message says which file and why."""


class StoreInUse(StoreError):
    """Another process has the save file open: `pid` names it when the system says."""

    def __init__(self, path: Path, pid: int | None):
        self.pid = pid
        holder = f"companion (pid {pid})" if pid else "another companion"
        super().__init__(f"the save file {path} is in use by {holder}")


class SaveDamaged(StoreError):
    """The save file is damaged (torn, truncated, flipped): `companion salvage` keeps the games it still holds."""


class StorageError(StoreError):
    """A write that did not reach the save file. `reason`: "full" (no space left), "readonly" (the file or its
    folder cannot be written) or "io" (any other failure, `detail` says which). Nothing of it was stored."""

    def __init__(self, path: Path, reason: str, detail: str = ""):
        self.path, self.reason, self.detail = path, reason, detail
        said = {"full": "the disk is full", "readonly": "the save file is read-only"}.get(reason, detail)
        super().__init__(f"cannot write to {path}: {said}")


def storage_reason(error: BaseException) -> tuple[str, str]:
    """("full" | "readonly" | "io", detail) for an error SQLite or the system gave on a write."""
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(error, OSError):
        if error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            return "full", error.strerror or str(error)
        if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return "readonly", error.strerror or str(error)
        return "io", error.strerror or str(error)
    text = str(error) or type(error).__name__
    if code == sqlite3.SQLITE_FULL or "disk is full" in text:
        return "full", text
    if (code is not None and code & 0xFF == sqlite3.SQLITE_READONLY) or "readonly" in text:
        return "readonly", text
    return "io", text


@dataclass(frozen=True)
class GameRecord:
    """One row of ``games``. ``finished``, ``winners`` and ``rounds`` are None while the game runs."""

    id: int
    game: str
    players: tuple[str, ...]
    options: dict[str, Any]
    position: dict[str, Any] | None
    started: datetime
    finished: datetime | None
    winners: tuple[str, ...] | None
    rounds: int | None
    names: Mapping[str, str] = field(default_factory=dict)  # the people's names by seat, where given


    @property
    def is_finished(self) -> bool:
        return self.finished is not None


def _sync_file(path: str | Path) -> int:
    """fdatasync a file (or a folder's entries) by its path; its inode."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fdatasync(fd)
        return os.fstat(fd).st_ino
    finally:
        os.close(fd)


def default_db_path() -> Path:
    """Where the box keeps its save file; the directory is created if needed."""
    directory = Path(platformdirs.user_data_dir("companion", appauthor=False))
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)  # the save file holds every seat's link
    return directory / "companion.sqlite3"


class EventStore:
    """The SQLite event log. Use as a context manager, or call ``close``."""

    def __init__(self, path: str | Path, readonly: bool = False, group_commit: bool = False) -> None:
        """`readonly`: only read (a game in progress, the history) beside the process that writes; no lock.
        `group_commit`: a commit is on disk once `sync` has returned after it (the box's mode), not at once."""
        self.path = Path(path)
        self.readonly = readonly
        self._db: sqlite3.Connection | None = None
        self._fd = -1
        self.writes = 0  # committed write transactions, for an idle checkpoint (`checkpoint`) and `sync`
        self.group_commit = group_commit
        self._synced = 0  # with group_commit: how many of the writes `sync` has put on disk
        self._wal_inode = -1  # the WAL file whose folder entry is on disk (a new WAL's must be synced once)
        self.damaged = False  # a read found the file damaged: from then on nothing checkpoints it (see `_corrupt`)
        wal = Path(f"{self.path}-wal")
        self._found_wal = wal.is_file()  # answers not yet copied into the file itself (or an empty WAL): keep it
        self._made_shm = not Path(f"{self.path}-shm").exists()  # SQLite's index of the WAL, made by our opening
        if readonly:
            self._open_reader()
            return
        self._fd, created, writable = self._lock()
        try:
            fresh = self._inspect(writable)
            self._check_room()
            self._keep_private()
            self._open_connection(fresh)
            if not fresh:
                self._check_rows()
        except BaseException:
            self._release(created)
            raise
        _WRITING.add(str(self.path.resolve()))

    # --- opening -----------------------------------------------------------------------------------------

    def _lock(self) -> tuple[int, bool, bool]:
        """Open (or create, 0600) the file and lock it for this process: (fd, created, writable)."""
        created, writable = False, True
        try:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CLOEXEC)
            except FileNotFoundError:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
                created = True
            except OSError as error:
                if error.errno not in (errno.EACCES, errno.EROFS, errno.EPERM):
                    raise
                fd, writable = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC), False
        except OSError as error:
            raise StoreError(f"cannot open {self.path}: {error.strerror or error}") from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise StoreError(f"cannot open {self.path}: it is not a file")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            pid = _lock_holder(fd) if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN) else None
            os.close(fd)
            if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise StoreInUse(self.path, pid) from None
            raise StoreError(f"cannot lock {self.path}: {error.strerror or error}") from None
        return fd, created, writable

    def _open_reader(self) -> None:
        if not self.path.is_file():
            raise StoreError(f"cannot open {self.path}: there is no such file")
        if not self._written_here():  # (the store that writes here checked it)
            self._check_header(self.path)  # the same refusals as a store that writes (SQLite would drop the WAL of
        try:                                # an empty file, and calls a torn header "not a database")
            self._db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=5.0,
                                       isolation_level=None)
            if self._check(self._db):
                raise StoreError(f"{self.path} holds no game yet")
        except sqlite3.OperationalError as exc:  # the file cannot be read now (a lock, the system): not damage
            self._release()
            raise StoreError(f"cannot read {self.path}: {exc}") from None
        except sqlite3.DatabaseError as exc:  # SQLite finds the file damaged: say what to do, as `_inspect` does
            self._release()
            raise self._corrupt(str(exc)) from None
        except StoreError:
            self._release()
            raise

    def _written_here(self) -> bool:
        """A store of this process writes the file. Then nothing else here may open and close the file itself:
        closing any descriptor of it drops every POSIX lock this process holds on it, SQLite's locks included."""
        return str(self.path.resolve()) in _WRITING

    def _release(self, created: bool = False) -> None:
        if self._fd >= 0:
            _WRITING.discard(str(self.path.resolve()))
        if self._db is not None:
            reader = self._reader_while_closing()
            self._db.close()
            self._db = None
            if reader is not None:
                reader.close()
            self._drop_our_shm()
        if created and self._fd >= 0 and os.fstat(self._fd).st_size == 0:
            self.path.unlink(missing_ok=True)  # leave the folder as it was: nothing of ours was written
        if self._fd >= 0:
            os.close(self._fd)  # after SQLite's own descriptors: closing this one drops the flock
            self._fd = -1

    def _reader_while_closing(self) -> sqlite3.Connection | None:
        """A store that wrote nothing, or found the file damaged, leaves the WAL as it found it: the last connection
        to close copies the WAL into the file and deletes it (SQLite's checkpoint on close: a damaged file must
        never change), but not while another connection reads it, and never a read-only one (SQLite's
        sqlite3WalCheckpoint returns SQLITE_READONLY for it, so the WAL stays)."""
        if self._fd < 0 or not self._found_wal or (self.writes and not self.damaged):
            return None
        try:
            reader = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
            reader.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error:
            return None
        return reader

    def _drop_our_shm(self) -> None:
        """Every connection closed, nothing written: the -shm our opening made goes too, so the folder is as we found
        it. Only while no companion holds the file (its flock: ours, or taken here for a reader), since a box that
        has the file open shares that index; SQLite rebuilds it from the WAL at the next opening. (A store that
        wrote leaves it to SQLite, which deletes it with the WAL once it has checkpointed.)"""
        shm = Path(f"{self.path}-shm")
        if self.writes or not self._made_shm or not shm.exists() or (self._fd < 0 and self._written_here()):
            return
        fd = self._fd
        try:
            if fd < 0:
                fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a box has it: its -shm now, leave it
            shm.unlink(missing_ok=True)
        except OSError:
            pass
        finally:
            if fd >= 0 and fd != self._fd:
                os.close(fd)  # drops the flock taken here

    def _keep_private(self) -> None:
        """Our save file (and its sidecars) readable by its owner only: it holds every seat's link."""
        for path in (self.path, Path(f"{self.path}-wal"), Path(f"{self.path}-shm")):
            try:
                mode = path.stat().st_mode
                if mode & 0o077:
                    os.chmod(path, mode & 0o700)
            except OSError:
                pass  # not there, or not ours to change: SQLite copies the main file's mode anyway

    def _open_connection(self, fresh: bool) -> None:
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=5.0)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {self.path}: {exc}") from None
        try:
            (mode,) = self._db.execute("PRAGMA journal_mode=WAL").fetchone()
            self.group_commit = self.group_commit and mode == "wal"  # the WAL is what `sync` puts on disk
            self._db.execute(f"PRAGMA synchronous={'NORMAL' if self.group_commit else 'FULL'}")
            self._db.execute("PRAGMA foreign_keys=ON")
            if fresh:
                self._create()
            else:
                # A write transaction started and given up: an error here is storage that takes no write.
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute("ROLLBACK")
        except (sqlite3.Error, StorageError) as exc:
            reason, detail = (exc.reason, exc.detail) if isinstance(exc, StorageError) else storage_reason(exc)
            if reason == "readonly":
                raise self._read_only(detail) from None
            if reason == "full":
                raise StoreError(f"the disk holding {self.path} is full: free some space first") from None
            raise StoreError(f"cannot use {self.path}: {detail}") from None

    def _check_room(self) -> None:
        try:
            disk = os.statvfs(self.path.parent)
        except OSError:
            return
        free = disk.f_bavail * disk.f_frsize
        if free < MIN_FREE_BYTES:
            raise StoreError(f"the disk holding {self.path} is full ({free // 1024} KB free, the companion needs "
                             f"{MIN_FREE_BYTES // 1024 // 1024} MB): free some space first")

    def _corrupt(self, detail: str) -> SaveDamaged:
        """A damaged save file, said with what to do: its readable games are copied to a new file, it is left as is
        (from now on no checkpoint copies its WAL into it, see `checkpoint` and `_reader_while_closing`)."""
        self.damaged = True
        return SaveDamaged(f"{self.path} is corrupt: {detail}; it is left as it is: `companion salvage --db "
                          f"{self.path} --to NEW` copies the games it still holds into a new save file NEW")

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """Rows read from the save file: SQLite finding a damaged page is a StoreError that says so."""
        try:
            yield
        except sqlite3.OperationalError as exc:
            if "decode" in str(exc):  # a text torn into bytes that are not UTF-8
                raise self._corrupt(str(exc)) from None
            raise StoreError(f"cannot read {self.path}: {exc}") from None
        except sqlite3.DatabaseError as exc:
            raise self._corrupt(str(exc)) from None

    def _read_only(self, detail: str) -> StoreError:
        return StoreError(f"{self.path} is read-only ({detail}): the companion could not store a single answer "
                          f"in it; make the file and its folder writable, or use another save file")

    def _inspect(self, writable: bool = True) -> bool:
        """Raise StoreError unless the file is ours or empty; True if it still needs the schema."""
        journal = Path(f"{self.path}-journal")
        if journal.is_file() and journal.stat().st_size > 0:
            # A transaction cut in rollback-journal mode (the first one of a new file is): SQLite puts the file
            # back as it was before, on its first read-write open. Done first on a copy, so that a stranger's
            # file is still never written to.
            with contextlib.suppress(OSError), tempfile.TemporaryDirectory(prefix="companion-") as folder:
                copy = Path(folder) / "copy.sqlite3"
                for suffix in ("", "-journal", "-wal"):
                    if Path(f"{self.path}{suffix}").is_file():
                        shutil.copyfile(f"{self.path}{suffix}", f"{copy}{suffix}")
                with contextlib.suppress(sqlite3.Error), contextlib.closing(sqlite3.connect(copy)) as db:
                    db.execute("PRAGMA schema_version")
                return self._inspect_file(copy, writable)
        return self._inspect_file(self.path, writable)

    def _inspect_file(self, path: Path, writable: bool) -> bool:
        if self._check_header(path):
            return True
        if not writable:
            raise self._read_only("the file cannot be opened for writing")
        if not os.access(self.path.parent, os.W_OK):
            raise self._read_only("its folder cannot be written")

        sidecars = [Path(f"{path}{suffix}") for suffix in ("-wal", "-shm")]
        ours = [sidecar for sidecar in sidecars if not sidecar.exists()]
        try:
            # Read-only: not even SQLite's own recovery (a checkpoint on close) may touch a stranger's file.
            db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
            try:
                return self._check(db)
            finally:
                db.close()
        except StoreError as exc:
            error = exc
        except sqlite3.OperationalError as exc:
            error = StoreError(f"cannot read {self.path}: {exc}")
        except sqlite3.DatabaseError as exc:
            error = self._corrupt(str(exc))
        for sidecar in ours:  # reading a WAL-mode file makes these; leave the folder as it was
            sidecar.unlink(missing_ok=True)
        raise error

    def _check_header(self, path: Path) -> bool:
        """True for a new file (empty, no WAL); a StoreError for a file that is not ours, or ours cut or torn."""
        try:
            size = path.stat().st_size
            if size == 0 and not _has_frames(Path(f"{path}-wal")):
                return True  # a new file (an empty one with a WAL beside it is a file cut to nothing)
            with path.open("rb") as file:
                header = file.read(SQLITE_HEADER_SIZE)
        except OSError as exc:
            raise StoreError(f"cannot read {self.path}: {exc.strerror or exc}") from None
        if not header.startswith(SQLITE_MAGIC[: len(header)]):
            if _ours_all_the_same(header, Path(f"{path}-wal")):
                raise self._corrupt("its header is torn")
            raise StoreError(f"{self.path} is not a companion database (it is not an SQLite file)")
        if len(header) < SQLITE_HEADER_SIZE:
            raise self._corrupt(f"it is cut short at {size} bytes")
        # SQLite's own checks do not notice a file cut inside its last page: compare with the header. While a
        # WAL holds frames, SQLite reads the newest pages and the size from it (a checkpoint that was cut off
        # leaves the main file short, or a page in it half old): only SQLite's checks count then.
        page_size = int.from_bytes(header[16:18], "big")
        page_size = 65536 if page_size == 1 else page_size
        pages = int.from_bytes(header[28:32], "big")
        pages_valid = header[92:96] == header[24:28]  # "version-valid-for" equals the change counter
        if page_size < 512 or page_size & (page_size - 1):
            raise self._corrupt(f"its header names a page size of {page_size} bytes")
        if not _has_frames(Path(f"{path}-wal")) and (size % page_size or (pages_valid and size < pages * page_size)):
            raise self._corrupt(f"it is cut short at {size} bytes")
        return False

    def _check(self, db: sqlite3.Connection) -> bool:
        (app_id,) = db.execute("PRAGMA application_id").fetchone()
        (version,) = db.execute("PRAGMA user_version").fetchone()
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        (objects,) = db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        if app_id == 0 and version == 0 and objects == 0:
            return True  # a valid but empty SQLite file holds nothing to lose
        if app_id != APPLICATION_ID:
            what = f"it has tables: {', '.join(sorted(tables))}" if tables else f"application id {app_id:#x}"
            raise StoreError(f"{self.path} is not a companion database ({what})")
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer companion "
                f"(schema {version}, this one knows {SCHEMA_VERSION}); update the companion to open it"
            )
        missing = _TABLES - set(tables)
        if version < 1 or missing:
            raise self._corrupt(f"schema {version}, missing tables {sorted(missing)}")
        row = db.execute("SELECT value FROM meta WHERE key = 'application'").fetchone()
        if row != ("companion",):
            raise self._corrupt("its meta table does not name the companion")
        problems = [line for (text,) in db.execute("PRAGMA quick_check") for line in text.splitlines()]
        if problems != ["ok"]:
            problems = [line for line in problems if not line.startswith("***")]  # "*** in database main ***"
            raise self._corrupt('; '.join(problems[:3]))
        return False

    def _check_rows(self) -> None:
        """Read what the box reads before anything is written: quick_check does not see a text torn into bytes that
        are not UTF-8 or JSON, nor a date torn, and the box writes its seat links before it resumes a game. So the
        settings, every game's row and the unfinished game's log are read now, and a damaged one is refused before
        a byte changes. Finished games' logs are left unread: they are history, and no write touches their pages."""
        with self._reading():
            settings = self._db.execute("SELECT key, value FROM meta").fetchall()
            games = self._db.execute("SELECT * FROM games ORDER BY id").fetchall()
        for key, value in settings:
            if not isinstance(key, str):
                raise self._corrupt("a row of its meta table has no name")
            if key.startswith("setting:"):
                self._loads(value, f"setting {key.removeprefix('setting:')}")
        unfinished = [record.id for record in map(self._game_record, games) if not record.is_finished]
        if unfinished:
            self.events(unfinished[-1])

    def _create(self) -> None:
        with self._transaction():
            self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            self._db.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                [("application", "companion"), ("created", _now()), ("created_by", __version__)],
            )

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction; a failure to store it is a StorageError, with nothing of it kept."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self._db.execute("COMMIT")
                self.writes += 1
            finally:
                if self._db.in_transaction:  # an error inside, or a COMMIT that failed (disk full)
                    with suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
        except sqlite3.Error as exc:
            reason, detail = storage_reason(exc)
            raise StorageError(self.path, reason, detail) from None

    @property
    def synced(self) -> int:
        """How many of the `writes` are on disk: all of them, unless `group_commit` waits for a `sync`."""
        return self._synced if self.group_commit else self.writes

    def sync(self) -> None:
        """Put every write committed so far on disk (group_commit): one fsync of the WAL, and of its folder the
        first time a WAL file is seen. Meant for a thread of its own, one call at a time: it touches no SQLite
        connection, only the files. A StorageError if the disk fails; `synced` then stays where it was."""
        upto = self.writes
        if not self.group_commit or self._synced >= upto:
            return
        try:
            inode = _sync_file(f"{self.path}-wal")
            if inode != self._wal_inode:  # a new WAL file: its name in the folder must survive a power cut too
                _sync_file(self.path.parent)
                self._wal_inode = inode
        except FileNotFoundError:
            if self._db is None:
                return  # closed meanwhile: closing checkpointed the WAL into the synced file
            raise StorageError(self.path, "io", "its write-ahead log is gone") from None
        except OSError as error:
            raise StorageError(self.path, *storage_reason(error)) from None
        self._synced = max(self._synced, upto)

    def probe(self) -> None:
        """A small write to see that the save file takes writes again (StorageError if not)."""
        with self._transaction():
            self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('probed', ?)", (_now(),))

    # --- games and events --------------------------------------------------------------------------------

    def new_game(
        self,
        game: str,
        players: Sequence[str],
        options: dict[str, Any],
        position: dict[str, Any] | None = None,
        names: Mapping[str, str] | None = None,
    ) -> int:
        """Record a new game (``position``: a starting position to load, if any; ``names``: the people's names by
        seat, checked by companion/names.py, kept beside it in the same transaction) and return its id."""
        if not isinstance(game, str) or not game:
            raise ValueError(f"the game must be named, got {game!r}")
        if isinstance(players, str) or not all(isinstance(p, str) for p in players):
            raise ValueError(f"players must be a list of seat names, got {players!r}")
        if not isinstance(options, dict):
            raise ValueError(f"options must be a dict, got {type(options).__name__}")
        if position is not None and not isinstance(position, dict):
            raise ValueError(f"position must be a dict or None, got {type(position).__name__}")
        row = (game, _dumps(list(players)), _dumps(options), None if position is None else _dumps(position),
               _now())
        with self._transaction():
            cursor = self._db.execute(
                "INSERT INTO games (game, players, options, position, started) VALUES (?, ?, ?, ?, ?)", row)
            if names:
                self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                                 (f"setting:{NAMES}{cursor.lastrowid}", _dumps(dict(names))))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def append(self, game_id: int, event: dict[str, Any],
               finish: tuple[Sequence[str], int] | None = None) -> int:
        """Store one event and return its seq (1, 2, ...); it is on disk when this returns.

        `finish` (winners, rounds) marks the game finished in the same transaction: the last event of a game
        and its end are stored together or not at all.
        """
        return self.append_all(game_id, [event], finish)

    def append_all(self, game_id: int, events: Sequence[dict[str, Any]],
                   finish: tuple[Sequence[str], int] | None = None) -> int:
        """Store the events of one answer in one transaction (all or none) and return the last seq."""
        for event in events:
            if not isinstance(event, dict):
                raise ValueError(f"an event must be a JSON object (a dict), not {type(event).__name__}")
        texts = [_dumps(event) for event in events]
        with self._transaction():
            row = self._db.execute("SELECT finished FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise KeyError(f"there is no game {game_id} in {self.path}")
            if row[0] is not None:
                raise ValueError(f"game {game_id} is finished; it takes no more events")
            (seq,) = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,)
            ).fetchone()
            for text in texts:
                seq += 1
                self._db.execute("INSERT INTO events (game_id, seq, event) VALUES (?, ?, ?)", (game_id, seq, text))
            if finish is not None:
                self._mark_finished(game_id, *finish)
        return int(seq)

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """The game's events in the order they were appended."""
        self._record(game_id)
        with self._reading():
            rows = self._db.execute("SELECT seq, event FROM events WHERE game_id = ? ORDER BY seq",
                                    (game_id,)).fetchall()
        return [self._loads(text, f"event {seq} of game {game_id}") for seq, text in rows]

    def game(self, game_id: int) -> GameRecord:
        return self._record(game_id)

    def unfinished(self) -> GameRecord | None:
        """The newest game that has not finished, to carry on after a restart."""
        with self._reading():
            row = self._db.execute("SELECT * FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else self._game_record(row)

    def finish(self, game_id: int, winners: Sequence[str], rounds: int) -> None:
        if isinstance(winners, str) or not all(isinstance(w, str) for w in winners):
            raise ValueError(f"winners must be a list of seat names, got {winners!r}")
        if type(rounds) is not int or rounds < 0:
            raise ValueError(f"rounds must be a whole number of at least 0, got {rounds!r}")
        with self._transaction():
            self._mark_finished(game_id, winners, rounds)

    def _mark_finished(self, game_id: int, winners: Sequence[str], rounds: int) -> None:
        record = self._record(game_id)
        if record.is_finished:
            raise ValueError(f"game {game_id} is already finished")
        strangers = [w for w in winners if w not in record.players]
        if strangers:
            raise ValueError(f"{', '.join(strangers)} did not play game {game_id}")
        self._db.execute(
            "UPDATE games SET finished = ?, winners = ?, rounds = ? WHERE id = ?",
            (_now(), _dumps(list(winners)), rounds, game_id),
        )

    def restore(self, games: Sequence[tuple], logs: dict[int, dict[int, str]], settings: dict[str, str]) -> None:
        """Fill a new save file with the rows salvaged from a damaged one (companion/salvage.py), in one
        transaction: the games' rows as they were (ids included), each game's events {seq: event}, the settings."""
        with self._transaction():
            if self._db.execute("SELECT count(*) FROM games").fetchone() != (0,):
                raise ValueError(f"{self.path} already holds games: salvage into a new save file")
            self._db.executemany(f"INSERT INTO games ({_GAME_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", games)
            self._db.executemany("INSERT INTO events (game_id, seq, event) VALUES (?, ?, ?)",
                                 [(game_id, seq, text) for game_id, log in logs.items()
                                  for seq, text in log.items()])
            self._db.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", settings.items())

    def drop_events_from(self, game_id: int, seq: int) -> int:
        """Drop an unfinished game's events from `seq` on (a salvaged log that its rules cannot fold past
        there); how many were dropped."""
        with self._transaction():
            if self._record(game_id).is_finished:
                raise ValueError(f"game {game_id} is finished: its events stay as they are")
            cursor = self._db.execute("DELETE FROM events WHERE game_id = ? AND seq >= ?", (game_id, seq))
        return cursor.rowcount

    def history(self) -> list[GameRecord]:
        """Finished games, newest first."""
        with self._reading():
            rows = self._db.execute("SELECT * FROM games WHERE finished IS NOT NULL ORDER BY id DESC").fetchall()
        return [self._game_record(row) for row in rows]

    def names_used(self) -> list[str]:
        """The names given at the games of this save file, the latest first, each once (whatever its case)."""
        with self._reading():
            rows = self._db.execute("SELECT key, value FROM meta WHERE key LIKE ?", (f"setting:{NAMES}%",)).fetchall()
        out: list[str] = []
        seen: set[str] = set()
        for key, value in sorted(rows, key=lambda row: _game_number(row[0]), reverse=True):
            names = self._loads(value, key)
            for name in names.values() if isinstance(names, dict) else ():
                if isinstance(name, str) and name.casefold() not in seen:
                    seen.add(name.casefold())
                    out.append(name)
        return out

    def _names(self, game_id: int) -> dict[str, str]:
        names = self.setting(f"{NAMES}{game_id}")
        if names is None:
            return {}
        if not (isinstance(names, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in names.items())):
            raise self._corrupt(f"the names of game {game_id} are not names")
        return names

    def setting(self, key: str) -> Any:
        """A value kept in the save file (the host's token, a game's seat tokens), or None."""
        with self._reading():
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (f"setting:{key}",)).fetchone()
        return None if row is None else self._loads(row[0], f"setting {key}")

    def set_setting(self, key: str, value: Any) -> None:
        text = _dumps(value)
        with self._transaction():
            self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (f"setting:{key}", text))

    def checkpoint(self) -> bool:
        """Copy the write-ahead log into the save file and empty it (the box does it when the table is idle and
        before a shutdown): the file alone then holds every answer. False if SQLite could not (a reader in the
        way, a full disk): nothing is lost, the WAL still holds the answers."""
        if self._db is None or self._fd < 0 or self.damaged:
            return False
        try:
            self._db.execute("PRAGMA busy_timeout = 0")  # a reader in the way: try again later, never wait for it
            try:
                busy, _log, _done = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            finally:
                self._db.execute("PRAGMA busy_timeout = 5000")
        except sqlite3.Error:
            return False
        return busy == 0

    def close(self) -> None:
        """Close the connection, then let go of the lock; safe to call more than once."""
        self._release()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # --- rows --------------------------------------------------------------------------------------------

    def _record(self, game_id: int) -> GameRecord:
        with self._reading():
            row = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"there is no game {game_id} in {self.path}")
        return self._game_record(row)

    def _game_record(self, row: tuple[Any, ...]) -> GameRecord:
        game_id, game, players, options, position, started, finished, winners, rounds = row
        where = f"game {game_id}"
        try:
            record = GameRecord(
                id=game_id,
                game=game,
                players=tuple(self._loads(players, where)),
                options=self._loads(options, where),
                position=None if position is None else self._loads(position, where),
                started=datetime.fromisoformat(started),
                finished=None if finished is None else datetime.fromisoformat(finished),
                winners=None if winners is None else tuple(self._loads(winners, where)),
                rounds=rounds,
            )
        except (TypeError, ValueError) as exc:  # a date or a list torn into something else
            raise self._corrupt(f"{where} is not a game's record ({exc})") from None
        if not (isinstance(game, str) and all(isinstance(p, str) for p in record.players)
                and isinstance(record.options, dict) and (rounds is None or type(rounds) is int)):
            raise self._corrupt(f"{where} is not a game's record")
        names = self._names(game_id)
        return replace(record, names=names) if names else record

    def _loads(self, text: str, where: str) -> Any:
        try:
            return json.loads(text)
        except ValueError as exc:
            raise self._corrupt(f"{where} is not JSON ({exc})") from None


def _dumps(value: Any) -> str:
    # Tuples come back as lists and dict keys as strings: JSON is the save format, not pickle.
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"cannot be saved as JSON: {exc}") from None


def _game_number(key: str) -> int:
    """The game id at the end of a setting's key ("setting:names:12" -> 12; 0 if there is none)."""
    tail = key.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _has_frames(wal: Path) -> bool:
    try:
        return wal.stat().st_size > WAL_HEADER_SIZE
    except OSError:
        return False


def _ours_all_the_same(header: bytes, wal: Path) -> bool:
    """A file whose first bytes are not SQLite's is still a save file, torn, if the rest of its header carries our
    application id, or an SQLite write-ahead log lies beside it (only an SQLite file in WAL mode has one; the WAL
    holds a copy of the header only when the file grew, so the id cannot be asked of it)."""
    if header[68:72] == APPLICATION_ID.to_bytes(4, "big"):
        return True
    try:
        with wal.open("rb") as file:
            head = file.read(WAL_HEADER_SIZE)
    except OSError:
        return False
    return len(head) == WAL_HEADER_SIZE and int.from_bytes(head[:4], "big") in WAL_MAGIC


def _lock_holder(fd: int) -> int | None:
    """The process holding the flock on this file, from /proc/locks (None if the system does not say)."""
    info = os.fstat(fd)
    exact = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    try:
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return None
    same_inode = []
    for line in lines:
        parts = line.split()
        if "->" in parts or len(parts) < 6 or parts[1] != "FLOCK" or not parts[4].isdigit():
            continue  # "->": a process waiting for the lock, not holding it
        if parts[5] == exact:
            return int(parts[4]) or None
        if parts[5].rsplit(":", 1)[-1] == str(info.st_ino):
            same_inode.append(int(parts[4]))
    return same_inode[0] if len(same_inode) == 1 and same_inode[0] else None
