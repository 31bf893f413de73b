"""`companion serve` among strangers on a shared Wi-Fi: nobody without a token can stall the table, no input
reaches a traceback, and the page is small on the wire. Real sockets on loopback, a real serve process."""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import time

import aiohttp
from faultkit import Phone, Serve

# serve under the 1,024 descriptors systemd gives a unit by default (and a desktop session its programs)
UNDER_1024 = [sys.executable, "-c",
              "import os, resource, sys; resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024)); "
              "os.execv(sys.executable, [sys.executable, '-m', 'companion', 'serve', *sys.argv[2:]])"]
SLOW_REQUESTS = 1100
ATTACK_SECONDS = 20.0
DRIP = 3.0  # seconds between two bytes of a slow request's header


def tracebacks(text: str) -> int:
    return text.count("Traceback (most recent call last)")


def resource_errors(text: str) -> int:
    return sum("Too many open files" in line or "out of system resource" in line or "EMFILE" in line
               for line in text.splitlines())


async def slow_request(port: int, number: int, until: float, opened: list[int]) -> None:
    """A stranger's half-sent request, one header byte every DRIP seconds; closed by the server, it comes back
    (from its own address in 127.0.0.0/8) until the attack ends."""
    loop = asyncio.get_running_loop()
    address = f"127.0.0.{2 + number % 253}"
    header = b"GET / HTTP/1.1\r\nHost: table\r\nX-Slow: " + b"z" * 200
    while time.monotonic() < until:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.bind((address, 0))
            await asyncio.wait_for(loop.sock_connect(sock, ("127.0.0.1", port)), 3)
            opened[0] += 1
            for byte in header:
                await loop.sock_sendall(sock, bytes((byte,)))
                await asyncio.sleep(DRIP)
                if time.monotonic() >= until:
                    return
        except (TimeoutError, OSError):
            await asyncio.sleep(0.5)  # closed by the server, or not let in: try again in a moment
        finally:
            sock.close()


async def pong_seconds(serve: Serve, who: str) -> float:
    """An honest phone: its seat's real WebSocket, welcomed with its board, then a ping: seconds to the pong."""
    started = time.monotonic()
    timeout = aiohttp.ClientTimeout(total=5)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        phone = await Phone.open(session, serve, who)
        await phone.send(type="ping")
        await phone.expect("pong", timeout=5)
        await phone.ws.close()
    return time.monotonic() - started


def test_an_unfinished_request_is_closed_within_seconds_even_if_a_byte_trickles_in(tmp_path):
    from companion.web.guard import HEADER_TIMEOUT

    with Serve(tmp_path / "companion.sqlite3").ready() as serve, \
            socket.create_connection(("127.0.0.1", serve.port), timeout=1) as sock:
        started = time.monotonic()
        closed = None
        for byte in b"GET / HTTP/1.1\r\nHost: table\r\nX-Slow: " + b"z" * 30:
            try:
                sock.sendall(bytes((byte,)))
                if sock.recv(1) == b"":
                    closed = time.monotonic() - started
                    break
            except TimeoutError:
                continue  # a second without a word from the server: the next byte
            except OSError:
                closed = time.monotonic() - started
                break
        assert closed is not None and closed < HEADER_TIMEOUT + 3, closed


def test_a_thousand_slow_half_sent_requests_do_not_keep_an_honest_phone_from_its_pong(tmp_path):
    with Serve(tmp_path / "companion.sqlite3", wrap=UNDER_1024).ready() as serve:
        async def attack() -> tuple[list[float], float, int]:
            until = time.monotonic() + ATTACK_SECONDS
            opened = [0]
            strangers = [asyncio.ensure_future(slow_request(serve.port, n, until, opened))
                         for n in range(SLOW_REQUESTS)]
            during = []
            await asyncio.sleep(4)  # the strangers' connections are all open by now
            while time.monotonic() < until - 2:
                try:
                    during.append(await pong_seconds(serve, "red"))
                except (TimeoutError, aiohttp.ClientError, AssertionError):
                    during.append(float("inf"))
                await asyncio.sleep(1)
            await asyncio.gather(*strangers)
            after = await pong_seconds(serve, "blue")
            return during, after, opened[0]

        during, after, opened = asyncio.run(attack())
        assert opened >= SLOW_REQUESTS
        assert len(during) >= 5 and max(during) < 2, during  # throughout the attack
        assert after < 2
    log = serve.stderr
    assert tracebacks(log) <= 1, log[-3000:]
    assert resource_errors(log) <= 5, log[-3000:]


