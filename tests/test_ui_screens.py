"""Every screen of the touchscreen app in each of the four languages, at the Pi's 800x480 and at 1280x800:
a screenshot of each (kept in tests/screenshots/ui/ for a person to look at), and for every text on it: it fits
its widget, its font has every one of its glyphs (no tofu), its words are translated."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from companion.catalogue import LANGUAGES

ROOT = Path(__file__).parents[1]
SHOTS = ROOT / "tests" / "screenshots" / "ui"
SIZES = ["800x480", "1280x800"]
SCREENS = ["newgame", "newgame-end", "menu", "join", "board-start", "answer", "cover", "answer-cards", "board-direct",
           "board-direct-cards", "confirm-undo", "board-dice", "cover-peek", "peek", "answer-secrets",
           "board-revealing", "answer-revealing", "board-revealed", "board-round2", "board-dropped", "history", "end",
           "rules-whole", "rules-why", "rules-first"]
ENV = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
       "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


def shoot(size: str, tmp: Path) -> dict:
    folder = SHOTS / size
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "uikit.py"), "screens", "--out", str(folder),
                           "--size", size, "--tmp", str(tmp)], env=ENV, cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads((folder / "report.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, dict]:
    tmp = tmp_path_factory.mktemp("ui-screens")
    with ThreadPoolExecutor(2) as pool:
        futures = {size: pool.submit(shoot, size, tmp) for size in SIZES}
        return {size: future.result() for size, future in futures.items()}


@pytest.mark.parametrize("size", SIZES)
def test_every_screen_is_shot_in_every_language(reports, size):
    report = reports[size]
    assert all(report["shown"].values()), report["shown"]
    names = {Path(p).name for p in report["shots"]}
    wanted = {f"{screen}-{lang}-{size}.png" for screen in SCREENS for lang in LANGUAGES}
    assert wanted <= names, sorted(wanted - names)
    for path in report["shots"]:
        assert Path(path).stat().st_size > 5000, f"{path} is (nearly) empty"


@pytest.mark.parametrize("size", SIZES)
def test_no_text_overflows_shows_tofu_or_is_left_untranslated(reports, size):
    problems = reports[size]["problems"]
    assert not problems, "\n".join(problems[:40])


@pytest.mark.parametrize("size", SIZES)
def test_after_a_change_of_language_nothing_is_set_aside_from_collections(reports, size):
    """The widgets made at the start are set aside from Python's collections (they live as long as the app); a
    change of language makes every screen's words again and drops them: set aside, they would never be freed."""
    assert reports[size]["set_aside"] == 0
