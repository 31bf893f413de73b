"""The benchmarks run and print their figures (the figures themselves are never asserted)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}


def test_bench_table_plays_games_through_a_table_and_prints_the_p99():
    result = subprocess.run([sys.executable, "-m", "companion", "bench", "table", "--games", "2"],
                            capture_output=True, text=True, env=ENV, cwd=REPO, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "p99" in result.stdout and "goal < 5 ms" in result.stdout
    assert "events per second" in result.stdout
