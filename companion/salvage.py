"""`companion salvage --db DAMAGED --to NEW`: every game a damaged save file still holds, copied into a new one.

The damaged file is never written to: its main file and WAL are copied into a scratch folder, and every read is
made on the copies. The rows are gathered three ways, each finding what the others may miss:
- SQLite itself, on the copy (its WAL replayed): each table read forwards and backwards, so that one damaged page
  stops neither read before the other has come past it;
- SQLite's own recovery (`sqlite3 .recover`), where the sqlite3 command is installed;
- the pages themselves: every table leaf page of the main file and every page in the WAL, its cells decoded as
  records, for rows that SQLite no longer reaches through a damaged page above them.
An event is never changed once written, so an event found anywhere is that event (SQLite's reading first, then the
newest copy of a page); a game's row that says it finished wins over one that does not (a game only ever ends).
Each game keeps the longest run of its events from the first one that can be read whole; the unfinished game is
folded by its rules and cut back to the last event that folds, so that it resumes. The new file is a fresh save
file holding the games under their own ids and the saved settings (the seat links).
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import struct
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import closing, suppress
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from companion.store import SQLITE_MAGIC, WAL_HEADER_SIZE, WAL_MAGIC, EventStore, StoreError

WAL_FRAME_HEADER = 24
TABLE_LEAF = 0x0D
GAME_COLUMNS = "id, game, players, options, position, started, finished, winners, rounds"
SQL_RANK = 1 << 30  # what SQLite itself read outranks any page found by hand
RECOVER_RANK = SQL_RANK - 1


@dataclass
class Found:
    """The rows found so far, each with the rank of where it was found (higher: newer or surer)."""

    games: dict[int, tuple[int, tuple]] = field(default_factory=dict)
    events: dict[tuple[int, int], tuple[int, str]] = field(default_factory=dict)
    settings: dict[str, tuple[int, str]] = field(default_factory=dict)

    def add(self, row: list | tuple, rank: int, rowid: int | None = None) -> None:
        """A row of games (9 columns), events (3) or meta (2), kept if it is whole."""
        row = tuple(row)
        if len(row) == 9:
            if row[0] is None and rowid is not None:  # games.id is the rowid: a record stores it as NULL
                row = (rowid, *row[1:])
            if _game_row(row):
                old = self.games.get(row[0])
                if old is None or (old[1][6] is None, -old[0]) > (row[6] is None, -rank):
                    self.games[row[0]] = (rank, row)
        elif len(row) == 3:
            game_id, seq, text = row
            if type(game_id) is int and type(seq) is int and seq >= 1 and _json(text, dict) is not None:
                old = self.events.get((game_id, seq))
                if old is None or old[0] < rank:
                    self.events[(game_id, seq)] = (rank, text)
        elif len(row) == 2:
            key, text = row
            if isinstance(key, str) and key.startswith("setting:") and _json(text, object) is not None:
                old = self.settings.get(key)
                if old is None or old[0] < rank:
                    self.settings[key] = (rank, text)


@dataclass(frozen=True)
class Salvaged:
    events: int  # events kept in the new file
    games: int  # games kept in the new file
    resumed: tuple[int, int] | None  # (game id, events) of the unfinished game that resumes, if any


def _json(text: object, kind: type) -> object:
    if not isinstance(text, str):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, kind) else None


def _date(text: object) -> bool:
    if not isinstance(text, str):
        return False
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


def _game_row(row: tuple) -> bool:
    game_id, game, players, options, position, started, finished, winners, rounds = row
    seats = _json(players, list)
    return (type(game_id) is int and isinstance(game, str) and bool(game) and seats is not None
            and all(isinstance(seat, str) for seat in seats) and _json(options, dict) is not None
            and (position is None or _json(position, dict) is not None) and _date(started)
            and (finished is None or _date(finished)) and (winners is None or _json(winners, list) is not None)
            and (rounds is None or type(rounds) is int))


# --- SQLite's own reading --------------------------------------------------------------------------------------


def _read_sql(path: Path, found: Found, rank: int) -> None:
    """Each table read forwards, then backwards: a damaged page stops a read, the other one reads up to it."""
    try:
        db = sqlite3.connect(path)
    except sqlite3.Error:
        return
    with closing(db):
        for table, columns in (("games", GAME_COLUMNS), ("events", "game_id, seq, event"), ("meta", "key, value")):
            for order in ("ASC", "DESC"):
                with suppress(sqlite3.Error):
                    for row in db.execute(f"SELECT {columns} FROM {table} ORDER BY rowid {order}"):
                        found.add(row, rank)


def _recover(path: Path, scratch: Path, found: Found) -> None:
    """SQLite's recovery (`.recover` of the sqlite3 command, where it is installed) into a scratch database."""
    sqlite = shutil.which("sqlite3")
    if sqlite is None:
        return
    try:
        script = subprocess.run([sqlite, str(path), ".recover"], capture_output=True, timeout=120)
        recovered = scratch / "recovered.sqlite3"
        subprocess.run([sqlite, str(recovered)], input=script.stdout, capture_output=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return
    if recovered.is_file():
        _read_sql(recovered, found, RECOVER_RANK)


# --- the pages by hand -----------------------------------------------------------------------------------------


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = 0
    for i in range(9):
        byte = data[at + i]
        if i == 8:
            return (value << 8) | byte, at + 9
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + i + 1
    raise ValueError("varint")


def _record(payload: bytes) -> list:
    """The values of one record (SQLite's record format: a header of serial types, then the values)."""
    header, at = _varint(payload, 0)
    if header > len(payload):
        raise ValueError("header")
    types = []
    while at < header:
        kind, at = _varint(payload, at)
        types.append(kind)
    values: list = []
    body = header
    for kind in types:
        if kind == 0:
            size, value = 0, None
        elif 1 <= kind <= 6:
            size = (1, 2, 3, 4, 6, 8)[kind - 1]
            value = int.from_bytes(payload[body:body + size], "big", signed=True)
        elif kind == 7:
            size = 8
            (value,) = struct.unpack(">d", payload[body:body + 8])
        elif kind in (8, 9):
            size, value = 0, kind - 8
        elif kind >= 12:
            size = (kind - 12) // 2
            raw = payload[body:body + size]
            value = raw if kind % 2 == 0 else raw.decode("utf-8")
        else:
            raise ValueError("serial type")
        if body + size > len(payload):
            raise ValueError("cut short")
        values.append(value)
        body += size
    return values


def _cells(page: bytes, usable: int, pages: dict[int, bytes]) -> Iterator[tuple[int, list]]:
    """(rowid, values) of every readable cell of a table leaf page; overflow pages followed in `pages`."""
    if not page or page[0] != TABLE_LEAF:
        return
    count = int.from_bytes(page[3:5], "big")
    for i in range(count):
        try:
            at = int.from_bytes(page[8 + 2 * i:10 + 2 * i], "big")
            size, at = _varint(page, at)
            rowid, at = _varint(page, at)
            biggest = usable - 35
            if size <= biggest:
                local = size
            else:  # SQLite's rule for how much of a long record stays on its page
                least = (usable - 12) * 32 // 255 - 23
                local = least + (size - least) % (usable - 4)
                local = local if local <= biggest else least
            payload = page[at:at + local]
            if local < size:
                following = int.from_bytes(page[at + local:at + local + 4], "big")
                seen = set()
                while len(payload) < size and following and following not in seen and following in pages:
                    seen.add(following)
                    overflow = pages[following]
                    payload += overflow[4:usable][:size - len(payload)]
                    following = int.from_bytes(overflow[:4], "big")
            if len(payload) != size:
                continue
            yield rowid, _record(payload)
        except (IndexError, ValueError):
            continue  # a cell torn or overwritten: the others of the page still count


def _page_size(main: bytes, wal: bytes) -> int:
    if main.startswith(SQLITE_MAGIC) and len(main) >= 18:
        size = int.from_bytes(main[16:18], "big")
        size = 65536 if size == 1 else size
        if 512 <= size <= 65536 and size & (size - 1) == 0:
            return size
    if len(wal) >= WAL_HEADER_SIZE and int.from_bytes(wal[:4], "big") in WAL_MAGIC:
        size = int.from_bytes(wal[8:12], "big")
        if 512 <= size <= 65536 and size & (size - 1) == 0:
            return size
    return 4096


def _read_pages(main: bytes, wal: bytes, found: Found) -> None:
    """Every copy of every page, the main file's first, then the WAL's frames in order (newer ranks higher)."""
    size = _page_size(main, wal)
    reserved = main[20] if len(main) > 20 and main.startswith(SQLITE_MAGIC) else 0
    usable = size - reserved
    # A file cut inside a page keeps that page's first part: padded with zeros, its cells that lie wholly in it
    # still read (SQLite reads them too); a cell reaching into the zeros is no longer JSON, and is dropped.
    copies: list[tuple[int, bytes]] = [(n + 1, main[n * size:(n + 1) * size].ljust(size, b"\0"))
                                       for n in range(-(-len(main) // size))]
    if len(wal) >= WAL_HEADER_SIZE and int.from_bytes(wal[:4], "big") in WAL_MAGIC and \
            int.from_bytes(wal[8:12], "big") == size:
        salts = wal[16:24]
        frames, committed = [], 0
        for at in range(WAL_HEADER_SIZE, len(wal) - WAL_FRAME_HEADER - size + 1, WAL_FRAME_HEADER + size):
            if wal[at + 8:at + 16] != salts:
                continue  # a leftover of an older run of the WAL
            frames.append((int.from_bytes(wal[at:at + 4], "big"), wal[at + WAL_FRAME_HEADER:at + WAL_FRAME_HEADER
                                                                       + size]))
            if int.from_bytes(wal[at + 4:at + 8], "big"):  # a commit's last frame
                committed = len(frames)
        copies += frames[:committed]  # never a transaction that was not committed (nothing unstored comes back)
    newest = dict(copies)  # the newest copy of each page, for overflow chains
    for rank, (number, page) in enumerate(copies):
        if number == 1:
            continue  # the schema's page: none of our rows
        for rowid, values in _cells(page, usable, newest):
            found.add(values, rank, rowid)


# --- the new file ----------------------------------------------------------------------------------------------


def gather(damaged: Path, scratch: Path) -> Found:
    """The rows of `damaged` (and its -wal), read from copies in `scratch`."""
    found = Found()
    copy = scratch / "copy.sqlite3"
    main = damaged.read_bytes()
    wal_path = Path(f"{damaged}-wal")
    wal = wal_path.read_bytes() if wal_path.is_file() else b""
    copy.write_bytes(main)
    if wal:
        Path(f"{copy}-wal").write_bytes(wal)
    _read_pages(main, wal, found)
    _recover(copy, scratch, found)
    _read_sql(copy, found, SQL_RANK)  # last: SQLite may fold the WAL into the copy
    return found


def _log(found: Found, game_id: int, finished: bool) -> dict[int, str]:
    """{seq: event} of a game: every event found of a finished one (its history), the longest run from the first
    event of an unfinished one (it resumes from there)."""
    if finished:
        return {seq: text for (game, seq), (_rank, text) in sorted(found.events.items()) if game == game_id}
    log, seq = {}, 1
    while (game_id, seq) in found.events:
        log[seq] = found.events[(game_id, seq)][1]
        seq += 1
    return log


def salvage(damaged: Path, new: Path) -> Salvaged:
    """Copy what `damaged` still holds into the new save file `new` (StoreError if `new` cannot be made)."""
    with tempfile.TemporaryDirectory(prefix="companion-salvage-") as folder:
        found = gather(damaged, Path(folder))
    games = [row for _rank, row in sorted(found.games.values(), key=lambda item: item[1][0])]
    logs = {row[0]: _log(found, row[0], finished=row[6] is not None) for row in games}
    settings = {key: text for key, (_rank, text) in found.settings.items()}
    with EventStore(new) as store:
        store.restore(games, logs, settings)
        resumable = _resumable(store)
    resumed, cut = resumable if resumable is not None else (None, 0)
    return Salvaged(events=sum(len(log) for log in logs.values()) - cut, games=len(games), resumed=resumed)


def _resumable(store: EventStore) -> tuple[tuple[int, int], int] | None:
    """The unfinished game, cut back to the last of its events that its rules fold: ((game, events), cut)."""
    from companion.table import Table, TableError

    record = store.unfinished()
    if record is None:
        return None
    cut = 0
    while True:
        try:
            Table(store, roll_when_asked=False).load(record)
            return (record.id, len(store.events(record.id))), cut
        except TableError as error:
            seq = error.params.get("seq")
            if not isinstance(seq, int):
                raise StoreError(f"{store.path}: game {record.id} does not resume ({error})") from None
            cut += store.drop_events_from(record.id, seq)


def salvage_command(damaged: str, new: str, lang: str = "en") -> int:
    from companion.catalogue import catalogue
    from companion.contract import Message

    words = catalogue()
    source, target = Path(damaged), Path(new)

    def say(key: str, out=sys.stdout, **params) -> None:
        print(words.text(Message(f"salvage.{key}", params), lang), file=out)

    if not source.is_file():
        say("missing", sys.stderr, damaged=str(source))
        return 2
    if target.exists() or Path(f"{target}-wal").exists():
        say("exists", sys.stderr, new=str(target))
        return 2
    try:
        kept = salvage(source, target)
    except StoreError as error:
        print(f"companion: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"companion: cannot read {source}: {error.strerror or error}", file=sys.stderr)
        return 2
    say("kept", count=kept.events, games=kept.games, damaged=str(source), new=str(target))
    if kept.resumed is not None:
        say("resumes", count=kept.resumed[1], game=kept.resumed[0], command=f"companion run --db {target}")
    return 0
