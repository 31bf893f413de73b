"""`companion doctor`: on this machine as it is, then with each check made to fail — by the environment (PATH,
DISPLAY), temporary /dev and /proc trees, another user (setpriv to nobody), a network namespace of its own
(unshare: no network), a private mount namespace (a 2 MB disk), a save file held by a running store or not a save
file at all; only the probes that read hardware this machine lacks (GL libraries, the USB pad hub's id) are
replaced at the edge. Where this machine cannot make a namespace (a chroot), its test is skipped and says why."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from companion import doctor
from companion.catalogue import LANGUAGES, catalogue
from companion.contract import Message
from companion.store import EventStore

CHECKS = ["display", "gl", "touch", "font", "sound", "voice", "groups", "gpio", "hub", "network", "space", "save"]
ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="needs root (setpriv to another user, unshare)")


def _run(*args: str, env: dict | None = None, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    return subprocess.run([*prefix, sys.executable, "-m", "companion", "doctor", *args], capture_output=True,
                          text=True, env={**os.environ, **(env or {})}, cwd=Path(__file__).resolve().parents[1])


def _lines(out: str, lang: str = "en") -> dict[str, tuple[str, str]]:
    """{check: (status, text)} from the doctor's output in `lang`."""
    words = catalogue()
    labels = {words.text(Message(f"doctor.check.{check}"), lang): check for check in CHECKS}
    statuses = {words.text(Message(f"doctor.status.{s}"), lang): s for s in ("ok", "note", "fix")}
    found = {}
    for line in out.splitlines()[:-1]:
        status = next(s for word, s in statuses.items() if line.startswith(word + " "))
        rest = line[len(next(w for w, s in statuses.items() if s == status)):].strip()
        label = next(label for label in labels if rest.startswith(label + ":") or rest.startswith(label + "："))
        found[labels[label]] = (status, rest[len(label) + 1:].strip())
    return found