# -- no input of any kind reaches a traceback --------------------------------------------------------------

MALFORMED = {
    "a bad method": b"G@T / HTTP/1.1\r\nHost: table\r\n\r\n",
    "HTTP/9.9": b"GET / HTTP/9.9\r\nHost: table\r\n\r\n",
    "a 9 KB header line": b"GET / HTTP/1.1\r\nHost: table\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n",
    "no Host": b"GET / HTTP/1.1\r\n\r\n",
    "garbage": bytes(range(256)) * 2,
    "a TLS hello": b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 64,
}


def status_of(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(request)
        return sock.recv(64).split(b"\r\n")[0]


def test_a_burst_of_malformed_http_requests_gets_400s_and_no_traceback(tmp_path):
    with Serve(tmp_path / "companion.sqlite3").ready() as serve:
        for _ in range(150):
            for what, request in MALFORMED.items():
                assert status_of(serve.port, request).startswith(b"HTTP/1.0 400 "), what
        assert status_of(serve.port, b"GET / HTTP/1.1\r\nHost: table\r\n\r\n") == b"HTTP/1.1 200 OK"
    log = serve.stderr
    assert tracebacks(log) == 0, log[-3000:]
    said = [line for line in log.splitlines() if "malformed request" in line]
    assert 1 <= len(said) <= 3, log[-3000:]  # 900 requests in a few seconds: one short line per 5 s
    assert all(len(line) < 200 for line in said)


SURROGATE = "\ud800"  # sent as the JSON escape "\ud800": valid JSON, not valid Unicode


def lone(message: dict) -> str:
    return json.dumps({"v": 1, **message})  # ensure_ascii: the surrogate travels as its escape


def everywhere(value: object) -> list[object]:
    """`value` with each of its fields (at any depth) replaced, one at a time, by the lone surrogate."""
    if isinstance(value, dict):
        return [{**value, key: changed} for key, inner in value.items() for changed in everywhere(inner)] or [value]
    if isinstance(value, list):
        return [[*value[:i], changed, *value[i + 1:]] for i, inner in enumerate(value)
                for changed in everywhere(inner)] or [value]
    return [SURROGATE]


async def refused_and_open(phone: Phone, text: str) -> dict:
    await asyncio.sleep(0.1)  # two messages per tenth of a second: under the server's 20 a second per device
    await phone.ws.send_str(text)
    error = await phone.expect("error")
    await phone.send(type="ping")
    await phone.expect("pong")  # the socket is still open
    return error


def test_a_lone_surrogate_in_any_answer_field_or_new_game_option_of_every_game_gets_a_coded_refusal(tmp_path):
    from companion.games import GAMES

    with Serve(tmp_path / "companion.sqlite3").ready() as serve:
        async def play() -> int:
            sent = 0
            async with aiohttp.ClientSession() as session:
                host = await Phone.open(session, serve, "host")
                for name, game in GAMES.items():
                    setup = game.SETUP.to_json(name)
                    players = setup["colours"][:max(2, setup["min_players"])]
                    for option in setup["options"]:
                        for options in ({option["name"]: SURROGATE}, {SURROGATE: option["default"]},
                                        {option["name"]: [SURROGATE]}):
                            error = await refused_and_open(host, lone(
                                {"type": "new_game", "game": name, "players": players, "options": options}))
                            assert error["code"] == "bad_text", error
                            sent += 1
                    await host.send(type="new_game", game=name, players=players)
                    def started(m: dict, name: str = name, players: list[str] = players) -> bool:
                        return bool(m["view"]) and m["view"].get("game") == name \
                            and set(m["host"]["seats"]) == set(players)

                    state = await host.expect("state", where=started)
                    seat = next(s for s in players if state["host"]["questions"].get(s))
                    token = state["host"]["seats"][seat].rsplit("/", 1)[1]
                    ws = await session.ws_connect(f"{serve.base}/ws/{token}")
                    phone = Phone(ws)
                    view = (await phone.expect("state"))["view"]
                    question = view["question"]
                    action = question["choices"][0]["action"]
                    for changed in [*everywhere(action), {**action, SURROGATE: 1}]:
                        for asked in (view["prompt"]["id"], SURROGATE):
                            error = await refused_and_open(phone, lone(
                                {"type": "answer", "question": asked, "action": changed}))
                            assert error["code"] == "bad_text", error
                            json.dumps(error, ensure_ascii=False).encode("utf-8")  # nothing unencodable echoed
                            sent += 1
                    await ws.close()
                await host.ws.close()
            return sent

        sent = asyncio.run(play())
        assert sent > 40
    assert tracebacks(serve.stderr) == 0, serve.stderr[-3000:]


# -- the Wi-Fi password is on no command line ---------------------------------------------------------------

PASSWORD = "brains brains 42"


def wifi_qr(serve: Serve) -> str:
    async def get() -> str:
        async with aiohttp.ClientSession() as session, \
                session.get(f"{serve.base}/qr/{serve.token('host')}/wifi.svg") as response:
            assert response.status == 200
            return await response.text()
    return asyncio.run(get())


def test_the_wifi_password_comes_from_the_environment_or_a_private_file_never_the_command_line(tmp_path):
    from companion.web import qr

    expected = qr.svg(qr.wifi("Zombie table", PASSWORD))
    with Serve(tmp_path / "env.sqlite3", "--wifi-ssid=Zombie table",
               env={"COMPANION_WIFI_PASSWORD": PASSWORD}).ready() as serve:
        command_line = open(f"/proc/{serve.process.pid}/cmdline", "rb").read()
        assert b"Zombie table" in command_line and PASSWORD.encode() not in command_line
        assert wifi_qr(serve) == expected  # the join screen's QR code holds it all the same
    secret = tmp_path / "wifi-password"
    secret.write_text(PASSWORD + "\n")
    secret.chmod(0o600)
    with Serve(tmp_path / "file.sqlite3", "--wifi-ssid=Zombie table", f"--wifi-password-file={secret}").ready() \
            as serve:
        assert PASSWORD.encode() not in open(f"/proc/{serve.process.pid}/cmdline", "rb").read()
        assert wifi_qr(serve) == expected


def cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # clock ticks: 100 a second on Linux


def test_running_out_of_descriptors_is_said_once_and_does_not_spin(tmp_path):
    """serve under 64 descriptors, filled with watching sockets (a spectator link's 256 and 32 per address are
    more than it has): every accept fails with EMFILE, asyncio retries once a second; that is one line in the
    log, no traceback, the CPU idle; when the watchers leave, a phone plays again."""
    wrap = [*UNDER_1024[:2], UNDER_1024[2].replace("(1024, 1024)", "(64, 64)")]
    with Serve(tmp_path / "companion.sqlite3", wrap=wrap).ready() as serve:
        async def fill() -> tuple[int, float]:
            sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(f"127.0.0.{2 + k}", 0),
                                                                             limit=0),
                                              timeout=aiohttp.ClientTimeout(total=2)) for k in range(4)]
            watchers = []
            for n in range(100):
                try:
                    watchers.append(await sessions[n % 4].ws_connect(f"{serve.base}/ws/{serve.token('watch')}"))
                except (TimeoutError, aiohttp.ClientError):
                    break
            cpu, started = cpu_seconds(serve.process.pid), time.monotonic()
            knocks = [asyncio.ensure_future(sessions[k % 4].get(f"{serve.base}/")) for k in range(20)]
            await asyncio.wait(knocks, timeout=8)  # they wait in the kernel's backlog, the server out of room
            busy = (cpu_seconds(serve.process.pid) - cpu) / (time.monotonic() - started)
            for knock in knocks:
                knock.cancel()
            await asyncio.wait([asyncio.ensure_future(ws.close()) for ws in watchers], timeout=5)
            for session in sessions:
                await session.close()
            return len(watchers), busy

        watchers, busy = asyncio.run(fill())
        assert watchers < 64
        assert busy < 0.5  # no spinning on accept (a busy loop would be 1.0)
        assert asyncio.run(pong_seconds(serve, "red")) < 2
    log = serve.stderr
    assert tracebacks(log) == 0, log[-3000:]
    assert 1 <= resource_errors(log) <= 2, log[-3000:]


