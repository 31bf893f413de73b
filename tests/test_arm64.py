"""The Pi's architecture, emulated: an arm64 Debian 12 (Bookworm) chroot made with debootstrap and run under
qemu-user, in which the README's first command sets the companion up (every dependency an aarch64 wheel) and
reaches its headless line, `companion replay` plays each game's script to the same record as this machine, `companion
run` opens the touchscreen offscreen to a first frame (a screenshot kept), and `install-pi --no-enable` installs the
box.

Opt-in, being slow under emulation (many minutes): COMPANION_TEST_ARM64=1, as root, with debootstrap and
qemu-user-static (its aarch64 interpreter registered with binfmt_misc, which the package does). It shares
tests/test_install_pi.py's cache (COMPANION_TEST_CACHE) for the .deb files and the debootstrapped tree, and prints
the seconds of each step (pytest -s).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_install_pi import CACHE, HOST_CA, MIRROR, TARBALL_DAYS, _env, _sh
from test_wheel import FIRST_FRAME

REPO = Path(__file__).resolve().parents[1]
BINFMT = Path("/proc/sys/fs/binfmt_misc/qemu-aarch64")
FIRST_COMMAND = "sh scripts/run run --players red,blue,yellow,green"
TIMES: dict[str, float] = {}

pytestmark = pytest.mark.skipif(os.environ.get("COMPANION_TEST_ARM64") != "1",
                                reason="opt-in (slow under emulation): COMPANION_TEST_ARM64=1")


def _arm64_tree(root: Path) -> None:
    tarball = CACHE / "bookworm-arm64-minbase.tar"
    if tarball.is_file() and time.time() - tarball.stat().st_mtime < TARBALL_DAYS * 86400:
        _sh("tar", "-C", str(root), "-xpf", str(tarball))
        return
    debs = CACHE / "debootstrap-arm64"
    debs.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["debootstrap", "--arch=arm64", "--variant=minbase", "--include=python3,ca-certificates",
                           f"--cache-dir={debs}", "bookworm", str(root), MIRROR], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    partial = tarball.with_suffix(".partial")
    _sh("tar", "-C", str(root), "-cpf", str(partial), ".")
    partial.replace(tarball)


def _in(root: Path, script: str, step: str, timeout: float = 3600, env: dict | None = None):
    start = time.monotonic()
    done = subprocess.run(["chroot", str(root), "sh", "-c", script], capture_output=True, text=True,
                          env={**_env(), **(env or {})}, timeout=timeout)
    TIMES[step] = round(time.monotonic() - start, 1)
    assert done.returncode == 0, f"{step}: exit status {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def arm64(tmp_path_factory):
    if os.geteuid() != 0:
        pytest.skip("needs root: debootstrap, mount, chroot")
    missing = [tool for tool in ("debootstrap", "qemu-aarch64-static") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (apt install debootstrap qemu-user-static)")
    if not BINFMT.exists():
        pytest.skip(f"no aarch64 interpreter registered ({BINFMT}): qemu-user-static registers it with binfmt_misc")
    root = tmp_path_factory.mktemp("arm64") / "root"
    root.mkdir()
    mounts = []
    try:
        start = time.monotonic()
        _arm64_tree(root)
        TIMES["arm64 tree"] = round(time.monotonic() - start, 1)
        for what, where, options in (("proc", root / "proc", ["-t", "proc"]),
                                     (str(REPO), root / "mnt" / "src", ["--bind"])):
            where.mkdir(parents=True, exist_ok=True)
            _sh("mount", *options, what, str(where))
            mounts.append(where)
        _sh("mount", "-o", "remount,bind,ro", str(root / "mnt" / "src"))
        if HOST_CA.is_file():
            shutil.copy(HOST_CA, root / "mnt" / "host-ca.crt")
        # The checkout as a user clones it (its files, no .venv, no build leftovers), writable.
        _in(root, "mkdir -p /root/companion && cd /mnt/src && tar -cf - --exclude=./.venv --exclude=./.git "
                  "--exclude=__pycache__ --exclude=./tests/screenshots . | tar -C /root/companion -xf -", "copy")
        yield root
    finally:
        print("\narm64 under qemu-user, seconds:", TIMES)
        for where in reversed(mounts):
            subprocess.run(["umount", str(where)], check=False)
        if not any(os.path.ismount(where) for where in mounts):
            shutil.rmtree(root.parent, ignore_errors=True)


def test_the_readme_first_command_then_replays_a_first_frame_and_install_pi_on_arm64(arm64):
    root = arm64
    assert _in(root, "uname -m", "uname").stdout.strip() == "aarch64"

    # The README's first command, as a new user types it: it sets everything up, then runs headless (no display
    # in a chroot) and prints the seat URLs; stopped once it has.
    start = time.monotonic()
    process = subprocess.Popen(["chroot", str(root), "sh", "-c", f"cd /root/companion && exec {FIRST_COMMAND} "
                                "--port 0 --host 127.0.0.1"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, env=_env(), start_new_session=True)
    lines: list[str] = []
    try:
        for line in process.stdout:
            lines.append(line)
            if "/s/" in line:  # a seat's URL: the table is up
                break
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(60)
    TIMES["README's first command to its first seat URL"] = round(time.monotonic() - start, 1)
    said = "".join(lines)
    assert "running headless" in said and "/s/" in said, said[-3000:]

    # Each game's script plays to the same record as on this machine.
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    scripts = {"mall-of-horror": json.loads(re.search(r"```json\n(.*?)```", readme, re.S).group(1))}
    for path in sorted((REPO / "tests" / "scripts").glob("*.json")):
        scripts[path.stem] = json.loads(path.read_text())
    for name, script in scripts.items():
        (root / "root" / f"{name}.json").write_text(json.dumps(script))
        here = subprocess.run([sys.executable, "-m", "companion", "replay", str(root / "root" / f"{name}.json")],
                              capture_output=True, text=True, cwd=REPO)
        assert here.returncode == 0, here.stderr
        there = _in(root, f"/root/companion/.venv/bin/companion replay /root/{name}.json", f"replay {name}")
        assert json.loads(there.stdout) == json.loads(here.stdout), name

    # The touchscreen, offscreen, to its first frame.
    # (From a folder of its own: beside the checkout, its companion/ would be imported as a namespace package.)
    (root / "tmp" / "frame").mkdir(exist_ok=True)
    (root / "tmp" / "frame" / "first_frame.py").write_text(FIRST_FRAME)
    frame = _in(root, "cd /tmp/frame && /root/companion/.venv/bin/python first_frame.py /tmp/frame/first-frame.png "
                      "run --db /tmp/frame/box.sqlite3 --host 127.0.0.1 --port 0", "run to a first frame",
                env={"SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1"})
    seen = json.loads(frame.stdout.splitlines()[-1])
    assert seen["screen"] == "newgame", seen
    shot = root / seen["screenshot"].lstrip("/")
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    keep = REPO / "tests" / "screenshots"  # for a person to look at (ignored by git)
    keep.mkdir(exist_ok=True)
    shutil.copy(shot, keep / "arm64-first-frame.png")

    # The box's own install, starting nothing (no systemd in a chroot).
    installed = _in(root, "sh /root/companion/scripts/install-pi --no-enable", "install-pi --no-enable")
    assert "nothing enabled (--no-enable)" in installed.stdout
    assert _in(root, "/opt/companion/.venv/bin/companion --version", "version").stdout.startswith("companion ")
