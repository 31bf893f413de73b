"""A built wheel is the whole companion: made from a clean clone of this checkout (`pip wheel --no-deps`), installed
into a fresh venv (no system site-packages, no checkout on its path), it holds every file of companion/ and the
top-level kv/ layouts (as companion/kv), and its `companion run` opens the touchscreen offscreen to a first frame.

Needs git and pip's usual sources (the index or pip's cache, for the build's setuptools and the dependencies): without
them it is skipped and says why. Takes a minute or two, most of it installing Kivy into the new venv."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

# Run by the new venv's Python: `companion run` as its console script runs it (companion.cli.main), with a look at
# its first frame (a screenshot once the app has drawn its first screen), after which the app is asked to stop.
FIRST_FRAME = """
import json, sys
import companion, companion.ui.run as run
from companion.cli import main

opened = run.open_window
def open_window():
    window = opened()
    def flipped(*_args):
        from kivy.app import App
        app = App.get_running_app()
        if app is None or app.root is None or not app.root.current:
            return
        window.unbind(on_flip=flipped)
        shot = window.screenshot(name=sys.argv[1])
        import companion.ui.app as ui
        print(json.dumps({"package": companion.__file__, "kv": str(ui.KV), "screen": app.root.current,
                          "screenshot": shot}), flush=True)
        app.stop()
    window.bind(on_flip=flipped)
    return window
run.open_window = open_window
sys.exit(main(sys.argv[2:]))
"""


# What pip says when it can reach neither its index nor its cache: the machine lacks what the test needs.
OFFLINE = ("No matching distribution found", "Failed to establish a new connection", "Temporary failure in name "
           "resolution", "Network is unreachable", "Could not find a version that satisfies the requirement")


def _pip(*args: str | Path, env: dict | None = None) -> None:
    """pip, run as given; a machine whose pip reaches neither its index nor its cache skips the test and says why."""
    done = subprocess.run([str(arg) for arg in args], capture_output=True, text=True, env=env)
    if done.returncode != 0 and any(sign in done.stdout + done.stderr for sign in OFFLINE):
        pytest.skip(f"pip reaches neither its index nor its cache: {done.stderr.strip().splitlines()[-1][:200]}")
    assert done.returncode == 0, f"{' '.join(map(str, args))}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


def _run(*args: str | Path, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([str(arg) for arg in args], capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{' '.join(map(str, args))}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    if subprocess.run(["git", "-C", str(REPO), "rev-parse"], capture_output=True).returncode != 0:
        pytest.skip("not a git checkout: no clean clone to build from")
    folder = tmp_path_factory.mktemp("wheel")
    clone = folder / "clone"
    _run("git", "clone", "--quiet", "--no-hardlinks", REPO, clone)
    # The checkout's files as they are now, committed or not (a clone has only what is committed).
    tracked = _run("git", "-C", REPO, "ls-files", "-z", "--cached", "--others", "--exclude-standard").stdout
    for name in filter(None, tracked.split("\0")):
        source = REPO / name
        if source.is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, clone / name)
    built = folder / "dist"
    _pip(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", built, clone)
    (found,) = built.glob("companion-*.whl")
    return found


def test_the_wheel_holds_every_file_of_the_package_and_the_layouts(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    files = _run("git", "-C", REPO, "ls-files", "--cached", "--others", "--exclude-standard", "companion",
                 "kv").stdout.split()
    expected = {name.replace("kv/", "companion/kv/", 1) if name.startswith("kv/") else name for name in files}
    assert {name for name in expected if (REPO / name.replace("companion/kv/", "kv/", 1)).is_file()} - names == set()
    assert {f"companion/kv/{path.name}" for path in (REPO / "kv").glob("*.kv")} <= names
    assert not any(name.startswith("kv/") for name in names)  # no top-level kv package in site-packages


def test_the_wheel_in_a_fresh_venv_runs_the_touchscreen_to_its_first_frame(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(env_dir)
    python = env_dir / "bin" / "python"
    _pip(python, "-m", "pip", "install", "--quiet", wheel)  # its dependencies from the index or pip's cache
    assert _run(env_dir / "bin" / "companion", "--version", cwd=tmp_path).stdout.startswith("companion ")
    shot = tmp_path / "first-frame.png"
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "DISPLAY", "WAYLAND_DISPLAY")}
    env.update(SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1")
    done = subprocess.run([python, "-c", FIRST_FRAME, str(shot), "run", "--db", str(tmp_path / "box.sqlite3"),
                           "--host", "127.0.0.1", "--port", "0"], capture_output=True, text=True, cwd=tmp_path,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    frame = json.loads(done.stdout.splitlines()[-1])
    site = env_dir / "lib"
    assert Path(frame["package"]).is_relative_to(site) and Path(frame["kv"]).is_relative_to(site), frame
    assert Path(frame["kv"]).name == "kv" and Path(frame["kv"]).parent.name == "companion"
    assert frame["screen"] == "newgame"  # no game yet: the table's first screen offers the games
    picture = Path(frame["screenshot"])
    assert picture.is_file() and picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and picture.stat().st_size > 5000


def test_a_pip_that_reaches_no_index_skips_and_says_why(tmp_path):
    env = {**os.environ, "PIP_CONFIG_FILE": os.devnull, "PIP_FIND_LINKS": "", "PIP_NO_CACHE_DIR": "1"}
    offline = [sys.executable, "-m", "pip", "download", "--no-deps", "--dest", tmp_path, "--retries", "0",
               "--index-url", "http://127.0.0.1:9/simple", "setuptools"]  # port 9 (discard): nothing answers
    with pytest.raises(pytest.skip.Exception, match="pip reaches neither its index nor its cache"):
        _pip(*offline, env=env)
