"""`companion bench soak --game G --minutes M`: a whole night of play against a real `companion serve`.

Whole games back to back, every seat a bot phone that answers what its question shows (a choice, a number in its
range, an assignment) at random, while spectators come and go and players press their pads on a hub (a fake hub
on a pty, its pads given to the first seats: a press answers, or is refused as stale, busy or too soon). Every
window (a tenth of the run, at least 10 s) prints the server's resident memory, its open descriptors, the save
file's size (with its WAL) and the p50/p99 from an answer to its acknowledgement; the end prints the slopes of
memory and descriptors per minute.

A stall is a failure: the game not over, no message for STALL_SECONDS, and every seat asked has had its answer
acknowledged, or has gone MAX_ROUNDS times through every answer its question shows with none accepted. The bench
then prints the position (the host's prompt and each seat's question) and starts the next game. The server's
tracebacks are counted from its log.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

import aiohttp

from companion.bench import DEFAULT_GAME, rules_of, seats_for
from companion.bench.phones import memory_mb, percentile, serve_urls, shown_answers
from companion.pads.fake_hub import FakeHub

STALL_SECONDS = 8.0  # no message while every asked seat is answered: the table is waiting on nobody
SPECTATORS = 4  # watching the whole night
CHURN_PER_SECOND = 2.0  # spectators who come, get the board and go again
MAX_ROUNDS = 3  # times through every answer a question shows, all refused, before a seat is called stuck
PRESSES_PER_SECOND = 2.0  # pad presses on the hub, at random buttons of the pads given to seats


@dataclass
class Seat:
    """One bot phone: its latest view, what it has sent for the open question, and whether that was taken."""

    name: str
    ws: aiohttp.ClientWebSocketResponse
    view: dict | None = None
    question: str | None = None  # the id of the question this seat was asked and answered
    tries: list[dict] = field(default_factory=list)  # answers still to try for that question
    sent: dict | None = None  # the last answer sent
    sent_at: float = 0.0
    acked: bool = False
    rounds: int = 0  # how often it has gone through every answer its question shows, all refused


class Soak:
    def __init__(self, game: str, players: list[str], seed: int):
        self.game, self.players = game, players
        self.rng = random.Random(seed)
        self.acks: list[float] = []  # milliseconds, this window
        self.last_message = time.monotonic()
        self.games = self.stalls = self.refusals = self.churned = 0
        self.over = asyncio.Event()
        self.host_seats: dict[str, str] = {}  # the seat URLs the host page shows now
        self.new_seats = asyncio.Event()

    async def answer(self, seat: Seat) -> None:
        view = seat.view
        if view is None or view["over"]:
            return
        prompt, asked = view.get("prompt"), view.get("question")
        if prompt is None or asked is None or asked.get("answered") or seat.name not in prompt["waiting"]:
            return
        if seat.question != asked["id"]:
            seat.question, seat.acked, seat.rounds = asked["id"], False, 0
            seat.tries = shown_answers(asked, self.rng)
        elif seat.acked:
            return
        elif not seat.tries:
            # every answer refused, some perhaps as stale while the question changed under it: as a player
            # would, it tries again; a third time through with nothing accepted is a stall
            seat.rounds += 1
            if seat.rounds >= MAX_ROUNDS:
                return
            seat.tries = shown_answers(asked, self.rng)
        action = seat.sent = seat.tries.pop(0)
        seat.sent_at = time.monotonic()
        await seat.ws.send_str(json.dumps({"v": 1, "type": "answer", "question": asked["id"], "action": action}))

    async def listen(self, seat: Seat) -> None:
        async for message in seat.ws:
            self.last_message = time.monotonic()
            data = json.loads(message.data)
            if data["type"] == "ack" and data.get("question") == seat.question:
                seat.acked = True
                self.acks.append((time.monotonic() - seat.sent_at) * 1000)
            elif data["type"] == "error":
                if data.get("code") == "rate_limited" and seat.sent is not None:
                    await asyncio.sleep(0.2)  # dropped, not refused: the same answer again
                    seat.tries.insert(0, seat.sent)
                else:
                    self.refusals += 1
                await self.answer(seat)  # refused: the next answer the question shows
            elif data["type"] == "state" and data["view"] is not None:
                seat.view = data["view"]
                if seat.view["over"]:
                    self.over.set()
                await self.answer(seat)

    def stalled(self, seats: list[Seat]) -> bool:
        if time.monotonic() - self.last_message < STALL_SECONDS:
            return False
        views = [s.view for s in seats if s.view is not None]
        if not views or any(v["over"] for v in views):
            return False
        waiting = (views[0].get("prompt") or {}).get("waiting", [])
        return all(s.acked or s.rounds >= MAX_ROUNDS for s in seats if s.name in waiting)

    def say_stall(self, seats: list[Seat]) -> None:
        view = next((s.view for s in seats if s.view is not None), {})
        print(f"  STALL in game {self.games + 1}: prompt {json.dumps(view.get('prompt'))}", flush=True)
        for seat in seats:
            asked = (seat.view or {}).get("question")
            print(f"    {seat.name}: question {json.dumps(asked)[:400]} acked={seat.acked} "
                  f"rounds of refused answers={seat.rounds}", flush=True)

    async def play_one(self, session: aiohttp.ClientSession, base: str, urls: dict[str, str], stop: float) -> None:
        seats = [Seat(name, await session.ws_connect(f"{base}/ws/{urls[name].rsplit('/', 1)[1]}"))
                 for name in self.players]
        tasks = [asyncio.ensure_future(self.listen(seat)) for seat in seats]
        self.over.clear()
        self.last_message = time.monotonic()
        try:
            while not self.over.is_set() and time.monotonic() < stop:
                await asyncio.sleep(0.5)
                if self.stalled(seats):
                    self.stalls += 1
                    self.say_stall(seats)
                    break
            if self.over.is_set():
                self.games += 1
        finally:
            for seat in seats:
                await seat.ws.close()
            for task in tasks:
                task.cancel()

    async def host_listens(self, host: aiohttp.ClientWebSocketResponse) -> None:
        async for message in host:
            data = json.loads(message.data)
            if data["type"] == "state" and data.get("host") and data["host"]["seats"] != self.host_seats:
                self.host_seats = dict(data["host"]["seats"])
                self.new_seats.set()

    async def new_game(self, host: aiohttp.ClientWebSocketResponse, old: dict[str, str]) -> dict[str, str]:
        """The host starts the next game; its seats have new URLs."""
        self.new_seats.clear()
        await host.send_str(json.dumps({"v": 1, "type": "new_game", "game": self.game, "players": self.players}))
        while self.host_seats.get(self.players[0]) == old[self.players[0]]:
            await asyncio.wait_for(self.new_seats.wait(), 30)
            self.new_seats.clear()
        return {s: self.host_seats[s] for s in self.players}

    async def churn(self, session: aiohttp.ClientSession, base: str, token: str, stop: float) -> None:
        """Spectators who come, get the board and go again, CHURN_PER_SECOND of them."""
        while time.monotonic() < stop:
            await asyncio.sleep(1 / CHURN_PER_SECOND)
            try:
                ws = await session.ws_connect(f"{base}/ws/{token}")
                for _ in range(2):  # welcome, then the board
                    await ws.receive(timeout=5)
                await ws.close()
                self.churned += 1
            except (TimeoutError, aiohttp.ClientError):
                pass


@dataclass
class Window:
    minute: float
    rss_mb: float
    fds: int
    save_kb: float
    games: int
    ack_p50: float
    ack_p99: float
    acks: int


def save_kb(db: str) -> float:
    return sum(os.path.getsize(p) for p in (db, db + "-wal") if os.path.exists(p)) / 1024


def slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of ys against xs (0 with fewer than two points)."""
    if len(xs) < 2:
        return 0.0
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / spread if spread else 0.0


