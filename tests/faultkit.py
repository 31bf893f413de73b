"""A real `companion serve` in its own process, and raw WebSocket clients for it (the fault tests)."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import aiohttp

REPO = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
FOUR = ["red", "blue", "yellow", "green"]


class Serve:
    """`companion serve` on loopback (port 0), or wrapped in tests/faultns.py inside `unshare -rm`."""

    def __init__(self, db: Path | str, *args: str, players: list[str] | None = FOUR, wrap: list[str] = (),
                 port: int = 0, env: dict[str, str] | None = None):
        # No grace before a reveal unless a test gives one: these tests answer the next question at once.
        command = ["--db", str(db), "--host", "127.0.0.1", "--port", str(port), "--no-qr", "--reveal-grace", "0"]
        if players:
            command += ["--players", ",".join(players)]
        command += list(args)
        if wrap:
            argv = [*wrap, "--", *command]
        else:
            argv = [sys.executable, "-m", "companion", "serve", *command]
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, env={**ENV, **(env or {})}, cwd=REPO)
        self.lines: list[str] = []
        self.urls: dict[str, str] = {}
        self.stderr = ""

    def ready(self, seats: int = 4) -> Serve:
        """Read what serve prints until the host, watch and seat links are all there."""
        while "host" not in self.urls or "watch" not in self.urls or \
                sum(k.startswith("seat:") for k in self.urls) < seats:
            line = self.readline()
            assert line, f"serve stopped: {self.finish()}"
            words = line.split()
            if words and words[0] in ("host", "watch"):
                self.urls[words[0]] = words[1]
            elif words and words[0] == "seat":
                self.urls[f"seat:{words[1]}"] = words[2]
        return self

    def readline(self) -> str:
        line = self.process.stdout.readline()
        if line:
            self.lines.append(line.rstrip("\n"))
        return line

    def wait_for_line(self, start: str) -> str:
        while True:
            line = self.readline()
            assert line, f"serve stopped before saying {start!r}: {self.finish()}"
            if line.startswith(start):
                return line.rstrip("\n")

    def command(self, text: str) -> str:
        """A command to tests/faultns.py; its answer line ("stop" has none)."""
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()
        return "" if text == "stop" else self.wait_for_line("#")

    @property
    def base(self) -> str:
        return self.urls["host"].split("/h/")[0]

    @property
    def port(self) -> int:
        return int(self.base.rsplit(":", 1)[1])

    def token(self, who: str) -> str:
        url = self.urls["host" if who == "host" else "watch" if who == "watch" else f"seat:{who}"]
        return url.rsplit("/", 1)[1]

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.finish()

    def finish(self) -> str | int:
        try:
            _, self.stderr = self.process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, self.stderr = self.process.communicate()
        return self.process.returncode

    def __enter__(self) -> Serve:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def exits(process: Serve, timeout: float = 30) -> tuple[int, str]:
    """A serve that must stop by itself: its exit code and its stderr."""
    try:
        _, stderr = process.process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.process.kill()
        raise AssertionError("serve did not stop") from None
    return process.process.returncode, stderr


def namespaces_work() -> bool:
    """Can this machine give a test a private mount namespace (to mount a tmpfs or a read-only folder)?"""
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                           capture_output=True)
    return probe.returncode == 0


def in_namespace(*args: str) -> list[str]:
    return ["unshare", "-rm", sys.executable, str(Path(__file__).with_name("faultns.py")), *args]


class Phone:
    """A raw WebSocket client of a real serve: every message it received is kept."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse):
        self.ws = ws
        self.received: list[dict] = []
        self.closed: int | None = None

    @classmethod
    async def open(cls, session: aiohttp.ClientSession, serve: Serve, who: str, device: str | None = None,
                   first: str | None = "state", **options) -> Phone:
        query = f"?device={device}" if device else ""
        phone = cls(await session.ws_connect(f"{serve.base}/ws/{serve.token(who)}{query}", **options))
        if first:
            await phone.expect(first)
        return phone

    async def send(self, **message) -> None:
        await self.ws.send_str(json.dumps({"v": 1, **message}))

    async def expect(self, kind: str, timeout: float = 10, where=None) -> dict:
        """The next message of this kind (that `where` accepts); the others are kept in `received`."""
        async def wait() -> dict:
            while True:
                message = await self.ws.receive()
                if message.type != aiohttp.WSMsgType.TEXT:
                    self.closed = self.ws.close_code
                    raise AssertionError(f"the socket closed ({self.ws.close_code}) while waiting for {kind}")
                data = json.loads(message.data)
                self.received.append(data)
                if data.get("type") == kind and (where is None or where(data)):
                    return data
        return await asyncio.wait_for(wait(), timeout)

    async def seen_or_expect(self, kind: str, timeout: float = 10, where=None) -> dict:
        """A message of this kind already received (that `where` accepts), or the next one."""
        for message in self.received:
            if message.get("type") == kind and (where is None or where(message)):
                return message
        return await self.expect(kind, timeout, where)

    async def closes(self, timeout: float = 10) -> int:
        """Read until the server closes the socket; the code in its close frame (what a browser reports: the
        server closes the connection right after its frame, so aiohttp's own close_code may say 1006)."""
        async def wait() -> int:
            while True:
                message = await self.ws.receive()
                if message.type == aiohttp.WSMsgType.TEXT:
                    self.received.append(json.loads(message.data))
                    continue
                return message.data if message.type == aiohttp.WSMsgType.CLOSE else self.ws.close_code
        self.closed = await asyncio.wait_for(wait(), timeout)
        return self.closed

    async def quiet(self, seconds: float) -> list[dict]:
        """What arrives in the next `seconds`."""
        got: list[dict] = []
        try:
            async with asyncio.timeout(seconds):
                while True:
                    message = await self.ws.receive()
                    if message.type != aiohttp.WSMsgType.TEXT:
                        break
                    got.append(json.loads(message.data))
        except TimeoutError:
            pass
        self.received += got
        return got

    def last(self, kind: str) -> dict:
        return [m for m in self.received if m.get("type") == kind][-1]


def device() -> str:
    return secrets.token_hex(16)


def build_shim(folder: Path) -> Path:
    """tests/faultshim.c built with the system's C compiler (the LD_PRELOAD shim of the storage fault tests)."""
    import pytest

    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        if os.environ.get("CI"):
            pytest.fail("no C compiler to build the fault shim (scripts/setup test should install gcc)")
        pytest.skip("no C compiler to build the fault shim")
    built = folder / "faultshim.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(built), str(REPO / "tests" / "faultshim.c"),
                    "-ldl"], check=True, capture_output=True)
    return built
