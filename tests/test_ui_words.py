"""The touchscreen app's words and fonts: every ui.* key it uses is in the catalogue; Chinese gets the right
face of Noto CJK (SC for 简体, TC for 繁體); `companion run` with no display says so and serves headless."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.catalogue import LANGUAGES, catalogue
from companion.ui import fonts

ROOT = Path(__file__).parents[1]
UI_KEY = re.compile(r"""["'](ui\.[a-z0-9_.]+)["']""")


def used_keys() -> set[str]:
    found = set()
    for path in [*(ROOT / "companion" / "ui").rglob("*.py"), *(ROOT / "kv").glob("*.kv")]:
        found |= set(UI_KEY.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_ui_key_the_app_uses_is_in_every_language():
    keys = used_keys()
    assert len(keys) > 60
    missing = [f"{lang}: {key}" for key in sorted(keys) for lang in LANGUAGES if not catalogue().has(key, lang)]
    assert not missing, missing


def test_every_kv_file_is_a_screen_of_the_app_or_its_widgets():
    from companion.ui.screens import SCREEN_CLASSES

    assert {p.stem for p in (ROOT / "kv").glob("*.kv")} == {*SCREEN_CLASSES, "widgets"}


@pytest.mark.skipif(fonts.missing_cjk(), reason="no Noto CJK installed (scripts/setup installs fonts-noto-cjk)")
@pytest.mark.parametrize("lang, family", [("zh-Hans", "Noto Sans CJK SC"), ("zh-Hant", "Noto Sans CJK TC")])
def test_chinese_gets_its_own_face_of_noto_cjk(lang, family):
    path = fonts.font_for(lang)
    data = Path(path).read_bytes()
    assert fonts.family_name(data, 0) == family
    assert fonts.font_for("vi").endswith("DejaVuSans.ttf") and fonts.font_for("en") == fonts.font_for("vi")


def test_a_face_is_copied_out_of_a_collection_whole(tmp_path):
    source = next((Path(p) for p in fonts.CJK_FILES if Path(p).exists()), None)
    if source is None:
        pytest.skip("no font collection installed")
    data = source.read_bytes()
    index = fonts.face_index(data, "Noto Sans CJK TC")
    face = fonts.extract_face(data, index)
    assert fonts.face_offsets(face) == [0] and fonts.family_name(face, 0) == "Noto Sans CJK TC"
    from fontTools.ttLib import TTFont

    (tmp_path / "tc.otf").write_bytes(face)
    assert ord("殭") in TTFont(str(tmp_path / "tc.otf")).getBestCmap()


def test_companion_run_with_no_display_says_so_and_serves_headless(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env["PYTHONPATH"] = str(ROOT)
    if Path("/dev/dri").exists():
        pytest.skip("this machine has a DRM device: run would open a window")
    process = subprocess.Popen([sys.executable, "-m", "companion", "run", "--db", str(tmp_path / "t.sqlite3"),
                                "--port", "0", "--host", "127.0.0.1", "--address", "127.0.0.1",
                                "--players", "red,blue,yellow"], env=env, cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not any(line.startswith("seat ") for line in lines):
            line = process.stdout.readline()
            if not line:
                break
            lines.append(line)
        assert lines[0].startswith("companion run: no display here"), lines[:3]
        assert any(line.startswith("host http://127.0.0.1:") for line in lines)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)


@pytest.mark.skipif(fonts.missing_cjk(), reason="no Noto CJK installed (scripts/setup installs fonts-noto-cjk)")
def test_the_chinese_faces_are_cut_down_to_every_character_of_the_catalogues():
    from fontTools.ttLib import TTFont

    chars = fonts.screen_characters()
    catalogue_chars = set()  # every character a message of the table or a game can show, in every language
    for messages in catalogue().messages.values():
        for message in messages.values():
            catalogue_chars |= {c for c in "".join(message) if c.isprintable() and not c.isspace()}
    assert catalogue_chars <= set(chars) and {"简", "體", "ế", "▶", "：", "，"} <= set(chars)
    source = next(Path(p) for p in fonts.CJK_FILES if Path(p).exists())
    data = source.read_bytes()
    for lang in ("zh-Hans", "zh-Hant"):
        path = Path(fonts.font_for(lang))
        whole = TTFont(io.BytesIO(fonts.extract_face(data, fonts.face_index(data, fonts.FACES[lang]))), lazy=True)
        has = set(whole.getBestCmap())  # (a few symbols of the phone page are in no CJK face)
        cmap = TTFont(path, lazy=True).getBestCmap()
        lacking = {c for c in catalogue_chars if ord(c) in has and ord(c) not in cmap}
        assert not lacking, f"{path.name} lacks {''.join(sorted(lacking))[:40]}"
        assert path.stat().st_size < 2_000_000  # the whole face is 16 MB


def test_new_characters_in_the_catalogues_make_a_new_font(tmp_path, monkeypatch):
    if fonts.missing_cjk():
        pytest.skip("no Noto CJK installed")
    monkeypatch.setattr(fonts, "cache_dir", lambda: tmp_path)
    fonts.forget()
    monkeypatch.setattr(fonts, "screen_characters", lambda: "僵尸来了 ABC")
    first = Path(fonts.cjk_face("Noto Sans CJK SC"))
    fonts.forget()
    monkeypatch.setattr(fonts, "screen_characters", lambda: "僵尸来了 ABC 救援")
    second = Path(fonts.cjk_face("Noto Sans CJK SC"))
    fonts.forget()
    # Another process (a game only the tests know, with characters of its own) may still be reading the first: kept
    assert first != second and first.exists() and second.exists()
    hour_ago = time.time() - fonts.STALE_FONT - 1
    os.utime(first, (hour_ago, hour_ago))
    monkeypatch.setattr(fonts, "screen_characters", lambda: "僵尸来了 ABC 救援 !")
    third = Path(fonts.cjk_face("Noto Sans CJK SC"))
    fonts.forget()
    from fontTools.ttLib import TTFont

    assert not first.exists() and second.exists() and third.exists()  # the old one is gone once nobody uses it
    assert ord("援") in TTFont(second, lazy=True).getBestCmap() and fonts.family_name(second.read_bytes(), 0) == \
        "Noto Sans CJK SC"