def bench_soak(game: str = DEFAULT_GAME, minutes: float = 10.0, players: int | None = None,
               seed: int = 1) -> dict:
    seats = seats_for(rules_of(game), players)
    seconds = minutes * 60
    window_s = max(10.0, seconds / 10)
    hub = FakeHub(pads=min(2, len(seats)), resend_after=1.0)
    hub_path = hub.plug()
    stop_pressing = threading.Event()
    with tempfile.TemporaryDirectory() as folder:
        db, log = os.path.join(folder, "soak.sqlite3"), open(os.path.join(folder, "serve.log"), "w+")
        config = os.path.join(folder, "pads.toml")
        with open(config, "w", encoding="utf-8") as out:
            pads = "".join(f'{n} = "{seat}"\n' for n, seat in enumerate(seats[:hub.pads], start=1))
            out.write(f'[serial]\nport = "{hub_path}"\n[serial.pads]\n{pads}')
        server = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--db", db, "--host", "127.0.0.1", "--port", "0",
             "--game", game, "--players", ",".join(seats), "--no-qr", "--pads", config],
            stdout=subprocess.PIPE, stderr=log, text=True)
        pressed = [0]
        try:
            urls = serve_urls(server, len(seats))
            threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()  # its terminal, read
            threading.Thread(target=_press, args=(hub, random.Random(seed), stop_pressing, pressed),
                             daemon=True).start()
            soak = Soak(game, seats, seed)
            windows = asyncio.run(_run(soak, server.pid, db, urls, seconds, window_s))
        finally:
            stop_pressing.set()
            server.terminate()
            server.wait(timeout=10)
            hub.unplug()
        log.seek(0)
        tracebacks = log.read().count("Traceback")
        log.close()
    minutes_at = [w.minute for w in windows]
    later = windows[len(windows) // 2:]  # the second half: warm-up (first games, caches filling) left behind
    figures = {"game": game, "players": len(seats), "minutes": minutes, "games": soak.games, "stalls": soak.stalls,
               "pad_presses": pressed[0], "pad_replies": sum(1 for r in hub.replies.values() if r),
               "tracebacks": tracebacks, "refusals": soak.refusals, "spectators_churned": soak.churned,
               "rss_slope_mb_per_min": slope(minutes_at, [w.rss_mb for w in windows]),
               "fds_slope_per_min": slope(minutes_at, [float(w.fds) for w in windows]),
               "rss_slope_second_half_mb_per_min": slope([w.minute for w in later], [w.rss_mb for w in later]),
               "save_kb_per_game": windows[-1].save_kb / max(1, soak.games) if windows else float("nan"),
               "windows": [w.__dict__ for w in windows]}
    print(f"  games {soak.games}, stalls {soak.stalls} (goal 0), server tracebacks {tracebacks} (goal 0), "
          f"refused answers {soak.refusals}, spectators came and went {soak.churned}, pad presses {pressed[0]} "
          f"({figures['pad_replies']} answered OK or NO by the box)")
    print(f"  slopes: memory {figures['rss_slope_mb_per_min']:+.3f} MB/min (second half "
          f"{figures['rss_slope_second_half_mb_per_min']:+.3f}), descriptors "
          f"{figures['fds_slope_per_min']:+.3f}/min (goal: flat); save file {figures['save_kb_per_game']:.1f} KB "
          f"per game")
    return figures


async def _run(soak: Soak, pid: int, db: str, urls: dict[str, str], seconds: float,
               window_s: float) -> list[Window]:
    base = urls["host"].split("/h/")[0]
    started = time.monotonic()
    stop = started + seconds
    windows: list[Window] = []
    print(f"soak bench: {soak.game}, {len(soak.players)} bot phones, {SPECTATORS} spectators and "
          f"{CHURN_PER_SECOND:g} comings and goings a second, {PRESSES_PER_SECOND:g} pad presses a second, "
          f"{seconds / 60:g} min against companion serve")
    print("  minute   RSS MB   fds   save KB   games   acks   ack p50 ms   ack p99 ms")

    async def sample() -> None:
        while time.monotonic() < stop:
            await asyncio.sleep(min(window_s, max(0.1, stop - time.monotonic())))
            acks, soak.acks = soak.acks, []
            window = Window(round((time.monotonic() - started) / 60, 2), memory_mb(pid, "VmRSS"),
                            len(os.listdir(f"/proc/{pid}/fd")), save_kb(db), soak.games,
                            percentile(acks, 0.5), percentile(acks, 0.99), len(acks))
            windows.append(window)
            print(f"  {window.minute:6.2f} {window.rss_mb:8.1f} {window.fds:5d} {window.save_kb:9.0f} "
                  f"{window.games:7d} {window.acks:6d} {window.ack_p50:12.2f} {window.ack_p99:12.2f}", flush=True)

    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        host = await session.ws_connect(f"{base}/ws/{urls['host'].rsplit('/', 1)[1]}")
        watch_token = urls["watch"].rsplit("/", 1)[1]
        watchers = [await session.ws_connect(f"{base}/ws/{watch_token}") for _ in range(SPECTATORS)]
        drains = [asyncio.ensure_future(_drain(ws)) for ws in watchers]
        helpers = [asyncio.ensure_future(sample()), asyncio.ensure_future(soak.churn(session, base, watch_token, stop))]
        drains.append(asyncio.ensure_future(soak.host_listens(host)))
        seat_urls = {s: urls[s] for s in soak.players}
        while time.monotonic() < stop:
            await soak.play_one(session, base, seat_urls, stop)
            if time.monotonic() >= stop:
                break
            seat_urls = await soak.new_game(host, seat_urls)
        await asyncio.gather(*helpers)
        for task in drains:
            task.cancel()
        for ws in [host, *watchers]:
            await ws.close()
    return windows


def _press(hub: FakeHub, rng: random.Random, stop: threading.Event, pressed: list[int]) -> None:
    """Players pressing their pads now and then, whatever they are asked: an answer, or a refusal the lamp shows."""
    while not stop.wait(1 / PRESSES_PER_SECOND):
        hub.press(rng.randint(1, hub.pads), rng.randint(1, 6))
        pressed[0] += 1


async def _drain(ws: aiohttp.ClientWebSocketResponse) -> None:
    async for _ in ws:
        pass
