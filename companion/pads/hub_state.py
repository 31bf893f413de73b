"""What is on the pad hub's port, published by the process that holds it, for `companion doctor` to read.

The companion opens the port exclusively, so while it runs doctor cannot ask the device for its HELLO itself; the
reader thread writes the device's state here instead (a small JSON file, replaced whole at each change, removed
when the port closes). A file is trusted only while the process that wrote it is alive and is still that process
(its start time in /proc): a file left by a power cut or a crash says nothing.

Where: $XDG_RUNTIME_DIR, else /run/companion (a unit's RuntimeDirectory=) when writable, else the save file's
folder. doctor also looks in /run/user/<its uid>, which is the companion's $XDG_RUNTIME_DIR when doctor runs as the
companion's user through sudo (which clears $XDG_RUNTIME_DIR).
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass
from pathlib import Path

log = logging.getLogger("companion.pads.hub_state")

RUN_DIR = Path("/run/companion")
USER_RUN = Path("/run/user")
PROC = Path("/proc")

WAITING, HUB, NOT_A_HUB = "waiting", "hub", "not_a_hub"  # port open and no HELLO yet; said HELLO; no HELLO in time


@dataclass(frozen=True)
class HubState:
    port: str
    state: str  # WAITING | HUB | NOT_A_HUB
    version: str | None = None  # the hub's protocol version, or the other protocol's a device said
    pads: int | None = None
    boot: str | None = None
    pid: int = 0
    started: str | None = None  # the writer's start time in /proc/<pid>/stat: a reused pid is another process


def file_name(port: str) -> str:
    """One file per port: /dev/ttyACM0 -> companion-hub-dev-ttyACM0.json."""
    return f"companion-hub-{port.strip('/').replace('/', '-')}.json"


def process_start(pid: int) -> str | None:
    """Field 22 of /proc/<pid>/stat (ticks since boot), or None where there is no /proc."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[-1].split()[19]  # after the command's name, which may hold spaces and ')'


def _alive(state: HubState) -> bool:
    try:
        os.kill(state.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        pass
    except (OverflowError, ValueError):
        return False
    now = process_start(state.pid)
    return state.started is None or now is None or now == state.started


def _writable(folder: Path) -> bool:
    return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)


def publish_folder(save: Path | None) -> Path | None:
    """Where this process writes: the first writable of the runtime dirs and the save file's folder."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    for folder in (Path(runtime) if runtime else None, RUN_DIR, save.parent if save else None):
        if folder is not None and _writable(folder):
            return folder
    return None


def read_folders(save: Path | None) -> list[Path]:
    """Where doctor looks, the writer's places first."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    folders = [Path(runtime) if runtime else None, USER_RUN / str(os.geteuid()), RUN_DIR,
               save.parent if save else None]
    return list(dict.fromkeys(folder for folder in folders if folder is not None))


class Publisher:
    """The reader thread's: the port's state written whenever it changes, removed when the port closes."""

    def __init__(self, save: Path | None):
        self.save = save
        self._path: Path | None = None
        self._last: HubState | None = None
        self._started = process_start(os.getpid())
        self._failed = False

    def publish(self, port: str, state: str, version: str | None = None, pads: int | None = None,
                boot: str | None = None) -> None:
        said = HubState(port, state, version, pads, boot, os.getpid(), self._started)
        if said == self._last:
            return
        folder = publish_folder(self.save)
        if folder is None:
            return
        path = folder / file_name(port)
        if self._path is not None and self._path != path:
            self.withdraw()
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        try:
            temporary.write_text(json.dumps(asdict(said)))
            os.chmod(temporary, 0o644)  # doctor may run as another user
            os.replace(temporary, path)  # whole or not at all: doctor never reads half a file
        except OSError as error:
            if not self._failed:  # the pads work on without it; said once
                log.warning("could not publish the pad hub's state in %s: %s", folder, error)
                self._failed = True
            return
        self._path, self._last = path, said

    def withdraw(self) -> None:
        if self._path is not None:
            try:
                self._path.unlink()
            except OSError:
                pass
        self._path, self._last = None, None


def read(port: str, save: Path | None) -> HubState | None:
    """The state the live holder of `port` published, or None (no file, a dead writer's, or unreadable)."""
    for folder in read_folders(save):
        try:
            data = json.loads((folder / file_name(port)).read_text())
            state = HubState(**data)
        except (OSError, ValueError, TypeError):
            continue
        if state.port == port and isinstance(state.pid, int) and state.pid > 0 and _alive(state):
            return state
    return None
