"""The systemd units in systemd/: `systemd-analyze verify` finds nothing to say about them, and they say what the
box needs (the kiosk on KMS/DRM, `companion run` with the fixed save file, restarts, the journal, no blanking, the
power-off exit codes of companion.power, the paths install-pi uses)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion import power

REPO = Path(__file__).resolve().parents[1]
UNITS = REPO / "systemd"
COMPANION = Path(sys.executable).with_name("companion")  # the checkout's venv: the units' program, here
SYSTEM_UNITS = ["companion-kiosk.service", "companion-serve.service"]
USER_UNITS = ["companion-desktop.service"]


def _settings(name: str) -> list[tuple[str, str, str]]:
    """(section, key, value) of a unit, in order, repeated keys kept."""
    section, found = "", []
    for line in (UNITS / name).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        found.append((section, key.strip(), value.strip()))
    return found


def _values(name: str, key: str) -> list[str]:
    return [value for _section, k, value in _settings(name) if k == key]


def _verify(tmp_path: Path, name: str, text: str, user: bool = False) -> subprocess.CompletedProcess:
    """systemd-analyze verify on a copy of the unit whose program is the checkout's `companion` (the units name
    /opt/companion/.venv/bin/companion, which install-pi makes: verify checks that the program exists)."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (scripts/setup test installs systemd)")
    assert COMPANION.exists()
    (tmp_path / name).write_text(text.replace("/opt/companion/.venv/bin/companion", str(COMPANION)))
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700, exist_ok=True)
    args = [analyze] + (["--user"] if user else []) + ["verify", "--man=no", f"./{name}"]
    return subprocess.run(args, cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "XDG_RUNTIME_DIR": str(runtime), "SYSTEMD_LOG_COLOR": "0"})


@pytest.mark.parametrize("name", SYSTEM_UNITS + USER_UNITS)
def test_systemd_analyze_verify_has_nothing_to_say(tmp_path, name):
    done = _verify(tmp_path, name, (UNITS / name).read_text(), user=name in USER_UNITS)
    assert done.returncode == 0 and done.stdout + done.stderr == "", done.stdout + done.stderr


def test_verify_would_tell_a_mistake(tmp_path):
    """The check above can fail: a misspelt key and a bad value are reported (verify still exits 0 for them)."""
    text = (UNITS / "companion-kiosk.service").read_text()
    text = text.replace("RestartSec=2", "RestartSecs=2").replace("Restart=on-failure", "Restart=sometimes")
    done = _verify(tmp_path, "companion-kiosk.service", text)
    said = done.stdout + done.stderr
    assert "Unknown key 'RestartSecs'" in said and "sometimes" in said


def test_every_unit_in_the_folder_is_checked():
    assert sorted(path.name for path in UNITS.glob("*.service")) == sorted(SYSTEM_UNITS + USER_UNITS)


def _exec_start(name: str) -> list[str]:
    (line,) = _values(name, "ExecStart")
    return shlex.split(line)


def _run_options() -> set[str]:
    done = subprocess.run([str(COMPANION), "run", "--help"], capture_output=True, text=True, check=True)
    return set(re.findall(r"--[a-z][a-z-]+", done.stdout))


def test_the_kiosk_runs_the_touchscreen_on_kmsdrm_with_the_fixed_save_file_and_resumes():
    kiosk = "companion-kiosk.service"
    argv = _exec_start(kiosk)
    assert argv[:2] == ["/opt/companion/.venv/bin/companion", "run"]
    assert "--players" not in argv  # without it, the unfinished game resumes
    assert argv[argv.index("--db") + 1] == "/var/lib/companion/companion.sqlite3"
    assert {arg.split("=")[0] for arg in argv if arg.startswith("--")} <= _run_options()
    # The Wi-Fi's name as one word, even empty or starting with "-" (the QR code's words); its password is read
    # from the environment (test_no_unit_puts_the_wifi_password_on_a_command_line).
    assert "--wifi-ssid=${COMPANION_WIFI_SSID}" in argv
    env = dict(value.split("=", 1) for value in _values(kiosk, "Environment"))
    assert env["SDL_VIDEODRIVER"] == "kmsdrm" and env["COMPANION_POWER"] == "exit"
    assert env["HOME"] == "/var/lib/companion" and env["SDL_VIDEO_ALLOW_SCREENSAVER"] == "0"
    assert _values(kiosk, "User") == ["companion"]
    assert _values(kiosk, "Restart") == ["on-failure"]
    assert _values(kiosk, "StandardOutput") == ["journal"] and _values(kiosk, "StandardError") == ["journal"]
    assert _values(kiosk, "EnvironmentFile") == ["-/etc/default/companion"]
    assert _values(kiosk, "WantedBy") == ["multi-user.target"]
    (blank,) = _values(kiosk, "ExecStartPre")
    assert "setterm" in blank and "--blank 0" in blank and "--powerdown 0" in blank
    # The app itself keeps SDL's screensaver off during a game.
    assert "allow_screensaver" in (REPO / "companion" / "ui" / "app.py").read_text()


