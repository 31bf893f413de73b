"""`companion doctor`: what a box needs, checked one by one, each with ok or the exact fix.

The display and its GL libraries, the touchscreen, the CJK font, the sound and the voice, the user's groups, the
GPIO header, the USB pad hub, an address the phones can reach, the free space and the save file. Every line is a
catalogue message (companion/locale/<lang>/doctor.po) in the reader's language; commands and paths are parameters.
"ok" is ready; "note" is something optional that is missing (no GPIO header: the phones and the USB hub still
work); "fix" needs doing, and says how. The exit status is 1 when a line says "fix".

The probes read the machine itself (/dev, /proc, the libraries, the commands on PATH); the folders are module names
so that the tests can point them at a made-up machine.
"""

from __future__ import annotations

import ctypes.util
import errno
import fcntl
import grp
import os
import pwd
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.contract import Message

DEV = Path("/dev")
PROC = Path("/proc")
# The groups whose devices a box uses, where the system has them: the display, the GPU, the touchscreen, the sound
# card, the GPIO header (Raspberry Pi OS), the USB pad hub.
GROUPS = ("video", "render", "input", "audio", "gpio", "dialout")
GL_LIBRARIES = {"EGL": "libegl1", "GLESv2": "libgles2", "GL": "libgl1", "gbm": "libgbm1"}
MIN_FREE_MB = 100
PROGRAM = "companion"  # the program's name, as commands and the process list write it
ABS_MT_POSITION_X = 0x35
BTN_TOUCH = 0x14A
find_library: Callable[[str], str | None] = ctypes.util.find_library
which: Callable[[str], str | None] = shutil.which


@dataclass(frozen=True)
class Finding:
    check: str  # "display", "gl", ...: its label is doctor.check.<check>
    status: str  # "ok" | "note" | "fix"
    message: Message


def _ok(check: str, key: str, **params) -> Finding:
    return Finding(check, "ok", Message(f"doctor.{key}", params))


def _note(check: str, key: str, **params) -> Finding:
    return Finding(check, "note", Message(f"doctor.{key}", params))


def _fix(check: str, key: str, **params) -> Finding:
    return Finding(check, "fix", Message(f"doctor.{key}", params))


def _user() -> str:
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return str(os.geteuid())


def _usable(path: Path) -> bool:
    return os.access(path, os.R_OK | os.W_OK)


def _group_fix(check: str, device: Path) -> Finding:
    """A device this user cannot open: the group that owns it, added to the user."""
    try:
        group = grp.getgrgid(device.stat().st_gid).gr_name
    except (KeyError, OSError):
        group = "root"
    if group == "root":
        return _fix(check, "device.root", device=str(device), root="root", udev="udev", program=PROGRAM)
    return _fix(check, "device.group", device=str(device), user=_user(), command=f"sudo usermod -aG {group} {_user()}")


# --- the checks ------------------------------------------------------------------------------------------------


def check_display() -> Finding:
    if os.environ.get("WAYLAND_DISPLAY") or os.environ.get("DISPLAY"):
        return _ok("display", "display.desktop", display=os.environ.get("WAYLAND_DISPLAY") or os.environ["DISPLAY"])
    cards = sorted((DEV / "dri").glob("card*"))
    if not cards:
        return _fix("display", "display.none", folder=str(DEV / "dri"), setting="dtoverlay=vc4-kms-v3d",
                    file="/boot/firmware/config.txt")
    usable = [card for card in cards if _usable(card)]
    if not usable:
        return _group_fix("display", cards[0])
    return _ok("display", "display.kmsdrm", driver="KMS/DRM", device=str(usable[0]))


def check_gl() -> Finding:
    missing = [name for name in GL_LIBRARIES if not find_library(name)]
    if missing:
        packages = " ".join(GL_LIBRARIES[name] for name in missing)
        if "GL" in missing or "EGL" in missing:
            packages += " libgl1-mesa-dri"
        return _fix("gl", "gl.missing", libraries=", ".join(f"lib{name}" for name in missing),
                    command=f"sudo apt install {packages}")
    return _ok("gl", "gl.ok", libraries=", ".join(f"lib{name}" for name in GL_LIBRARIES))


