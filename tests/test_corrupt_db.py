"""A save file that is not a sound companion database is refused in one line and left byte for byte as it was;
a new save file has no game to resume; the history lists the games that ended."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing, suppress
from pathlib import Path

import pytest

from companion.cup import DiceCup
from companion.games import mall_of_horror as mall
from companion.games.mall_of_horror.board import COLOURS
from companion.simulate import random_game
from companion.store import EventStore
from companion.table import Table

REPO = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}


def companion(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, env=ENV,
                          timeout=60, cwd=REPO)


def script_of(seed: int, players: int, answers: int | None = None) -> dict:
    """A replay script of a random game, cut after `answers` answers (None: the whole game)."""
    events, _ = random_game(mall, list(COLOURS[:players]), random.Random(seed))
    actions = [event for event in events if "roll" not in event and "pick" not in event]
    return {
        "players": list(COLOURS[:players]),
        "dice": [event["roll"] for event in events if "roll" in event],
        "picks": [event["pick"] for event in events if "pick" in event],
        "actions": actions[:answers],
    }


def play(store: EventStore, script: dict) -> Table:
    table = Table(store, DiceCup(scripted=script["dice"], picks=script["picks"]))
    table.new_game("mall-of-horror", script["players"])
    for action in script["actions"]:
        table.answer(action)
    return table


@pytest.fixture(scope="module")
def save_file(tmp_path_factory) -> bytes:
    """The bytes of a real save file: one finished 4-player game and a 5-player game 60 answers in."""
    path = tmp_path_factory.mktemp("save") / "companion.sqlite3"
    with EventStore(path) as store:
        assert play(store, script_of(1, 4)).state.over
        assert not play(store, script_of(2, 5, answers=60)).state.over
    return path.read_bytes()


def foreign_database(tmp: Path) -> bytes:
    path = tmp / "foreign.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes (name TEXT, minutes INTEGER)")
    db.execute("INSERT INTO recipes VALUES ('brains', 20)")
    db.commit()
    db.close()
    data = path.read_bytes()
    path.unlink()
    return data


def page_size(save: bytes) -> int:
    return int.from_bytes(save[16:18], "big")


BAD_FILES: dict[str, Callable[[bytes, Path], bytes]] = {
    "garbage": lambda save, tmp: random.Random(7).randbytes(5000),
    "a text file": lambda save, tmp: b"Mall of Horror: red 12, blue 9, yellow 7\n",
    "an SQLite header then garbage": lambda save, tmp: save[:100] + random.Random(8).randbytes(len(save) - 100),
    "a save file cut inside its header": lambda save, tmp: save[:60],
    "a save file cut to its first page": lambda save, tmp: save[: page_size(save)],
    "a save file cut to half its pages": lambda save, tmp: save[: len(save) // page_size(save) // 2 * page_size(save)],
    "a save file cut a few bytes short": lambda save, tmp: save[:-100],
    "a foreign SQLite database": lambda save, tmp: foreign_database(tmp),
}
EXPECTED = {
    "garbage": "is not a companion database (it is not an SQLite file)",
    "a text file": "is not a companion database (it is not an SQLite file)",
    "a foreign SQLite database": "is not a companion database (it has tables: recipes)",
}


def bad_file_cases() -> list:
    cases = []
    for command in ("resume", "replay"):
        for name in BAD_FILES:
            cases.append(pytest.param(command, name, id=f"{command}-{name.replace(' ', '-')}"))
    return cases


@pytest.mark.parametrize(("command", "name"), bad_file_cases())
def test_a_file_that_is_not_a_sound_save_file_is_refused_in_one_line_and_left_as_it_was(
        tmp_path, save_file, command, name):
    folder = tmp_path / "box"
    folder.mkdir()
    bad = folder / "companion.sqlite3"
    bad.write_bytes(BAD_FILES[name](save_file, tmp_path))
    before = bad.read_bytes()
    script = tmp_path / "script.json"
    script.write_text(json.dumps(script_of(3, 4, answers=10)))

    args = ["resume", "--db", str(bad)] if command == "resume" else ["replay", str(script), "--db", str(bad)]
    result = companion(*args)

    assert result.returncode == 2, result.stdout[-300:] + result.stderr[-1500:]
    message = result.stderr.strip()
    assert "\n" not in message and "Traceback" not in message, message
    assert message.startswith(f"companion: {bad} ")
    assert EXPECTED.get(name, "is corrupt") in message
    assert result.stdout == ""
    assert bad.read_bytes() == before
    assert [p.name for p in folder.iterdir()] == [bad.name]  # no -wal, -shm or -journal left beside it


def test_resume_of_a_save_file_with_a_damaged_event_says_so_in_one_line(tmp_path, save_file):
    path = tmp_path / "companion.sqlite3"
    path.write_bytes(save_file)
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET event = '{\"answer\": {\"seat\": \"red\", \"vo' WHERE game_id = 2 AND seq = 5")
    db.commit()
    db.close()
    before = path.read_bytes()

    result = companion("resume", "--db", str(path))

    assert result.returncode == 2, result.stderr[-1500:]
    message = result.stderr.strip()
    assert "\n" not in message and "event 5 of game 2 is not JSON" in message, message
    assert path.read_bytes() == before


def test_doctor_says_to_salvage_a_damaged_save_file_and_its_command_keeps_the_games(tmp_path, save_file):
    from companion import doctor

    path = tmp_path / "companion.sqlite3"
    path.write_bytes(bytes(16) + save_file[16:])  # its header torn: "SQLite format 3" gone
    from companion.catalogue import catalogue

    finding = doctor.check_save(path)
    text = catalogue().text(finding.message)
    command = f"mv {path} {path}.damaged && companion salvage --db {path}.damaged --to {path}"
    assert finding.status == "fix" and command in text, text
    done = subprocess.run(command.replace("companion salvage", f"{sys.executable} -m companion salvage"), shell=True,
                          capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert companion("resume", "--db", str(path)).returncode in (0, 1)  # the box opens what salvage kept
    assert doctor.check_save(path).status == "ok"


@pytest.mark.parametrize("new", ["missing", "empty", "made by the companion"])
def test_a_new_save_file_has_no_unfinished_game(tmp_path, new):
    path = tmp_path / "companion.sqlite3"
    if new == "empty":
        path.write_bytes(b"")
    elif new == "made by the companion":
        EventStore(path).close()

    resumed = companion("resume", "--db", str(path))
    assert resumed.returncode == 1
    assert resumed.stderr.strip() == f"companion resume: no unfinished game in {path}"
    assert resumed.stdout == ""

    history = companion("history", "--db", str(path))
    assert (history.returncode, history.stdout) == (0, "no finished games yet\n")


def test_history_lists_each_finished_game_with_its_date_players_winners_and_rounds(tmp_path):
    db = tmp_path / "companion.sqlite3"
    finished = []
    for seed, players in [(4, 4), (5, 6)]:
        script = tmp_path / f"game{seed}.json"
        script.write_text(json.dumps({"game": "mall-of-horror", **script_of(seed, players)}))
        played = companion("replay", str(script), "--db", str(db))
        assert played.returncode == 0, played.stderr
        finished.append(json.loads(played.stdout))
    unfinished = tmp_path / "unfinished.json"
    unfinished.write_text(json.dumps(script_of(6, 5, answers=30)))
    assert companion("replay", str(unfinished), "--db", str(db)).returncode == 0

    history = companion("history", "--db", str(db))

    assert history.returncode == 0, history.stderr
    with EventStore(db) as store:
        games = store.history()
    assert [game.players for game in games] == [tuple(COLOURS[:6]), tuple(COLOURS[:4])]  # newest first
    lines = history.stdout.splitlines()
    assert len(lines) == 2  # the unfinished game is not in the history
    for line, game, record in zip(lines, games, reversed(finished), strict=True):
        assert record["over"] and list(game.winners) == record["winners"] and game.rounds == record["round"]
        assert line == (f"{game.finished:%Y-%m-%d %H:%M}  mall-of-horror  {', '.join(game.players)}  "
                        f"won by {', '.join(record['winners'])} after {record['round']} round(s)")


# --- a damaged SD card: torn, truncated and flipped save files, and what salvage keeps ---------------------------


@pytest.fixture(scope="module")
def save_with_wal(tmp_path_factory) -> tuple[bytes, bytes]:
    """A save file as a power cut leaves it: a finished game and the first 30 answers of another in the main file,
    30 more answers still only in its write-ahead log (the main file and the WAL, both)."""
    path = tmp_path_factory.mktemp("wal") / "companion.sqlite3"
    with EventStore(path) as store:
        assert play(store, script_of(1, 4)).state.over
        script = script_of(2, 5, answers=60)
        table = Table(store, DiceCup(scripted=script["dice"], picks=script["picks"]))
        table.new_game("mall-of-horror", script["players"])
        for answered, action in enumerate(script["actions"]):
            if answered == 30:
                assert store.checkpoint()
            table.answer(action)
        assert not table.state.over
        main, wal = path.read_bytes(), Path(f"{path}-wal").read_bytes()
    assert len(wal) > 5 * page_size(main)
    return main, wal


def damage(data: bytes, kind: str, at: int, page: int) -> bytes:
    if kind == "torn":  # a write cut inside a page: the rest of that page is zeros
        end = min(len(data), (at // page + 1) * page)
        return data[:at] + bytes(end - at) + data[end:]
    if kind == "truncated":
        return data[:at]
    return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1:]  # "flipped": one byte's bits turned over


def damages(main: bytes, wal: bytes) -> list[tuple[str, str, int]]:
    page = page_size(main)
    cases = []
    for target, size, special in (("main", len(main), (16, 28, 92, 100, page, page + 8)),
                                  ("wal", len(wal), (8, 16, 24, 32, 40, 56, 32 + 24 + page))):
        offsets = sorted({*range(0, size, size // 23), *special, size - 1})
        cases += [(target, kind, at) for at in offsets if at < size for kind in ("torn", "truncated", "flipped")]
    # Torn in the middle of every page of the main file (the games' rows, the events' and their index's) and of
    # every other page in the WAL.
    cases += [("main", "torn", at) for at in range(page // 2, len(main), page)]
    cases += [("wal", "torn", at) for at in range(32 + 24 + page // 2, len(wal), 2 * (24 + page))]
    return cases


def in_process(*args: str) -> tuple[int, str, str, str | None]:
    """companion's command run here (fast over hundreds of files): exit status, stdout, stderr, and the
    traceback a person would have seen, if any."""
    import contextlib
    import io
    import traceback

    from companion.cli import main

    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    except BaseException:  # noqa: BLE001 - anything that escapes is a traceback on a person's screen
        return -1, out.getvalue(), err.getvalue(), traceback.format_exc()
    return code, out.getvalue(), err.getvalue(), None


def box_open(path: Path) -> tuple[int, str, str | None]:
    """What `companion serve` does with a save file, here: open the box on it (0), or refuse in a line (2), then
    close it; and the traceback a person would have seen, if any."""
    import asyncio
    import traceback

    from companion.box import Box, BoxError, BoxOptions

    async def run() -> tuple[int, str]:
        box = Box(BoxOptions(db=str(path), host="127.0.0.1", port=0, address="127.0.0.1"))
        try:
            await box.open()
        except BoxError as error:
            return 2, f"companion serve: {error}"
        await box.close()
        return 0, ""

    try:
        code, err = asyncio.run(run())
    except BaseException:  # noqa: BLE001 - anything that escapes is a traceback on a person's screen
        return -1, "", traceback.format_exc()
    return code, err, None


def readable_by_sqlite(main: bytes, wal: bytes, folder: Path) -> set[tuple[int, int, str]]:
    """The whole events a read-only SQLite still reads from copies of the files (until its first error), of the
    games whose row it reads too: all of a finished game's, the run from the first event of an unfinished one's."""
    folder.mkdir()
    copy = folder / "copy.sqlite3"
    copy.write_bytes(main)
    Path(f"{copy}-wal").write_bytes(wal)
    rows, games = [], {}
    with suppress(sqlite3.Error), closing(sqlite3.connect(f"{copy.as_uri()}?mode=ro", uri=True)) as db:
        with suppress(sqlite3.Error):
            for game_id, finished in db.execute("SELECT id, finished FROM games"):
                games[game_id] = finished is not None
        with suppress(sqlite3.Error):
            for row in db.execute("SELECT game_id, seq, event FROM events"):
                rows.append(row)
        # Each row on its own too: a scan stops at its first damaged page, a lookup goes around it (by the table's
        # b-tree, then by the primary key's index).
        for rowid in range(1, 2000):
            with suppress(sqlite3.Error):
                rows += db.execute("SELECT game_id, seq, event FROM events WHERE rowid = ?", (rowid,)).fetchall()
        for game_id in games:
            for seq in range(1, 1000):
                with suppress(sqlite3.Error):
                    rows += db.execute("SELECT game_id, seq, event FROM events WHERE game_id = ? AND seq = ?",
                                       (game_id, seq)).fetchall()
    whole = {(g, s): e for g, s, e in rows if type(g) is int and type(s) is int and isinstance(e, str)
             and e.startswith("{") and _is_json(e)}
    readable = set()
    for game_id, finished in games.items():
        seq = 1
        for (g, s), e in sorted(whole.items()):
            if g == game_id and (finished or s == seq):
                readable.add((g, s, e))
                seq += 1
    return readable


def _is_json(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def test_a_damaged_save_file_is_one_line_never_changed_and_salvage_keeps_what_sqlite_reads(tmp_path, save_with_wal):
    import hashlib

    from companion import doctor

    def files(folder: Path) -> dict[str, str]:
        """Every file in the folder and its bytes' digest: a -shm or -wal made, changed or taken away shows."""
        return {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in sorted(folder.iterdir())}

    main, wal = save_with_wal
    page = page_size(main)
    tracebacks, changed, unclear, lost, unresumed, refused, opened = [], [], [], [], [], 0, 0
    kept_all = 0
    cases = damages(main, wal)

    def sweep(target: str, kind: str, at: int) -> None:
        nonlocal refused, opened, kept_all
        name = f"{target}-{kind}-{at}"
        folder = tmp_path / name
        folder.mkdir()
        path = folder / "companion.sqlite3"
        contents = {"main": main, "wal": wal}
        contents[target] = damage(contents[target], kind, at, page)
        path.write_bytes(contents["main"])
        Path(f"{path}-wal").write_bytes(contents["wal"])
        before = files(folder)

        def unchanged(command: str) -> None:
            """The main file, the WAL and the folder as they were; put back if not (the next command is judged on
            its own)."""
            after = files(folder)
            if after != before:
                changed.append((name, command, sorted(n for n in {*after, *before} if after.get(n) != before.get(n))))
                for extra in set(after) - set(before):
                    (folder / extra).unlink()
                path.write_bytes(contents["main"])
                Path(f"{path}-wal").write_bytes(contents["wal"])

        def refusal(command: str, code: int, err: str) -> None:
            nonlocal refused
            if code == 2:
                refused += 1
                if "\n" in err.strip() or not err.startswith("companion") or str(path) not in err \
                        or f"companion salvage --db {path}" not in err:
                    unclear.append((name, command, err))

        for args in (("resume", "--db", str(path)), ("history", "--db", str(path))):
            code, _out, err, trace = in_process(*args)
            if trace:
                tracebacks.append((name, args[0], trace.splitlines()[-1]))
            refusal(args[0], code, err)
            unchanged(args[0])
        try:
            doctor.check_save(path)
        except Exception as error:  # noqa: BLE001
            tracebacks.append((name, "doctor", repr(error)))
        unchanged("doctor")

        new = tmp_path / f"{name}-salvaged" / "salvaged.sqlite3"
        new.parent.mkdir()
        code, out, err, trace = in_process("salvage", "--db", str(path), "--to", str(new))
        if trace or code != 0:
            tracebacks.append((name, "salvage", trace or err))
            return
        assert out.startswith("Kept ") and f"from {path}, which is left as it was." in out.splitlines()[0], out
        unchanged("salvage")
        with closing(sqlite3.connect(new)) as db:
            kept = set(db.execute("SELECT game_id, seq, event FROM events"))
            unfinished = db.execute("SELECT id FROM games WHERE finished IS NULL").fetchall()
        kept_all += len(kept)
        missing = readable_by_sqlite(contents["main"], contents["wal"], tmp_path / f"{name}-ro") - kept
        if missing:
            lost.append((name, len(missing)))
        code, _out, err, trace = in_process("resume", "--db", str(new))
        if trace or code != (0 if unfinished else 1):
            unresumed.append((name, code, trace or err))

        # Last, what `companion serve` and `companion run` do: a box that opens on a file it finds sound may write
        # to it (and checkpoint it on closing); one that refuses it leaves every byte and the folder as they were.
        code, err, trace = box_open(path)
        if trace:
            tracebacks.append((name, "serve", trace.splitlines()[-1]))
        refusal("serve", code, err)
        if code == 0:
            opened += 1
        else:
            unchanged("serve")

    for case in cases:
        sweep(*case)

    print(f"\n{len(cases)} damaged save files: {refused} refusals in one line, {opened} opened by the box; salvage "
          f"kept {kept_all} events")
    assert tracebacks == []
    assert unclear == [], f"{len(unclear)} unclear: {unclear[:20]}"
    assert changed == [], f"{len(changed)} changed: {changed[:20]}"
    assert lost == [], lost
    assert unresumed == [], unresumed


