"""`companion bench ui` runs the touchscreen app, a bare Kivy window and the app in Chinese offscreen, and prints its
figures (never asserted: speed is for the bench to print)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
       "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}


def test_bench_ui_prints_the_apps_figures_beside_a_bare_window_with_cpu_per_redraw_and_the_chinese_memory():
    result = subprocess.run([sys.executable, "-m", "companion", "bench", "ui", "--idle", "0.2", "--answers", "90"],
                            capture_output=True, text=True, env=ENV, cwd=REPO, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    assert "load average" in out and "cold start to first frame" in out and "peak memory" in out
    if Path("/proc/stat").exists():
        assert "taken by the hypervisor meanwhile (steal)" in out
    # A game of seed 3 is 86 answers: the 90 measured run into the next game, on the same screen.
    assert "answer -> screen redrawn: p50" in out and "over 90 answers in 2 game(s)" in out
    assert "(game 1, answer" in out or "(game 2, answer" in out
    assert "CPU time per redraw" in out and "bare window p50" in out
    assert "the same game in zh-Hans: peak memory" in out