def test_this_machine_as_it_is(tmp_path):
    db = tmp_path / "box.sqlite3"
    done = _run("--db", str(db))
    found = _lines(done.stdout)
    assert list(found) == CHECKS, done.stdout
    fixes = [check for check, (status, _text) in found.items() if status == "fix"]
    assert done.returncode == (1 if fixes else 0)
    assert done.stdout.splitlines()[-1] == (f"{len(fixes)} thing{'s' if len(fixes) != 1 else ''} to fix (the lines "
                                            "marked fix)." if fixes else "Everything the box needs is there.")
    # What this machine has, said as it is.
    cjk = next((path for path in ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",) if Path(path).is_file()),
               None)
    assert found["font"] == (("ok", cjk) if cjk else ("fix", found["font"][1]))
    espeak = shutil.which("espeak-ng")
    assert found["voice"][0] == ("ok" if espeak else "fix")
    cards = list(Path("/dev/dri").glob("card*")) if Path("/dev/dri").is_dir() else []
    if not cards and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        assert found["display"][0] == "fix" and "dtoverlay=vc4-kms-v3d" in found["display"][1]
    if not list(Path("/dev").glob("gpiochip*")):
        assert found["gpio"][0] == "note"
    assert found["save"] == ("ok", f"{db} (made at the first game)")
    assert not db.exists()  # the doctor only looks
    if os.geteuid() == 0:
        assert found["groups"] == ("ok", "running as root: every device opens")


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_line_in_every_language(tmp_path, lang):
    out = io.StringIO()
    doctor.doctor(str(tmp_path / "x.sqlite3"), lang, out=out)
    text = out.getvalue()
    assert "doctor." not in text and "{" not in text, text
    assert list(_lines(text, lang)) == CHECKS


def _one(check, *args) -> tuple[str, str]:
    finding = check(*args)
    return finding.status, catalogue().text(finding.message)


def test_display_none_a_card_and_a_desktop(tmp_path, monkeypatch):
    monkeypatch.setattr(doctor, "DEV", tmp_path)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    status, text = _one(doctor.check_display)
    assert status == "fix" and f"{tmp_path}/dri has no card" in text and "/boot/firmware/config.txt" in text
    (tmp_path / "dri").mkdir()
    (tmp_path / "dri" / "card1").touch()
    assert _one(doctor.check_display) == ("ok", f"KMS/DRM on {tmp_path}/dri/card1 (full screen, no desktop)")
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-1")
    assert _one(doctor.check_display) == ("ok", "the desktop's display wayland-1")


def test_gl_libraries_missing(monkeypatch):
    real = doctor.find_library
    monkeypatch.setattr(doctor, "find_library", lambda name: None if name in ("EGL", "gbm") else real(name))
    status, text = _one(doctor.check_gl)
    assert status == "fix"
    assert text == "libEGL, libgbm missing: sudo apt install libegl1 libgbm1 libgl1-mesa-dri"


FT5406 = """I: Bus=0019 Vendor=0001 Product=0001 Version=0100
N: Name="gpio_keys"
H: Handlers=kbd event0
B: KEY=1 0 0 0

I: Bus=0000 Vendor=0000 Product=0000 Version=0000
N: Name="raspberrypi-ts"
P: Phys=raspberrypi-ts/input0
H: Handlers=mouse0 event{n}
B: EV=b
B: KEY=400 0 0 0 0 0 0 0 0 0 0
B: ABS=2608000 3
"""


def test_touch_none_found_then_the_official_display(tmp_path, monkeypatch):
    monkeypatch.setattr(doctor, "DEV", tmp_path)
    monkeypatch.setattr(doctor, "PROC", tmp_path)
    (tmp_path / "bus" / "input").mkdir(parents=True)
    devices = tmp_path / "bus" / "input" / "devices"
    devices.write_text(FT5406.split("\n\n")[0] + "\n")  # a keyboard only
    status, text = _one(doctor.check_touch)
    if doctor.find_library("mtdev") is None:
        assert (status, text) == ("fix", "the touch library libmtdev is missing: sudo apt install libmtdev1")
        return
    assert status == "fix" and text.startswith("no touchscreen found")
    devices.write_text(FT5406.format(n=3))  # a 32-bit kernel's bitmap
    (tmp_path / "input").mkdir()
    (tmp_path / "input" / "event3").touch()
    assert _one(doctor.check_touch) == ("ok", f"raspberrypi-ts ({tmp_path}/input/event3)")
    devices.write_text(FT5406.format(n=3).replace("ABS=2608000 3", "ABS=260800000000003"))  # a 64-bit kernel's
    assert _one(doctor.check_touch)[0] == "ok"
    monkeypatch.setattr(doctor, "find_library", lambda name: None)
    assert _one(doctor.check_touch) == ("fix", "the touch library libmtdev is missing: sudo apt install libmtdev1")


def test_no_cjk_font(tmp_path, monkeypatch):
    import companion.ui.fonts as fonts

    monkeypatch.setattr(fonts, "CJK_FILES", (str(tmp_path / "NotoSansCJK-Regular.ttc"),))
    assert _one(doctor.check_font) == ("fix", "no CJK font, the Chinese screens would show boxes: "
                                              "sudo apt install fonts-noto-cjk")
    (tmp_path / "NotoSansCJK-Regular.ttc").touch()
    assert _one(doctor.check_font) == ("ok", str(tmp_path / "NotoSansCJK-Regular.ttc"))


def test_sound_none_a_card_a_server_and_no_espeak(tmp_path, monkeypatch):
    monkeypatch.setattr(doctor, "DEV", tmp_path)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    assert _one(doctor.check_sound)[0] == "note"
    (tmp_path / "snd").mkdir()
    (tmp_path / "snd" / "pcmC0D0p").touch()
    assert _one(doctor.check_sound) == ("ok", f"{tmp_path}/snd/pcmC0D0p")
    (tmp_path / "run" / "pulse").mkdir(parents=True)
    (tmp_path / "run" / "pulse" / "native").touch()
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "run"))
    assert _one(doctor.check_sound) == ("ok", "through pulse")
    monkeypatch.setenv("PATH", str(tmp_path))  # no espeak-ng on PATH
    assert _one(doctor.check_voice) == ("fix", "espeak-ng is missing, the narration cannot be spoken: "
                                               "sudo apt install espeak-ng")