def test_serve_refuses_a_save_file_whose_unfinished_game_has_a_torn_event_and_leaves_its_wal(tmp_path, save_with_wal):
    """quick_check does not see an event torn into bytes that are not UTF-8: the box used to store its host link,
    find the torn event while resuming, and fold the WAL into the damaged file as it closed."""
    main, wal = save_with_wal
    path = tmp_path / "companion.sqlite3"
    path.write_bytes(main)
    Path(f"{path}-wal").write_bytes(wal)
    # The torn event written into the WAL by SQLite itself; a read-only connection held open meanwhile keeps the
    # writer's close from checkpointing, and cannot checkpoint itself: the WAL stays beside the file.
    with closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as reader:
        reader.execute("SELECT count(*) FROM games").fetchone()
        with closing(sqlite3.connect(path)) as writer:
            writer.execute("UPDATE events SET event = CAST(x'7b22ff' AS TEXT) WHERE game_id = 2 AND seq = 45")
            writer.commit()
    Path(f"{path}-shm").unlink()
    before = {name: (tmp_path / name).read_bytes() for name in ("companion.sqlite3", "companion.sqlite3-wal")}

    result = companion("serve", "--db", str(path), "--host", "127.0.0.1", "--port", "0", "--address", "127.0.0.1")

    assert result.returncode == 2, result.stdout[-300:] + result.stderr[-1500:]
    assert {path.name: path.read_bytes() for path in sorted(tmp_path.iterdir())} == before
    message = result.stderr.strip()
    assert "\n" not in message and message.startswith(f"companion serve: {path} is corrupt: "), message
    assert f"`companion salvage --db {path} --to NEW`" in message