def _bits(words: str, bit: int) -> bool:
    """Whether a /proc/bus/input/devices bitmap ("B: ABS=...") has `bit`, read with 64- or 32-bit words."""
    parts = words.split()
    for width in (64, 32):
        value = 0
        for part in parts:
            value = (value << width) | int(part, 16)
        if value >> bit & 1:
            return True
    return False


def touchscreens() -> list[tuple[str, Path]]:
    """(name, /dev/input/eventN) of every input device that reports touches."""
    try:
        text = (PROC / "bus" / "input" / "devices").read_text(errors="replace")
    except OSError:
        return []
    found = []
    for block in text.split("\n\n"):
        name, handlers, touch = "", [], False
        for line in block.splitlines():
            if line.startswith("N: Name="):
                name = line.split("=", 1)[1].strip().strip('"')
            elif line.startswith("H: Handlers="):
                handlers = line.split("=", 1)[1].split()
            elif line.startswith("B: ABS="):
                touch = touch or _bits(line.split("=", 1)[1], ABS_MT_POSITION_X)
            elif line.startswith("B: KEY="):
                touch = touch or _bits(line.split("=", 1)[1], BTN_TOUCH)
        events = [handler for handler in handlers if handler.startswith("event")]
        if touch and events:
            found.append((name, DEV / "input" / events[0]))
    return found


def check_touch() -> Finding:
    if not find_library("mtdev"):
        return _fix("touch", "touch.mtdev", library="libmtdev", command="sudo apt install libmtdev1")
    screens = touchscreens()
    if not screens:
        return _fix("touch", "touch.none")
    name, device = screens[0]
    if not _usable(device):
        return _group_fix("touch", device)
    return _ok("touch", "touch.ok", name=name, device=str(device))


def check_font() -> Finding:
    from companion.ui.fonts import CJK_FILES

    for path in CJK_FILES:
        if Path(path).is_file():
            return _ok("font", "font.ok", path=path)
    return _fix("font", "font.missing", command="sudo apt install fonts-noto-cjk")


def check_sound() -> Finding:
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        for name in ("pipewire-0", "pulse/native"):
            if (Path(runtime) / name).exists():
                return _ok("sound", "sound.server", server=name.split("/")[0])
    outputs = sorted((DEV / "snd").glob("pcmC*D*p"))
    if not outputs:
        return _note("sound", "sound.none")
    usable = [device for device in outputs if _usable(device)]
    if not usable:
        return _group_fix("sound", outputs[0])
    return _ok("sound", "sound.ok", device=str(usable[0]))


def check_voice() -> Finding:
    found = which("espeak-ng")
    if found is None:
        return _fix("voice", "voice.missing", program="espeak-ng", command="sudo apt install espeak-ng")
    return _ok("voice", "voice.ok", program="espeak-ng", path=found)


def check_groups() -> Finding:
    if os.geteuid() == 0:
        return _ok("groups", "groups.root", user="root")
    mine = {grp.getgrgid(gid).gr_name for gid in os.getgroups() if _has_gid(gid)}
    wanted = [name for name in GROUPS if _group_exists(name)]
    missing = [name for name in wanted if name not in mine]
    if missing:
        return _fix("groups", "groups.missing", groups=", ".join(missing),
                    command=f"sudo usermod -aG {','.join(missing)} {_user()}")
    return _ok("groups", "groups.ok", groups=", ".join(wanted))


def _has_gid(gid: int) -> bool:
    try:
        grp.getgrgid(gid)
    except KeyError:
        return False
    return True


def _group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True


