"""`companion run/serve`: the Wi-Fi password comes from COMPANION_WIFI_PASSWORD or a file only its owner reads,
never from the command line (which every user's `ps` shows). The accepted ways are played end to end in
test_serve_strangers.py (test_the_wifi_password_comes_from_the_environment_or_a_private_file_...)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PASSWORD = "brains brains 42"


def companion(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("COMPANION_WIFI_PASSWORD", None)
    return subprocess.run([sys.executable, "-m", "companion", *args, "--port", "0", "--host", "127.0.0.1"],
                          capture_output=True, text=True, env=env, timeout=60)


@pytest.mark.parametrize("command", ["run", "serve"])
@pytest.mark.parametrize("given", [["--wifi-password", PASSWORD], [f"--wifi-password={PASSWORD}"]])
def test_a_password_on_the_command_line_is_refused_in_one_line_that_says_how_to_give_it(tmp_path, command, given):
    done = companion(command, "--db", str(tmp_path / "box.sqlite3"), "--wifi-ssid=Zombie table", *given)
    assert done.returncode == 2
    assert done.stdout == "" and len(done.stderr.splitlines()) == 1, done.stderr
    said = done.stderr
    assert said.startswith(f"companion {command}: --wifi-password is refused")
    assert "--wifi-password-file" in said and "COMPANION_WIFI_PASSWORD" in said
    assert PASSWORD not in said and "brains" not in said  # the secret is not said back
    assert not (tmp_path / "box.sqlite3").exists()  # refused before anything started


def test_the_password_option_is_not_offered_in_the_help():
    shown = subprocess.run([sys.executable, "-m", "companion", "serve", "--help"], capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60).stdout
    assert "--wifi-password-file" in shown
    assert "--wifi-password " not in shown and "--wifi-password\n" not in shown


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o444])
def test_a_password_file_others_can_read_is_refused_with_the_chmod_that_fixes_it(tmp_path, mode):
    secret = tmp_path / "wifi-password"
    secret.write_text(PASSWORD + "\n")
    secret.chmod(mode)
    done = companion("serve", "--db", str(tmp_path / "box.sqlite3"), "--wifi-ssid=Zombie table",
                     f"--wifi-password-file={secret}")
    assert done.returncode == 2
    assert done.stderr == f"companion serve: {secret} is readable by others: chmod 600 {secret}\n"
    assert PASSWORD not in done.stderr
    assert not (tmp_path / "box.sqlite3").exists()


@pytest.mark.parametrize("mode", [0o600, 0o400])
def test_a_password_file_only_its_owner_reads_is_taken_and_the_environment_is_emptied(monkeypatch, tmp_path, mode):
    from companion.cli import _wifi_password

    secret = tmp_path / "wifi-password"
    secret.write_text(PASSWORD + "\r\n")
    secret.chmod(mode)
    monkeypatch.setenv("COMPANION_WIFI_PASSWORD", "from the environment")
    args = type("Args", (), {"command": "serve", "wifi_password": None, "wifi_password_file": str(secret)})()
    assert _wifi_password(args) == PASSWORD  # the file wins; its line end is not part of the password
    assert "COMPANION_WIFI_PASSWORD" not in os.environ  # no program the companion starts inherits it


def test_a_missing_password_file_is_one_line(tmp_path):
    missing = tmp_path / "nowhere"
    done = companion("serve", "--db", str(tmp_path / "box.sqlite3"), f"--wifi-password-file={missing}")
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
    assert done.stderr.startswith("companion serve: --wifi-password-file:") and str(missing) in done.stderr