def test_the_serve_and_desktop_units_run_what_they_say():
    serve = _exec_start("companion-serve.service")
    assert serve[:2] == ["/opt/companion/.venv/bin/companion", "serve"]
    assert serve[serve.index("--db") + 1] == "/var/lib/companion/companion.sqlite3"
    assert _values("companion-serve.service", "Conflicts") == ["companion-kiosk.service"]
    desktop = _exec_start("companion-desktop.service")
    assert desktop[:2] == ["/opt/companion/.venv/bin/companion", "run"]
    assert {arg.split("=")[0] for arg in desktop if arg.startswith("--")} <= _run_options()
    assert _values("companion-desktop.service", "WantedBy") == ["graphical-session.target"]
    assert "User" not in {key for _s, key, _v in _settings("companion-desktop.service")}  # a user unit


def test_power_exit_codes_end_in_systemctl_as_root(tmp_path):
    """The companion exits 10 or 11 (companion.power) after closing the box; the kiosk unit's ExecStopPost turns
    that into systemctl poweroff or reboot, and neither counts as a failure to restart."""
    kiosk = "companion-kiosk.service"
    codes = {str(code) for code in power.EXIT_CODES.values()}
    assert set(_values(kiosk, "SuccessExitStatus")[0].split()) == codes
    assert set(_values(kiosk, "RestartPreventExitStatus")[0].split()) == codes
    (post,) = _values(kiosk, "ExecStopPost")
    assert post.startswith("+/bin/sh -c ")  # "+": as root
    script = shlex.split(post[1:])[2]
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "systemctl").write_text(f"#!/bin/sh\necho \"$@\" >> {tmp_path / 'called'}\n")
    (fake / "systemctl").chmod(0o755)
    for status in ("0", "1", "10", "11"):
        subprocess.run(["/bin/sh", "-c", script], check=True,
                       env={"PATH": f"{fake}:/usr/bin:/bin", "EXIT_STATUS": status})
    assert (tmp_path / "called").read_text().splitlines() == ["--no-block poweroff", "--no-block reboot"]
    assert power.EXIT_CODES == {"poweroff": 10, "reboot": 11}


def test_the_units_and_install_pi_agree_on_the_paths():
    script = (REPO / "scripts" / "install-pi").read_text()
    assert "PREFIX=/opt/companion\n" in script and "STATE=/var/lib/companion\n" in script
    assert "CONFIG=/etc/default/companion\n" in script and "NAME=companion\n" in script
    for name in SYSTEM_UNITS + USER_UNITS:
        assert f'"$SRC/systemd/{name}"' in script
    assert '"$SRC/systemd/companion.desktop"' in script
    desktop = (UNITS / "companion.desktop").read_text()
    assert "Exec=systemctl --user start companion-desktop.service" in desktop


@pytest.mark.parametrize("name", SYSTEM_UNITS + USER_UNITS)
def test_no_unit_puts_the_wifi_password_on_a_command_line(name):
    """Every user's `ps` shows a command line: the password reaches the companion in its environment, from
    /etc/default/companion (mode 0640, root and the companion's group)."""
    for key in ("ExecStart", "ExecStartPre", "ExecStopPost"):
        for value in _values(name, key):
            assert "PASSWORD" not in value and "password" not in value, value
    assert _values(name, "EnvironmentFile") == ["-/etc/default/companion"]


@pytest.mark.parametrize("name", SYSTEM_UNITS + USER_UNITS)
def test_every_unit_raises_the_descriptor_limit_above_systemds_1024(name):
    (limit,) = _values(name, "LimitNOFILE")
    assert int(limit) >= 4096