# -- a page that loads on a weak Wi-Fi ----------------------------------------------------------------------


def fetch(serve: Serve, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """The raw response: aiohttp's client would undo the gzip (auto_decompress=False keeps it)."""
    async def get() -> tuple[int, dict[str, str], bytes]:
        async with aiohttp.ClientSession(auto_decompress=False, skip_auto_headers=["Accept-Encoding"]) as session, \
                session.get(serve.base + path, headers=headers) as response:
            return response.status, response.headers.copy(), await response.read()
    return asyncio.run(get())


def test_the_pages_files_go_gzipped_to_a_phone_that_takes_gzip_and_as_they_are_to_one_that_does_not(tmp_path):
    import gzip

    from companion.web.assets import slim_css, slim_js
    from companion.web.server import STATIC

    with Serve(tmp_path / "companion.sqlite3").ready() as serve:
        for name, slim in (("app.js", slim_js), ("style.css", slim_css), ("parts.js", slim_js),
                           ("parts.css", slim_css)):
            small = slim((STATIC / name).read_text()).encode()
            assert len(small) < 0.9 * (STATIC / name).stat().st_size  # comments and blanks left out
            status, headers, body = fetch(serve, f"/static/{name}", **{"Accept-Encoding": "gzip, deflate"})
            assert status == 200 and headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in headers["Vary"]
            assert gzip.decompress(body) == small and len(body) < len(small) / 2
            status, headers, body = fetch(serve, f"/static/{name}")
            assert status == 200 and "Content-Encoding" not in headers and body == small
            status, headers, body = fetch(serve, f"/static/{name}", **{"Accept-Encoding": "gzip;q=0"})
            assert "Content-Encoding" not in headers and body == small
        status, headers, body = fetch(serve, f"/s/{serve.token('red')}", **{"Accept-Encoding": "gzip"})
        assert headers["Content-Encoding"] == "gzip" and b"<script" in gzip.decompress(body)
        assert "default-src 'none'" in headers["Content-Security-Policy"]  # the page keeps its policy


def test_a_rejoining_phone_gets_304_for_every_file_it_kept_and_a_changed_one_anew(tmp_path):
    with Serve(tmp_path / "companion.sqlite3").ready() as serve:
        for path in (f"/s/{serve.token('red')}", "/static/app.js", "/static/parts.css",
                     "/static/manifest.json", "/static/icon.svg", "/i18n/vi.json"):
            status, headers, _ = fetch(serve, path, **{"Accept-Encoding": "gzip"})
            assert status == 200 and headers["Cache-Control"] == "no-cache", path  # kept, asked about again
            etag = headers["ETag"]
            status, again, body = fetch(serve, path, **{"Accept-Encoding": "gzip", "If-None-Match": etag})
            assert status == 304 and body == b"" and again["ETag"] == etag, path
            status, _, body = fetch(serve, path, **{"If-None-Match": '"not-that-one"'})
            assert status == 200 and body, path
        assert fetch(serve, "/static/nope.js")[0] == 404


def test_the_page_on_the_wire_is_at_most_25_kb_for_every_game_and_nothing_anew_on_rejoining(tmp_path):
    from companion.bench.phones import PAGE_GOAL, pages_per_game
    from companion.games import GAMES

    with Serve(tmp_path / "companion.sqlite3").ready() as serve:
        figures = asyncio.run(pages_per_game(serve.base, serve.token("host")))
    assert set(figures) == set(GAMES)
    for game, page in figures.items():
        assert page["responses"] == 5, game  # the document, its styles and its scripts (bundles), manifest, icon
        assert page["page_bytes"] <= PAGE_GOAL, (game, page)
        assert page["rejoin_304"] == page["rejoin_requests"], (game, page)  # the words too
        assert page["rejoin_bytes"] < 4096, (game, page)