def test_gpio_none_then_a_header_without_its_pin_library(tmp_path, monkeypatch):
    monkeypatch.setattr(doctor, "DEV", tmp_path)
    assert _one(doctor.check_gpio)[0] == "note"
    (tmp_path / "gpiochip0").touch()
    import importlib.util

    status, text = _one(doctor.check_gpio)
    if importlib.util.find_spec("lgpio") is None:  # this machine: no lgpio (it is the Pi's)
        assert (status, text) == ("fix", f"the pin library lgpio (gpiozero) is missing: {sys.executable} -m pip "
                                         "install lgpio")
    else:
        assert (status, text) == ("ok", f"{tmp_path}/gpiochip0")


def test_pad_hub_absent_then_plugged(tmp_path, monkeypatch):
    import companion.pads.serial as serial_pads
    from companion.pads.fake_hub import FakeHub

    monkeypatch.setattr(serial_pads, "find_hub", lambda *_: None)
    assert _one(doctor.check_hub)[0] == "note"
    hub = FakeHub(pads=4, version="1.1")
    port = hub.plug()  # a hub on a pty pair: the doctor asks it for its HELLO
    monkeypatch.setattr(serial_pads, "find_hub", lambda *_: port)
    try:
        assert _one(doctor.check_hub) == ("ok", f"{port}: firmware 1.1, 4 pads")
        assert "SYNC" in hub.received
    finally:
        hub.close()


@pytest.mark.parametrize("device", ["garbage", "2.0"])
def test_a_device_on_the_hub_port_that_is_no_hub_is_named(monkeypatch, device):
    import companion.pads.serial as serial_pads
    from companion.pads.fake_hub import FakeHub

    hub = FakeHub(pads=4, version="2.0" if device == "2.0" else "1.0")
    hub.says_hello = device != "garbage"
    port = hub.plug()
    if device == "garbage":
        hub.write_raw(b"MicroPython v1.22 on 2024-02-22; Raspberry Pi Pico with RP2040\r\n>>> ")
    monkeypatch.setattr(serial_pads, "find_hub", lambda *_: port)
    try:
        status, said = _one(doctor.check_hub)
    finally:
        hub.close()
    assert status == "fix"
    if device == "2.0":
        assert said == (f"the pad hub on {port} speaks protocol 2.0; this companion speaks 1.x: copy the firmware "
                        "from hardware/pad/ to it again")
    else:
        assert said == (f"the device on {port} does not speak the pad hub protocol (no HELLO in 2 s): copy the "
                        "firmware from hardware/pad/ to it (hardware/README.md)")


def test_save_file_in_use_broken_unfinished(tmp_path):
    db = tmp_path / "box.sqlite3"
    with EventStore(db) as store:  # a running companion holds it
        store.new_game("mall-of-horror", ["red", "blue", "yellow"], {})
        status, text = _one(doctor.check_save, db)
        assert status == "ok" and text == f"{db}: open in a running companion (process {os.getpid()}); 0 finished games"
    assert _one(doctor.check_save, db) == ("ok", f"{db}: 0 finished games and one unfinished, resumed at the "
                                                 "next start")
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a save file" * 100)
    status, text = _one(doctor.check_save, junk)
    assert status == "fix" and f"mv {junk} {junk}.old" in text


NOBODY = ("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups")


@contextlib.contextmanager
def _checkout_open_to_others():
    """The user nobody runs the checkout's code: every folder above it must let others through (a clone made in
    `mktemp -d`, 0700, does not). Given for the test, taken back after."""
    changed = []
    for folder in Path(__file__).resolve().parents[1:]:
        mode = folder.stat().st_mode
        if not mode & stat.S_IXOTH:
            os.chmod(folder, mode | stat.S_IXOTH)
            changed.append((folder, mode))
    try:
        yield
    finally:
        for folder, mode in changed:
            os.chmod(folder, stat.S_IMODE(mode))


def _python_for_nobody() -> list[str]:
    """This Python if the user nobody may run it, else the system's of the same version (a venv made from a
    Python under /root, 0700, is root's only), with this one's packages."""
    for python in (sys.executable, f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}"):
        if subprocess.run([*NOBODY, python, "-c", ""], capture_output=True).returncode == 0:
            return [python]
    pytest.skip("no Python the user nobody may run")


@ROOT_ONLY
def test_another_user_without_groups_or_the_save_file(tmp_path):
    with _checkout_open_to_others():
        _another_user_without_groups_or_the_save_file(tmp_path)


