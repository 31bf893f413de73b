"""The touchscreen's board tokens have names: a token shows its seat's colour and symbol and a number; a tap on it
says whose it is and which figure (the colour's name, the figure's name, its note) in the zone's line for a few
seconds, then the line is the zone's own again. In a real offscreen Kivy window, in a process of its own."""

from __future__ import annotations

from test_ui_widgets import run

NAMED = r'''
from kivy.base import EventLoop
from kivy.clock import Clock
from kivy.uix.floatlayout import FloatLayout
from companion.ui.parts import ZoneCard
from companion.ui.words import Words

def frame():
    for _ in range(3):
        EventLoop.idle()

class Touch:  # what a finger gives a widget: where it is
    def __init__(self, x, y):
        self.pos, self.x, self.y = (x, y), x, y

out = {}
for lang in ("en", "zh-Hant", "vi"):
    root = FloatLayout()
    Window.add_widget(root)
    card = ZoneCard(Words(lang), size_hint=(None, None), size=(260, 200), pos=(20, 20))
    root.add_widget(card)
    card.show({"id": "4", "number": 4, "name": {"key": "colour.green", "params": {}}, "count": 2,
               "detail": [{"n": 3}],
               "tokens": [{"seat": "red", "mark": "1", "name": {"key": "colour.yellow", "params": {}}},
                          {"seat": "blue", "mark": "7", "name": {"key": "colour.white", "params": {}},
                           "note": {"key": "colour.black", "params": {}}}]})
    frame()
    before = card.detail.text
    token = list(reversed(card.tokens.children))[1]
    took = card.on_touch_down(Touch(*token.center))
    frame()
    named = card.detail.text
    missed = card.on_touch_down(Touch(card.x + 2, card.top - 2))
    Clock.tick()
    card._naming.cancel()
    card._unname()
    frame()
    out[lang] = {"before": before, "named": named, "took": took, "missed": bool(missed), "after": card.detail.text,
                 "names": card.names}
    Window.remove_widget(root)
print(json.dumps(out))
'''


def test_a_tap_on_a_token_says_whose_it_is_and_which_figure():
    from companion.catalogue import catalogue
    from companion.contract import Message

    books = catalogue()
    seen = run(NAMED)
    for lang, found in seen.items():
        word = lambda key, lang=lang: books.text(Message(key), lang)  # noqa: E731
        assert found["names"] == [f"{word('colour.red')} {word('colour.yellow')}",
                                  f"{word('colour.blue')} {word('colour.white')} {word('colour.black')}"]
        assert found["took"] is True and found["named"] == found["names"][1], found
        assert found["missed"] is False  # a tap beside the tokens is not taken
        assert found["before"] == "3" and found["after"] == "3", found  # the zone's own line again
