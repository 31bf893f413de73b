"""Checks every game's start and answers share: exact JSON matching and a JSON value said in a refusal.

Pure, like the rules: no I/O. A refusal that names what it got puts `described(value)` in its parameters, a
message the catalogue renders in the reader's language ('the text "5"', 'true', 'a list'); what was expected is
`expected(int)` ("a whole number"). `whole` is the one test of a whole number: a boolean is not one.
"""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

SHOWN = 24  # characters of a text repeated in a refusal; a longer one is cut


def whole(value: object) -> bool:
    """A JSON whole number: an int, never a bool (true is not 1) nor a float (4.0 is not 4)."""
    return type(value) is int


def same(a: object, b: object) -> bool:
    """JSON equality with types: 1, 1.0 and true differ, as do "0" and 0 (Python's == says 1 == True == 1.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)  # type: ignore[index]
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))  # type: ignore[arg-type]
    return a == b


def among(action: object, answers: Iterable[Mapping[str, Any]]) -> bool:
    """`action` is one of `answers`, value for value and type for type."""
    return any(same(action, dict(answer)) for answer in answers)


def shown(text: str) -> str:
    """A text safe to repeat to a player: lone surrogates and control characters replaced, cut at SHOWN."""
    clean = "".join("\ufffd" if unicodedata.category(ch) in ("Cs", "Cc", "Cf", "Co", "Cn") else ch
                    for ch in text[:SHOWN])
    return clean + ("…" if len(text) > SHOWN else "")


def described(value: object) -> dict:
    """A JSON value as a message parameter of a refusal (a nested message, rendered in the reader's language)."""
    if value is None:
        return {"key": "checks.got.null", "params": {}}
    if isinstance(value, bool):
        return {"key": "checks.got.true" if value else "checks.got.false", "params": {}}
    if isinstance(value, int):
        if abs(value) >= 10 ** 15:  # a number of thousands of digits is not repeated (nor even turned into text)
            return {"key": "checks.got.big", "params": {}}
        return {"key": "checks.got.number", "params": {"number": str(value)}}
    if isinstance(value, float):
        text = repr(value) if math.isfinite(value) and abs(value) < 1e15 else ""
        if not text:
            return {"key": "checks.got.big", "params": {}}
        return {"key": "checks.got.number", "params": {"number": text}}
    if isinstance(value, str):
        return {"key": "checks.got.text", "params": {"text": shown(value)}}
    if isinstance(value, list | tuple):
        return {"key": "checks.got.list", "params": {}}
    if isinstance(value, dict):
        return {"key": "checks.got.object", "params": {}}
    return {"key": "checks.got.other", "params": {}}


def sent(value: object) -> str | dict:
    """A sent value as a refusal repeats it: a text quoted as written ('pink'), anything else in words
    (`described`), so that true, null and 5 are never read as the Python words True, None or a text."""
    return f"'{shown(value)}'" if isinstance(value, str) else described(value)


def word(value: object) -> str:
    """A legal value as a refusal names it, in JSON's own words: "immediate" quoted, true and false bare."""
    return json.dumps(value, ensure_ascii=False)


_TYPES = {bool: "boolean", int: "whole", str: "text", list: "list", dict: "object"}


def expected(kind: type) -> dict:
    """What a field must be, as a refusal says it ("a whole number", "a text", "true or false")."""
    return {"key": f"check.type.{_TYPES[kind]}", "params": {}}


def name_of(value: object) -> str:
    """A name (an option's, a field's) as a refusal may repeat it: a text shown safely, anything else described."""
    return shown(value) if isinstance(value, str) else "?"


__all__ = ["among", "described", "expected", "name_of", "same", "sent", "shown", "whole", "word"]