def _another_user_without_groups_or_the_save_file(tmp_path):
    folder = Path(tempfile.mkdtemp(prefix="companion-doctor-"))  # pytest's own folder is root's only
    db = folder / "box.sqlite3"
    with EventStore(db):
        pass
    os.chmod(folder, 0o755)  # nobody may look in, but the save file stays 0600, root's
    python = _python_for_nobody()
    path = os.pathsep.join(p for p in sys.path if p and Path(p).is_dir())
    done = subprocess.run([*NOBODY, *python, "-m", "companion", "doctor", "--db", str(db)], capture_output=True,
                          text=True, cwd=Path(__file__).resolve().parents[1],
                          env={**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path),
                               "PYTHONPATH": path})
    found = _lines(done.stdout)
    assert done.returncode == 1 and "groups" in found, done.stdout + done.stderr
    status, text = found["groups"]
    assert status == "fix" and "sudo usermod -aG " in text and text.endswith(" nobody, then log in again (or "
                                                                            "restart the box)")
    assert "dialout" in text and "video" in text
    assert found["save"] == ("fix", f"{db} cannot be read: sudo chown nobody {db}")
    shutil.rmtree(folder, ignore_errors=True)
    private = tmp_path / "private"  # in a folder nobody may not enter: said, not a crash
    done = subprocess.run([*NOBODY, *python, "-m", "companion", "doctor", "--db", str(private / "box.sqlite3")],
                          capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1],
                          env={**os.environ, "HOME": str(folder), "PYTHONPATH": path})
    found = _lines(done.stdout)
    assert done.returncode == 1 and list(found) == CHECKS, done.stdout + done.stderr
    status, text = found["space"]
    assert status == "fix" and text.startswith("could not be checked as nobody (") and "Permission denied" in text


