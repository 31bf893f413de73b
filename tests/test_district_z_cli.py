"""`companion replay` plays District-Z's script (tests/scripts/district-z.json) as a person would run it: a real
process, the seed's combat example inside a whole solo game on a 4 × 4 city, to the win."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "scripts" / "district-z.json"


def replay(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "companion", "replay", *args], capture_output=True, text=True,
                          env=env, timeout=120, cwd=ROOT)


def test_the_district_z_script_replays_to_the_win_with_its_narration_in_traditional_chinese(tmp_path):
    db = tmp_path / "dz.sqlite3"
    done = replay(str(SCRIPT), "--lang", "zh-Hant", "--db", str(db))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["over"] and out["winners"] == ["red"] and out["survivors"]["red"]["cell"] == "D4"
    assert out["table_options"]["grid"] == "4x4" and out["waiting"] == [] and out["options"] == {}
    texts = [line["text"] for line in out["narration"]]
    assert "C1 戰鬥第 1 回合：紅骰 2 3 4 對黑骰 1 3 3 5" in texts
    assert "從 C1 拿走 2 個殭屍指示物" in texts
    assert "在紅的倖存者卡上放 1 個傷害指示物（傷害 1，血量 5）" in texts
    acts = [line for line in out["narration"] if line.get("act")]
    assert [line["key"] for line in acts].count("dz.n.kill") == 2
    # the save file holds the game: history lists it as finished
    listed = subprocess.run([sys.executable, "-m", "companion", "history", "--db", str(db)], capture_output=True,
                            text=True, cwd=ROOT, timeout=60,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert listed.returncode == 0 and "red" in listed.stdout.lower()


def test_an_illegal_action_in_a_district_z_script_stops_it_naming_the_action(tmp_path):
    script = json.loads(SCRIPT.read_text(encoding="utf-8"))
    script["actions"][3] = {"seat": "red", "move": "n"}  # off the city's top edge
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    done = replay(str(path))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("companion replay: action 3 ") and "leaves the city" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_district_z_game_cut_short_resumes_from_its_save_file_where_it_stood(tmp_path):
    script = json.loads(SCRIPT.read_text(encoding="utf-8"))
    script["actions"] = script["actions"][:15]  # stopped after the first combat round's pairing
    path, db = tmp_path / "half.json", tmp_path / "half.sqlite3"
    path.write_text(json.dumps(script), encoding="utf-8")
    played = replay(str(path), "--db", str(db))
    assert played.returncode == 0, played.stderr
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    resumed = subprocess.run([sys.executable, "-m", "companion", "resume", "--db", str(db)], capture_output=True,
                             text=True, cwd=ROOT, timeout=60, env=env)
    assert resumed.returncode == 0, resumed.stderr
    before, after = json.loads(played.stdout), json.loads(resumed.stdout)
    assert after == before and not after["over"]
    assert after["step"] == "pair" and after["combat"]["zombies"] == 2  # round 2's dice are on the table
    assert after["combat"]["red"] == [3, 5, 6] and after["combat"]["black"] == [3, 5]
    assert after["waiting"] == ["red"] and after["options"]["red"] == []  # an assignment: its question says it
    assert after["combat"]["proposal"] == {"r1": "none", "r2": "b1", "r3": "b2"}  # the proposal: 2 kills
    assert after["survivors"]["red"]["damage"] == 1
