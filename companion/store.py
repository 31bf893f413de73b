"""The event log: one SQLite file that is the save file of every game played on the box.

Each append is its own committed transaction (WAL, synchronous=FULL), so an event that ``append`` returned
for survives a power cut. A file that is not ours is never written to: it is inspected through a read-only
connection first, and anything unexpected is a ``StoreError`` that says what the file is.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
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


class StoreError(Exception):
    """The save file cannot be used; the message says which file and why."""


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

    @property
    def is_finished(self) -> bool:
        return self.finished is not None


def default_db_path() -> Path:
    """Where the box keeps its save file; the directory is created if needed."""
    directory = Path(platformdirs.user_data_dir("companion", appauthor=False))
    directory.mkdir(parents=True, exist_ok=True)
    return directory / "companion.sqlite3"


class EventStore:
    """The SQLite event log. Use as a context manager, or call ``close``."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        fresh = self._inspect()
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=5.0)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {self.path}: {exc}") from None
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            if fresh:
                self._create()
        except sqlite3.Error as exc:
            self._db.close()
            raise StoreError(f"cannot use {self.path}: {exc}") from None

    # --- opening -----------------------------------------------------------------------------------------

    def _inspect(self) -> bool:
        """Raise StoreError unless the file is ours or empty; True if it still needs the schema."""
        try:
            size = self.path.stat().st_size
            if size == 0:
                return True
            with self.path.open("rb") as file:
                header = file.read(SQLITE_HEADER_SIZE)
        except FileNotFoundError:
            return True
        except OSError as exc:
            raise StoreError(f"cannot read {self.path}: {exc.strerror or exc}") from None
        if not header.startswith(SQLITE_MAGIC[: len(header)]):
            raise StoreError(f"{self.path} is not a companion database (it is not an SQLite file)")
        if len(header) < SQLITE_HEADER_SIZE:
            raise StoreError(f"{self.path} is corrupt: it is cut short at {size} bytes")
        # SQLite's own checks do not notice a file cut inside its last page: compare with the header.
        page_size = int.from_bytes(header[16:18], "big")
        page_size = 65536 if page_size == 1 else page_size
        pages = int.from_bytes(header[28:32], "big")
        pages_valid = header[92:96] == header[24:28]  # "version-valid-for" equals the change counter
        if page_size < 512 or size % page_size or (pages_valid and size < pages * page_size):
            raise StoreError(f"{self.path} is corrupt: it is cut short at {size} bytes")

        sidecars = [Path(f"{self.path}{suffix}") for suffix in ("-wal", "-shm")]
        ours = [sidecar for sidecar in sidecars if not sidecar.exists()]
        try:
            # Read-only: not even SQLite's own recovery (a checkpoint on close) may touch a stranger's file.
            db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
            try:
                return self._check(db)
            finally:
                db.close()
        except StoreError as exc:
            error = exc
        except sqlite3.OperationalError as exc:
            error = StoreError(f"cannot read {self.path}: {exc}")
        except sqlite3.DatabaseError as exc:
            error = StoreError(f"{self.path} is corrupt: {exc}")
        for sidecar in ours:  # reading a WAL-mode file makes these; leave the folder as it was
            sidecar.unlink(missing_ok=True)
        raise error

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
            raise StoreError(f"{self.path} is corrupt: schema {version}, missing tables {sorted(missing)}")
        row = db.execute("SELECT value FROM meta WHERE key = 'application'").fetchone()
        if row != ("companion",):
            raise StoreError(f"{self.path} is corrupt: its meta table does not name the companion")
        problems = [line for (text,) in db.execute("PRAGMA quick_check") for line in text.splitlines()]
        if problems != ["ok"]:
            problems = [line for line in problems if not line.startswith("***")]  # "*** in database main ***"
            raise StoreError(f"{self.path} is corrupt: {'; '.join(problems[:3])}")
        return False

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
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # --- games and events --------------------------------------------------------------------------------

    def new_game(
        self,
        game: str,
        players: Sequence[str],
        options: dict[str, Any],
        position: dict[str, Any] | None = None,
    ) -> int:
        """Record a new game (``position``: a starting position to load, if any) and return its id."""
        if not isinstance(game, str) or not game:
            raise ValueError(f"the game must be named, got {game!r}")
        if isinstance(players, str) or not all(isinstance(p, str) for p in players):
            raise ValueError(f"players must be a list of seat names, got {players!r}")
        if not isinstance(options, dict):
            raise ValueError(f"options must be a dict, got {type(options).__name__}")
        if position is not None and not isinstance(position, dict):
            raise ValueError(f"position must be a dict or None, got {type(position).__name__}")
        cursor = self._db.execute(
            "INSERT INTO games (game, players, options, position, started) VALUES (?, ?, ?, ?, ?)",
            (
                game,
                _dumps(list(players)),
                _dumps(options),
                None if position is None else _dumps(position),
                _now(),
            ),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def append(self, game_id: int, event: dict[str, Any],
               finish: tuple[Sequence[str], int] | None = None) -> int:
        """Store one event and return its seq (1, 2, ...); it is on disk when this returns.

        `finish` (winners, rounds) marks the game finished in the same transaction: the last event of a game
        and its end are stored together or not at all.
        """
        if not isinstance(event, dict):
            raise ValueError(f"an event must be a JSON object (a dict), not {type(event).__name__}")
        text = _dumps(event)
        with self._transaction():
            row = self._db.execute("SELECT finished FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise KeyError(f"there is no game {game_id} in {self.path}")
            if row[0] is not None:
                raise ValueError(f"game {game_id} is finished; it takes no more events")
            (seq,) = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?", (game_id,)
            ).fetchone()
            self._db.execute(
                "INSERT INTO events (game_id, seq, event) VALUES (?, ?, ?)", (game_id, seq, text)
            )
            if finish is not None:
                self._mark_finished(game_id, *finish)
        return int(seq)

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """The game's events in the order they were appended."""
        self._record(game_id)
        rows = self._db.execute("SELECT seq, event FROM events WHERE game_id = ? ORDER BY seq", (game_id,))
        return [self._loads(text, f"event {seq} of game {game_id}") for seq, text in rows]

    def game(self, game_id: int) -> GameRecord:
        return self._record(game_id)

    def unfinished(self) -> GameRecord | None:
        """The newest game that has not finished, to carry on after a restart."""
        row = self._db.execute(
            "SELECT * FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
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

    def history(self) -> list[GameRecord]:
        """Finished games, newest first."""
        rows = self._db.execute("SELECT * FROM games WHERE finished IS NOT NULL ORDER BY id DESC")
        return [self._game_record(row) for row in rows.fetchall()]

    def setting(self, key: str) -> Any:
        """A value kept in the save file (the host's token, a game's seat tokens), or None."""
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (f"setting:{key}",)).fetchone()
        return None if row is None else self._loads(row[0], f"setting {key}")

    def set_setting(self, key: str, value: Any) -> None:
        text = _dumps(value)
        with self._transaction():
            self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (f"setting:{key}", text))

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # --- rows --------------------------------------------------------------------------------------------

    def _record(self, game_id: int) -> GameRecord:
        row = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"there is no game {game_id} in {self.path}")
        return self._game_record(row)

    def _game_record(self, row: tuple[Any, ...]) -> GameRecord:
        game_id, game, players, options, position, started, finished, winners, rounds = row
        where = f"game {game_id}"
        return GameRecord(
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

    def _loads(self, text: str, where: str) -> Any:
        try:
            return json.loads(text)
        except ValueError as exc:
            raise StoreError(f"{self.path} is corrupt: {where} is not JSON ({exc})") from None


def _dumps(value: Any) -> str:
    # Tuples come back as lists and dict keys as strings: JSON is the save format, not pickle.
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"cannot be saved as JSON: {exc}") from None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")
