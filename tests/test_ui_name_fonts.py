"""A person's name in any script on the touchscreen (issue 28): a Chinese name on a screen in English is drawn in
the Chinese face (DejaVu Sans has no Chinese), and the Chinese faces are cut with the names' characters too, off
the screen's thread, so 陈 is never a box."""

from __future__ import annotations

import pytest
from fontTools.ttLib import TTFont
from test_ui_widgets import run

from companion.ui import fonts

pytestmark = pytest.mark.skipif(fonts.missing_cjk(), reason="no Noto CJK installed (scripts/setup installs it)")


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    monkeypatch.setattr(fonts, "cache_dir", lambda: tmp_path)
    monkeypatch.setattr(fonts, "screen_characters", lambda: "僵尸来了 ABC")
    fonts.forget()
    yield tmp_path
    fonts.forget()


def cmap(path: str) -> set[int]:
    return set(TTFont(path, lazy=True).getBestCmap())


def test_a_name_with_characters_the_faces_lack_is_learnt_once(fresh):
    assert not fonts.learn_names(["ABC", "僵尸"])  # the screen's own characters
    assert fonts.learn_names(["陈小明"]) and not fonts.learn_names(["陈小明", "小陈"])
    assert fonts.learn_names(["Bà"])  # à is new; B is the screen's own
    assert fonts.characters() == "僵尸来了 ABC" + "".join(sorted("陈小明à"))


def test_the_screen_keeps_its_face_while_the_new_one_is_cut_elsewhere(fresh):
    old = fonts.cjk_face("Noto Sans CJK SC")  # the first face of all: made at once
    assert ord("陈") not in cmap(old)
    assert fonts.learn_names(["陈小明"])
    assert fonts.cjk_face("Noto Sans CJK SC") == old  # the screen's thread never waits for a cut
    made = fonts.prepare()  # off the screen's thread
    new = fonts.cjk_face("Noto Sans CJK SC")
    assert new != old and new in made and {ord(c) for c in "陈小明僵尸"} <= cmap(new)
    assert ord("陈") in cmap(fonts.cjk_face("Noto Sans CJK TC"))  # the traditional face draws it too


def test_a_face_this_process_uses_is_never_removed_as_stale(fresh):
    import os
    import time

    old = fonts.cjk_face("Noto Sans CJK SC")
    hour_ago = time.time() - fonts.STALE_FONT - 1
    os.utime(old, (hour_ago, hour_ago))
    fonts.learn_names(["陈"])
    fonts.prepare()
    assert os.path.exists(old)  # this screen may still open another size of it


TEXTS = r"""
from kivy.base import EventLoop
from kivy.uix.floatlayout import FloatLayout
from companion.ui import fonts
from companion.ui.widgets import Text

root = FloatLayout()
Window.add_widget(root)
made = Text(text="Red", size_hint=(None, None), size=(300, 40))
root.add_widget(made)
seen = {}
for text in ("Red", "陈小明 (Yellow)", "Blue"):
    made.text = text
    for _ in range(4):
        EventLoop.idle()
    seen[text] = made.font_name
made.font_name = fonts.font_for("zh-Hant")  # the screen's language changed to 繁體中文
made.text = "陈小明（黃）"
for _ in range(4):
    EventLoop.idle()
seen["zh-Hant"] = made.font_name
made.text = "Blue"
for _ in range(4):
    EventLoop.idle()
seen["zh-Hant, Latin"] = made.font_name
seen["wide"] = fonts.wide_font()
seen["zh-Hant face"] = fonts.font_for("zh-Hant")
print(json.dumps(seen, ensure_ascii=False))
"""


def test_a_chinese_name_on_a_screen_in_english_is_drawn_in_the_chinese_face_and_back():
    seen = run(TEXTS)
    assert seen["Red"] == "DejaVuSans" and seen["Blue"] == "DejaVuSans"
    assert seen["陈小明 (Yellow)"] == seen["wide"]
    assert seen["zh-Hant"] == seen["zh-Hant face"] and seen["zh-Hant, Latin"] == seen["zh-Hant face"]
