"""What a refusal says of a wrong JSON value, shared by every game's start and answers.

A refusal names what was expected and what came instead: `shown(value)` is a nested message ("the text "5"",
"true", "a list") that a game's refusal takes as a parameter, rendered in each reader's language by the catalogue
(`companion/locale/<lang>/checks.po`); `expected(int)` says what a field must be ("a whole number"). `is_whole`
is the one test of a whole number: a boolean is not one.
"""

from __future__ import annotations

MAX_SHOWN = 40  # characters of a sent text or number repeated in a refusal


def is_whole(value: object) -> bool:
    """A whole number as JSON sends it: `true` is not 1, and 2.0 is not 2."""
    return type(value) is int


def shown(value: object) -> dict:
    """`value` as a refusal says it: a nested message {"key", "params"} the catalogue renders."""
    if value is None:
        return _said("check.value.null")
    if isinstance(value, bool):
        return _said("check.value.boolean", "true" if value else "false")
    if isinstance(value, int | float):
        return _said("check.value.number", printable(repr(value)))
    if isinstance(value, str):
        return _said("check.value.text", printable(value))
    if isinstance(value, list | tuple):
        return _said("check.value.list")
    if isinstance(value, dict):
        return _said("check.value.object")
    return _said("check.value.other", printable(type(value).__name__))


def sent(value: object) -> str | dict:
    """A sent value as Mall of Horror's refusals repeat it: a text quoted as written ('pink'), anything else in
    words (`shown`), so that true, null and 5 are never read as the Python words True, None or a text."""
    return printable(repr(value)) if isinstance(value, str) else shown(value)


_TYPES = {bool: "boolean", int: "whole", str: "text", list: "list", dict: "object"}


def expected(kind: type) -> dict:
    """What a field must be, as a refusal says it ("a whole number", "a text", "true or false")."""
    return _said(f"check.type.{_TYPES[kind]}")


def _said(key: str, text: str | None = None) -> dict:
    return {"key": key, "params": {} if text is None else {"text": text}}


def printable(text: str) -> str:
    """A sent text as a refusal may repeat it: a lone surrogate written out ("\\ud800"), at most MAX_SHOWN long."""
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 1] + "…"
