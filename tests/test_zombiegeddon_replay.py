"""`companion replay tests/scripts/zombiegeddon.json` through the real command: a whole Zombiegeddon game (a tie for
the post-bomb start settled by re-entry, a sheet corrected after it was handed in) printed as JSON, and stored so
that `companion history` lists it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "scripts" / "zombiegeddon.json"


def run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, env=env,
                          timeout=120, cwd=ROOT)


def test_the_script_plays_a_whole_game_through_the_real_command_and_is_stored(tmp_path):
    db = tmp_path / "zg.sqlite3"
    result = run("replay", str(SCRIPT), "--db", str(db), "--lang", "vi")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    record = json.loads(result.stdout)
    assert record["game"] == "zombiegeddon" and record["over"] and record["winners"] == ["blue"]
    assert record["starter"] == "blue" and record["revealed"] == [{"red": 4, "yellow": 6, "blue": 6},
                                                                 {"yellow": 3, "blue": 5}]
    assert {seat: s["total"] for seat, s in record["scores"].items()} == {"red": 49, "yellow": 53, "blue": 58}
    assert record["scores"]["red"]["zombies"] == 3  # corrected after it was handed in
    lines = record["narration"]
    keys = [entry["key"] for entry in lines]
    assert keys.count("zg.n.score") == 3 and keys[-1] == "zg.n.winner"
    assert [entry["key"] for entry in lines if entry.get("act")] == [
        "zg.n.take_remaining", "zg.n.check.remove", "zg.n.check.shuffle", "zg.n.check.figures",
        "zg.n.check.tokens", "zg.n.take_remaining"]
    assert lines[-1]["text"] == "Xanh dương thắng với 58 điểm"
    history = run("history", "--db", str(db))
    assert history.returncode == 0 and "zombiegeddon  red, yellow, blue  won by blue" in history.stdout


def test_an_illegal_action_in_a_script_names_it_on_one_line(tmp_path):
    script = json.loads(SCRIPT.read_text(encoding="utf-8"))
    script["actions"] = script["actions"][:2] + [{"seat": "blue", "act": "action"}]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    result = run("replay", str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip() == ('companion replay: action 2 {"seat": "blue", "act": "action"}: '
                                     "It is Yellow's turn, not Blue's.")
