"""`companion bench phones --clients N`: simulated phones against a real `companion serve` in another process.

Six seat phones play random games (answering every question they are asked), the other clients watch as
spectators. Printed: p50/p99 from an answer to its acknowledgement, p50/p99 from the last ballot of a vote to
the reveal reaching every phone, and the server's peak memory.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

SEATS = ["red", "yellow", "blue", "green", "purple", "black"]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class Bench:
    def __init__(self, clients: int, answers: int, seed: int):
        self.clients, self.answers_wanted = clients, answers
        self.rng = random.Random(seed)
        self.ack_ms: list[float] = []
        self.reveal_ms: list[float] = []
        self.last_ballot_sent = 0.0  # when the latest ballot of the open vote was sent
        self.arrivals: dict[int, list[float]] = {}  # a reveal -> when each phone received it
        self.done = asyncio.Event()
        self.game_over = asyncio.Event()

    async def run(self, base: str, host_token: str, seat_urls: dict[str, str]) -> None:
        # No limit on open connections: aiohttp's default of 100 would hold the 101st phone back forever.
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            host = await session.ws_connect(f"{base}/ws/{host_token}")
            watchers = [await session.ws_connect(f"{base}/ws/{seat_urls['spectator']}")
                        for _ in range(self.clients - len(SEATS))]
            tasks = [asyncio.ensure_future(self.watch(i + len(SEATS), ws)) for i, ws in enumerate(watchers)]
            while not self.done.is_set():
                self.game_over.clear()
                seats = [await session.ws_connect(f"{base}/ws/{seat_urls[s].rsplit('/', 1)[1]}") for s in SEATS]
                seat_tasks = [asyncio.ensure_future(self.play(i, ws)) for i, ws in enumerate(seats)]
                await asyncio.wait([asyncio.ensure_future(self.done.wait()),
                                    asyncio.ensure_future(self.game_over.wait())],
                                   return_when=asyncio.FIRST_COMPLETED)
                for ws in seats:
                    await ws.close()
                for task in seat_tasks:
                    task.cancel()
                if self.done.is_set():
                    break
                seat_urls = await self.new_game(host, seat_urls)
            for ws in watchers:
                await ws.close()
            for task in tasks:
                task.cancel()
            await host.close()

    async def new_game(self, host, old: dict[str, str]) -> dict[str, str]:
        """The host starts the next game; its seats have new URLs (the host's backlog still holds the old)."""
        await host.send_str(json.dumps({"v": 1, "type": "new_game", "players": SEATS}))
        while True:
            message = json.loads((await host.receive()).data)
            if message["type"] == "state" and message["host"]["seats"]["red"] != old["red"]:
                urls = message["host"]["seats"]
                return {**urls, "spectator": message["host"]["spectator"].rsplit("/", 1)[1]}

    def saw(self, phone: int, raw: str, seen: dict[int, str]) -> None:
        """Every seat phone reports each state it receives; once a new reveal has reached every phone, it is
        timed."""
        revealed = revealed_text(raw)
        if not revealed or seen.get(phone) == revealed:
            return
        seen[phone] = revealed
        self.arrived(hash(revealed))

    def arrived(self, key: int) -> None:
        arrivals = self.arrivals.setdefault(key, [])
        arrivals.append(time.perf_counter())
        if len(arrivals) == self.clients:
            self.reveal_ms.append((max(arrivals) - self.last_ballot_sent) * 1000)
            del self.arrivals[key]

    async def watch(self, phone: int, ws) -> None:
        """A spectator: it only looks for a new reveal (reading 194 full states per change would make the
        simulated phones, not the server, the bottleneck on a 2-core machine)."""
        last = ""
        async for message in ws:
            revealed = revealed_text(message.data)
            if revealed and revealed != last:
                last = revealed
                self.arrived(hash(revealed))

    async def play(self, phone: int, ws) -> None:
        answered: set[str] = set()
        sent_at = 0.0
        view: dict | None = None
        seen: dict[int, str] = {}

        async def answer() -> None:
            nonlocal sent_at
            if view is None or view["over"]:
                return
            prompt = view.get("prompt")
            if not view.get("options") or prompt is None or prompt["id"] in answered:
                return
            if view["seat"] not in prompt["waiting"]:
                return
            answered.add(prompt["id"])
            sent_at = time.perf_counter()
            if prompt["kind"] == "ballot":
                self.last_ballot_sent = sent_at
            action = self.rng.choice(view["options"])
            await ws.send_str(json.dumps({"v": 1, "type": "answer", "question": prompt["id"], "action": action}))

        async for message in ws:
            data = json.loads(message.data)
            if data["type"] == "error" and data["code"] == "rate_limited":
                answered.clear()  # the answer was dropped, not stored: send it again a little later
                await asyncio.sleep(0.2)
                await answer()
                continue
            if data["type"] == "ack":
                self.ack_ms.append((time.perf_counter() - sent_at) * 1000)
                if len(self.ack_ms) >= self.answers_wanted:
                    self.done.set()
                continue
            if data["type"] != "state" or data["view"] is None:
                continue
            view = data["view"]
            self.saw(phone, message.data, seen)
            if view["over"]:
                self.game_over.set()
                continue
            await answer()


def revealed_text(raw: str) -> str:
    """The "revealed" object of a state message as text, found without parsing the JSON ("leaders" is its
    last field): 194 spectators parsing every state would make the simulated phones the bottleneck."""
    at = raw.find('"revealed":{')
    if at < 0:
        return ""
    end = raw.find("]", raw.find('"leaders":', at))
    return raw[at:end + 1]


def peak_memory_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def bench_phones(clients: int = 6, answers: int = 300, seed: int = 1) -> dict:
    clients = max(clients, len(SEATS))
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--db", os.path.join(folder, "bench.sqlite3"),
             "--host", "127.0.0.1", "--port", "0", "--players", ",".join(SEATS), "--no-qr"],
            stdout=subprocess.PIPE, text=True)
        try:
            urls: dict[str, str] = {}
            while len(urls) < len(SEATS) + 2:
                line = server.stdout.readline()
                if not line:
                    raise RuntimeError("companion serve stopped before it was ready")
                words = line.split()
                if words[0] in ("host", "watch"):
                    urls[words[0]] = words[1]
                elif words[0] == "seat":
                    urls[words[1]] = words[2]
            base = urls["host"].split("/h/")[0]
            seat_urls = {**{s: urls[s] for s in SEATS}, "spectator": urls["watch"].rsplit("/", 1)[1]}
            bench = Bench(clients, answers, seed)
            asyncio.run(bench.run(base, urls["host"].rsplit("/", 1)[1], seat_urls))
            memory = peak_memory_mb(server.pid)
        finally:
            server.terminate()
            server.wait(timeout=10)
    figures = {
        "clients": clients, "answers": len(bench.ack_ms), "reveals": len(bench.reveal_ms),
        "ack_p50_ms": percentile(bench.ack_ms, 0.5), "ack_p99_ms": percentile(bench.ack_ms, 0.99),
        "reveal_p50_ms": percentile(bench.reveal_ms, 0.5), "reveal_p99_ms": percentile(bench.reveal_ms, 0.99),
        "server_peak_mb": memory,
    }
    goal = "10" if clients <= 6 else "50"
    print(f"phones bench: {clients} phones (6 seats playing random games, {clients - 6} spectators) "
          f"against companion serve")
    print(f"  answers acknowledged       {figures['answers']}")
    print(f"  answer -> ack              p50 {figures['ack_p50_ms']:.2f} ms   p99 {figures['ack_p99_ms']:.2f} ms "
          f"(goal p99 < {goal} ms)")
    print(f"  last ballot -> every phone p50 {figures['reveal_p50_ms']:.2f} ms   "
          f"p99 {figures['reveal_p99_ms']:.2f} ms over {figures['reveals']} reveals (goal p99 < {goal} ms)")
    print(f"  server peak memory         {figures['server_peak_mb']:.1f} MB (goal < 100 MB)")
    if len(bench.reveal_ms) < 3:
        print(f"  (only {len(bench.reveal_ms)} reveals measured: give more --answers)")
    return figures
