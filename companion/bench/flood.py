"""`companion bench pads --flood`: a stuck button floods the pad hub during play, and the phones must not feel it.

A real `companion serve` (another process) with the pads config of a fake hub on a pty pair; six bot phones
play whole games (companion.bench.phones' players) and a host page listens. First a quiet stretch, then the hub
sends 1,000 presses a second from pad 6, given to nobody (a shorted button). Printed: the phones' answer-to-ack
p50/p99 in each stretch of the same run (goal: flood p99 at most twice the quiet one), the notices the host page
received and the lines the server printed during the flood, per 20 s (goal: at most 200).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

import aiohttp

from companion.bench import DEFAULT_GAME, rules_of, seats_for
from companion.bench.phones import Bench, percentile, serve_urls
from companion.pads.fake_hub import FakeHub

FLOOD_PAD = 6


def _flood(hub: FakeHub, rate: float, stop: threading.Event, sent: list[int]) -> None:
    """`rate` presses a second on pad 6, in bursts every 10 ms (as fast as the line goes, as a short does)."""
    burst = max(1, round(rate / 100))
    start = time.monotonic()
    while not stop.is_set():
        for _ in range(burst):
            hub.press(FLOOD_PAD, 1)
        sent[0] += burst
        wait = start + sent[0] / rate - time.monotonic()
        if wait > 0:
            stop.wait(wait)


def bench_pads_flood(quiet: float = 10.0, flood: float = 20.0, rate: float = 1000.0, seed: int = 1,
                     game: str = DEFAULT_GAME) -> dict:
    seats = seats_for(rules_of(game))
    hub = FakeHub(pads=6, resend_after=1.0)
    path = hub.plug()
    with tempfile.TemporaryDirectory(prefix="companion-flood-") as folder:
        config = os.path.join(folder, "pads.toml")
        with open(config, "w", encoding="utf-8") as out:
            pads = "".join(f'{n} = "{seat}"\n' for n, seat in enumerate(seats[:FLOOD_PAD - 1], start=1))
            out.write(f'[serial]\nport = "{path}"\n[serial.pads]\n{pads}')
        server = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--db", os.path.join(folder, "flood.sqlite3"),
             "--host", "127.0.0.1", "--port", "0", "--game", game, "--players", ",".join(seats), "--no-qr",
             "--pads", config, "--reveal-grace", "0"],  # latencies measured, not the grace before a reveal
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        printed: list[float] = []  # when the server printed each pads line
        try:
            urls = serve_urls(server, len(seats))

            def drain() -> None:  # the server's terminal: every line it prints is read (and counted)
                for line in server.stdout:
                    if line.startswith("pads:"):
                        printed.append(time.monotonic())

            threading.Thread(target=drain, daemon=True).start()
            base = urls["host"].split("/h/")[0]
            host_token = urls["host"].rsplit("/", 1)[1]
            seat_urls = {**{s: urls[s] for s in seats}, "spectator": urls["watch"].rsplit("/", 1)[1]}
            if not hub.wait_for(lambda h: len(h.lamps) == 6, 10):
                raise RuntimeError("the companion did not answer the fake hub's HELLO within 10 s")
            bench = Bench(len(seats), 10**9, seed, game, seats)
            bench.churned.set()  # no spectators here
            notices: list[float] = []
            marks: dict[str, float] = {}
            sent = [0]

            async def listen() -> None:
                async with aiohttp.ClientSession() as session:
                    host = await session.ws_connect(f"{base}/ws/{host_token}")
                    async for message in host:
                        if json.loads(message.data)["type"] == "notice":
                            notices.append(time.monotonic())

            async def measure() -> tuple[int, int]:
                listener = asyncio.ensure_future(listen())
                play = asyncio.ensure_future(bench.run(base, host_token, seat_urls))
                await asyncio.sleep(quiet)
                calm = len(bench.ack_ms)
                stop = threading.Event()
                flooder = threading.Thread(target=_flood, args=(hub, rate, stop, sent), daemon=True)
                marks["flood"] = time.monotonic()
                flooder.start()
                await asyncio.sleep(flood)
                marks["end"] = time.monotonic()
                flooded = len(bench.ack_ms)
                stop.set()
                flooder.join(5)
                bench.done.set()
                await asyncio.wait_for(play, 10)
                listener.cancel()
                return calm, flooded

            calm, flooded = asyncio.run(measure())
        finally:
            server.terminate()
            server.wait(timeout=10)
            hub.close()
    quiet_ms, flood_ms = bench.ack_ms[:calm], bench.ack_ms[calm:flooded]
    during = [t for t in notices if marks["flood"] <= t <= marks["end"]]
    lines = [t for t in printed if marks["flood"] <= t <= marks["end"]]
    per20 = 20.0 / flood
    figures = {
        "presses": sent[0], "rate": sent[0] / flood,
        "quiet_answers": len(quiet_ms), "flood_answers": len(flood_ms),
        "quiet_p50_ms": percentile(quiet_ms, 0.5), "quiet_p99_ms": percentile(quiet_ms, 0.99),
        "flood_p50_ms": percentile(flood_ms, 0.5), "flood_p99_ms": percentile(flood_ms, 0.99),
        "host_notices_per_20s": len(during) * per20, "printed_per_20s": len(lines) * per20,
    }
    ratio = figures["flood_p99_ms"] / max(figures["quiet_p99_ms"], 1e-9)
    figures["p99_ratio"] = ratio
    print(f"pads flood bench: {len(seats)} bot phones playing {game}, then {figures['rate']:.0f} presses/s on hub pad "
          f"{FLOOD_PAD} (given to nobody) for {flood:.0f} s")
    print(f"  phone ack, quiet     p50 {figures['quiet_p50_ms']:.2f} ms   p99 {figures['quiet_p99_ms']:.2f} ms "
          f"({len(quiet_ms)} answers in {quiet:.0f} s)")
    print(f"  phone ack, flood     p50 {figures['flood_p50_ms']:.2f} ms   p99 {figures['flood_p99_ms']:.2f} ms "
          f"({len(flood_ms)} answers)   p99 {ratio:.2f}x quiet (goal <= 2x)")
    print(f"  host notices         {figures['host_notices_per_20s']:.0f} per 20 s (goal <= 200); server printed "
          f"{figures['printed_per_20s']:.0f} pads lines per 20 s")
    return figures