@pytest.mark.parametrize(("command", "kind", "at", "why"), [
    ("history", "flipped", 28, "database disk image is malformed"),  # the header's page count: SQLite's words
    ("history", "torn", 1602, "malformed database schema"),
    ("history", "torn", 0, "its header is torn"),  # no SQLite header left, but an SQLite WAL beside the file
    ("resume", "torn", 0, "its header is torn"),
    ("resume", "flipped", 0, "its header is torn"),  # its first byte: the rest of the header names the companion
])
def test_a_damaged_header_or_schema_is_refused_with_what_to_do(tmp_path, save_with_wal, command, kind, at, why):
    main, wal = save_with_wal
    path = tmp_path / "companion.sqlite3"
    path.write_bytes(damage(main, kind, at, page_size(main)))
    Path(f"{path}-wal").write_bytes(wal)
    before = {p.name: p.read_bytes() for p in sorted(tmp_path.iterdir())}

    result = companion(command, "--db", str(path))

    assert result.returncode == 2, result.stdout[-300:] + result.stderr[-1500:]
    message = result.stderr.strip()
    assert "\n" not in message and message.startswith(f"companion: {path} is corrupt: {why}"), message
    assert message.endswith(f"`companion salvage --db {path} --to NEW` copies the games it still holds into a new "
                            "save file NEW")
    assert {p.name: p.read_bytes() for p in sorted(tmp_path.iterdir())} == before


