"""scripts/install-pi: shellcheck-clean, and run for real in a clean Debian 12 made here with debootstrap.

The chroot test needs root (debootstrap, mount, chroot; CI runs as root) and the network (Debian's archive and
PyPI), and takes about two minutes. To fit the suite's time it reuses, in /var/cache/companion-test
(COMPANION_TEST_CACHE): the .deb files apt downloaded in an earlier run (debootstrap's --cache-dir and the
chroot's /var/cache/apt/archives), and the freshly debootstrapped minbase tree as a tarball (less than a week old;
COMPANION_TEST_FRESH_CHROOT=1 makes a new one). Nothing installed is reused: every run starts from that pristine
minbase tree, installs twice with --no-enable (no systemd runs in a chroot), checks the box, uninstalls and
checks that the tree is as it was.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "scripts" / "install-pi"
CACHE = Path(os.environ.get("COMPANION_TEST_CACHE", "/var/cache/companion-test"))
MIRROR = os.environ.get("COMPANION_TEST_MIRROR", "http://deb.debian.org/debian")
TARBALL_DAYS = 7
HOST_CA = Path("/etc/ssl/certs/ca-certificates.crt")  # the host's CAs (a proxy's own CA too) for pip in the chroot
# What apt and dpkg keep for themselves (lists, logs, caches, the package database) and the backups useradd and
# groupadd make of the account files: the system's bookkeeping, not the script's doing.
VOLATILE = ("proc", "dev", "mnt", "tmp", "run", "root/.cache", "var/cache", "var/log", "var/lib/apt",
            "var/lib/dpkg", "var/lib/ucf", "var/backups", "etc/ld.so.cache", "etc/passwd-", "etc/group-",
            "etc/shadow-", "etc/gshadow-")


def test_install_script_is_shellcheck_clean():
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.skip("shellcheck is not installed (scripts/setup test installs it)")
    done = subprocess.run([shellcheck, "-s", "sh", str(SCRIPT)], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "", done.stdout


def test_install_script_refuses_unknown_options_and_tells_its_usage():
    done = subprocess.run(["sh", str(SCRIPT), "--frobnicate"], capture_output=True, text=True)
    assert done.returncode == 1
    assert "unknown option: --frobnicate" in done.stderr
    assert "--uninstall" in done.stderr  # the usage, on stderr
    shown = subprocess.run(["sh", str(SCRIPT), "--help"], capture_output=True, text=True)
    assert shown.returncode == 0 and "--no-enable" in shown.stdout and "--hotspot" in shown.stdout


@pytest.mark.parametrize("given", [["--hotspot-password", "brains brains"], ["--hotspot-password=brains brains"]])
def test_install_script_refuses_a_password_on_its_command_line_and_says_how_to_give_it(given):
    # (Refused while reading the options: nothing is installed, root or not.)
    done = subprocess.run(["sh", str(SCRIPT), "--no-enable", "--hotspot", "Zombie table", *given],
                          capture_output=True, text=True)
    assert done.returncode == 1 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("install-pi: --hotspot-password is refused")
    assert "--hotspot-password-file" in done.stderr and "COMPANION_WIFI_PASSWORD" in done.stderr
    assert "brains" not in done.stderr


def test_install_script_says_no_command_line_back():
    """An unknown `--option=value` is named without its value, and no message repeats the options ($* or $@):
    a secret typed in the wrong place is not printed back (nor kept in a terminal's scrollback or a log)."""
    done = subprocess.run(["sh", str(SCRIPT), "--hotspot-pasword=brains brains"], capture_output=True, text=True)
    assert done.returncode == 1 and done.stderr.splitlines()[-1] == "install-pi: unknown option: --hotspot-pasword"
    assert "brains" not in done.stdout + done.stderr
    messages = [line for line in SCRIPT.read_text().splitlines() if re.search(r"\b(say|fail) ", line)]
    assert messages and not any(re.search(r"\$[*@]|\$\{[*@]", line) for line in messages), messages


# --- the clean Debian ------------------------------------------------------------------------------------------


def _sh(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(list(args), check=True, capture_output=True, text=True, **kwargs)


def _pristine(root: Path) -> None:
    """A Debian 12 minbase tree in `root`: unpacked from the cached tarball of an earlier debootstrap, or made."""
    tarball = CACHE / "bookworm-minbase.tar"
    fresh = os.environ.get("COMPANION_TEST_FRESH_CHROOT") == "1"
    if not fresh and tarball.is_file() and time.time() - tarball.stat().st_mtime < TARBALL_DAYS * 86400:
        _sh("tar", "-C", str(root), "-xpf", str(tarball))
        return
    debs = CACHE / "debootstrap"
    debs.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["debootstrap", "--variant=minbase", f"--cache-dir={debs}", "bookworm", str(root),
                           MIRROR], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    partial = tarball.with_suffix(".partial")
    _sh("tar", "-C", str(root), "-cpf", str(partial), ".")
    partial.replace(tarball)


def _snapshot(root: Path) -> dict[str, object]:
    """What the script may change: every path (but apt's and dpkg's own bookkeeping), the users and groups, the
    installed packages."""
    paths = set()
    for folder, dirs, files in os.walk(root):
        rel = os.path.relpath(folder, root)
        if rel != "." and rel.startswith(VOLATILE):
            dirs[:] = []
            continue
        dirs[:] = [d for d in dirs if os.path.join(rel, d).removeprefix("./") not in VOLATILE]
        for name in dirs + files:
            path = os.path.join(rel, name).removeprefix("./")
            if path not in VOLATILE:
                paths.add(path)
    accounts = {name: sorted((root / "etc" / name).read_text().splitlines()) for name in ("passwd", "group")}
    packages = _chroot(root, "dpkg-query", "-W", "-f", "${Package} ${Status}\n").stdout
    return {"paths": paths, **accounts, "packages": sorted(packages.splitlines())}


def _env() -> dict[str, str]:
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root", "LANG": "C.UTF-8",
           "PIP_DEFAULT_TIMEOUT": "180"}
    if HOST_CA.is_file():
        env["PIP_CERT"] = "/mnt/host-ca.crt"
    return env


TIMES: dict[str, float] = {}  # seconds per step, printed at the end (pytest -s shows them)


@contextlib.contextmanager
def _command_lines_seen():
    """The command lines of the processes that run meanwhile, looked at in /proc every few milliseconds (without
    strace: most of them, not every short one)."""
    seen: set[bytes] = set()
    stop = threading.Event()

    def look() -> None:
        while not stop.is_set():
            for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
                with contextlib.suppress(OSError):
                    seen.add(cmdline.read_bytes())
            stop.wait(0.005)

    thread = threading.Thread(target=look, daemon=True)
    thread.start()
    try:
        yield seen
    finally:
        stop.set()
        thread.join()


def _chroot(root: Path, *command: str, user: str | None = None, check: bool = True, input: str | None = None,
            env: dict[str, str] | None = None, secret: str | None = None) -> subprocess.CompletedProcess:
    """`command` run in the chroot. With a `secret`: asserts it was on no process's command line, by strace's
    record of every program started (every execve), or by looking at /proc meanwhile where there is no strace."""
    args = ["chroot"] + ([f"--userspec={user}:{user}"] if user else []) + [str(root), *command]
    strace = shutil.which("strace") if secret else None
    execs = root.parent / "execve.log"
    if strace:
        args = [strace, "-f", "-qq", "-e", "trace=execve", "-e", "signal=none", "-s", "4096", "-o", str(execs),
                *args]
    start = time.monotonic()
    with _command_lines_seen() if secret and not strace else contextlib.nullcontext(set()) as seen:
        done = subprocess.run(args, env={**_env(), **(env or {})}, input=input, capture_output=True, text=True)
    if strace:
        seen = {line.encode() for line in execs.read_text(errors="replace").splitlines()}
        assert len(seen) > 20, "strace did not follow the programs the command starts"  # (install-pi: dozens)
    if secret:
        assert not [line for line in seen if secret.encode() in line], f"{secret!r} on a command line"
    step = " ".join(command[:3])
    TIMES[step] = TIMES.get(step, 0) + time.monotonic() - start
    if check:
        said = f"{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
        assert done.returncode == 0, f"{' '.join(command)}: exit status {done.returncode}\n{said}"
    return done


NMCLI = """#!/bin/sh
# nmcli's stand-in: records each call; `connection show` lists the connections added and not deleted.
echo "$*" >> /tmp/nmcli.log
state=/tmp/nmcli.connections
while [ "${1#-}" != "$1" ]; do case $1 in -f|--fields) shift 2 ;; *) shift ;; esac; done
case "$1 $2" in
    "connection show") cat "$state" 2>/dev/null ;;
    "connection add") for a; do [ "$prev" = con-name ] && echo "$a" >> "$state"; prev=$a; done ;;
    "connection load") name=${3##*/}; grep -qxF "${name%.nmconnection}" "$state" 2>/dev/null \
                       || echo "${name%.nmconnection}" >> "$state" ;;
    "connection delete") grep -vxF "$3" "$state" > "$state.new"; mv "$state.new" "$state"
                         rm -f "/etc/NetworkManager/system-connections/$3.nmconnection" ;;
esac
"""


@pytest.fixture(scope="module")
def chroot(tmp_path_factory):
    if os.geteuid() != 0:
        pytest.skip("needs root: it makes a Debian chroot with debootstrap and mounts into it (CI runs as root)")
    if shutil.which("debootstrap") is None:
        pytest.skip("debootstrap is not installed (scripts/setup test installs it)")
    root = tmp_path_factory.mktemp("pi") / "root"
    root.mkdir()
    mounts = []
    (CACHE / "apt").mkdir(parents=True, exist_ok=True)
    lock = open(CACHE / "lock", "w")  # noqa: SIM115 - held until the end: one such test at a time shares the caches
    fcntl.flock(lock, fcntl.LOCK_EX)
    try:
        _sh("mount", "-t", "tmpfs", "-o", "size=4g,mode=0755", "tmpfs", str(root))  # fast to fill and to drop
        mounts.append(root)
        _pristine(root)
        for what, where, options in (
            ("proc", root / "proc", ["-t", "proc"]),
            (str(REPO), root / "mnt" / "src", ["--bind"]),  # the checkout, read-only below
            (str(CACHE / "apt"), root / "var" / "cache" / "apt" / "archives", ["--bind"]),
        ):
            where.mkdir(parents=True, exist_ok=True)
            _sh("mount", *options, what, str(where))
            mounts.append(where)
        _sh("mount", "-o", "remount,bind,ro", str(root / "mnt" / "src"))
        if HOST_CA.is_file():
            shutil.copy(HOST_CA, root / "mnt" / "host-ca.crt")
        yield root
    finally:
        print("\ninstall-pi in a chroot, seconds:", {step: round(t, 1) for step, t in TIMES.items()})
        for where in reversed(mounts):
            subprocess.run(["umount", str(where)], check=False)
        if not any(os.path.ismount(where) for where in mounts):
            shutil.rmtree(root, ignore_errors=True)  # (empty: the tree was in the tmpfs)
        lock.close()


def test_install_twice_then_uninstall_in_a_clean_debian(chroot):
    root = chroot
    _chroot(root, "useradd", "--create-home", "pi")  # the desktop image's user (the test's own)
    # The README's premise: a fresh Debian with python3 (and apt's lists), whose own packages stay.
    _chroot(root, "apt-get", "update", "-q")
    _chroot(root, "apt-get", "install", "-y", "-q", "--no-install-recommends", "python3")
    before = _snapshot(root)
    install = ["sh", "/mnt/src/scripts/install-pi", "--no-enable"]

    first = _chroot(root, *install)
    said = first.stdout
    assert "installing Debian packages:" in said and "fonts-noto-cjk" in said and "espeak-ng" in said
    assert "user companion made" in said
    assert "python3-lgpio: not in this system's archive" in said  # Raspberry Pi OS's only: skipped, said
    assert "group gpio: not on this system" in said
    assert "nothing enabled (--no-enable)" in said
    installed = _snapshot(root)
    # What apt pulled in for the packages it named is remembered too, and nothing that was there before.
    record = set((root / "opt/companion/installed").read_text().splitlines())
    assert {"package python3-venv", "package python3.11-venv", "package python3-pip-whl"} <= record, record
    assert "package python3" not in record and "package python3.11" not in record

    # The box as installed.
    passwd = dict(line.split(":", 1) for line in installed["passwd"])
    user = passwd["companion"].split(":")
    assert int(user[1]) < 1000 and user[4] == "/var/lib/companion" and user[5] == "/usr/sbin/nologin"
    groups = _chroot(root, "id", "-nG", "companion").stdout.split()
    assert {"companion", "video", "render", "input", "audio", "dialout"} <= set(groups)
    state = (root / "var/lib/companion").stat()
    assert oct(state.st_mode & 0o777) == "0o700" and state.st_uid == int(user[1])
    config = root / "etc/default/companion"
    assert oct(config.stat().st_mode & 0o777) == "0o640"
    assert "COMPANION_WIFI_SSID=" in config.read_text()
    for unit in ("etc/systemd/system/companion-kiosk.service", "etc/systemd/system/companion-serve.service",
                 "etc/systemd/user/companion-desktop.service"):
        assert (root / unit).read_text() == (REPO / "systemd" / Path(unit).name).read_text()
    assert not (root / "opt/companion/src/tests").exists() and not (root / "opt/companion/src/.git").exists()
    assert _chroot(root, "/opt/companion/.venv/bin/companion", "--version").stdout.startswith("companion ")
    # The companion's user opens the save file in its fixed place (and nobody else can read the folder).
    _chroot(root, "/opt/companion/.venv/bin/python", "-c",
            "from companion.store import EventStore; EventStore('/var/lib/companion/companion.sqlite3').close()",
            user="companion")
    assert (root / "var/lib/companion/companion.sqlite3").is_file()
    # The Chinese fonts were cut down in the companion's own cache, before its first start.
    fonts = sorted(p.name.split("-")[0] for p in (root / "var/lib/companion/.cache/companion/fonts").glob("*.otf"))
    assert fonts == ["NotoSansCJKSC", "NotoSansCJKTC"], fonts
    # The doctor runs there: no display, no touchscreen, no network address in a chroot (each with its fix);
    # the CJK font and espeak-ng the script installed are found.
    doctor = _chroot(root, "/opt/companion/.venv/bin/companion", "doctor", "--db",
                     "/var/lib/companion/companion.sqlite3", check=False)
    lines = doctor.stdout.splitlines()
    assert doctor.returncode == 1, doctor.stdout + doctor.stderr
    assert any(line.startswith("ok") and "NotoSansCJK" in line for line in lines), doctor.stdout
    assert any(line.startswith("ok") and "espeak-ng" in line for line in lines), doctor.stdout
    # NetworkManager does not run in a chroot: its nmcli is a recorder that keeps the connections it was given
    # (the test's own file, removed before the last look).
    nmcli = root / "usr/local/bin/nmcli"
    nmcli.write_text(NMCLI)
    nmcli.chmod(0o755)
    connections = root / "etc/NetworkManager/system-connections"  # NetworkManager's folder of profiles
    connections.mkdir(parents=True)
    after_first = _snapshot(root)

    # Again, now with the table's own Wi-Fi: nothing new is made, the same files are there.
    # The password typed (here: piped) on standard input, never on a command line: not install-pi's (sudo would
    # log it), not nmcli's, not any program's install-pi starts.
    second = _chroot(root, *install, "--hotspot", "Zombie table", "--hotspot-password-file", "-",
                     input="brains brains\n", secret="brains brains")
    assert "user companion made" not in second.stdout and "installing Debian packages" not in second.stdout
    assert "installing the companion's Python packages" not in second.stdout  # the same pyproject.toml
    assert 'Wi-Fi hotspot "Zombie table"' in second.stdout
    calls = (root / "tmp/nmcli.log").read_text().splitlines()
    keyfile = root / "etc/NetworkManager/system-connections/companion-hotspot.nmconnection"
    assert calls[-1] == "connection load /" + str(keyfile.relative_to(root)), calls
    assert not any("brains" in call for call in calls)  # the password is on no command line
    assert oct(keyfile.stat().st_mode & 0o777) == "0o600" and keyfile.stat().st_uid == 0
    profile = keyfile.read_text()
    for line in ("ssid=Zombie table", "mode=ap", "key-mgmt=wpa-psk", "psk=brains brains", "method=shared",
                 "address1=10.42.0.1/24", "interface-name=wlan0", "autoconnect-priority=100"):
        assert line + "\n" in profile, profile
    settings = config.read_text()  # the join screen's Wi-Fi QR code, and the hotspot's address in the URLs
    assert "COMPANION_WIFI_SSID=Zombie table\n" in settings and "COMPANION_WIFI_PASSWORD=brains brains\n" in settings
    assert "COMPANION_ARGS=--address 10.42.0.1\n" in settings
    # Once more with a power button: the same hotspot (modified, not added again) keeps its password.
    again = _chroot(root, *install, "--hotspot", "Zombie table", "--power-button", "3")
    assert (root / "tmp/nmcli.log").read_text().splitlines()[-1] == "connection load /" + str(
        keyfile.relative_to(root))
    assert keyfile.read_text() == profile  # the same uuid, the same password
    assert config.read_text() == settings.replace("--address 10.42.0.1\n", "--address 10.42.0.1 --power-button 3\n")
    assert "user companion made" not in again.stdout
    after_second = _snapshot(root)
    # (The copy of the checkout is left out: other work may change the checkout between the two runs.)
    src = "opt/companion/src/"
    # (Nor the hotspot's profile, NetworkManager's own: nmcli would make it too, and deletes it at --uninstall.)
    profile_path = str(keyfile.relative_to(root))
    assert {p for p in after_second["paths"] ^ after_first["paths"] if not p.startswith(src)} == {profile_path}
    assert after_second["passwd"] == after_first["passwd"] and after_second["group"] == after_first["group"]
    assert after_second["packages"] == after_first["packages"]

    # The desktop image: its user gets the device groups and the settings' group, the app starts with the desktop.
    # (And the hotspot gets a new password, from the environment: `sudo --preserve-env=COMPANION_WIFI_PASSWORD`.)
    desktop = _chroot(root, *install, "--desktop", "pi", "--hotspot", "Zombie table",
                      env={"COMPANION_WIFI_PASSWORD": "zombies zombies"}, secret="zombies zombies")
    assert "psk=zombies zombies\n" in keyfile.read_text() and oct(keyfile.stat().st_mode & 0o777) == "0o600"
    assert "COMPANION_WIFI_PASSWORD=zombies zombies\n" in config.read_text()
    # Or from a file of root's (its first line: a Windows line end is not part of the password).
    password_file = root / "root/hotspot-password"
    password_file.write_text("brains brains\r\n")
    password_file.chmod(0o600)
    _chroot(root, *install, "--hotspot", "Zombie table", "--hotspot-password-file", "/root/hotspot-password",
            secret="brains brains")
    password_file.unlink()
    assert keyfile.read_text() == profile and "COMPANION_WIFI_PASSWORD=brains brains\n" in config.read_text()
    assert "user pi in the groups video,render,input,audio,dialout,companion" in desktop.stdout
    assert {"video", "render", "input", "audio", "dialout", "companion"} <= set(
        _chroot(root, "id", "-nG", "pi").stdout.split())
    autostart = root / "etc/xdg/autostart/companion.desktop"
    assert autostart.read_text() == (REPO / "systemd/companion.desktop").read_text()

    gone = _chroot(root, "sh", "/mnt/src/scripts/install-pi", "--uninstall")
    assert "uninstalled" in gone.stdout and "Wi-Fi hotspot removed" in gone.stdout
    assert (root / "tmp/nmcli.log").read_text().splitlines()[-1] == "connection delete companion-hotspot"
    nmcli.unlink()
    assert not keyfile.exists()
    connections.rmdir()
    connections.parent.rmdir()
    after = _snapshot(root)
    assert after["paths"] - before["paths"] == set(), "left behind"
    assert before["paths"] - after["paths"] == set(), "taken away"
    assert after["passwd"] == before["passwd"] and after["group"] == before["group"]
    assert after["packages"] == before["packages"]


def test_uninstall_keeps_a_package_that_something_installed_since_needs(chroot):
    root = chroot
    _chroot(root, "sh", "/mnt/src/scripts/install-pi", "--no-enable")
    # After the install, the owner adds a package of his own that needs one the install added.
    _chroot(root, "apt-get", "install", "-y", "-q", "--no-install-recommends", "libgbm-dev")
    gone = _chroot(root, "sh", "/mnt/src/scripts/install-pi", "--uninstall")
    assert "keeping libgbm1: libgbm-dev need it" in gone.stdout, gone.stdout
    status = _chroot(root, "dpkg-query", "-W", "-f", "${Package} ${db:Status-Status}\n", "libgbm1",
                     "libgbm-dev").stdout.splitlines()
    assert sorted(status) == ["libgbm-dev installed", "libgbm1 installed"], status
    espeak = _chroot(root, "dpkg-query", "-W", "-f", "${db:Status-Status}", "espeak-ng", check=False)
    assert espeak.stdout in ("", "not-installed"), espeak.stdout  # what nothing else needs is gone
