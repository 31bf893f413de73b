"""Text (companion/ui/widgets.py) fits its box: it shrinks rather than cut a word of a spaced language in two, and
Chinese, which breaks between any two characters, wraps at its size. In a real offscreen Kivy window."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
       "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}

SCRIPT = r'''
import json
from companion.ui.run import configure_kivy, open_window
configure_kivy("offscreen")
Window = open_window()
from kivy.base import EventLoop
from kivy.uix.floatlayout import FloatLayout
from companion.ui import fonts
from companion.ui.widgets import Text

root = FloatLayout()
Window.add_widget(root)
made = {
    "word": Text(text="Supermarket", base_font=17, min_font=8, size_hint=(None, None), size=(80, 40)),
    "words": Text(text="Security HQ", base_font=17, min_font=8, size_hint=(None, None), size=(80, 40)),
    "chinese": Text(text="第二轮：僵尸攻击超市", base_font=17, min_font=8, size_hint=(None, None), size=(80, 60),
                    font_name=fonts.font_for("zh-Hans")),
}
for text in made.values():
    root.add_widget(text)
for _ in range(6):
    EventLoop.idle()
out = {}
for name, text in made.items():
    lines = ["".join(word.text for word in line.words) for line in text._label._cached_lines]
    out[name] = {"lines": lines, "size": text.font_size, "fits": text.texture_size[0] <= text.width + 1
                 and text.texture_size[1] <= text.height + 1}
print(json.dumps(out, ensure_ascii=False))
'''


def test_a_word_is_never_cut_in_two_a_smaller_size_is_taken_instead():
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=ENV, cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["word"]["lines"] == ["Supermarket"] and out["word"]["fits"] and out["word"]["size"] < 17
    assert [line.strip() for line in out["words"]["lines"]] == ["Security", "HQ"] and out["words"]["fits"]
    if not fonts_missing():
        chinese = out["chinese"]
        assert len(chinese["lines"]) > 1 and chinese["fits"] and chinese["size"] >= 14  # wrapped, not shrunk


def fonts_missing() -> bool:
    from companion.ui import fonts

    return fonts.missing_cjk()