def check_gpio() -> Finding:
    chips = sorted(DEV.glob("gpiochip*"))
    if not chips:
        return _note("gpio", "gpio.none")
    usable = [chip for chip in chips if _usable(chip)]
    if not usable:
        return _group_fix("gpio", chips[0])
    import importlib.util

    if importlib.util.find_spec("lgpio") is None:
        return _fix("gpio", "gpio.lgpio", library="lgpio (gpiozero)", command=f"{sys.executable} -m pip install lgpio")
    return _ok("gpio", "gpio.ok", device=str(usable[0]))


HUB_WAIT = 2.0  # seconds the hub has to answer SYNC with its HELLO
HELD_WAIT = 4.0  # seconds a running companion may still be waiting for the HELLO (it names the device at 3 s)


def _held_hub(port: str, db: Path | None) -> Finding:
    """The port is held (by the running companion, as a rule): what the holder published of the device on it."""
    import time

    from companion.pads import hub_state, protocol
    from companion.pads.serial import HELLO_DEADLINE

    deadline = time.monotonic() + HELD_WAIT
    state = hub_state.read(port, db)
    while state is not None and state.state == hub_state.WAITING and time.monotonic() < deadline:
        time.sleep(0.2)  # the port has just been opened: the holder will know within seconds
        state = hub_state.read(port, db)
    if state is None or state.state == hub_state.WAITING:  # nothing trustworthy: a stale file is no answer
        return _note("hub", "hub.busy_unknown", port=port, program=PROGRAM)
    if state.state == hub_state.HUB:
        return _ok("hub", "hub.held", port=port, version=state.version, pads=state.pads, program=PROGRAM,
                   pid=state.pid)
    if state.version is not None:
        return _fix("hub", "hub.version", port=port, version=state.version, program=PROGRAM,
                    speaks=f"{protocol.PROTOCOL_MAJOR}.x", folder="hardware/pad/")
    return _fix("hub", "hub.not_a_hub", port=port, hello="HELLO", seconds=round(HELLO_DEADLINE),
                folder="hardware/pad/", readme="hardware/README.md")


def check_hub(db: Path | None = None) -> Finding:
    """The hub is found by its USB id, then asked to say HELLO: another program on a Pico, or a hub of another
    protocol, is named here rather than found out mid-game. While a running companion holds the port, what it
    published of the device is read instead (companion/pads/hub_state.py)."""
    from companion.pads import protocol
    from companion.pads.serial import PICO_USB_ID, find_hub, probe_hub

    port = find_hub()
    if port is None:
        vid, pid = PICO_USB_ID
        return _note("hub", "hub.none", usb_id=f"{vid:04X}:{pid:04X}")
    if not _usable(Path(port)):
        return _group_fix("hub", Path(port))
    heard, said = probe_hub(port, HUB_WAIT)
    if heard == "hello":
        return _ok("hub", "hub.hello", port=port, version=said.version, pads=said.pads)
    if heard == "busy":
        return _held_hub(port, db)
    if heard == "version":
        return _fix("hub", "hub.version", port=port, version=said, program=PROGRAM,
                    speaks=f"{protocol.PROTOCOL_MAJOR}.x", folder="hardware/pad/")
    return _fix("hub", "hub.not_a_hub", port=port, hello="HELLO", seconds=round(HUB_WAIT), folder="hardware/pad/",
                readme="hardware/README.md")


def check_network(port: int = 8080) -> Finding:
    from companion.web.lan import lan_addresses

    reachable = [ip for ip in lan_addresses() if not ip.startswith(("127.", "169.254."))]
    if not reachable:
        return _fix("network", "network.none", join="sudo nmtui",
                    hotspot="sudo sh scripts/install-pi --hotspot \"Zombie table\"")
    return _ok("network", "network.ok", url=f"http://{reachable[0]}:{port}/")


def check_space(db: Path) -> Finding:
    folder = db.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    disk = os.statvfs(folder)
    free = disk.f_bavail * disk.f_frsize // (1024 * 1024)
    if free < MIN_FREE_MB:
        return _fix("space", "space.low", free=free, folder=str(folder), needed=MIN_FREE_MB, program=PROGRAM)
    return _ok("space", "space.ok", free=free, folder=str(folder))


