"""A power cut loses every write not yet synced; a kill may come while SQLite copies the WAL into the file.

An LD_PRELOAD shim (tests/faultshim.c, built here with the system's C compiler) records every write, sync,
truncation and unlink SQLite makes on the save file and its WAL while a real Table plays a game into it, and
where each answer was acknowledged. The files are then rebuilt as they stood at every sync point, and with random
subsets of the writes not yet synced (what a power cut may keep of them): each rebuilt save file must open, and
resume to a prefix of the game that holds every acknowledged answer.

The same shim kills a process at the Nth write into the main file, so a checkpoint is cut at 100 different
points: each time the save file opens with every event in it.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from faultkit import build_shim

from companion.cup import DiceCup
from companion.games import mall_of_horror as mall
from companion.games.mall_of_horror.board import COLOURS
from companion.simulate import random_game
from companion.store import EventStore
from companion.table import Table

REPO = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
RECORD = struct.Struct("<c3xiqq")  # op, path length, offset, length (faultshim.c's struct record)
ANSWERS = 45  # answers played while recording: a few checkpoints (every 8 pages of WAL) and ~200 sync points
SUBSETS = 2  # random subsets of the unsynced writes tried before each sync point (besides none and all)


@pytest.fixture(scope="module")
def shim(tmp_path_factory) -> Path:
    return build_shim(tmp_path_factory.mktemp("shim"))


def reference(seed: int = 5, players: int = 4) -> tuple[list[str], list[dict]]:
    colours = list(COLOURS[:players])
    events, _ = random_game(mall, colours, random.Random(seed))
    return colours, events


# The table at the box: each answer stored, then acknowledged (a line in <db>-ack, in the shim's record too).
# "full": every commit synced before `answer` returns. "group" (the box's own way): commits synced on a thread
# while the loop goes on, answers handed in two at a time, each acknowledged by `when_stored`.
PLAYER = textwrap.dedent("""
    import asyncio, json, os, sys
    from companion.cup import DiceCup
    from companion.store import EventStore
    from companion.table import Table

    script, mode = json.loads(sys.argv[2]), sys.argv[3]
    store = EventStore(sys.argv[1], group_commit=mode == "group")
    store._db.execute("PRAGMA wal_autocheckpoint=8")  # checkpoints every few answers, to cut them too
    table = Table(store, DiceCup(scripted=script["dice"], picks=script["picks"]))
    ack = os.open(sys.argv[1] + "-ack", os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o600)

    def acknowledge():
        os.write(ack, b"a")  # acknowledged: the device would now hear "ack"

    async def play():
        table.loop = asyncio.get_running_loop()
        table.new_game("mall-of-horror", script["players"])
        for n, action in enumerate(script["actions"]):
            table.answer(action)
            table.when_stored(acknowledge)
            if n % 2:
                await asyncio.sleep(0.002)  # a sync may run while the next answer is written
        await table.stored()

    if mode == "group":
        asyncio.run(play())
    else:
        table.new_game("mall-of-horror", script["players"])
        for action in script["actions"]:
            table.answer(action)
            acknowledge()
    store.close()
