"""The one translation catalogue: every sentence a player reads, from Python or from the page.

Messages live in gettext `.po` files, one folder per language: `companion/locale/<lang>/*.po` for the table's
own words and `<game package>/locale/<lang>/*.po` for each game's. A msgid is a message key ("ui.undo"),
its msgstr the sentence with `{name}` placeholders. A message with a `count` parameter may have plural forms
(msgid_plural), chosen by the language's rule.

Parameters named in a TERMS table are words, translated too: a game whose TERMS say {"place": "<family>.place"}
has {"place": 4} read as its catalogue's "<family>.place.4". A list of terms becomes "Red, Blue and Green" in the
reader's language. A game's terms hold within its own messages only (its keys' family: every key of a game begins
with one word of its own), so two games may each have a `place` of their own; the table's terms (seat colours)
hold everywhere.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from companion.contract import Message

LOCALE = Path(__file__).parent / "locale"
LANGUAGES = {"en": "English", "zh-Hans": "简体中文", "zh-Hant": "繁體中文", "vi": "Tiếng Việt"}
DEFAULT = "en"
# The table's own terms: seat colours, whatever the game.
CORE_TERMS = {"colour": "colour", "seat": "colour", "colours": "colour", "winner": "colour", "winners": "colour",
              "voter": "colour", "candidate": "colour", "looker": "colour", "to_seat": "colour"}


def folder(lang: str) -> str:
    """The folder name of a language code ("zh-Hans" -> "zh_Hans")."""
    return lang.replace("-", "_")


def plural_index(lang: str, n: int) -> int:
    """Which plural form: English has two (1 / other); Chinese and Vietnamese one."""
    return (0 if n == 1 else 1) if lang == "en" else 0


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def family(key: str) -> str:
    """The family of a message key, its first word: "ui" for "ui.undo", a game's own word for its keys."""
    return key.split(".", 1)[0]


