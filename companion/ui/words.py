"""Every word on the screen, from the one catalogue, in the language the table chose."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.catalogue import LANGUAGES, catalogue, language
from companion.contract import Message
from companion.ui import fonts


class Words:
    """The screen's language: sentences from catalogue keys and messages, and the font that draws them."""

    def __init__(self, lang: str = "en"):
        self.lang = language(lang)
        self.used: set[str] = set()  # every key rendered (the tests check each exists in the language)
        self.names: dict[str, str] = {}  # the game's people by seat (the view's "names"): said beside colours

    def set(self, lang: str) -> None:
        self.lang = language(lang)

    @property
    def font(self) -> str:
        return fonts.font_for(self.lang)

    def t(self, key: str, **params: Any) -> str:
        return self.say(Message(key, params))

    def say(self, message: Message | Mapping | None) -> str:
        if message is None:
            return ""
        if not isinstance(message, Message):
            message = Message(message["key"], message.get("params", {}))
        self._note(message)
        return catalogue().text(message, self.lang, self.names)

    def seat(self, seat: str) -> str:
        """A seat as the table calls it: its colour, with its person's name where one was given."""
        self.used.update({f"colour.{seat}", *(["colour.named"] if self.names.get(seat) else [])})
        return catalogue().seat(seat, self.lang, self.names)

    def _note(self, message: Message) -> None:
        self.used.add(message.key)
        for value in message.params.values():
            if isinstance(value, Message):
                self._note(value)
            elif isinstance(value, Mapping) and "key" in value:
                self._note(Message(value["key"], value.get("params", {})))

    @staticmethod
    def languages() -> dict[str, str]:
        return dict(LANGUAGES)
