"""`companion bench phones --clients N [--game G]`: simulated phones against a real `companion serve` in another
process.

The game's seats (six in Mall of Horror) are phones that play random games, answering every question they are
asked with an answer it shows (another after a refusal); the other clients watch as
spectators; meanwhile more spectators come and go (5 connects and closes per client, 1,000 for 200 clients),
which the seat phones must not feel. Printed: p50/p99 from an answer to its acknowledgement, p50/p99 from the
last ballot of a vote to the reveal reaching every phone, the comings and goings, the server's peak memory, and
the server's CPU time per answer (with the machine's load average: the latencies also measure the neighbours).

The server caps sockets per address (a real table has one or a few per phone): the simulated spectators connect
from addresses of their own on the loopback network (127.0.0.10 and up, 127.0.1.x for those who come and go).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import aiohttp

from companion.bench import DEFAULT_GAME, rules_of, seats_for

PER_ADDRESS = 24  # spectators per loopback address (the server takes 32 sockets from one address)
CHURN_RATE = 100.0  # spectators coming (and going again) per second


def serve_urls(server: subprocess.Popen, seats: int) -> dict[str, str]:
    """The URLs `companion serve` prints once it is ready: "host", "watch" and one per seat (by colour)."""
    urls: dict[str, str] = {}
    while len(urls) < seats + 2:
        line = server.stdout.readline()
        if not line:
            raise RuntimeError("companion serve stopped before it was ready")
        words = line.split()
        if words and words[0] in ("host", "watch"):
            urls[words[0]] = words[1]
        elif words and words[0] == "seat":
            urls[words[1]] = words[2]
    return urls


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def shown_answers(question: dict, rng: random.Random) -> list[dict]:
    """The answers a phone can give from its question alone, in a random order."""
    kind = question["kind"]
    if kind in ("pick", "ballot", "cards"):
        answers = [c["action"] for c in question["choices"]]
    elif kind == "number":
        answers = [{**question["answer"], question["field"]: n} for n in range(question["low"], question["high"] + 1)]
    else:  # assign: the rules' proposal first, then random assignments
        targets = [t["value"] for t in question["targets"]]
        guesses = [{**question["answer"], question["field"]: {i["value"]: rng.choice(targets)
                                                              for i in question["items"]}} for _ in range(8)]
        answers = ([question["answer"]] if question["field"] in question["answer"] else []) + guesses
        return answers
    rng.shuffle(answers)
    return answers


class Bench:
    def __init__(self, clients: int, answers: int, seed: int, game: str = DEFAULT_GAME,
                 seats: list[str] | None = None):
        self.clients, self.answers_wanted = clients, answers
        self.game, self.seats = game, seats or seats_for(rules_of(game))
        self.rng = random.Random(seed)
        self.ack_ms: list[float] = []
        self.reveal_ms: list[float] = []
        self.last_ballot_sent = 0.0  # when the latest ballot of the open vote was sent
        self.ballot_sent: dict[str, float] = {}  # a reveal -> when the last ballot before it was sent
        self.arrivals: dict[str, list[float]] = {}  # a reveal -> when each seat phone received it
        self.done = asyncio.Event()
        self.game_over = asyncio.Event()
        self.churned = asyncio.Event()  # the spectators who come and go have all come and gone

    async def run(self, base: str, host_token: str, seat_urls: dict[str, str]) -> None:
        # No limit on open connections: aiohttp's default of 100 would hold the 101st phone back forever.
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            host = await session.ws_connect(f"{base}/ws/{host_token}")
            while not self.done.is_set():
                self.game_over.clear()
                seats = [await session.ws_connect(f"{base}/ws/{seat_urls[s].rsplit('/', 1)[1]}") for s in self.seats]
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
            await host.close()

    async def new_game(self, host, old: dict[str, str]) -> dict[str, str]:
        """The host starts the next game; its seats have new URLs (the host's backlog still holds the old)."""
        await host.send_str(json.dumps({"v": 1, "type": "new_game", "game": self.game, "players": self.seats}))
        first = self.seats[0]
        while True:
            message = json.loads((await host.receive()).data)
            if message["type"] == "state" and message["host"]["seats"].get(first, old[first]) != old[first]:
                urls = message["host"]["seats"]
                return {**urls, "spectator": message["host"]["spectator"].rsplit("/", 1)[1]}

    def saw(self, phone: int, raw: str, seen: dict[int, str]) -> None:
        """Each seat phone notes when a new reveal reached it (the spectators do so in their own process)."""
        revealed = revealed_text(raw)
        if not revealed or seen.get(phone) == revealed or not self.last_ballot_sent:
            return
        seen[phone] = revealed
        self.ballot_sent.setdefault(revealed, self.last_ballot_sent)
        self.arrivals.setdefault(revealed, []).append(time.monotonic())

    def reveal_times(self, spectators: dict[str, list[float]], watching: int) -> list[float]:
        """From the last ballot to the reveal reaching every phone (seats here, spectators in the other
        process: time.monotonic is one clock for the whole machine)."""
        times = []
        for revealed, sent in self.ballot_sent.items():
            arrivals = self.arrivals.get(revealed, []) + spectators.get(revealed, [])
            if len(arrivals) == len(self.seats) + watching:  # a reveal seen twice (the same ballots again) is skipped
                times.append((max(arrivals) - sent) * 1000)
        return times

    async def play(self, phone: int, ws) -> None:
        answered: set[str] = set()
        tries: dict[str, list[dict]] = {}  # a question's id -> the answers it shows, not yet tried
        sent_at = 0.0
        sent: tuple[str, dict] | None = None  # the question's id and the answer last sent
        view: dict | None = None
        seen: dict[int, str] = {}

        async def answer() -> None:
            nonlocal sent_at, sent
            if view is None or view["over"]:
                return
            prompt, asked = view.get("prompt"), view.get("question")
            if not asked or asked.get("answered") or prompt is None or asked["id"] in answered:
                return
            if asked["seat"] not in prompt["waiting"]:
                return
            left = tries.setdefault(asked["id"], shown_answers(asked, self.rng))
            if not left:
                return  # every answer it shows refused: the bench ends with too few answers, and says so
            answered.add(asked["id"])
            sent_at = time.monotonic()
            if prompt.get("secret"):
                self.last_ballot_sent = sent_at
            action = left.pop(0)
            sent = (asked["id"], action)
            await ws.send_str(json.dumps({"v": 1, "type": "answer", "question": asked["id"], "action": action}))

        async for message in ws:
            data = json.loads(message.data)
            if data["type"] == "error":
                answered.clear()  # not stored: dropped by the rate limit (the same again, later) or refused
                if data["code"] == "rate_limited" and sent is not None:
                    tries[sent[0]].insert(0, sent[1])
                    await asyncio.sleep(0.2)
                await answer()
                continue
            if data["type"] == "ack":
                self.ack_ms.append((time.monotonic() - sent_at) * 1000)
                if len(self.ack_ms) >= self.answers_wanted and self.churned.is_set():
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


def connector(address: str) -> aiohttp.TCPConnector:
    return aiohttp.TCPConnector(local_addr=(address, 0), limit=0)


async def churn(base: str, token: str, total: int) -> tuple[int, float]:
    """Spectators who come, get the board and go again, CHURN_RATE a second: (how many, seconds)."""
    sessions = [aiohttp.ClientSession(connector=connector(f"127.0.1.{k}")) for k in range(1, 9)]
    started = time.monotonic()
    done = 0
    limit = asyncio.Semaphore(16)

    async def one(i: int) -> None:
        nonlocal done
        async with limit:
            ws = await sessions[i % len(sessions)].ws_connect(f"{base}/ws/{token}")
            for _ in range(2):  # welcome, then the board
                await ws.receive()
            await ws.close()
            done += 1

    tasks = []
    for i in range(total):
        await asyncio.sleep(max(0.0, started + i / CHURN_RATE - time.monotonic()))
        tasks.append(asyncio.ensure_future(one(i)))
    await asyncio.gather(*tasks)
    for session in sessions:
        await session.close()
    return done, time.monotonic() - started


async def watch(base: str, token: str, count: int, stop: asyncio.Event,
                comings: int = 0) -> dict[str, list[float]]:
    """Spectators (in their own process): when each new reveal reaches each of them."""
    arrivals: dict[str, list[float]] = {}

    async def one(ws) -> None:
        last = ""
        async for message in ws:
            revealed = revealed_text(message.data)
            if revealed and revealed != last:
                last = revealed
                arrivals.setdefault(revealed, []).append(time.monotonic())

    sessions = [aiohttp.ClientSession(connector=connector(f"127.0.0.{10 + k}"))
                for k in range((count + PER_ADDRESS - 1) // PER_ADDRESS)]
    sockets = [await sessions[i // PER_ADDRESS].ws_connect(f"{base}/ws/{token}") for i in range(count)]
    tasks = [asyncio.ensure_future(one(ws)) for ws in sockets]
    print("ready", flush=True)
    came, seconds = await churn(base, token, comings)
    print(f"churned {came} {seconds:.1f}", flush=True)
    await stop.wait()
    for ws in sockets:
        await ws.close()
    for task in tasks:
        task.cancel()
    for session in sessions:
        await session.close()
    return arrivals


def spectators_main(base: str, token: str, count: int, comings: int = 0) -> None:
    """`python -m companion.bench.phones BASE TOKEN COUNT COMINGS`: watch (while COMINGS spectators come and go)
    until stdin closes, then print the arrivals."""
    async def run() -> dict[str, list[float]]:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_reader(sys.stdin.fileno(), lambda: stop.set() if not sys.stdin.readline() else None)
        return await watch(base, token, count, stop, comings)

    json.dump(asyncio.run(run()), sys.stdout)


def revealed_text(raw: str) -> str:
    """The revealed ballots of a state message's board (its parts' "revealed", every game's) as text, found
    without parsing the JSON (each ballot ends with its "leaders"): 194 spectators parsing every state would make
    the simulated phones the bottleneck."""
    at = raw.find('"revealed":[{')
    if at < 0:
        return ""
    end = raw.find("]}]", at)
    return raw[at:end + 3] if end >= 0 else ""


# Bytes on the wire of a phone's page, whatever the game (issue 31: a page that loads on a weak Wi-Fi).
PAGE_GOAL = 25 * 1024


class Wire:
    """HTTP/1.1 over one kept-alive socket, as a phone's browser fetches the page: each response counted in
    bytes as they came off the wire (status line, headers and body, gzipped when the server sends it so)."""

    def __init__(self, base: str):
        host, port = base.removeprefix("http://").rsplit(":", 1)
        self.host = f"{host}:{port}"
        self.sock = socket.create_connection((host, int(port)), timeout=10)
        self.buffer = b""

    def get(self, path: str, etag: str | None = None) -> tuple[int, int, dict[str, str], bytes]:
        """(status, bytes on the wire, headers, body as sent)."""
        lines = [f"GET {path} HTTP/1.1", f"Host: {self.host}", "Accept-Encoding: gzip, deflate"]
        if etag:
            lines.append(f"If-None-Match: {etag}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        while b"\r\n\r\n" not in self.buffer:
            self._read()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        status_line, *fields = head.decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, _, v in (f.partition(":") for f in fields)}
        size = int(headers.get("content-length", "0"))
        while len(self.buffer) < size:
            self._read()
        body, self.buffer = self.buffer[:size], self.buffer[size:]
        return int(status_line.split()[1]), len(head) + 4 + size, headers, body

    def _read(self) -> None:
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("the server closed the connection")
        self.buffer += data

    def close(self) -> None:
        self.sock.close()


def page_paths(html: str) -> list[str]:
    """What a phone's browser fetches for the page: the document's styles, scripts (the board parts' renderers,
    the same for every game), manifest and icon."""
    return re.findall(r'<(?:link|script)\b[^>]*?(?:href|src)="(/static/[^"]+)"', html)


def page_bytes(base: str, seat_path: str, lang: str = "en") -> dict:
    """A phone opening its seat's page on a fresh browser, then coming back to it (the browser sends the
    validators it kept): the bytes on the wire of each visit, the page and its words (the catalogue)."""
    wire = Wire(base)
    try:
        status, page, headers, body = wire.get(seat_path)
        assert status == 200, f"{seat_path}: {status}"
        html = gzip_decoded(body)
        kept: dict[str, str] = {seat_path: headers.get("etag", "")}
        responses = 1
        for path in page_paths(html):
            status, size, headers, _ = wire.get(path)
            assert status == 200, f"{path}: {status}"
            page, responses = page + size, responses + 1
            kept[path] = headers.get("etag", "")
        status, words, headers, _ = wire.get(f"/i18n/{lang}.json")
        kept[f"/i18n/{lang}.json"] = headers.get("etag", "")
        again, unchanged = 0, 0
        for path, etag in kept.items():
            status, size, _, _ = wire.get(path, etag or None)
            again, unchanged = again + size, unchanged + (status == 304)
        return {"page_bytes": page, "responses": responses, "words_bytes": words, "rejoin_bytes": again,
                "rejoin_304": unchanged, "rejoin_requests": len(kept)}
    finally:
        wire.close()


def gzip_decoded(body: bytes) -> str:
    import gzip

    return (gzip.decompress(body) if body[:2] == b"\x1f\x8b" else body).decode("utf-8")


async def pages_per_game(base: str, host_token: str) -> dict[str, dict]:
    """The page's bytes on the wire for a seat of each game: the host starts each game in turn."""
    from companion.games import GAMES

    figures = {}
    async with aiohttp.ClientSession() as session:
        host = await session.ws_connect(f"{base}/ws/{host_token}")
        for name, game in GAMES.items():
            setup = game.SETUP.to_json(name)
            players = setup["colours"][:max(2, setup["min_players"])]
            await host.send_str(json.dumps({"v": 1, "type": "new_game", "game": name, "players": players}))
            while True:
                message = json.loads((await host.receive()).data)
                view = message.get("view") if message["type"] == "state" else None
                if view and view.get("game") == name and set(message["host"]["seats"]) == set(players):
                    break
            seat = message["host"]["seats"][players[0]]
            figures[name] = await asyncio.to_thread(page_bytes, base, "/" + seat.split("/", 3)[3])
        await host.close()
    return figures


def print_pages(figures: dict[str, dict]) -> None:
    print("  the page on the wire, per game (a seat's first visit: document, styles, scripts, manifest, "
          "icon; then its words, the English catalogue; a rejoin sends the validators kept)")
    for name, f in figures.items():
        print(f"    {name:18} page {f['page_bytes'] / 1024:5.1f} KB in {f['responses']} responses "
              f"(goal <= {PAGE_GOAL // 1024} KB)   words {f['words_bytes'] / 1024:5.1f} KB   "
              f"rejoin {f['rejoin_bytes'] / 1024:4.1f} KB, {f['rejoin_304']} of {f['rejoin_requests']} "
              f"answered 304")


def memory_mb(pid: int, field: str = "VmHWM") -> float:
    """A process's memory from /proc: its peak (VmHWM) or what it holds now (VmRSS), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) a process has used so far: what the server spent, whatever else runs on
    the machine (wall-clock latencies also measure the neighbours)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def disk_syncs(folder: str, count: int = 100) -> list[float]:
    """Milliseconds of `count` fdatasyncs of a 4 KB append in `folder`: what the disk under the save file asks
    of every acknowledgement (the box acknowledges an answer once a sync has put it on disk)."""
    times = []
    fd = os.open(os.path.join(folder, "disk-probe"), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        for _ in range(count):
            os.write(fd, b"x" * 4096)
            started = time.perf_counter()
            os.fdatasync(fd)
            times.append((time.perf_counter() - started) * 1000)
    finally:
        os.close(fd)
        os.unlink(os.path.join(folder, "disk-probe"))
    return times


def bench_phones(clients: int = 6, answers: int = 300, seed: int = 1, comings: int | None = None,
                 game: str = DEFAULT_GAME) -> dict:
    seats = seats_for(rules_of(game))
    clients = max(clients, len(seats))
    comings = 5 * clients if comings is None else comings
    with tempfile.TemporaryDirectory() as folder:
        disk = disk_syncs(folder)
        server = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--db", os.path.join(folder, "bench.sqlite3"),
             "--host", "127.0.0.1", "--port", "0", "--game", game, "--players", ",".join(seats), "--no-qr",
             "--reveal-grace", "0"],  # the bots answer at once: the acknowledgements are measured, not the grace
            stdout=subprocess.PIPE, text=True)
        try:
            urls = serve_urls(server, len(seats))
            base = urls["host"].split("/h/")[0]
            seat_urls = {**{s: urls[s] for s in seats}, "spectator": urls["watch"].rsplit("/", 1)[1]}
            watching = clients - len(seats)
            watcher = subprocess.Popen([sys.executable, "-m", "companion.bench.phones", base,
                                        seat_urls["spectator"], str(watching), str(comings)],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            if watcher.stdout.readline().strip() != "ready":
                raise RuntimeError("the spectators' process did not start")
            bench = Bench(clients, answers, seed, game, seats)
            churned: list[str] = []

            async def measure() -> None:
                loop = asyncio.get_running_loop()

                def heard() -> None:  # the spectators' process says when its comings and goings are done
                    churned.extend(watcher.stdout.readline().split()[1:])
                    loop.call_soon_threadsafe(bench.churned.set)

                threading.Thread(target=heard, daemon=True).start()
                await bench.run(base, urls["host"].rsplit("/", 1)[1], seat_urls)

            load = os.getloadavg()[0]
            cpu = cpu_seconds(server.pid)
            asyncio.run(measure())
            cpu = cpu_seconds(server.pid) - cpu
            load = max(load, os.getloadavg()[0])
            memory = memory_mb(server.pid)
            spectators, _ = watcher.communicate(timeout=60)  # closing its stdin ends it
            bench.reveal_ms = bench.reveal_times(json.loads(spectators), watching)
            pages = asyncio.run(pages_per_game(base, urls["host"].rsplit("/", 1)[1]))
        finally:
            server.terminate()
            server.wait(timeout=10)
    figures = {
        "game": game, "clients": clients, "answers": len(bench.ack_ms), "reveals": len(bench.reveal_ms),
        "ack_p50_ms": percentile(bench.ack_ms, 0.5), "ack_p99_ms": percentile(bench.ack_ms, 0.99),
        "reveal_p50_ms": percentile(bench.reveal_ms, 0.5), "reveal_p99_ms": percentile(bench.reveal_ms, 0.99),
        "server_peak_mb": memory, "server_cpu_s": cpu,
        "server_cpu_per_answer_ms": cpu * 1000 / max(1, len(bench.ack_ms)), "load_average": load,
        "comings": int(churned[0]) if churned else 0, "comings_s": float(churned[1]) if churned else float("nan"),
        "disk_sync_p50_ms": percentile(disk, 0.5), "disk_sync_p99_ms": percentile(disk, 0.99),
        "pages": pages,
    }
    goal = "10" if clients <= 6 else "50"
    print(f"phones bench: {clients} phones ({len(seats)} seats playing random games of {game}, "
          f"{clients - len(seats)} spectators in a process of their own) against companion serve")
    print(f"  answers acknowledged       {figures['answers']}")
    print(f"  spectators came and went   {figures['comings']} connects and closes in {figures['comings_s']:.1f} s, "
          f"during the answers")
    churn_goal = "; < 20 ms with the comings and goings" if figures["comings"] and clients > 6 else ""
    print(f"  answer -> ack              p50 {figures['ack_p50_ms']:.2f} ms   p99 {figures['ack_p99_ms']:.2f} ms "
          f"(goal p99 < {goal} ms{churn_goal})")
    print(f"  last ballot -> every phone p50 {figures['reveal_p50_ms']:.2f} ms   "
          f"p99 {figures['reveal_p99_ms']:.2f} ms over {figures['reveals']} reveals (goal p99 < {goal} ms)")
    print(f"  the save file's disk       fdatasync p50 {figures['disk_sync_p50_ms']:.2f} ms   "
          f"p99 {figures['disk_sync_p99_ms']:.2f} ms, measured before the run (an answer is acknowledged once "
          f"a sync has put it on disk: the ack's floor)")
    print(f"  server peak memory         {figures['server_peak_mb']:.1f} MB (goal < 100 MB)")
    print(f"  server CPU per answer      {figures['server_cpu_per_answer_ms']:.2f} ms ({figures['server_cpu_s']:.2f} s "
          f"for the whole run, spectators' boards and comings and goings included)")
    print(f"  machine load average       {figures['load_average']:.2f} (1 min, the higher of start and end: other "
          f"work on the machine slows the latencies above, the CPU time less)")
    print_pages(pages)
    if len(bench.reveal_ms) < 3:
        print(f"  (only {len(bench.reveal_ms)} reveals measured: give more --answers)")
    return figures


if __name__ == "__main__":
    spectators_main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 0)