class Catalogue:
    """The messages of `roots` (the table's own, and games' without terms of their own) and of `games` (each a
    game's catalogue folder and its TERMS, which hold within the families of that folder's keys)."""

    def __init__(self, roots: list[Path], terms: Mapping[str, str],
                 games: Sequence[tuple[Path, Mapping[str, str]]] = ()):
        self.terms = dict(terms)  # the table's own terms, in every message
        self.families: dict[str, dict[str, str]] = {}  # a game's key family -> the terms of its messages
        self.messages: dict[str, dict[str, str | tuple[str, ...]]] = {lang: {} for lang in LANGUAGES}
        self.sources: dict[str, str] = {}  # key -> the English .po file that holds it (for error messages)
        for lang in LANGUAGES:
            for root in roots:
                for path in sorted((root / folder(lang)).glob("*.po")):
                    self._read(lang, path)
        for root, game_terms in games:
            keys = set(self.messages[DEFAULT])
            for lang in LANGUAGES:
                for path in sorted((root / folder(lang)).glob("*.po")):
                    self._read(lang, path)
            for name in sorted({family(key) for key in set(self.messages[DEFAULT]) - keys}):
                if name in self.families:
                    raise ValueError(f"{root}: its messages' family {name!r} is another game's already")
                self.families[name] = {**self.terms, **game_terms}

    def _read(self, lang: str, path: Path) -> None:
        with path.open("rb") as handle:
            po = read_po(handle, locale=None, abort_invalid=True)
        table = self.messages[lang]
        for message in po:
            if not message.id:
                continue  # the header
            key = message.id[0] if isinstance(message.id, tuple) else message.id
            if key in table:
                raise ValueError(f"{path}: message {key!r} is defined twice in {lang}")
            table[key] = tuple(message.string) if isinstance(message.string, tuple) else message.string
            if lang == DEFAULT:
                self.sources[key] = str(path)

    # -- rendering --------------------------------------------------------------------------------------------

    def has(self, key: str, lang: str = DEFAULT) -> bool:
        return bool(self.messages[lang].get(key))

    def raw(self, key: str, lang: str, count: object = None) -> str:
        """The sentence of `key` in `lang` (English when the language lacks it, the key itself as a last resort)."""
        found = self.messages.get(lang, {}).get(key) or self.messages[DEFAULT].get(key)
        if found is None:
            return key
        if isinstance(found, tuple):
            n = count if type(count) is int else 1
            return found[min(plural_index(lang if key in self.messages.get(lang, {}) else DEFAULT, n),
                             len(found) - 1)]
        return found

    def text(self, message: Message, lang: str = DEFAULT, names: Mapping[str, str] | None = None) -> str:
        """`message` in `lang`; a seat given a name in `names` is said with it ("Anna (Red)")."""
        params = message.params
        sentence = self.raw(message.key, lang, params.get("count"))
        terms = self.families.get(family(message.key), self.terms)
        values = {name: self.term(name, value, lang, terms, names) for name, value in params.items()}
        try:
            return sentence.format_map(_Missing(values))
        except (ValueError, IndexError, AttributeError):  # a broken placeholder in a translation: say the key
            return f"{message.key} {dict(params)}"

    def term(self, name: str, value: Any, lang: str, terms: Mapping[str, str] | None = None,
             names: Mapping[str, str] | None = None) -> str:
        """One parameter as words: a term through its prefix (the table's terms, or `terms`: those of the message
        it stands in), a list joined, a message inside a message rendered with its own key's terms, a seat with
        its person's name where `names` gives one."""
        prefix = (self.terms if terms is None else terms).get(name)
        if isinstance(value, list | tuple):
            return self.join([self.term(name, v, lang, terms, names) for v in value], lang)
        if isinstance(value, Mapping) and "key" in value:  # a message inside a message
            return self.text(Message(value["key"], value.get("params", {})), lang, names)
        if isinstance(value, Message):
            return self.text(value, lang, names)
        if prefix is None:
            return str(value)
        if prefix == "colour":
            return self.seat(str(value), lang, names)
        return self.raw(f"{prefix}.{value}", lang)

    def seat(self, seat: str, lang: str, names: Mapping[str, str] | None = None) -> str:
        """A seat as players call it: its colour, and its person's name where one was given ("Anna (Red)")."""
        colour = self.raw(f"colour.{seat}", lang)
        name = (names or {}).get(seat)
        if not name:
            return colour
        return self.raw("colour.named", lang).replace("{colour}", colour).replace("{name}", name)

    def join(self, words: list[str], lang: str) -> str:
        """"Red, Blue and Green" in the reader's language."""
        if not words:
            return self.raw("list.none", lang)
        if len(words) == 1:
            return words[0]
        separator, last = self.raw("list.separator", lang), self.raw("list.and", lang)
        return separator.join(words[:-1]) + last + words[-1]

    def page(self, lang: str) -> dict:
        """What the page needs to speak `lang`: every message (English where a key is missing) and the terms."""
        messages = {**self.messages[DEFAULT], **{k: v for k, v in self.messages[lang].items() if v}}
        return {
            "lang": lang,
            "languages": LANGUAGES,
            "plural": "en" if lang == "en" else "one",
            "terms": self.terms,
            "families": self.families,
            "messages": {k: list(v) if isinstance(v, tuple) else v for k, v in messages.items()},
        }


class _Missing(dict):
    """A placeholder with no parameter stays visible as {name} rather than failing the whole sentence."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """The catalogue of the table and every registered game, read once."""
    from companion.games import GAMES

    return Catalogue([LOCALE], CORE_TERMS, [(game.LOCALE, game.TERMS) for game in GAMES.values()])


def text(message: Message, lang: str = DEFAULT, names: Mapping[str, str] | None = None) -> str:
    return catalogue().text(message, lang, names)


def say(key: str, lang: str = DEFAULT, **params: Any) -> str:
    return catalogue().text(Message(key, params), lang)


def language(value: object) -> str:
    """A supported language code for `value` ("zh-hans", "zh_Hant", "vi-VN", ...), English otherwise."""
    if not isinstance(value, str):
        return DEFAULT
    wanted = value.replace("_", "-").lower()
    for code in LANGUAGES:
        if wanted == code.lower():
            return code
    if wanted.startswith("zh"):
        return "zh-Hant" if any(t in wanted for t in ("hant", "-tw", "-hk", "-mo")) else "zh-Hans"
    base = wanted.split("-")[0]
    return base if base in LANGUAGES else DEFAULT