def _namespace(*flags: str) -> list[str]:
    """`unshare` with these namespaces, or a skip saying why this machine cannot make them (a chroot whose root is
    not a mount point cannot make a private mount namespace: unshare cannot change the root's propagation)."""
    if shutil.which("unshare") is None:
        pytest.skip("unshare is not installed")
    command = ["unshare", *flags]
    probe = subprocess.run([*command, "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"this machine gives no {' '.join(flags)} namespace: {probe.stderr.strip()}")
    return command


@ROOT_ONLY
def test_no_network(tmp_path):
    command = _namespace("--net")  # a network namespace of its own: only a loopback, and it is down
    doctor_command = [sys.executable, "-m", "companion", "doctor", "--db", str(tmp_path / "box.sqlite3")]
    done = subprocess.run([*command, *doctor_command], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stdout + done.stderr
    found = _lines(done.stdout)
    assert found["network"] == ("fix", "no address the phones can reach: join a Wi-Fi (sudo nmtui) or make the "
                                       "box's own (sudo sh scripts/install-pi --hotspot \"Zombie table\")")


@ROOT_ONLY
def test_a_full_disk(tmp_path):
    command = _namespace("--mount", "--propagation", "private")  # the tmpfs is seen by this test only
    disk = tmp_path / "disk"
    disk.mkdir()
    script = f"mount -t tmpfs -o size=2m tmpfs {disk} && {sys.executable} -m companion doctor --db {disk}/box.sqlite3"
    done = subprocess.run([*command, "sh", "-c", script], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stdout + done.stderr
    status, text = _lines(done.stdout)["space"]
    assert status == "fix" and text.startswith(f"only 2 MB free in {disk} (companion needs 100 MB)")


# -- the hub's port held by a running companion ---------------------------------------------------------------


def _published_here(monkeypatch, tmp_path) -> Path:
    """The hub's state is published in (and read from) a runtime dir of this test's own, nowhere else."""
    from companion.pads import hub_state

    runtime = tmp_path / "run"
    runtime.mkdir()
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    monkeypatch.setattr(hub_state, "RUN_DIR", tmp_path / "no-run-dir")
    monkeypatch.setattr(hub_state, "USER_RUN", tmp_path / "no-user-run")
    return runtime


def _serve(db: Path, port: str, runtime: Path) -> subprocess.Popen:
    """A real `companion serve` with the pad hub on `port`."""
    config = db.with_name("pads.toml")
    config.write_text(f'[serial]\nport = "{port}"\n[serial.pads]\n1 = "red"\n')
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--db", str(db), "--host", "127.0.0.1", "--port", "0",
         "--no-qr", "--pads", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "XDG_RUNTIME_DIR": str(runtime)}, cwd=Path(__file__).resolve().parents[1])


def _wait_for(condition, timeout: float = 20.0) -> bool:
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.mark.parametrize("device", ["hub", "garbage", "2.0"])
def test_the_device_on_a_port_a_running_companion_holds_is_named(tmp_path, monkeypatch, device):
    import signal
    import time

    import companion.pads.serial as serial_pads
    from companion.pads import hub_state
    from companion.pads.fake_hub import FakeHub

    runtime = _published_here(monkeypatch, tmp_path)
    hub = FakeHub(pads=4, version="2.0" if device == "2.0" else "1.0", resend_after=60.0)
    hub.says_hello = device != "garbage"
    port = hub.plug()
    if device == "garbage":
        hub.write_raw(b"MicroPython v1.22 on 2024-02-22; Raspberry Pi Pico with RP2040\r\n>>> ")
    monkeypatch.setattr(serial_pads, "find_hub", lambda *_: port)
    db = tmp_path / "box.sqlite3"
    process = _serve(db, port, runtime)
    published = runtime / hub_state.file_name(port)
    try:
        assert _wait_for(published.exists), process.stderr  # the companion holds the port now
        started = time.monotonic()
        status, said = _one(doctor.check_hub, db)
        seconds = time.monotonic() - started
    finally:
        process.send_signal(signal.SIGTERM)
        stopped = process.wait(timeout=15)
        hub.close()
    assert stopped == 0 and not published.exists()  # a clean shutdown takes its state away
    assert seconds < 5  # within seconds of the port being opened
    if device == "hub":
        assert (status, said) == ("ok", f"{port}: firmware 1.0, 4 pads, in use by the running companion "
                                        f"(process {process.pid})")
    elif device == "2.0":
        assert (status, said) == ("fix", f"the pad hub on {port} speaks protocol 2.0; this companion speaks 1.x: "
                                         "copy the firmware from hardware/pad/ to it again")
    else:  # the companion's 3 s, not doctor's own 2 s: the running companion said it
        assert (status, said) == ("fix", f"the device on {port} does not speak the pad hub protocol (no HELLO in "
                                         "3 s): copy the firmware from hardware/pad/ to it (hardware/README.md)")


def test_a_hub_state_left_by_a_dead_companion_is_not_trusted(tmp_path, monkeypatch):
    import json
    import signal

    import serial

    import companion.pads.serial as serial_pads
    from companion.pads import hub_state
    from companion.pads.fake_hub import FakeHub

    runtime = _published_here(monkeypatch, tmp_path)
    hub = FakeHub(pads=4, resend_after=60.0)
    port = hub.plug()
    monkeypatch.setattr(serial_pads, "find_hub", lambda *_: port)
    db = tmp_path / "box.sqlite3"
    published = runtime / hub_state.file_name(port)
    process = _serve(db, port, runtime)
    try:
        assert _wait_for(lambda: published.exists() and json.loads(published.read_text())["state"] == "hub")
    finally:
        process.send_signal(signal.SIGKILL)  # a crash or a power cut: the file stays behind
        process.wait(timeout=15)
    other = serial.Serial(port, exclusive=True)  # and another program holds the port now
    try:
        assert published.exists()
        assert _one(doctor.check_hub, db) == (
            "note", f"{port} is open in another program, which does not say what device is on it: run this check as "
                    "the user who runs companion, or stop that program, to have the device asked")
        # a live process with the dead one's pid is not it either: its start time differs
        state = json.loads(published.read_text())
        published.write_text(json.dumps({**state, "pid": os.getpid(), "started": "1"}))
        assert _one(doctor.check_hub, db)[0] == "note"
        published.write_text(json.dumps({**state, "pid": os.getpid(), "started": hub_state.process_start(os.getpid())}))
        assert _one(doctor.check_hub, db)[0] == "ok"  # the same file from a live writer is believed
    finally:
        other.close()
        hub.close()