""")


def parse(log: bytes) -> list[tuple[str, str, int, bytes | int]]:
    """(op, file name, offset, data or length) for each record."""
    ops, at = [], 0
    while at < len(log):
        op, size, offset, length = RECORD.unpack_from(log, at)
        at += RECORD.size
        name = Path(log[at:at + size].decode()).name
        at += size
        data = b""
        if op == b"W":
            data, at = log[at:at + length], at + length
        ops.append((op.decode(), name, offset, data))
    return ops


def applied(content: bytes, ops: list) -> bytes:
    out = bytearray(content)
    for op, _, offset, data in ops:
        if op == "W":
            if len(out) < offset:
                out.extend(bytes(offset - len(out)))
            out[offset:offset + len(data)] = data
        elif op == "T":
            del out[offset:]
    return bytes(out)


def cut_states(ops: list, rng: random.Random):
    """(files, acknowledged answers) as a power cut may leave them: before and after every sync point.

    A sync makes durable what its file held when it began ('B'), not what was written while it ran: the box
    syncs on a thread of its own while its loop writes on. Each write is numbered; a sync that ends ('S', same
    thread as its 'B') makes the writes before its 'B' durable."""
    latest: dict[str, bytes] = {}
    durable: dict[str, bytes] = {}
    pending: dict[str, list] = {}  # name -> [(number, write)] not yet durable
    begun: dict[int, tuple[str, int]] = {}  # thread -> (file, writes numbered so far) of the sync it runs
    numbered = 0
    acked = 0
    for op in ops:
        kind, name = op[0], op[1]
        if name.endswith("-ack"):
            acked += kind == "W"
            continue
        if kind == "B":
            begun[op[2]] = (name, numbered)
        elif kind == "S":
            synced_name, upto = begun.pop(op[2])
            assert synced_name == name
            writes = [w for _, w in pending.get(name, [])]
            if writes:  # the cut comes just before this sync ends: any of the unsynced writes may be kept
                choices = [{n: [] for n in pending}, {n: [w for _, w in ws] for n, ws in pending.items()}]
                choices += [{n: [w for _, w in ws if rng.random() < 0.5] for n, ws in pending.items()}
                            for _ in range(SUBSETS)]
                for chosen in choices:
                    yield {n: applied(durable.get(n, b""), chosen.get(n, [])) for n in latest}, acked
            kept = [w for number, w in pending.get(name, []) if number < upto]
            durable[name] = applied(durable.get(name, b""), kept)
            pending[name] = [(number, w) for number, w in pending.get(name, []) if number >= upto]
            yield dict(durable), acked  # the files as they stood at the sync point
        elif kind == "C":
            latest[name] = durable[name] = b""
            pending[name] = []
        elif kind == "U":
            for table in (latest, durable, pending):
                table.pop(name, None)
        else:
            latest[name] = applied(latest.get(name, b""), [op])
            pending.setdefault(name, []).append((numbered, op))
            numbered += 1


def writes_during_syncs(ops: list) -> int:
    """How many writes were recorded while a sync (of another thread) was running."""
    running, count = set(), 0
    for kind, _, offset, _ in ops:
        if kind == "B":
            running.add(offset)
        elif kind == "S":
            running.discard(offset)
        elif kind == "W" and running:
            count += 1
    return count


@pytest.mark.parametrize("mode", ["full", "group"])
def test_a_power_cut_at_any_sync_point_with_any_unsynced_writes_kept_resumes_with_every_acknowledged_answer(
        tmp_path, shim, mode):
    players, events = reference()
    answers = [e for e in events if "roll" not in e and "pick" not in e][:ANSWERS]
    script = {"players": players, "dice": [e["roll"] for e in events if "roll" in e],
              "picks": [e["pick"] for e in events if "pick" in e], "actions": answers}
    played = tmp_path / "played"
    played.mkdir()
    db = played / "companion.sqlite3"
    env = {**ENV, "LD_PRELOAD": str(shim), "FAULTSHIM_PREFIX": str(db), "FAULTSHIM_LOG": str(tmp_path / "log")}
    subprocess.run([sys.executable, "-c", PLAYER, str(db), json.dumps(script), mode], env=env, check=True,
                   timeout=120)
    with EventStore(db) as store:
        game = store.history()[0] if store.history() else store.unfinished()
        whole = store.events(game.id)
    ops = parse((tmp_path / "log").read_bytes())
    assert sum(op[0] == "S" for op in ops) > (100 if mode == "full" else 40)
    assert any(op[1] == db.name and op[0] == "W" for op in ops)
    if mode == "group":  # the loop wrote on while the thread synced: the case the 'B' records are for
        assert writes_during_syncs(ops) > 0

    rng = random.Random(9)
    checked = resumed = 0
    for n, (files, acked) in enumerate(cut_states(ops, rng)):
        folder = tmp_path / f"cut{n}"
        folder.mkdir()
        for name, content in files.items():
            (folder / name).write_bytes(content)
        with EventStore(folder / db.name) as store:  # never refused: this is our own file
            record = store.unfinished()
            stored = store.events(record.id) if record is not None else []
            assert stored == whole[:len(stored)], f"cut {n}: the log is not a prefix of the game"
            assert sum("answer" in e for e in stored) >= acked, f"cut {n}: an acknowledged answer was lost"
            if acked and n % 7 == 0:  # resumed by a table (the folding is the same for every prefix)
                table = Table(store, DiceCup(scripted=script["dice"][sum("roll" in e for e in stored):],
                                             picks=script["picks"][sum("pick" in e for e in stored):]))
                assert table.resume() is not None and len(table.events) >= len(stored)
                resumed += 1
        shutil.rmtree(folder)
        checked += 1
    print(f"{checked} power cuts rebuilt from {len(ops)} recorded operations, {resumed} resumed by a table")
    # Group commit shares a sync among the writes of its moment: fewer sync points, the more so on a busy machine.
    assert checked > (300 if mode == "full" else 150) and resumed > 20


# One process prepares a save file whose WAL holds many pages, then forks once per cut: the child checkpoints
# and the shim kills it at its Nth write into the main file; the parent opens what is left.
CHECKPOINT_KILLS = textwrap.dedent("""
    import ctypes, os, shutil, signal, sys
    from companion.store import EventStore

    shim, folder, cuts, sizes = ctypes.CDLL(sys.argv[1]), sys.argv[2], int(sys.argv[3]), len(sys.argv) > 4
    base = os.path.join(folder, "base.sqlite3")
    store = EventStore(base)
    store._db.execute("PRAGMA wal_autocheckpoint=0")
    game = store.new_game("mall-of-horror", ["red", "blue"], {})
    for i in range(40):  # a main file of a few pages...
        store.append(game, {"answer": {"seat": "red", "i": i, "note": "x" * 300}})
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for i in range(40, 400):  # ...and a WAL that makes it grow to many more
        store.append(game, {"answer": {"seat": "blue", "i": i, "note": "y" * 1500}})
    main, wal = open(base, "rb").read(), open(base + "-wal", "rb").read()
    expected = store.events(game)
    store.close()
    killed = 0
    for cut in range(1, cuts + 1):
        path = os.path.join(folder, f"cut{cut}.sqlite3")
        open(path, "wb").write(main)
        open(path + "-wal", "wb").write(wal)
        child = os.fork()
        if child == 0:
            shim.faultshim_kill_at(ctypes.c_ulong(os.stat(path).st_ino), ctypes.c_long(cut))
            copy = EventStore(path)
            copy._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # SIGKILL at its cut-th write into the file
            os._exit(0)
        _, status = os.waitpid(child, 0)
        killed += os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        if sizes:  # the main file, the size its header says, the WAL
            header = open(path, "rb").read(100)
            print(os.path.getsize(path), int.from_bytes(header[28:32], "big") * int.from_bytes(header[16:18], "big"),
                  os.path.getsize(path + "-wal"))
        with EventStore(path) as reopened:  # never "cut short": the WAL completes it
            assert reopened.events(game) == expected, f"cut {cut}: events lost"
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.unlink(path + suffix)
    print(killed)
""")


def test_a_kill_while_sqlite_copies_the_wal_into_the_file_leaves_a_file_that_opens_whole_100_times(tmp_path, shim):
    result = subprocess.run([sys.executable, "-c", CHECKPOINT_KILLS, str(shim), str(tmp_path), "100"],
                            env={**ENV, "LD_PRELOAD": str(shim)}, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    killed = int(result.stdout.split()[-1])
    print(f"{killed} of 100 checkpoints killed at their Nth write into the save file; every file opened whole")
    assert killed == 100


def test_a_cut_checkpoint_leaves_a_main_file_shorter_than_its_header_says_and_the_wal_that_completes_it(
        tmp_path, shim):
    """What the old size check refused as "cut short": the kill comes after page 1 (the new size) is copied."""
    result = subprocess.run([sys.executable, "-c", CHECKPOINT_KILLS, str(shim), str(tmp_path), "3", "sizes"],
                            env={**ENV, "LD_PRELOAD": str(shim)}, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    sizes = [tuple(map(int, line.split())) for line in result.stdout.splitlines()[:-1]]
    assert len(sizes) == 3 and all(size < header and wal > 0 for size, header, wal in sizes[1:]), sizes