def test_salvage_says_what_it_kept_in_the_players_language_and_never_writes_over_a_file(tmp_path, save_with_wal):
    main, wal = save_with_wal
    page = page_size(main)
    damaged = tmp_path / "companion.sqlite3"
    damaged.write_bytes(damage(main, "torn", 6 * page + page // 2, page))  # a page of the first game's events
    Path(f"{damaged}-wal").write_bytes(wal)
    refused = companion("resume", "--db", str(damaged))
    assert refused.returncode == 2 and "companion salvage --db" in refused.stderr, refused.stderr

    new = tmp_path / "salvaged.sqlite3"
    done = companion("salvage", "--db", str(damaged), "--to", str(new), "--lang", "zh-Hans")
    assert done.returncode == 0, done.stderr
    kept, resumes = done.stdout.splitlines()
    assert kept.startswith(f"已从 {damaged} 保留 ") and f"到 {new}（保留的游戏：2 局）" in kept
    assert resumes.startswith("其中未完成的第 2 局从前 ") and resumes.endswith(f"companion run --db {new}")
    sound = tmp_path / "sound"  # the same save file undamaged: the unfinished game resumes just as it would there
    sound.mkdir()
    (sound / "companion.sqlite3").write_bytes(main)
    (sound / "companion.sqlite3-wal").write_bytes(wal)
    resumed = companion("resume", "--db", str(new))
    expected = companion("resume", "--db", str(sound / "companion.sqlite3"))
    assert resumed.returncode == 0 and resumed.stdout == expected.stdout, resumed.stderr

    again = companion("salvage", "--db", str(damaged), "--to", str(new))
    assert again.returncode == 2 and again.stderr.strip() == (f"{new} already exists: name a new file to salvage "
                                                              "into (nothing was written).")
    missing = companion("salvage", "--db", str(tmp_path / "none.sqlite3"), "--to", str(tmp_path / "x.sqlite3"))
    assert missing.returncode == 2 and "does not exist: there is nothing to salvage." in missing.stderr
    assert not (tmp_path / "x.sqlite3").exists()
