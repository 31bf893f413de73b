"""The rule at hand: which rule of a game is behind a question or a line of the narration, the words that say it,
the table options that change it, and the whole book by phase.

It reads a game's RuleBook (companion/contract.py) and the catalogue's keys; it knows no game. The table puts what
it finds in every view (`rules`, and `rule` on each line and question), so the touchscreen and the page only draw
messages: a rule's title, the rule, the moment's facts (`now`) and the options in force that change it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.contract import Message, RuleBook


def _value(value: Any) -> str:
    """A table option's value as a catalogue key part: true/false as JSON writes them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Rules:
    """A game's rule book with the table options it is played with, against the catalogue's keys."""

    def __init__(self, book: RuleBook, options: Mapping[str, Any], has) -> None:
        self.book = book
        self.options = dict(options)
        self._has = has  # has(key) -> bool: the catalogue holds this key

    def key(self, rule: str, part: str = "") -> str:
        return f"{self.book.family}.rules.{rule}{'.' + part if part else ''}"

    def of(self, message: Message) -> str | None:
        """The rule behind a question's title or a narration line."""
        return self.book.rule_of(message.key)

    def words(self, rule: str) -> dict:
        """A rule's words as messages (JSON): its title, the rule, and each option in force that changes it."""
        notes = []
        for name in self.book.options.get(rule, ()):
            key = f"{self.book.family}.rules.option.{name}.{_value(self.options.get(name))}"
            if self._has(key):
                notes.append(Message(key).to_json())
        return {"title": Message(self.key(rule, "title")).to_json(), "text": Message(self.key(rule)).to_json(),
                "options": notes}

    def now(self, rule: str, message: Message) -> dict | None:
        """The moment's facts under the rule, from the parameters of the message it is behind (where the catalogue
        has them)."""
        key = self.key(rule, "now")
        return Message(key, message.params).to_json() if self._has(key) else None

    def tagged(self, json: dict, message: Message) -> dict:
        """A line's or a question's JSON with its rule (and the moment's facts) added."""
        rule = self.of(message)
        if rule is None:
            return json
        out = {**json, "rule": rule}
        now = self.now(rule, message)
        if now is not None:
            out["now"] = now
        return out

    def table(self, rules: Iterable[str]) -> dict[str, dict]:
        """The words of these rules, by id (what a view carries for the lines and questions it shows)."""
        return {rule: self.words(rule) for rule in dict.fromkeys(rules)}

    def whole(self) -> list[dict]:
        """The whole book, by phase: [{"phase": heading, "rules": [{"id", "title", "text", "options"}]}]."""
        return [{"phase": Message(f"{self.book.family}.rules.phase.{phase}").to_json(),
                 "rules": [{"id": rule, **self.words(rule)} for rule in rules]}
                for phase, rules in self.book.phases]


def first_met(book: RuleBook, before: Iterable[Message], now: Iterable[Message]) -> list[str]:
    """The rules the messages of this moment are under that no message before it was (first-game mode explains
    these, in order)."""
    met = {book.rule_of(m.key) for m in before}
    out: list[str] = []
    for message in now:
        rule = book.rule_of(message.key)
        if rule is not None and rule not in met and rule not in out:
            out.append(rule)
    return out