def check_save(db: Path) -> Finding:
    from companion.store import EventStore, SaveDamaged, StoreError, _lock_holder

    if not db.exists():
        folder = db.parent
        if folder.exists() and not os.access(folder, os.W_OK | os.X_OK):
            return _fix("save", "save.folder", folder=str(folder), command=f"sudo chown {_user()} {folder}")
        return _ok("save", "save.new", path=str(db))
    try:
        fd = os.open(db, os.O_RDONLY | os.O_CLOEXEC)
    except OSError as error:
        if error.errno in (errno.EACCES, errno.EPERM):
            return _fix("save", "save.access", path=str(db), command=f"sudo chown {_user()} {db}")
        return _fix("save", "save.broken", path=str(db), error=error.strerror or str(error),
                    command=f"mv {db} {db}.old", program=PROGRAM)
    holder = None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            fcntl.flock(fd, fcntl.LOCK_UN)
        except OSError as error:
            if error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise
            holder = _lock_holder(fd) or 0
    finally:
        os.close(fd)
    try:
        with EventStore(db, readonly=True) as store:
            finished = len(store.history())
            unfinished = store.unfinished() is not None
    except SaveDamaged as error:  # salvage keeps what it still holds, into the file the box opens
        return _fix("save", "save.damaged", path=str(db), error=str(error),
                    command=f"mv {db} {db}.damaged && {PROGRAM} salvage --db {db}.damaged --to {db}", program=PROGRAM)
    except StoreError as error:  # not a save file of ours at all: put it aside
        return _fix("save", "save.broken", path=str(db), error=str(error), command=f"mv {db} {db}.old",
                    program=PROGRAM)
    if holder is not None:
        return _ok("save", "save.in_use", path=str(db), pid=holder or "?", count=finished, program=PROGRAM)
    return _ok("save", "save.unfinished" if unfinished else "save.ok", path=str(db), count=finished)


def diagnose(db: Path, port: int = 8080) -> list[Finding]:
    checks: list[tuple[str, Callable[[], Finding]]] = [
        ("display", check_display), ("gl", check_gl), ("touch", check_touch), ("font", check_font),
        ("sound", check_sound), ("voice", check_voice), ("groups", check_groups), ("gpio", check_gpio),
        ("hub", lambda: check_hub(db)), ("network", lambda: check_network(port)), ("space", lambda: check_space(db)),
        ("save", lambda: check_save(db))]
    findings = []
    for name, check in checks:
        try:
            findings.append(check())
        except OSError as error:  # a folder this user may not look into, a device that went away
            where = f"{error.filename}: " if error.filename else ""
            findings.append(_fix(name, "unchecked", error=f"{where}{error.strerror or error}", user=_user(),
                                 program=PROGRAM))
    return findings


def doctor(db: str | None = None, lang: str = "en", port: int = 8080, out=None) -> int:
    """Print every finding in `lang`; 1 if one of them needs a fix."""
    from companion.catalogue import catalogue

    if db is None:
        import platformdirs

        path = Path(platformdirs.user_data_dir("companion", appauthor=False)) / "companion.sqlite3"
    else:
        path = Path(db)
    out = out or sys.stdout
    words = catalogue()
    findings = diagnose(path, port)
    statuses = {status: words.text(Message(f"doctor.status.{status}"), lang) for status in ("ok", "note", "fix")}
    width = max(len(status) for status in statuses.values())
    for finding in findings:
        line = Message("doctor.line", {"status": statuses[finding.status].ljust(width),
                                       "check": Message(f"doctor.check.{finding.check}"), "text": finding.message})
        out.write(words.text(line, lang) + "\n")
    fixes = sum(finding.status == "fix" for finding in findings)
    out.write(words.text(Message("doctor.summary.fix" if fixes else "doctor.summary.ok", {"count": fixes}), lang)
              + "\n")
    return 1 if fixes else 0
